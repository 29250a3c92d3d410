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
 * otherwise the mean of its per-second samples (sample >= 1).  A run
 * is keyed by its file (compare_read_files) and its run number: a label
 * read from two files (two boots of one kernel, runs 1..4 in each) has
 * the runs of both, and runs pair only within a file.
 *
 * The verdict is the job's, over a family: the judged KPIs of a
 * comparison (a kernel against the baseline) are the metrics that are
 * not diagnostics ("diag.*", never judged) with at least two runs on
 * both sides.  They are judged together, so that the chance that a job
 * with no real change calls anything stays at compare.alpha whatever
 * the number of KPIs:
 *
 *   paired       (runs interleaved A B A B in one job: one source, and
 *                the run numbers of one side all on the other side;
 *                compare.pairing) run i of both kernels is a block,
 *                runs without their pair are left out; per KPI the log
 *                ratios of the blocks are tested with the paired t-test,
 *                the variance moderated over the family, and its own
 *                paired t must agree at compare.alpha (or
 *                compare.rankAlpha, if smaller), as if it were the
 *                only KPI: see
 *                sequential.h, which also judges adaptive runs look by
 *                look (compare_opts.plan).
 *   unpaired     (two arbitrary CSVs) per KPI the pooled two-sample
 *                t-test of the logs of the runs (values relative to the
 *                base mean when one is not positive), the variance
 *                moderated by a prior fitted over the family's KPIs as
 *                the paired family's is (stats_prior_fit_robust, the
 *                df cap of seq_plan); its own Welch t-test must agree
 *                at compare.alpha (as if it were the only KPI: a KPI
 *                noisier than the family calls a change with
 *                probability <= alpha) and the Mann-Whitney U test at
 *                compare.rankAlpha (uncorrected: they only ever remove
 *                calls).  Without a prior (fewer than 3 KPIs) the
 *                family's test is each KPI's Welch t-test.
 *
 * Either way a KPI whose own variance is improbably large for the
 * family's prior (its upper tail, stats_prior_tail, below compare.alpha)
 * is not moderated: it keeps its own variance, and the prior is fitted
 * again without it, so that one KPI far noisier than the rest neither
 * borrows their variance nor makes them look more unlike than they are.
 *
 * The one-sided p-values in each direction are adjusted with Holm's
 * step-down over the family, one family for regressions and one for
 * improvements, each at a quarter of compare.alpha (seq_direction_level;
 * default 0.01 for both directions together, as a two-sided test has
 * it), at half of it when no prior was fitted (fewer than 3 KPIs: every
 * test is then exact on its own).  A quarter and not a half: the moderated t is exact only when the
 * KPIs' variances follow the fitted prior, and they do not quite (CVs
 * spread evenly from 0.7% to 5.4%, or one KPI two or three times
 * noisier than the rest and not told apart by its few runs, gave up to
 * 1.4 times the nominal rate); the half of alpha left over is that
 * allowance, and each KPI's own test at alpha bounds what one badly
 * described KPI costs.  `make bench` shows the rates: at most 0.9% of
 * jobs with no change call anything in any of those settings.  Holm rather
 * than Benjamini-Hochberg because a reply names each regression it
 * reports, so every one of them must hold (family-wise error, strong
 * control, any dependence between the KPIs), and with one changed KPI
 * among many BH would reject exactly what Holm does anyway.
 *
 * A KPI is
 *   noisy        when its 95% CI is wider than compare.noisyPct (10)
 *                percent: of either side's mean (unpaired) or of the
 *                paired change (paired);
 *   improvement / regression
 *                when not noisy, |change| >= compare.minEffect (2)
 *                percent, its Holm-adjusted p <= that level
 *                and the guard test agrees;
 *   no significant change otherwise.
 * The excluded change of a comparison is the largest bound of the
 * simultaneous 95% CIs (Bonferroni over the family) of the changes of
 * its KPIs without a call: "changes larger than 3.1% are excluded"; a
 * bound over 50% or from fewer than 3 blocks bounds nothing useful, and
 * the sentence says "too few runs (2 blocks) to bound the change".
 *
 * change_pct is 100 * (mean - base) / base (the raw direction);
 * better_pct has the sign turned so that positive is always better
 * (higher_is_better from the CSV).  The verdict of a metric is the
 * worst over its sides; the job's verdict: regression if any KPI
 * regressed, else improvement if any improved, else noisy if any was
 * noisy, else no significant change.
 *
 * Adaptive runs, for the job driver: with o.plan = &plan (from
 * seq_plan_init(), the same plan at every call), after each A B block
 * from the second on (compare_run needs two runs a side) read
 * results.csv, compare_run(&set, &o, &r) and ask compare_wants_more(&r)
 * whether to run another block.  When it says no, the same result
 * gives the tables (compare_render), the reply's sentence
 * (compare_verdict), its list of regressions (compare_list) and
 * compare.json (compare_json).
 */
#ifndef SCHED_BOT_COMPARE_H
#define SCHED_BOT_COMPARE_H

#include <stddef.h>

#include "samples.h"
#include "sequential.h"
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

enum compare_pairing {
	PAIRING_AUTO,		/* paired when the data allow it (above) */
	PAIRING_PAIRED,		/* pair the common run numbers, any source */
	PAIRING_UNPAIRED,
};

struct compare_opts {
	double min_effect;	/* percent */
	double alpha;		/* family-wise, both directions */
	double rank_alpha;	/* the guard: Mann-Whitney / own paired t */
	double noisy_pct;	/* CI half-width, percent of the mean */
	enum compare_pairing pairing;
	int all_diag;		/* render every diag.* row (compare --diag) */
	/*
	 * The caller prints compare_verdict() right after the tables (a
	 * reply): the tables leave out their own verdict and rule lines,
	 * so that the verdict is said once.
	 */
	int sentence_follows;
	/*
	 * Show the change the test judged (a job's reply, whose verdict
	 * follows its tables): with runs paired, the paired estimate at
	 * the deciding look, which can differ from the change of the
	 * means even in sign.  Unset, the tables print the change of the
	 * means, as the formats' own tools do (compare's seeds).
	 */
	int judged_change;
	/*
	 * The adaptive plan the runs followed (NULL: a fixed number of
	 * runs, one look).  Paired comparisons then replay its looks;
	 * its alpha, min_effect, guard and noisy level are used.
	 */
	const struct seq_plan *plan;
};

/* The configured part of every compare_opts; the tool fills it. */
struct compare_defaults {
	double min_effect;	/* compare.minEffect */
	double alpha;		/* compare.alpha */
	double rank_alpha;	/* compare.rankAlpha */
	double noisy_pct;	/* compare.noisyPct */
	const char *pairing;	/* compare.pairing: auto, paired, unpaired */
};
/* Before any compare_opts_init(); one made before it is a bug. */
void compare_configure(const struct compare_defaults *d);

/* The compare_defaults, pairing parsed (a bad one warns: auto); plan
 * NULL.
 */
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
	double p_welch, p_mwu;	/* computed paired or not */
	double p_paired;	/* moderated paired t, two-sided, or NAN */
	double p_moderated;	/* unpaired: moderated pooled t, or NAN */
	int moderated;		/* p_moderated under the prior (else the
				 * KPI's variance is beyond it: its own)
				 */
	double p_adjusted;	/* Holm, direction of the change, or NAN */
	double ci_low_pct, ci_high_pct;	/* of the change, simultaneous */
	int judged;		/* in the family */
	enum verdict verdict;
	int *runs;		/* run number of each value */
	int *srcs;		/* and its file (compare_result.files) */
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

/* The family of one comparison: side k against the baseline. */
struct compare_family {
	int paired;
	size_t pairs;		/* blocks (most pairs of a KPI) */
	size_t judged, worse, better, noisy;
	double excluded_pct;	/* NAN: no KPI without a call */
	int sequential;		/* judged by compare_opts.plan */
	enum seq_state state;	/* what the rule says next; unpaired or
				 * one look: never SEQ_CONTINUE
				 */
	int blocks, max_blocks;	/* sequential: deciding look, budget */
	struct stats_prior prior;	/* unpaired: the variances' prior */
};

struct compare_result {
	char **kernels;		/* labels, baseline first */
	char **unames;		/* `kernel` column of each label ("" unknown) */
	size_t nr_kernels;
	struct compare_metric *m;
	size_t nr;
	enum verdict verdict;
	struct compare_opts opts;
	struct compare_family *fam;	/* [nr_kernels], [0] unused */
	int several_sources;	/* read from more than one file */
	/*
	 * The files read (compare_read_files), in order, nr_files 0 when
	 * the set came from elsewhere; a run is its file and run number.
	 */
	char **files;
	size_t nr_files;
	/*
	 * The commit each kernel was built from and its subject, per
	 * kernel, NULL when unknown (compare_name_commit): the formats that
	 * name commits (lkp) print them, others the labels.
	 */
	char **commits, **subjects;
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
 * Name the commit the kernel labelled label was built from (id: its
 * hex, subject: NULL when unknown), for the formats that name commits.
 * A label the result does not hold is ignored.
 */
void compare_name_commit(struct compare_result *r, const char *label,
			 const char *id, const char *subject);

/*
 * Read CSV files for a comparison, appending to set.  When every file
 * holds one label, all the same one, each file's samples are
 * relabelled with the file's name (without directory and ".csv") so
 * that `compare base.csv new.csv` works whatever label `run` wrote.
 * Remembers where each sample came from for compare_run's errors.
 */
int compare_read_files(char **paths, int nr, struct sample_set *set);

/*
 * After a block of adaptive runs (compare_opts.plan set): 1 when the
 * plan wants another block, 0 when it has decided (a regression, an
 * improvement, no change beyond compare.detect, or the budget spent)
 * or the runs are not paired (then the plan does not apply).
 */
int compare_wants_more(const struct compare_result *r);

/*
 * Which rows a table shows: every KPI; a diag.* row only when it changed
 * significantly by the rule above (it is never part of the verdict) or
 * when opts.all_diag asks for all of them.
 */
int compare_row_shown(const struct compare_result *r,
		      const struct compare_metric *m);
/* Whether diagnostic m of kernel k changed significantly by that rule. */
int compare_diag_changed(const struct compare_result *r,
			 const struct compare_metric *m, size_t k);

/* The JSON document of `compare --json` (contrib/pipeline.md). */
void compare_json(const struct compare_result *r, struct strbuf *out);

/*
 * The verdict sentence a reply prints (and `compare` after its table):
 * "Verdict: regression, 1 of 20 KPIs got significantly worse ...", the
 * KPIs judged, the rule, the pairing and the excluded change; wrapped
 * at 72 columns, with a trailing newline.
 */
void compare_verdict(const struct compare_result *r, struct strbuf *out);

/*
 * One item per KPI with the given verdict (VERDICT_REGRESSION or
 * VERDICT_IMPROVEMENT), for the reply's list:
 * "- spawn lps (machine): -22.4%, higher is better\n  (...p...)\n".
 */
void compare_list(const struct compare_result *r, enum verdict which,
		  struct strbuf *out);

/* The rule in one line for the tables: "rule: change >= 2%, ...". */
void compare_rule(const struct compare_result *r, struct strbuf *out);

/*
 * The facts of a reply's one-line summary, as "key: value" lines (the
 * job keeps them in summary.txt for its reply):
 *   lead: -12.4% regression of spawn.lps   the KPI that moved most in
 *                     the direction of the verdict (the worst regression,
 *                     else the best improvement), its params after it
 *   testcase:, params:  the lead's workload and params
 *   rule:            compare_rule() without its "rule: "
 *   moved:           one per KPI with a call, regressions first, each
 *                     direction by the size of its change
 *   why:             the diagnostics that changed most (compare_why)
 * (the job adds "control:", what the alignment control found, align.h)
 * Nothing when no KPI has a call.
 */
void compare_summary(const struct compare_result *r, struct strbuf *out);

/*
 * The diag.* rows with a scheduler name that changed significantly
 * (compare_diag_changed), largest change first, at most max, one line
 * each with prefix before it: "wake-ups to another CPU -41% (pingpong
 * pairs=1)".  Returns how many.
 */
size_t compare_why(const struct compare_result *r, size_t max,
		   const char *prefix, struct strbuf *out);

/*
 * Render as "intel", "amd", "lkp", "mmtests", "matrix", "simple" or
 * "plot" (bot/render.c, bot/plot.c).  Returns -1 for an unknown format
 * or a missing template.
 */
int compare_render(const struct compare_result *r, const char *format,
		   struct strbuf *out);

#endif
