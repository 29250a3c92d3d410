// SPDX-License-Identifier: GPL-2.0
/*
 * sequential.c - the family verdict over paired KPIs, look by look.
 * The rule is described in sequential.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sequential.h"
#include "util.h"

static struct seq_defaults defaults;
static int configured;

void seq_configure(const struct seq_defaults *d)
{
	defaults = *d;
	configured = 1;
}

void seq_plan_init(struct seq_plan *p)
{
	if (!configured)
		die("BUG: seq_plan_init() before seq_configure()");
	memset(p, 0, sizeof(*p));
	p->min_blocks = defaults.min_blocks;
	p->max_blocks = defaults.max_blocks;
	if (p->min_blocks < 2)
		p->min_blocks = 2;
	if (p->max_blocks < p->min_blocks)
		p->max_blocks = p->min_blocks;
	p->alpha = defaults.alpha;
	p->guard_alpha = defaults.guard_alpha;
	p->min_effect = defaults.min_effect;
	p->detect = defaults.detect;
	p->noisy_pct = defaults.noisy_pct;
	p->confidence = 0.95;
	/* spend early: most changes worth finding are found by block 10 */
	p->rho = 0.5;
	/*
	 * The family's variance counts for at most 30 degrees of freedom:
	 * with 20 KPIs at 7 df each it would otherwise be taken as exact,
	 * and one KPI noisier than the others judged by the others.
	 */
	p->prior_df_max = 30;
}

void seq_plan_init_fixed(struct seq_plan *p)
{
	seq_plan_init(p);
	p->fixed = 1;
}

double seq_spend(const struct seq_plan *p, int k)
{
	int lo = p->min_blocks, hi = p->max_blocks;
	double span;

	if (p->fixed)
		return 1;
	if (hi < lo)
		hi = lo;
	if (k < lo || k > hi)
		return 0;
	span = hi - lo + 1;
	return pow((k - lo + 1) / span, p->rho) -
	       pow((k - lo) / span, p->rho);
}

const char *seq_state_name(enum seq_state s)
{
	switch (s) {
	case SEQ_REGRESSION:
		return "regression";
	case SEQ_IMPROVEMENT:
		return "improvement";
	case SEQ_NO_CHANGE:
		return "no change";
	case SEQ_BUDGET:
		return "budget";
	default:
		return "continue";
	}
}

/* The running state of one KPI over the looks. */
struct kpi_run {
	double mean, s2, se, df;	/* at the current look, moderated */
	size_t m;			/* pairs at the current look */
	int ok;				/* judged at the current look */
	int own;			/* variance beyond the prior: not moderated */
	double t_own_p;
	double seq_worse, seq_better, seq_own;
	double adj_worse, adj_better;
};

static int kpi_finite(const struct seq_kpi *k, size_t m)
{
	size_t i;

	for (i = 0; i < m; i++)
		if (!isfinite(k->d[i]))
			return 0;
	return 1;
}

static double pct(double logratio)
{
	return 100 * expm1(logratio);
}

/* One-sided P(T <= t). */
static double lower(double t, double df)
{
	return stats_t_cdf(t, df);
}

/* Equivalence: both one-sided tests at gamma, the CI within +-detect. */
static int settled(const struct seq_plan *plan, const struct kpi_run *r,
		   double gamma)
{
	double lo = log1p(-plan->detect / 100), hi = log1p(plan->detect / 100);

	if (!(r->se > 0))
		return r->mean > lo && r->mean < hi;
	return lower((r->mean - lo) / r->se, r->df) >= 1 - gamma &&
	       lower((r->mean - hi) / r->se, r->df) <= gamma;
}

/*
 * Each KPI's own paired t-test on its first m differences (m = k, or
 * all it has on a fixed plan); s2 and df feed the family's prior, NAN
 * and 0 for a KPI not judged.  Returns how many are judged.
 */
static size_t own_tests(const struct seq_plan *plan,
			const struct paired_data *data, int k,
			struct kpi_run *run, double *s2, double *df)
{
	size_t i, judged = 0;

	for (i = 0; i < data->nr; i++) {
		const struct seq_kpi *kp = &data->kpi[i];
		struct kpi_run *r = &run[i];
		struct paired_t own;
		size_t m = plan->fixed ? kp->n : (size_t)k;

		r->ok = 0;
		s2[i] = NAN;
		df[i] = 0;
		if (m > kp->n || m < 2 || !kpi_finite(kp, m))
			continue;
		stats_paired_t(kp->d, m, NULL, &own);
		r->ok = 1;
		r->m = m;
		r->mean = own.mean;
		r->s2 = own.s2;
		r->t_own_p = own.p;
		s2[i] = own.s2;
		df[i] = (double)(m - 1);
		judged++;
	}
	return judged;
}

/*
 * The moderated tests under the prior, and the sequential p-values of
 * "worse" and "better" at spending w, in pw and pb (NAN when not
 * judged), ready for Holm.
 */
static void sequential_p(const struct paired_data *data, double w,
			 const struct seq_decision *out, struct kpi_run *run,
			 double *pw, double *pb)
{
	size_t i;

	for (i = 0; i < data->nr; i++) {
		struct kpi_run *r = &run[i];
		const struct seq_kpi *kp = &data->kpi[i];
		struct paired_t t;
		double sign = kp->higher_is_better ? 1 : -1;

		pw[i] = pb[i] = NAN;
		if (!r->ok)
			continue;
		stats_paired_t(kp->d, r->m, r->own ? NULL : &out->prior, &t);
		r->se = t.se;
		r->df = t.df;
		/* P(a change this bad or worse), P(this good or better) */
		if (t.se > 0) {
			double tail = stats_t_p2(t.t, t.df) / 2;

			pw[i] = sign * t.t < 0 ? tail : 1 - tail;
			pb[i] = sign * t.t > 0 ? tail : 1 - tail;
		} else {
			pw[i] = sign * t.mean < 0 ? 0 : 1;
			pb[i] = sign * t.mean > 0 ? 0 : 1;
		}
		if (w > 0) {
			r->seq_worse = fmin(r->seq_worse, pw[i] / w);
			r->seq_better = fmin(r->seq_better, pb[i] / w);
			r->seq_own = fmin(r->seq_own, r->t_own_p / w);
		}
		pw[i] = r->seq_worse;
		pb[i] = r->seq_better;
	}
}

/*
 * Per KPI, from the Holm-adjusted pw and pb: noisy, the call (once made
 * it stays) and settled; counted in out.  Returns 1 when some KPI is
 * neither called nor settled.
 */
static int make_calls(const struct seq_plan *plan,
		      const struct paired_data *data, int k, double w,
		      double gamma, struct kpi_run *run, const double *pw,
		      const double *pb, struct seq_decision *out)
{
	/*
	 * One look (a fixed number of runs) calls at the family's strict
	 * level, its guard at alpha: that look is all a job of five runs
	 * has.  An adaptive job buys its power with runs and keeps their
	 * budget (a 5% change at CV 2% found in a mean of at most 8 runs a
	 * side): alpha / 2 per direction, the guard at guard_alpha.  Its
	 * price, one KPI at 3x the others' CV called in about 1.9% of
	 * no-change jobs, is paid before the confirmation round that a
	 * regression must pass as well.
	 */
	double level = plan->fixed ?
		seq_direction_level(plan->alpha, &out->prior) : plan->alpha / 2;
	double guard = plan->fixed ? fmin(plan->guard_alpha, plan->alpha) :
		plan->guard_alpha;
	double own_q = NAN;
	size_t own_q_m = 0, i;
	int open = 0;

	for (i = 0; i < data->nr; i++) {
		struct kpi_run *r = &run[i];
		struct seq_kpi_result *res = &out->kpi[i];
		const struct seq_kpi *kp = &data->kpi[i];
		double sign = kp->higher_is_better ? 1 : -1;
		double own_h, chg;

		res->judged = r->ok;
		if (!r->ok)
			continue;
		r->adj_worse = pw[i];
		r->adj_better = pb[i];
		chg = pct(r->mean);
		if (r->m != own_q_m) {
			own_q_m = r->m;
			own_q = stats_t_quantile(0.975, (double)(r->m - 1));
		}
		own_h = own_q * sqrt(r->s2 / r->m);
		res->noisy = !(pct(own_h) <= plan->noisy_pct);
		if (!res->call && !res->noisy && w > 0 &&
		    fabs(chg) >= plan->min_effect &&
		    r->seq_own <= guard) {
			/* alpha is shared by the two directions */
			if (sign * r->mean < 0 &&
			    r->adj_worse <= level)
				res->call = -1;
			else if (sign * r->mean > 0 &&
				 r->adj_better <= level)
				res->call = 1;
			if (res->call)
				res->call_look = plan->fixed ? (int)r->m : k;
		}
		/* the stop needs every KPI settled: once one is open, the
		 * others need not be tested (fill() does at the end)
		 */
		res->settled = !open && !res->call &&
			       settled(plan, r, gamma);
		out->worse += res->call < 0;
		out->better += res->call > 0;
		out->noisy += res->noisy;
		if (!res->call && !res->settled)
			open = 1;
	}
	return open;
}

/*
 * Evaluate look k (fixed plan: k = 0, each KPI at its own n): tests,
 * sequential p-values, Holm, calls.  Returns the state at this look.
 */
static enum seq_state look(const struct seq_plan *plan,
			   const struct paired_data *data, int k,
			   struct kpi_run *run, struct seq_decision *out)
{
	size_t nr = data->nr, judged, i;
	double *s2 = xcalloc(nr, sizeof(double));
	double *df = xcalloc(nr, sizeof(double));
	double *pw = xcalloc(nr, sizeof(double));
	double *pb = xcalloc(nr, sizeof(double));
	int *own = xcalloc(nr, sizeof(int));
	double w = seq_spend(plan, k);
	double gamma;
	enum seq_state st;
	int open;

	judged = own_tests(plan, data, k, run, s2, df);
	/* a KPI whose variance the prior does not describe keeps its own */
	stats_prior_fit_robust(s2, df, nr, plan->prior_df_max, plan->alpha,
			       &out->prior, own);
	for (i = 0; i < nr; i++)
		run[i].own = own[i];
	/* simultaneous over the family: Bonferroni, two-sided */
	gamma = (1 - plan->confidence) / (2 * (judged ? judged : 1));
	sequential_p(data, w, out, run, pw, pb);
	stats_holm(pw, nr, pw);
	stats_holm(pb, nr, pb);
	out->worse = out->better = out->noisy = out->settled = 0;
	out->judged = judged;
	open = make_calls(plan, data, k, w, gamma, run, pw, pb, out);
	free(s2);
	free(df);
	free(own);
	free(pw);
	free(pb);
	if (out->worse)
		st = SEQ_REGRESSION;
	else if (!open && judged)
		st = out->better ? SEQ_IMPROVEMENT : SEQ_NO_CHANGE;
	else if (plan->fixed || k >= plan->max_blocks)
		st = SEQ_BUDGET;
	else
		st = SEQ_CONTINUE;
	return st;
}

/* The numbers of the deciding look, and the excluded change. */
static void fill(const struct seq_plan *plan, const struct paired_data *data,
		 const struct kpi_run *run, struct seq_decision *out)
{
	size_t i, judged = out->judged ? out->judged : 1;
	double gamma = (1 - plan->confidence) / (2 * judged), q_df = NAN;
	double q = NAN;

	out->excluded_pct = NAN;
	for (i = 0; i < data->nr; i++) {
		const struct kpi_run *r = &run[i];
		struct seq_kpi_result *res = &out->kpi[i];
		int worse;

		res->n = r->ok ? r->m : 0;
		if (!r->ok) {
			res->change_pct = res->ci_low_pct = NAN;
			res->ci_high_pct = res->p = res->p_own = NAN;
			res->p_seq = res->p_adj = res->p_own_seq = NAN;
			continue;
		}
		if (r->df != q_df) {
			q_df = r->df;
			q = stats_t_quantile(1 - gamma, r->df);
		}
		worse = (data->kpi[i].higher_is_better ? 1 : -1) * r->mean < 0;
		res->change_pct = pct(r->mean);
		res->ci_low_pct = pct(r->mean - q * r->se);
		res->ci_high_pct = pct(r->mean + q * r->se);
		res->p = r->se > 0 ? stats_t_p2(r->mean / r->se, r->df) :
			 (r->mean == 0 ? 1 : 0);
		res->p_own = r->t_own_p;
		res->p_seq = fmin(1, worse ? r->seq_worse : r->seq_better);
		res->p_adj = worse ? r->adj_worse : r->adj_better;
		res->p_own_seq = fmin(1, r->seq_own);
		res->settled = !res->call && settled(plan, r, gamma);
		out->settled += res->settled;
		if (res->call)
			continue;
		if (isnan(out->excluded_pct) ||
		    fabs(res->ci_low_pct) > out->excluded_pct)
			out->excluded_pct = fabs(res->ci_low_pct);
		if (fabs(res->ci_high_pct) > out->excluded_pct)
			out->excluded_pct = fabs(res->ci_high_pct);
	}
}

int seq_decide(const struct seq_plan *plan, const struct paired_data *data,
	       struct seq_decision *out)
{
	struct kpi_run *run;
	size_t i, nmax = 0;
	int k, first;

	memset(out, 0, sizeof(*out));
	if (!data->nr)
		return -1;
	out->nr = data->nr;
	out->kpi = xcalloc(data->nr, sizeof(*out->kpi));
	run = xcalloc(data->nr, sizeof(*run));
	for (i = 0; i < data->nr; i++) {
		run[i].seq_worse = run[i].seq_better = INFINITY;
		run[i].seq_own = INFINITY;
		if (data->kpi[i].n > nmax)
			nmax = data->kpi[i].n;
	}
	if (plan->fixed) {
		out->state = look(plan, data, 0, run, out);
		out->blocks = (int)nmax;
		goto done;
	}
	/* too few blocks yet: describe what there is, spend nothing */
	first = nmax < (size_t)plan->min_blocks ? (int)nmax : plan->min_blocks;
	for (k = first; k <= (int)nmax; k++) {
		out->state = look(plan, data, k, run, out);
		out->blocks = k;
		if (k < plan->min_blocks)
			out->state = SEQ_CONTINUE;
		if (out->state != SEQ_CONTINUE)
			break;
	}
done:
	fill(plan, data, run, out);
	free(run);
	return 0;
}

void seq_decision_release(struct seq_decision *d)
{
	free(d->kpi);
	memset(d, 0, sizeof(*d));
}
