// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - group samples, compute statistics, judge each metric.
 * The rules are described in compare.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "json.h"

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

void compare_opts_init(struct compare_opts *o)
{
	o->all_diag = 0;
	o->min_effect = config_get_number("compare.minEffect");
	o->alpha = config_get_number("compare.alpha");
	o->rank_alpha = config_get_number("compare.rankAlpha");
	o->noisy_pct = config_get_number("compare.noisyPct");
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

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int nr_labels(const struct sample_set *set, size_t from,
		     const char **first)
{
	size_t i;

	*first = from < set->nr ? set->v[from].label : NULL;
	for (i = from; i < set->nr; i++)
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
	for (i = 0; i < nr; i++)
		if (nr_labels(set, start[i], &li) != 1)
			single = 0;
	for (i = 0; single && i < nr; i++)
		for (j = i + 1; j < nr; j++) {
			nr_labels(set, start[i], &li);
			nr_labels(set, start[j], &lj);
			if (!strcmp(li, lj))
				clash = 1;
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

static void add_to_run(struct acc *a, const struct sample *s, size_t idx)
{
	struct run_acc *ra = NULL;
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (a->runs[i].run == s->run)
			ra = &a->runs[i];
	if (!ra) {
		ALLOC_GROW(a->runs, a->nr, a->alloc);
		ra = &a->runs[a->nr++];
		memset(ra, 0, sizeof(*ra));
		ra->run = s->run;
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
	for (i = 0; i < a->nr; i++) {
		const struct run_acc *ra = &a->runs[i];

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
	sd->p_welch = sd->p_mwu = NAN;
	sd->verdict = VERDICT_NONE;
}

static double ci_pct(const struct stats *st)
{
	if (st->mean == 0)
		return INFINITY;
	return 100 * (st->ci_high - st->mean) / fabs(st->mean);
}

static void judge(const struct compare_opts *o, int higher_is_better,
		  const struct compare_side *b, struct compare_side *s)
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
	/* NAN-safe: infinite or undefined spreads count as noisy too */
	if (!(ci_pct(&b->st) <= o->noisy_pct) ||
	    !(ci_pct(&s->st) <= o->noisy_pct) || !isfinite(s->change_pct)) {
		s->verdict = VERDICT_NOISY;
		return;
	}
	if (fabs(s->change_pct) >= o->min_effect && s->p_welch < o->alpha &&
	    s->p_mwu < o->rank_alpha)
		s->verdict = s->better_pct > 0 ? VERDICT_IMPROVEMENT :
						 VERDICT_REGRESSION;
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
	for (k = 0; m->side && k < nr_kernels; k++)
		free(m->side[k].values);
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
	}
	free(r->kernels);
	free(r->unames);
	memset(r, 0, sizeof(*r));
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

int compare_run(const struct sample_set *set, const struct compare_opts *o,
		struct compare_result *r)
{
	struct acc **acc = NULL;	/* [group][kernel] */
	size_t i, k, g, alloc_k = 0, alloc_g = 0, max_k;
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
	for (i = 0; i < set->nr; i++) {
		const struct sample *s = &set->v[i];
		struct compare_metric *m = NULL;

		k = label_index(r, s, &alloc_k);
		for (g = 0; g < r->nr; g++)
			if (same_group(&r->m[g], s)) {
				m = &r->m[g];
				break;
			}
		if (!m) {
			if (r->nr >= alloc_g) {
				alloc_g = alloc_g ? 2 * alloc_g : 8;
				r->m = xrealloc(r->m, alloc_g * sizeof(*r->m));
				acc = xrealloc(acc, alloc_g * sizeof(*acc));
			}
			m = &r->m[r->nr];
			memset(m, 0, sizeof(*m));
			acc[r->nr] = xcalloc(max_k, sizeof(**acc));
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
			m->autogroup_enabled =
				xstrdup(nz(s->autogroup_enabled));
			m->cgroup = xstrdup(nz(s->cgroup));
		} else if (m->higher_is_better != s->higher_is_better) {
			char *w = where(set, i);

			ret = error("%scolumn 'higher_is_better': %s %s "
				    "was %d before", w, s->workload,
				    s->metric, m->higher_is_better);
			free(w);
			goto out;
		}
		add_to_run(&acc[m - r->m][k], s, i);
	}
	for (g = 0; g < r->nr; g++) {
		struct compare_metric *m = &r->m[g];

		m->side = xcalloc(r->nr_kernels, sizeof(*m->side));
		for (k = 0; k < r->nr_kernels; k++) {
			struct acc *a = &acc[g][k];

			if (a->nr == 1 && !ret) {
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
		for (k = 1; k < r->nr_kernels; k++) {
			judge(o, m->higher_is_better, &m->side[0],
			      &m->side[k]);
			if (m->diagnostic)
				m->side[k].verdict = VERDICT_NONE;
			if (m->side[k].verdict > m->verdict)
				m->verdict = m->side[k].verdict;
		}
		if (m->verdict > r->verdict)
			r->verdict = m->verdict;
	}
	if (!ret)
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
				json_string(&j, "verdict",
					    verdict_name(s->verdict));
			}
			json_object_end(&j);
		}
		json_array_end(&j);
		json_double(&j, "change_pct", d ? m->side[d].change_pct : NAN);
		json_double(&j, "p_value", d ? m->side[d].p_welch : NAN);
		json_string(&j, "verdict", verdict_name(m->verdict));
		json_object_end(&j);
	}
	json_array_end(&j);
	json_string(&j, "verdict", verdict_name(r->verdict));
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/*
 * cpu_idle of each side, like cpu_usr and cpu_sys: a run's summary row
 * when it has one, else the mean of its samples; then the mean of runs.
 * A pass of its own, after compare_run has grouped and judged.
 */
struct idle_run {
	int run;
	double sum, summary;
	size_t cnt;
};

static void compare_cpu_idle(const struct sample_set *set,
			     struct compare_result *r)
{
	struct idle_run *runs = NULL;
	size_t g, k, i, j, nr, alloc = 0;

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
				for (j = 0; j < nr && runs[j].run != s->run; j++)
					;
				if (j == nr) {
					ALLOC_GROW(runs, nr, alloc);
					runs[nr].run = s->run;
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

int compare_row_shown(const struct compare_result *r,
		      const struct compare_metric *m)
{
	size_t k;

	if (!m->diagnostic || r->opts.all_diag)
		return 1;
	/* judged like a KPI, on a copy: diagnostics keep VERDICT_NONE */
	for (k = 1; k < r->nr_kernels; k++) {
		struct compare_side s = m->side[k];

		judge(&r->opts, m->higher_is_better, &m->side[0], &s);
		if (s.verdict == VERDICT_IMPROVEMENT ||
		    s.verdict == VERDICT_REGRESSION)
			return 1;
	}
	return 0;
}
