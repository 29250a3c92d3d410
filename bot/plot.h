/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - the scaling curve of a sweep (throughput against the
 * number of instances), drawn the way Chen Yu's cover letter drew
 * will-it-scale context_switch1 by hand: a "throughput|" y axis, an
 * x axis ending in "->" with the peak marked '.', at most 72 columns,
 * for mail; and as SVG for the archive's HTML pages.
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
 * The same sweeps as SVG images (one <svg> element each, inline in an
 * HTML page): axes, one line per kernel in plot_svg_color(k), the
 * baseline PLOT_SVG_BASE and the first other kernel PLOT_SVG_PATCHED,
 * a legend and labels.  Returns the number of sweeps drawn.
 */
#define PLOT_SVG_BASE "#0050d0"
#define PLOT_SVG_PATCHED "#e02010"
int plot_svg(const struct compare_result *r, struct strbuf *out);
const char *plot_svg_color(size_t k);

/*
 * The instance count in params and the params without it (caller
 * frees *rest).  Returns -1 when params has no count.
 */
int plot_sweep_key(const char *params, long *count, char **rest,
		   const char **key);

#endif
