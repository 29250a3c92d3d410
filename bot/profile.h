/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - the profile block of a report, as the kernel test robot
 * writes its perf-profile lines: for each profiled workload, the
 * functions whose share of the samples changed most between two
 * kernels, base, absolute change (points), patched:
 *
 *     0.00   +48.12    48.12  perf-profile.self.cpu-clock.slow_fork_wait
 *
 * from the diag.profile.self.<function> and .children.<function> rows
 * (run.h: run_profile_rows) of a boot with a profile, one run a side.
 * A function one side's report did not list (under perf report's limit)
 * counts 0 there.
 */
#ifndef SCHED_BOT_PROFILE_H
#define SCHED_BOT_PROFILE_H

#include "samples.h"

/* The functions a workload shows of each kind (self, children). */
#define PROFILE_SHOWN 8
/* A change smaller than this (points) is not shown. */
#define PROFILE_MIN_CHANGE 0.1

/*
 * The block of set's profile rows into out: the first label of the set
 * the base, the second the other side; each workload and params, a
 * heading of the labels and its lines (up to PROFILE_SHOWN of each
 * kind, 28 columns before the function's name), the event the
 * samples are of in *event ("cycles", "cpu-clock": a string of set).
 * Returns the lines written (0: no profile of both sides, nothing
 * written).
 */
size_t profile_block(const struct sample_set *set, struct strbuf *out,
		     const char **event);

#endif
