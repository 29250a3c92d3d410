/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smtp.h - hand a composed message to an SMTP server with libcurl.
 *
 * Config: the smtp.* keys (`sched-bot config --keys` shows them and
 * their defaults), read once into struct smtp_opts: smtp.url
 * (smtp://host:port or smtps://host:port), smtp.tls (starttls: required,
 * try: when offered, none; unset: try, but starttls as soon as a
 * password is used over smtp://), smtp.user, the password from
 * smtp.passwordFile or $SCHED_BOT_SMTP_PASSWORD (or smtp.password,
 * discouraged), smtp.caFile, smtp.from, smtp.timeout.  The password is
 * never printed, not even with -v (curl's verbose trace is never
 * enabled with AUTH).
 */
#ifndef SCHED_BOT_SMTP_H
#define SCHED_BOT_SMTP_H

#include <stddef.h>

/* The smtp.* settings; strings must outlive their use. */
struct smtp_opts {
	const char *url;		/* smtp.url */
	const char *user;		/* smtp.user; NULL: no AUTH */
	const char *password;		/* smtp.password */
	const char *password_file;	/* smtp.passwordFile, tried first */
	/* $SCHED_BOT_SMTP_PASSWORD as the tool took it out of the
	 * environment at start-up (secret_take_env())
	 */
	const char *env_password;
	const char *tls;		/* smtp.tls; NULL: see above */
	const char *cafile;		/* smtp.caFile */
	const char *from;		/* smtp.from; NULL: From: */
	long timeout;			/* smtp.timeout, seconds */
};

/*
 * Use o from now on: the tool fills it from the configuration
 * (builtin/config-opts.h) and calls this once at start-up, before
 * any other call; a call before it is a bug and dies.
 */
void smtp_configure(const struct smtp_opts *o);

/*
 * Send msg (LF or CRLF line ends; a CR that ends no line goes as '?',
 * and libcurl doubles a dot that starts a line); the envelope comes
 * from its From:, To: and Cc: headers.  Returns 0, EXIT_NETWORK when the server is
 * unreachable or answered 4xx (try later), EXIT_FAIL when it refused
 * the message for good (5xx) or the message is unusable.
 */
int smtp_send(const char *msg, size_t len);

#endif
