// SPDX-License-Identifier: GPL-2.0
/*
 * templates.c - the template language of templates.h: a parser into a
 * small tree, its expansion over records of variables, and finding
 * templates/ from the configuration or the binary.
 *
 * The whole template is parsed before anything is expanded, so that a
 * malformed one is refused whatever the data, and a branch that is not
 * taken is checked too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "templates.h"
#include "util.h"

#define MAX_DEPTH 16
#define MAX_COLUMN 1000

/* ---- records ------------------------------------------------------ */

static struct tmpl_list *find_list(const struct tmpl_rec *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_lists; i++)
		if (!strcmp(r->lists[i].name, name))
			return &r->lists[i];
	return NULL;
}

const struct tmpl_list *tmpl_list(const struct tmpl_rec *parent,
				  const char *list)
{
	return find_list(parent, list);
}

struct tmpl_rec *tmpl_add(struct tmpl_rec *parent, const char *list)
{
	struct tmpl_list *l = find_list(parent, list);
	struct tmpl_rec *r;

	if (!l) {
		ALLOC_GROW(parent->lists, parent->nr_lists,
			   parent->alloc_lists);
		l = &parent->lists[parent->nr_lists++];
		memset(l, 0, sizeof(*l));
		l->name = xstrdup(list);
	}
	r = xcalloc(1, sizeof(*r));
	ALLOC_GROW(l->v, l->nr, l->alloc);
	l->v[l->nr++] = r;
	return r;
}

void tmpl_rec_release(struct tmpl_rec *r)
{
	size_t i, j;

	for (i = 0; i < r->nr_lists; i++) {
		struct tmpl_list *l = &r->lists[i];

		for (j = 0; j < l->nr; j++) {
			tmpl_rec_release(l->v[j]);
			free(l->v[j]);
		}
		free(l->v);
		free(l->name);
	}
	free(r->lists);
	kv_release(&r->vars);
	memset(r, 0, sizeof(*r));
}

void tmpl_setkf(struct kv *v, const char *name, int k, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char *key = xasprintf("%s.%d", name, k);
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	kv_set(v, key, sb.buf);
	free(key);
	strbuf_release(&sb);
}

/* ---- parsing ------------------------------------------------------ */

enum node_type { N_TEXT, N_VAR, N_IF, N_EACH };

struct node;

struct nodes {
	struct node *v;
	size_t nr, alloc;
};

struct node {
	enum node_type type;
	const char *s;		/* N_TEXT: the text; else the name */
	size_t len;
	int op;			/* N_VAR: 0, '<', '>' or '=' */
	size_t minw;		/* '<' '>': the least column width */
	int has_text;		/* '<' '>': a header text after '|' */
	int text_var;		/* ... that names a variable ("|$var") */
	const char *text;
	size_t text_len;
	char fill;		/* '=': the character of the rule */
	struct nodes body;	/* N_IF: when true; N_EACH: the body */
	struct nodes alt;	/* N_IF: {{else}} */
};

/* What ended a body: the end of the text, or a tag its caller closes. */
enum end { END_EOF, END_ELSE, END_IF, END_EACH, END_ERROR };

struct parser {
	const char *start;
	const char *p;
	const char *name;
	int depth;
	const char *end_tag;	/* the closing tag last returned */
};

static int parse_error(const struct parser *ps, const char *at,
		       const char *what)
{
	const char *q;
	int line = 1;

	for (q = ps->start; q < at; q++)
		line += *q == '\n';
	error("template %s:%d: %s", ps->name ? ps->name : "(text)", line,
	      what);
	return END_ERROR;
}

static void nodes_release(struct nodes *b)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		nodes_release(&b->v[i].body);
		nodes_release(&b->v[i].alt);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}

static struct node *add_node(struct nodes *b, enum node_type type,
			     const char *s, size_t len)
{
	struct node *n;

	ALLOC_GROW(b->v, b->nr, b->alloc);
	n = &b->v[b->nr++];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->s = s;
	n->len = len;
	return n;
}

/* name, name<N, name>N, name<N|Text, name<N|$var, name=c */
static int parse_var(struct node *n, const char *p, size_t len)
{
	const char *end = p + len, *q;
	size_t nlen = 0;

	while (nlen < len && !memchr("<>=|", p[nlen], 4))
		nlen++;
	if (!nlen)
		return -1;
	n->len = nlen;
	if (nlen == len)
		return 0;
	n->op = p[nlen];
	q = p + nlen + 1;
	if (n->op == '|')
		return -1;
	if (n->op == '=') {
		n->fill = q < end ? *q++ : '-';
		return q == end ? 0 : -1;
	}
	while (q < end && isdigit((unsigned char)*q)) {
		n->minw = n->minw * 10 + (size_t)(*q++ - '0');
		if (n->minw > MAX_COLUMN)
			return -1;
	}
	if (q < end && *q == '|') {
		n->has_text = 1;
		if (++q < end && *q == '$') {
			n->text_var = 1;
			q++;
		}
		n->text = q;
		n->text_len = (size_t)(end - q);
		return 0;
	}
	return q == end ? 0 : -1;
}

enum tag_kind { T_VAR, T_COMMENT, T_IF, T_EACH, T_ELSE, T_END_IF,
	T_END_EACH, T_UNKNOWN };

/* "#if" matches "#if name" and "#if", not "#iffy". */
static int is_word(const char *c, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && !memcmp(c, word, n) &&
	       (len == n || isspace((unsigned char)c[n]));
}

static enum tag_kind tag_kind(const char *c, size_t len)
{
	if (len && *c == '!')
		return T_COMMENT;
	if (is_word(c, len, "#if"))
		return T_IF;
	if (is_word(c, len, "#each"))
		return T_EACH;
	if (len == 4 && !memcmp(c, "else", 4))
		return T_ELSE;
	if (len == 3 && !memcmp(c, "/if", 3))
		return T_END_IF;
	if (len == 5 && !memcmp(c, "/each", 5))
		return T_END_EACH;
	if (len && (*c == '#' || *c == '/'))
		return T_UNKNOWN;
	return T_VAR;
}

static enum end parse_body(struct parser *ps, struct nodes *out);

/* {{#if name}} or {{#each name}} at open, its content c[0..len-1]. */
static enum end parse_section(struct parser *ps, struct nodes *out,
			      enum tag_kind kind, const char *open,
			      const char *c, size_t len)
{
	size_t skip = kind == T_IF ? 3 : 5, i;
	struct node *n;
	enum end e;

	c += skip;
	len -= skip;
	while (len && isspace((unsigned char)*c)) {
		c++;
		len--;
	}
	if (!len)
		return parse_error(ps, open, kind == T_IF ?
				   "{{#if}} names no variable" :
				   "{{#each}} names no list");
	for (i = 0; i < len; i++)
		if (isspace((unsigned char)c[i]))
			return parse_error(ps, open, "one name per section");
	if (ps->depth == MAX_DEPTH)
		return parse_error(ps, open, "sections nested too deep");
	/* The bodies grow their own arrays, never out: n stays valid. */
	n = add_node(out, kind == T_IF ? N_IF : N_EACH, c, len);
	ps->depth++;
	e = parse_body(ps, &n->body);
	if (kind == T_IF && e == END_ELSE) {
		e = parse_body(ps, &n->alt);
		if (e == END_ELSE)
			e = parse_error(ps, ps->end_tag,
					"a second {{else}} in an {{#if}}");
	}
	ps->depth--;
	if (e == END_ERROR)
		return END_ERROR;
	if (e == END_EOF)
		return parse_error(ps, open, kind == T_IF ?
				   "{{#if}} without {{/if}}" :
				   "{{#each}} without {{/each}}");
	if (kind == T_IF && e != END_IF)
		return parse_error(ps, ps->end_tag,
				   "{{/each}} closes an {{#if}}");
	if (kind == T_EACH && e != END_EACH)
		return parse_error(ps, ps->end_tag, e == END_ELSE ?
				   "{{else}} in an {{#each}}" :
				   "{{/if}} closes an {{#each}}");
	return END_EOF;
}

/* Parse up to the end of the text or a closing tag, which is returned. */
static enum end parse_body(struct parser *ps, struct nodes *out)
{
	for (;;) {
		const char *open = strstr(ps->p, "{{"), *close, *c;
		enum tag_kind kind;
		struct node *n;
		size_t len;

		if (!open) {
			len = strlen(ps->p);
			if (len)
				add_node(out, N_TEXT, ps->p, len);
			ps->p += len;
			return END_EOF;
		}
		if (open > ps->p)
			add_node(out, N_TEXT, ps->p, (size_t)(open - ps->p));
		close = strstr(open + 2, "}}");
		if (!close)
			return parse_error(ps, open, "'{{' without '}}'");
		c = open + 2;
		len = (size_t)(close - c);
		while (len && isspace((unsigned char)*c)) {
			c++;
			len--;
		}
		while (len && isspace((unsigned char)c[len - 1]))
			len--;
		ps->p = close + 2;
		kind = tag_kind(c, len);
		/* A section tag alone on its line leaves no empty line. */
		if (kind != T_VAR && (open == ps->start || open[-1] == '\n') &&
		    *ps->p == '\n')
			ps->p++;
		ps->end_tag = open;
		switch (kind) {
		case T_COMMENT:
			break;
		case T_ELSE:
			return END_ELSE;
		case T_END_IF:
			return END_IF;
		case T_END_EACH:
			return END_EACH;
		case T_UNKNOWN:
			return parse_error(ps, open, "unknown tag");
		case T_IF:
		case T_EACH:
			if (parse_section(ps, out, kind, open, c, len) ==
			    END_ERROR)
				return END_ERROR;
			break;
		case T_VAR:
			n = add_node(out, N_VAR, c, len);
			if (parse_var(n, c, len) < 0)
				return parse_error(ps, open,
						   "bad placeholder");
			break;
		}
	}
}

static int parse(const char *text, const char *name, struct nodes *out)
{
	struct parser ps = { .start = text, .p = text, .name = name };
	enum end e = parse_body(&ps, out);

	if (e == END_ELSE)
		parse_error(&ps, ps.end_tag, "{{else}} without {{#if}}");
	else if (e == END_IF)
		parse_error(&ps, ps.end_tag, "{{/if}} without {{#if}}");
	else if (e == END_EACH)
		parse_error(&ps, ps.end_tag, "{{/each}} without {{#each}}");
	if (e != END_EOF) {
		nodes_release(out);
		return -1;
	}
	return 0;
}

/* ---- expansion ---------------------------------------------------- */

/* The records around a point of the expansion, innermost first. */
struct scope {
	const struct kv *vars;
	const struct tmpl_rec *rec;	/* its lists; NULL for a mail */
	const struct scope *up;
};

struct width {
	char *key;
	size_t w;
};

struct ctx {
	const struct tmpl_opts *o;
	struct width *w;
	size_t nr_w, alloc_w;
	int k;			/* kernel of {{#each kernel}}, else -1 */
	int table;		/* inside a table (a top-level record) */
	int rows;		/* list loops open inside the table */
	int measuring;		/* the first pass over a table */
	struct strbuf key, wkey;
	struct strbuf val;	/* a value, its control characters replaced */
};

static const char *get(struct ctx *c, const struct kv *v, const char *name,
		       size_t len, int k)
{
	strbuf_reset(&c->key);
	strbuf_add(&c->key, name, len);
	if (k >= 0)
		strbuf_addf(&c->key, ".%d", k);
	return kv_get(v, c->key.buf);
}

static const char *lookup(struct ctx *c, const struct scope *s,
			  const char *name, size_t len)
{
	const char *v;

	for (; s; s = s->up) {
		v = c->k >= 0 ? get(c, s->vars, name, len, c->k) : NULL;
		if (!v)
			v = get(c, s->vars, name, len, -1);
		if (!v && c->k < 0)
			v = get(c, s->vars, name, len, 0);
		if (v)
			return v;
	}
	return NULL;
}

static struct width *width_of(struct ctx *c, const struct node *n,
			      int create)
{
	size_t i;

	strbuf_reset(&c->wkey);
	strbuf_add(&c->wkey, n->s, n->len);
	if (c->k >= 0)
		strbuf_addf(&c->wkey, ".%d", c->k);
	for (i = 0; i < c->nr_w; i++)
		if (!strcmp(c->w[i].key, c->wkey.buf))
			return &c->w[i];
	if (!create)
		return NULL;
	ALLOC_GROW(c->w, c->nr_w, c->alloc_w);
	c->w[c->nr_w].key = xstrdup(c->wkey.buf);
	c->w[c->nr_w].w = 0;
	return &c->w[c->nr_w++];
}

static void widths_reset(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr_w; i++)
		free(c->w[i].key);
	free(c->w);
	c->w = NULL;
	c->nr_w = c->alloc_w = 0;
}

/*
 * A value as it is printed: values carry outside text (a subject, a
 * name, a quoted mail, a compiler's version from the built .config,
 * the build's log), and none of its control characters but \n and \t
 * reaches a mail, a report or a terminal.  The template's own text is
 * ours and is copied as it is.
 */
static const char *clean_value(struct ctx *c, const char *val, size_t *len)
{
	strbuf_reset(&c->val);
	strbuf_add(&c->val, val, *len);
	*len = strip_controls(c->val.buf, c->val.len);
	strbuf_setlen(&c->val, *len);
	return c->val.buf;
}

static void pad(struct strbuf *out, size_t n, int ch)
{
	while (n--)
		strbuf_addch(out, ch);
}

static void expand_var(struct ctx *c, const struct node *n,
		       const struct scope *s, struct strbuf *out)
{
	const struct width *w;
	const char *val;
	size_t len, dw, cw;

	if (n->op == '=') {
		w = width_of(c, n, 0);
		if (w) {
			pad(out, w->w, n->fill);
		} else {
			val = lookup(c, s, n->s, n->len);
			len = val ? strlen(val) : 0;
			if (val)
				val = clean_value(c, val, &len);
			pad(out, val ? utf8_width(val, len) : 0, n->fill);
		}
		return;
	}
	if (n->has_text && !n->text_var) {
		val = n->text;
		len = n->text_len;
	} else {
		val = n->has_text ? lookup(c, s, n->text, n->text_len) :
				    lookup(c, s, n->s, n->len);
		if (!val)
			val = "";
		len = strlen(val);
		val = clean_value(c, val, &len);
	}
	if (!n->op) {
		strbuf_add(out, val, len);
		return;
	}
	dw = utf8_width(val, len);
	if (c->measuring) {
		struct width *m = width_of(c, n, 1);

		if (n->minw > m->w)
			m->w = n->minw;
		/* header texts always count; values only in the rows */
		if ((n->has_text || c->rows) && dw > m->w)
			m->w = dw;
	}
	w = width_of(c, n, 0);
	cw = w ? w->w : n->minw;
	if (n->op == '>' && dw < cw)
		pad(out, cw - dw, ' ');
	strbuf_add(out, val, len);
	if (n->op == '<' && dw < cw)
		pad(out, cw - dw, ' ');
}

static void expand_nodes(struct ctx *c, const struct nodes *b,
			 const struct scope *s, struct strbuf *out);

static const struct tmpl_list *list_in_scope(const struct scope *s,
					     const char *name, size_t len)
{
	char *key = xstrndup(name, len);
	const struct tmpl_list *l = NULL;

	for (; s && !l; s = s->up)
		if (s->rec)
			l = tmpl_list(s->rec, key);
	free(key);
	return l;
}

/* One record of a top-level list: measure its columns, then print. */
static void expand_table(struct ctx *c, const struct nodes *body,
			 const struct scope *s, struct strbuf *out)
{
	struct strbuf scratch = STRBUF_INIT;

	widths_reset(c);
	c->table = 1;
	c->measuring = 1;
	expand_nodes(c, body, s, &scratch);
	c->measuring = 0;
	expand_nodes(c, body, s, out);
	c->table = 0;
	widths_reset(c);
	strbuf_release(&scratch);
}

static void expand_each(struct ctx *c, const struct node *n,
			const struct scope *s, struct strbuf *out)
{
	const struct tmpl_list *l;
	size_t i;

	if (n->len == 6 && !memcmp(n->s, "kernel", 6)) {
		int saved = c->k, k;

		for (k = 1; k < c->o->nr_kernels; k++) {
			c->k = k;
			expand_nodes(c, &n->body, s, out);
		}
		c->k = saved;
		return;
	}
	l = list_in_scope(s, n->s, n->len);
	for (i = 0; l && i < l->nr; i++) {
		struct scope sub = { &l->v[i]->vars, l->v[i], s };

		if (!c->table) {
			expand_table(c, &n->body, &sub, out);
		} else {
			c->rows++;
			expand_nodes(c, &n->body, &sub, out);
			c->rows--;
		}
	}
}

static void expand_nodes(struct ctx *c, const struct nodes *b,
			 const struct scope *s, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		const struct node *n = &b->v[i];
		const char *v;

		switch (n->type) {
		case N_TEXT:
			strbuf_add(out, n->s, n->len);
			break;
		case N_VAR:
			expand_var(c, n, s, out);
			break;
		case N_IF:
			v = lookup(c, s, n->s, n->len);
			expand_nodes(c, v && *v ? &n->body : &n->alt, s, out);
			break;
		case N_EACH:
			expand_each(c, n, s, out);
			break;
		}
	}
}

/* Blanks before each newline (and at the very end) go. */
static void trim_lines(struct strbuf *out, size_t from)
{
	size_t r, w = from, line = from;

	for (r = from; r < out->len; r++) {
		char ch = out->buf[r];

		if (ch == '\n') {
			while (w > line && (out->buf[w - 1] == ' ' ||
					    out->buf[w - 1] == '\t'))
				w--;
			out->buf[w++] = '\n';
			line = w;
		} else {
			out->buf[w++] = ch;
		}
	}
	while (w > line && (out->buf[w - 1] == ' ' || out->buf[w - 1] == '\t'))
		w--;
	strbuf_setlen(out, w);
}

static int expand(const char *text, const struct scope *root,
		  const struct tmpl_opts *o, struct strbuf *out)
{
	static const struct tmpl_opts none;
	struct ctx c = { .o = o ? o : &none, .k = -1,
			 .key = STRBUF_INIT, .wkey = STRBUF_INIT,
			 .val = STRBUF_INIT };
	struct nodes tree = { 0 };
	size_t start = out->len;

	if (parse(text, c.o->name, &tree) < 0)
		return -1;
	expand_nodes(&c, &tree, root, out);
	if (c.o->trim)
		trim_lines(out, start);
	widths_reset(&c);
	strbuf_release(&c.key);
	strbuf_release(&c.wkey);
	strbuf_release(&c.val);
	nodes_release(&tree);
	return 0;
}

int tmpl_expand(const char *text, const struct tmpl_rec *data,
		const struct tmpl_opts *o, struct strbuf *out)
{
	struct scope root = { &data->vars, data, NULL };

	return expand(text, &root, o, out);
}

int tmpl_expand_kv(const char *text, const struct kv *vars,
		   const struct tmpl_opts *o, struct strbuf *out)
{
	struct scope root = { vars, NULL, NULL };

	return expand(text, &root, o, out);
}

/* ---- finding templates/ ------------------------------------------- */

static struct tmpl_dirs dirs;
static int configured;

void tmpl_configure(const struct tmpl_dirs *d)
{
	dirs = *d;
	configured = 1;
}

char *tmpl_path(const char *file, const char *dir)
{
	/* installed; build/sched-bot; build/tests/unit and deeper */
	static const char *const rel[] = {
		"/../share/sched-bot/templates", "/../templates",
		"/../../templates", "/../../../templates",
	};
	char *exe, *p;
	size_t i;

	/* unconfigured, templates.dir would be ignored: a bug */
	if (!configured)
		die("BUG: tmpl_path() before tmpl_configure()");
	if (!dir || !*dir)
		dir = dirs.dir;
	if (!dir || !*dir)
		dir = getenv("SCHED_BOT_TEMPLATES");
	if (dir && *dir) {
		p = xasprintf("%s/%s", dir, file);
		if (!access(p, R_OK))
			return p;
		error("template %s: %s", p, strerror(errno));
		free(p);
		return NULL;
	}
	exe = exe_dir();
	for (i = 0; exe && i < ARRAY_SIZE(rel); i++) {
		p = xasprintf("%s%s/%s", exe, rel[i], file);
		if (!access(p, R_OK)) {
			free(exe);
			return p;
		}
		free(p);
	}
	free(exe);
	p = xasprintf("templates/%s", file);
	if (!access(p, R_OK))
		return p;
	free(p);
	error("template %s not found (set templates.dir)", file);
	return NULL;
}

int tmpl_load(const char *file, const char *dir, struct strbuf *out)
{
	char *path = tmpl_path(file, dir);
	int ret = 0;

	if (!path)
		return -1;
	if (strbuf_read_file(out, path) < 0)
		ret = error("cannot read template %s: %s", path,
			    strerror(errno));
	free(path);
	return ret;
}
