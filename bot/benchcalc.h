/* SPDX-License-Identifier: GPL-2.0 */
/*
 * benchcalc.h - how the reference benchmarks turn raw counts into the
 * numbers they report, so that sched-bench's headline figures can be
 * compared with theirs.  libc only (sched-bench compiles it too).
 */
#ifndef SCHED_BOT_BENCHCALC_H
#define SCHED_BOT_BENCHCALC_H

/* One UnixBench pass: summed COUNT of all copies, mean copy elapsed. */
struct ub_pass {
	double count;
	double elapsed;		/* seconds */
	int dropped;		/* set by ub_aggregate() */
};

struct ub_result {
	double score;		/* geometric mean of kept count/elapsed */
	double time;		/* arithmetic mean elapsed of kept passes */
	int kept;
};

/*
 * UnixBench's Run: sort the passes by raw count, drop the lowest
 * int(P/3), geometric mean of count/elapsed over the rest.  Marks the
 * dropped passes.  -1 when no pass has a positive rate.
 */
int ub_aggregate(struct ub_pass *passes, int nr, struct ub_result *res);

/* Passes `Run -i K` gives a "short" test such as spawn. */
int ub_short_passes(int iterations);

/*
 * will-it-scale: counters sampled once a second; the first `warmup`
 * samples are discarded and the next ones averaged with integer division
 * like its "average:" line.  totals[] are per-second sums over instances.
 * Returns the number of samples averaged (0: nothing left after warm-up).
 */
int wis_average(const unsigned long long *totals, int nr, int warmup,
		unsigned long long *average);

/* Hand-offs a context_switch1 instance counts per round trip. */
#define WIS_HANDOFFS_PER_ROUNDTRIP 2

#endif
