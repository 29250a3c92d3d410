/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - the ASCII scaling curve of a sweep (throughput against the
 * number of instances), drawn the way Chen Yu's cover letter drew
 * will-it-scale context_switch1 by hand: a "throughput|" y axis, an
 * x axis ending in "->" with the peak marked '.', at most 72 columns.
 */
#ifndef SCHED_BOT_PLOT_H
#define SCHED_BOT_PLOT_H

#include "compare.h"
#include "util.h"

#define PLOT_WIDTH 72

/*
 * A sweep is a set of metrics with the same workload, metric and
 * environment whose params differ only in an instance count (key
 * instances, pairs, nr_instances, nr_task, tasks, threads, copies,
 * clients, groups or workers).  Plots every sweep of two or more
 * points: the baseline as 'o', the other kernels as 'X', '+', '#', ...
 * and '*' where marks fall on the same cell.  No sweep: a one-line note.
 */
int plot_render(const struct compare_result *r, struct strbuf *out);

/*
 * The instance count in params and the params without it (caller
 * frees *rest).  Returns -1 when params has no count.
 */
int plot_sweep_key(const char *params, long *count, char **rest,
		   const char **key);

#endif
