/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sequential.h - the verdict of a job over its family of paired KPIs,
 * after each interleaved block (adaptive runs) or once (a fixed number
 * of runs).
 *
 * Data: per KPI, one value per block i, d_i = log(new_i / base_i) (the
 * log ratio of the two runs of an interleaved A B block), so that drift
 * between blocks cancels.  Per KPI and look (the first n blocks):
 *
 *   - the paired t-test of mean(d) = 0, its variance moderated by a
 *     prior fitted to the variances of all the KPIs of the look
 *     (Smyth's empirical Bayes t, stats_prior_fit_robust), the prior's
 *     df capped at prior_df_max and at the other KPIs' own df, so that
 *     a KPI's own variance always keeps a weight; a KPI whose variance
 *     is improbably large for the prior (its tail below alpha) keeps
 *     its own and is left out of the fit;
 *   - its own paired t-test alone (no prior), the guard: a KPI is only
 *     called when its own data agree at alpha (or guard_alpha, if
 *     smaller; two-sided), as if it were the job's only KPI, so that a
 *     KPI noisier than the rest of the family, which the prior shrinks,
 *     calls a change with probability <= alpha.
 *
 * Looks and spending: the first look is at min_blocks, the last at
 * max_blocks; look k spends w_k = F(k) - F(k-1) of alpha, with
 * F(k) = ((k - min + 1) / (max - min + 1))^rho (the Lan-DeMets power
 * family; rho = 1 spends evenly, Pocock-like; larger rho saves alpha
 * for the late looks, O'Brien-Fleming-like; the default 0.5 spends
 * early, where a 5% change at CV 2% is found).  A KPI's sequential
 * p-value is min over looks of p_k / w_k, a valid p-value whatever the
 * correlation of the looks (Bonferroni over looks), so that:
 *
 * Family: Holm's step-down over the judged KPIs, one family for each
 * direction, each at alpha / 4 (seq_direction_level; alpha / 2 when no
 * prior could be fitted, every test then exact): whatever the
 * number of KPIs, a job with no real change calls anything (a
 * regression or an improvement) with probability <= alpha / 2 when the
 * variances follow the prior, and the other half of alpha is left for
 * when they do not (compare.h says why).  That is the
 * one look of a fixed number of runs; the adaptive looks call at
 * alpha / 2 with the guard at rankAlpha, for their runs budget
 * (make_calls says why).  Diagnostics
 * are never part of the family (the caller leaves them out).
 *
 * A KPI is called worse (better) at a look when its Holm-adjusted
 * sequential p-value is <= that level, its own sequential p <= alpha (or
 * guard_alpha),
 * |change| >= min_effect percent and it is not noisy (own 95% CI
 * half-width above noisy_pct percent).  A call stays.  A KPI is settled
 * when its simultaneous CI (confidence over the family, Bonferroni, with
 * the moderated variance) lies within +-detect percent: the equivalence
 * (futility) bound.
 *
 * Stopping, at each look in order: any KPI worse -> SEQ_REGRESSION;
 * every judged KPI better or settled -> SEQ_IMPROVEMENT (some better)
 * or SEQ_NO_CHANGE; the budget spent -> SEQ_BUDGET; else SEQ_CONTINUE.
 * The excluded change is the largest bound of the simultaneous CIs of
 * the KPIs without a call at the deciding look: "changes larger than X%
 * are excluded at 95%".
 */
#ifndef SCHED_BOT_SEQUENTIAL_H
#define SCHED_BOT_SEQUENTIAL_H

#include <stddef.h>

#include "stats.h"

struct seq_plan {
	int fixed;		/* one look, at each KPI's own pairs */
	int min_blocks;		/* first look */
	int max_blocks;		/* budget: the last look */
	double alpha;		/* family-wise, both directions together */
	double guard_alpha;	/* a KPI's own paired t, two-sided */
	double min_effect;	/* percent */
	double detect;		/* percent: equivalence margin */
	double confidence;	/* of the excluded change, simultaneous */
	double noisy_pct;	/* own 95% CI half-width, percent */
	double rho;		/* alpha spending exponent */
	double prior_df_max;
};

/* The configured part of every plan; the tool fills it at start-up. */
struct seq_defaults {
	int min_blocks;		/* job.minRuns */
	int max_blocks;		/* job.maxRuns */
	double alpha;		/* compare.alpha */
	double guard_alpha;	/* compare.rankAlpha */
	double min_effect;	/* compare.minEffect */
	double detect;		/* compare.detect */
	double noisy_pct;	/* compare.noisyPct */
};
/* Before any seq_plan_init(); a plan made before it is a bug. */
void seq_configure(const struct seq_defaults *d);

/*
 * The adaptive plan: the seq_defaults (job.minRuns, job.maxRuns,
 * compare.alpha, compare.rankAlpha the guard, compare.minEffect,
 * compare.detect, compare.noisyPct), then the fixed rest.
 */
void seq_plan_init(struct seq_plan *p);
/* The same rule with one look (a job with a fixed number of runs). */
void seq_plan_init_fixed(struct seq_plan *p);

/*
 * The level of each direction's Holm family for a job level alpha:
 * alpha / 2 for the two directions, and, when the family's variances
 * are moderated (a prior was fitted), half of that again, so that the
 * other half is left for KPIs whose variances the prior describes less
 * well than its model says (above).  Without a prior every KPI's test
 * is exact on its own, and Holm at alpha / 2 a direction is the bound.
 */
static inline double seq_direction_level(double alpha,
					 const struct stats_prior *pr)
{
	return pr && pr->df > 0 ? alpha / 4 : alpha / 2;
}

/* The fraction of alpha the plan spends at look k (blocks). */
double seq_spend(const struct seq_plan *p, int k);

struct seq_kpi {
	const double *d;	/* per block, in block order */
	size_t n;		/* blocks */
	int higher_is_better;
};

struct paired_data {
	const struct seq_kpi *kpi;
	size_t nr;
};

enum seq_state {
	SEQ_CONTINUE,		/* run another block */
	SEQ_REGRESSION,		/* stop: a KPI got worse */
	SEQ_IMPROVEMENT,	/* stop: some better, the rest settled */
	SEQ_NO_CHANGE,		/* stop: every KPI within +-detect */
	SEQ_BUDGET,		/* stop: max_blocks spent, KPIs undecided */
};

/* "continue", "regression", "improvement", "no change", "budget" */
const char *seq_state_name(enum seq_state s);

struct seq_kpi_result {
	int judged;		/* had >= 2 finite pairs at the look */
	int call;		/* -1 worse, +1 better, 0 none */
	int call_look;		/* the look of the call */
	int settled;
	int noisy;
	size_t n;		/* pairs at the deciding look */
	double change_pct;	/* 100 (exp(mean d) - 1) */
	double ci_low_pct, ci_high_pct;	/* simultaneous, plan confidence */
	double p;		/* moderated, two-sided, last look */
	double p_own;		/* own paired t, two-sided, last look */
	double p_seq;		/* sequential, direction of the change */
	double p_adj;		/* Holm-adjusted p_seq */
	double p_own_seq;	/* own, sequential */
};

struct seq_decision {
	enum seq_state state;
	int blocks;		/* the deciding look */
	size_t judged, worse, better, noisy, settled;
	double excluded_pct;	/* NAN when nothing is left to exclude */
	struct stats_prior prior;	/* at the deciding look */
	struct seq_kpi_result *kpi;	/* [nr] */
	size_t nr;
};

/*
 * Replay the looks of plan over data, from the first to the last block
 * present, and stop at the first look where the rule stops (a fixed
 * plan: its only look).  Stateless, so a driver calls it after each
 * block with everything measured so far; later blocks than the
 * stopping look are not used.  Returns 0, or -1 without any KPI.
 */
int seq_decide(const struct seq_plan *plan, const struct paired_data *data,
	       struct seq_decision *out);
void seq_decision_release(struct seq_decision *d);

#endif
