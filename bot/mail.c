// SPDX-License-Identifier: GPL-2.0
/*
 * mail.c - parse one message with libetpan: headers, text, patches.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libetpan/libetpan.h>

#include "mail.h"
#include "mbox.h"
#include "secret.h"
#include "util.h"

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* No overlong forms, surrogates or values past U+10FFFF. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static int is_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t l = utf8_seq(p + i, n - i);

		if (!l)
			return 0;
		i += l;
	}
	return 1;
}

/*
 * Valid UTF-8 without NUL and without CR before LF: invalid bytes are
 * read as Latin-1, NULs dropped (strings here are C strings).
 */
static char *sanitize(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	strbuf_grow(&sb, n);
	while (i < n) {
		size_t l;

		if (!p[i]) {
			i++;
			continue;
		}
		if (p[i] == '\r' && i + 1 < n && p[i + 1] == '\n') {
			i++;
			continue;
		}
		l = utf8_seq(p + i, n - i);
		if (l) {
			strbuf_add(&sb, p + i, l);
			i += l;
			continue;
		}
		strbuf_addch(&sb, 0xc0 | (p[i] >> 6));
		strbuf_addch(&sb, 0x80 | (p[i] & 0x3f));
		i++;
	}
	return strbuf_detach(&sb, NULL);
}

char *mail_to_utf8(const char *s, size_t len, const char *charset)
{
	char *conv = NULL, *out;
	size_t conv_len = 0;

	if (!charset || !*charset || !strcasecmp(charset, "utf-8") ||
	    !strcasecmp(charset, "utf8") || !strcasecmp(charset, "us-ascii") ||
	    is_utf8(s, len))
		return sanitize(s, len);
	/* iconv stops at NUL in some paths; a NUL-free copy is safer. */
	if (memchr(s, 0, len))
		return sanitize(s, len);
	if (charconv_buffer("utf-8", charset, s, len, &conv, &conv_len) !=
	    MAIL_CHARCONV_NO_ERROR || !conv) {
		if (conv)
			charconv_buffer_free(conv);
		/* Unknown or lying charset: Latin-1 never fails. */
		return sanitize(s, len);
	}
	out = sanitize(conv, conv_len);
	charconv_buffer_free(conv);
	return out;
}

/* A complete encoded word "=?charset?Q?text?=" somewhere in s. */
static int has_encoded_word(const char *s)
{
	const char *p, *q;

	for (p = strstr(s, "=?"); p; p = strstr(p + 2, "=?")) {
		q = strchr(p + 2, '?');
		if (!q || q == p + 2 || !strchr("QqBb", q[1]) || !q[1] ||
		    q[2] != '?')
			continue;
		if (strstr(q + 3, "?="))
			return 1;
	}
	return 0;
}

char *mail_decode_header(const char *value)
{
	char *decoded = NULL, *out, *p;
	size_t idx = 0, len;

	if (!value)
		return xstrdup("");
	len = strlen(value);
	/* Raw 8-bit headers are most often UTF-8; libetpan needs a guess. */
	if (has_encoded_word(value) &&
	    mailmime_encoded_phrase_parse(is_utf8(value, len) ? "utf-8" :
					  "iso-8859-1", value, len, &idx,
					  "utf-8", &decoded) ==
	    MAILIMF_NO_ERROR && decoded) {
		out = sanitize(decoded, strlen(decoded));
		free(decoded);
	} else {
		free(decoded);
		out = sanitize(value, len);
	}
	/* Unfold: no line breaks or tabs in a one-line header value. */
	for (p = out; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	/* Nor terminal escapes: subjects and names are printed and logged. */
	strip_controls(out, strlen(out));
	return out;
}

/* Seconds since the epoch of a parsed date, and its zone; -1 if bad. */
static int date_time_ts(struct mailimf_date_time *dt, long long *ts,
			int *tz_offset)
{
	struct tm tm;
	int zone, sign, off;
	time_t t;

	if (!dt || dt->dt_year < 1970 || dt->dt_year > 9999 ||
	    dt->dt_month < 1 || dt->dt_month > 12 || dt->dt_day < 1 ||
	    dt->dt_day > 31 || dt->dt_hour < 0 || dt->dt_hour > 23 ||
	    dt->dt_min < 0 || dt->dt_min > 59 || dt->dt_sec < 0 ||
	    dt->dt_sec > 60)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = dt->dt_year - 1900;
	tm.tm_mon = dt->dt_month - 1;
	tm.tm_mday = dt->dt_day;
	tm.tm_hour = dt->dt_hour;
	tm.tm_min = dt->dt_min;
	tm.tm_sec = dt->dt_sec;
	t = timegm(&tm);
	zone = dt->dt_zone;
	if (zone < -9999 || zone > 9999)
		zone = 0;
	sign = zone < 0 ? -1 : 1;
	zone = abs(zone);
	off = sign * ((zone / 100) * 60 + zone % 100);
	*ts = (long long)t - off * 60LL;
	*tz_offset = off;
	return 0;
}

static void take_date(struct mail *m, struct mailimf_date_time *dt)
{
	long long ts;
	int off;

	if (date_time_ts(dt, &ts, &off) < 0)
		return;
	m->timestamp = ts;
	m->tz_offset = off;
}

int mail_parse_date(const char *value, long long *timestamp)
{
	struct mailimf_date_time *dt = NULL;
	size_t idx = 0, len = value ? strlen(value) : 0;
	int off, ret;

	if (!len || mailimf_date_time_parse(value, len, &idx, &dt) !=
	    MAILIMF_NO_ERROR)
		return -1;
	ret = date_time_ts(dt, timestamp, &off);
	mailimf_date_time_free(dt);
	return ret;
}

static void take_ids(clist *list, char ***ids, size_t *nr)
{
	clistiter *it;
	size_t alloc = 0;

	if (!list)
		return;
	for (it = clist_begin(list); it; it = clist_next(it)) {
		const char *id = clist_content(it);

		if (!id || !*id)
			continue;
		ALLOC_GROW(*ids, *nr, alloc);
		(*ids)[(*nr)++] = sanitize(id, strlen(id));
	}
}

static void take_from(struct mail *m, struct mailimf_from *from)
{
	struct mailimf_mailbox *mb;
	clistiter *it;

	if (!from || !from->frm_mb_list || !from->frm_mb_list->mb_list)
		return;
	it = clist_begin(from->frm_mb_list->mb_list);
	if (!it)
		return;
	mb = clist_content(it);
	if (!mb || !mb->mb_addr_spec)
		return;
	free(m->from_email);
	free(m->from_name);
	m->from_email = sanitize(mb->mb_addr_spec, strlen(mb->mb_addr_spec));
	m->from_name = mail_decode_header(mb->mb_display_name ?
					  mb->mb_display_name : "");
}

static void take_fields(struct mail *m, struct mailimf_fields *fields)
{
	clistiter *it;

	if (!fields || !fields->fld_list)
		return;
	for (it = clist_begin(fields->fld_list); it; it = clist_next(it)) {
		struct mailimf_field *f = clist_content(it);

		switch (f->fld_type) {
		case MAILIMF_FIELD_MESSAGE_ID:
			if (!m->msgid && f->fld_data.fld_message_id->mid_value)
				m->msgid = sanitize(
					f->fld_data.fld_message_id->mid_value,
					strlen(f->fld_data.fld_message_id->mid_value));
			break;
		case MAILIMF_FIELD_FROM:
			if (!*m->from_email)
				take_from(m, f->fld_data.fld_from);
			break;
		case MAILIMF_FIELD_ORIG_DATE:
			if (!m->timestamp)
				take_date(m, f->fld_data.fld_orig_date->dt_date_time);
			break;
		case MAILIMF_FIELD_IN_REPLY_TO: {
			char **ids = NULL;
			size_t nr = 0, i;

			take_ids(f->fld_data.fld_in_reply_to->mid_list, &ids, &nr);
			if (nr && !m->in_reply_to)
				m->in_reply_to = xstrdup(ids[0]);
			for (i = 0; i < nr; i++)
				free(ids[i]);
			free(ids);
			break;
		}
		case MAILIMF_FIELD_REFERENCES:
			if (!m->nr_refs)
				take_ids(f->fld_data.fld_references->mid_list,
					 &m->refs, &m->nr_refs);
			break;
		default:
			break;
		}
	}
}

static int is_patch_name(const char *name)
{
	return name && (ends_with(name, ".patch") || ends_with(name, ".diff"));
}

/* Transfer-decode a single part and add it to the body as UTF-8. */
static void add_single(struct mail *m, struct mailmime *mime, struct strbuf *body)
{
	struct mailmime_single_fields sf;
	struct mailmime_data *data = mime->mm_data.mm_single;
	struct mailmime_content *ct = mime->mm_content_type;
	const char *type_sub = NULL, *name;
	int text = 0, patch = 0, enc;
	char *dec = NULL, *utf;
	size_t dec_len = 0, idx = 0;

	if (!data || data->dt_type != MAILMIME_DATA_TEXT)
		return;
	mailmime_single_fields_init(&sf, mime->mm_mime_fields, ct);
	name = sf.fld_disposition_filename ? sf.fld_disposition_filename :
	       sf.fld_content_name;
	if (ct && ct->ct_type &&
	    ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE &&
	    ct->ct_type->tp_data.tp_discrete_type) {
		int dt = ct->ct_type->tp_data.tp_discrete_type->dt_type;

		type_sub = ct->ct_subtype;
		if (dt == MAILMIME_DISCRETE_TYPE_TEXT && type_sub) {
			if (!strcasecmp(type_sub, "plain"))
				text = 1;
			else if (!strcasecmp(type_sub, "x-patch") ||
				 !strcasecmp(type_sub, "x-diff") ||
				 !strcasecmp(type_sub, "x-csrc"))
				patch = !strcasecmp(type_sub, "x-csrc") ?
					is_patch_name(name) : 1;
		} else if (dt == MAILMIME_DISCRETE_TYPE_APPLICATION &&
			   type_sub && (!strcasecmp(type_sub, "octet-stream") ||
					!strcasecmp(type_sub, "x-patch"))) {
			patch = is_patch_name(name);
		}
	} else if (!ct) {
		text = 1;	/* no Content-Type: text/plain by default */
	}
	if (text && is_patch_name(name))
		patch = 1;
	if (!text && !patch)
		return;
	enc = data->dt_encoded ? data->dt_encoding : MAILMIME_MECHANISM_8BIT;
	if (mailmime_part_parse(data->dt_data.dt_text.dt_data,
				data->dt_data.dt_text.dt_length, &idx, enc,
				&dec, &dec_len) != MAILIMF_NO_ERROR || !dec) {
		/* Broken encoding: the raw text is the best effort. */
		utf = mail_to_utf8(data->dt_data.dt_text.dt_data,
				   data->dt_data.dt_text.dt_length,
				   sf.fld_content_charset);
	} else {
		utf = mail_to_utf8(dec, dec_len, sf.fld_content_charset);
		mailmime_decoded_part_free(dec);
	}
	if (body->len && body->buf[body->len - 1] != '\n')
		strbuf_addch(body, '\n');
	strbuf_addstr(body, utf);
	free(utf);
	if (patch)
		m->has_patch_attachment = 1;
}

static void walk(struct mail *m, struct mailmime *mime, struct strbuf *body,
		 int depth)
{
	clistiter *it;

	/* MIME nesting is attacker-controlled: bound the recursion. */
	if (!mime || depth > 32)
		return;
	switch (mime->mm_type) {
	case MAILMIME_SINGLE:
		add_single(m, mime, body);
		break;
	case MAILMIME_MULTIPLE: {
		const char *sub = mime->mm_content_type ?
				  mime->mm_content_type->ct_subtype : NULL;
		int alternative = sub && !strcasecmp(sub, "alternative");

		if (!mime->mm_data.mm_multipart.mm_mp_list)
			break;
		for (it = clist_begin(mime->mm_data.mm_multipart.mm_mp_list);
		     it; it = clist_next(it)) {
			size_t before = body->len;

			walk(m, clist_content(it), body, depth + 1);
			/* One rendering of an alternative is enough. */
			if (alternative && body->len != before)
				break;
		}
		break;
	}
	case MAILMIME_MESSAGE:
		/* Only the top-level message: forwarded mail is not ours. */
		if (depth == 0)
			walk(m, mime->mm_data.mm_message.mm_msg_mime, body,
			     depth + 1);
		break;
	}
}

/* Fallbacks from the raw header block when libetpan could not parse one. */
static void raw_fallbacks(struct mail *m, const char *raw, size_t len)
{
	char *v;

	if (!m->msgid) {
		v = mbox_header(raw, len, "Message-ID");
		m->msgid = mbox_bare_msgid(v);
		free(v);
	}
	if (!m->in_reply_to) {
		v = mbox_header(raw, len, "In-Reply-To");
		m->in_reply_to = mbox_bare_msgid(v);
		free(v);
	}
	v = mbox_header(raw, len, "Subject");
	m->subject = mail_decode_header(v ? v : "");
	free(v);
	v = mbox_header(raw, len, "Date");
	m->date = v ? sanitize(v, strlen(v)) : xstrdup("");
	free(v);
	if (!*m->from_email) {
		char *lt, *gt;

		v = mbox_header(raw, len, "From");
		lt = v ? strchr(v, '<') : NULL;
		gt = lt ? strchr(lt, '>') : NULL;
		if (gt) {
			free(m->from_email);
			free(m->from_name);
			m->from_email = sanitize(lt + 1, gt - lt - 1);
			*lt = 0;
			m->from_name = mail_decode_header(v);
		} else if (v && strchr(v, '@')) {
			free(m->from_email);
			m->from_email = sanitize(v, strlen(v));
		}
		free(v);
	}
}

/* Strip surrounding blanks and quotes from a display name in place. */
static void tidy_name(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == '"'))
		s[--n] = 0;
	while (s[i] && (isspace((unsigned char)s[i]) || s[i] == '"'))
		i++;
	memmove(s, s + i, n - i + 1);
}

/* Headers by hand, the body as plain text: for mail libetpan must not see. */
static void parse_plain(struct mail *m, const char *raw, size_t len)
{
	const char *p = raw, *end = raw + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		p += l + (nl != NULL);
		if (!l || (l == 1 && p[-2] == '\r'))
			break;
	}
	raw_fallbacks(m, raw, len);
	tidy_name(m->from_name);
	free(m->body);
	m->body = sanitize(p, end - p);
}

static struct mail_limits limits = {
	.parse_seconds = 2,
	.parse_memory = 1LL << 30,
	.max_size = 64LL << 20,
	.max_depth = 32,
	.max_parts = 1000,
};

void mail_configure(const struct mail_limits *l)
{
	limits = *l;
	if (limits.parse_seconds < 1)
		limits.parse_seconds = 1;
}

/*
 * Mail at most this big, with at most this many Content-Type fields, is
 * parsed in the caller's process: libetpan recurses once per container
 * and every container needs a Content-Type field of its own (a field
 * name starts a line, however the value is folded or commented), so
 * such a mail can neither nest deeply nor cost much.  Anything else is
 * parsed in a child under the budget.
 */
#define INLINE_MAX_SIZE (256 << 10)
#define INLINE_MAX_TYPES 64

/* Header lines named Content-Type, in any part, up to stop. */
static size_t count_types(const char *raw, size_t len, size_t stop)
{
	size_t i, n = 0;

	for (i = 0; i + 12 <= len && n <= stop; i++) {
		if (i && raw[i - 1] != '\n')
			continue;
		if ((raw[i] | 0x20) == 'c' &&
		    !strncasecmp(raw + i, "content-type", 12))
			n++;
	}
	return n;
}

struct tree_count {
	long parts;
	int too_deep;
};

/* Depth and parts of the tree libetpan built; stops past the limits. */
static void count_tree(struct mailmime *mime, long depth, struct tree_count *c)
{
	clistiter *it;

	if (!mime || c->too_deep || c->parts > limits.max_parts)
		return;
	if (depth > limits.max_depth) {
		c->too_deep = 1;
		return;
	}
	c->parts++;
	if (mime->mm_type == MAILMIME_MULTIPLE &&
	    mime->mm_data.mm_multipart.mm_mp_list) {
		for (it = clist_begin(mime->mm_data.mm_multipart.mm_mp_list);
		     it; it = clist_next(it))
			count_tree(clist_content(it), depth + 1, c);
	} else if (mime->mm_type == MAILMIME_MESSAGE) {
		count_tree(mime->mm_data.mm_message.mm_msg_mime, depth + 1, c);
	}
}

/* The MIME parse proper, in whichever process runs it. */
static int parse_tree(const char *raw, size_t len, struct mail *m)
{
	struct mailmime *mime = NULL;
	struct strbuf body = STRBUF_INIT;
	struct tree_count c = { 0 };
	size_t idx = 0;
	int r;

	r = mailmime_parse(raw, len, &idx, &mime);
	if (r != MAILIMF_NO_ERROR || !mime) {
		raw_fallbacks(m, raw, len);
		if (!m->msgid && !*m->subject)
			return error("cannot parse the message (MIME error %d)",
				     r);
		/* Headers only: keep the raw text after them as the body. */
		m->body = xstrdup("");
		return 0;
	}
	count_tree(mime, 0, &c);
	if (c.too_deep || c.parts > limits.max_parts) {
		mailmime_free(mime);
		m->poison = c.too_deep ?
			xasprintf("MIME parts nested more than %ld deep (mail.maxDepth)",
				  limits.max_depth) :
			xasprintf("more than %ld MIME parts (mail.maxParts)",
				  limits.max_parts);
		parse_plain(m, raw, len);
		return 0;
	}
	if (mime->mm_type == MAILMIME_MESSAGE)
		take_fields(m, mime->mm_data.mm_message.mm_fields);
	walk(m, mime, &body, 0);
	mailmime_free(mime);
	raw_fallbacks(m, raw, len);
	tidy_name(m->from_name);
	m->body = strbuf_detach(&body, NULL);
	return 0;
}

/*
 * The child's answer on a pipe: a status (0, or -1 for a parse error),
 * then the fields as length-prefixed strings (UINT64_MAX for NULL).
 */
static void put_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		put_u64(sb, UINT64_MAX);
		return;
	}
	put_u64(sb, strlen(s));
	strbuf_addstr(sb, s);
}

static void put_mail(struct strbuf *sb, int status, const struct mail *m)
{
	size_t i;

	put_u64(sb, (uint64_t)(int64_t)status);
	if (status)
		return;
	put_str(sb, m->msgid);
	put_str(sb, m->in_reply_to);
	put_u64(sb, m->nr_refs);
	for (i = 0; i < m->nr_refs; i++)
		put_str(sb, m->refs[i]);
	put_str(sb, m->subject);
	put_str(sb, m->from_name);
	put_str(sb, m->from_email);
	put_str(sb, m->date);
	put_u64(sb, (uint64_t)m->timestamp);
	put_u64(sb, (uint64_t)(int64_t)m->tz_offset);
	put_str(sb, m->body);
	put_u64(sb, m->has_patch_attachment);
	put_str(sb, m->poison);
}

struct reader {
	const char *p, *end;
	int bad;
};

static uint64_t get_u64(struct reader *r)
{
	uint64_t v = 0;

	if (r->bad || (size_t)(r->end - r->p) < sizeof(v)) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, sizeof(v));
	r->p += sizeof(v);
	return v;
}

static char *get_str(struct reader *r)
{
	uint64_t n = get_u64(r);
	char *s;

	if (r->bad || n == UINT64_MAX)
		return NULL;
	if (n > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return NULL;
	}
	s = xstrndup(r->p, n);
	r->p += n;
	return s;
}

/* 0, -1 (the child's parse error), -2 (a short or broken answer). */
static int get_mail(const char *buf, size_t len, struct mail *m)
{
	struct reader r = { buf, buf + len, 0 };
	int status = (int)(int64_t)get_u64(&r);
	uint64_t i, n;

	if (r.bad)
		return -2;
	if (status)
		return -1;
	free(m->from_name);
	free(m->from_email);
	m->from_name = m->from_email = NULL;
	m->msgid = get_str(&r);
	m->in_reply_to = get_str(&r);
	n = get_u64(&r);
	if (n > len / sizeof(uint64_t))
		r.bad = 1;
	for (i = 0; !r.bad && i < n; i++) {
		char *s = get_str(&r);

		if (!s)
			break;
		m->refs = xrealloc(m->refs, (m->nr_refs + 1) *
				   sizeof(*m->refs));
		m->refs[m->nr_refs++] = s;
	}
	m->subject = get_str(&r);
	m->from_name = get_str(&r);
	m->from_email = get_str(&r);
	m->date = get_str(&r);
	m->timestamp = (long long)get_u64(&r);
	m->tz_offset = (int)(int64_t)get_u64(&r);
	m->body = get_str(&r);
	m->has_patch_attachment = !!get_u64(&r);
	m->poison = get_str(&r);
	if (r.bad || !m->subject || !m->from_name || !m->from_email ||
	    !m->date || !m->body)
		return -2;
	return 0;
}

static void limit(int resource, rlim_t value)
{
	struct rlimit rl = { value, value };

	if (resource == RLIMIT_CPU)
		rl.rlim_max = value + 1;	/* SIGXCPU first, then KILL */
	setrlimit(resource, &rl);
}

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

static void child_parse(int fd, const char *raw, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	struct mail m;
	int status;

	limit(RLIMIT_CPU, limits.parse_seconds);
	limit(RLIMIT_CORE, 0);
#ifndef HAVE_ASAN
	/* ASan's shadow memory is terabytes of address space. */
	limit(RLIMIT_AS, limits.parse_memory);
#endif
	memset(&m, 0, sizeof(m));
	m.from_name = xstrdup("");
	m.from_email = xstrdup("");
	status = parse_tree(raw, len, &m) ? -1 : 0;
	put_mail(&sb, status, &m);
	_exit(write_in_full(fd, sb.buf, sb.len) ? 1 : 0);
}

/*
 * Parse in a child under the budget.  0 with *m filled (poison set when
 * the child found the tree over the limits), -1 for a parse error, -2
 * with *why when the child overran or crashed.
 */
static int parse_isolated(const char *raw, size_t len, struct mail *m,
			  char **why)
{
	struct strbuf out = STRBUF_INIT;
	/* Wall time too, generous: a loaded machine is no poison mail. */
	double wall = 10.0 * limits.parse_seconds + 10;
	double deadline = now_monotonic() + wall;
	int fds[2], status = 0, ret = -2, timed_out = 0;
	pid_t pid;

	*why = NULL;
	if (pipe(fds) < 0) {
		*why = xasprintf("cannot make a pipe: %s", strerror(errno));
		return -2;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		*why = xasprintf("cannot fork the parser: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -2;
	}
	if (!pid) {
		close(fds[0]);
		child_parse(fds[1], raw, len);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		double left = deadline - now_monotonic();
		char buf[65536];
		ssize_t n;

		if (left <= 0) {
			timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!pfd.revents)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&out, buf, n);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out) {
		*why = xasprintf("the parser took longer than %.0f s", wall);
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (sig == SIGXCPU || sig == SIGKILL)
			*why = xasprintf("the parser used up its %ld s of CPU (mail.parseSeconds)",
					 limits.parse_seconds);
		else
			*why = xasprintf("the parser crashed (%s)",
					 strsignal(sig));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		*why = xasprintf("the parser failed (exit %d: out of memory, mail.parseMemory, or its stack)",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else {
		ret = get_mail(out.buf, out.len, m);
		if (ret == -2)
			*why = xstrdup("the parser's answer was cut short");
	}
	strbuf_release(&out);
	return ret;
}

static void mail_init(struct mail *m)
{
	memset(m, 0, sizeof(*m));
	m->from_name = xstrdup("");
	m->from_email = xstrdup("");
}

static int parse_padded(const char *raw, size_t len, struct mail *m)
{
	char *why = NULL;
	int ret;

	mail_init(m);
	if ((long long)len > limits.max_size) {
		m->poison = xasprintf("%zu bytes, more than mail.maxSize", len);
		parse_plain(m, raw, len);
		return 0;
	}
	if (len <= INLINE_MAX_SIZE &&
	    count_types(raw, len, INLINE_MAX_TYPES) <= INLINE_MAX_TYPES) {
		ret = parse_tree(raw, len, m);
		if (ret < 0) {
			mail_release(m);
			return ret;
		}
	} else {
		ret = parse_isolated(raw, len, m, &why);
		if (ret == -1) {
			mail_release(m);
			return error("cannot parse the message");
		}
	}
	if (ret == -2) {
		mail_release(m);
		mail_init(m);
		m->poison = why;
		parse_plain(m, raw, len);
	}
	if (m->poison)
		warning("<%s>: poison mail, read as plain text: %s",
			m->msgid ? m->msgid : "no Message-ID", m->poison);
	return 0;
}

/*
 * libetpan's decoders read up to two bytes past a part that ends in a
 * cut escape ("=\xcd" in quoted-printable), and callers' buffers need not
 * be NUL-terminated: parse a copy with NUL padding.
 */
int mail_parse(const char *raw, size_t len, struct mail *m)
{
	char *copy = xmalloc(len + 4);
	int ret;

	memcpy(copy, raw, len);
	memset(copy + len, 0, 4);
	ret = parse_padded(copy, len, m);
	free(copy);
	return ret;
}

void mail_release(struct mail *m)
{
	size_t i;

	free(m->msgid);
	free(m->in_reply_to);
	for (i = 0; i < m->nr_refs; i++)
		free(m->refs[i]);
	free(m->refs);
	free(m->subject);
	free(m->from_name);
	free(m->from_email);
	free(m->date);
	free(m->body);
	free(m->poison);
	memset(m, 0, sizeof(*m));
}

/* ---- address lists ---------------------------------------------- */

/* The bare address of one element, lower-case, or NULL. */
static char *element_address(const char *p, size_t n)
{
	const char *lt = memchr(p, '<', n), *gt, *colon, *end = p + n;
	char *a;
	size_t i, len;

	gt = lt ? memchr(lt, '>', end - lt) : NULL;
	if (gt) {
		p = lt + 1;
		end = gt;
	} else {
		const char *paren = memchr(p, '(', n);

		if (paren)
			end = paren;
		/* a group's "name:" before its first mailbox */
		while ((colon = memchr(p, ':', end - p)))
			p = colon + 1;
	}
	while (p < end && (*p == ' ' || *p == '\t' || *p == ';'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == ';'))
		end--;
	len = end - p;
	if (len < 3 || len > MAIL_ADDRESS_MAX || !memchr(p, '@', len) ||
	    *p == '@' || end[-1] == '@')
		return NULL;
	for (i = 0; i < len; i++)
		if ((unsigned char)p[i] <= ' ' || (unsigned char)p[i] >= 127 ||
		    p[i] == '"' || p[i] == ',' || p[i] == '<' || p[i] == '>')
			return NULL;
	a = xstrndup(p, len);
	for (i = 0; i < len; i++)
		a[i] = tolower((unsigned char)a[i]);
	return a;
}

size_t mail_split_addresses(const char *list, size_t max,
			    struct mail_addr **out)
{
	struct mail_addr *a = NULL;
	size_t nr = 0, alloc = 0;
	const char *p = list, *start = list;
	int quote = 0, angle = 0, paren = 0;

	*out = NULL;
	if (!list)
		return 0;
	for (; !max || nr < max; p++) {
		char *email;

		if (*p && (quote || angle || paren || *p != ',')) {
			if (*p == '\\' && quote && p[1])
				p++;
			else if (*p == '"' && !angle && !paren)
				quote = !quote;
			else if (!quote && *p == '<')
				angle = 1;
			else if (!quote && *p == '>')
				angle = 0;
			else if (!quote && *p == '(')
				paren++;
			else if (!quote && *p == ')' && paren)
				paren--;
			continue;
		}
		email = element_address(start, p - start);
		if (email) {
			ALLOC_GROW(a, nr, alloc);
			a[nr].text = xstrndup_trim(start, p - start);
			a[nr].email = email;
			nr++;
		}
		if (!*p)
			break;
		start = p + 1;
	}
	*out = a;
	return nr;
}

void mail_free_addresses(struct mail_addr *a, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(a[i].text);
		free(a[i].email);
	}
	free(a);
}

/* ---- the mail as its reader sees it, and the secret check on it ---- */

static void reader_header(const char *raw, size_t len, size_t *end,
			  struct strbuf *out)
{
	struct mailimf_fields *fields = NULL;
	clistiter *it;

	*end = 0;
	if (mailimf_optional_fields_parse(raw, len, end, &fields) !=
	    MAILIMF_NO_ERROR || !fields) {
		*end = 0;	/* then all of it is searched as a body */
		return;
	}
	for (it = clist_begin(fields->fld_list); it; it = clist_next(it)) {
		struct mailimf_field *f = clist_content(it);
		struct mailimf_optional_field *o;
		char *v;

		if (f->fld_type != MAILIMF_FIELD_OPTIONAL_FIELD)
			continue;
		o = f->fld_data.fld_optional_field;
		v = mail_decode_header(o->fld_value);
		strbuf_addf(out, "%s: %s\n", o->fld_name ? o->fld_name : "", v);
		free(v);
	}
	mailimf_fields_free(fields);
}

static void reader_parts(struct mailmime *mime, struct strbuf *out,
			 int depth)
{
	struct mailmime_single_fields sf;
	struct mailmime_data *data;
	char *dec = NULL, *utf;
	size_t dec_len = 0, idx = 0;
	clistiter *it;
	int enc;

	/* as walk(): the nesting is bounded */
	if (!mime || depth > 32)
		return;
	if (mime->mm_type == MAILMIME_MULTIPLE) {
		if (!mime->mm_data.mm_multipart.mm_mp_list)
			return;
		for (it = clist_begin(mime->mm_data.mm_multipart.mm_mp_list);
		     it; it = clist_next(it))
			reader_parts(clist_content(it), out, depth + 1);
		return;
	}
	if (mime->mm_type == MAILMIME_MESSAGE) {
		reader_parts(mime->mm_data.mm_message.mm_msg_mime, out,
			     depth + 1);
		return;
	}
	data = mime->mm_data.mm_single;
	if (!data || data->dt_type != MAILMIME_DATA_TEXT)
		return;
	mailmime_single_fields_init(&sf, mime->mm_mime_fields,
				    mime->mm_content_type);
	enc = data->dt_encoded ? data->dt_encoding : MAILMIME_MECHANISM_8BIT;
	if (mailmime_part_parse(data->dt_data.dt_text.dt_data,
				data->dt_data.dt_text.dt_length, &idx, enc,
				&dec, &dec_len) != MAILIMF_NO_ERROR || !dec)
		return;		/* the raw text is searched anyway */
	utf = mail_to_utf8(dec, dec_len, sf.fld_content_charset);
	mailmime_decoded_part_free(dec);
	strbuf_addstr(out, utf);
	strbuf_addch(out, '\n');
	free(utf);
}

void mail_reader_text(const char *raw, size_t len, struct strbuf *out)
{
	struct mailmime *mime = NULL;
	char *dec = NULL;
	size_t body, idx = 0, dec_len = 0;

	reader_header(raw, len, &body, out);
	if (mailmime_parse(raw, len, &idx, &mime) == MAILIMF_NO_ERROR &&
	    mime) {
		reader_parts(mime, out, 0);
		mailmime_free(mime);
	}
	idx = body;
	if (mailmime_part_parse(raw, len, &idx,
				MAILMIME_MECHANISM_QUOTED_PRINTABLE, &dec,
				&dec_len) == MAILIMF_NO_ERROR && dec) {
		strbuf_add(out, dec, dec_len);
		mailmime_decoded_part_free(dec);
	}
}

int mail_check_secrets(const char *raw, size_t len, struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT;
	int hit;

	if (secret_find(raw, len, why))
		return 1;
	mail_reader_text(raw, len, &text);
	hit = secret_find(text.buf, text.len, why) ||
	      secret_find_base64(raw, len, why);
	strbuf_release(&text);
	return hit;
}
