// SPDX-License-Identifier: GPL-2.0
/*
 * reply.c - compose the bot's reply: template expansion, wrapping,
 * threading headers, address lists, RFC 2047 and quoted-printable.
 *
 * The parsing here is only what a reply needs (a few headers of one
 * message); full mail parsing is intake's job (mail.h, series.h).
 * Everything is hostile input: malformed headers give empty values,
 * never a crash.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "mail.h"
#include "mbox.h"
#include "reply.h"
#include "secret.h"
#include "templates.h"
#include "trailer.h"
#include "util.h"
#include "version.h"

static struct reply_opts opts;
static int configured;

void reply_configure(const struct reply_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, a reply would come from no one, its Cc unchecked. */
static const struct reply_opts *ro(void)
{
	if (!configured)
		die("BUG: reply used before reply_configure()");
	return &opts;
}

/* ---- templates ---- */

int reply_expand(const char *tmpl, const struct kv *v, struct strbuf *out)
{
	static const struct tmpl_opts o = { .name = "mail" };

	return tmpl_expand_kv(tmpl, v, &o, out);
}

void reply_signature(const char *signature, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *c = ro()->contact;

	strbuf_addstr(out, signature ? signature : "");
	if (!c || !*c)
		return;
	strbuf_addf(&sb, "Run by %s: a report you think wrong, answer it "
		    "with them in Cc and say why.", c);
	strbuf_addch(out, '\n');
	reply_wrap(sb.buf, 72, out);
	strbuf_trim(out);
	strbuf_release(&sb);
}

int reply_load_template(const char *name, struct strbuf *out)
{
	char *file = xasprintf("mail-%s.md", name);
	int ret = tmpl_load(file, ro()->template_dir, out);

	free(file);
	return ret;
}

/* ---- wrapping ---- */

/* "[1] <message-id>": a reference, its own line, which no refill may break. */
static int is_footnote(const char *line, size_t len)
{
	size_t i = 1;

	if (len < 3 || line[0] != '[')
		return 0;
	while (i < len && isdigit((unsigned char)line[i]))
		i++;
	return i > 1 && i + 1 < len && line[i] == ']' && line[i + 1] == ' ';
}

/*
 * The trailers the bot's mails give for a commit to carry ("Closes:"
 * and its long link, after "Reported-by:"): a line each, as written.
 */
static int is_trailer(const char *line, size_t len)
{
	static const char *const tags[] = {
		"Reported-by: ", "Tested-by: ", "Closes: ", "Link: ",
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i]);
		if (len > n && !strncmp(line, tags[i], n))
			return 1;
	}
	return 0;
}

/* Prose can be re-flowed; code, tables, quotes and trailers cannot. */
static int is_prose(const char *line, size_t len)
{
	if (is_footnote(line, len) || is_trailer(line, len))
		return 0;
	if (!len || line[0] == ' ' || line[0] == '\t' || line[0] == '>' ||
	    line[0] == '|' || line[0] == '#')
		return 0;
	if (!memchr(line, ' ', len))
		return 0;
	return 1;
}

/* "- ", "* ", "1. ": continuation lines are indented under the text. */
static size_t list_indent(const char *line, size_t len)
{
	size_t i = 0;

	if (len > 2 && (line[0] == '-' || line[0] == '*') && line[1] == ' ')
		return 2;
	while (i < len && isdigit((unsigned char)line[i]))
		i++;
	if (i && i + 1 < len && line[i] == '.' && line[i + 1] == ' ')
		return i + 2;
	return 0;
}

/* The word at or after i: its start in *ws, returns its end. */
static size_t next_word(const char *line, size_t len, size_t i, size_t *ws)
{
	while (i < len && line[i] == ' ')
		i++;
	*ws = i;
	while (i < len && line[i] != ' ')
		i++;
	return i;
}

static int is_equals(const char *line, size_t ws, size_t we)
{
	return we == ws + 1 && line[ws] == '=';
}

/*
 * Whether the word [ws, we) and the next one are one unit no line break
 * may split: "name = value", where the name is the word before "=" and,
 * when that is a symbol of one or two letters ("p", "df"), the word
 * before it too ("Mann-Whitney p = 0.008", "Welch p = 0.0004,").
 */
static int glued(const char *line, size_t len, size_t ws, size_t we)
{
	size_t ns, ne = next_word(line, len, we, &ns), fs, fe;

	if (ns == ne)
		return 0;
	if (is_equals(line, ws, we) || is_equals(line, ns, ne))
		return 1;
	fe = next_word(line, len, ne, &fs);
	return ne - ns <= 2 && is_equals(line, fs, fe);
}

static void wrap_line(const char *line, size_t len, int width,
		      struct strbuf *out)
{
	size_t indent = list_indent(line, len), col = 0, i = 0;
	int first_word = 1;

	while (i < len) {
		size_t start, wlen, ww, gap = 0, ws;

		while (i < len && line[i] == ' ' && !first_word) {
			i++;
			gap++;
		}
		start = i;
		while (i < len && line[i] != ' ')
			i++;
		/* a unit of words goes on one line, its spaces as written */
		for (ws = start; i < len && glued(line, len, ws, i);)
			i = next_word(line, len, i, &ws);
		wlen = i - start;
		if (!wlen)
			continue;
		ww = utf8_width(line + start, wlen);
		if (!first_word && col + gap + ww > (size_t)width) {
			strbuf_addch(out, '\n');
			strbuf_addf(out, "%*s", (int)indent, "");
			col = indent;
		} else if (!first_word) {
			strbuf_addf(out, "%*s", (int)gap, "");
			col += gap;
		}
		strbuf_add(out, line + start, wlen);
		col += ww;
		first_word = 0;
	}
	strbuf_addch(out, '\n');
}

static int is_fence(const char *line, size_t len)
{
	return len >= 3 && (!strncmp(line, "```", 3) || !strncmp(line, "~~~", 3));
}

/* A line that continues a paragraph (CommonMark would join it). */
static int continues_paragraph(const char *line, size_t len)
{
	return len && !strchr(" \t>|#", line[0]) && !is_fence(line, len) &&
	       !list_indent(line, len) && !is_footnote(line, len) &&
	       !is_trailer(line, len);
}

static size_t line_len(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? (size_t)(nl - p) : strlen(p);
}

/*
 * Paragraphs whose lines all fit are kept as written; a paragraph with a
 * longer line is refilled as a whole, so no short stub line is left.
 */
void reply_wrap(const char *text, int width, struct strbuf *out)
{
	const char *p = text;
	int fence = 0;

	while (*p) {
		size_t len = line_len(p);
		const char *q = p + len + (p[len] == '\n');

		if (is_fence(p, len))
			fence = !fence;
		if (!fence && is_prose(p, len)) {
			struct strbuf para = STRBUF_INIT;
			int over = utf8_width(p, len) > (size_t)width;

			strbuf_add(&para, p, len);
			while (*q) {
				size_t ql = line_len(q);

				if (!continues_paragraph(q, ql))
					break;
				strbuf_addch(&para, ' ');
				strbuf_add(&para, q, ql);
				over |= utf8_width(q, ql) > (size_t)width;
				q += ql + (q[ql] == '\n');
			}
			if (over) {
				wrap_line(para.buf, para.len, width, out);
			} else {
				strbuf_add(out, p, q - p);
				if (q[-1] != '\n')
					strbuf_addch(out, '\n');
			}
			strbuf_release(&para);
			p = q;
			continue;
		}
		strbuf_add(out, p, len);
		strbuf_addch(out, '\n');
		p = q;
	}
}

/* ---- reading the message we answer ---- */

/*
 * The mail is parsed by mail.c (libetpan: MIME, RFC 2047, charsets); the
 * address headers are kept raw, as the reply repeats them.
 */
int reply_thread_from_mail(const char *raw, size_t len,
			   struct reply_thread *t)
{
	struct mail m;

	memset(t, 0, sizeof(*t));
	if (mail_parse(raw, len, &m) < 0)
		return error("cannot parse the message to answer");
	if (!m.msgid || !*m.msgid) {
		mail_release(&m);
		return error("the message has no Message-ID");
	}
	t->msgid = xstrdup(m.msgid);
	t->subject = xstrdup(m.subject);
	t->author_name = xstrdup(*m.from_name ? m.from_name : m.from_email);
	t->body = xstrdup(m.body ? m.body : "");
	t->references = mbox_header(raw, len, "References");
	t->from = mbox_header(raw, len, "From");
	if (!t->from)
		t->from = xstrdup("");
	t->to = mbox_header(raw, len, "To");
	t->cc = mbox_header(raw, len, "Cc");
	t->date = mbox_header(raw, len, "Date");
	mail_release(&m);
	return 0;
}

/*
 * The people whose trailers are on the series, for reply.cc = lists:
 * "Reviewed-by: Name <mail>" and the like in the patches and in the
 * replies, above the "---" of a patch.  As an address list.
 */
static int ends_with_by(const char *tag)
{
	size_t n = strlen(tag);

	return n > 3 && !strcasecmp(tag + n - 3, "-by");
}

static char *thread_trailers(const struct mbox *mb)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < mb->nr; i++) {
		const char *p = mb->msgs[i].data;
		const char *end = p + mb->msgs[i].len;
		const char *body = memmem(p, end - p, "\n\n", 2);

		for (p = body ? body + 2 : end; p < end;) {
			const char *nl = memchr(p, '\n', end - p);
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			struct trailer tr;

			if ((n == 3 && !strncmp(p, "---", 3)) ||
			    (n >= 10 && !strncmp(p, "diff --git", 10)))
				break;
			if (trailer_parse(p, n, &tr)) {
				if (ends_with_by(tr.tag) && strchr(tr.email, '@') &&
				    !strpbrk(tr.email, ",<>\"/ ")) {
					if (sb.len)
						strbuf_addstr(&sb, ", ");
					strbuf_addf(&sb, "<%s>", tr.email);
				}
				trailer_release(&tr);
			}
			p += n + 1;
		}
	}
	return sb.len ? strbuf_detach(&sb, NULL) : NULL;
}

int reply_thread_from_mbox(const char *text, size_t len, const char *msgid,
			   struct reply_thread *t)
{
	struct mbox mb = { 0 };
	size_t i;
	int ret;

	mbox_split(text, len, &mb);
	for (i = 0; i < mb.nr; i++) {
		if (!mb.msgs[i].msgid || strcmp(mb.msgs[i].msgid, msgid))
			continue;
		ret = reply_thread_from_mail(mb.msgs[i].data, mb.msgs[i].len,
					     t);
		if (!ret)
			t->trailers = thread_trailers(&mb);
		mbox_release(&mb);
		return ret;
	}
	mbox_release(&mb);
	memset(t, 0, sizeof(*t));
	error("message <%s> is not in the thread", msgid);
	return EXIT_NOTFOUND;
}

void reply_thread_release(struct reply_thread *t)
{
	free(t->msgid);
	free(t->references);
	free(t->subject);
	free(t->from);
	free(t->to);
	free(t->cc);
	free(t->date);
	free(t->author_name);
	free(t->body);
	free(t->trailers);
	memset(t, 0, sizeof(*t));
}

void reply_quote(const struct reply_thread *t, int max_lines,
		 struct strbuf *out)
{
	struct strbuf excerpt = STRBUF_INIT, wrapped = STRBUF_INIT;
	const char *p = t->body ? t->body : "";
	int n = 0, truncated = 0;

	/* reply.quoteLines = 0: the answer without a quote */
	if (max_lines <= 0)
		return;
	while (*p == '\n' || *p == '\r')
		p++;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t llen = nl ? (size_t)(nl - p) : strlen(p);

		if (llen && p[llen - 1] == '\r')
			llen--;
		if ((llen == 3 && !strncmp(p, "---", 3)) ||
		    (llen == 3 && !strncmp(p, "-- ", 3)) ||
		    !strncmp(p, "diff --git ", 11))
			break;
		if (n == max_lines) {
			truncated = 1;
			break;
		}
		/* mboxrd: ">From " was "From " */
		if (llen > 5 && p[0] == '>' && !strncmp(p + strspn(p, ">"),
						     "From ", 5)) {
			p++;
			llen--;
		}
		strbuf_add(&excerpt, p, llen);
		strbuf_addch(&excerpt, '\n');
		n++;
		if (!nl)
			break;
		p = nl + 1;
	}
	/* drop trailing blank lines */
	while (excerpt.len > 1 && excerpt.buf[excerpt.len - 2] == '\n')
		strbuf_setlen(&excerpt, excerpt.len - 1);
	if (t->date && *t->date)
		strbuf_addf(out, "On %s, %s wrote:\n", t->date,
			    t->author_name ? t->author_name : "you");
	else
		strbuf_addf(out, "%s wrote:\n",
			    t->author_name ? t->author_name : "You");
	reply_wrap(excerpt.buf, 70, &wrapped);
	for (p = wrapped.buf; *p;) {
		const char *nl = strchr(p, '\n');
		size_t llen = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_addstr(out, llen ? "> " : ">");
		strbuf_add(out, p, llen);
		strbuf_addch(out, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	if (truncated)
		strbuf_addstr(out, "> [...]\n");
	strbuf_release(&excerpt);
	strbuf_release(&wrapped);
}

/* ---- headers we write ---- */

char *reply_new_msgid(const char *domain)
{
	unsigned char rnd[8];
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	struct strbuf sb = STRBUF_INIT;

	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd)) {
		/* never fails for 8 bytes once booted; be safe anyway */
		for (i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)(rand() ^ getpid() ^ i);
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	strbuf_addf(&sb, "%s.", stamp);
	for (i = 0; i < sizeof(rnd); i++)
		strbuf_addf(&sb, "%02x", rnd[i]);
	strbuf_addf(&sb, "@%s", domain && *domain ? domain : "localhost");
	return strbuf_detach(&sb, NULL);
}

char *reply_date(long long t)
{
	static const char *const days[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	time_t tt = (time_t)t;
	struct tm tm;
	long off;

	localtime_r(&tt, &tm);
	off = tm.tm_gmtoff / 60;
	return xasprintf("%s, %d %s %d %02d:%02d:%02d %c%02ld%02ld",
			 days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
			 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 off < 0 ? '-' : '+', labs(off) / 60, labs(off) % 60);
}

static int is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* Fold a long ASCII header value at spaces (RFC 5322 2.2.3). */
static void fold_ascii(const char *value, size_t col, struct strbuf *out)
{
	const char *p = value;

	while (*p) {
		const char *sp = strchr(p + 1, ' ');
		size_t wlen = sp ? (size_t)(sp - p) : strlen(p);

		if (p != value && *p == ' ' && col + wlen > 78) {
			strbuf_addstr(out, "\n");
			col = 0;
		}
		strbuf_add(out, p, wlen);
		col += wlen;
		p += wlen;
	}
}

void reply_encode_header(const char *value, struct strbuf *out)
{
	size_t len = strlen(value), i = 0;

	if (is_ascii(value)) {
		/* the field name takes up to 12 columns ("References: ") */
		fold_ascii(value, 12, out);
		return;
	}
	/* 45 octets -> 60 base64 chars: each word fits a folded line */
	while (i < len) {
		size_t n = len - i > 45 ? 45 : len - i;

		while (n > 1 && i + n < len &&
		       ((unsigned char)value[i + n] & 0xc0) == 0x80)
			n--;
		if (i)
			strbuf_addstr(out, "\n ");
		strbuf_addstr(out, "=?UTF-8?B?");
		strbuf_add_base64(out, value + i, n);
		strbuf_addstr(out, "?=");
		i += n;
	}
}

size_t reply_parse_addresses(const char *list, char ***addrs)
{
	struct mail_addr *a;
	size_t nr = mail_split_addresses(list, 0, &a), i;

	*addrs = nr ? xcalloc(nr, sizeof(char *)) : NULL;
	for (i = 0; i < nr; i++) {
		(*addrs)[i] = a[i].email;
		a[i].email = NULL;
	}
	mail_free_addresses(a, nr);
	return nr;
}

void reply_free_addresses(char **addrs, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(addrs[i]);
	free(addrs);
}

/*
 * Mailing lists, for reply.cc = lists: 2 for the ones named in
 * reply.list and the kernel's own (vger.kernel.org, lists.linux.dev),
 * 1 for those that only look like lists, 0 for the rest.  The first
 * kind is kept first when reply.maxRecipients trims.
 */
static int is_list_address(const char *email)
{
	const char *at = strchr(email, '@');
	const struct reply_opts *o = ro();
	size_t i;

	for (i = 0; i < o->nr_lists; i++)
		if (!strcasecmp(o->lists[i], email))
			return 2;
	if (!at)
		return 0;
	at++;
	if (!strcmp(at, "vger.kernel.org") || !strcmp(at, "lists.linux.dev"))
		return 2;
	return starts_with(at, "lists.") || strstr(at, ".lists.") ||
	       strstr(email, "-list@") != NULL;
}

static int seen_addr(char **seen, size_t nr, const char *email)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(seen[i], email))
			return 1;
	return 0;
}

/* "Name, Jr." needs quotes; an encoded word must not be quoted. */
static void add_mailbox(struct strbuf *out, const char *name,
			const char *email)
{
	if (!name || !*name) {
		strbuf_addstr(out, email);
		return;
	}
	if (!is_ascii(name)) {
		reply_encode_header(name, out);
	} else if (strpbrk(name, "()<>[]:;@\\,.\"")) {
		/* a quoted-string: its quotes and backslashes escaped */
		strbuf_addch(out, '"');
		for (; *name; name++) {
			if (*name == '"' || *name == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *name);
		}
		strbuf_addch(out, '"');
	} else {
		strbuf_addstr(out, name);
	}
	strbuf_addf(out, " <%s>", email);
}

/*
 * A header value from the thread on one line, without control
 * characters, where it becomes a header of ours: a line break would
 * start a header the thread chose ("Bcc: ..."), whatever decoded it.
 */
static void clean_header_value(char *s)
{
	strip_controls(s, strlen(s));
	for (; *s; s++)
		if (*s == '\n' || *s == '\t')
			*s = ' ';
}

/*
 * An address as the reply repeats it: as the thread wrote it, unless
 * it holds a control character or an RFC 2047 word (which a reader's
 * program decodes, ESC and line breaks and all); then written anew
 * from its display name as mail_decode_header() gives it (decoded,
 * one line, no controls) and its address.  A word that does not
 * decode is no name: a more lenient reader might decode it still.
 */
static char *clean_mailbox(const struct mail_addr *a)
{
	char *was = xstrdup(a->text), *dec, *name = NULL, *lt;
	struct strbuf sb = STRBUF_INIT;
	size_t k;
	int plain;

	strip_controls(was, strlen(was));
	plain = !strcmp(was, a->text) && !strpbrk(was, "\n\t") &&
		!strstr(was, "=?");
	free(was);
	if (plain)
		return xstrdup(a->text);
	dec = mail_decode_header(a->text);
	lt = strrchr(dec, '<');
	if (lt) {
		*lt = '\0';
		name = dec + strspn(dec, " \"");
		k = strlen(name);
		while (k && strchr(" \"", name[k - 1]))
			name[--k] = '\0';
		if (strstr(name, "=?"))
			name = NULL;
	}
	add_mailbox(&sb, name, a->email);
	free(dec);
	return strbuf_detach(&sb, NULL);
}

static void add_address_header(struct strbuf *out, const char *field,
			       struct mail_addr *a, size_t nr)
{
	size_t col = strlen(field) + 2, i;

	strbuf_addf(out, "%s: ", field);
	for (i = 0; i < nr; i++) {
		char *text = clean_mailbox(&a[i]);
		size_t w = strlen(text);

		if (i) {
			strbuf_addch(out, ',');
			if (col + 2 + w > 78) {
				strbuf_addstr(out, "\n\t");
				col = 8;
			} else {
				strbuf_addch(out, ' ');
				col += 2;
			}
		}
		strbuf_addstr(out, text);
		col += w;
		free(text);
	}
	strbuf_addch(out, '\n');
}

static int needs_qp(const char *body)
{
	const char *p = body;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > 998)
			return 1;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static void qp_encode(const char *body, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)body;
	size_t col = 0;

	for (; *p; p++) {
		int enc;

		if (*p == '\n') {
			/* a space before the line break must be encoded */
			strbuf_addch(out, '\n');
			col = 0;
			continue;
		}
		enc = *p == '=' || *p < 32 || *p >= 127 ||
		      ((*p == ' ' || *p == '\t') && (p[1] == '\n' || !p[1]));
		if (col + (enc ? 3 : 1) > 75) {
			strbuf_addstr(out, "=\n");
			col = 0;
		}
		if (enc) {
			strbuf_addf(out, "=%02X", *p);
			col += 3;
		} else {
			strbuf_addch(out, *p);
			col++;
		}
	}
}

/*
 * The Cc of a reply: kept in the order lists, trailers, the rest while
 * reply.maxRecipients allows, then written lists first, the others in
 * the order of the mail.
 */
struct cc_pick {
	char **seen;
	size_t nr_seen, alloc_seen;
	struct mail_addr *cc;
	size_t *order;		/* where each came from, to keep the order */
	size_t nr_cc, alloc_cc, alloc_order;
	long max;		/* recipients at most, the author included */
	size_t left_out;
};

static void pick(struct cc_pick *p, const struct mail_addr *a, size_t order)
{
	if (seen_addr(p->seen, p->nr_seen, a->email))
		return;
	ALLOC_GROW(p->seen, p->nr_seen, p->alloc_seen);
	p->seen[p->nr_seen++] = a->email;
	if (p->max > 0 && (long)(1 + p->nr_cc) >= p->max) {
		p->left_out++;
		return;
	}
	ALLOC_GROW(p->cc, p->nr_cc, p->alloc_cc);
	ALLOC_GROW(p->order, p->nr_cc, p->alloc_order);
	p->order[p->nr_cc] = order;
	p->cc[p->nr_cc++] = *a;
}

/* The kept addresses in the order of the mail answered (few: sort). */
static void keep_order(struct cc_pick *p)
{
	size_t i, j;

	for (i = 1; i < p->nr_cc; i++)
		for (j = i; j > 0 && p->order[j - 1] > p->order[j]; j--) {
			struct mail_addr a = p->cc[j];
			size_t o = p->order[j];

			p->cc[j] = p->cc[j - 1];
			p->order[j] = p->order[j - 1];
			p->cc[j - 1] = a;
			p->order[j - 1] = o;
		}
}

static void pick_cc(struct cc_pick *p, const char *mode,
		    struct mail_addr *orig, size_t nr_orig,
		    struct mail_addr *trailers, size_t nr_trailers)
{
	size_t i;

	if (!strcmp(mode, "none"))
		return;
	for (i = 0; i < nr_orig; i++)
		if (is_list_address(orig[i].email) == 2)
			pick(p, &orig[i], i);
	for (i = 0; i < nr_orig; i++)
		if (is_list_address(orig[i].email))
			pick(p, &orig[i], i);
	if (!strcmp(mode, "lists")) {
		for (i = 0; i < nr_trailers; i++)
			pick(p, &trailers[i], nr_orig + i);
	} else {
		/* after the lists, in the mail's order: LKML's reply to all */
		for (i = 0; i < nr_orig; i++)
			pick(p, &orig[i], nr_orig + i);
	}
	keep_order(p);
}

static int compose_as(const struct reply_thread *t, const char *body,
		      const char *msgid, const char *cc_mode,
		      struct strbuf *out);

int reply_compose(const struct reply_thread *t, const char *body,
		  struct strbuf *out, char **msgid_out)
{
	return reply_compose_cc(t, body, NULL, out, msgid_out);
}

int reply_compose_cc(const struct reply_thread *t, const char *body,
		     const char *cc, struct strbuf *out, char **msgid_out)
{
	const char *email = ro()->bot_email;
	const char *at = strchr(email, '@');
	char *msgid = reply_new_msgid(at ? at + 1 : NULL);
	int ret = compose_as(t, body, msgid, cc ? cc : ro()->cc, out);

	if (!ret && msgid_out)
		*msgid_out = msgid;
	else
		free(msgid);
	return ret;
}

int reply_compose_as(const struct reply_thread *t, const char *body,
		     const char *msgid, struct strbuf *out)
{
	return compose_as(t, body, msgid, ro()->cc, out);
}

static int compose_as(const struct reply_thread *t, const char *body,
		      const char *msgid, const char *cc_mode,
		      struct strbuf *out)
{
	const char *name = ro()->bot_name;
	const char *email = ro()->bot_email;
	struct mail_addr *to = NULL, *orig = NULL, *orig_cc = NULL, *tr = NULL;
	size_t nr_to, nr_orig, nr_orig_cc, nr_tr;
	struct cc_pick pk = { 0 };
	char *date, *lc_email, *c, *subj;
	struct strbuf wrapped = STRBUF_INIT, clean = STRBUF_INIT;
	size_t start = out->len;

	if (strcmp(cc_mode, "all") && strcmp(cc_mode, "lists") &&
	    strcmp(cc_mode, "none"))
		return error("reply.cc must be all, lists or none, not '%s'",
			     cc_mode);
	nr_to = mail_split_addresses(t->from, 0, &to);
	if (!nr_to)
		return error("<%s> has no usable From: address", t->msgid);
	lc_email = xstrdup(email);
	for (c = lc_email; *c; c++)
		*c = tolower((unsigned char)*c);
	pk.max = ro()->max_recipients;
	ALLOC_GROW(pk.seen, pk.nr_seen, pk.alloc_seen);
	pk.seen[pk.nr_seen++] = lc_email;
	ALLOC_GROW(pk.seen, pk.nr_seen, pk.alloc_seen);
	pk.seen[pk.nr_seen++] = to[0].email;
	nr_orig = mail_split_addresses(t->to, 0, &orig);
	nr_orig_cc = mail_split_addresses(t->cc, 0, &orig_cc);
	if (nr_orig_cc) {
		orig = xrealloc(orig, (nr_orig + nr_orig_cc) * sizeof(*orig));
		memcpy(orig + nr_orig, orig_cc, nr_orig_cc * sizeof(*orig));
		nr_orig += nr_orig_cc;
	}
	free(orig_cc);
	nr_tr = mail_split_addresses(t->trailers, 0, &tr);
	pick_cc(&pk, cc_mode, orig, nr_orig, tr, nr_tr);
	if (pk.left_out)
		info("<%s>: %zu addresses left out of the reply "
		     "(reply.maxRecipients = %ld)", t->msgid, pk.left_out,
		     pk.max);

	date = reply_date(time(NULL));
	strbuf_addstr(out, "From: ");
	add_mailbox(out, name, email);
	strbuf_addch(out, '\n');
	add_address_header(out, "To", to, 1);
	if (pk.nr_cc)
		add_address_header(out, "Cc", pk.cc, pk.nr_cc);
	strbuf_addstr(out, "Subject: ");
	subj = xasprintf("%s%s", skip_prefix_ci(t->subject, "re:") ? "" :
			 "Re: ", t->subject);
	/* before the encoding, which would hide them from the check */
	clean_header_value(subj);
	reply_encode_header(subj, out);
	free(subj);
	strbuf_addf(out, "\nDate: %s\nMessage-ID: <%s>\n", date, msgid);
	strbuf_addf(out, "In-Reply-To: <%s>\n", t->msgid);
	strbuf_addstr(out, "References: ");
	if (t->references && *t->references) {
		/* one id per line keeps every header line short */
		const char *p = t->references;

		while ((p = strchr(p, '<'))) {
			const char *gt = strchr(p, '>');

			if (!gt)
				break;
			strbuf_add(out, p, gt - p + 1);
			strbuf_addstr(out, "\n ");
			p = gt + 1;
		}
	}
	strbuf_addf(out, "<%s>\n", t->msgid);
	/* Before the encoding, which could split a secret over lines. */
	strbuf_addstr(&clean, body);
	secret_scrub(&clean);
	/*
	 * The body quotes strangers (the thread, the build's .config, its
	 * log): none of their escapes reaches a reader, and no bare CR
	 * goes out, which some SMTP servers take as a line end
	 * ("<CR>.<CR>" ends their data).  Before quoted-printable, which
	 * would carry them as =1B.
	 */
	strbuf_setlen(&clean, strip_controls(clean.buf, clean.len));
	reply_wrap(clean.buf, 72, &wrapped);
	strbuf_addf(out, "MIME-Version: 1.0\n"
		    "Content-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: %s\n"
		    "User-Agent: sched-bot/%s\n\n",
		    needs_qp(wrapped.buf) ? "quoted-printable" : "8bit",
		    SCHED_BOT_VERSION);
	if (needs_qp(wrapped.buf))
		qp_encode(wrapped.buf, out);
	else
		strbuf_addstr(out, wrapped.buf);
	if (out->len && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	/* and the headers: no configured secret leaves in a mail */
	secret_scrub(out);
	/* nor a control character the thread's headers carried raw */
	strbuf_setlen(out, start + strip_controls(out->buf + start,
						  out->len - start));

	free(date);
	free(lc_email);
	free(pk.seen);
	free(pk.cc);		/* its elements belong to orig and tr */
	free(pk.order);
	mail_free_addresses(to, nr_to);
	mail_free_addresses(orig, nr_orig);
	mail_free_addresses(tr, nr_tr);
	strbuf_release(&wrapped);
	strbuf_release(&clean);
	return 0;
}

int reply_envelope(const char *msg, size_t len, char **from, char ***rcpts)
{
	static const char *const fields[] = { "To", "Cc", "Bcc" };
	char *hdr = mbox_header(msg, len, "From");
	char **addrs, **all = NULL;
	size_t n, i, j, nr = 0;

	n = reply_parse_addresses(hdr, &addrs);
	free(hdr);
	if (!n)
		return error("the message has no From: address");
	*from = addrs[0];
	for (i = 1; i < n; i++)
		free(addrs[i]);
	free(addrs);
	for (j = 0; j < ARRAY_SIZE(fields); j++) {
		hdr = mbox_header(msg, len, fields[j]);
		n = reply_parse_addresses(hdr, &addrs);
		free(hdr);
		all = xrealloc(all, (nr + n + 1) * sizeof(*all));
		for (i = 0; i < n; i++) {
			if (seen_addr(all, nr, addrs[i]))
				free(addrs[i]);
			else
				all[nr++] = addrs[i];
		}
		free(addrs);
	}
	if (!nr) {
		free(all);
		free(*from);
		*from = NULL;
		return error("the message has no recipient");
	}
	all[nr] = NULL;
	*rcpts = all;
	return (int)nr;
}

/* A line that closes a mail before the name: "Thanks,", "Regards". */
static int is_closing(const char *p, size_t n)
{
	static const char *const words[] = {
		"thanks", "thank you", "regards", "best regards", "cheers",
		"best", "br", "kind regards", "many thanks",
	};
	size_t i, w;

	while (n && strchr(",.! \r", p[n - 1]))
		n--;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		w = strlen(words[i]);
		if (n == w && !strncasecmp(p, words[i], w))
			return 1;
	}
	return 0;
}

/*
 * The name under the closing of the body ("Thanks,\nPrateek"), before
 * the patch or the signature: one to three words of letters; NULL when
 * the mail signs with none.
 */
static char *signed_name(const char *body)
{
	const char *p = body, *prev = NULL;
	size_t prev_n = 0;

	while (p && *p) {
		size_t n = strcspn(p, "\n"), i, words = 1;
		int ok = n && n <= 30;

		if ((n == 3 && (!strncmp(p, "---", 3) ||
				!strncmp(p, "-- ", 3))) ||
		    starts_with(p, "diff --git "))
			break;
		for (i = 0; ok && i < n; i++) {
			if (p[i] == ' ')
				words++;
			else if (!isalpha((unsigned char)p[i]) &&
				 !strchr(".-'", p[i]) &&
				 !((unsigned char)p[i] & 0x80))
				ok = 0;
		}
		if (ok && words <= 3 && prev && is_closing(prev, prev_n))
			return xstrndup(p, n);
		if (n) {
			prev = p;
			prev_n = n;
		}
		p += n + (p[n] == '\n');
	}
	return NULL;
}

char *reply_greeting(const struct reply_thread *t)
{
	const char *n = t->author_name;
	char *name = t->body ? signed_name(t->body) : NULL;
	size_t len;

	if (name)
		return name;
	if (!n || !*n || strchr(n, '@'))
		return xstrdup("all");
	while (*n == ' ' || *n == '"' || *n == '\'')
		n++;
	len = strlen(n);
	while (len && strchr(" \"'", n[len - 1]))
		len--;
	return len ? xstrndup(n, len) : xstrdup("all");
}
