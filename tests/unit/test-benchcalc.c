// SPDX-License-Identifier: GPL-2.0
/* UnixBench pass aggregation and will-it-scale averaging, exact values. */
#include "benchcalc.h"
#include "test.h"

static void test_ub_three_passes(void)
{
	/* Run's default for spawn: drop the lowest of 3 by raw count. */
	struct ub_pass p[3] = {
		{ .count = 300000, .elapsed = 30.0 },
		/* the best rate but the lowest count: dropped */
		{ .count = 150000, .elapsed = 10.0 },
		{ .count = 270000, .elapsed = 30.0 },
	};
	struct ub_result r;

	CHECK_INT(ub_aggregate(p, 3, &r), 0);
	CHECK_INT(r.kept, 2);
	CHECK_INT(p[1].dropped, 1);
	CHECK_INT(p[0].dropped + p[2].dropped, 0);
	CHECK_NEAR(r.score, sqrt(10000.0 * 9000.0), 1e-9);
	CHECK_NEAR(r.time, 30.0, 1e-12);
}

static void test_ub_pass_counts(void)
{
	struct ub_pass p[10];
	struct ub_result r;
	double logsum = 0;
	int i;

	for (i = 0; i < 10; i++) {
		p[i].count = 1000 * (i + 1);
		p[i].elapsed = 2.0;
		p[i].dropped = 0;
	}
	CHECK_INT(ub_aggregate(p, 10, &r), 0);
	CHECK_INT(r.kept, 7);			/* int(10/3) = 3 dropped */
	for (i = 3; i < 10; i++)
		logsum += log(500.0 * (i + 1));
	CHECK_NEAR(r.score, exp(logsum / 7), 1e-9);
	CHECK_INT(p[0].dropped + p[1].dropped + p[2].dropped, 3);
	CHECK_INT(ub_aggregate(p, 2, &r), 0);	/* P=2: none dropped */
	CHECK_INT(r.kept, 2);
	CHECK_NEAR(r.score, sqrt(500.0 * 1000.0), 1e-9);
	CHECK_INT(ub_aggregate(p, 1, &r), 0);
	CHECK_NEAR(r.score, 500.0, 1e-12);
	CHECK_INT(ub_aggregate(p, 0, &r), -1);
}

static void test_ub_ties_and_zero(void)
{
	struct ub_pass p[3] = {
		{ .count = 100, .elapsed = 1 },
		{ .count = 100, .elapsed = 2 },
		{ .count = 400, .elapsed = 1 },
	};
	struct ub_result r;

	/* Equal counts: the earlier pass sorts first and is dropped. */
	CHECK_INT(ub_aggregate(p, 3, &r), 0);
	CHECK_INT(p[0].dropped, 1);
	CHECK_NEAR(r.score, sqrt(50.0 * 400.0), 1e-9);
	p[2].count = 0;
	p[1].count = 0;
	CHECK_INT(ub_aggregate(p, 3, &r), -1);
}

static void test_ub_short_passes(void)
{
	CHECK_INT(ub_short_passes(1), 1);
	CHECK_INT(ub_short_passes(4), 1);
	CHECK_INT(ub_short_passes(5), 2);
	CHECK_INT(ub_short_passes(10), 3);
	CHECK_INT(ub_short_passes(30), 10);
}

static void test_wis_average(void)
{
	/* 6 warm-up samples discarded, integer division like "average:" */
	unsigned long long t[9] = { 1, 1, 1, 1, 1, 1, 10, 11, 11 }, avg;

	CHECK_INT(wis_average(t, 9, 6, &avg), 3);
	CHECK_INT(avg, 10);
	CHECK_INT(wis_average(t, 6, 6, &avg), 0);
	CHECK_INT(avg, 0);
	CHECK_INT(WIS_HANDOFFS_PER_ROUNDTRIP, 2);
}

int main(void)
{
	TEST_NAME("test-benchcalc");
	RUN(test_ub_three_passes);
	RUN(test_ub_pass_counts);
	RUN(test_ub_ties_and_zero);
	RUN(test_ub_short_passes);
	RUN(test_wis_average);
	return test_done();
}
