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
 *   results.csv      run       base and patched, runs interleaved A B A B
 *   compare.json     compare   statistics; tables.txt, verdict.txt,
 *                              regressions.txt, outcome
 *   reply.eml        reply     the composed reply
 *                    send      intent recorded, mail in the outbox
 *
 * A stage whose module is not built in stops the job with "stage X is
 * not available"; nothing is faked.
 */
#ifndef SCHED_BOT_JOB_H
#define SCHED_BOT_JOB_H

struct state;

enum job_stage {
	JOB_FETCH,		/* get thread.mbox */
	JOB_SERIES,		/* select the series, write series.json */
	JOB_APPLY,		/* base and base+series as commits */
	JOB_BUILD,		/* both kernels */
	JOB_RUN,		/* both on the target, interleaved */
	JOB_COMPARE,		/* statistics, tables, verdict */
	JOB_REPLY,		/* compose reply.eml */
	JOB_SEND,		/* record the intent, queue in the outbox */
	JOB_DONE,
};

const char *job_stage_name(enum job_stage stage);
/* -1 for an unknown name. */
int job_stage_from_name(const char *name);

struct job_opts {
	const char *msgid;	/* the thread to test, or NULL with mbox */
	const char *mbox;	/* a local thread instead of lore */
	const char *dir;	/* NULL: job.dir/<msgid> */
	const char *target;	/* NULL: job.target, default "qemu" */
	const char *workloads;	/* NULL: bot.workloads */
	int runs;		/* 0: bot.runs */
	const char *base;	/* NULL: from the series */
	int send;		/* really send (else the outbox only) */
	long long db_id;	/* the job's row in state, 0: none */
	const char *requested_by;	/* email command sender, or NULL */
	int restart;		/* options differ from the stored job: start over */
};

/*
 * Run (or resume) a job until it is done or a stage fails.  Returns 0
 * (tested, no regression), EXIT_REGRESSION, EXIT_FAIL (the series did
 * not apply or build: a reply says so; or a stage failed: the job can
 * be resumed), EXIT_NETWORK, EXIT_NOTFOUND.  *outcome (may be NULL)
 * receives the outcome string.
 */
int job_run(const struct job_opts *o, struct state *st, char **outcome,
	    char **dir_out);

/* The directory a job for msgid gets by default. */
char *job_default_dir(const char *msgid);

#endif
