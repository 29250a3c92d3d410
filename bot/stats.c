// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - descriptive statistics, Student t, Welch and Mann-Whitney.
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

/*
 * Continued fraction for I_x(a, b), evaluated with the modified Lentz
 * method; converges fast for x < (a + 1) / (a + b + 2), which the caller
 * guarantees by using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
 */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-15, tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h, aa, del;
	int m, m2;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
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
	/* P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2), accurate in the tail. */
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail = stats_t_p2(t, df) / 2;

	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid;
	int i, neg = p < 0.5;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (neg)
		p = 1 - p;
	while (stats_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 2000 && hi - lo > 1e-13 * hi; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	mid = (lo + hi) / 2;
	return neg ? -mid : mid;
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		struct welch *w)
{
	struct stats sa, sb;
	double va, vb, se2;

	if (na < 2 || nb < 2)
		return -1;
	stats_compute(a, na, &sa);
	stats_compute(b, nb, &sb);
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
