// SPDX-License-Identifier: GPL-2.0
/*
 * mbox.c - split an mbox into messages, unquote mboxrd, drop duplicates.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "mbox.h"
#include "util.h"

/* Length of the line at p (without its '\n'), at most end - p. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl;

	if (p >= end)
		return 0;
	nl = memchr(p, '\n', end - p);

	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

int mbox_is_from_line(const char *line, size_t len)
{
	const char *colon, *start;

	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	if (len < 20 || memcmp(line, "From ", 5))
		return 0;
	/* Like git: find the last ':' and expect "dd:dd:dd yyyy" around it. */
	start = line + 5;
	colon = line + len - 2;
	for (;;) {
		if (colon <= start + 4)
			return 0;
		if (*--colon == ':')
			break;
	}
	if (colon + 3 >= line + len)
		return 0;
	if (!isdigit((unsigned char)colon[-4]) ||
	    !isdigit((unsigned char)colon[-2]) ||
	    !isdigit((unsigned char)colon[-1]) ||
	    !isdigit((unsigned char)colon[1]) ||
	    !isdigit((unsigned char)colon[2]))
		return 0;
	/* The year after the seconds. */
	if (atoi(colon + 3) <= 90)
		return 0;
	return 1;
}

/* A header line "Name: ..." (RFC 5322 ftext name, then a colon). */
static int is_header_line(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == ':')
			return i > 0;
		if (c <= 32 || c >= 127)
			return 0;
	}
	return 0;
}

static int is_blank_line(const char *p, size_t len)
{
	return len == 0 || (len == 1 && p[0] == '\r');
}

char *mbox_bare_msgid(const char *s)
{
	const char *lt, *gt;

	if (!s)
		return NULL;
	lt = strchr(s, '<');
	if (lt) {
		gt = strchr(lt + 1, '>');
		if (!gt || gt == lt + 1)
			return NULL;
		return xstrndup(lt + 1, gt - lt - 1);
	}
	while (isspace((unsigned char)*s))
		s++;
	for (gt = s; *gt && !isspace((unsigned char)*gt); gt++)
		;
	if (gt == s)
		return NULL;
	return xstrndup(s, gt - s);
}

char *mbox_header(const char *msg, size_t len, const char *name)
{
	const char *p = msg, *end = msg + len;
	size_t nlen = strlen(name);

	while (p < end) {
		size_t l = line_len(p, end);
		const char *next = p + l + (p + l < end);

		if (is_blank_line(p, l))
			break;
		if (l > nlen && p[nlen] == ':' && !strncasecmp(p, name, nlen)) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add(&sb, p + nlen + 1, l - nlen - 1);
			/* Unfold continuation lines. */
			while (next < end && (*next == ' ' || *next == '\t')) {
				size_t cl = line_len(next, end);

				strbuf_add(&sb, next, cl);
				next += cl + (next + cl < end);
			}
			for (size_t i = 0; i < sb.len; i++)
				if (sb.buf[i] == '\r' || sb.buf[i] == '\n')
					sb.buf[i] = ' ';
			strbuf_trim(&sb);
			return strbuf_detach(&sb, NULL);
		}
		p = next;
	}
	return NULL;
}

static int msgid_seen(const struct mbox *mb, const char *id)
{
	size_t i;

	for (i = 0; i < mb->nr; i++)
		if (mb->msgs[i].msgid && !strcmp(mb->msgs[i].msgid, id))
			return 1;
	return 0;
}

static void add_message(struct mbox *mb, struct strbuf *sb)
{
	struct mbox_msg m;
	char *hdr;

	/* Blank lines between messages are mbox framing, not content. */
	while (sb->len >= 2 && sb->buf[sb->len - 1] == '\n' &&
	       sb->buf[sb->len - 2] == '\n')
		strbuf_setlen(sb, sb->len - 1);
	if (!sb->len) {
		strbuf_reset(sb);
		return;
	}
	hdr = mbox_header(sb->buf, sb->len, "Message-ID");
	m.msgid = mbox_bare_msgid(hdr);
	free(hdr);
	if (m.msgid && msgid_seen(mb, m.msgid)) {
		mb->nr_dups++;
		free(m.msgid);
		strbuf_reset(sb);
		return;
	}
	m.data = strbuf_detach(sb, &m.len);
	ALLOC_GROW(mb->msgs, mb->nr, mb->alloc);
	mb->msgs[mb->nr++] = m;
}

/* Append one line, LF-terminated, without a CR before the LF. */
static void add_line(struct strbuf *sb, const char *p, size_t l)
{
	if (l && p[l - 1] == '\r')
		l--;
	strbuf_add(sb, p, l);
	strbuf_addch(sb, '\n');
}

size_t mbox_split(const char *text, size_t len, struct mbox *mb)
{
	const char *p = text, *end = text + len;
	struct strbuf cur = STRBUF_INIT;
	int is_mbox, rd, in_msg = 0;
	size_t nl0;

	memset(mb, 0, sizeof(*mb));
	/* Like git mailsplit: blank lines before the first message do not count. */
	while (p < end) {
		size_t l = line_len(p, end), k;

		for (k = 0; k < l && isspace((unsigned char)p[k]); k++)
			;
		if (k < l || p + l >= end)
			break;
		p += l + 1;
	}
	nl0 = line_len(p, end);
	is_mbox = mbox_is_from_line(p, nl0);
	rd = is_mbox && nl0 >= 11 && !memcmp(p, "From mboxrd", 11);
	if (!is_mbox) {
		/* One raw message (an .eml, or git format-patch output). */
		while (p < end) {
			size_t l = line_len(p, end);

			add_line(&cur, p, l);
			p += l + (p + l < end);
		}
		add_message(mb, &cur);
		strbuf_release(&cur);
		return mb->nr;
	}
	while (p < end) {
		size_t l = line_len(p, end);
		const char *next = p + l + (p + l < end);
		int sep;

		if (rd) {
			/* mboxrd quotes every body "From ": this is framing. */
			sep = mbox_is_from_line(p, l);
		} else {
			size_t nl = next < end ? line_len(next, end) : 0;

			sep = mbox_is_from_line(p, l) &&
			      (!in_msg || is_header_line(next, nl));
		}
		if (sep) {
			if (in_msg)
				add_message(mb, &cur);
			in_msg = 1;
			p = next;
			continue;
		}
		if (rd && l >= 6 && *p == '>') {
			size_t q = 0;

			while (q < l && p[q] == '>')
				q++;
			if (l - q >= 5 && !memcmp(p + q, "From ", 5)) {
				p++;
				l--;
			}
		}
		add_line(&cur, p, l);
		p = next;
	}
	if (in_msg)
		add_message(mb, &cur);
	strbuf_release(&cur);
	return mb->nr;
}

void mbox_release(struct mbox *mb)
{
	size_t i;

	for (i = 0; i < mb->nr; i++) {
		free(mb->msgs[i].data);
		free(mb->msgs[i].msgid);
	}
	free(mb->msgs);
	memset(mb, 0, sizeof(*mb));
}
