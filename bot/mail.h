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
};

/* Parse raw (len bytes, need not be NUL-terminated).  0 or -1 + error. */
int mail_parse(const char *raw, size_t len, struct mail *m);
void mail_release(struct mail *m);

/*
 * Decode an RFC 2047 header value to UTF-8 (malformed words are left
 * as they are, bytes that are not UTF-8 are read as Latin-1).
 */
char *mail_decode_header(const char *value);

/* Convert len bytes in charset (NULL: us-ascii) to valid UTF-8. */
char *mail_to_utf8(const char *s, size_t len, const char *charset);

#endif
