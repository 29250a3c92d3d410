// SPDX-License-Identifier: GPL-2.0
/*
 * tblfmt.c - the result tables posted in a thread and the format they
 * use (see tblfmt.h for what counts and how the pick is made).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "mail.h"
#include "mbox.h"
#include "tblfmt.h"
#include "util.h"

static const char *const kind_names[TBLFMT_NR] = {
	[TBLFMT_INTEL] = "intel",
	[TBLFMT_AMD] = "amd",
	[TBLFMT_LKP] = "lkp",
	[TBLFMT_MMTESTS] = "mmtests",
	[TBLFMT_MATRIX] = "matrix",
	[TBLFMT_SIMPLE] = "simple",
};

const char *tblfmt_name(enum tblfmt_kind kind)
{
	if ((unsigned int)kind >= TBLFMT_NR)
		return "?";
	return kind_names[kind];
}

int tblfmt_from_name(const char *name)
{
	int k;

	for (k = 0; name && k < TBLFMT_NR; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

/* ---- lines ---- */

/* One line of a body: its text after the quote prefix, and the depth. */
struct line {
	const char *s;
	size_t len;
	int depth;
};

/*
 * The quote prefix of git, mutt and Thunderbird: '>' marks, with or
 * without blanks between ("> > >", ">>>", "> >>").  Sets *depth and
 * returns the offset of the text.
 */
static size_t quote_prefix(const char *s, size_t len, int *depth)
{
	size_t i = 0, text = 0;
	int d = 0;

	while (i < len) {
		if (s[i] == '>') {
			d++;
			text = ++i;
		} else if (s[i] == ' ' && d) {
			i++;
		} else {
			break;
		}
	}
	/* "> text": the one blank after the last '>' is the prefix's */
	if (d && text < len && s[text] == ' ')
		text++;
	*depth = d;
	return text;
}

static void split_lines(const char *body, struct line **out, size_t *nr)
{
	size_t alloc = 0, n = 0;
	struct line *l = NULL;
	const char *p = body;

	while (*p) {
		size_t len = strcspn(p, "\n"), off;
		int depth;

		off = quote_prefix(p, len, &depth);
		ALLOC_GROW(l, n, alloc);
		l[n].s = p + off;
		l[n].len = len - off;
		l[n].depth = depth;
		n++;
		p += len + (p[len] == '\n');
	}
	*out = l;
	*nr = n;
}

/*
 * The first TBLFMT_LINE_MAX bytes of a line, blanks trimmed and each
 * run of blanks made one space; squeezed drops every blank.  Returns
 * the normalized length.
 */
static size_t normalize(const struct line *l, char *norm, char *squeezed)
{
	size_t i, n = 0, q = 0, len = l->len;
	int blank = 0;

	if (len > TBLFMT_LINE_MAX)
		len = TBLFMT_LINE_MAX;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)l->s[i];

		if (c == ' ' || c == '\t' || c == '\r') {
			blank = n > 0;
			continue;
		}
		if (blank)
			norm[n++] = ' ';
		blank = 0;
		norm[n++] = (char)c;
		squeezed[q++] = (char)c;
	}
	norm[n] = '\0';
	squeezed[q] = '\0';
	return n;
}

static int is_blank(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len && i < TBLFMT_LINE_MAX; i++)
		if (!isspace((unsigned char)l->s[i]))
			return 0;
	return 1;
}

/* A rule: only - = + | \ _ ~ * and blanks, and something of them. */
static int is_rule(const struct line *l)
{
	size_t i, marks = 0;

	for (i = 0; i < l->len && i < TBLFMT_LINE_MAX; i++) {
		char c = l->s[i];

		if (strchr("-=+|\\_~*", c))
			marks++;
		else if (!isspace((unsigned char)c))
			return 0;
	}
	return marks > 0;
}

static int has_digit(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len && i < TBLFMT_LINE_MAX; i++)
		if (isdigit((unsigned char)l->s[i]))
			return 1;
	return 0;
}

/* Whitespace-separated tokens of a normalized line that start a number. */
static int numeric_tokens(const char *norm)
{
	const char *p = norm;
	int n = 0;

	while (*p) {
		const char *t = p;

		if (*t == '-' || *t == '+' || *t == '(')
			t++;
		if (isdigit((unsigned char)*t))
			n++;
		p += strcspn(p, " ");
		p += *p == ' ';
	}
	return n;
}

/* ---- the signatures ---- */

/* A number at *p ("-12.5", "3e+04"); advances *p past it. */
static int skip_number(const char **p)
{
	const char *s = *p;
	int digits = 0;

	if (*s == '-' || *s == '+')
		s++;
	while (isdigit((unsigned char)*s) || *s == '.') {
		digits += isdigit((unsigned char)*s) != 0;
		s++;
	}
	if (digits && (*s == 'e' || *s == 'E') &&
	    (isdigit((unsigned char)s[1]) ||
	     ((s[1] == '+' || s[1] == '-') && isdigit((unsigned char)s[2])))) {
		s += 2;
		while (isdigit((unsigned char)*s))
			s++;
	}
	if (!digits)
		return 0;
	*p = s;
	return 1;
}

/*
 * An mmtests row: "<stat> <op> <value> ( x.xx%)" or "... * x.xx%*".
 * Returns 2 when the stat is a mean (Amean, Hmean, Gmean, BAmean-95...),
 * 1 for another stat, 0 for no row.
 */
static int mmtests_row(const char *norm)
{
	const char *p = norm, *stat = norm, *q;
	size_t n;
	char open;

	if (!isalpha((unsigned char)*p))
		return 0;
	n = strcspn(p, " ");
	for (q = p; q < p + n; q++)
		if (!isalnum((unsigned char)*q) && *q != '-' && *q != '.')
			return 0;
	p += n;
	if (*p++ != ' ')
		return 0;
	p += strcspn(p, " ");		/* the operation */
	if (*p++ != ' ' || !skip_number(&p) || *p++ != ' ')
		return 0;
	open = *p++;
	if (open != '(' && open != '*')
		return 0;
	if (*p == ' ')
		p++;
	if (!skip_number(&p) || *p++ != '%')
		return 0;
	if (*p != (open == '(' ? ')' : '*'))
		return 0;
	if (starts_with(stat, "Amean") || starts_with(stat, "Hmean") ||
	    starts_with(stat, "Gmean") || starts_with(stat, "BAmean") ||
	    starts_with(stat, "BHmean"))
		return 2;
	return 1;
}

/* AMD's older rows: two or more "(x.xx pct)" cells. */
static int amd_pct_row(const char *norm)
{
	const char *p = norm;
	int n = 0;

	while ((p = strstr(p, " pct)"))) {
		const char *q = p;

		while (q > norm && (isdigit((unsigned char)q[-1]) ||
				    q[-1] == '.'))
			q--;
		if (q < p && q > norm && (q[-1] == '(' ||
					  (q[-1] == '-' && q - 1 > norm &&
					   q[-2] == '(')))
			n++;
		p += 5;
	}
	return n >= 2;
}

/* Tokens "w/o" then "w/..." in a header laid out in columns. */
static int simple_header(const struct line *l, const char *norm)
{
	const char *p = norm;
	int seen_wo = 0, tokens = 0;
	size_t i, start;

	for (start = 0; start < l->len && isspace((unsigned char)l->s[start]);
	     start++)
		;
	for (i = start; i + 1 < l->len && i < TBLFMT_LINE_MAX; i++)
		if (l->s[i] == '\t' || (l->s[i] == ' ' && l->s[i + 1] == ' '))
			break;
	if (i + 1 >= l->len || i >= TBLFMT_LINE_MAX)
		return 0;	/* not laid out in columns */
	while (*p) {
		size_t n = strcspn(p, " ");

		tokens++;
		if (n == 3 && !strncmp(p, "w/o", 3))
			seen_wo = 1;
		else if (seen_wo && n >= 2 && !strncmp(p, "w/", 2) &&
			 strncmp(p, "w/o", 3))
			return tokens <= 8;
		p += n;
		p += *p == ' ';
	}
	return 0;
}

/* Three or more '|' cells, no code, not an LKP box or a quoted trailer. */
static int matrix_header(const char *norm)
{
	const char *p = norm;
	int cells = 0;

	if (*norm == '|' || *norm == '+' || strpbrk(norm, ";{}=") ||
	    strstr(norm, "||") || strstr(norm, "&&"))
		return 0;
	while (1) {
		size_t n = strcspn(p, "|");
		const char *e = p + n;

		while (p < e && *p == ' ')
			p++;
		while (e > p && e[-1] == ' ')
			e--;
		if (e == p || e - p > 60)
			return 0;
		cells++;
		p += strcspn(p, "|");
		if (!*p)
			break;
		p++;
	}
	return cells >= 3;
}

/* The format whose header (or first row) this line is, or -1. */
static int classify(const struct line *l, const char *norm,
		    const char *sq, int *self_row)
{
	*self_row = 0;
	if (strstr(norm, "%stddev %change %stddev") ||
	    strstr(norm, "fail:runs %reproduction fail:runs"))
		return TBLFMT_LKP;
	if (strstr(sq, "baseline(std%)") && strstr(sq, "compare%(std%)"))
		return TBLFMT_INTEL;
	if (strstr(sq, "[pctimp](CV)"))
		return TBLFMT_AMD;
	if (amd_pct_row(norm)) {
		*self_row = 1;
		return TBLFMT_AMD;
	}
	if (mmtests_row(norm)) {
		*self_row = 1;
		return TBLFMT_MMTESTS;
	}
	if (simple_header(l, norm))
		return TBLFMT_SIMPLE;
	if (matrix_header(norm))
		return TBLFMT_MATRIX;
	return -1;
}

/* ---- one message ---- */

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static size_t add_msg(struct tblfmt_scan *s, const struct mail *m)
{
	struct tblfmt_msg *tm;

	if (s->nr_msgs && s->msgs[s->nr_msgs - 1].order == s->nr_mails)
		return s->nr_msgs - 1;
	ALLOC_GROW(s->msgs, s->nr_msgs, s->alloc_msgs);
	tm = &s->msgs[s->nr_msgs];
	tm->msgid = xstrdup(m->msgid ? m->msgid : "");
	tm->author_name = xstrdup(m->from_name ? m->from_name : "");
	tm->author_email = xstrdup(m->from_email ? m->from_email : "");
	tm->date = xstrdup(m->date ? m->date : "");
	tm->timestamp = m->timestamp;
	tm->order = s->nr_mails;
	return s->nr_msgs++;
}

static void add_table(struct tblfmt_scan *s, const struct mail *m, int kind,
		      size_t line, int depth, uint64_t id)
{
	struct tblfmt_table *t;

	if (s->nr >= TBLFMT_MAX_TABLES) {
		s->dropped++;
		return;
	}
	ALLOC_GROW(s->tables, s->nr, s->alloc);
	t = &s->tables[s->nr++];
	t->kind = kind;
	t->msg = add_msg(s, m);
	t->line = line;
	t->depth = depth;
	t->counted = 0;
	t->id = id;
}

/*
 * The data row under the header at h: the first line with a digit in
 * the next four of the same depth, blank lines and rules skipped.
 */
static size_t data_row(const struct line *l, size_t nr, size_t h)
{
	size_t i;

	for (i = h + 1; i < nr && i <= h + 4; i++) {
		if (l[i].depth != l[h].depth)
			break;
		if (is_blank(&l[i]) || is_rule(&l[i]))
			continue;
		if (has_digit(&l[i]))
			return i;
	}
	return 0;
}

/* The rest of the table from row r on: up to a blank line or a new depth. */
static size_t table_end(const struct line *l, size_t nr, size_t r)
{
	while (r + 1 < nr && l[r + 1].depth == l[r].depth &&
	       !is_blank(&l[r + 1]))
		r++;
	return r;
}

void tblfmt_add(struct tblfmt_scan *s, const struct mail *m)
{
	char norm[TBLFMT_LINE_MAX + 1], sq[TBLFMT_LINE_MAX + 1];
	char rnorm[TBLFMT_LINE_MAX + 1], rsq[TBLFMT_LINE_MAX + 1];
	struct line *l;
	size_t nr, i;
	int diff_depth = -1;

	split_lines(m->body ? m->body : "", &l, &nr);
	for (i = 0; i < nr; i++) {
		size_t r = 0;
		uint64_t id;
		int kind, self;

		if (diff_depth >= 0 && l[i].depth != diff_depth)
			diff_depth = -1;
		if (diff_depth >= 0)
			continue;
		if (l[i].len >= 11 && !memcmp(l[i].s, "diff --git ", 11)) {
			diff_depth = l[i].depth;
			continue;
		}
		if (!normalize(&l[i], norm, sq))
			continue;
		kind = classify(&l[i], norm, sq, &self);
		if (kind < 0)
			continue;
		if (kind == TBLFMT_MMTESTS) {
			/* a run of rows, one of them a mean */
			int mean = 0;
			size_t e = i, second = 0;

			while (e < nr && l[e].depth == l[i].depth) {
				int row;

				normalize(&l[e], rnorm, rsq);
				row = mmtests_row(rnorm);
				if (!row)
					break;
				if (e > i && !second)
					second = e;
				mean |= row == 2;
				e++;
			}
			if (!mean) {
				i = e - 1;
				continue;
			}
			r = second ? second : i;
		} else if (self) {
			r = i;
		} else {
			r = data_row(l, nr, i);
			if (!r)
				continue;
			if (kind == TBLFMT_SIMPLE) {
				normalize(&l[r], rnorm, rsq);
				if (numeric_tokens(rnorm) < 2)
					continue;
			}
		}
		id = fnv(fnv(0xcbf29ce484222325ULL, kind_names[kind]), norm);
		if (r != i) {
			normalize(&l[r], rnorm, rsq);
			id = fnv(fnv(id, "\n"), rnorm);
		}
		add_table(s, m, kind, i + 1, l[i].depth, id);
		i = table_end(l, nr, r);
	}
	free(l);
	s->nr_mails++;
}

/* ---- counting and the pick ---- */

/* Earlier message first: Date:, then the mbox order. */
static int msg_before(const struct tblfmt_msg *a, const struct tblfmt_msg *b)
{
	if (a->timestamp != b->timestamp)
		return a->timestamp < b->timestamp;
	return a->order < b->order;
}

struct by_id {
	uint64_t id;
	size_t k;		/* index into tables[] */
};

static int cmp_id(const void *a, const void *b)
{
	const struct by_id *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Of the tables [from, to) of one id, the one that counts. */
static size_t origin(const struct tblfmt_scan *s, const struct by_id *idx,
		     size_t from, size_t to)
{
	size_t best = idx[from].k, k;

	for (k = from + 1; k < to; k++) {
		const struct tblfmt_table *t = &s->tables[idx[k].k];
		const struct tblfmt_table *b = &s->tables[best];

		/* written beats quoted; then the earliest */
		if ((t->depth == 0) != (b->depth == 0)) {
			if (t->depth == 0)
				best = idx[k].k;
			continue;
		}
		if (msg_before(&s->msgs[t->msg], &s->msgs[b->msg]))
			best = idx[k].k;
	}
	return best;
}

void tblfmt_finish(struct tblfmt_scan *s)
{
	size_t prev[TBLFMT_NR], latest[TBLFMT_NR];
	struct by_id *idx;
	size_t i, j, k;
	int kind;

	memset(s->uses, 0, sizeof(s->uses));
	s->pick = -1;
	s->pick_msg = 0;
	if (!s->nr)
		return;
	idx = xcalloc(s->nr, sizeof(*idx));
	for (i = 0; i < s->nr; i++) {
		idx[i].id = s->tables[i].id;
		idx[i].k = i;
	}
	qsort(idx, s->nr, sizeof(*idx), cmp_id);
	for (i = 0; i < s->nr; i = j) {
		for (j = i + 1; j < s->nr && idx[j].id == idx[i].id; j++)
			;
		s->tables[origin(s, idx, i, j)].counted = 1;
	}
	free(idx);

	/*
	 * Uses: distinct messages per kind.  Tables were added message by
	 * message, so a kind's tables of one message are never split by
	 * another message's.
	 */
	for (kind = 0; kind < TBLFMT_NR; kind++)
		prev[kind] = latest[kind] = (size_t)-1;
	for (k = 0; k < s->nr; k++) {
		const struct tblfmt_table *t = &s->tables[k];

		if (!t->counted || prev[t->kind] == t->msg)
			continue;
		prev[t->kind] = t->msg;
		s->uses[t->kind]++;
		if (latest[t->kind] == (size_t)-1 ||
		    msg_before(&s->msgs[latest[t->kind]], &s->msgs[t->msg]))
			latest[t->kind] = t->msg;
	}
	for (kind = 0; kind < TBLFMT_NR; kind++) {
		if (!s->uses[kind])
			continue;
		if (s->pick < 0 || s->uses[kind] > s->uses[s->pick] ||
		    (s->uses[kind] == s->uses[s->pick] &&
		     msg_before(&s->msgs[latest[s->pick]],
				&s->msgs[latest[kind]]))) {
			s->pick = kind;
			s->pick_msg = latest[kind];
		}
	}
}

void tblfmt_scan_mbox(const char *text, size_t len, struct tblfmt_scan *s)
{
	struct mbox mb;
	size_t i;

	mbox_split(text, len, &mb);
	for (i = 0; i < mb.nr; i++) {
		struct mail m;

		if (mail_parse(mb.msgs[i].data, mb.msgs[i].len, &m))
			continue;
		tblfmt_add(s, &m);
		mail_release(&m);
	}
	mbox_release(&mb);
	tblfmt_finish(s);
}

int tblfmt_scan_file(const char *path, struct tblfmt_scan *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0) {
		error("cannot read %s: %s", path, strerror(errno));
		strbuf_release(&sb);
		tblfmt_finish(s);
		return -1;
	}
	tblfmt_scan_mbox(sb.buf, sb.len, s);
	strbuf_release(&sb);
	return 0;
}

void tblfmt_release(struct tblfmt_scan *s)
{
	size_t i;

	for (i = 0; i < s->nr_msgs; i++) {
		free(s->msgs[i].msgid);
		free(s->msgs[i].author_name);
		free(s->msgs[i].author_email);
		free(s->msgs[i].date);
	}
	free(s->msgs);
	free(s->tables);
	memset(s, 0, sizeof(*s));
	s->pick = -1;
}

const char *tblfmt_resolve(const char *want, const char *fallback,
			   const struct tblfmt_scan *s, char **note)
{
	const struct tblfmt_msg *m;
	size_t total = 0;
	int k;

	if (note)
		*note = NULL;
	if (want && *want && strcmp(want, "auto"))
		return want;
	if (!s || s->pick < 0) {
		if (note)
			*note = xasprintf("table format %s: %s", fallback, s ?
					  "no result tables in the thread" :
					  "no thread to take it from");
		return fallback;
	}
	m = &s->msgs[s->pick_msg];
	for (k = 0; k < TBLFMT_NR; k++)
		total += s->uses[k];
	if (note)
		*note = xasprintf("table format %s, as in <%s> from %s%s%s%s (%zu of %zu messages with tables use it)",
				  kind_names[s->pick], m->msgid,
				  m->author_name, *m->author_name ? " <" : "",
				  m->author_email,
				  *m->author_name ? ">" : "",
				  s->uses[s->pick], total);
	return kind_names[s->pick];
}

void tblfmt_json(struct json *j, const struct tblfmt_scan *s)
{
	size_t from = 0, to, i;
	int kind;

	json_array_begin(j, "formats");
	/* a message's tables are contiguous: one entry per message and kind */
	for (; from < s->nr; from = to) {
		const struct tblfmt_msg *m = &s->msgs[s->tables[from].msg];

		for (to = from; to < s->nr &&
		     s->tables[to].msg == s->tables[from].msg; to++)
			;
		for (kind = 0; kind < TBLFMT_NR; kind++) {
			size_t tables = 0, quoted = 0;

			for (i = from; i < to; i++) {
				if ((int)s->tables[i].kind != kind ||
				    !s->tables[i].counted)
					continue;
				tables++;
				quoted += s->tables[i].depth > 0;
			}
			if (!tables)
				continue;
			json_object_begin(j, NULL);
			json_string(j, "format", kind_names[kind]);
			json_string(j, "msgid", m->msgid);
			json_person(j, "author", m->author_name, m->author_email);
			json_string(j, "date", m->date);
			json_int(j, "tables", (long long)tables);
			json_bool(j, "quoted", quoted == tables);
			json_bool(j, "chosen", s->pick == kind &&
				  s->pick_msg == s->tables[from].msg);
			json_object_end(j);
		}
	}
	json_array_end(j);
}
