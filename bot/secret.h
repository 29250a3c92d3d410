/* SPDX-License-Identifier: GPL-2.0 */
/*
 * secret.h - every secret value the configuration holds, and a filter
 * that removes them from text before it leaves the bot (log lines,
 * build excerpts, mail, job files, archive pages) or reaches a child's
 * environment.
 *
 * The secrets are collected when first needed and again whenever they
 * change (secret_configure(), the variable): smtp.password, the
 * contents of smtp.passwordFile, $SCHED_BOT_SMTP_PASSWORD, the userinfo
 * ("user:password@") of lore.url and smtp.url, both as written and
 * percent-decoded.  Each is also looked for reversed and base64-encoded
 * (alone, and inside a longer encoded text at any of the three offsets
 * of a base64 group).  Values shorter than SECRET_MIN_LEN are not
 * filtered: removing every "ab" from every text would garble it, and a
 * password that short protects nothing anyway.
 */
#ifndef SCHED_BOT_SECRET_H
#define SCHED_BOT_SECRET_H

#include <stddef.h>

#include "util.h"

#define SECRET_MIN_LEN 4
#define SECRET_MASK "<hidden>"
/* The environment variable the SMTP password may come from. */
#define SECRET_SMTP_ENV "SCHED_BOT_SMTP_PASSWORD"

/* The configured secrets, filled in bot/builtin/ (config-opts.c). */
struct secret_opts {
	const char *smtp_password;	/* smtp.password */
	const char *smtp_password_file;	/* smtp.passwordFile */
	const char *lore_url;		/* lore.url: its userinfo */
	const char *smtp_url;		/* smtp.url: its userinfo */
};

/*
 * Filter o's secrets from now on (copied).  Until the tool calls it, at
 * start-up once the configuration is read, only the variable's value
 * and secret_add()'s are filtered.
 */
void secret_configure(const struct secret_opts *o);

/*
 * Take $SCHED_BOT_SMTP_PASSWORD out of the environment (the tool does
 * it first thing, so that no child, however started, inherits it) and
 * keep its value as a secret.  Returns the value, or NULL when it was
 * unset or empty.
 */
const char *secret_take_env(void);
/* The value taken, else the variable's (a library user), else NULL. */
const char *secret_env_password(void);

/* Register one more secret value (copied), on top of the config's. */
void secret_add(const char *value);
/* Forget every secret (the config's are collected again when needed). */
void secret_reset(void);

/* Replace each secret in sb by SECRET_MASK.  Returns how many. */
int secret_scrub(struct strbuf *sb);
/* 1 when s contains a secret. */
int secret_contains(const char *s);
/* 1 when the environment entry "NAME=VALUE" must not reach a child. */
int secret_env_entry(const char *entry);

/*
 * Every text file the bot writes into a job directory or the archive
 * (logs, consoles, state, results, pages) can carry text from an
 * untrusted source or the configuration: it is written through these.
 * secret_write_file() is write_file_atomic() of the scrubbed data;
 * secret_scrub_file() scrubs a file written by a stream (a console, a
 * log) in place once the stream is done.  0 or -1 with errno set; a
 * file that does not exist is nothing to scrub.
 */
int secret_write_file(const char *path, const void *data, size_t len);
int secret_scrub_file(const char *path);

/*
 * The same for a stream of any size (a build log: build.maxLog), in
 * bounded memory: a piece of SECRET_SCRUB_PIECE bytes at a time, the
 * end of each kept for the next so that a secret across two is found.
 * secret_scrub_fd() copies what is left to read of in to out, scrubbed:
 * how many it replaced, or -1 with errno.  secret_write_fd() is
 * write_file_atomic() of that; secret_copy_file() of the file from.
 */
#define SECRET_SCRUB_PIECE ((size_t)1 << 20)
int secret_scrub_fd(int in, int out);
int secret_write_fd(const char *path, int in);
int secret_copy_file(const char *from, const char *to);

/*
 * 1 when s (len bytes, not NUL-terminated) carries a secret in any form
 * (as is, reversed, base64).  secret_find_base64() looks for the base64
 * forms only, in s with its white space removed: base64 folded over
 * lines or split by spaces, which a decoder skips.  why (may be NULL)
 * receives which secret and in what form, never the value.  The check
 * of a whole mail, decoded as its reader sees it, is
 * mail_check_secrets() (mail.h).
 */
int secret_find(const char *s, size_t len, struct strbuf *why);
int secret_find_base64(const char *s, size_t len, struct strbuf *why);

/* Make util's error/warning/info/debug lines pass secret_scrub(). */
void secret_filter_logs(void);

/*
 * url without its userinfo ("smtp://user:pw@host/" gives
 * "smtp://host/").  Caller frees.
 */
char *secret_url_public(const char *url);

#endif
