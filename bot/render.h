/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the documents behind compare's report formats, expanded by
 * the template engine (templates.h) over templates/report-<format>.txt.
 * compare_render() (compare.h) is the way in.
 *
 * What a report template sees:
 *   label.K, uname.K  kernel K's label and uname -r (0 is the baseline)
 *   verdict, rule     the overall verdict and the rule that judged it
 *   verdictline       set unless the caller prints the verdict sentence
 *                     after the tables (compare_opts.sentence_follows)
 *   commit.K, lab.K   lkp: kernel K's commit (10 hex digits and subject)
 *                     and its id in the column header, else its label
 *   base              the baseline's label
 *   {{#each block}}   one table per block (a workload, its fixed params,
 *                     and an environment, grouped as the format wants):
 *                     workload params metric unit dir ("higher is
 *                     better") Dir ("Higher ...") env (machine,
 *                     placement, autogroup, cgroup) envx (env without
 *                     the machine) on (" on MACHINE") what ("workload
 *                     params"), and the format's own (title, hdr.K ...)
 *   {{#each row}}     inside a block: one row per metric or sweep point,
 *                     with the format's cells (per kernel: name.K)
 *   cpu, hascpu       in a block: cpu.K, kernel K's %Cpu(s) ("3.2 us,
 *                     96.7 sy, 0.1 id"), the mean over the block's rows;
 *                     hascpu when any kernel's is known
 *   diagchanged       set when a diag.* row with a scheduler name (wake-ups
 *                     to another CPU, run-queue wait, load balancing per
 *                     domain level, ...) changed significantly
 *   {{#each diagrow}} one such change: line ("wake-ups to another CPU
 *                     -41% (pingpong pairs=1)")
 * Rows: every KPI; a diag.* row only when it changed significantly or
 * compare --diag asks (compare_row_shown).  Headings and settings lines
 * the formats wrap at 72 columns come as their own variables (note,
 * heading, head, envw).
 * The variables of each format are set in render.c, next to the
 * template they serve.
 */
#ifndef SCHED_BOT_RENDER_H
#define SCHED_BOT_RENDER_H

#include "templates.h"

#endif
