/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interleave.h - the order of every benchmark series, A B A B: run 1 of
 * each item (a workload, a kernel), then run 2 of each, and so on, so
 * that slow drift of the machine (heat, caches, other load) is spread
 * over all items alike instead of landing on the last one.  `sched-bot
 * run` and sched-bench's init (in a guest, or on a target) follow it;
 * it is libc only, compiled into sched-bench too.
 *
 *	struct interleave it;
 *
 *	interleave_init(&it, runs, nr_items, 1);
 *	while (interleave_next(&it))
 *		run item it.i for the it.run-th time;
 */
#ifndef SCHED_BOT_INTERLEAVE_H
#define SCHED_BOT_INTERLEAVE_H

#include <stddef.h>

struct interleave {
	int runs;		/* runs of each item */
	size_t nr;		/* items */
	int run;		/* the current run, from 1 */
	size_t i;		/* the current item, from 0 */
	int started;
};

/* A series of runs x nr steps, from run first (1; more to resume). */
void interleave_init(struct interleave *it, int runs, size_t nr, int first);
/* Step to the next (run, item); 0 when the series is over. */
int interleave_next(struct interleave *it);
/* Let the items of the current run finish, then end the series. */
void interleave_last_run(struct interleave *it);

#endif
