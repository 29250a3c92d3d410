/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mail.h - one raw message (RFC 5322 + MIME) to UTF-8 text with
 * libetpan: decoded headers, the text a human or git would read, and
 * patches carried as attachments.  Hostile input gives an error or a best
 * effort, never a crash.
 */
#ifndef SCHED_BOT_MAIL_H
#define SCHED_BOT_MAIL_H

#include <stddef.h>

struct mail {
	char *msgid;		/* bare Message-ID, NULL when missing */
	char *in_reply_to;	/* bare, NULL when missing */
	char **refs;		/* References:, oldest first, bare ids */
	size_t nr_refs;
	char *subject;		/* RFC 2047 decoded, unfolded, "" if none */
	char *from_name;	/* decoded display name, "" if none */
	char *from_email;	/* "" if none */
	char *date;		/* Date: as sent, "" if none */
	long long timestamp;	/* 0 when Date: is missing or bad */
	int tz_offset;		/* minutes east of UTC */
	/*
	 * Every text/plain part and every attachment that carries a patch,
	 * in order, transfer-decoded and converted to UTF-8, LF line ends,
	 * no NUL bytes.
	 */
	char *body;
	int has_patch_attachment;
	/*
	 * Set when the mail is poison: it broke a parse budget (size, MIME
	 * depth or parts, CPU time or memory of the parser) or crashed the
	 * parser.  The fields above then come from the header text alone
	 * and the body is the raw text; callers that act on mail from the
	 * internet (cron) quarantine it.  NULL for a mail parsed in full.
	 */
	char *poison;
};

/*
 * The budget of one parse.  A mail that is big or announces many MIME
 * parts is parsed in a child process under RLIMIT_CPU and RLIMIT_AS, so
 * a parser that overruns or crashes costs a recorded failure, not the
 * caller; every mail's MIME tree is checked against max_depth and
 * max_parts once libetpan has built it.
 */
struct mail_limits {
	long parse_seconds;	/* CPU seconds of a child parse */
	long long parse_memory;	/* bytes of the child's address space */
	long long max_size;	/* bytes; a bigger mail is not MIME-parsed */
	long max_depth;		/* MIME nesting */
	long max_parts;		/* MIME parts in all */
};

/* Filled from mail.* in bot/builtin/ (config-opts.c); else the defaults. */
void mail_configure(const struct mail_limits *l);

/*
 * Parse raw (len bytes, need not be NUL-terminated).  0 or -1 + error;
 * a poison mail gives 0 with m->poison set.
 */
int mail_parse(const char *raw, size_t len, struct mail *m);
void mail_release(struct mail *m);

/*
 * An RFC 5322 date (a Date: value) as seconds since the epoch, UTC;
 * -1 when it does not parse or names no real time of day.
 */
int mail_parse_date(const char *value, long long *timestamp);

/*
 * Decode an RFC 2047 header value to UTF-8 (malformed words are left
 * as they are, bytes that are not UTF-8 are read as Latin-1).
 */
char *mail_decode_header(const char *value);

/* Convert len bytes in charset (NULL: us-ascii) to valid UTF-8. */
char *mail_to_utf8(const char *s, size_t len, const char *charset);

struct strbuf;
/*
 * The mail as its reader sees it, appended to out: each header field
 * "Name: value" on a line, the value unfolded and RFC 2047-decoded
 * (mail_decode_header()); each part transfer-decoded as it declares and
 * converted to UTF-8; then the whole body quoted-printable-decoded, for
 * a reader whose program guesses an encoding the mail does not declare.
 */
void mail_reader_text(const char *raw, size_t len, struct strbuf *out);

/*
 * 1 when a mail, about to be written to the outbox or sent, still
 * carries a secret in any form (secret.h) after the filter: looked for
 * in the mail as written, as its reader sees it (mail_reader_text())
 * and, for the base64 forms, with its white space removed.  why (may
 * be NULL) receives which secret and in what form, never the value.
 */
int mail_check_secrets(const char *raw, size_t len, struct strbuf *why);

/*
 * One element of an address list: as written ("Name <a@b>", trimmed)
 * and its bare address, lower-case.
 */
struct mail_addr {
	char *text;
	char *email;
};

#define MAIL_ADDRESS_MAX 254	/* RFC 5321's path, less the <> */

/*
 * Split an address-list header value at commas outside quotes, <> and
 * (), as "Name <a@b>", "a@b (Name)" or a group's "list: a@b".  Elements
 * whose address does not look like one (printable, no space, an '@'
 * inside, at most MAIL_ADDRESS_MAX bytes) are dropped, and the list
 * stops after max elements (0: no limit), since hostile mail has
 * thousands of Cc.  Returns the count; *out is NULL when it is 0.
 */
size_t mail_split_addresses(const char *list, size_t max,
			    struct mail_addr **out);
void mail_free_addresses(struct mail_addr *a, size_t nr);

#endif
