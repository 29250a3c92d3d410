// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - the table template language (see render.h) and the
 * documents behind each report format of `compare`.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "config.h"
#include "plot.h"
#include "render.h"
#include "templates.h"

/* ---- documents ---------------------------------------------------- */

void rvars_set(struct rvars *v, const char *name, int k, const char *fmt,
	       ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct rcell *c = NULL;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (i = 0; i < v->nr; i++)
		if (v->v[i].k == k && !strcmp(v->v[i].name, name))
			c = &v->v[i];
	if (c) {
		free(c->val);
	} else {
		ALLOC_GROW(v->v, v->nr, v->alloc);
		c = &v->v[v->nr++];
		c->name = xstrdup(name);
		c->k = k;
	}
	c->val = strbuf_detach(&sb, NULL);
}

static const char *rvars_get(const struct rvars *v, const char *name,
			     size_t len, int k)
{
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < v->nr; i++)
		if (v->v[i].k == k && strlen(v->v[i].name) == len &&
		    !memcmp(v->v[i].name, name, len))
			return v->v[i].val;
	return NULL;
}

static void rvars_release(struct rvars *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		free(v->v[i].name);
		free(v->v[i].val);
	}
	free(v->v);
	memset(v, 0, sizeof(*v));
}

struct rblock *rdoc_block(struct rdoc *d)
{
	ALLOC_GROW(d->b, d->nr, d->alloc);
	memset(&d->b[d->nr], 0, sizeof(d->b[0]));
	return &d->b[d->nr++];
}

struct rvars *rblock_row(struct rblock *b)
{
	ALLOC_GROW(b->rows, b->nr, b->alloc);
	memset(&b->rows[b->nr], 0, sizeof(b->rows[0]));
	return &b->rows[b->nr++];
}

void rdoc_release(struct rdoc *d)
{
	size_t i, j;

	for (i = 0; i < d->nr; i++) {
		for (j = 0; j < d->b[i].nr; j++)
			rvars_release(&d->b[i].rows[j]);
		free(d->b[i].rows);
		rvars_release(&d->b[i].vars);
	}
	free(d->b);
	rvars_release(&d->vars);
	memset(d, 0, sizeof(*d));
}

/* ---- the template engine ------------------------------------------ */

enum { S_HEADER, S_BLOCK, S_ROW, S_BLOCKEND, S_FOOTER, NR_SECTIONS };
static const char *const section_names[NR_SECTIONS] = {
	"[header]", "[block]", "[row]", "[blockend]", "[footer]",
};

struct width {
	char *name;
	int k;
	size_t w;
};

struct engine {
	const char *tmpl_name;
	const struct rdoc *doc;
	const struct rblock *block;	/* NULL in header/footer */
	const struct rvars *row;	/* NULL outside rows */
	struct width *w;
	size_t nr_w, alloc_w;
	int measuring;
	int in_row_section;
	int empty_seen;			/* for ?lines */
	int bad;
};

static size_t display_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

static const char *lookup(struct engine *e, const char *name, size_t len,
			  int k)
{
	const struct rvars *scopes[3] = {
		e->row, e->block ? &e->block->vars : NULL, &e->doc->vars,
	};
	const char *v;
	int i;

	for (i = 0; i < 3; i++) {
		if (k >= 0 && (v = rvars_get(scopes[i], name, len, k)))
			return v;
		if ((v = rvars_get(scopes[i], name, len, -1)))
			return v;
		if (k < 0 && (v = rvars_get(scopes[i], name, len, 0)))
			return v;
	}
	return NULL;
}

static struct width *width_of(struct engine *e, const char *name,
			      size_t len, int k, int create)
{
	size_t i;

	for (i = 0; i < e->nr_w; i++)
		if (e->w[i].k == k && strlen(e->w[i].name) == len &&
		    !memcmp(e->w[i].name, name, len))
			return &e->w[i];
	if (!create)
		return NULL;
	ALLOC_GROW(e->w, e->nr_w, e->alloc_w);
	e->w[e->nr_w].name = xstrndup(name, len);
	e->w[e->nr_w].k = k;
	e->w[e->nr_w].w = 0;
	return &e->w[e->nr_w++];
}

static void widths_reset(struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nr_w; i++)
		free(e->w[i].name);
	free(e->w);
	e->w = NULL;
	e->nr_w = e->alloc_w = 0;
}

static void pad(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addch(out, ' ');
}

static void add_aligned(struct strbuf *out, const char *s, size_t len,
			size_t width, int right)
{
	size_t w = display_width(s, len);

	if (right && w < width)
		pad(out, width - w);
	strbuf_add(out, s, len);
	if (!right && w < width)
		pad(out, width - w);
}

/*
 * Expand one placeholder p[0..len-1] (without braces) for kernel k.
 */
static void placeholder(struct engine *e, const char *p, size_t len, int k,
			struct strbuf *out)
{
	size_t nlen = strcspn(p, "<>=|}");
	const char *val, *text = NULL;
	size_t text_len = 0, minw = 0;
	struct width *w;
	int op;

	if (nlen > len)
		nlen = len;
	op = nlen < len ? p[nlen] : 0;
	if (!nlen) {
		e->bad = 1;
		return;
	}
	if (op == '=') {
		char c = nlen + 1 < len ? p[nlen + 1] : '-';
		size_t n;

		w = width_of(e, p, nlen, k, 0);
		if (w) {
			n = w->w;
		} else {
			val = lookup(e, p, nlen, k);
			n = val ? display_width(val, strlen(val)) : 0;
		}
		while (n--)
			strbuf_addch(out, c);
		return;
	}
	if (op == '<' || op == '>') {
		const char *q = p + nlen + 1, *end = p + len;

		while (q < end && *q >= '0' && *q <= '9' && minw < 1000)
			minw = minw * 10 + (size_t)(*q++ - '0');
		if (q < end && *q == '|') {
			text = q + 1;
			text_len = (size_t)(end - text);
			if (text_len && *text == '$') {
				text = lookup(e, text + 1, text_len - 1, k);
				text_len = text ? strlen(text) : 0;
				if (!text)
					text = "";
			}
		} else if (q != end) {
			e->bad = 1;
			return;
		}
	} else if (op == '|') {
		e->bad = 1;
		return;
	}
	val = text ? text : lookup(e, p, nlen, k);
	if (!val)
		val = "";
	if (!text)
		text_len = strlen(val);
	if (!text && !*val)
		e->empty_seen = 1;
	if (!op) {
		strbuf_add(out, val, text_len);
		return;
	}
	w = width_of(e, p, nlen, k, e->measuring);
	if (e->measuring) {
		size_t dw = display_width(val, text_len);

		if (minw > w->w)
			w->w = minw;
		/* header texts always count; cells only from [row] lines */
		if ((text || e->in_row_section) && dw > w->w)
			w->w = dw;
	}
	add_aligned(out, val, text_len, w ? w->w : minw, op == '>');
}

/* Expand s[0..len-1] (no [[ ]] inside) for kernel k. */
static void expand_span(struct engine *e, const char *s, size_t len, int k,
			struct strbuf *out)
{
	const char *end = s + len;

	while (s < end) {
		const char *open = memchr(s, '{', (size_t)(end - s));
		const char *close;

		if (!open) {
			strbuf_add(out, s, (size_t)(end - s));
			return;
		}
		strbuf_add(out, s, (size_t)(open - s));
		if (open + 1 < end && open[1] == '{') {
			strbuf_addch(out, '{');
			s = open + 2;
			continue;
		}
		close = memchr(open, '}', (size_t)(end - open));
		if (!close) {
			e->bad = 1;
			return;
		}
		placeholder(e, open + 1, (size_t)(close - open - 1), k, out);
		s = close + 1;
	}
}

static void expand_line(struct engine *e, const char *line, size_t len,
			struct strbuf *out)
{
	const char *s = line, *end = line + len;
	size_t start = out->len;
	int cond = len && *line == '?';
	int k;

	if (cond)
		s++;
	e->empty_seen = 0;
	while (s < end) {
		const char *open = memmem(s, (size_t)(end - s), "[[", 2);
		const char *close;

		if (!open) {
			expand_span(e, s, (size_t)(end - s), -1, out);
			break;
		}
		expand_span(e, s, (size_t)(open - s), -1, out);
		close = memmem(open + 2, (size_t)(end - open - 2), "]]", 2);
		if (!close) {
			e->bad = 1;
			break;
		}
		for (k = 1; k < e->doc->nr_kernels; k++)
			expand_span(e, open + 2, (size_t)(close - open - 2),
				    k, out);
		s = close + 2;
	}
	if (cond && e->empty_seen) {
		strbuf_setlen(out, start);
		return;
	}
	while (out->len > start && (out->buf[out->len - 1] == ' ' ||
				    out->buf[out->len - 1] == '\t'))
		strbuf_setlen(out, out->len - 1);
	strbuf_addch(out, '\n');
}

struct tline {
	const char *s;
	size_t len;
};

struct tmpl {
	struct tline *l[NR_SECTIONS];
	size_t nr[NR_SECTIONS], alloc[NR_SECTIONS];
};

static void expand_section(struct engine *e, const struct tmpl *t, int sec,
			   struct strbuf *out)
{
	size_t i;

	for (i = 0; i < t->nr[sec]; i++)
		expand_line(e, t->l[sec][i].s, t->l[sec][i].len, out);
}

static void render_block(struct engine *e, const struct tmpl *t,
			 const struct rblock *b, struct strbuf *out)
{
	struct strbuf scratch = STRBUF_INIT;
	size_t r;

	e->block = b;
	widths_reset(e);
	/* Pass 1: measure every column over headers and rows. */
	e->measuring = 1;
	e->row = b->nr ? &b->rows[0] : NULL;
	expand_section(e, t, S_BLOCK, &scratch);
	expand_section(e, t, S_BLOCKEND, &scratch);
	e->in_row_section = 1;
	for (r = 0; r < b->nr; r++) {
		e->row = &b->rows[r];
		expand_section(e, t, S_ROW, &scratch);
	}
	e->in_row_section = 0;
	e->measuring = 0;
	strbuf_release(&scratch);
	/* Pass 2: print. */
	e->row = NULL;
	expand_section(e, t, S_BLOCK, out);
	for (r = 0; r < b->nr; r++) {
		e->row = &b->rows[r];
		expand_section(e, t, S_ROW, out);
	}
	e->row = NULL;
	expand_section(e, t, S_BLOCKEND, out);
}

int render_template_text(const char *name, const char *text,
			 const struct rdoc *doc, struct strbuf *out)
{
	struct engine e = { .tmpl_name = name, .doc = doc };
	struct tmpl t = { 0 };
	const char *s = text;
	int sec = S_HEADER, i;
	size_t b;

	while (*s) {
		size_t len = strcspn(s, "\n");
		int found = -1;

		for (i = 0; i < NR_SECTIONS; i++)
			if (len == strlen(section_names[i]) &&
			    !memcmp(s, section_names[i], len))
				found = i;
		if (found >= 0) {
			sec = found;
		} else if (!(len >= 2 && s[0] == '#' && s[1] == '#')) {
			ALLOC_GROW(t.l[sec], t.nr[sec], t.alloc[sec]);
			t.l[sec][t.nr[sec]].s = s;
			t.l[sec][t.nr[sec]++].len = len;
		}
		s += len;
		if (*s)
			s++;
	}
	expand_section(&e, &t, S_HEADER, out);
	for (b = 0; b < doc->nr; b++)
		render_block(&e, &t, &doc->b[b], out);
	e.block = NULL;
	widths_reset(&e);
	expand_section(&e, &t, S_FOOTER, out);
	widths_reset(&e);
	for (i = 0; i < NR_SECTIONS; i++)
		free(t.l[i]);
	if (e.bad)
		return error("template %s: bad placeholder or [[ ]]", name);
	return 0;
}

int render_template(const char *format, const struct rdoc *doc,
		    struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	char *file = xasprintf("report-%s.txt", format);
	char *path = template_path(file, NULL);
	int ret;

	free(file);
	if (!path)
		return -1;
	if (strbuf_read_file(&sb, path) < 0) {
		ret = error("cannot read %s: %s", path, strerror(errno));
	} else {
		ret = render_template_text(path, sb.buf, doc, out);
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

/* ---- documents for each report format ----------------------------- */

static const char *dir_text(int higher_is_better)
{
	return higher_is_better ? "higher is better" : "lower is better";
}

/* Numbers as people write them in these mails: few digits, no 1e5. */
static void fmt_value(char *buf, size_t size, double v, double ref)
{
	double a = fabs(ref);

	if (isnan(v))
		snprintf(buf, size, "-");
	else if (a >= 1e9)
		snprintf(buf, size, "%.4g", v);
	else if (a >= 1000)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, size, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "%.4f", v);
}

static void env_describe(const struct compare_metric *m, struct strbuf *sb,
			 int with_machine)
{
	if (with_machine && *m->machine)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", m->machine);
	if (*m->placement)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", m->placement);
	if (*m->autogroup_config)
		strbuf_addf(sb, "%sCONFIG_SCHED_AUTOGROUP=%s",
			    sb->len ? ", " : "", m->autogroup_config);
	if (*m->autogroup_enabled)
		strbuf_addf(sb, "%ssched_autogroup_enabled=%s",
			    sb->len ? ", " : "", m->autogroup_enabled);
	if (*m->cgroup)
		strbuf_addf(sb, "%scgroup %s", sb->len ? ", " : "",
			    m->cgroup);
}

static void doc_init(struct rdoc *d, const struct compare_result *r)
{
	struct strbuf rule = STRBUF_INIT;
	size_t k;

	memset(d, 0, sizeof(*d));
	d->nr_kernels = (int)r->nr_kernels;
	for (k = 0; k < r->nr_kernels; k++) {
		rvars_set(&d->vars, "label", (int)k, "%s", r->kernels[k]);
		rvars_set(&d->vars, "uname", (int)k, "%s",
			  *r->unames[k] ? r->unames[k] : r->kernels[k]);
	}
	rvars_set(&d->vars, "verdict", -1, "%s", verdict_name(r->verdict));
	compare_rule(r, &rule);
	rvars_set(&d->vars, "rule", -1, "%s", rule.buf);
	strbuf_release(&rule);
	rvars_set(&d->vars, "base", -1, "%s", r->kernels[0]);
}

/* Find the block whose "_key" is key, or start one. */
static struct rblock *block_for(struct rdoc *d, const char *key, int *fresh)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		const char *v = rvars_get(&d->b[i].vars, "_key", 4, -1);

		if (v && !strcmp(v, key)) {
			*fresh = 0;
			return &d->b[i];
		}
	}
	*fresh = 1;
	return rdoc_block(d);
}

static char *env_key(const struct compare_metric *m)
{
	return xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s", m->machine,
			 m->placement, m->autogroup_config,
			 m->autogroup_enabled, m->cgroup);
}

static void block_common(struct rblock *b, const struct compare_metric *m,
			 const char *key)
{
	struct strbuf env = STRBUF_INIT;

	env_describe(m, &env, 1);
	rvars_set(&b->vars, "_key", -1, "%s", key);
	rvars_set(&b->vars, "workload", -1, "%s", m->workload);
	rvars_set(&b->vars, "params", -1, "%s", m->params);
	rvars_set(&b->vars, "metric", -1, "%s", m->metric);
	rvars_set(&b->vars, "unit", -1, "%s", *m->unit ? m->unit : m->metric);
	rvars_set(&b->vars, "dir", -1, "%s", dir_text(m->higher_is_better));
	rvars_set(&b->vars, "Dir", -1, "%s",
		  m->higher_is_better ? "Higher is better" :
					"Lower is better");
	rvars_set(&b->vars, "env", -1, "%s", env.buf);
	strbuf_reset(&env);
	env_describe(m, &env, 0);
	rvars_set(&b->vars, "envx", -1, "%s", env.buf);
	rvars_set(&b->vars, "on", -1, "%s%s", *m->machine ? " on " : "",
		  m->machine);
	rvars_set(&b->vars, "what", -1, "%s%s%s", m->workload,
		  *m->params ? " " : "", m->params);
	strbuf_release(&env);
}

/*
 * Params split into a sweep's instance count and the rest, so that a
 * sweep reads like the seeds' "1 group" / "2 groups" loads and their
 * "Clients:" columns.
 */
struct load {
	long count;		/* 0: the params hold no count */
	const char *key;	/* "pairs", "groups", ... */
	char *rest;		/* params without the count, "" if none */
};

static void load_split(const struct compare_metric *m, struct load *l)
{
	if (plot_sweep_key(m->params, &l->count, &l->rest, &l->key) < 0) {
		l->count = 0;
		l->key = NULL;
		l->rest = xstrdup(m->params);
	}
}

/* "1 group", "8 groups", "1 copy", "4 tasks" */
static void load_name(const struct load *l, char *buf, size_t size)
{
	const char *k = l->key;
	size_t n;

	if (starts_with(k, "nr_"))
		k += 3;
	n = strlen(k);
	if (l->count != 1)
		snprintf(buf, size, "%ld %s", l->count, k);
	else if (n > 3 && !strcmp(k + n - 3, "ies"))
		snprintf(buf, size, "1 %.*sy", (int)(n - 3), k);
	else if (n > 1 && k[n - 1] == 's')
		snprintf(buf, size, "1 %.*s", (int)(n - 1), k);
	else
		snprintf(buf, size, "1 %s", k);
}

/* Chen Yu's cover letter (seed 004). */
static void doc_intel(struct rdoc *d, const struct compare_result *r)
{
	size_t i, k;
	char buf[64];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0];
		char *ek = env_key(m), *key;
		struct rblock *bl;
		struct rvars *row;
		struct load l;
		int fresh;

		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%d\x1f%s", m->workload, l.rest,
				m->higher_is_better, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			rvars_set(&bl->vars, "title", -1, "%s%s%s",
				  m->workload, *l.rest ? " " : "", l.rest);
			for (k = 1; k < r->nr_kernels; k++)
				rvars_set(&bl->vars, "cmphdr", (int)k,
					  "%s%%( std%%)", r->nr_kernels > 2 ?
					  r->kernels[k] : "compare");
		}
		row = rblock_row(bl);
		rvars_set(row, "case", -1, "%s", m->metric);
		if (l.count) {
			load_name(&l, buf, sizeof(buf));
			rvars_set(row, "load", -1, "%s", buf);
		} else {
			rvars_set(row, "load", -1, "%s",
				  *m->params ? m->params : "-");
		}
		if (b->n)
			rvars_set(row, "base", -1, "%5.2f (%6.2f)", 1.0,
				  b->st.cv);
		else
			rvars_set(row, "base", -1, "%s", "-");
		for (k = 1; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];

			if (!s->n || isnan(s->better_pct))
				rvars_set(row, "cmp", (int)k, "%s", "-");
			else
				rvars_set(row, "cmp", (int)k, "%+6.2f (%6.2f)",
					  s->better_pct, s->st.cv);
		}
		free(l.rest);
		free(key);
		free(ek);
	}
}

/* K Prateek Nayak's blocks (seed 003). */
static void doc_amd(struct rdoc *d, const struct compare_result *r)
{
	size_t i, k;

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		struct rblock *bl;
		struct rvars *row;
		struct load l;
		int fresh;

		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%s",
				m->workload, l.rest, m->metric, m->unit,
				m->higher_is_better, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			rvars_set(&bl->vars, "title", -1, "%s%s%s%s",
				  m->workload, *l.rest ? " (" : "", l.rest,
				  *l.rest ? ")" : "");
			if (!*m->unit || !strcmp(m->unit, m->metric))
				rvars_set(&bl->vars, "units", -1, "%s",
					  m->metric);
			else
				rvars_set(&bl->vars, "units", -1, "%s in %s",
					  m->metric, m->unit);
			/* "Clients:", "#workers:" in the seed */
			if (l.count)
				rvars_set(&bl->vars, "casehdr", -1, "%c%s:",
					  toupper((unsigned char)l.key[0]),
					  l.key + 1);
			else
				rvars_set(&bl->vars, "casehdr", -1, "Case:");
			for (k = 0; k < r->nr_kernels; k++)
				rvars_set(&bl->vars, "hdr", (int)k,
					  "%s[pct imp](CV)", r->kernels[k]);
		}
		row = rblock_row(bl);
		if (l.count)
			rvars_set(row, "case", -1, "%ld", l.count);
		else
			rvars_set(row, "case", -1, "%s",
				  *m->params ? m->params : m->metric);
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];
			const struct compare_side *b = &m->side[0];
			/* the baseline prints -0.00 when lower is better,
			 * as in the seed: -(x - x) */
			double imp = k ? s->better_pct :
				     (m->higher_is_better ? 0.0 : -0.0);

			if (!s->n || b->st.mean == 0 || isnan(imp))
				rvars_set(row, "cell", (int)k, "%s", "-");
			else
				rvars_set(row, "cell", (int)k,
					  "%.2f [%6.2f](%5.2f)",
					  s->st.mean / b->st.mean, imp,
					  s->st.cv);
		}
		free(l.rest);
		free(key);
		free(ek);
	}
}

/* LKP: ±NN% only above 2%, like lib/compare.rb. */
static void lkp_value(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (fabs(v) < 1000)
		snprintf(buf, size, "%.2f", v);
	else if (fabs(v) > 1e8)
		snprintf(buf, size, "%.4g", v);
	else
		snprintf(buf, size, "%.0f", v);
}

static void lkp_err(struct rvars *row, int k, const struct stats *st)
{
	if (st->n && st->cv > 2)
		rvars_set(row, "e", k, " \xc2\xb1%3.0f%%", st->cv);
	else
		rvars_set(row, "e", k, "%s", "");
}

/*
 * The direction note under an LKP table, once all rows are in: one
 * phrase when the judged rows agree, else the lower-is-better ones by
 * name; diag.* rows are only said to be diagnostics.
 */
static void lkp_directions(struct rblock *bl)
{
	struct strbuf low = STRBUF_INIT, note = STRBUF_INIT;
	size_t i, nr_high = 0, nr_low = 0, nr_diag = 0;

	for (i = 0; i < bl->nr; i++) {
		const struct rvars *row = &bl->rows[i];

		if (*rvars_get(row, "_diag", 5, -1) == '1') {
			nr_diag++;
		} else if (*rvars_get(row, "_hib", 4, -1) == '1') {
			nr_high++;
		} else {
			nr_low++;
			strbuf_addf(&low, "%s%s", low.len ? ", " : "",
				    rvars_get(row, "name", 4, -1));
		}
	}
	if (nr_high && nr_low)
		strbuf_addf(&note, "higher is better except for %s", low.buf);
	else if (nr_high || nr_low)
		strbuf_addstr(&note, nr_high ? "higher is better" :
					       "lower is better");
	if (nr_diag)
		strbuf_addf(&note, "%sdiag.* rows are not judged",
			    note.len ? "; " : "");
	rvars_set(&bl->vars, "dirnote", -1, "%s", note.buf);
	strbuf_release(&low);
	strbuf_release(&note);
}

static void doc_lkp(struct rdoc *d, const struct compare_result *r)
{
	size_t i, k;
	char buf[64];

	for (k = 0; k < r->nr_kernels; k++)
		rvars_set(&d->vars, "lab", (int)k, "%.*s", k ? 27 : 16,
			  r->kernels[k]);
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		struct rblock *bl;
		struct rvars *row;
		struct load l;
		int fresh;

		/* like LKP: fixed params in the path, the sweep in the name */
		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%s", m->workload, l.rest, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			rvars_set(&bl->vars, "envpath", -1,
				  "%s/%s/%s/%s/%s/%s/%s",
				  *m->machine ? m->machine : "-",
				  *m->placement ? m->placement : "-",
				  *m->autogroup_config ?
				  m->autogroup_config : "-",
				  *m->autogroup_enabled ?
				  m->autogroup_enabled : "-",
				  *m->cgroup ? m->cgroup : "-",
				  *l.rest ? l.rest : "-", m->workload);
		}
		row = rblock_row(bl);
		lkp_value(buf, sizeof(buf), m->side[0].st.mean);
		rvars_set(row, "v", 0, "%s", buf);
		lkp_err(row, 0, &m->side[0].st);
		for (k = 1; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];

			lkp_value(buf, sizeof(buf), s->st.mean);
			rvars_set(row, "v", (int)k, "%s", buf);
			lkp_err(row, (int)k, &s->st);
			if (isnan(s->change_pct))
				rvars_set(row, "chg", (int)k, "%s", "");
			else
				rvars_set(row, "chg", (int)k, "%+.1f%%",
					  s->change_pct);
		}
		if (l.count)
			rvars_set(row, "name", -1, "%s.%s.%s=%ld", m->workload,
				  m->metric, l.key, l.count);
		else
			rvars_set(row, "name", -1, "%s.%s", m->workload,
				  m->metric);
		rvars_set(row, "_hib", -1, "%d", m->higher_is_better);
		rvars_set(row, "_diag", -1, "%d", m->diagnostic);
		free(l.rest);
		free(key);
		free(ek);
	}
	for (i = 0; i < d->nr; i++)
		lkp_directions(&d->b[i]);
}

static int significant(enum verdict v)
{
	return v == VERDICT_IMPROVEMENT || v == VERDICT_REGRESSION;
}

/* mmtests compare-kernels.sh (report-formats.md 4.1). */
static void doc_mmtests(struct rdoc *d, const struct compare_result *r)
{
	size_t i, k;
	char buf[64];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		int hmean = m->higher_is_better;
		double base;
		struct rblock *bl;
		struct rvars *row;
		struct load l;
		int fresh;

		for (k = 0; k < r->nr_kernels; k++)
			if (m->side[k].n && isnan(m->side[k].st.hmean))
				hmean = 0;
		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%s\x1f%d\x1f%s", m->workload,
				l.rest, m->metric, m->higher_is_better, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			rvars_set(&bl->vars, "title", -1, "%s-%s%s%s",
				  m->workload, m->metric, *l.rest ? " " : "",
				  l.rest);
		}
		row = rblock_row(bl);
		rvars_set(row, "stat", -1, "%s", hmean ? "Hmean" : "Amean");
		if (l.count)
			rvars_set(row, "op", -1, "%ld", l.count);
		else
			rvars_set(row, "op", -1, "%s",
				  *m->params ? m->params : "-");
		free(l.rest);
		base = hmean ? m->side[0].st.hmean : m->side[0].st.mean;
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];
			double v = hmean ? s->st.hmean : s->st.mean;
			/* pdiff / pndiff: positive is always a gain */
			double pct = 100 * (v - base) / base;
			int sig = k && significant(s->verdict);

			if (!m->higher_is_better)
				pct = -pct;
			if (!k)
				pct = 0;
			/* one precision per row, from the baseline */
			snprintf(buf, sizeof(buf), "%.*f",
				 fabs(base) < 100 ? 4 : 2, v);
			if (!s->n || !isfinite(pct))
				rvars_set(row, "v", (int)k, "%12s", "-");
			else
				rvars_set(row, "v", (int)k, "%12s %c%7.2f%%%c",
					  buf, sig ? '*' : '(', pct,
					  sig ? '*' : ')');
		}
		free(key);
		free(ek);
	}
}

/* The environment columns that vary within a block. */
enum { ENV_MACHINE, ENV_PLACEMENT, ENV_AGCONF, ENV_AGEN, ENV_CGROUP,
	NR_ENV };
static const char *const env_hdr[NR_ENV] = {
	"Machine", "Placement", "CFG_SCHED_AUTOGROUP", "sched_ag_enabled",
	"cgroup",
};

/* How a field shared by every row is named above the table. */
static const char *const env_const[NR_ENV] = {
	"machine ", "placement ", "CONFIG_SCHED_AUTOGROUP=",
	"sched_autogroup_enabled=", "cgroup ",
};

static const char *env_field(const struct compare_metric *m, int f)
{
	const char *v[NR_ENV] = {
		m->machine, m->placement, m->autogroup_config,
		m->autogroup_enabled, m->cgroup,
	};

	return *v[f] ? v[f] : "-";
}

static void matrix_drop_note(char *buf, size_t size,
			     const struct compare_metric *m,
			     const struct compare_side *s)
{
	double a = fabs(s->change_pct);
	int up = s->change_pct > 0;

	if (s->verdict == VERDICT_NOISY)
		snprintf(buf, size, " (noisy)");
	else if (!significant(s->verdict))
		snprintf(buf, size, " (~same)");
	else if (m->higher_is_better)
		snprintf(buf, size, " (%.0f%% %s)", a, up ? "gain" : "drop");
	else
		snprintf(buf, size, " (%.0f%% %s)", a,
			 up ? "worse" : "better");
}

/* Hagar's and Dietmar's tables (seed 000). */
static void doc_matrix(struct rdoc *d, const struct compare_result *r)
{
	size_t i, j, k;
	int f;
	char buf[64], note[64];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *key = xasprintf("%s\x1f%s\x1f%s\x1f%d", m->workload,
				      m->params, m->metric,
				      m->higher_is_better);
		int varies[NR_ENV] = { 0 }, any = 0;
		size_t fw[NR_ENV] = { 0 };
		struct strbuf hdr = STRBUF_INIT, cst = STRBUF_INIT;
		struct strbuf rule = STRBUF_INIT;
		struct rblock *bl;
		int fresh;

		bl = block_for(d, key, &fresh);
		if (!fresh) {
			free(key);
			continue;
		}
		block_common(bl, m, key);
		free(key);
		rvars_set(&bl->vars, "reshdr", -1, "Result (%s)",
			  *m->unit ? m->unit : m->metric);
		/* Which environment fields vary among this block's rows? */
		for (j = i; j < r->nr; j++) {
			const struct compare_metric *o = &r->m[j];

			if (strcmp(o->workload, m->workload) ||
			    strcmp(o->params, m->params) ||
			    strcmp(o->metric, m->metric) ||
			    o->higher_is_better != m->higher_is_better)
				continue;
			for (f = 0; f < NR_ENV; f++) {
				size_t l = strlen(env_field(o, f));

				if (strcmp(env_field(o, f), env_field(m, f)))
					varies[f] = 1;
				if (l > fw[f])
					fw[f] = l;
			}
		}
		for (f = 0; f < NR_ENV; f++) {
			any |= varies[f];
			if (strlen(env_hdr[f]) > fw[f])
				fw[f] = strlen(env_hdr[f]);
		}
		if (!any)
			varies[ENV_MACHINE] = 1;
		for (f = 0; f < NR_ENV; f++) {
			if (varies[f]) {
				if (hdr.len)
					strbuf_addstr(&hdr, " | ");
				if (rule.len)
					strbuf_addstr(&rule, "-+-");
				for (j = 0; j < fw[f]; j++)
					strbuf_addch(&rule, '-');
				strbuf_addf(&hdr, "%-*s", (int)fw[f],
					    env_hdr[f]);
			} else if (strcmp(env_field(m, f), "-")) {
				strbuf_addf(&cst, "%s%s%s",
					    cst.len ? ", " : "", env_const[f],
					    env_field(m, f));
			}
		}
		strbuf_trim(&hdr);
		while (rule.len < 9 || rule.len < hdr.len)
			strbuf_addch(&rule, '-');
		rvars_set(&bl->vars, "envrule", -1, "%s", rule.buf);
		rvars_set(&bl->vars, "envhdr", -1, "%s", hdr.buf);
		rvars_set(&bl->vars, "constenv", -1, "%s", cst.buf);
		for (j = i; j < r->nr; j++) {
			const struct compare_metric *o = &r->m[j];

			if (strcmp(o->workload, m->workload) ||
			    strcmp(o->params, m->params) ||
			    strcmp(o->metric, m->metric) ||
			    o->higher_is_better != m->higher_is_better)
				continue;
			for (k = 0; k < r->nr_kernels; k++) {
				const struct compare_side *s = &o->side[k];
				struct strbuf env = STRBUF_INIT;
				struct rvars *row;

				if (!s->n)
					continue;
				for (f = 0; f < NR_ENV; f++) {
					if (!varies[f])
						continue;
					if (env.len)
						strbuf_addstr(&env, " | ");
					strbuf_addf(&env, "%-*s", (int)fw[f],
						    env_field(o, f));
				}
				strbuf_trim(&env);
				row = rblock_row(bl);
				rvars_set(row, "envv", -1, "%s", env.buf);
				rvars_set(row, "kern", -1, "%s",
					  r->kernels[k]);
				note[0] = '\0';
				if (k)
					matrix_drop_note(note, sizeof(note),
							 o, s);
				snprintf(buf, sizeof(buf), "%.1f",
					 s->st.mean);
				rvars_set(row, "res", -1, "%s%s", buf, note);
				if (isnan(s->cpu_usr))
					rvars_set(row, "cpu", -1, "%s",
						  "  n/a");
				else
					rvars_set(row, "cpu", -1,
						  "%4.1f us, %4.1f sy",
						  s->cpu_usr, s->cpu_sys);
				strbuf_release(&env);
			}
		}
		strbuf_release(&hdr);
		strbuf_release(&cst);
		strbuf_release(&rule);
	}
}

/* Dietmar's revert (seed 001): w/o and w/ columns per machine. */
static void doc_simple(struct rdoc *d, const struct compare_result *r)
{
	size_t i, k;
	char buf[64];

	for (k = 0; k < r->nr_kernels; k++) {
		if (r->nr_kernels == 2)
			rvars_set(&d->vars, "hdr", (int)k, "%s",
				  k ? "w/ patch" : "w/o patch");
		else
			rvars_set(&d->vars, "hdr", (int)k, "%s",
				  r->kernels[k]);
	}
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *key = xasprintf("%zu", i);
		struct rblock *bl;
		struct rvars *row;
		int fresh;

		bl = block_for(d, key, &fresh);
		block_common(bl, m, key);
		rvars_set(&bl->vars, "idx", -1, "%c",
			  i < 26 ? (int)('a' + i) : '?');
		rvars_set(&bl->vars, "verdict", -1, "%s",
			  verdict_name(m->verdict));
		row = rblock_row(bl);
		for (k = 0; k < r->nr_kernels; k++) {
			fmt_value(buf, sizeof(buf), m->side[k].st.mean,
				  m->side[0].n ? m->side[0].st.mean :
				  m->side[k].st.mean);
			rvars_set(row, "c", (int)k, "%s",
				  m->side[k].n ? buf : "-");
		}
		free(key);
	}
}

int compare_render(const struct compare_result *r, const char *format,
		   struct strbuf *out)
{
	static const struct {
		const char *name;
		void (*fn)(struct rdoc *, const struct compare_result *);
	} formats[] = {
		{ "intel", doc_intel }, { "amd", doc_amd },
		{ "lkp", doc_lkp }, { "mmtests", doc_mmtests },
		{ "matrix", doc_matrix }, { "simple", doc_simple },
	};
	struct compare_result view = *r;
	struct rdoc d;
	size_t i;
	int ret;

	if (!strcmp(format, "plot"))
		return plot_render(r, out);
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(format, formats[i].name))
			break;
	if (i == ARRAY_SIZE(formats))
		return error("unknown report format '%s' (intel, amd, lkp, "
			     "mmtests, matrix, simple, plot)", format);
	/* diagnostics only in the robot's table, which lists every stat */
	if (strcmp(format, "lkp")) {
		size_t j;

		view.m = xcalloc(r->nr ? r->nr : 1, sizeof(*view.m));
		for (view.nr = 0, j = 0; j < r->nr; j++)
			if (!r->m[j].diagnostic)
				view.m[view.nr++] = r->m[j];
	}
	doc_init(&d, &view);
	formats[i].fn(&d, &view);
	ret = render_template(format, &d, out);
	rdoc_release(&d);
	if (view.m != r->m)
		free(view.m);
	return ret;
}
