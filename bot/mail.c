// SPDX-License-Identifier: GPL-2.0
/*
 * mail.c - parse one message with libetpan: headers, text, patches.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libetpan/libetpan.h>

#include "mail.h"
#include "mbox.h"
#include "util.h"

/* More MIME containers than any list mail has; see count_containers(). */
#define MAX_CONTAINERS 256

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
	return out;
}

static void take_date(struct mail *m, struct mailimf_date_time *dt)
{
	struct tm tm;
	int zone, sign, off;
	time_t t;

	if (!dt || dt->dt_year < 1970 || dt->dt_year > 9999 ||
	    dt->dt_month < 1 || dt->dt_month > 12 || dt->dt_day < 1 ||
	    dt->dt_day > 31 || dt->dt_hour < 0 || dt->dt_hour > 23 ||
	    dt->dt_min < 0 || dt->dt_min > 59 || dt->dt_sec < 0 ||
	    dt->dt_sec > 60)
		return;
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
	m->timestamp = (long long)t - off * 60LL;
	m->tz_offset = off;
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
		if (v && (lt = strchr(v, '<')) && (gt = strchr(lt, '>'))) {
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

/*
 * How many MIME containers the text announces.  libetpan parses nested
 * parts recursively, so a hostile mail with tens of thousands of them
 * would overflow the stack.
 */
static size_t count_containers(const char *raw, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i + 10 <= len; i++) {
		if ((raw[i] | 0x20) != 'm')
			continue;
		if (!strncasecmp(raw + i, "multipart/", 10) ||
		    (i + 14 <= len && !strncasecmp(raw + i, "message/rfc822", 14)))
			n++;
	}
	return n;
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
	m->body = sanitize(p, end - p);
}

static int parse_padded(const char *raw, size_t len, struct mail *m)
{
	struct mailmime *mime = NULL;
	struct strbuf body = STRBUF_INIT;
	size_t idx = 0;
	int r;

	memset(m, 0, sizeof(*m));
	m->from_name = xstrdup("");
	m->from_email = xstrdup("");
	if (count_containers(raw, len) > MAX_CONTAINERS) {
		warning("%zu MIME parts nested or not: reading the mail as plain text",
			count_containers(raw, len));
		parse_plain(m, raw, len);
		tidy_name(m->from_name);
		return 0;
	}
	r = mailmime_parse(raw, len, &idx, &mime);
	if (r != MAILIMF_NO_ERROR || !mime) {
		raw_fallbacks(m, raw, len);
		if (!m->msgid && !*m->subject) {
			mail_release(m);
			return error("cannot parse the message (MIME error %d)",
				     r);
		}
		/* Headers only: keep the raw text after them as the body. */
		m->body = xstrdup("");
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
	memset(m, 0, sizeof(*m));
}
