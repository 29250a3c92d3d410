// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - the documents behind each report format of `compare`, for
 * the template engine (templates.h) to lay out.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot.h"
#include "render.h"
#include "stats.h"
#include "templates.h"

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

static void doc_init(struct tmpl_rec *d, const struct compare_result *r)
{
	struct strbuf rule = STRBUF_INIT;
	size_t k;

	for (k = 0; k < r->nr_kernels; k++) {
		tmpl_setkf(&d->vars, "label", (int)k, "%s", r->kernels[k]);
		tmpl_setkf(&d->vars, "uname", (int)k, "%s",
			   *r->unames[k] ? r->unames[k] : r->kernels[k]);
	}
	kv_set(&d->vars, "verdict", verdict_name(r->verdict));
	kv_set(&d->vars, "verdictline", r->opts.sentence_follows ? "" : "1");
	compare_rule(r, &rule);
	kv_set(&d->vars, "rule", rule.buf);
	strbuf_release(&rule);
	kv_set(&d->vars, "base", r->kernels[0]);
}

/* Find the block whose "_key" is key, or start one. */
static struct tmpl_rec *block_for(struct tmpl_rec *d, const char *key,
				  int *fresh)
{
	const struct tmpl_list *l = tmpl_list(d, "block");
	size_t i;

	for (i = 0; l && i < l->nr; i++) {
		const char *v = kv_get(&l->v[i]->vars, "_key");

		if (v && !strcmp(v, key)) {
			*fresh = 0;
			return l->v[i];
		}
	}
	*fresh = 1;
	return tmpl_add(d, "block");
}

static char *env_key(const struct compare_metric *m)
{
	return xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s", m->machine,
			 m->placement, m->autogroup_config,
			 m->autogroup_enabled, m->cgroup);
}

static void block_common(struct tmpl_rec *b, const struct compare_metric *m,
			 const char *key)
{
	struct strbuf env = STRBUF_INIT;

	env_describe(m, &env, 1);
	kv_set(&b->vars, "_key", key);
	kv_set(&b->vars, "workload", m->workload);
	kv_set(&b->vars, "params", m->params);
	kv_set(&b->vars, "metric", m->metric);
	kv_set(&b->vars, "unit", *m->unit ? m->unit : m->metric);
	kv_set(&b->vars, "dir", dir_text(m->higher_is_better));
	kv_set(&b->vars, "Dir", m->higher_is_better ? "Higher is better" :
						     "Lower is better");
	kv_set(&b->vars, "env", env.buf);
	strbuf_reset(&env);
	env_describe(m, &env, 0);
	kv_set(&b->vars, "envx", env.buf);
	kv_setf(&b->vars, "on", "%s%s", *m->machine ? " on " : "",
		m->machine);
	kv_setf(&b->vars, "what", "%s%s%s", m->workload,
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

/* One word (or list item) into a wrapped text, on a new line if needed. */
static void wrap_add(struct strbuf *out, size_t *col, const char *s,
		     size_t len, size_t indent, size_t width, int first)
{
	if (!first && *col + 1 + len > width) {
		strbuf_addf(out, "\n%*s", (int)indent, "");
		*col = indent;
	} else if (!first) {
		strbuf_addch(out, ' ');
		(*col)++;
	}
	strbuf_add(out, s, len);
	*col += len;
}

/*
 * text wrapped so that no line is wider than width, the lines after the
 * first indented by indent columns (a mail body's 72); first is the
 * column the text starts at.  Lines break after ", " where they can, so
 * that "cgroup /user.slice" stays whole, else between words.
 */
static void wrap_list(struct strbuf *out, const char *text, size_t first,
		      size_t indent, size_t width)
{
	size_t col = first;
	const char *p = text;

	while (*p) {
		const char *comma = strstr(p, ", ");
		size_t len = comma ? (size_t)(comma - p) + 1 : strlen(p);
		const char *q = p, *end = p + len;

		if ((p == text ? col : indent) + len <= width ||
		    !memchr(p, ' ', len)) {
			wrap_add(out, &col, p, len, indent, width, p == text);
		} else {
			while (q < end) {
				size_t w = strcspn(q, " ");

				if (q + w > end)
					w = end - q;
				wrap_add(out, &col, q, w, indent, width,
					 q == text);
				q += w;
				while (q < end && *q == ' ')
					q++;
			}
		}
		p = end;
		while (*p == ' ')
			p++;
	}
}

/* ---- %Cpu(s), as top prints it and seed 000 quotes it -------------- */

static int cpu_known(const struct compare_side *s)
{
	return s->n && !isnan(s->cpu_usr) && !isnan(s->cpu_sys);
}

/* " 3.2 us, 96.7 sy,  0.1 id"; idle left out when unknown. */
static void cpu_text(char *buf, size_t size, double usr, double sys,
		     double idle)
{
	if (isnan(idle))
		snprintf(buf, size, "%4.1f us, %4.1f sy", usr, sys);
	else
		snprintf(buf, size, "%4.1f us, %4.1f sy, %4.1f id", usr, sys,
			 idle);
}

static double var_num(const struct kv *v, const char *name, int k)
{
	char key[32];
	const char *s;

	snprintf(key, sizeof(key), "%s.%d", name, k);
	s = kv_get(v, key);
	return s ? strtod(s, NULL) : 0;
}

static void var_add(struct kv *v, const char *name, int k, double x)
{
	tmpl_setkf(v, name, k, "%.17g", var_num(v, name, k) + x);
}

/*
 * A row's utilisation into its table's sums: a table's %Cpu(s) is the
 * mean over its rows (the loads of one workload), per kernel.
 */
static void cpu_block_add(struct tmpl_rec *bl, const struct compare_result *r,
			  const struct compare_metric *m)
{
	size_t k;

	for (k = 0; k < r->nr_kernels; k++) {
		const struct compare_side *s = &m->side[k];

		if (!cpu_known(s))
			continue;
		var_add(&bl->vars, "_cu", (int)k, s->cpu_usr);
		var_add(&bl->vars, "_cs", (int)k, s->cpu_sys);
		var_add(&bl->vars, "_cn", (int)k, 1);
		if (!isnan(s->cpu_idle)) {
			var_add(&bl->vars, "_ci", (int)k, s->cpu_idle);
			var_add(&bl->vars, "_cin", (int)k, 1);
		}
	}
}

/* cpu.K ("n/a" when unknown) and hascpu, once a table's rows are in. */
static void cpu_block_finish(struct tmpl_rec *bl,
			     const struct compare_result *r)
{
	size_t k;
	char buf[64];

	for (k = 0; k < r->nr_kernels; k++) {
		const struct kv *v = &bl->vars;
		double n = var_num(v, "_cn", (int)k);

		if (!n) {
			tmpl_setkf(&bl->vars, "cpu", (int)k, "%s", "n/a");
			continue;
		}
		cpu_text(buf, sizeof(buf), var_num(v, "_cu", (int)k) / n,
			 var_num(v, "_cs", (int)k) / n,
			 var_num(v, "_cin", (int)k) == n ?
			 var_num(v, "_ci", (int)k) / n : NAN);
		tmpl_setkf(&bl->vars, "cpu", (int)k, "%s", buf);
		kv_set(&bl->vars, "hascpu", "1");
	}
}

static void cpu_blocks_finish(struct tmpl_rec *d,
			      const struct compare_result *r)
{
	const struct tmpl_list *bl = tmpl_list(d, "block");
	size_t b;

	for (b = 0; bl && b < bl->nr; b++)
		cpu_block_finish(bl->v[b], r);
}

/*
 * Fixed params of a sweep split as Chen Yu's tables use them: words
 * (mode=process ipc=pipe) name the sub-test, "process-pipe", in the
 * case column; numbers (loops=500) are settings, named in the title.
 */
static void params_split(const char *rest, struct strbuf *sub,
			 struct strbuf *fixed)
{
	const char *p = rest;

	while (*p) {
		size_t len = strcspn(p, " ,"), klen = strcspn(p, "=");
		char *end;

		if (klen < len) {
			strtod(p + klen + 1, &end);
			if (end == p + len && end > p + klen + 1) {
				strbuf_addf(fixed, "%s%.*s", fixed->len ?
					    " " : "", (int)len, p);
			} else {
				strbuf_addf(sub, "%s%.*s", sub->len ? "-" : "",
					    (int)(len - klen - 1),
					    p + klen + 1);
			}
		} else if (len) {
			strbuf_addf(sub, "%s%.*s", sub->len ? "-" : "",
				    (int)len, p);
		}
		p += len;
		while (*p == ' ' || *p == ',')
			p++;
	}
}

/* How many shown KPIs a workload has in the same environment. */
static size_t nr_metrics_of(const struct compare_result *r,
			    const struct compare_metric *m)
{
	size_t i, j, n = 0;

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *o = &r->m[i];

		if (strcmp(o->workload, m->workload))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(r->m[j].workload, o->workload) &&
			    !strcmp(r->m[j].metric, o->metric))
				break;
		if (j == i)
			n++;
	}
	return n;
}

/*
 * Chen Yu's cover letter (seed 004): one table per benchmark, the
 * sub-test in "case", the swept count in "load", both padded as his
 * script did (16 and 8, then a tab); against, when set, names the pair
 * in the title and the key.
 */
static void intel_blocks(struct tmpl_rec *d, const struct compare_result *r,
			 const char *against)
{
	size_t i, k;
	char buf[64];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0];
		struct strbuf sub = STRBUF_INIT, fixed = STRBUF_INIT;
		char *ek = env_key(m), *key;
		int one = nr_metrics_of(r, m) == 1;
		struct tmpl_rec *bl;
		struct kv *row;
		struct load l;
		int fresh;

		load_split(m, &l);
		params_split(l.rest, &sub, &fixed);
		key = xasprintf("%s\x1f%s\x1f%s\x1f%d\x1f%s\x1f%s", m->workload,
				m->metric, fixed.buf, m->higher_is_better, ek,
				against ? against : "");
		bl = block_for(d, key, &fresh);
		if (fresh) {
			struct strbuf note = STRBUF_INIT;

			block_common(bl, m, key);
			kv_setf(&bl->vars, "title", "%s%s%s%s%s%s", m->workload,
				one ? "" : ".", one ? "" : m->metric,
				against ? " (" : "", against ? against : "",
				against ? ")" : "");
			strbuf_addstr(&note, kv_get(&bl->vars, "env"));
			if (fixed.len)
				strbuf_addf(&note, "%s%s", note.len ? ", " : "",
					    fixed.buf);
			if (note.len) {
				struct strbuf w = STRBUF_INIT;

				strbuf_addch(&w, '(');
				wrap_list(&w, note.buf, 1, 1, 71);
				strbuf_addch(&w, ')');
				kv_set(&bl->vars, "note", w.buf);
				strbuf_release(&w);
			}
			strbuf_release(&note);
			for (k = 1; k < r->nr_kernels; k++)
				tmpl_setkf(&bl->vars, "cmphdr", (int)k,
					   "%s", "compare%( std%)");
		}
		row = &tmpl_add(bl, "row")->vars;
		kv_setf(row, "case", "%-16s", sub.len ? sub.buf : m->metric);
		if (l.count)
			load_name(&l, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "-");
		kv_setf(row, "load", "%-8s", buf);
		if (b->n)
			kv_setf(row, "base", "%5.2f (%6.2f)", 1.0,
				b->st.cv);
		else
			kv_set(row, "base", "-");
		for (k = 1; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];

			if (!s->n || isnan(s->better_pct))
				tmpl_setkf(row, "cmp", (int)k, "%s", "-");
			else
				tmpl_setkf(row, "cmp", (int)k, "%+6.2f (%6.2f)",
					   s->better_pct, s->st.cv);
		}
		cpu_block_add(bl, r, m);
		strbuf_release(&sub);
		strbuf_release(&fixed);
		free(l.rest);
		free(key);
		free(ek);
	}
	cpu_blocks_finish(d, r);
}

/*
 * Three kernels or more: one table per compared kernel against the
 * baseline, each the two-kernel table of the seed (three side by side
 * run to 87 columns), titled with the pair; the template then sees two
 * kernels, the compared one's label and uname set in each block.
 */
static void doc_intel(struct tmpl_rec *d, const struct compare_result *r)
{
	struct compare_result pair = *r;
	char *kernels[2], *unames[2];
	struct compare_family fam[2];
	size_t i, k;

	if (r->nr_kernels <= 2) {
		intel_blocks(d, r, NULL);
		return;
	}
	pair.nr_kernels = 2;
	pair.kernels = kernels;
	pair.unames = unames;
	pair.commits = pair.subjects = NULL;
	pair.fam = fam;
	fam[0] = r->fam[0];
	pair.m = xcalloc(r->nr ? r->nr : 1, sizeof(*pair.m));
	kernels[0] = r->kernels[0];
	unames[0] = r->unames[0];
	for (k = 1; k < r->nr_kernels; k++) {
		const struct tmpl_list *bl = tmpl_list(d, "block");
		size_t before = bl ? bl->nr : 0;
		char *against = xasprintf("%s against %s", r->kernels[k],
					  r->kernels[0]);

		kernels[1] = r->kernels[k];
		unames[1] = r->unames[k];
		fam[1] = r->fam[k];
		for (i = 0; i < r->nr; i++) {
			pair.m[i] = r->m[i];
			pair.m[i].side = xcalloc(2, sizeof(*pair.m[i].side));
			pair.m[i].side[0] = r->m[i].side[0];
			pair.m[i].side[1] = r->m[i].side[k];
			pair.m[i].verdict = r->m[i].side[k].verdict;
		}
		intel_blocks(d, &pair, against);
		bl = tmpl_list(d, "block");
		for (i = before; bl && i < bl->nr; i++) {
			struct kv *v = &bl->v[i]->vars;

			tmpl_setkf(v, "label", 1, "%s", r->kernels[k]);
			tmpl_setkf(v, "uname", 1, "%s", *r->unames[k] ?
				   r->unames[k] : r->kernels[k]);
		}
		for (i = 0; i < r->nr; i++)
			free(pair.m[i].side);
		free(against);
	}
	free(pair.m);
}

/*
 * The template of a format for a result: the intel tables are pairs
 * (doc_intel) whatever the number of kernels.
 */
static int template_kernels(const char *format, const struct compare_result *r)
{
	return !strcmp(format, "intel") ? 2 : (int)r->nr_kernels;
}

/*
 * The statistic of a test in K Prateek Nayak's blocks (seed 003): the
 * harmonic mean of stream's bandwidths, the median of schbench's
 * latencies, the arithmetic mean elsewhere.
 */
static const char *amd_statistic(const char *workload)
{
	if (starts_with(workload, "stream"))
		return "HMean";
	if (starts_with(workload, "schbench"))
		return "Median";
	return "AMean";
}

static double amd_value(const char *stat, const struct stats *st)
{
	if (!strcmp(stat, "HMean"))
		return st->hmean;
	if (!strcmp(stat, "Median"))
		return st->median;
	return st->mean;
}

/* "Clients:" for clients=N; the seed's own "#workers:" for schbench's */
static void amd_casehdr(struct kv *v, const struct load *l)
{
	if (!l->count)
		kv_set(v, "casehdr", "Case:");
	else if (!strcmp(l->key, "workers"))
		kv_set(v, "casehdr", "#workers:");
	else
		kv_setf(v, "casehdr", "%c%s:", toupper((unsigned char)l->key[0]),
			l->key + 1);
}

/* K Prateek Nayak's blocks (seed 003). */
static void doc_amd(struct tmpl_rec *d, const struct compare_result *r)
{
	size_t i, k;

	/* K Prateek's 5 blanks between cells; 2 when three must fit 72 */
	kv_set(&d->vars, "gap", r->nr_kernels > 2 ? "  " : "     ");
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const char *stat = amd_statistic(m->workload);
		char *ek = env_key(m), *key;
		struct tmpl_rec *bl;
		struct kv *row;
		struct load l;
		double base;
		int fresh;

		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%s",
				m->workload, l.rest, m->metric, m->unit,
				m->higher_is_better, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			kv_setf(&bl->vars, "title", "%s%s%s%s",
				m->workload, *l.rest ? " (" : "", l.rest,
				*l.rest ? ")" : "");
			if (!*m->unit || !strcmp(m->unit, m->metric))
				kv_set(&bl->vars, "units", m->metric);
			else
				kv_setf(&bl->vars, "units", "%s in %s",
					m->metric, m->unit);
			kv_set(&bl->vars, "statistic", stat);
			if (*kv_get(&bl->vars, "env")) {
				struct strbuf w = STRBUF_INIT;

				wrap_list(&w, kv_get(&bl->vars, "env"), 16, 16,
					  72);
				kv_set(&bl->vars, "envw", w.buf);
				strbuf_release(&w);
			}
			amd_casehdr(&bl->vars, &l);
			for (k = 0; k < r->nr_kernels; k++)
				tmpl_setkf(&bl->vars, "hdr", (int)k,
					   "%s[pct imp](CV)", r->kernels[k]);
		}
		row = &tmpl_add(bl, "row")->vars;
		if (l.count)
			kv_setf(row, "case", "%ld", l.count);
		else
			kv_set(row, "case", *m->params ? m->params : m->metric);
		base = amd_value(stat, &m->side[0].st);
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];
			double v = amd_value(stat, &s->st);
			/* -(x - x) prints -0.00 when lower is better, as in
			 * the seed */
			double imp = 100 * (v - base) / base;

			if (!m->higher_is_better)
				imp = -imp;
			if (!s->n || !m->side[0].n || base == 0 ||
			    !isfinite(imp))
				tmpl_setkf(row, "cell", (int)k, "%s", "-");
			else
				tmpl_setkf(row, "cell", (int)k,
					   "%.2f [%6.2f](%5.2f)", v / base,
					   imp, s->st.cv);
		}
		cpu_block_add(bl, r, m);
		free(l.rest);
		free(key);
		free(ek);
	}
	cpu_blocks_finish(d, r);
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

static void lkp_err(struct kv *row, int k, const struct stats *st)
{
	if (st->n && st->cv > 2)
		tmpl_setkf(row, "e", k, " \xc2\xb1%3.0f%%", st->cv);
	else
		tmpl_setkf(row, "e", k, "%s", "");
}

/*
 * The direction note under an LKP table, once all rows are in: one
 * phrase when the judged rows agree, else the lower-is-better ones by
 * name; diag.* rows are only said to be diagnostics, mpstat rows what
 * their change is.
 */
static void lkp_directions(struct tmpl_rec *bl)
{
	struct strbuf low = STRBUF_INIT, note = STRBUF_INIT;
	const struct tmpl_list *rows = tmpl_list(bl, "row");
	size_t i, nr_high = 0, nr_low = 0, nr_diag = 0, nr_cpu = 0;

	for (i = 0; rows && i < rows->nr; i++) {
		const struct kv *row = &rows->v[i]->vars;
		const char *kind = kv_get(row, "_diag");

		if (!strcmp(kind, "1")) {
			nr_diag++;
		} else if (!strcmp(kind, "cpu")) {
			nr_cpu++;
		} else if (!strcmp(kv_get(row, "_hib"), "1")) {
			nr_high++;
		} else {
			nr_low++;
			strbuf_addf(&low, "%s%s", low.len ? ", " : "",
				    kv_get(row, "name"));
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
	kv_set(&bl->vars, "dirnote", note.buf);
	kv_set(&bl->vars, "cpunote", nr_cpu ? "mpstat.cpu.all.*%: %Cpu(s) "
		"mean of the rows above, change in points" : "");
	strbuf_release(&low);
	strbuf_release(&note);
}

/* mpstat.cpu.all.{idle,sys,usr}% rows, as the robot's tables have. */
static void lkp_cpu_rows(struct tmpl_rec *bl, const struct compare_result *r)
{
	static const struct { const char *name, *sum; } cols[] = {
		{ "idle", "_ci" }, { "sys", "_cs" }, { "usr", "_cu" },
	};
	const struct kv *v = &bl->vars;
	size_t c, k;

	for (k = 0; k < r->nr_kernels; k++)
		if (!var_num(v, "_cn", (int)k))
			return;
	for (c = 0; c < ARRAY_SIZE(cols); c++) {
		const char *nk = c ? "_cn" : "_cin";
		double base = var_num(v, cols[c].sum, 0) / var_num(v, nk, 0);
		struct kv *row;

		if (!c)
			for (k = 0; k < r->nr_kernels; k++)
				if (var_num(v, "_cin", (int)k) !=
				    var_num(v, "_cn", (int)k))
					break;
		if (!c && k < r->nr_kernels)
			continue;
		row = &tmpl_add(bl, "row")->vars;
		for (k = 0; k < r->nr_kernels; k++) {
			double x = var_num(v, cols[c].sum, (int)k) /
				   var_num(v, nk, (int)k);

			tmpl_setkf(row, "v", (int)k, "%.2f", x);
			tmpl_setkf(row, "e", (int)k, "%s", "");
			if (k)
				tmpl_setkf(row, "chg", (int)k, "%+.1f",
					   x - base);
		}
		kv_setf(row, "name", "mpstat.cpu.all.%s%%", cols[c].name);
		kv_set(row, "_diag", "cpu");
		kv_set(row, "_hib", "0");
	}
}

/*
 * An axis value as LKP writes one: no blanks, no '/' (the separator);
 * a cgroup path loses its leading '/', "/" itself is "root".
 */
static void lkp_axis_value(struct strbuf *sb, const char *v, size_t len)
{
	size_t i;

	if (len == 1 && *v == '/') {
		strbuf_addstr(sb, "root");
		return;
	}
	if (len && *v == '/') {
		v++;
		len--;
	}
	for (i = 0; i < len; i++)
		strbuf_addch(sb, v[i] == '/' || v[i] == ' ' ? ':' : v[i]);
}

struct axis {
	char *key, *val;
};

static int axis_cmp(const void *a, const void *b)
{
	return strcmp(((const struct axis *)a)->key,
		      ((const struct axis *)b)->key);
}

/*
 * The job's axes, "key/key/...:" over "  val/val/...", sorted by key
 * like the robot's: one per known environment field and fixed param.
 */
static void lkp_axes(struct tmpl_rec *bl, const struct compare_metric *m,
		     const char *rest)
{
	const char *fields[][2] = {
		{ "tbox_group", m->machine }, { "testcase", m->workload },
		{ "placement", m->placement },
		{ "autogroup", m->autogroup_config },
		{ "autogroup_enabled", m->autogroup_enabled },
		{ "cgroup", m->cgroup },
	};
	struct axis ax[32];
	struct strbuf keys = STRBUF_INIT, vals = STRBUF_INIT;
	const char *p = rest;
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!*fields[i][1])
			continue;
		strbuf_reset(&vals);
		lkp_axis_value(&vals, fields[i][1], strlen(fields[i][1]));
		ax[n].key = xstrdup(fields[i][0]);
		ax[n++].val = xstrdup(vals.buf);
	}
	while (*p && n < ARRAY_SIZE(ax)) {
		size_t len = strcspn(p, " ,"), klen = strcspn(p, "=");

		if (klen < len) {
			strbuf_reset(&vals);
			lkp_axis_value(&vals, p + klen + 1, len - klen - 1);
			ax[n].key = xasprintf("%.*s", (int)klen, p);
			ax[n++].val = xstrdup(vals.buf);
		}
		p += len;
		while (*p == ' ' || *p == ',')
			p++;
	}
	qsort(ax, n, sizeof(*ax), axis_cmp);
	strbuf_reset(&vals);
	for (i = 0; i < n; i++) {
		strbuf_addf(&keys, "%s%s", i ? "/" : "", ax[i].key);
		strbuf_addf(&vals, "%s%s", i ? "/" : "", ax[i].val);
		free(ax[i].key);
		free(ax[i].val);
	}
	kv_set(&bl->vars, "axes", keys.buf);
	kv_set(&bl->vars, "axvals", vals.buf);
	strbuf_release(&keys);
	strbuf_release(&vals);
}

/*
 * How the robot names kernel k: in the commit: block its commit as
 * today's mails have it, 10 hex digits and the subject (the line kept
 * within 100 columns), over the columns 16 and 27 of its id; a kernel
 * whose commit is unknown (compare of bare CSVs) by its label.
 */
static void lkp_names(struct tmpl_rec *d, const struct compare_result *r)
{
	/* "  ID (\"SUBJECT\")" within 100 columns */
	const size_t room = 100 - 2 - 10 - 3 - 2;
	struct strbuf sb = STRBUF_INIT;
	size_t k;

	for (k = 0; k < r->nr_kernels; k++) {
		const char *id = r->commits ? r->commits[k] : NULL;
		const char *subj = r->subjects ? r->subjects[k] : NULL;
		size_t len = subj ? strlen(subj) : 0, cut = len;

		tmpl_setkf(&d->vars, "lab", (int)k, "%.*s", k ? 27 : 16,
			   id ? id : r->kernels[k]);
		if (!id) {
			tmpl_setkf(&d->vars, "commit", (int)k, "%s",
				   r->kernels[k]);
			continue;
		}
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.10s", id);
		if (len > room) {
			/* cut, but not inside a UTF-8 character */
			cut = room - 3;
			while (cut && ((unsigned char)subj[cut] & 0xc0) == 0x80)
				cut--;
		}
		if (subj)
			strbuf_addf(&sb, " (\"%.*s%s\")", (int)cut, subj,
				    cut < len ? "..." : "");
		tmpl_setkf(&d->vars, "commit", (int)k, "%s", sb.buf);
	}
	strbuf_release(&sb);
}

static void doc_lkp(struct tmpl_rec *d, const struct compare_result *r)
{
	const struct tmpl_list *blocks;
	size_t i, k;
	char buf[64];

	lkp_names(d, r);
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		struct tmpl_rec *bl;
		struct kv *row;
		struct load l;
		int fresh;

		/* like LKP: fixed params in the axes, the sweep in the name */
		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%s", m->workload, l.rest, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			lkp_axes(bl, m, l.rest);
		}
		row = &tmpl_add(bl, "row")->vars;
		lkp_value(buf, sizeof(buf), m->side[0].st.mean);
		tmpl_setkf(row, "v", 0, "%s", buf);
		lkp_err(row, 0, &m->side[0].st);
		for (k = 1; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];

			lkp_value(buf, sizeof(buf), s->st.mean);
			tmpl_setkf(row, "v", (int)k, "%s", buf);
			lkp_err(row, (int)k, &s->st);
			if (isnan(s->change_pct))
				tmpl_setkf(row, "chg", (int)k, "%s", "");
			else
				tmpl_setkf(row, "chg", (int)k, "%+.1f%%",
					   s->change_pct);
		}
		if (l.count)
			kv_setf(row, "name", "%s.%s.%s=%ld", m->workload,
				m->metric, l.key, l.count);
		else
			kv_setf(row, "name", "%s.%s", m->workload,
				m->metric);
		kv_setf(row, "_hib", "%d", m->higher_is_better);
		kv_setf(row, "_diag", "%d", m->diagnostic);
		cpu_block_add(bl, r, m);
		free(l.rest);
		free(key);
		free(ek);
	}
	blocks = tmpl_list(d, "block");
	for (i = 0; blocks && i < blocks->nr; i++) {
		lkp_cpu_rows(blocks->v[i], r);
		lkp_directions(blocks->v[i]);
	}
}

/*
 * mmtests' stars: compare-mmtests.pl marked a comparison significant
 * with a two-sided t-test of the means, t = |mean_a - mean_b| /
 * sqrt(s_a^2/n_a + s_b^2/n_b) on n_a + n_b - 2 degrees of freedom, at
 * its default level of 10% (Summarise.pm's _SignificanceLevel 0.10);
 * two constant samples are significant when their means differ.
 */
#define MMTESTS_LEVEL 0.10

static int mmtests_significant(const struct compare_side *a,
			       const struct compare_side *b)
{
	double se, t;

	if (a->n < 2 || b->n < 2)
		return 0;
	se = sqrt(a->st.stddev * a->st.stddev / a->n +
		  b->st.stddev * b->st.stddev / b->n);
	if (se == 0)
		return a->st.mean != b->st.mean;
	t = fabs(a->st.mean - b->st.mean) / se;
	return stats_t_p2(t, (double)(a->n + b->n - 2)) < MMTESTS_LEVEL;
}

/*
 * The number's part of a value column: mmtests' 12, 8 from three kernels
 * on, so that three of them fit 72 columns (a longer number widens its
 * column, which the template aligns).
 */
static int mmtests_numw(const struct compare_result *r)
{
	return r->nr_kernels > 2 ? 8 : 12;
}

/* %Cpu(s) rows under an mmtests table, in the value columns. */
static void mmtests_cpu_rows(struct tmpl_rec *bl,
			     const struct compare_result *r)
{
	static const struct { const char *op, *sum, *n; } cols[] = {
		{ "usr%", "_cu", "_cn" }, { "sys%", "_cs", "_cn" },
		{ "idle%", "_ci", "_cin" },
	};
	const struct kv *v = &bl->vars;
	size_t c, k;

	for (c = 0; c < ARRAY_SIZE(cols); c++) {
		struct kv *row;

		for (k = 0; k < r->nr_kernels; k++)
			if (!var_num(v, cols[c].n, (int)k) ||
			    var_num(v, cols[c].n, (int)k) !=
			    var_num(v, "_cn", (int)k))
				break;
		if (k < r->nr_kernels)
			continue;
		row = &tmpl_add(bl, "row")->vars;
		kv_set(row, "stat", "%Cpu(s)");
		kv_set(row, "op", cols[c].op);
		for (k = 0; k < r->nr_kernels; k++)
			tmpl_setkf(row, "v", (int)k, "%*.2f%11s",
				   mmtests_numw(r),
				   var_num(v, cols[c].sum, (int)k) /
				   var_num(v, cols[c].n, (int)k), "");
	}
}

/* mmtests compare-kernels.sh (report-formats.md 4.1). */
static void doc_mmtests(struct tmpl_rec *d, const struct compare_result *r)
{
	const struct tmpl_list *blocks;
	size_t i, k;
	char buf[64];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		int hmean = m->higher_is_better;
		double base;
		struct tmpl_rec *bl;
		struct kv *row;
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
			kv_setf(&bl->vars, "title", "%s-%s%s%s",
				m->workload, m->metric, *l.rest ? " " : "",
				l.rest);
			if (*kv_get(&bl->vars, "env")) {
				struct strbuf w = STRBUF_INIT;

				wrap_list(&w, kv_get(&bl->vars, "env"), 0, 0,
					  72);
				kv_set(&bl->vars, "envw", w.buf);
				strbuf_release(&w);
			}
		}
		row = &tmpl_add(bl, "row")->vars;
		kv_set(row, "stat", hmean ? "Hmean" : "Amean");
		if (l.count)
			kv_setf(row, "op", "%ld", l.count);
		else
			kv_set(row, "op", *m->params ? m->params : "-");
		free(l.rest);
		base = hmean ? m->side[0].st.hmean : m->side[0].st.mean;
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];
			double v = hmean ? s->st.hmean : s->st.mean;
			/* pdiff / pndiff: positive is always a gain */
			double pct = 100 * (v - base) / base;
			int sig = k && mmtests_significant(&m->side[0], s);

			if (!m->higher_is_better)
				pct = -pct;
			if (!k)
				pct = 0;
			/* one precision per row, from the baseline */
			snprintf(buf, sizeof(buf), "%.*f",
				 fabs(base) < 100 ? 4 : 2, v);
			if (!s->n || !isfinite(pct))
				tmpl_setkf(row, "v", (int)k, "%*s%11s",
					   mmtests_numw(r), "-", "");
			else
				tmpl_setkf(row, "v", (int)k, "%*s %c%7.2f%%%c",
					   mmtests_numw(r), buf,
					   sig ? '*' : '(', pct,
					   sig ? '*' : ')');
		}
		cpu_block_add(bl, r, m);
		free(key);
		free(ek);
	}
	blocks = tmpl_list(d, "block");
	for (i = 0; blocks && i < blocks->nr; i++)
		mmtests_cpu_rows(blocks->v[i], r);
}

static int significant(enum verdict v)
{
	return v == VERDICT_IMPROVEMENT || v == VERDICT_REGRESSION;
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

	/* as the thread says it: 30.7% is "30%", 9.9% "10%" */
	if (a >= 10)
		a = 5 * floor(a / 5 + 0.5);
	if (m->diagnostic)
		snprintf(buf, size, " (%+.0f%%, diag)", s->change_pct);
	else if (s->verdict == VERDICT_NOISY)
		snprintf(buf, size, " (noisy)");
	else if (!significant(s->verdict))
		snprintf(buf, size, " (~same)");
	else if (m->higher_is_better)
		snprintf(buf, size, " (%.0f%% %s)", a, up ? "gain" : "drop");
	else
		snprintf(buf, size, " (%.0f%% %s)", a,
			 up ? "worse" : "better");
}

/*
 * One table per setting, the machines and kernels in its rows, as Hagar
 * did ("When autogroup is disabled:" starts her second table): the
 * lines fit 72 columns with %Cpu(s), and the setting is named above.
 */
static int matrix_same_table(const struct compare_metric *m,
			     const struct compare_metric *o)
{
	return !strcmp(o->workload, m->workload) &&
	       !strcmp(o->params, m->params) &&
	       !strcmp(o->metric, m->metric) &&
	       o->higher_is_better == m->higher_is_better &&
	       !strcmp(o->placement, m->placement) &&
	       !strcmp(o->autogroup_config, m->autogroup_config) &&
	       !strcmp(o->autogroup_enabled, m->autogroup_enabled) &&
	       !strcmp(o->cgroup, m->cgroup);
}

/*
 * Which environment fields vary among the rows of m's table (from row
 * i on), and each column's width; the machine column when none varies.
 */
static void matrix_columns(const struct compare_result *r, size_t i,
			   int varies[NR_ENV], size_t fw[NR_ENV])
{
	const struct compare_metric *m = &r->m[i];
	size_t j;
	int f, any = 0;

	for (j = i; j < r->nr; j++) {
		const struct compare_metric *o = &r->m[j];

		if (!matrix_same_table(m, o))
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
}

/*
 * The table's heading: the columns that vary and their rule, the
 * fields that do not as one wrapped line.
 */
static void matrix_header(struct tmpl_rec *bl, const struct compare_metric *m,
			  const int varies[NR_ENV], const size_t fw[NR_ENV])
{
	struct strbuf hdr = STRBUF_INIT, cst = STRBUF_INIT;
	struct strbuf rule = STRBUF_INIT;
	struct strbuf t = STRBUF_INIT, w = STRBUF_INIT;
	size_t j;
	int f;

	for (f = 0; f < NR_ENV; f++) {
		if (varies[f]) {
			if (hdr.len)
				strbuf_addstr(&hdr, " | ");
			if (rule.len)
				strbuf_addstr(&rule, "-+-");
			for (j = 0; j < fw[f]; j++)
				strbuf_addch(&rule, '-');
			strbuf_addf(&hdr, "%-*s", (int)fw[f], env_hdr[f]);
		} else if (strcmp(env_field(m, f), "-")) {
			strbuf_addf(&cst, "%s%s%s", cst.len ? ", " : "",
				    env_const[f], env_field(m, f));
		}
	}
	strbuf_trim(&hdr);
	while (rule.len < 9 || rule.len < hdr.len)
		strbuf_addch(&rule, '-');
	kv_set(&bl->vars, "envrule", rule.buf);
	kv_set(&bl->vars, "envhdr", hdr.buf);

	strbuf_addf(&t, "%s: %s (%s)", kv_get(&bl->vars, "what"),
		    m->metric, dir_text(m->higher_is_better));
	wrap_list(&w, t.buf, 0, 0, 72);
	kv_set(&bl->vars, "head", w.buf);
	strbuf_reset(&w);
	wrap_list(&w, cst.buf, 0, 0, 72);
	kv_set(&bl->vars, "constenv", w.buf);
	strbuf_release(&t);
	strbuf_release(&w);
	strbuf_release(&hdr);
	strbuf_release(&cst);
	strbuf_release(&rule);
}

/* One row per kernel measured of every metric in the table of row i. */
static void matrix_rows(struct tmpl_rec *bl, const struct compare_result *r,
			size_t i, const int varies[NR_ENV],
			const size_t fw[NR_ENV])
{
	const struct compare_metric *m = &r->m[i];
	char buf[64], note[64];
	size_t j, k;
	int f;

	for (j = i; j < r->nr; j++) {
		const struct compare_metric *o = &r->m[j];

		if (!matrix_same_table(m, o))
			continue;
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &o->side[k];
			struct strbuf env = STRBUF_INIT;
			struct kv *row;

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
			row = &tmpl_add(bl, "row")->vars;
			kv_set(row, "envv", env.buf);
			kv_set(row, "kern", r->kernels[k]);
			note[0] = '\0';
			if (k)
				matrix_drop_note(note, sizeof(note), o, s);
			snprintf(buf, sizeof(buf), "%.1f", s->st.mean);
			kv_setf(row, "res", "%s%s", buf, note);
			if (!cpu_known(s))
				snprintf(buf, sizeof(buf), "  n/a");
			else
				cpu_text(buf, sizeof(buf), s->cpu_usr,
					 s->cpu_sys, s->cpu_idle);
			kv_set(row, "cpu", buf);
			strbuf_release(&env);
		}
	}
}

/* Hagar's and Dietmar's tables (seed 000). */
static void doc_matrix(struct tmpl_rec *d, const struct compare_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *key = xasprintf("%s\x1f%s\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s"
				      "\x1f%s", m->workload, m->params,
				      m->metric, m->higher_is_better,
				      m->placement, m->autogroup_config,
				      m->autogroup_enabled, m->cgroup);
		int varies[NR_ENV] = { 0 };
		size_t fw[NR_ENV] = { 0 };
		struct tmpl_rec *bl;
		int fresh;

		bl = block_for(d, key, &fresh);
		if (!fresh) {
			free(key);
			continue;
		}
		block_common(bl, m, key);
		free(key);
		kv_setf(&bl->vars, "reshdr", "Result (%s)",
			*m->unit ? m->unit : m->metric);
		matrix_columns(r, i, varies, fw);
		matrix_header(bl, m, varies, fw);
		matrix_rows(bl, r, i, varies, fw);
	}
}

/*
 * "(a) spawn on box: lps [lps], higher is better: improvement", broken
 * at 72 columns with the next lines indented by 4, as Dietmar did.
 */
static void simple_heading(struct tmpl_rec *bl, const struct compare_metric *m,
			   size_t i)
{
	struct strbuf h = STRBUF_INIT, w = STRBUF_INIT;

	strbuf_addf(&h, "(%c) %s%s: %s [%s], %s: %s",
		    i < 26 ? (int)('a' + i) : '?',
		    kv_get(&bl->vars, "what"), kv_get(&bl->vars, "on"),
		    m->metric, kv_get(&bl->vars, "unit"),
		    dir_text(m->higher_is_better),
		    m->diagnostic ? "not judged (a diagnostic)" :
		    verdict_name(m->verdict));
	wrap_list(&w, h.buf, 0, 4, 72);
	kv_set(&bl->vars, "heading", w.buf);
	strbuf_reset(&w);
	wrap_list(&w, kv_get(&bl->vars, "envx"), 4, 4, 72);
	kv_set(&bl->vars, "envw", w.buf);
	strbuf_release(&h);
	strbuf_release(&w);
}

/* Dietmar's revert (seed 001): w/o and w/ columns per machine. */
static void doc_simple(struct tmpl_rec *d, const struct compare_result *r)
{
	size_t i, k;
	char buf[64];

	for (k = 0; k < r->nr_kernels; k++) {
		if (r->nr_kernels == 2)
			tmpl_setkf(&d->vars, "hdr", (int)k, "%s",
				   k ? "w/ patch" : "w/o patch");
		else
			tmpl_setkf(&d->vars, "hdr", (int)k, "%s",
				   r->kernels[k]);
	}
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *key = xasprintf("%zu", i);
		struct tmpl_rec *bl;
		struct kv *row;
		int fresh;

		bl = block_for(d, key, &fresh);
		block_common(bl, m, key);
		kv_set(&bl->vars, "verdict", verdict_name(m->verdict));
		cpu_block_add(bl, r, m);
		simple_heading(bl, m, i);
		cpu_block_finish(bl, r);
		row = &tmpl_add(bl, "row")->vars;
		for (k = 0; k < r->nr_kernels; k++) {
			fmt_value(buf, sizeof(buf), m->side[k].st.mean,
				  m->side[0].n ? m->side[0].st.mean :
				  m->side[k].st.mean);
			tmpl_setkf(row, "c", (int)k, "%s",
				   m->side[k].n ? buf : "-");
		}
		free(key);
	}
}

/*
 * The diagnostics under the tables: each diag.* row that changed
 * significantly (compare_diag_changed: never part of the verdict), under
 * the name a scheduler developer gives it, with its change, for
 * "why did it change".  Rows without such a name (wall time, harness
 * CPU) stay in the tables only.
 */
static const struct {
	const char *metric, *name;
} diag_names[] = {
	{ "diag.schedstat.ttwu", "wake-ups" },
	{ "diag.schedstat.ttwu_local", "wake-ups on the waking CPU" },
	{ "diag.schedstat.ttwu_remote", "wake-ups to another CPU" },
	{ "diag.schedstat.ttwu_wake_remote",
	  "wake-ups of a task last run elsewhere" },
	{ "diag.schedstat.ttwu_move_affine", "wake-affine moves" },
	{ "diag.schedstat.run_delay", "run-queue wait" },
	{ "diag.schedstat.run_delay_per_slice",
	  "run-queue wait per timeslice" },
	{ "diag.schedstat.rq_cpu_time", "task run time" },
	{ "diag.schedstat.pcount", "timeslices" },
	{ "diag.schedstat.sched_count", "schedule() calls" },
	{ "diag.schedstat.sched_goidle", "switches to idle" },
	{ "diag.schedstat.yld_count", "sched_yield() calls" },
	{ "diag.task_wait_ms", "run-queue wait of the benchmark tasks" },
	{ "diag.migrations", "migrations" },
	{ "diag.ctx_voluntary", "voluntary context switches" },
	{ "diag.ctx_involuntary", "involuntary context switches" },
	{ "diag.perf.context-switches", "context switches (perf stat)" },
	{ "diag.perf.cpu-migrations", "CPU migrations (perf stat)" },
	{ "diag.perf.task-clock", "task clock (perf stat)" },
	{ "diag.perf.cycles", "cycles (perf stat)" },
	{ "diag.perf.instructions", "instructions (perf stat)" },
};

static const struct {
	const char *field, *name;
} diag_domain_names[] = {
	{ "lb_count", "load balancing" },
	{ "lb_count_newidle", "newly-idle balancing" },
	{ "lb_failed", "failed load balancing" },
	{ "lb_imbalance", "imbalance found" },
	{ "lb_gained", "tasks pulled by load balancing" },
	{ "alb_count", "active balancing" },
	{ "alb_pushed", "tasks pushed by active balancing" },
};

/* The developer's name of a diag.* metric into buf; 0, or -1 if none. */
static int diag_name(const char *metric, char *buf, size_t size)
{
	const char *p = "diag.schedstat.dom";
	size_t i;
	int level, n;

	for (i = 0; i < ARRAY_SIZE(diag_names); i++)
		if (!strcmp(metric, diag_names[i].metric)) {
			snprintf(buf, size, "%s", diag_names[i].name);
			return 0;
		}
	if (!starts_with(metric, p) ||
	    sscanf(metric + strlen(p), "%d.%n", &level, &n) != 1 || !n)
		return -1;
	for (i = 0; i < ARRAY_SIZE(diag_domain_names); i++)
		if (!strcmp(metric + strlen(p) + n,
			    diag_domain_names[i].field)) {
			snprintf(buf, size, "%s (domain level %d)",
				 diag_domain_names[i].name, level);
			return 0;
		}
	return -1;
}


/* One changed diagnostic and its change, for compare_why's order. */
struct why_row {
	char *line;
	double change;
	size_t at;		/* its place in the tables */
};

static int why_cmp(const void *a, const void *b)
{
	const struct why_row *x = a, *y = b;

	if (fabs(x->change) != fabs(y->change))
		return fabs(x->change) < fabs(y->change) ? 1 : -1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Each named diag.* row of r that changed, its line and change. */
static size_t why_rows(const struct compare_result *r, struct why_row **out)
{
	struct why_row *rows = NULL;
	size_t i, k, nr = 0, alloc = 0;
	char name[96];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];

		if (!m->diagnostic || diag_name(m->metric, name, sizeof(name)))
			continue;
		for (k = 1; k < r->nr_kernels; k++) {
			const struct compare_side *b = &m->side[0];
			const struct compare_side *s = &m->side[k];
			struct strbuf line = STRBUF_INIT;
			double change;

			if (!compare_diag_changed(r, m, k))
				continue;
			change = 100 * (s->st.mean - b->st.mean) /
				 fabs(b->st.mean);
			strbuf_addf(&line, "%s %+.0f%% (%s%s%s", name, change,
				    m->workload, *m->params ? " " : "",
				    m->params);
			if (r->nr_kernels > 2)
				strbuf_addf(&line, ", %s", r->kernels[k]);
			strbuf_addch(&line, ')');
			ALLOC_GROW(rows, nr, alloc);
			rows[nr].change = change;
			rows[nr].at = nr;
			rows[nr++].line = strbuf_detach(&line, NULL);
		}
	}
	*out = rows;
	return nr;
}

static void doc_diag(struct tmpl_rec *d, const struct compare_result *r)
{
	struct why_row *rows;
	size_t i, nr = why_rows(r, &rows);

	for (i = 0; i < nr; i++) {
		kv_set(&tmpl_add(d, "diagrow")->vars, "line", rows[i].line);
		kv_set(&d->vars, "diagchanged", "1");
		free(rows[i].line);
	}
	free(rows);
}

size_t compare_why(const struct compare_result *r, size_t max,
		   const char *prefix, struct strbuf *out)
{
	struct why_row *rows;
	size_t i, nr = why_rows(r, &rows);

	/* equal changes in the tables' order; no rows: rows is NULL */
	if (nr)
		qsort(rows, nr, sizeof(*rows), why_cmp);
	for (i = 0; i < nr; i++) {
		if (i < max)
			strbuf_addf(out, "%s%s\n", prefix, rows[i].line);
		free(rows[i].line);
	}
	free(rows);
	return nr < max ? nr : max;
}

int compare_render(const struct compare_result *r, const char *format,
		   struct strbuf *out)
{
	static const struct {
		const char *name;
		void (*fn)(struct tmpl_rec *, const struct compare_result *);
	} formats[] = {
		{ "intel", doc_intel }, { "amd", doc_amd },
		{ "lkp", doc_lkp }, { "mmtests", doc_mmtests },
		{ "matrix", doc_matrix }, { "simple", doc_simple },
	};
	struct compare_result view = *r;
	struct tmpl_rec d = TMPL_REC_INIT;
	struct tmpl_opts o = { .nr_kernels = (int)r->nr_kernels, .trim = 1 };
	struct strbuf tmpl = STRBUF_INIT;
	char *file;
	size_t i, j;
	int ret;

	if (!strcmp(format, "plot"))
		return plot_render(r, out);
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(format, formats[i].name))
			break;
	if (i == ARRAY_SIZE(formats))
		return error("unknown report format '%s' (intel, amd, lkp, "
			     "mmtests, matrix, simple, plot)", format);
	/* the KPIs, and the diagnostics that changed or were asked for */
	view.m = xcalloc(r->nr ? r->nr : 1, sizeof(*view.m));
	for (view.nr = 0, j = 0; j < r->nr; j++)
		if (compare_row_shown(r, &r->m[j]))
			view.m[view.nr++] = r->m[j];
	doc_init(&d, &view);
	formats[i].fn(&d, &view);
	doc_diag(&d, r);
	o.nr_kernels = template_kernels(format, &view);
	file = xasprintf("report-%s.txt", format);
	ret = tmpl_load(file, NULL, &tmpl);
	if (!ret) {
		o.name = file;
		ret = tmpl_expand(tmpl.buf, &d, &o, out);
	}
	free(file);
	strbuf_release(&tmpl);
	tmpl_rec_release(&d);
	if (view.m != r->m)
		free(view.m);
	return ret;
}
