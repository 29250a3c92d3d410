/* SPDX-License-Identifier: GPL-2.0 */
/*
 * job.h - one test of one series, from message-id to reply, kept in a
 * job directory like git am's state directory: every stage writes its
 * output there and then records the next stage in the file "state", so
 * an interrupted job resumes where it stopped.
 *
 *   thread.mbox      fetch     the thread (or the --mbox given)
 *   series.json      series    the series selected from it
 *   apply.log        apply     base and head commits, or the failure
 *   build-base.log   build     both kernels' build logs; kernels.txt
 *   build-head.log
 *   results.csv      run       base and patched, runs interleaved A B A B;
 *                              plan.txt: with workloads "auto" (the
 *                              default, bot.workloads), what ran and why
 *                              (plan.h)
 *   compare.json     compare   statistics; tables.txt (reply.format,
 *                              "auto": the thread's, tblfmt.h; the note
 *                              in format.txt), verdict.txt,
 *                              regressions.txt, outcome
 *   reply.eml        reply     the composed reply
 *                    send      intent recorded, mail in the outbox
 *
 * The file "state" is the job's memory (jobstate.h); series.json has the
 * schema of `sched-bot series --json` (series_to_json()).  job.c drives
 * the stages; the rounds of runs and their judgement are blocks.h, the
 * bisection of a confirmed regression bisect.h, the reply jobreply.h,
 * and the files of the directory jobdir.h.
 *
 * A stage whose module is not built in stops the job with "stage X is
 * not available"; nothing is faked.
 *
 * Several targets.  The target may be a comma-separated list ("q2,q4",
 * job.target or --target): the build stage builds the two kernels once
 * for all of them (they must build them alike: target.NAME.baseConfig
 * and fragments); the run stage runs each target in turn, its rows
 * appended to results.csv with its name in their target column, its
 * own files under on-NAME/ (blocks.h); the compare stage judges and
 * confirms each target on its own rows, names each machine
 * (machines.txt: "NAME<tab>x86_64 (4 CPUs)"), and writes one set of
 * tables with a row per machine, a verdict per machine (verdict.txt),
 * what each measured (measured.txt, the reply's first sentence), the
 * leads of all (summary.txt) and compare.json holding each target's.
 * One name is a job as it always was, byte for byte.
 *
 * Resuming.  The job keeps the options it was started with.  An option
 * of job_opts left unset (NULL, "", 0) takes the stored value; one that
 * differs from it (msgid, mbox, target, workloads, runs, base) is
 * refused with EXIT_USAGE and a message naming the stored value, so
 * that results of two settings are never mixed.  With restart the job
 * starts over with the options given (and the stored ones for those
 * not given): every file of the directory but "state", "lock" and,
 * when the thread is the same one, thread.mbox is removed, the state
 * is cleared, and the job starts at the series stage (the thread kept)
 * or at fetch (another thread, named by the message-id and mbox given,
 * not by the stored ones).  A reply already sent stays sent; the new
 * one is a new mail.
 *
 * Locking.  While a process works on a job, it holds flock(2) on the
 * file "lock" in the job directory (cron, which runs its jobs through
 * job_run() too, as well).  A second process on the same job does not
 * wait: job_run() returns EXIT_FAIL at once, with an error naming the
 * pid that holds the lock.
 */
#ifndef SCHED_BOT_JOB_H
#define SCHED_BOT_JOB_H

#include "jobstate.h"

struct state;

/* The configured defaults, filled in bot/builtin/ (config-opts.c). */
struct job_defaults {
	int fetch_on_demand;	/* tree.fetchOnDemand */
	const char *dir;	/* job.dir: the jobs' root, NULL/"": data dir */
	const char *target;	/* job.target: a name or a list */
	const char *workloads;	/* bot.workloads */
	int runs;		/* bot.runs */
	int quiet;		/* bot.quiet: no reply for a duplicate */
	const char *alignment;	/* compare.alignmentControl, or "off" */
	int profile;		/* job.profile: perf record in the confirmation */
};

/* Before any job: job_run() or job_default_dir() before it is a bug. */
void job_configure(const struct job_defaults *d);

struct job_opts {
	const char *msgid;	/* the thread to test, or NULL with mbox */
	const char *mbox;	/* a local thread instead of lore */
	const char *dir;	/* NULL: job.dir/<msgid> */
	const char *target;	/* NULL: job.target, default "qemu"; "a,b":
				 * each of those (see above)
				 */
	const char *workloads;	/* NULL: bot.workloads */
	int runs;		/* 0: bot.runs */
	const char *base;	/* NULL: from the series */
	int send;		/* really send (else the outbox only) */
	long long db_id;	/* the job's row in state, 0: none */
	const char *requested_by;	/* email command sender, or NULL */
	const char *on_top;	/* a mail of the thread whose diff is tested
				 * on top of the series, or NULL
				 */
	int restart;		/* start the stored job over (see above) */
	/* a recheck after merge (jobstate.h): cron gives these */
	const char *head;
	const char *merged_into;
	const char *report;
};

/*
 * Run (or resume) a job until it is done or a stage fails.  Returns 0
 * (tested, no regression), EXIT_REGRESSION, EXIT_FAIL (the series did
 * not apply or build: a reply says so; or a stage failed: the job can
 * be resumed; or another process holds the job's lock), EXIT_NETWORK,
 * EXIT_NOTFOUND, EXIT_USAGE (no job to run, or options that differ
 * from the stored job's without restart), EXIT_DISKFULL (a write of
 * the stage found no space, util.h's disk_full_path(): the stage is
 * not done, the state on disk still names it, and its files are whole
 * or absent; run the job again once there is room).  *outcome (may be NULL)
 * receives the outcome's name (job_outcome_name()), allocated.
 */
int job_run(const struct job_opts *o, struct state *st, char **outcome,
	    char **dir_out);

/* The directory a job for msgid gets by default. */
char *job_default_dir(const char *msgid);

#endif
