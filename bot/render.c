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

/* Chen Yu's cover letter (seed 004). */
static void doc_intel(struct tmpl_rec *d, const struct compare_result *r)
{
	size_t i, k;
	char buf[64];

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0];
		char *ek = env_key(m), *key;
		struct tmpl_rec *bl;
		struct kv *row;
		struct load l;
		int fresh;

		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%d\x1f%s", m->workload, l.rest,
				m->higher_is_better, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			kv_setf(&bl->vars, "title", "%s%s%s",
				m->workload, *l.rest ? " " : "", l.rest);
			for (k = 1; k < r->nr_kernels; k++)
				tmpl_setkf(&bl->vars, "cmphdr", (int)k,
					   "%s%%( std%%)", r->nr_kernels > 2 ?
					   r->kernels[k] : "compare");
		}
		row = &tmpl_add(bl, "row")->vars;
		kv_set(row, "case", m->metric);
		if (l.count) {
			load_name(&l, buf, sizeof(buf));
			kv_set(row, "load", buf);
		} else {
			kv_set(row, "load", *m->params ? m->params : "-");
		}
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
		free(l.rest);
		free(key);
		free(ek);
	}
}

/* K Prateek Nayak's blocks (seed 003). */
static void doc_amd(struct tmpl_rec *d, const struct compare_result *r)
{
	size_t i, k;

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		struct tmpl_rec *bl;
		struct kv *row;
		struct load l;
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
			/* "Clients:", "#workers:" in the seed */
			if (l.count)
				kv_setf(&bl->vars, "casehdr", "%c%s:",
					toupper((unsigned char)l.key[0]),
					l.key + 1);
			else
				kv_setf(&bl->vars, "casehdr", "Case:");
			for (k = 0; k < r->nr_kernels; k++)
				tmpl_setkf(&bl->vars, "hdr", (int)k,
					   "%s[pct imp](CV)", r->kernels[k]);
		}
		row = &tmpl_add(bl, "row")->vars;
		if (l.count)
			kv_setf(row, "case", "%ld", l.count);
		else
			kv_set(row, "case", *m->params ? m->params : m->metric);
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];
			const struct compare_side *b = &m->side[0];
			/* the baseline prints -0.00 when lower is better,
			 * as in the seed: -(x - x) */
			double imp = k ? s->better_pct :
				     (m->higher_is_better ? 0.0 : -0.0);

			if (!s->n || b->st.mean == 0 || isnan(imp))
				tmpl_setkf(row, "cell", (int)k, "%s", "-");
			else
				tmpl_setkf(row, "cell", (int)k,
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
 * name; diag.* rows are only said to be diagnostics.
 */
static void lkp_directions(struct tmpl_rec *bl)
{
	struct strbuf low = STRBUF_INIT, note = STRBUF_INIT;
	const struct tmpl_list *rows = tmpl_list(bl, "row");
	size_t i, nr_high = 0, nr_low = 0, nr_diag = 0;

	for (i = 0; rows && i < rows->nr; i++) {
		const struct kv *row = &rows->v[i]->vars;

		if (!strcmp(kv_get(row, "_diag"), "1")) {
			nr_diag++;
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
	strbuf_release(&low);
	strbuf_release(&note);
}

static void doc_lkp(struct tmpl_rec *d, const struct compare_result *r)
{
	const struct tmpl_list *blocks;
	size_t i, k;
	char buf[64];

	for (k = 0; k < r->nr_kernels; k++)
		tmpl_setkf(&d->vars, "lab", (int)k, "%.*s", k ? 27 : 16,
			   r->kernels[k]);
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		char *ek = env_key(m), *key;
		struct tmpl_rec *bl;
		struct kv *row;
		struct load l;
		int fresh;

		/* like LKP: fixed params in the path, the sweep in the name */
		load_split(m, &l);
		key = xasprintf("%s\x1f%s\x1f%s", m->workload, l.rest, ek);
		bl = block_for(d, key, &fresh);
		if (fresh) {
			block_common(bl, m, key);
			kv_setf(&bl->vars, "envpath",
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
		free(l.rest);
		free(key);
		free(ek);
	}
	blocks = tmpl_list(d, "block");
	for (i = 0; blocks && i < blocks->nr; i++)
		lkp_directions(blocks->v[i]);
}

static int significant(enum verdict v)
{
	return v == VERDICT_IMPROVEMENT || v == VERDICT_REGRESSION;
}

/* mmtests compare-kernels.sh (report-formats.md 4.1). */
static void doc_mmtests(struct tmpl_rec *d, const struct compare_result *r)
{
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
			int sig = k && significant(s->verdict);

			if (!m->higher_is_better)
				pct = -pct;
			if (!k)
				pct = 0;
			/* one precision per row, from the baseline */
			snprintf(buf, sizeof(buf), "%.*f",
				 fabs(base) < 100 ? 4 : 2, v);
			if (!s->n || !isfinite(pct))
				tmpl_setkf(row, "v", (int)k, "%12s", "-");
			else
				tmpl_setkf(row, "v", (int)k, "%12s %c%7.2f%%%c",
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
static void doc_matrix(struct tmpl_rec *d, const struct compare_result *r)
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
		kv_set(&bl->vars, "envrule", rule.buf);
		kv_set(&bl->vars, "envhdr", hdr.buf);
		kv_set(&bl->vars, "constenv", cst.buf);
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
					matrix_drop_note(note, sizeof(note),
							 o, s);
				snprintf(buf, sizeof(buf), "%.1f",
					 s->st.mean);
				kv_setf(row, "res", "%s%s", buf, note);
				if (isnan(s->cpu_usr))
					kv_set(row, "cpu", "  n/a");
				else
					kv_setf(row, "cpu",
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
		kv_setf(&bl->vars, "idx", "%c",
			i < 26 ? (int)('a' + i) : '?');
		kv_set(&bl->vars, "verdict", verdict_name(m->verdict));
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
