// SPDX-License-Identifier: GPL-2.0
/*
 * shared.c - the libc-only modules sched-bot and sched-bench share are
 * compiled into sched-bench from here (the Makefile builds only
 * bot/workloads/ sources into it).
 */
#include "../procstat.c"
#include "../benchcalc.c"
