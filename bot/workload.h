/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the one table of workloads: what each is called, what
 * runs it, where that program comes from, one line of help, and the sets
 * it belongs to.  `sched-bot run` accepts any of them and lists them in
 * its --help; the default of bot.workloads (what test, boot and cron
 * run) and of bot.knownWorkloads (what a mail command may ask for) are
 * sets of this table; `sched-bot help --list-workloads` prints the names
 * for the shell completion.
 */
#ifndef SCHED_BOT_WORKLOAD_H
#define SCHED_BOT_WORKLOAD_H

#include <stddef.h>

#include "util.h"

/* The program that runs a workload. */
enum workload_runner {
	WORKLOAD_SCHED_BENCH,	/* ours: bot/workloads/, also in guests */
	WORKLOAD_HACKBENCH,
	WORKLOAD_PERF,		/* perf bench sched ... */
	WORKLOAD_SCHBENCH,
};

/* The sets a workload is in: bot.workloads' default (what test, boot
 * and cron run), bot.knownWorkloads' (what a mail may ask for).
 */
#define WORKLOAD_DEFAULT (1u << 0)
#define WORKLOAD_MAIL (1u << 1)

/*
 * A number a tool prints: the one right after marker, or with before
 * set the one right before it on its line.  A metric listed twice takes
 * the first of its markers that is found.
 */
struct workload_metric {
	const char *metric;	/* the row's metric; NULL ends the list */
	const char *marker;
	int before;
	const char *unit;
	int higher_is_better;
};

#define WORKLOAD_METRICS_MAX 3

struct workload {
	const char *name;	/* as in --workloads and results.csv */
	enum workload_runner runner;
	const char *prog;	/* the executable looked up in PATH */
	const char *package;	/* where prog comes from (Debian) */
	const char *help;	/* one line for `run --help` */
	unsigned int sets;	/* WORKLOAD_DEFAULT | WORKLOAD_MAIL */
	/*
	 * A tool's command line after prog, words split at spaces, and the
	 * params column of its rows; in both "%c" is the CPUs and "%d" the
	 * seconds of a run.  Every target runs the tool with these words.
	 */
	const char *tool_args;
	const char *params;
	/* What its output reports, in the rows' order. */
	struct workload_metric metrics[WORKLOAD_METRICS_MAX];
	/* sched-bench's: its sub-command (BENCH_SPAWN, ... of benchopts.h),
	 * whose options its command line may carry, and the options `run`
	 * gives it where the spec leaves them unset.
	 */
	unsigned int bench;
	const char *run_args;
};

extern const struct workload workload_table[];
extern const size_t workload_table_nr;

/* The workload called name, or NULL. */
const struct workload *workload_find(const char *name);
/* The same for name[0..len-1]. */
const struct workload *workload_find_n(const char *name, size_t len);

/*
 * The names of the workloads in every set of sets (0: all of them),
 * joined by commas, in table order: "spawn,pingpong".  The string lives
 * as long as the process.
 */
const char *workload_names(unsigned int sets);

/* One "    name            help" line per workload. */
void workload_help(struct strbuf *out);

#endif
