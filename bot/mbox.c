// SPDX-License-Identifier: GPL-2.0
/*
 * mbox.c - split an mbox into messages, unquote mboxrd, drop duplicates.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

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
	const char *colon, *start, *p;
	long year;

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
	/* The year after the seconds (the line need not be NUL-terminated). */
	for (p = colon + 3; p < line + len && *p == ' '; p++)
		;
	for (year = 0; p < line + len && isdigit((unsigned char)*p) &&
	     year < 100000; p++)
		year = year * 10 + (*p - '0');
	return year > 90;
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

/* FNV-1a */
static size_t hash_id(const char *s)
{
	size_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void map_insert(struct msgid_slot *slot, size_t cap, const char *id,
		       size_t val)
{
	size_t i = hash_id(id) & (cap - 1);

	while (slot[i].id && strcmp(slot[i].id, id))
		i = (i + 1) & (cap - 1);
	slot[i].id = id;
	slot[i].val = val;
}

void msgid_map_put(struct msgid_map *m, const char *id, size_t val)
{
	if (2 * (m->nr + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64, i;
		struct msgid_slot *slot = xcalloc(cap, sizeof(*slot));

		for (i = 0; i < m->cap; i++)
			if (m->slot[i].id)
				map_insert(slot, cap, m->slot[i].id, m->slot[i].val);
		free(m->slot);
		m->slot = slot;
		m->cap = cap;
	}
	if (!msgid_map_get(m, id, &(size_t){ 0 }))
		m->nr++;
	map_insert(m->slot, m->cap, id, val);
}

int msgid_map_get(const struct msgid_map *m, const char *id, size_t *val)
{
	size_t i;

	if (!m->cap || !id)
		return 0;
	for (i = hash_id(id) & (m->cap - 1); m->slot[i].id;
	     i = (i + 1) & (m->cap - 1)) {
		if (!strcmp(m->slot[i].id, id)) {
			*val = m->slot[i].val;
			return 1;
		}
	}
	return 0;
}

void msgid_map_release(struct msgid_map *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

static void add_message(struct mbox *mb, struct strbuf *sb,
			struct msgid_map *seen)
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
	if (seen && m.msgid && msgid_map_get(seen, m.msgid, &(size_t){ 0 })) {
		mb->nr_dups++;
		free(m.msgid);
		strbuf_reset(sb);
		return;
	}
	if (seen && m.msgid)
		msgid_map_put(seen, m.msgid, mb->nr);
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

static size_t split(const char *text, size_t len, struct mbox *mb, int dedupe)
{
	const char *p = text, *end = text + len;
	struct msgid_map ids = { 0 }, *seen = dedupe ? &ids : NULL;
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
		add_message(mb, &cur, seen);
		strbuf_release(&cur);
		msgid_map_release(&ids);
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
				add_message(mb, &cur, seen);
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
		add_message(mb, &cur, seen);
	strbuf_release(&cur);
	msgid_map_release(&ids);
	return mb->nr;
}

size_t mbox_split(const char *text, size_t len, struct mbox *mb)
{
	return split(text, len, mb, 1);
}

size_t mbox_split_each(const char *text, size_t len, struct mbox *mb)
{
	return split(text, len, mb, 0);
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

char *mbox_digest(const char *msg, size_t len)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	git_libgit2_init();
	if (git_odb_hash(&oid, msg, len, GIT_OBJECT_BLOB) < 0)
		die("cannot hash a mail: %s", git_error_text());
	git_libgit2_shutdown();
	git_oid_tostr(hex, sizeof(hex), &oid);
	return xstrdup(hex);
}
