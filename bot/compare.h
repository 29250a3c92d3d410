/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - compare benchmark results of two or more kernels and give
 * a verdict that does not cry wolf.
 *
 * Samples (bot/samples.h) are grouped by workload, params, metric and
 * environment (machine, placement, autogroup config, autogroup enabled,
 * cgroup).  Within a group, each kernel label is one side; the first
 * label in file order is the baseline.  One value per run enters the
 * statistics: the run's summary row (sample == 0) when present,
 * otherwise the mean of its per-second samples (sample >= 1).
 *
 * Verdict of a comparison (a side against the baseline):
 *   noisy        the 95% CI half-width of either side exceeds
 *                compare.noisyPct (default 10) percent of its mean:
 *                the data cannot resolve the changes we judge.
 *   improvement / regression
 *                |change| >= compare.minEffect percent (default 2) AND
 *                Welch's t-test p < compare.alpha (default 0.01) AND
 *                the Mann-Whitney U test agrees, p < 0.05.
 *   no significant change otherwise.
 * Why alpha 0.01: at n = 5 runs a rule at 0.05 calls ~2.4% of A/A
 * comparisons a change even with the minimum effect and rank test;
 * 0.01 keeps it under 1% (see tests/unit/test-compare.c).  The rank
 * test keeps one outlier run from making a verdict.
 *
 * change_pct is 100 * (mean - base) / base (the raw direction);
 * better_pct has the sign turned so that positive is always better
 * (higher_is_better from the CSV).  Overall verdict: regression if any
 * comparison regressed, else improvement if any improved, else noisy if
 * any was noisy, else no significant change.
 */
#ifndef SCHED_BOT_COMPARE_H
#define SCHED_BOT_COMPARE_H

#include <stddef.h>

#include "samples.h"
#include "stats.h"
#include "util.h"

enum verdict {
	VERDICT_NONE,		/* no significant change */
	VERDICT_NOISY,
	VERDICT_IMPROVEMENT,
	VERDICT_REGRESSION,
};

/* "no significant change", "noisy", "improvement", "regression" */
const char *verdict_name(enum verdict v);

struct compare_opts {
	double min_effect;	/* percent */
	double alpha;		/* Welch level */
	double rank_alpha;	/* Mann-Whitney level */
	double noisy_pct;	/* CI half-width, percent of the mean */
	int all_diag;		/* render every diag.* row (compare --diag) */
};

/* Defaults, then config compare.minEffect/alpha/rankAlpha/noisyPct. */
void compare_opts_init(struct compare_opts *o);

/* One kernel's view of a group. */
struct compare_side {
	size_t n;		/* runs; 0 = the kernel has no data here */
	double *values;		/* per-run values */
	struct stats st;
	double cpu_usr, cpu_sys;	/* mean over runs; NAN unknown */
	double cpu_idle;	/* likewise (compare_cpu_idle) */
	/* Against the baseline (zero / NAN / VERDICT_NONE for the base): */
	double change_pct;
	double better_pct;
	double p_welch, p_mwu;
	enum verdict verdict;
};

struct compare_metric {
	char *workload, *params, *metric, *unit;
	int higher_is_better;
	int diagnostic;		/* metric "diag.*": not judged */
	char *machine, *placement, *autogroup_config, *autogroup_enabled,
	     *cgroup;		/* "" when unknown */
	struct compare_side *side;	/* [nr_kernels] */
	enum verdict verdict;	/* worst over the sides (see above) */
};

struct compare_result {
	char **kernels;		/* labels, baseline first */
	char **unames;		/* `kernel` column of each label ("" unknown) */
	size_t nr_kernels;
	struct compare_metric *m;
	size_t nr;
	enum verdict verdict;
	struct compare_opts opts;
};

/*
 * Group, compute and judge.  Needs at least two labels.  Errors (a
 * kernel with fewer than two runs of a metric, ...) are printed naming
 * the sample's file and line when known (see compare_read_files) and
 * return -1.
 */
int compare_run(const struct sample_set *set, const struct compare_opts *o,
		struct compare_result *r);
void compare_result_release(struct compare_result *r);

/*
 * Read CSV files for a comparison, appending to set.  When every file
 * holds one label and two files share it, each file's samples are
 * relabelled with the file's name (without directory and ".csv") so
 * that `compare base.csv new.csv` works whatever label `run` wrote.
 * Remembers where each sample came from for compare_run's errors.
 */
int compare_read_files(char **paths, int nr, struct sample_set *set);

/*
 * Which rows a table shows: every KPI; a diag.* row only when it changed
 * significantly by the rule above (it is never part of the verdict) or
 * when opts.all_diag asks for all of them.
 */
int compare_row_shown(const struct compare_result *r,
		      const struct compare_metric *m);

/* The JSON document described in README (`compare --json`). */
void compare_json(const struct compare_result *r, struct strbuf *out);

/*
 * Render as "intel", "amd", "lkp", "mmtests", "matrix", "simple" or
 * "plot" (bot/render.c, bot/plot.c).  Returns -1 for an unknown format
 * or a missing template.
 */
int compare_render(const struct compare_result *r, const char *format,
		   struct strbuf *out);

#endif
