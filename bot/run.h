/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - running workloads and turning their output into result rows
 * (struct sample, see samples.h).
 *
 * sched-bench's output format is documented in bot/workloads/bench.h;
 * run_parse_bench_output() is the one reader of it, whether the text came
 * from a local pipe, ssh, or a QEMU serial console with kernel messages
 * between the records.  run_bench_argv()/run_bench_cmdline() build the
 * sched-bench command line for a workload spec, so that every target runs
 * exactly the same thing.
 */
#ifndef SCHED_BOT_RUN_H
#define SCHED_BOT_RUN_H

#include <stddef.h>

#include "samples.h"

/* What the rows are labelled with; NULL fields are taken from the env
 * records of the output (kernel_release, hostname, time) or left empty.
 */
struct run_meta {
	const char *label;
	const char *kernel;
	const char *target;
	const char *machine;
	const char *time;
};

/* What a parse found, for error messages and tests. */
struct run_parse_report {
	int runs;		/* complete runs turned into rows */
	int dropped;		/* runs without a valid "end" record */
	int bad_records;	/* lines of a known kind that did not parse */
	int env;		/* env records seen */
};

/*
 * Parse sched-bench output (possibly with foreign lines in between) and
 * append one row per sample record, plus "diag.<key>" rows (sample 0,
 * higher_is_better 0) for the per-run stat records other than cpu_*,
 * which fill the rows' cpu_* columns.  Returns the number of complete
 * runs (>= 1), or -1 after printing an error when there is none.
 * report may be NULL.
 */
int run_parse_bench_output(const char *text, size_t len,
			   const struct run_meta *meta,
			   struct sample_set *out);
int run_parse_bench_output_report(const char *text, size_t len,
				  const struct run_meta *meta,
				  struct sample_set *out,
				  struct run_parse_report *report);

/* A sched-bench workload and its options; 0/-1/NULL = sched-bench's
 * default (which follows UnixBench / will-it-scale).
 */
struct bench_spec {
	const char *workload;	/* "spawn" or "pingpong" */
	int copies;		/* spawn -c, pingpong -n */
	int duration;		/* -t seconds */
	int passes;		/* spawn --passes */
	int gap;		/* spawn --gap seconds, -1 default */
	int warmup;		/* pingpong --warmup seconds, -1 default */
	int threads;		/* pingpong --threads */
	int pin;		/* pingpong: 1 --pin, 0 --no-pin, -1 default */
	const char *sweep;	/* pingpong --sweep "1,2,4" */
	int run;		/* --run K, 0 = omit */
	const char *autogroup;	/* "on", "off" */
	const char *cgroup;	/* "root", "new" */
	int setsid;
	int child_cpu;		/* spawn --child-cpu */
};

void bench_spec_init(struct bench_spec *spec);
/* -1 with an error for a spec sched-bench would refuse. */
int bench_spec_check(const struct bench_spec *spec);
/* NULL-terminated argv starting with prog; free with run_argv_free(). */
char **run_bench_argv(const struct bench_spec *spec, const char *prog);
void run_argv_free(char **argv);
/* The same arguments (without prog) joined by single spaces; no argument
 * contains white space, so this is safe for a kernel command line.
 */
char *run_bench_cmdline(const struct bench_spec *spec);
/*
 * The sched-bench words of spec for a target's runs, as
 * boot_req.workload_args takes them: "pingpong=--warmup,2,--no-pin"
 * (the workload table's run_args where spec leaves an option unset;
 * -t and --run left to the target).  Allocated; NULL (printed) for a
 * spec sched-bench would refuse.
 */
char *run_bench_workload_args(const struct bench_spec *spec);

/* Where sched-bench is when no command names it; filled by the tool. */
struct run_opts {
	const char *sched_bench;	/* run.schedBench; NULL: look */
};
void run_configure(const struct run_opts *o);

/*
 * The sched-bench binary, the one lookup for `run` and every target:
 * path when given (--sched-bench, taken as is), else run_opts'
 * sched_bench (run.schedBench), next to sched-bot, or PATH.  Returns an allocated path
 * or NULL.
 */
char *run_find_sched_bench(const char *path);

/* A workload of workload.h run by another program than sched-bench. */
int run_is_tool_workload(const char *name);

/* The workload table's entry of a tool workload (not sched-bench's), or
 * NULL: its program and the package it comes from.
 */
struct workload;
const struct workload *run_find_tool(const char *workload);

/*
 * The command line of a tool workload, argv[0] = prog, NULL-terminated
 * (free with run_argv_free()); *params gets the row's params text.
 * Every target runs a tool with these arguments.
 */
char **run_tool_argv(const char *workload, const char *prog, int duration,
		     char **params);

/*
 * Parse an external tool's output into rows (label etc. from meta, env
 * fields from env_text = `sched-bench env` output, may be NULL).  -1 when
 * the output has no result.
 */
int run_parse_tool_output(const char *workload, const char *params,
			  int run, const char *text,
			  const struct run_meta *meta, const char *env_text,
			  struct sample_set *out);

/*
 * The rows of one finished tool run, wherever it ran: the tool's result
 * rows (run_parse_tool_output()) with the cpu_* columns from u (NULL:
 * unknown) and a diag.wall_s row (none when wall < 0: unknown).  -1
 * when the output has no result.
 */
/*
 * The counts of perf stat -x, around a run (its CSV lines, hostile:
 * a guest wrote them) as diag.perf.<event> rows: context-switches,
 * cpu-migrations, task-clock (ms), cycles, instructions; each once, an
 * event perf could not count left out.  The rows take the workload,
 * params, run, environment and CPU split of the run's first row,
 * set->v[from].
 * Returns how many it added.
 */
int run_perf_rows(const char *csv, size_t from, struct sample_set *set);

/*
 * The lines of a perf report (--stdio -q --sort sym, hostile: a guest
 * wrote them), "  41.20%  [k] slow_fork_wait" (--no-children) or
 * "  52.00%  41.20%  [k] kernel_clone" (--children: the first column),
 * as diag.profile.<kind>.<symbol> rows: percent of the samples of event
 * (unit "%<event>"), each symbol once, at most RUN_PROFILE_MAX of them;
 * a line that is not of that form, an address for a symbol, a name
 * longer than RUN_PROFILE_SYM or of other characters than a C or
 * kernel symbol's is left out.  The rows take the workload, params,
 * run and environment of set->v[from].  Returns how many it added.
 */
#define RUN_PROFILE_MAX 100
#define RUN_PROFILE_SYM 64
int run_profile_rows(const char *report, const char *kind, const char *event,
		     size_t from, struct sample_set *set);

struct cpu_util;
int run_tool_rows(const char *workload, const char *params, int run,
		  const char *text, double wall, const struct cpu_util *u,
		  const struct run_meta *meta, const char *env_text,
		  struct sample_set *out);

#endif
