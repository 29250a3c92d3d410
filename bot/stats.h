/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - descriptive statistics and two-sample tests for `compare`.
 *
 * Everything is computed here from first principles (no statistics
 * library is allowed): the Student t distribution through the
 * regularized incomplete beta function (continued fraction, modified
 * Lentz), Welch's unequal-variance t-test, the Mann-Whitney U test
 * with its exact null distribution for small samples without ties and
 * the normal approximation with tie correction otherwise, the paired
 * t-test with an optional pooled variance prior (Smyth's moderated t),
 * and Holm's step-down adjustment of a family of p-values.
 */
#ifndef SCHED_BOT_STATS_H
#define SCHED_BOT_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double mean;		/* arithmetic */
	double hmean;		/* harmonic; NAN unless every value > 0 */
	double median;
	double stddev;		/* sample (n - 1); 0 when n < 2 */
	double cv;		/* 100 * stddev / |mean|, in percent */
	double min, max;
	double ci_low, ci_high;	/* 95% CI of the mean (Student t) */
};

/* Fill st from v[0..n-1]; n == 0 gives n = 0 and every value NAN. */
void stats_compute(const double *v, size_t n, struct stats *st);

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
double stats_betai(double a, double b, double x);
/* Student t with df degrees of freedom (df > 0, may be fractional). */
double stats_t_cdf(double t, double df);
/* Two-sided tail P(|T| >= |t|). */
double stats_t_p2(double t, double df);
/* Quantile: the t with stats_t_cdf(t, df) == p, 0 < p < 1. */
double stats_t_quantile(double p, double df);
/* Standard normal CDF. */
double stats_norm_cdf(double z);

/*
 * df may be INFINITY in stats_t_cdf, stats_t_p2 and stats_t_quantile:
 * the standard normal then (a moderated t whose prior is exact).
 */

/* digamma and trigamma, x > 0; the inverse of trigamma, y > 0. */
double stats_digamma(double x);
double stats_trigamma(double x);
double stats_trigamma_inv(double y);

struct welch {
	double t;		/* (mean_b - mean_a) / se */
	double df;		/* Welch-Satterthwaite */
	double p;		/* two-sided */
};

/*
 * Welch's t-test of b against a.  Needs na, nb >= 2; returns -1
 * otherwise.  Two constant samples give p = 1 if their means are equal
 * and p = 0 if not (the difference is then certain, not random).
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct welch *w);

struct mann_whitney {
	double u;		/* pairs (x in a, y in b) with x > y */
	double z;		/* normal score (0 when exact) */
	double p;		/* two-sided */
	int exact;		/* p from the exact null distribution */
};

/*
 * Mann-Whitney U (Wilcoxon rank-sum) test.  Needs na, nb >= 1.  The
 * exact distribution is used when there are no ties and
 * na, nb <= STATS_MWU_EXACT_MAX; otherwise the normal approximation with
 * continuity and tie correction.
 */
#define STATS_MWU_EXACT_MAX 25
int stats_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, struct mann_whitney *m);

/*
 * P(U <= u) under the null for sample sizes m, n (no ties), exact.
 * m, n <= STATS_MWU_EXACT_MAX.
 */
double stats_mwu_cdf(double u, size_t m, size_t n);

/*
 * A scaled inverse chi-square prior for the variances of a family of
 * measurements (Smyth 2004, "Linear models and empirical Bayes methods
 * for assessing differential expression", the limma moderated t): each
 * true variance is s2 * df / chi2(df).  df = 0 means no prior (every
 * measurement on its own), INFINITY a common variance s2.
 */
struct stats_prior {
	double s2;
	double df;
};

/*
 * Fit the prior to n sample variances s2[i] with df[i] degrees of
 * freedom each (moments of log s2, Smyth's section 6.2), its df capped
 * at df_max.  Fewer than 3 usable variances (finite, > 0, df >= 1) give
 * no prior.
 */
void stats_prior_fit(const double *s2, const double *df, size_t n,
		     double df_max, struct stats_prior *pr);

/*
 * The prior of a family (the paired blocks of a job, or the unpaired
 * KPIs of two files): stats_prior_fit with its df capped at df_max and
 * at the other measurements' own df (the sum of the usable df but the
 * largest), so that one measurement's own variance always keeps a
 * weight in its posterior, however many there are.
 */
void stats_prior_fit_family(const double *s2, const double *df, size_t n,
			    double df_max, struct stats_prior *pr);

/*
 * How improbably large the sample variance s2 (df degrees of freedom) is
 * for the prior: P(S2 >= s2) when its true variance is drawn from it,
 * the upper tail of F(df, prior df) at s2 / s0^2.  1 without a prior.
 * A measurement far in this tail is one whose variance the prior does
 * not describe: moderating it would judge it by quieter ones.
 */
double stats_prior_tail(const struct stats_prior *pr, double s2, double df);

/*
 * stats_prior_fit_family, robust to measurements whose variance the
 * prior does not describe: those whose tail (stats_prior_tail) is below
 * level get own[i] = 1, the prior is fitted again without them, and
 * the measurements in the tail of that prior get own[i] = 1 too.  A
 * measurement with own[i] set is to be judged by its own variance: one
 * KPI ten times noisier than the rest neither borrows their variance
 * nor, in the fit, makes the others look more unlike than they are.
 */
void stats_prior_fit_robust(const double *s2, const double *df, size_t n,
			    double df_max, double level,
			    struct stats_prior *pr, int *own);

/* The posterior variance of one measurement: (d0 s0^2 + d s2)/(d0 + d). */
double stats_prior_moderate(const struct stats_prior *pr, double s2,
			    double df);

struct paired_t {
	size_t n;
	double mean;		/* of the differences */
	double s2;		/* their sample variance (n - 1) */
	double se;		/* standard error of mean, after the prior */
	double df;		/* n - 1 + the prior's df */
	double t;		/* mean / se */
	double p;		/* two-sided */
};

/*
 * The one-sample t-test of the mean of d[0..n-1] against 0 (the paired
 * test when d holds the differences of pairs), its variance moderated
 * by pr (NULL: none).  Needs n >= 2; returns -1 otherwise.  Zero
 * variance without a prior gives p = 1 for a zero mean and p = 0
 * otherwise.
 */
int stats_paired_t(const double *d, size_t n, const struct stats_prior *pr,
		   struct paired_t *res);

struct pooled_t {
	size_t na, nb;
	double mean;		/* mean of b - mean of a */
	double s2;		/* pooled sample variance, na + nb - 2 df */
	double se;		/* of the difference, after the prior */
	double df;		/* na + nb - 2 + the prior's df */
	double t;		/* mean / se */
	double p;		/* two-sided */
};

/*
 * The two-sample t-test of b against a with the pooled variance,
 * moderated by pr (NULL: none; Smyth's moderated t of limma, two
 * groups).  Needs na, nb >= 2; returns -1 otherwise.  Zero variance
 * without a prior gives p = 1 for equal means and p = 0 otherwise.
 */
int stats_pooled_t(const double *a, size_t na, const double *b, size_t nb,
		   const struct stats_prior *pr, struct pooled_t *res);

/*
 * Holm's step-down adjustment: adj[i] is the smallest family-wise level
 * at which p[i] would be rejected (Holm 1979).  NAN p-values are not
 * part of the family and stay NAN.  Valid whatever the dependence
 * between the tests.  adj may be p.
 */
void stats_holm(const double *p, size_t n, double *adj);

#endif
