/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smtp.h - hand a composed message to an SMTP server with libcurl.
 *
 * Config: smtp.url (smtp://host:port or smtps://host:port, default
 * smtp://127.0.0.1:25), smtp.tls (starttls: required, try: when
 * offered, none; default try, but starttls as soon as a password is
 * used over smtp://), smtp.user, the password from smtp.passwordFile or
 * $SCHED_BOT_SMTP_PASSWORD (or smtp.password, discouraged), smtp.caFile,
 * smtp.timeout (seconds, default 60).  The password is never printed,
 * not even with -v (curl's verbose trace is never enabled with AUTH).
 */
#ifndef SCHED_BOT_SMTP_H
#define SCHED_BOT_SMTP_H

#include <stddef.h>

/*
 * Send msg (LF or CRLF line ends); the envelope comes from its From:,
 * To: and Cc: headers.  Returns 0, EXIT_NETWORK when the server is
 * unreachable or answered 4xx (try later), EXIT_FAIL when it refused
 * the message for good (5xx) or the message is unusable.
 */
int smtp_send(const char *msg, size_t len);

#endif
