/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the documents behind compare's report formats, expanded by
 * the template engine (templates.h) over templates/report-<format>.txt.
 * compare_render() (compare.h) is the way in.
 *
 * What a report template sees:
 *   label.K, uname.K  kernel K's label and uname -r (0 is the baseline)
 *   verdict, rule     the overall verdict and the rule that judged it
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
 * The variables of each format are set in render.c, next to the
 * template they serve.
 */
#ifndef SCHED_BOT_RENDER_H
#define SCHED_BOT_RENDER_H

#include "templates.h"

#endif
