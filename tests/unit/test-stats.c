// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bot/stats.c against closed forms and published values.
 */
#include <math.h>

#include "stats.h"
#include "test.h"
#include "rng.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_descriptive(void)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double one[] = { 3 };
	struct stats st;

	stats_compute(v, N(v), &st);
	CHECK_INT(st.n, 8);
	CHECK_NEAR(st.mean, 5, 1e-12);
	CHECK_NEAR(st.median, 4.5, 1e-12);
	/* population sd is 2; sample sd = sqrt(32 / 7) */
	CHECK_NEAR(st.stddev, sqrt(32.0 / 7), 1e-12);
	CHECK_NEAR(st.cv, 100 * sqrt(32.0 / 7) / 5, 1e-10);
	CHECK_NEAR(st.hmean, 8 / (1 / 2.0 + 3 / 4.0 + 2 / 5.0 + 1 / 7.0 +
				  1 / 9.0), 1e-12);
	CHECK_NEAR(st.min, 2, 0);
	CHECK_NEAR(st.max, 9, 0);
	/* t(0.975, 7) = 2.364624252 */
	CHECK_NEAR(st.ci_high - st.mean,
		   2.364624252 * sqrt(32.0 / 7) / sqrt(8), 1e-8);
	CHECK_NEAR(st.mean - st.ci_low, st.ci_high - st.mean, 1e-12);

	stats_compute(one, 1, &st);
	CHECK_NEAR(st.stddev, 0, 0);
	CHECK_NEAR(st.ci_low, 3, 0);
	stats_compute(v, 0, &st);
	CHECK(isnan(st.mean));
	v[0] = -1;
	stats_compute(v, N(v), &st);
	CHECK(isnan(st.hmean));
}

static void test_betai(void)
{
	/* I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b; I_.5(a, a) = .5 */
	CHECK_NEAR(stats_betai(3.5, 1, 0.3), pow(0.3, 3.5), 1e-14);
	CHECK_NEAR(stats_betai(1, 4.25, 0.7), 1 - pow(0.3, 4.25), 1e-14);
	CHECK_NEAR(stats_betai(7.5, 7.5, 0.5), 0.5, 1e-14);
	CHECK_NEAR(stats_betai(2, 3, 0), 0, 0);
	CHECK_NEAR(stats_betai(2, 3, 1), 1, 0);
	/* I_x(2, 2) = 3x^2 - 2x^3 */
	CHECK_NEAR(stats_betai(2, 2, 0.2), 3 * 0.04 - 2 * 0.008, 1e-14);
}

static void test_t_distribution(void)
{
	double t;

	/* df = 1 is Cauchy, df = 2 has a closed form too. */
	for (t = -30; t <= 30; t += 0.37) {
		CHECK_NEAR(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-13);
		CHECK_NEAR(stats_t_cdf(t, 2),
			   0.5 + t / (2 * sqrt(2 + t * t)), 1e-13);
	}
	/* Published quantiles (any t table, to 9 digits). */
	CHECK_NEAR(stats_t_quantile(0.975, 4), 2.776445105, 1e-8);
	CHECK_NEAR(stats_t_quantile(0.975, 10), 2.228138852, 1e-8);
	CHECK_NEAR(stats_t_quantile(0.975, 30), 2.042272456, 1e-8);
	CHECK_NEAR(stats_t_quantile(0.995, 5), 4.032142984, 1e-8);
	CHECK_NEAR(stats_t_quantile(0.975, 1), 12.70620474, 1e-7);
	CHECK_NEAR(stats_t_quantile(0.025, 10), -2.228138852, 1e-8);
	/* Far tail stays accurate (no 1 - (1 - p) cancellation). */
	CHECK_NEAR(stats_t_p2(1000, 1), 2 * atan(1 / 1000.0) / M_PI, 1e-15);
	CHECK_NEAR(stats_norm_cdf(1.959963985), 0.975, 1e-9);
}

static void test_welch_closed_form(void)
{
	/* Equal n and variances: t = 1 / sqrt(2/3), df = 4 exactly. */
	double a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 };
	double t = sqrt(1.5), x = t * t / (1 + t * t / 4);
	/* Student t CDF for 4 df in closed form. */
	double f = 0.5 + 0.375 * (t / sqrt(1 + t * t / 4)) * (1 - x / 12);
	struct welch w;

	CHECK(stats_welch(a, 3, b, 3, &w) == 0);
	CHECK_NEAR(w.t, t, 1e-12);
	CHECK_NEAR(w.df, 4, 1e-12);
	CHECK_NEAR(w.p, 2 * (1 - f), 1e-12);
	CHECK(stats_welch(a, 1, b, 3, &w) < 0);
}

static void test_welch_published(void)
{
	/* The three examples of the Wikipedia article on Welch's t-test. */
	double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9,
			22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8,
			20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	double b1[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7,
			21.8 };
	double b2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4,
			21.8, 20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5,
			21.5, 21.8 };
	double c1[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5,
			22.0 };
	double c2[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6,
			13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4,
			23.9, 13.3 };
	struct welch w;

	CHECK(stats_welch(a1, N(a1), a2, N(a2), &w) == 0);
	CHECK_NEAR(w.t, 2.46, 0.005);
	CHECK_NEAR(w.df, 25.0, 0.05);
	CHECK_NEAR(w.p, 0.021, 0.0005);
	CHECK(stats_welch(b1, N(b1), b2, N(b2), &w) == 0);
	CHECK_NEAR(w.t, 1.57, 0.005);
	CHECK_NEAR(w.df, 9.9, 0.05);
	CHECK_NEAR(w.p, 0.149, 0.0005);
	CHECK(stats_welch(c1, N(c1), c2, N(c2), &w) == 0);
	CHECK_NEAR(w.t, 2.22, 0.01);	/* published to 3 digits */
	CHECK_NEAR(w.df, 24.5, 0.05);
	CHECK_NEAR(w.p, 0.036, 0.001);
}

static void test_welch_constant(void)
{
	double a[] = { 5, 5, 5 }, b[] = { 5, 5 }, c[] = { 6, 6 };
	struct welch w;

	CHECK(stats_welch(a, 3, b, 2, &w) == 0);
	CHECK_NEAR(w.p, 1, 0);
	CHECK(stats_welch(a, 3, c, 2, &w) == 0);
	CHECK_NEAR(w.p, 0, 0);
	CHECK(w.t > 0);
}

static void test_mwu_exact(void)
{
	/* Critical values of U, two-sided alpha 0.05, n1 = n2 (tables). */
	static const int crit[][2] = {
		{ 5, 2 }, { 6, 5 }, { 7, 8 }, { 8, 13 }, { 9, 17 },
		{ 10, 23 }, { 12, 37 }, { 15, 64 }, { 20, 127 },
	};
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct mann_whitney m;
	size_t i;

	/* 252 arrangements for 5 + 5; U <= 2 in 4 of them, U <= 3 in 7 */
	CHECK_NEAR(stats_mwu_cdf(0, 5, 5), 1 / 252.0, 1e-15);
	CHECK_NEAR(stats_mwu_cdf(2, 5, 5), 4 / 252.0, 1e-15);
	CHECK_NEAR(stats_mwu_cdf(3, 5, 5), 7 / 252.0, 1e-15);
	CHECK_NEAR(stats_mwu_cdf(25, 5, 5), 1, 1e-15);
	/* U = 1 for sizes 1 and 3: 2 of 4 */
	CHECK_NEAR(stats_mwu_cdf(1, 1, 3), 0.5, 1e-15);
	for (i = 0; i < N(crit); i++) {
		int n = crit[i][0], u = crit[i][1];

		CHECK(2 * stats_mwu_cdf(u, n, n) <= 0.05);
		CHECK(2 * stats_mwu_cdf(u + 1, n, n) > 0.05);
	}
	CHECK(stats_mann_whitney(a, 5, b, 5, &m) == 0);
	CHECK(m.exact);
	CHECK_NEAR(m.u, 0, 0);
	CHECK_NEAR(m.p, 2 / 252.0, 1e-15);
	CHECK(stats_mann_whitney(b, 5, a, 5, &m) == 0);
	CHECK_NEAR(m.u, 25, 0);
	CHECK_NEAR(m.p, 2 / 252.0, 1e-15);
}

static void test_mwu_ties(void)
{
	/*
	 * Worked by hand: pooled sorted 1a 2a 2a 2b 3a 4b 5b 5b, ranks
	 * 1, 3, 3, 3, 5, 6, 7.5, 7.5; R_a = 12, U = 12 - 10 = 2, mean 8,
	 * tie term 3^3-3 + 2^3-2 = 30, var = 16/12 * (9 - 30/56).
	 */
	double a[] = { 1, 2, 2, 3 }, b[] = { 2, 4, 5, 5 };
	double sigma = sqrt(16 / 12.0 * (9 - 30 / 56.0));
	double all_same[] = { 4, 4, 4 };
	struct mann_whitney m;

	CHECK(stats_mann_whitney(a, 4, b, 4, &m) == 0);
	CHECK(!m.exact);
	CHECK_NEAR(m.u, 2, 0);
	CHECK_NEAR(m.z, -5.5 / sigma, 1e-12);
	CHECK_NEAR(m.p, 0.1014, 0.0005);
	CHECK_NEAR(m.p, erfc(5.5 / sigma / M_SQRT2), 1e-12);
	CHECK(stats_mann_whitney(all_same, 3, all_same, 2, &m) == 0);
	CHECK_NEAR(m.p, 1, 0);
	CHECK(stats_mann_whitney(a, 0, b, 4, &m) < 0);
}

static void test_polygamma(void)
{
	const double euler = 0.57721566490153286;

	CHECK_NEAR(stats_digamma(1), -euler, 1e-13);
	CHECK_NEAR(stats_digamma(0.5), -euler - 2 * log(2), 1e-13);
	CHECK_NEAR(stats_digamma(10.5), stats_digamma(9.5) + 1 / 9.5, 1e-13);
	CHECK_NEAR(stats_trigamma(1), M_PI * M_PI / 6, 1e-13);
	CHECK_NEAR(stats_trigamma(0.5), M_PI * M_PI / 2, 1e-12);
	CHECK_NEAR(stats_trigamma(3.5), stats_trigamma(4.5) +
		   1 / (3.5 * 3.5), 1e-13);
	CHECK_NEAR(stats_trigamma_inv(stats_trigamma(0.3)), 0.3, 1e-7);
	CHECK_NEAR(stats_trigamma_inv(stats_trigamma(7.25)), 7.25, 1e-6);
	CHECK_NEAR(stats_trigamma_inv(stats_trigamma(400)), 400, 1e-3);
}

/* df = INFINITY is the normal distribution. */
static void test_t_infinite_df(void)
{
	CHECK_NEAR(stats_t_p2(1.959963985, INFINITY), 0.05, 1e-9);
	CHECK_NEAR(stats_t_cdf(-1, INFINITY), stats_norm_cdf(-1), 1e-15);
	CHECK_NEAR(stats_t_quantile(0.975, INFINITY), 1.959963985, 1e-8);
	/* Cauchy: exact quantiles far in the tail */
	CHECK_NEAR(stats_t_quantile(1e-9, 1) / (-1 / (M_PI * 1e-9)), 1,
		   1e-12);
}

static void test_paired_t(void)
{
	double d[] = { 1, 2, 3, 4, 5 }, same[] = { 2, 2, 2 };
	struct stats_prior known = { 1, INFINITY }, none = { NAN, 0 };
	struct paired_t pt;
	double t = 3 / sqrt(0.5);

	CHECK(stats_paired_t(d, 1, NULL, &pt) < 0);
	CHECK(stats_paired_t(d, N(d), NULL, &pt) == 0);
	CHECK_NEAR(pt.mean, 3, 1e-15);
	CHECK_NEAR(pt.s2, 2.5, 1e-15);
	CHECK_NEAR(pt.t, t, 1e-12);
	CHECK_NEAR(pt.df, 4, 0);
	/* df 4: P(T <= t) = 1/2 + t (t^2 + 6) / (2 (t^2 + 4)^(3/2)) */
	CHECK_NEAR(pt.p, 1 - t * (t * t + 6) / pow(t * t + 4, 1.5), 1e-12);
	/* a prior of no weight changes nothing */
	CHECK(stats_paired_t(d, N(d), &none, &pt) == 0);
	CHECK_NEAR(pt.t, t, 1e-12);
	/* an exact prior: the z-test with variance 1 */
	CHECK(stats_paired_t(d, N(d), &known, &pt) == 0);
	CHECK_NEAR(pt.se, sqrt(1.0 / 5), 1e-15);
	CHECK(isinf(pt.df));
	CHECK_NEAR(pt.p, erfc(3 * sqrt(5.0) / M_SQRT2), 1e-15);
	/* a finite prior: the weighted mean of the variances */
	known.df = 12;
	CHECK_NEAR(stats_prior_moderate(&known, 2.5, 4), (12 + 10) / 16.0,
		   1e-15);
	CHECK(stats_paired_t(same, N(same), NULL, &pt) == 0);
	CHECK_NEAR(pt.p, 0, 0);
}

static void test_pooled_t(void)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	double c[] = { 2, 2 }, e[] = { 2, 2, 2 };
	struct stats_prior known = { 1, INFINITY }, none = { NAN, 0 };
	struct pooled_t pt;

	CHECK(stats_pooled_t(a, 1, b, N(b), NULL, &pt) < 0);
	CHECK(stats_pooled_t(a, N(a), b, 1, NULL, &pt) < 0);
	/* difference 2, pooled variance 2.5 on 8 df, se 1 */
	CHECK(stats_pooled_t(a, N(a), b, N(b), NULL, &pt) == 0);
	CHECK_NEAR(pt.mean, 2, 1e-15);
	CHECK_NEAR(pt.s2, 2.5, 1e-15);
	CHECK_NEAR(pt.se, 1, 1e-15);
	CHECK_NEAR(pt.df, 8, 0);
	CHECK_NEAR(pt.t, 2, 1e-15);
	/* R: 2 * pt(-2, 8) */
	CHECK_NEAR(pt.p, 0.0805162379572, 1e-11);
	CHECK(stats_pooled_t(a, N(a), b, N(b), &none, &pt) == 0);
	CHECK_NEAR(pt.t, 2, 1e-15);
	/* an exact prior: the z-test with variance 1, se sqrt(2/5) */
	CHECK(stats_pooled_t(a, N(a), b, N(b), &known, &pt) == 0);
	CHECK_NEAR(pt.se, sqrt(0.4), 1e-15);
	CHECK(isinf(pt.df));
	CHECK_NEAR(pt.p, erfc(2 / sqrt(0.4) / M_SQRT2), 1e-15);
	/* a finite prior: (12 * 1 + 8 * 2.5) / 20 on 20 df */
	known.df = 12;
	CHECK(stats_pooled_t(a, N(a), b, N(b), &known, &pt) == 0);
	CHECK_NEAR(pt.se, sqrt(32.0 / 20 * 0.4), 1e-15);
	CHECK_NEAR(pt.df, 20, 0);
	CHECK_NEAR(pt.p, stats_t_p2(2 / sqrt(0.64), 20), 1e-15);
	/* unequal sizes: b - a the other way round, same variance */
	CHECK(stats_pooled_t(b, N(b), a, 3, NULL, &pt) == 0);
	CHECK_NEAR(pt.mean, -3, 1e-15);
	CHECK_NEAR(pt.s2, (10 + 2) / 6.0, 1e-15);
	CHECK_NEAR(pt.df, 6, 0);
	/* no variance, no prior: certain */
	CHECK(stats_pooled_t(c, N(c), e, N(e), NULL, &pt) == 0);
	CHECK_NEAR(pt.p, 1, 0);
	e[0] = e[1] = e[2] = 3;
	CHECK(stats_pooled_t(c, N(c), e, N(e), NULL, &pt) == 0);
	CHECK_NEAR(pt.p, 0, 0);
	CHECK(isinf(pt.t) && pt.t > 0);
}

static void test_prior_fit_family(void)
{
	double s2[] = { 1, 2, 4, 1.5, 3 }, df[] = { 8, 8, 8, 8, 8 };
	double df2[] = { 2, 2, 2, 0, 0 };
	struct stats_prior a, b;

	/* 5 KPIs at 8 df: the cap is 32, below df_max 40 */
	stats_prior_fit_family(s2, df, N(s2), 40, &a);
	stats_prior_fit(s2, df, N(s2), 32, &b);
	CHECK_NEAR(a.df, b.df, 0);
	CHECK_NEAR(a.s2, b.s2, 0);
	CHECK(a.df <= 32);
	/* df 0 is not in the family: three at 2 df cap it at 4 */
	stats_prior_fit_family(s2, df2, N(s2), 40, &a);
	stats_prior_fit(s2, df2, N(s2), 4, &b);
	CHECK_NEAR(a.df, b.df, 0);
	CHECK(a.df <= 4);
}

static double chi2(int df)
{
	double s = 0;
	int i;

	for (i = 0; i < df; i++) {
		double z = rng_normal();

		s += z * z;
	}
	return s;
}

static void test_prior_fit(void)
{
	static double s2[2000], df[2000];
	double same[] = { 2, 2, 2, 2 }, four[] = { 4, 4, 4, 4 };
	struct stats_prior pr;
	size_t i;

	/* variances from s0^2 = 3, d0 = 10, each seen with 6 df */
	for (i = 0; i < N(s2); i++) {
		double sigma2 = 3 * 10 / chi2(10);

		s2[i] = sigma2 * chi2(6) / 6;
		df[i] = 6;
	}
	stats_prior_fit(s2, df, N(s2), INFINITY, &pr);
	printf("# prior fitted to 2000 variances: s0^2 %.3f (3), d0 %.2f "
	       "(10)\n", pr.s2, pr.df);
	CHECK(fabs(pr.s2 - 3) < 0.15);
	CHECK(pr.df > 8 && pr.df < 12.5);
	/*
	 * No spread beyond sampling: a common variance.  log s2 is low by
	 * digamma(d/2) - log(d/2) on average, which the fit puts back
	 * (limma's fitFDist does the same).
	 */
	stats_prior_fit(same, four, N(same), INFINITY, &pr);
	CHECK(isinf(pr.df));
	CHECK_NEAR(pr.s2, 2 * exp(log(2) - stats_digamma(2)), 1e-12);
	stats_prior_fit(same, four, N(same), 30, &pr);
	CHECK_NEAR(pr.df, 30, 0);
	CHECK_NEAR(pr.s2, 2 * exp(log(2) - stats_digamma(2) +
				  stats_digamma(15) - log(15)), 1e-12);
	/* fewer than 3 usable variances: no prior */
	stats_prior_fit(same, four, 2, 30, &pr);
	CHECK_NEAR(pr.df, 0, 0);
}

static void test_holm(void)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, adj[N(p)];

	stats_holm(p, N(p), adj);
	/* sorted 0.005 x4, 0.01 x3, 0.03 x2, 0.04 x1, monotone */
	CHECK_NEAR(adj[3], 0.02, 1e-15);
	CHECK_NEAR(adj[0], 0.03, 1e-15);
	CHECK_NEAR(adj[2], 0.06, 1e-15);
	CHECK_NEAR(adj[1], 0.06, 1e-15);
	CHECK(isnan(adj[4]));
	/* in place, and capped at 1 */
	p[1] = 0.9;
	stats_holm(p, N(p), p);
	CHECK_NEAR(p[1], 0.9, 1e-15);
	CHECK_NEAR(p[2], 0.06, 1e-15);
	p[0] = p[1] = p[2] = p[3] = 0.5;
	stats_holm(p, 4, p);
	CHECK_NEAR(p[0], 1, 0);
}

int main(void)
{
	TEST_NAME("test-stats");
	RUN(test_descriptive);
	RUN(test_betai);
	RUN(test_t_distribution);
	RUN(test_welch_closed_form);
	RUN(test_welch_published);
	RUN(test_welch_constant);
	RUN(test_mwu_exact);
	RUN(test_mwu_ties);
	RUN(test_polygamma);
	RUN(test_t_infinite_df);
	RUN(test_paired_t);
	RUN(test_pooled_t);
	RUN(test_prior_fit_family);
	RUN(test_prior_fit);
	RUN(test_holm);
	return test_done();
}
