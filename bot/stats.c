// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - descriptive statistics, Student t, Welch and Mann-Whitney,
 * the (moderated) paired t-test and Holm's adjustment.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

void stats_compute(const double *v, size_t n, struct stats *st)
{
	double sum = 0, inv = 0, ss = 0, *s;
	int positive = 1;
	size_t i;

	st->n = n;
	st->mean = st->hmean = st->median = st->stddev = st->cv = NAN;
	st->min = st->max = st->ci_low = st->ci_high = NAN;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > 0)
			inv += 1 / v[i];
		else
			positive = 0;
	}
	st->mean = sum / n;
	st->hmean = positive ? n / inv : NAN;
	for (i = 0; i < n; i++)
		ss += (v[i] - st->mean) * (v[i] - st->mean);
	st->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	st->cv = st->mean != 0 ? 100 * st->stddev / fabs(st->mean) : NAN;

	s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	st->min = s[0];
	st->max = s[n - 1];
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);

	if (n > 1) {
		double h = stats_t_quantile(0.975, n - 1) * st->stddev /
			   sqrt((double)n);

		st->ci_low = st->mean - h;
		st->ci_high = st->mean + h;
	} else {
		st->ci_low = st->ci_high = st->mean;
	}
}

/* Lentz's guard: a denominator near zero is taken as tiny, not zero. */
static double lentz_floor(double v)
{
	const double tiny = 1e-300;

	return fabs(v) < tiny ? tiny : v;
}

/*
 * One term aa of the modified Lentz method: c and d carried on, the
 * factor the fraction's value is multiplied by returned.
 */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 / lentz_floor(1 + aa * *d);
	*c = lentz_floor(1 + aa / *c);
	return *d * *c;
}

/*
 * Continued fraction for I_x(a, b), evaluated with the modified Lentz
 * method; converges fast for x < (a + 1) / (a + b + 2), which the caller
 * guarantees by using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
 */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h, aa, del;
	int m, m2;

	d = 1 / lentz_floor(d);
	h = d;
	for (m = 1; m <= 1000; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		h *= lentz_step(aa, &c, &d);
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	double lbt;

	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	      b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	if (isinf(df))
		return erfc(fabs(t) / M_SQRT2);
	/* P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2), accurate in the tail. */
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail = stats_t_p2(t, df) / 2;

	return t > 0 ? 1 - tail : tail;
}

/* The density of Student t. */
static double t_pdf(double t, double df)
{
	if (isinf(df))
		return exp(-t * t / 2) / sqrt(2 * M_PI);
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) -
		   0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

/*
 * Newton's method on the upper tail P(T >= x) = q, which keeps the far
 * tail accurate, started from the normal quantile (Abramowitz & Stegun
 * 26.2.23) corrected for df (Cornish-Fisher), and kept inside a bracket
 * that halves whenever a step would leave it.
 */
double stats_t_quantile(double p, double df)
{
	double q, lo = 0, hi = INFINITY, x, u, z;
	int i, neg = p < 0.5;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	q = neg ? p : 1 - p;	/* the tail beyond |x| */
	u = sqrt(-2 * log(q));
	z = u - (2.515517 + 0.802853 * u + 0.010328 * u * u) /
		(1 + 1.432788 * u + 0.189269 * u * u + 0.001308 * u * u * u);
	x = isinf(df) ? z : z + (z * z * z + z) / (4 * df) +
	    (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
	if (!(x > 0))
		x = 1;
	for (i = 0; i < 200; i++) {
		double f = stats_t_p2(x, df) / 2 - q, d, next;

		if (f == 0)
			break;
		if (f > 0)	/* tail too big: x is too small */
			lo = x;
		else
			hi = x;
		d = t_pdf(x, df);
		next = d > 0 ? x + f / d : NAN;
		if (!(next > lo && next < hi))
			next = isinf(hi) ? 2 * x : (lo + hi) / 2;
		if (fabs(next - x) <= 1e-15 * x) {
			x = next;
			break;
		}
		x = next;
	}
	return neg ? -x : x;
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* The mean and the sample variance (n - 1), n >= 2. */
static void mean_s2(const double *v, size_t n, double *mean, double *s2)
{
	double sum = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*s2 = ss / (n - 1);
}

/* Only what Welch needs of stats_compute: mean and stddev. */
static void mean_var(const double *v, size_t n, struct stats *st)
{
	double s2;

	mean_s2(v, n, &st->mean, &s2);
	st->stddev = sqrt(s2);
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct welch *w)
{
	struct stats sa, sb;
	double va, vb, se2;

	if (na < 2 || nb < 2)
		return -1;
	mean_var(a, na, &sa);
	mean_var(b, nb, &sb);
	va = sa.stddev * sa.stddev / na;
	vb = sb.stddev * sb.stddev / nb;
	se2 = va + vb;
	if (se2 == 0) {
		w->t = sb.mean == sa.mean ? 0 :
		       (sb.mean > sa.mean ? INFINITY : -INFINITY);
		w->df = (double)(na + nb - 2);
		w->p = sb.mean == sa.mean ? 1 : 0;
		return 0;
	}
	w->t = (sb.mean - sa.mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	w->p = stats_t_p2(w->t, w->df);
	return 0;
}

/*
 * Number of arrangements giving each U, for sizes m and n: the
 * coefficients of the Gaussian binomial [m+n choose m]_q, built with
 * N(i, j, u) = N(i - 1, j, u - j) + N(i, j - 1, u).
 * Returns an array of m * n + 1 counts (caller frees).
 */
static double *mwu_counts(size_t m, size_t n)
{
	double **t = xcalloc((m + 1) * (n + 1), sizeof(*t)), *res;
	size_t i, j, u;

	for (i = 0; i <= m; i++)
		for (j = 0; j <= n; j++) {
			double *c = xcalloc(i * j + 1, sizeof(*c));

			t[i * (n + 1) + j] = c;
			if (!i || !j) {
				c[0] = 1;
				continue;
			}
			for (u = 0; u <= i * j; u++) {
				const double *up = t[(i - 1) * (n + 1) + j];
				const double *left = t[i * (n + 1) + j - 1];

				if (u >= j)
					c[u] += up[u - j];
				if (u <= i * (j - 1))
					c[u] += left[u];
			}
		}
	res = t[m * (n + 1) + n];
	for (i = 0; i < (m + 1) * (n + 1); i++)
		if (t[i] != res)
			free(t[i]);
	free(t);
	return res;
}

/* P(U <= u) and P(U <= mn - u) = P(U >= u) from one table of counts. */
static void mwu_tails(double u, size_t m, size_t n, double *lo, double *hi)
{
	double *c = mwu_counts(m, n), below = 0, above = 0, total = 0;
	size_t k;

	for (k = 0; k <= m * n; k++) {
		total += c[k];
		if ((double)k <= u)
			below += c[k];
		if ((double)k <= (double)(m * n) - u)
			above += c[k];
	}
	free(c);
	*lo = below / total;
	*hi = above / total;
}

double stats_mwu_cdf(double u, size_t m, size_t n)
{
	double lo, hi;

	if (m > STATS_MWU_EXACT_MAX || n > STATS_MWU_EXACT_MAX || isnan(u))
		return NAN;
	if (u < 0)
		return 0;
	mwu_tails(u, m, n, &lo, &hi);
	return lo;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->v < b->v ? -1 : a->v > b->v;
}

int stats_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, struct mann_whitney *m)
{
	size_t n = na + nb, i, j, k;
	struct ranked *r;
	double ra = 0, ties = 0, mu, sigma, d;

	if (!na || !nb)
		return -1;
	r = xmalloc(n * sizeof(*r));
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		rank = (i + 1 + j) / 2.0;	/* mean of ranks i+1..j */
		t = (double)(j - i);
		ties += t * t * t - t;
		for (k = i; k < j; k++)
			if (r[k].from_a)
				ra += rank;
	}
	free(r);
	m->u = ra - na * (na + 1) / 2.0;
	mu = na * (double)nb / 2;
	if (ties == 0 && na <= STATS_MWU_EXACT_MAX &&
	    nb <= STATS_MWU_EXACT_MAX) {
		double lo, hi;

		mwu_tails(m->u, na, nb, &lo, &hi);

		m->exact = 1;
		m->z = 0;
		m->p = fmin(1, 2 * fmin(lo, hi));
		return 0;
	}
	m->exact = 0;
	sigma = sqrt(na * (double)nb / 12 *
		     ((n + 1) - ties / ((double)n * (n - 1))));
	if (!(sigma > 0)) {
		m->z = 0;
		m->p = 1;
		return 0;
	}
	d = fabs(m->u - mu) - 0.5;	/* continuity correction */
	m->z = (d > 0 ? d : 0) / sigma;
	if (m->u < mu)
		m->z = -m->z;
	m->p = fmin(1, erfc(fabs(m->z) / M_SQRT2));
	return 0;
}

/*
 * The polygamma functions by recurrence up to x >= 10 and their
 * asymptotic series there (Abramowitz & Stegun 6.3.18, 6.4.11-12);
 * absolute error below 1e-13 for x > 0.
 */
double stats_digamma(double x)
{
	double r = 0, f;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r -= 1 / x;
	f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 -
	       f * (1.0 / 240 - f / 132))));
}

double stats_trigamma(double x)
{
	double r = 0, f;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r += 1 / (x * x);
	f = 1 / (x * x);
	return r + 1 / x + f / 2 +
	       f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 -
	       f * (1.0 / 30 - f * 5 / 66))));
}

static double tetragamma(double x)
{
	double r = 0, f;

	for (; x < 10; x++)
		r -= 2 / (x * x * x);
	f = 1 / (x * x);
	return r - f - f / x - f * f / 2 +
	       f * f * f * (1.0 / 6 - f * (1.0 / 6 - f * (3.0 / 10 -
	       f * 5 / 6)));
}

/* Newton's method as in limma's trigammaInverse (Smyth 2004). */
double stats_trigamma_inv(double y)
{
	double x;
	int i;

	if (!(y > 0))
		return NAN;
	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	x = 0.5 + 1 / y;
	for (i = 0; i < 50; i++) {
		double tri = stats_trigamma(x);
		double dif = tri * (1 - tri / y) / tetragamma(x);

		x += dif;
		if (-dif / x < 1e-8)
			break;
	}
	return x;
}

void stats_prior_fit(const double *s2, const double *df, size_t n,
		     double df_max, struct stats_prior *pr)
{
	double mean = 0, var = 0, tri = 0, d0;
	size_t i, m = 0;

	pr->s2 = NAN;
	pr->df = 0;
	for (i = 0; i < n; i++)
		if (isfinite(s2[i]) && s2[i] > 0 && df[i] >= 1) {
			mean += log(s2[i]) - stats_digamma(df[i] / 2) +
				log(df[i] / 2);
			tri += stats_trigamma(df[i] / 2);
			m++;
		}
	if (m < 3 || !(df_max > 0))
		return;
	mean /= m;
	tri /= m;
	for (i = 0; i < n; i++)
		if (isfinite(s2[i]) && s2[i] > 0 && df[i] >= 1) {
			double e = log(s2[i]) - stats_digamma(df[i] / 2) +
				   log(df[i] / 2) - mean;

			var += e * e;
		}
	/* what is left of the spread of log s2 after sampling is the
	 * prior's: trigamma(d0 / 2)
	 */
	var = var / (m - 1) - tri;
	d0 = var > 0 ? 2 * stats_trigamma_inv(var) : INFINITY;
	if (d0 > df_max)
		d0 = df_max;
	pr->df = d0;
	pr->s2 = isinf(d0) ? exp(mean) :
		 exp(mean + stats_digamma(d0 / 2) - log(d0 / 2));
}

void stats_prior_fit_family(const double *s2, const double *df, size_t n,
			    double df_max, struct stats_prior *pr)
{
	double sum_df = 0, max_df = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (df[i] >= 1) {
			sum_df += df[i];
			if (df[i] > max_df)
				max_df = df[i];
		}
	stats_prior_fit(s2, df, n, fmin(df_max, sum_df - max_df), pr);
}

double stats_prior_moderate(const struct stats_prior *pr, double s2,
			    double df)
{
	if (!pr || !(pr->df > 0) || !isfinite(pr->s2))
		return s2;
	if (isinf(pr->df))
		return pr->s2;
	return (pr->df * pr->s2 + df * s2) / (pr->df + df);
}

static int has_prior(const struct stats_prior *pr)
{
	return pr && pr->df > 0 && isfinite(pr->s2);
}

double stats_prior_tail(const struct stats_prior *pr, double s2, double df)
{
	/* an exact prior (infinite df) as one of a million df */
	double d0, f;

	if (!has_prior(pr) || !(df > 0) || !(pr->s2 > 0))
		return 1;
	if (isnan(s2))
		return NAN;
	d0 = isinf(pr->df) ? 1e6 : pr->df;
	f = s2 / pr->s2;
	/* P(F(df, d0) >= f) = I_{d0 / (d0 + df f)}(d0 / 2, df / 2) */
	return stats_betai(d0 / 2, df / 2, d0 / (d0 + df * f));
}

/*
 * The t-test of a mean against 0 from a sample variance s2 on df
 * degrees of freedom, moderated by pr; se^2 = v * scale, v the
 * posterior variance.  Shared by the paired and the pooled test.
 */
static void moderated_t(double mean, double s2, double df, double scale,
			const struct stats_prior *pr, double *se, double *dfo,
			double *t, double *p)
{
	double v = stats_prior_moderate(pr, s2, df);

	*dfo = df + (has_prior(pr) ? pr->df : 0);
	*se = sqrt(v * scale);
	if (!(*se > 0)) {
		*t = mean == 0 ? 0 : (mean > 0 ? INFINITY : -INFINITY);
		*p = mean == 0 ? 1 : 0;
		return;
	}
	*t = mean / *se;
	*p = stats_t_p2(*t, *dfo);
}

int stats_paired_t(const double *d, size_t n, const struct stats_prior *pr,
		   struct paired_t *res)
{
	if (n < 2)
		return -1;
	res->n = n;
	mean_s2(d, n, &res->mean, &res->s2);
	moderated_t(res->mean, res->s2, n - 1, 1.0 / n, pr, &res->se,
		    &res->df, &res->t, &res->p);
	return 0;
}

int stats_pooled_t(const double *a, size_t na, const double *b, size_t nb,
		   const struct stats_prior *pr, struct pooled_t *res)
{
	double ma, mb, va, vb, df;

	if (na < 2 || nb < 2)
		return -1;
	mean_s2(a, na, &ma, &va);
	mean_s2(b, nb, &mb, &vb);
	df = (double)(na + nb - 2);
	res->na = na;
	res->nb = nb;
	res->mean = mb - ma;
	res->s2 = ((na - 1) * va + (nb - 1) * vb) / df;
	moderated_t(res->mean, res->s2, df, 1.0 / na + 1.0 / nb, pr,
		    &res->se, &res->df, &res->t, &res->p);
	return 0;
}

struct ranked_p {
	double p;
	size_t i;
};

static int cmp_ranked_p(const void *pa, const void *pb)
{
	const struct ranked_p *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void stats_holm(const double *p, size_t n, double *adj)
{
	struct ranked_p *r = xmalloc((n ? n : 1) * sizeof(*r));
	double run = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked_p){ p[i], i };
	for (i = 0; i < n; i++)
		adj[i] = NAN;	/* after reading: p may be adj */
	qsort(r, m, sizeof(*r), cmp_ranked_p);
	for (i = 0; i < m; i++) {
		double a = fmin(1, (m - i) * r[i].p);

		if (a > run)
			run = a;
		adj[r[i].i] = run;
	}
	free(r);
}

void stats_prior_fit_robust(const double *s2, const double *df, size_t n,
			    double df_max, double level,
			    struct stats_prior *pr, int *own)
{
	double *rest = xcalloc(n ? n : 1, sizeof(*rest));
	size_t i, out = 0;

	stats_prior_fit_family(s2, df, n, df_max, pr);
	for (i = 0; i < n; i++) {
		own[i] = stats_prior_tail(pr, s2[i], df[i]) < level;
		out += own[i];
		rest[i] = own[i] ? NAN : s2[i];
	}
	if (out) {
		stats_prior_fit_family(rest, df, n, df_max, pr);
		for (i = 0; i < n; i++)
			own[i] |= stats_prior_tail(pr, s2[i], df[i]) < level;
	}
	free(rest);
}
