/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blocks.h - a job's measurements: two kernels run on the job's target
 * in interleaved blocks (A B or B A, by a hash of the job's seed, so a
 * resumed job replays the same order), their rows appended to a job
 * file <stem>.csv until the job's plan stops (adaptive, or fixed by
 * --runs), and a round of such blocks judged into tables, a verdict
 * and the list of regressions.  The run stage, the confirmation round
 * and each step of a bisection are rounds of this one kind.
 *
 * The first block of the job writes machine.txt (the host, facts.h);
 * a lab's boots go to lab.txt; the workloads "auto" are planned once
 * (plan.h) into plan.txt, scaled to what the machine says of itself
 * (facts.txt), the table format "auto" into format.txt.  A machine that
 * runs between jobs is looked at before the first block (health.txt);
 * a busy one with target.NAME.busy = refuse stops the job (EXIT_BUSY).
 */
#ifndef SCHED_BOT_BLOCKS_H
#define SCHED_BOT_BLOCKS_H

#include "compare.h"
#include "jobstate.h"
#include "sequential.h"
#include "util.h"

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct blocks_opts {
	int seconds;		/* job.seconds: of each run */
	int spawn_gap;		/* job.spawnGap: before each spawn pass */
	int warmup;		/* job.warmup: pingpong's dropped samples */
	const char *format;	/* reply.format: of the tables, or "auto" */
};

/* Before any round: a block run before it is a bug. */
void blocks_configure(const struct blocks_opts *o);

/* A job's rounds: its directory and state, what its runs run. */
struct job_blocks {
	const char *dir;
	struct job_state *js;
	/* save js (the seed, runs_done) with ctx; -1 with an error */
	int (*save)(void *ctx);
	void *ctx;
	struct seq_plan plan;	/* adaptive, or fixed by --runs */
	char *workloads;	/* what the runs run: given, or the plan's */
	char *workload_args;	/* the plan's options of them, or NULL */
	/* kernel words of the reporter's size (plan.h, plan_cut), or NULL */
	char *append;
	char *format;		/* of the tables: reply.format, or auto's */
	/*
	 * The target the rounds run on and judge: NULL, the job's own
	 * (its state's target, its files in the job directory); in a job
	 * on several targets one of them (blocks_on_target).
	 */
	char *target;
	char *tdir;		/* that target's files: on-NAME/ in the job */
	char *machine;		/* the name its tables give it, or NULL */
	int several;		/* a job on several targets: its tables
				 * default to seed 000's (matrix), a row
				 * per machine
				 */
};

void blocks_init(struct job_blocks *b, const char *dir, struct job_state *js,
		 int (*save)(void *ctx), void *ctx);
void blocks_release(struct job_blocks *b);

/*
 * A job on several targets (job.target a comma-separated list) runs
 * and judges one target at a time: its rows are the rows of the job's
 * files (results.csv, confirm.csv) whose target column names it, and
 * the files of its own (machine.txt, facts.txt, plan.txt, health.txt,
 * lab.txt, profile.csv, run-N-base/...) go to the directory on-NAME/
 * of the job; machine is the name its tables give it ("x86_64 (4
 * CPUs)", blocks_machine_name), NULL: the rows' own.  The workloads
 * are planned again for it (its CPUs).  NULL target: the job's own,
 * as a job on one target has it.
 */
void blocks_on_target(struct job_blocks *b, const char *target,
		      const char *machine);

/* The directory of target name's own files in a job on several. */
char *blocks_target_dir(const char *dir, const char *name);

/*
 * What a target of a job on several is, in the words of seed 000's
 * table: "x86_64 (4 CPUs)", from the env record its first block kept
 * (on-NAME/run-1-head/env.txt, else base's), allocated; NULL when
 * there is none.
 */
char *blocks_machine_name(const char *dir, const char *name);

/*
 * The tables of the job file name judged for each of n targets (their
 * rows only) as one: each target's metrics named machines[i], so a
 * table has a row (or a group of columns, as the format puts
 * machines) per target, each row judged within its own target's
 * family.  0, or -1.
 */
int blocks_tables(struct job_blocks *b, const char *name,
		  char **targets, char **machines, size_t n,
		  struct strbuf *out);

/* The plan the job's runs follow: adaptive, or fixed by --runs. */
void blocks_plan(struct job_blocks *b);

/* The workloads (and options) of every block of the job, once. */
int blocks_workloads(struct job_blocks *b);

/* The two kernels of one comparison: [0] the baseline, [1] against it. */
struct blocks_pair {
	const char *kernel[2], *release[2], *label[2], *dir[2];
	int report_boot;	/* [1] failing its first boot is the result */
	/* workloads the round's first block also profiles on both kernels
	 * (boot_req.profile), their rows kept in profile.csv; NULL: none
	 */
	const char *profile;
};

/* The job's own pair: base and patched (run-<n>-base, run-<n>-head). */
void blocks_pair_of_job(struct job_blocks *b, struct blocks_pair *pk);

/*
 * Interleaved blocks of pk's kernels into the job file <stem>.csv until
 * the plan stops (compare_wants_more) or its budget is spent; with
 * --runs, exactly that many.  The blocks already in the file count, so
 * that a resumed job goes on where it stopped.  round 1 is the run
 * stage's (its directories run-<n>-..., runs_done kept), others seed
 * the order apart.  Returns 0, -2 when the patched kernel failed its
 * first boot with pk->report_boot (the job then goes to its reply,
 * boot-failed), or an exit code.
 */
int blocks_run(struct job_blocks *b, const char *stem, int round,
	       const struct blocks_pair *pk);

/* What one round of blocks says: tables, sentence, regressions. */
struct blocks_round {
	struct strbuf tables, verdict, regs, json;
	struct strbuf summary;	/* compare_summary(), for summary.txt */
	struct strbuf kpis;	/* each regressed KPI, "workload params metric machine" a line */
	enum verdict v;
	size_t blocks;
};

void blocks_round_init(struct blocks_round *rt);
void blocks_round_release(struct blocks_round *rt);

/*
 * Judge the job file name under the job's plan, the commits named, the
 * tables in the job's format; the sentence is compare's.  0, or -1.
 */
int blocks_judge(struct job_blocks *b, const char *name,
		 struct blocks_round *rt);

#endif
