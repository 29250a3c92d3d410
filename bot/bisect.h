/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bisect.h - which patch of a series brought a confirmed regression.
 * The prefixes base + k of the series are built (incrementally, in the
 * build cache's slot) and run against the base in interleaved blocks
 * under the job's plan, k halving [lo, hi) where base + lo is known not
 * to regress and base + hi to regress (bisect_lo, bisect_hi of the job
 * state, saved after each step so that a resumed job goes on from
 * there).  A prefix whose vmlinux is the base's in code and data is not
 * run (bisect-<k>.identical).  The blocks of base + k go to
 * bisect-<k>.csv; the story, for the reply, to bisect.txt.
 *
 * Each step is a round of blocks (blocks.h), run and judged as the run
 * and compare stages' rounds are.
 */
#ifndef SCHED_BOT_BISECT_H
#define SCHED_BOT_BISECT_H

#include "blocks.h"

/*
 * Bisect the regression of the job of b (its head kernel regressed,
 * confirmed; head_regs is that round's list of regressions) and write
 * bisect.txt.  A prefix that does not build stops the bisection, said
 * in bisect.txt.  Returns 0, or an exit code (the job can be resumed).
 */
int bisect_series(struct job_blocks *b, const char *head_regs);

#endif
