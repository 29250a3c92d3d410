// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - group samples, compute statistics, judge each metric.
 * The rules are described in compare.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "json.h"
#include "sequential.h"

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_NOISY:
		return "noisy";
	case VERDICT_IMPROVEMENT:
		return "improvement";
	case VERDICT_REGRESSION:
		return "regression";
	default:
		return "no significant change";
	}
}

static struct compare_defaults defaults;
static int configured;

void compare_configure(const struct compare_defaults *d)
{
	defaults = *d;
	configured = 1;
}

void compare_opts_init(struct compare_opts *o)
{
	const char *pairing = defaults.pairing ? defaults.pairing : "auto";

	if (!configured)
		die("BUG: compare_opts_init() before compare_configure()");
	memset(o, 0, sizeof(*o));
	o->min_effect = defaults.min_effect;
	o->alpha = defaults.alpha;
	o->rank_alpha = defaults.rank_alpha;
	o->noisy_pct = defaults.noisy_pct;
	if (!strcmp(pairing, "paired"))
		o->pairing = PAIRING_PAIRED;
	else if (!strcmp(pairing, "unpaired"))
		o->pairing = PAIRING_UNPAIRED;
	else if (strcmp(pairing, "auto"))
		warning("config compare.pairing = '%s' is not auto, paired "
			"or unpaired, using auto", pairing);
}

/*
 * Where the samples of a set came from, so that errors found after
 * reading (a kernel with one run) still name a file and line.
 */
struct origin {
	size_t first, count;
	char *file;
};
static const struct sample_set *origin_set;
static struct origin *origins;
static size_t nr_origins, alloc_origins;

static void origins_reset(const struct sample_set *set)
{
	size_t i;

	for (i = 0; i < nr_origins; i++)
		free(origins[i].file);
	free(origins);
	origins = NULL;
	nr_origins = alloc_origins = 0;
	origin_set = set;
}

/* "FILE:LINE: " for sample i, or "" when unknown (caller frees). */
static char *where(const struct sample_set *set, size_t i)
{
	size_t k;

	/* only while the origins still describe this very set */
	if (set != origin_set || !nr_origins ||
	    origins[nr_origins - 1].first + origins[nr_origins - 1].count !=
	    set->nr)
		return xstrdup("");
	for (k = 0; k < nr_origins; k++)
		if (i >= origins[k].first &&
		    i < origins[k].first + origins[k].count)
			/* line 1 is the header; a row per record */
			return xasprintf("%s:%zu: ", origins[k].file,
					 i - origins[k].first + 2);
	return xstrdup("");
}

/*
 * The file sample i was read from: its index among the files read
 * (compare_read_files), 0 when the set was not read by it (one source).
 */
static int source_of(const struct sample_set *set, size_t i)
{
	size_t k;

	if (set != origin_set || !nr_origins ||
	    origins[nr_origins - 1].first + origins[nr_origins - 1].count !=
	    set->nr)
		return 0;
	for (k = 0; k < nr_origins; k++)
		if (i >= origins[k].first &&
		    i < origins[k].first + origins[k].count)
			return (int)k;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The labels of samples from..end-1: 0, 1 or 2 (two or more). */
static int nr_labels(const struct sample_set *set, size_t from, size_t end,
		     const char **first)
{
	size_t i;

	*first = from < end ? set->v[from].label : NULL;
	for (i = from; i < end; i++)
		if (strcmp(set->v[i].label, *first))
			return 2;
	return *first ? 1 : 0;
}

int compare_read_files(char **paths, int nr, struct sample_set *set)
{
	size_t *start = xcalloc(nr + 1, sizeof(*start));
	int i, j, single = 1, clash = 0;
	const char *li, *lj;

	if (set != origin_set || !set->nr)
		origins_reset(set);
	for (i = 0; i < nr; i++) {
		start[i] = set->nr;
		if (samples_read_file(paths[i], set) < 0) {
			free(start);
			return -1;
		}
		ALLOC_GROW(origins, nr_origins, alloc_origins);
		origins[nr_origins].first = start[i];
		origins[nr_origins].count = set->nr - start[i];
		origins[nr_origins++].file = xstrdup(paths[i]);
		if (set->nr == start[i]) {
			free(start);
			return error("%s: no samples, only a header", paths[i]);
		}
	}
	start[nr] = set->nr;
	/*
	 * Relabel only when the labels tell no file apart: every file holds
	 * one label, all the same.  Files of different labels keep them,
	 * and a label in several files (two boots of one kernel) gets the
	 * runs of each: a run is its file and number (compare_run).
	 */
	for (i = 0; i < nr; i++)
		if (nr_labels(set, start[i], start[i + 1], &li) != 1)
			single = 0;
	clash = single && nr > 1;
	for (i = 0; single && i < nr; i++)
		for (j = i + 1; j < nr; j++) {
			nr_labels(set, start[i], start[i + 1], &li);
			nr_labels(set, start[j], start[j + 1], &lj);
			if (strcmp(li, lj))
				clash = 0;
		}
	for (i = 0; single && clash && i < nr; i++) {
		char *name = xstrdup(base_name(paths[i]));
		size_t k, len = strlen(name);

		if (len > 4 && !strcmp(name + len - 4, ".csv"))
			name[len - 4] = '\0';
		for (k = start[i]; k < start[i + 1]; k++) {
			free(set->v[k].label);
			set->v[k].label = xstrdup(name);
		}
		free(name);
	}
	free(start);
	return 0;
}

/* Accumulates one run of one label in one group. */
struct run_acc {
	int run;
	int src;		/* the file (source_of) */
	int have_summary;
	double summary, sum;
	size_t cnt;
	double usr, sys;	/* from the summary row, else summed */
	size_t cpu_cnt;
	size_t first;		/* sample index, for errors */
};

struct acc {
	struct run_acc *runs;
	size_t nr, alloc;
};

static const char *nz(const char *s)
{
	return s ? s : "";
}

static int same_group(const struct compare_metric *m, const struct sample *s)
{
	return !strcmp(m->workload, s->workload) &&
	       !strcmp(m->params, nz(s->params)) &&
	       !strcmp(m->metric, s->metric) &&
	       !strcmp(m->machine, nz(s->machine)) &&
	       !strcmp(m->placement, nz(s->placement)) &&
	       !strcmp(m->autogroup_config, nz(s->autogroup_config)) &&
	       !strcmp(m->autogroup_enabled, nz(s->autogroup_enabled)) &&
	       !strcmp(m->cgroup, nz(s->cgroup));
}

static void add_to_run(struct acc *a, const struct sample *s, size_t idx,
		       int src)
{
	struct run_acc *ra = NULL;
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (a->runs[i].run == s->run && a->runs[i].src == src)
			ra = &a->runs[i];
	if (!ra) {
		ALLOC_GROW(a->runs, a->nr, a->alloc);
		ra = &a->runs[a->nr++];
		memset(ra, 0, sizeof(*ra));
		ra->run = s->run;
		ra->src = src;
		ra->first = idx;
	}
	if (s->sample == 0) {
		ra->have_summary = 1;
		ra->summary = s->value;
		if (!isnan(s->cpu_usr) && !isnan(s->cpu_sys)) {
			ra->usr = s->cpu_usr;
			ra->sys = s->cpu_sys;
			ra->cpu_cnt = (size_t)-1;	/* the summary's own */
		}
		return;
	}
	ra->sum += s->value;
	ra->cnt++;
	if (ra->cpu_cnt != (size_t)-1 && !isnan(s->cpu_usr) &&
	    !isnan(s->cpu_sys)) {
		ra->usr += s->cpu_usr;
		ra->sys += s->cpu_sys;
		ra->cpu_cnt++;
	}
}

static void fill_side(struct compare_side *sd, const struct acc *a)
{
	double usr = 0, sys = 0;
	size_t i, ncpu = 0;

	sd->n = a->nr;
	sd->values = xcalloc(a->nr ? a->nr : 1, sizeof(double));
	sd->runs = xcalloc(a->nr ? a->nr : 1, sizeof(int));
	sd->srcs = xcalloc(a->nr ? a->nr : 1, sizeof(int));
	for (i = 0; i < a->nr; i++) {
		const struct run_acc *ra = &a->runs[i];

		sd->runs[i] = ra->run;
		sd->srcs[i] = ra->src;
		sd->values[i] = ra->have_summary ? ra->summary :
				ra->sum / ra->cnt;
		if (ra->cpu_cnt == (size_t)-1) {
			usr += ra->usr;
			sys += ra->sys;
			ncpu++;
		} else if (ra->cpu_cnt) {
			usr += ra->usr / ra->cpu_cnt;
			sys += ra->sys / ra->cpu_cnt;
			ncpu++;
		}
	}
	sd->cpu_usr = ncpu ? usr / ncpu : NAN;
	sd->cpu_sys = ncpu ? sys / ncpu : NAN;
	stats_compute(sd->values, sd->n, &sd->st);
	sd->change_pct = sd->better_pct = NAN;
	sd->p_welch = sd->p_mwu = sd->p_paired = sd->p_adjusted = NAN;
	sd->p_moderated = NAN;
	sd->ci_low_pct = sd->ci_high_pct = NAN;
	sd->verdict = VERDICT_NONE;
}

/* The numbers of a side against the baseline; the verdict comes later. */
static void describe(int higher_is_better, const struct compare_side *b,
		     struct compare_side *s)
{
	struct welch w;
	struct mann_whitney mw;

	if (b->n < 2 || s->n < 2)
		return;
	s->change_pct = b->st.mean != 0 ?
		100 * (s->st.mean - b->st.mean) / fabs(b->st.mean) : NAN;
	s->better_pct = higher_is_better ? s->change_pct : -s->change_pct;
	if (!stats_welch(b->values, b->n, s->values, s->n, &w))
		s->p_welch = w.p;
	if (!stats_mann_whitney(b->values, b->n, s->values, s->n, &mw))
		s->p_mwu = mw.p;
}

/* ---- the family of a comparison ---- */

static int judged_kpi(const struct compare_metric *m, size_t k)
{
	return !m->diagnostic && m->side[0].n >= 2 && m->side[k].n >= 2;
}

static int one_source(const struct compare_side *sd)
{
	size_t i;

	for (i = 1; i < sd->n; i++)
		if (sd->srcs[i] != sd->srcs[0])
			return 0;
	return 1;
}

/* (src, run) order: run order within a file, the files in turn. */
static int run_before(const struct compare_side *sd, size_t i, size_t j)
{
	if (sd->srcs[i] != sd->srcs[j])
		return sd->srcs[i] < sd->srcs[j];
	return sd->runs[i] < sd->runs[j];
}

/*
 * The values both sides have for the same runs, in run order (the block
 * order of an interleaved job).  A run is its file and number: runs
 * pair only within a file, unless each side was read from one file
 * (compare.pairing = paired over two files: the run numbers alone).
 * vb, vs: room for b->n.
 */
static size_t common_runs(const struct compare_side *b,
			  const struct compare_side *s, double *vb, double *vs)
{
	int any_src = one_source(b) && one_source(s);
	size_t i, j, n = 0, last = 0;
	int first = 1;

	for (;;) {
		size_t best = b->n;

		/* the next run of b after last */
		for (i = 0; i < b->n; i++)
			if ((first || run_before(b, last, i)) &&
			    (best == b->n || run_before(b, i, best)))
				best = i;
		if (best == b->n)
			return n;
		last = best;
		first = 0;
		for (j = 0; j < s->n; j++)
			if (s->runs[j] == b->runs[best] &&
			    (any_src || s->srcs[j] == b->srcs[best])) {
				vb[n] = b->values[best];
				vs[n++] = s->values[j];
				break;
			}
	}
}

/*
 * Paired when the runs are blocks of one job: auto needs one source
 * and, in every KPI, the run numbers of one side all present on the
 * other (a job stopped between the two runs of a block has one run
 * more on one side: it is left out); paired pairs whatever run numbers
 * the sides share.  Either way at least 2 pairs per KPI.
 */
static int can_pair(const struct compare_result *r, size_t k,
		    const struct compare_opts *o)
{
	size_t i, nr = 0;

	if (o->pairing == PAIRING_UNPAIRED ||
	    (o->pairing == PAIRING_AUTO && r->several_sources))
		return 0;
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0], *s = &m->side[k];
		double *vb, *vs;
		size_t c;

		if (!judged_kpi(m, k))
			continue;
		vb = xcalloc(b->n, sizeof(double));
		vs = xcalloc(b->n, sizeof(double));
		c = common_runs(b, s, vb, vs);
		free(vb);
		free(vs);
		if (c < 2 || (o->pairing == PAIRING_AUTO &&
			      c != b->n && c != s->n))
			return 0;
		nr++;
	}
	return nr > 0;
}

/* The plan a paired family is judged by: the job's, else one look. */
static void family_plan(const struct compare_opts *o, struct seq_plan *p)
{
	if (o->plan) {
		*p = *o->plan;
		return;
	}
	seq_plan_init_fixed(p);
	p->alpha = o->alpha;
	p->guard_alpha = o->rank_alpha;
	p->min_effect = o->min_effect;
	p->noisy_pct = o->noisy_pct;
}

static void family_paired(struct compare_result *r, size_t k,
			  const struct compare_opts *o)
{
	struct compare_family *f = &r->fam[k];
	struct seq_kpi *kpi = xcalloc(r->nr ? r->nr : 1, sizeof(*kpi));
	size_t *idx = xcalloc(r->nr ? r->nr : 1, sizeof(*idx));
	struct paired_data pd = { kpi, 0 };
	struct seq_decision dec;
	int *logs = xcalloc(r->nr ? r->nr : 1, sizeof(*logs));
	struct seq_plan plan;
	size_t i, j;

	family_plan(o, &plan);
	f->paired = 1;
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0], *s = &m->side[k];
		double *vb, *d, base = b->st.mean;
		size_t n;
		int positive = 1;

		if (!judged_kpi(m, k))
			continue;
		vb = xcalloc(b->n, sizeof(double));
		d = xcalloc(b->n, sizeof(double));
		n = common_runs(b, s, vb, d);
		for (j = 0; j < n; j++)
			if (!(vb[j] > 0 && d[j] > 0))
				positive = 0;
		/* log ratios; the difference scaled by the base mean when
		 * a value is not positive */
		for (j = 0; j < n; j++)
			d[j] = positive ? log(d[j] / vb[j]) :
			       base ? (d[j] - vb[j]) / fabs(base) : NAN;
		free(vb);
		kpi[pd.nr].d = d;
		kpi[pd.nr].n = n;
		kpi[pd.nr].higher_is_better = m->higher_is_better;
		logs[pd.nr] = positive;
		idx[pd.nr++] = i;
	}
	if (!pd.nr || seq_decide(&plan, &pd, &dec) < 0) {
		free(kpi);
		free(idx);
		free(logs);
		return;
	}
	/* a plan fixed by --runs has one look: no adaptive design to report */
	f->sequential = o->plan && !o->plan->fixed;
	f->state = dec.state;
	f->blocks = dec.blocks;
	f->max_blocks = plan.max_blocks;
	f->excluded_pct = dec.excluded_pct;
	for (j = 0; j < pd.nr; j++) {
		const struct seq_kpi_result *res = &dec.kpi[j];
		struct compare_side *s = &r->m[idx[j]].side[k];

		f->judged++;
		if (res->n > f->pairs)
			f->pairs = res->n;
		s->judged = 1;
		s->p_paired = res->p;
		s->p_adjusted = res->p_adj;
		s->ci_low_pct = res->ci_low_pct;
		s->ci_high_pct = res->ci_high_pct;
		/*
		 * A reply shows the change the test judged: the paired
		 * estimate at the deciding look (the mean log ratio, or the
		 * mean difference over the base's mean), not the ratio of
		 * the means, which can differ from it even in sign.
		 */
		if (o->judged_change && isfinite(res->change_pct)) {
			s->change_pct = logs[j] ? res->change_pct :
					100 * log1p(res->change_pct / 100);
			s->better_pct = r->m[idx[j]].higher_is_better ?
					s->change_pct : -s->change_pct;
		}
		if (res->call < 0)
			s->verdict = VERDICT_REGRESSION;
		else if (res->call > 0)
			s->verdict = VERDICT_IMPROVEMENT;
		else if (!res->judged || res->noisy)
			s->verdict = VERDICT_NOISY;
		f->worse += s->verdict == VERDICT_REGRESSION;
		f->better += s->verdict == VERDICT_IMPROVEMENT;
		f->noisy += s->verdict == VERDICT_NOISY;
		free((double *)kpi[j].d);
	}
	seq_decision_release(&dec);
	free(kpi);
	free(idx);
	free(logs);
}

static double ci_pct(const struct stats *st)
{
	if (st->mean == 0)
		return INFINITY;
	return 100 * (st->ci_high - st->mean) / fabs(st->mean);
}

/*
 * The values of a side on the scale the family is tested on: their
 * logs when both sides are positive (a change is then a ratio, as the
 * paired log ratios are), else relative to the baseline's mean.
 * Returns NULL when neither can be had (a zero baseline).
 */
static double *unpaired_scale(const struct compare_side *b,
			      const struct compare_side *side, int logs)
{
	double *v = xcalloc(side->n, sizeof(double));
	size_t j;

	if (!logs && b->st.mean == 0) {
		free(v);
		return NULL;
	}
	for (j = 0; j < side->n; j++)
		v[j] = logs ? log(side->values[j]) :
		       side->values[j] / fabs(b->st.mean);
	return v;
}

static int all_positive(const struct compare_side *sd)
{
	size_t j;

	for (j = 0; j < sd->n; j++)
		if (!(sd->values[j] > 0))
			return 0;
	return 1;
}

/*
 * The moderated p-value of each judged KPI of an unpaired family, the
 * pooled two-sample t with the variance prior fitted over the family
 * (stats_prior_fit_family, capped as the paired family's is); without a
 * prior (fewer than 3 KPIs, or no df to share) each KPI's own Welch p.
 */
static void unpaired_moderated(struct compare_result *r, size_t k,
			       const struct compare_opts *o)
{
	size_t nr = r->nr ? r->nr : 1, i;
	double *s2 = xcalloc(nr, sizeof(double));
	double *df = xcalloc(nr, sizeof(double));
	double **va = xcalloc(nr, sizeof(double *));
	double **vb = xcalloc(nr, sizeof(double *));
	int *own = xcalloc(nr, sizeof(int));
	struct stats_prior prior;
	struct seq_plan plan;

	family_plan(o, &plan);
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0], *s = &m->side[k];
		struct pooled_t pt;
		int logs = all_positive(b) && all_positive(s);

		s2[i] = NAN;
		if (!judged_kpi(m, k))
			continue;
		va[i] = unpaired_scale(b, b, logs);
		vb[i] = unpaired_scale(b, s, logs);
		if (!va[i] || !vb[i] ||
		    stats_pooled_t(va[i], b->n, vb[i], s->n, NULL, &pt) < 0)
			continue;
		s2[i] = pt.s2;
		df[i] = pt.df;
	}
	/* its tail below alpha: the prior does not describe it */
	stats_prior_fit_robust(s2, df, r->nr, plan.prior_df_max, o->alpha,
			       &prior, own);
	r->fam[k].prior = prior;
	for (i = 0; i < r->nr; i++) {
		struct compare_side *s = &r->m[i].side[k];
		struct pooled_t pt;

		/*
		 * A KPI whose own variance is improbably large for the
		 * prior (its upper tail below alpha) is one the prior does
		 * not describe: it keeps its own variance (the pooled t
		 * without a prior), a valid test in the same family.
		 */
		if (va[i] && vb[i] && prior.df > 0 &&
		    !stats_pooled_t(va[i], r->m[i].side[0].n, vb[i], s->n,
				    own[i] ? NULL : &prior, &pt)) {
			s->p_moderated = pt.p;
			s->moderated = !own[i];
		}
		free(va[i]);
		free(vb[i]);
	}
	free(va);
	free(vb);
	free(s2);
	free(df);
	free(own);
}

static void family_unpaired(struct compare_result *r, size_t k,
			    const struct compare_opts *o)
{
	struct compare_family *f = &r->fam[k];
	double *pw = xcalloc(r->nr ? r->nr : 1, sizeof(double));
	double *pb = xcalloc(r->nr ? r->nr : 1, sizeof(double));
	double gamma;
	size_t i;

	unpaired_moderated(r, k, o);
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		const struct compare_side *s = &m->side[k];
		double p = !isnan(s->p_moderated) ? s->p_moderated :
			   isnan(s->p_welch) ? 1 : s->p_welch;

		pw[i] = pb[i] = NAN;
		if (!judged_kpi(m, k))
			continue;
		f->judged++;
		/* one-sided, each direction, from the two-sided p */
		pw[i] = s->better_pct < 0 ? p / 2 : 1 - p / 2;
		pb[i] = s->better_pct > 0 ? p / 2 : 1 - p / 2;
	}
	stats_holm(pw, r->nr, pw);
	stats_holm(pb, r->nr, pb);
	gamma = (1 - 0.95) / (2 * (f->judged ? f->judged : 1));
	f->excluded_pct = NAN;
	for (i = 0; i < r->nr; i++) {
		struct compare_metric *m = &r->m[i];
		const struct compare_side *b = &m->side[0];
		struct compare_side *s = &m->side[k];
		double va, vb, se, df, q, diff;
		int worse = s->better_pct < 0;

		if (!judged_kpi(m, k))
			continue;
		s->judged = 1;
		s->p_adjusted = worse ? pw[i] : pb[i];
		/* NAN-safe: infinite or undefined spreads count as noisy */
		if (!(ci_pct(&b->st) <= o->noisy_pct) ||
		    !(ci_pct(&s->st) <= o->noisy_pct) ||
		    !isfinite(s->change_pct))
			s->verdict = VERDICT_NOISY;
		/*
		 * The guard: the KPI's own Welch test would call it at the
		 * job's level were it the job's only KPI, so that one KPI
		 * noisier than the family, whose variance the prior
		 * shrinks, calls a change with probability <= alpha; and
		 * Mann-Whitney agrees, as it always had to.
		 */
		else if (fabs(s->change_pct) >= o->min_effect &&
			 s->p_welch < o->alpha &&
			 s->p_mwu < o->rank_alpha &&
			 s->p_adjusted <=
			 seq_direction_level(o->alpha, &f->prior))
			s->verdict = worse ? VERDICT_REGRESSION :
					     VERDICT_IMPROVEMENT;
		f->worse += s->verdict == VERDICT_REGRESSION;
		f->better += s->verdict == VERDICT_IMPROVEMENT;
		f->noisy += s->verdict == VERDICT_NOISY;
		/* the simultaneous Welch CI of the difference of the means */
		va = b->st.stddev * b->st.stddev / b->n;
		vb = s->st.stddev * s->st.stddev / s->n;
		se = sqrt(va + vb);
		df = se > 0 ? (va + vb) * (va + vb) /
			(va * va / (b->n - 1) + vb * vb / (s->n - 1)) : 1;
		q = stats_t_quantile(1 - gamma, df);
		diff = s->st.mean - b->st.mean;
		if (b->st.mean == 0)
			continue;
		s->ci_low_pct = 100 * (diff - q * se) / fabs(b->st.mean);
		s->ci_high_pct = 100 * (diff + q * se) / fabs(b->st.mean);
		if (s->verdict == VERDICT_REGRESSION ||
		    s->verdict == VERDICT_IMPROVEMENT ||
		    !isfinite(s->ci_low_pct) || !isfinite(s->ci_high_pct))
			continue;
		if (isnan(f->excluded_pct) ||
		    fabs(s->ci_low_pct) > f->excluded_pct)
			f->excluded_pct = fabs(s->ci_low_pct);
		if (fabs(s->ci_high_pct) > f->excluded_pct)
			f->excluded_pct = fabs(s->ci_high_pct);
	}
	free(pw);
	free(pb);
	/* one look: decided, never "continue" */
	f->state = f->worse ? SEQ_REGRESSION : f->better ? SEQ_IMPROVEMENT :
		   SEQ_BUDGET;
}

int compare_wants_more(const struct compare_result *r)
{
	size_t k;

	for (k = 1; r->fam && k < r->nr_kernels; k++)
		if (r->fam[k].sequential && r->fam[k].state == SEQ_CONTINUE)
			return 1;
	return 0;
}

static void metric_release(struct compare_metric *m, size_t nr_kernels)
{
	size_t k;

	free(m->workload);
	free(m->params);
	free(m->metric);
	free(m->unit);
	free(m->machine);
	free(m->placement);
	free(m->autogroup_config);
	free(m->autogroup_enabled);
	free(m->cgroup);
	for (k = 0; m->side && k < nr_kernels; k++) {
		free(m->side[k].values);
		free(m->side[k].runs);
		free(m->side[k].srcs);
	}
	free(m->side);
}

void compare_result_release(struct compare_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		metric_release(&r->m[i], r->nr_kernels);
	free(r->m);
	for (i = 0; i < r->nr_kernels; i++) {
		free(r->kernels[i]);
		free(r->unames[i]);
		if (r->commits)
			free(r->commits[i]);
		if (r->subjects)
			free(r->subjects[i]);
	}
	for (i = 0; i < r->nr_files; i++)
		free(r->files[i]);
	free(r->files);
	free(r->kernels);
	free(r->unames);
	free(r->commits);
	free(r->subjects);
	free(r->fam);
	memset(r, 0, sizeof(*r));
}

void compare_name_commit(struct compare_result *r, const char *label,
			 const char *id, const char *subject)
{
	size_t k;

	for (k = 0; k < r->nr_kernels; k++)
		if (!strcmp(r->kernels[k], label))
			break;
	if (k == r->nr_kernels || !id || !*id)
		return;
	if (!r->commits) {
		r->commits = xcalloc(r->nr_kernels, sizeof(*r->commits));
		r->subjects = xcalloc(r->nr_kernels, sizeof(*r->subjects));
	}
	free(r->commits[k]);
	free(r->subjects[k]);
	r->commits[k] = xstrdup(id);
	r->subjects[k] = subject && *subject ? xstrdup(subject) : NULL;
}

static size_t label_index(struct compare_result *r, const struct sample *s,
			  size_t *alloc)
{
	size_t k;

	for (k = 0; k < r->nr_kernels; k++)
		if (!strcmp(r->kernels[k], s->label)) {
			if (!*r->unames[k] && s->kernel) {
				free(r->unames[k]);
				r->unames[k] = xstrdup(s->kernel);
			}
			return k;
		}
	if (r->nr_kernels >= *alloc) {
		*alloc = *alloc ? 2 * *alloc : 4;
		r->kernels = xrealloc(r->kernels, *alloc * sizeof(char *));
		r->unames = xrealloc(r->unames, *alloc * sizeof(char *));
	}
	r->kernels[k] = xstrdup(s->label);
	r->unames[k] = xstrdup(nz(s->kernel));
	r->nr_kernels++;
	return k;
}

static void compare_cpu_idle(const struct sample_set *set,
			     struct compare_result *r);

/*
 * A new group (one metric of one workload in one environment) for
 * sample s, with its accumulators for max_k kernels.
 */
static struct compare_metric *group_add(struct compare_result *r,
					struct acc ***acc, size_t *alloc_g,
					size_t max_k, const struct sample *s)
{
	struct compare_metric *m;

	if (r->nr >= *alloc_g) {
		*alloc_g = *alloc_g ? 2 * *alloc_g : 8;
		r->m = xrealloc(r->m, *alloc_g * sizeof(*r->m));
		*acc = xrealloc(*acc, *alloc_g * sizeof(**acc));
	}
	m = &r->m[r->nr];
	memset(m, 0, sizeof(*m));
	(*acc)[r->nr] = xcalloc(max_k, sizeof(***acc));
	r->nr++;
	m->workload = xstrdup(s->workload);
	m->params = xstrdup(nz(s->params));
	m->metric = xstrdup(s->metric);
	m->unit = xstrdup(nz(s->unit));
	m->higher_is_better = s->higher_is_better;
	m->diagnostic = starts_with(s->metric, "diag.");
	m->machine = xstrdup(nz(s->machine));
	m->placement = xstrdup(nz(s->placement));
	m->autogroup_config = xstrdup(nz(s->autogroup_config));
	m->autogroup_enabled = xstrdup(nz(s->autogroup_enabled));
	m->cgroup = xstrdup(nz(s->cgroup));
	return m;
}

/*
 * Every sample into the runs of its group and kernel (*alloc_k: the size
 * of r->kernels); -1 (said) when a metric changes its direction.
 */
static int group_samples(const struct sample_set *set,
			 struct compare_result *r, struct acc ***acc,
			 size_t *alloc_k, size_t max_k)
{
	size_t i, k, g, alloc_g = 0;

	for (i = 0; i < set->nr; i++) {
		const struct sample *s = &set->v[i];
		struct compare_metric *m = NULL;

		k = label_index(r, s, alloc_k);
		for (g = 0; g < r->nr; g++)
			if (same_group(&r->m[g], s)) {
				m = &r->m[g];
				break;
			}
		if (!m) {
			m = group_add(r, acc, &alloc_g, max_k, s);
		} else if (m->higher_is_better != s->higher_is_better) {
			char *w = where(set, i);
			int ret;

			ret = error("%scolumn 'higher_is_better': %s %s "
				    "was %d before", w, s->workload,
				    s->metric, m->higher_is_better);
			free(w);
			return ret;
		}
		add_to_run(&(*acc)[m - r->m][k], s, i, source_of(set, i));
	}
	return 0;
}

/*
 * Each group's sides from its runs, described against the first
 * kernel; -1 (said, once) when a kernel has a single run of a judged
 * metric.  A diagnostic some run did not record (sched-bench writes a
 * counter's row only when it could read it) may have one run: it is
 * shown only where it changed (diag_changed needs two), never judged,
 * and must not stop the job's verdict on its KPIs.
 */
static int fill_sides(const struct sample_set *set, struct compare_result *r,
		      struct acc **acc)
{
	size_t k, g;
	int ret = 0;

	for (g = 0; g < r->nr; g++) {
		struct compare_metric *m = &r->m[g];

		m->side = xcalloc(r->nr_kernels, sizeof(*m->side));
		for (k = 0; k < r->nr_kernels; k++) {
			struct acc *a = &acc[g][k];

			if (a->nr == 1 && !m->diagnostic && !ret) {
				char *w = where(set, a->runs[0].first);

				ret = error("%scolumn 'run': kernel '%s' has "
					    "one run of %s%s%s %s, need at "
					    "least 2 to compare", w,
					    r->kernels[k], m->workload,
					    *m->params ? " " : "", m->params,
					    m->metric);
				free(w);
			}
			fill_side(&m->side[k], a);
		}
		for (k = 1; k < r->nr_kernels; k++)
			describe(m->higher_is_better, &m->side[0],
				 &m->side[k]);
	}
	return ret;
}

/* The files the samples came from, when the set is the one read last. */
static void note_sources(const struct sample_set *set,
			 struct compare_result *r)
{
	size_t i;

	r->several_sources = set == origin_set && nr_origins > 1;
	if (set == origin_set && source_of(set, set->nr - 1) ==
	    (int)nr_origins - 1 && nr_origins) {
		r->nr_files = nr_origins;
		r->files = xcalloc(nr_origins, sizeof(*r->files));
		for (i = 0; i < nr_origins; i++)
			r->files[i] = xstrdup(origins[i].file);
	}
}

/* Each metric's verdict is its worst side's; the run's, its worst metric's. */
static void worst_verdicts(struct compare_result *r)
{
	size_t k, g;

	for (g = 0; g < r->nr; g++) {
		struct compare_metric *m = &r->m[g];

		for (k = 1; k < r->nr_kernels; k++)
			if (m->side[k].verdict > m->verdict)
				m->verdict = m->side[k].verdict;
		if (m->verdict > r->verdict)
			r->verdict = m->verdict;
	}
}

int compare_run(const struct sample_set *set, const struct compare_opts *o,
		struct compare_result *r)
{
	struct acc **acc = NULL;	/* [group][kernel] */
	size_t i, k, g, alloc_k = 0, max_k = 0;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->opts = *o;
	for (i = 0; i < set->nr; i++)
		label_index(r, &set->v[i], &alloc_k);
	if (r->nr_kernels < 2) {
		ret = error("nothing to compare: %s",
			    r->nr_kernels ? "all samples have one label" :
					    "no samples");
		goto out;
	}
	max_k = r->nr_kernels;
	ret = group_samples(set, r, &acc, &alloc_k, max_k);
	if (ret)
		goto out;
	ret = fill_sides(set, r, acc);
	if (ret)
		goto out;
	note_sources(set, r);
	r->fam = xcalloc(r->nr_kernels, sizeof(*r->fam));
	for (k = 1; k < r->nr_kernels; k++) {
		if (can_pair(r, k, o))
			family_paired(r, k, o);
		else
			family_unpaired(r, k, o);
	}
	worst_verdicts(r);
	compare_cpu_idle(set, r);
out:
	for (g = 0; acc && g < r->nr; g++) {
		for (k = 0; k < max_k; k++)
			free(acc[g][k].runs);
		free(acc[g]);
	}
	free(acc);
	if (ret)
		compare_result_release(r);
	return ret;
}

/* The side whose comparison decides the metric's verdict (the last
 * one with the worst verdict), 0 when there is none. */
static size_t deciding_side(const struct compare_result *r,
			    const struct compare_metric *m)
{
	size_t k, best = 0;

	for (k = 1; k < r->nr_kernels; k++)
		if (m->side[k].verdict == m->verdict && m->side[k].n)
			best = k;
	return best;
}

/* The p-value the verdict of side d rests on. */
static double metric_p(const struct compare_result *r,
		       const struct compare_metric *m, size_t d)
{
	if (r->fam[d].paired)
		return m->side[d].p_paired;
	return isnan(m->side[d].p_moderated) ? m->side[d].p_welch :
	       m->side[d].p_moderated;
}

/* "files": [{"file": "base-1.csv", "runs": 4}, ...], when known. */
static void side_files_json(const struct compare_result *r,
			    const struct compare_side *s, struct json *j)
{
	size_t f, i;

	if (!r->nr_files)
		return;
	json_array_begin(j, "files");
	for (f = 0; f < r->nr_files; f++) {
		size_t n = 0;

		for (i = 0; i < s->n; i++)
			n += s->srcs[i] == (int)f;
		if (!n)
			continue;
		json_object_begin(j, NULL);
		json_string(j, "file", r->files[f]);
		json_int(j, "runs", (long long)n);
		json_object_end(j);
	}
	json_array_end(j);
}

/* The job-level part: verdict, sentence, correction, the families. */
static void job_json(const struct compare_result *r, struct json *j)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k, judged = 0, pairs = 0;
	double excluded = NAN;
	int paired = r->nr_kernels > 1;

	for (k = 1; k < r->nr_kernels; k++) {
		const struct compare_family *f = &r->fam[k];

		judged += f->judged;
		paired = paired && f->paired;
		if (k == 1 || f->pairs < pairs)
			pairs = f->pairs;
		if (isnan(excluded) || f->excluded_pct > excluded)
			excluded = f->excluded_pct;
	}
	compare_verdict(r, &sb);
	json_object_begin(j, "job");
	json_string(j, "verdict", verdict_name(r->verdict));
	json_string(j, "sentence", sb.buf);
	json_string(j, "correction", "holm");
	json_double(j, "alpha", r->opts.alpha);
	json_int(j, "kpis_judged", (long long)judged);
	json_bool(j, "paired", paired);
	json_int(j, "pairs", paired ? (long long)pairs : 0);
	json_double(j, "excluded_pct", excluded);
	json_double(j, "confidence", 0.95);
	json_array_begin(j, "comparisons");
	for (k = 1; k < r->nr_kernels; k++) {
		const struct compare_family *f = &r->fam[k];

		json_object_begin(j, NULL);
		json_string(j, "kernel", r->kernels[k]);
		json_string(j, "baseline", r->kernels[0]);
		json_bool(j, "paired", f->paired);
		json_int(j, "pairs", (long long)f->pairs);
		json_int(j, "kpis_judged", (long long)f->judged);
		json_int(j, "regressed", (long long)f->worse);
		json_int(j, "improved", (long long)f->better);
		json_int(j, "noisy", (long long)f->noisy);
		json_double(j, "excluded_pct", f->excluded_pct);
		json_string(j, "design", f->sequential ? "sequential" :
			    "fixed");
		if (f->sequential) {
			json_string(j, "state", seq_state_name(f->state));
			json_int(j, "blocks", f->blocks);
			json_int(j, "max_blocks", f->max_blocks);
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
	strbuf_release(&sb);
}

void compare_json(const struct compare_result *r, struct strbuf *out)
{
	struct json j;
	size_t i, k;

	json_init(&j, out, 1);
	json_object_begin(&j, NULL);
	json_array_begin(&j, "kernels");
	for (k = 0; k < r->nr_kernels; k++)
		json_string(&j, NULL, r->kernels[k]);
	json_array_end(&j);
	json_object_begin(&j, "rule");
	json_double(&j, "min_effect_pct", r->opts.min_effect);
	json_double(&j, "alpha", r->opts.alpha);
	json_double(&j, "rank_alpha", r->opts.rank_alpha);
	json_double(&j, "noisy_ci_pct", r->opts.noisy_pct);
	json_string(&j, "correction", "holm");
	json_object_end(&j);
	json_array_begin(&j, "metrics");
	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		size_t d = deciding_side(r, m);

		json_object_begin(&j, NULL);
		json_string(&j, "workload", m->workload);
		json_string(&j, "params", m->params);
		json_string(&j, "metric", m->metric);
		json_string(&j, "unit", m->unit);
		json_bool(&j, "higher_is_better", m->higher_is_better);
		json_bool(&j, "diagnostic", m->diagnostic);
		json_string(&j, "machine", m->machine);
		json_string(&j, "placement", m->placement);
		json_string(&j, "autogroup_config", m->autogroup_config);
		json_string(&j, "autogroup_enabled", m->autogroup_enabled);
		json_string(&j, "cgroup", m->cgroup);
		json_array_begin(&j, "stats");
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &m->side[k];

			json_object_begin(&j, NULL);
			json_string(&j, "kernel", r->kernels[k]);
			json_string(&j, "uname", r->unames[k]);
			json_int(&j, "n", (long long)s->n);
			side_files_json(r, s, &j);
			json_double(&j, "mean", s->st.mean);
			json_double(&j, "hmean", s->st.hmean);
			json_double(&j, "median", s->st.median);
			json_double(&j, "stddev", s->st.stddev);
			json_double(&j, "cv", s->st.cv);
			json_double(&j, "min", s->st.min);
			json_double(&j, "max", s->st.max);
			json_double(&j, "ci_low", s->st.ci_low);
			json_double(&j, "ci_high", s->st.ci_high);
			json_double(&j, "cpu_usr", s->cpu_usr);
			json_double(&j, "cpu_sys", s->cpu_sys);
			if (k) {
				json_double(&j, "change_pct", s->change_pct);
				json_double(&j, "p_welch", s->p_welch);
				json_double(&j, "p_mann_whitney", s->p_mwu);
				json_bool(&j, "judged", s->judged);
				json_bool(&j, "paired", r->fam[k].paired);
				json_double(&j, "p_paired", s->p_paired);
				json_double(&j, "p_moderated",
					    s->p_moderated);
				json_bool(&j, "moderated", s->moderated);
				json_double(&j, "p_adjusted", s->p_adjusted);
				json_double(&j, "change_ci_low_pct",
					    s->ci_low_pct);
				json_double(&j, "change_ci_high_pct",
					    s->ci_high_pct);
				json_string(&j, "verdict",
					    verdict_name(s->verdict));
			}
			json_object_end(&j);
		}
		json_array_end(&j);
		json_double(&j, "change_pct", d ? m->side[d].change_pct : NAN);
		json_double(&j, "p_value", d ? metric_p(r, m, d) : NAN);
		json_double(&j, "p_adjusted", d ? m->side[d].p_adjusted : NAN);
		json_string(&j, "verdict", verdict_name(m->verdict));
		json_object_end(&j);
	}
	json_array_end(&j);
	json_string(&j, "verdict", verdict_name(r->verdict));
	job_json(r, &j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/* ---- what the reply says ---- */

/* Append words to out, breaking lines at width columns. */
static void wrap(struct strbuf *out, const char *text, size_t width)
{
	size_t col = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, " ");

		if (col && col + 1 + len > width) {
			strbuf_addch(out, '\n');
			col = 0;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, len);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	strbuf_addch(out, '\n');
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* "1%" for 0.01 */
static void add_pct(struct strbuf *sb, double frac)
{
	strbuf_addf(sb, "%g%%", 100 * frac);
}

/* How a family was judged: the rule, in one sentence. */
static void judged_clause(const struct compare_result *r,
			  const struct compare_family *f, struct strbuf *sb)
{
	const struct compare_opts *o = &r->opts;

	if (f->paired)
		strbuf_addf(sb, "Rule: runs paired by number (%zu block%s), "
			    "t-test of the log ratios", f->pairs,
			    plural(f->pairs));
	else if (f->prior.df > 0)
		strbuf_addstr(sb, "Rule: unpaired, t-test of the logs with "
			      "the variance moderated over the KPIs, its own "
			      "Welch's t-test and Mann-Whitney agreeing");
	else
		strbuf_addstr(sb, "Rule: unpaired, Welch's t-test with "
			      "Mann-Whitney agreeing");
	strbuf_addf(sb, ", Holm-corrected over the %zu KPI%s at ", f->judged,
		    plural(f->judged));
	add_pct(sb, o->plan ? o->plan->alpha : o->alpha);
	strbuf_addf(sb, " family-wise, changes below %g%% not called.",
		    o->plan ? o->plan->min_effect : o->min_effect);
	if (!f->paired || !f->sequential)
		return;
	/* "decided" only when the rule decided; a spent budget did not */
	if (f->state == SEQ_BUDGET) {
		strbuf_addf(sb, " Adaptive runs: %d of at most %d blocks run, "
			    "the budget spent without a decision.", f->blocks,
			    f->max_blocks);
		return;
	}
	strbuf_addf(sb, " Adaptive runs: %s after %d of at most %d blocks",
		    f->state == SEQ_CONTINUE ? "undecided" : "decided",
		    f->blocks, f->max_blocks);
	switch (f->state) {
	case SEQ_REGRESSION:
		strbuf_addstr(sb, ", a regression found.");
		break;
	case SEQ_IMPROVEMENT:
		strbuf_addf(sb, ", the other KPIs within %g%% either way.",
			    o->plan->detect);
		break;
	case SEQ_NO_CHANGE:
		strbuf_addf(sb, ", every KPI within %g%% either way.",
			    o->plan->detect);
		break;
	default:
		strbuf_addstr(sb, "; more blocks wanted.");
		break;
	}
}

/*
 * An excluded change wider than this says nothing a reader can use, nor
 * does any bound from fewer blocks than COMPARE_MIN_PAIRS (a t-test on
 * one degree of freedom): the sentence says the runs were too few.
 */
#define COMPARE_BOUND_MAX 50.0
#define COMPARE_MIN_PAIRS 3

/* The fewest runs a judged KPI of comparison k has on either side. */
static size_t fewest_runs(const struct compare_result *r, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr; i++) {
		const struct compare_metric *m = &r->m[i];
		size_t x = m->side[0].n < m->side[k].n ? m->side[0].n :
							  m->side[k].n;

		if (m->side[k].judged && (!n || x < n))
			n = x;
	}
	return n;
}

/*
 * "changes larger than 3.1% are excluded at 95%" over the rest KPIs
 * without a call, or that the runs were too few to bound anything.
 */
static void excluded_clause(const struct compare_result *r, size_t k,
			    size_t rest, struct strbuf *sb)
{
	const struct compare_family *f = &r->fam[k];
	size_t n;

	if (f->excluded_pct <= COMPARE_BOUND_MAX &&
	    (!f->paired || f->pairs >= COMPARE_MIN_PAIRS)) {
		strbuf_addf(sb, "changes larger than %.1f%% are excluded at "
			    "95%%", f->excluded_pct);
		if (rest > 1)
			strbuf_addf(sb, " (all %zu at once)", rest);
		return;
	}
	n = f->paired ? f->pairs : fewest_runs(r, k);
	if (f->paired)
		strbuf_addf(sb, "too few runs (%zu block%s) to bound the "
			    "change", n, plural(n));
	else
		strbuf_addf(sb, "too few runs (%zu a side) to bound the "
			    "change", n);
}

static void family_verdict(const struct compare_result *r, size_t k,
			   struct strbuf *sb)
{
	const struct compare_family *f = &r->fam[k];
	size_t rest = f->judged - f->worse - f->better;

	if (f->worse) {
		strbuf_addf(sb, "regression, %zu of %zu KPI%s got "
			    "significantly worse", f->worse, f->judged,
			    plural(f->judged));
		if (f->better)
			strbuf_addf(sb, " and %zu better", f->better);
	} else if (f->better) {
		strbuf_addf(sb, "improvement, %zu of %zu KPI%s got "
			    "significantly better and none worse",
			    f->better, f->judged, plural(f->judged));
	} else if (f->noisy) {
		strbuf_addf(sb, "no significant regression, but %zu of %zu "
			    "KPI%s %s too noisy to judge changes below %g%%",
			    f->noisy, f->judged, plural(f->judged),
			    f->noisy == 1 ? "was" : "were",
			    r->opts.noisy_pct);
	} else if (f->judged) {
		strbuf_addf(sb, "no significant change in the %zu KPI%s "
			    "judged", f->judged, plural(f->judged));
	} else {
		strbuf_addstr(sb, "nothing judged, no KPI has two runs on "
			      "both sides");
	}
	if (!isnan(f->excluded_pct) && rest) {
		if ((f->worse || f->better) && rest == 1)
			strbuf_addstr(sb, "; in the other KPI, ");
		else if (f->worse || f->better)
			strbuf_addf(sb, "; in the other %zu, ", rest);
		else
			strbuf_addstr(sb, "; ");
		excluded_clause(r, k, rest, sb);
	}
	strbuf_addch(sb, '.');
}

void compare_verdict(const struct compare_result *r, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k;

	if (r->nr_kernels < 2 || !r->fam) {
		wrap(out, "Verdict: nothing to compare.", 72);
		return;
	}
	strbuf_addstr(&sb, "Verdict: ");
	if (r->nr_kernels == 2) {
		family_verdict(r, 1, &sb);
	} else {
		strbuf_addf(&sb, "%s.", verdict_name(r->verdict));
		for (k = 1; k < r->nr_kernels; k++) {
			strbuf_addf(&sb, " %s against %s: ", r->kernels[k],
				    r->kernels[0]);
			family_verdict(r, k, &sb);
		}
	}
	strbuf_addch(&sb, ' ');
	judged_clause(r, &r->fam[1], &sb);
	wrap(out, sb.buf, 72);
	strbuf_release(&sb);
}

void compare_list(const struct compare_result *r, enum verdict which,
		  struct strbuf *out)
{
	size_t i, k;

	for (k = 1; r->fam && k < r->nr_kernels; k++)
		for (i = 0; i < r->nr; i++) {
			const struct compare_metric *m = &r->m[i];
			const struct compare_side *s = &m->side[k];

			if (s->verdict != which)
				continue;
			strbuf_addf(out, "- %s %s%s%s%s%s%s: %+.1f%%, %s is "
				    "better", m->workload, m->metric,
				    *m->params ? " " : "", m->params,
				    *m->machine ? " (" : "", m->machine,
				    *m->machine ? ")" : "", s->change_pct,
				    m->higher_is_better ? "higher" : "lower");
			if (r->nr_kernels > 2)
				strbuf_addf(out, ", %s", r->kernels[k]);
			if (r->fam[k].paired)
				strbuf_addf(out, "\n  (paired t p = %.2g, "
					    "Holm-adjusted p = %.2g)\n",
					    s->p_paired, s->p_adjusted);
			else if (!isnan(s->p_moderated))
				strbuf_addf(out, "\n  (moderated t p = %.2g, "
					    "Welch p = %.2g, Mann-Whitney "
					    "p = %.2g,\n  Holm-adjusted "
					    "p = %.2g)\n", s->p_moderated,
					    s->p_welch, s->p_mwu,
					    s->p_adjusted);
			else
				strbuf_addf(out, "\n  (Welch p = %.2g, "
					    "Mann-Whitney p = %.2g, "
					    "Holm-adjusted p = %.2g)\n",
					    s->p_welch, s->p_mwu,
					    s->p_adjusted);
		}
}

void compare_rule(const struct compare_result *r, struct strbuf *out)
{
	const struct compare_opts *o = &r->opts;
	const struct compare_family *f = r->fam && r->nr_kernels > 1 ?
					 &r->fam[1] : NULL;
	size_t k, judged = 0;

	strbuf_addf(out, "rule: change >= %g%%, ",
		    o->plan ? o->plan->min_effect : o->min_effect);
	if (!f) {
		strbuf_addstr(out, "nothing judged");
		return;
	}
	for (k = 1; k < r->nr_kernels; k++)
		if (r->fam[k].judged > judged)
			judged = r->fam[k].judged;
	if (f->paired && f->sequential)
		strbuf_addf(out, "paired t, %d of <=%d blocks", f->blocks,
			    f->max_blocks);
	else if (f->paired)
		strbuf_addf(out, "paired t on %zu blocks", f->pairs);
	else if (f->prior.df > 0)
		strbuf_addstr(out, "moderated t, Welch + Mann-Whitney");
	else
		strbuf_addstr(out, "Welch + Mann-Whitney");
	strbuf_addf(out, ", Holm over %zu KPI%s at ", judged, plural(judged));
	add_pct(out, o->plan ? o->plan->alpha : o->alpha);
}

/*
 * cpu_idle of each side, like cpu_usr and cpu_sys: a run's summary row
 * when it has one, else the mean of its samples; then the mean of runs.
 * A pass of its own, after compare_run has grouped and judged.
 */
struct idle_run {
	int run, src;
	double sum, summary;
	size_t cnt;
};

static void compare_cpu_idle(const struct sample_set *set,
			     struct compare_result *r)
{
	struct idle_run *runs = NULL;
	size_t g, k, i, j, nr, alloc = 0;
	int src;

	for (g = 0; g < r->nr; g++) {
		struct compare_metric *m = &r->m[g];

		for (k = 0; k < r->nr_kernels; k++) {
			double sum = 0;
			size_t nr_runs = 0;

			for (nr = 0, i = 0; i < set->nr; i++) {
				const struct sample *s = &set->v[i];

				if (isnan(s->cpu_idle) ||
				    strcmp(s->label, r->kernels[k]) ||
				    !same_group(m, s))
					continue;
				src = source_of(set, i);
				for (j = 0; j < nr && (runs[j].run != s->run ||
						       runs[j].src != src); j++)
					;
				if (j == nr) {
					ALLOC_GROW(runs, nr, alloc);
					runs[nr].run = s->run;
					runs[nr].src = src;
					runs[nr].sum = 0;
					runs[nr].cnt = 0;
					runs[nr++].summary = NAN;
				}
				if (s->sample == 0)
					runs[j].summary = s->cpu_idle;
				runs[j].sum += s->cpu_idle;
				runs[j].cnt++;
			}
			for (j = 0; j < nr; j++, nr_runs++)
				sum += isnan(runs[j].summary) ?
				       runs[j].sum / runs[j].cnt :
				       runs[j].summary;
			m->side[k].cpu_idle = nr_runs ? sum / nr_runs : NAN;
		}
	}
	free(runs);
}

/*
 * log(1 + v) of each value, for counts that vary by factors; NULL when
 * a value is negative (not a count, time or rate).
 */
static double *log1p_values(const double *v, size_t n)
{
	double *l = xcalloc(n, sizeof(*l));
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(v[i] >= 0)) {
			free(l);
			return NULL;
		}
		l[i] = log1p(v[i]);
	}
	return l;
}

/*
 * A count that moves by a factor (wake-ups to another CPU from a few to
 * thousands a run) is noisy on either side as a percentage of its mean,
 * yet its change is plain: on the log scale the two sides' 95%
 * intervals lie apart and Welch's test there is below alpha.
 */
static int diag_apart(const struct compare_opts *o,
		      const struct compare_side *b,
		      const struct compare_side *s)
{
	double *lb = log1p_values(b->values, b->n);
	double *ls = log1p_values(s->values, s->n);
	struct stats sb, ss;
	struct welch w;
	int apart = 0;

	if (lb && ls) {
		stats_compute(lb, b->n, &sb);
		stats_compute(ls, s->n, &ss);
		apart = (sb.ci_high < ss.ci_low || ss.ci_high < sb.ci_low) &&
			!stats_welch(lb, b->n, ls, s->n, &w) && w.p < o->alpha;
	}
	free(lb);
	free(ls);
	return apart;
}

/*
 * Whether a diagnostic row changed enough to show: the per-metric rule
 * (effect and Mann-Whitney agreeing, with Welch's test on a row that is
 * not noisy, or the two sides apart on the log scale), uncorrected on
 * purpose, since a shown diagnostic never decides anything.
 */
static int diag_changed(const struct compare_opts *o,
			const struct compare_side *b,
			const struct compare_side *s)
{
	struct welch w;
	struct mann_whitney mw;
	double change;

	if (b->n < 2 || s->n < 2 || b->st.mean == 0)
		return 0;
	change = 100 * (s->st.mean - b->st.mean) / fabs(b->st.mean);
	if (!isfinite(change) || fabs(change) < o->min_effect ||
	    stats_mann_whitney(b->values, b->n, s->values, s->n, &mw) ||
	    !(mw.p < o->rank_alpha))
		return 0;
	if (ci_pct(&b->st) <= o->noisy_pct && ci_pct(&s->st) <= o->noisy_pct &&
	    !stats_welch(b->values, b->n, s->values, s->n, &w) &&
	    w.p < o->alpha)
		return 1;
	return diag_apart(o, b, s);
}

int compare_diag_changed(const struct compare_result *r,
			 const struct compare_metric *m, size_t k)
{
	return m->diagnostic && k > 0 && k < r->nr_kernels &&
	       diag_changed(&r->opts, &m->side[0], &m->side[k]);
}

int compare_row_shown(const struct compare_result *r,
		      const struct compare_metric *m)
{
	size_t k;

	if (!m->diagnostic || r->opts.all_diag)
		return 1;
	for (k = 1; k < r->nr_kernels; k++)
		if (diag_changed(&r->opts, &m->side[0], &m->side[k]))
			return 1;
	return 0;
}

/* ---- the reply's one-line summary ---- */

struct moved {
	const struct compare_metric *m;
	size_t k;
};

/* Regressions first, then by the size of the change, largest first. */
static int moved_cmp(const void *a, const void *b)
{
	const struct moved *x = a, *y = b;
	const struct compare_side *sx = &x->m->side[x->k];
	const struct compare_side *sy = &y->m->side[y->k];
	int rx = sx->verdict == VERDICT_REGRESSION;
	int ry = sy->verdict == VERDICT_REGRESSION;

	if (rx != ry)
		return ry - rx;
	if (fabs(sx->change_pct) != fabs(sy->change_pct))
		return fabs(sx->change_pct) < fabs(sy->change_pct) ? 1 : -1;
	return 0;
}

/* "-12.4% regression of spawn.lps (groups=4, on MACHINE)", as the
 * robot says it. */
static void moved_phrase(const struct compare_result *r,
			 const struct moved *mv, struct strbuf *out)
{
	const struct compare_metric *m = mv->m;
	const struct compare_side *s = &m->side[mv->k];

	strbuf_addf(out, "%+.1f%% %s of %s.%s", s->change_pct,
		    s->verdict == VERDICT_REGRESSION ? "regression" :
		    "improvement", m->workload, m->metric);
	if (*m->params || *m->machine)
		strbuf_addf(out, " (%s%s%s%s)", m->params,
			    *m->params && *m->machine ? ", " : "",
			    *m->machine ? "on " : "", m->machine);
	if (r->nr_kernels > 2)
		strbuf_addf(out, ", %s", r->kernels[mv->k]);
}

void compare_summary(const struct compare_result *r, struct strbuf *out)
{
	struct strbuf rule = STRBUF_INIT;
	struct moved *mv = NULL;
	size_t i, k, nr = 0, alloc = 0;

	for (k = 1; r->fam && k < r->nr_kernels; k++)
		for (i = 0; i < r->nr; i++) {
			enum verdict v = r->m[i].side[k].verdict;

			if (r->m[i].diagnostic || (v != VERDICT_REGRESSION &&
						   v != VERDICT_IMPROVEMENT))
				continue;
			ALLOC_GROW(mv, nr, alloc);
			mv[nr].m = &r->m[i];
			mv[nr++].k = k;
		}
	if (!nr)
		return;
	qsort(mv, nr, sizeof(*mv), moved_cmp);
	strbuf_addstr(out, "lead: ");
	moved_phrase(r, &mv[0], out);
	strbuf_addf(out, "\ntestcase: %s\nparams: %s\n", mv[0].m->workload,
		    mv[0].m->params);
	compare_rule(r, &rule);
	strbuf_addf(out, "rule: %s\n", skip_prefix_ci(rule.buf, "rule: ") ?
		    skip_prefix_ci(rule.buf, "rule: ") : rule.buf);
	for (i = 0; i < nr; i++) {
		strbuf_addstr(out, "moved: ");
		moved_phrase(r, &mv[i], out);
		strbuf_addch(out, '\n');
	}
	compare_why(r, 3, "why: ", out);
	free(mv);
	strbuf_release(&rule);
}
