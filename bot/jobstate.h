/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobstate.h - what a job directory remembers between runs, typed, with
 * its one reader and its one writer, and the lock that keeps a second
 * process out while one works on the job.
 *
 * The file "state" is text, one "key=value" a line, the keys being the
 * fields below (named in their comments where they differ).  It is
 * written whole with write_file_atomic() after every stage, so a crash
 * leaves either the old file or the new one, never half of one.  A
 * value is a single line: a newline in hostile input (a Subject:, an
 * author) is flattened to a space when the field is set.  A number is
 * decimal digits, nothing else ("3x", "", "-1" are refused).  An empty
 * string and a 0 are not written; a missing key reads as NULL or 0.
 * Blank lines and lines starting with '#' are skipped.  An unknown key
 * is refused rather than dropped on the next write: it comes from a
 * newer sched-bot, whose job this one cannot finish faithfully.
 *
 * Files written before the state was typed (every key present, unset
 * ones as "key=") load unchanged: the key names are the same.
 */
#ifndef SCHED_BOT_JOBSTATE_H
#define SCHED_BOT_JOBSTATE_H

#include <string.h>

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

/*
 * What a job came to: the reply it gets, and sched-bot test's exit code.
 * The names are the state file's "outcome=" values and the words of
 * the check answers (b4check.h) and of the archive (archive.h).
 */
enum job_outcome {
	JOB_OUTCOME_NONE,	/* "": not yet, the job has not got there */
	JOB_TESTED,		/* "tested": measured, no regression */
	JOB_REGRESSION,		/* "regression": one, confirmed */
	JOB_APPLY_FAILED,	/* "apply-failed": the series did not apply */
	JOB_BUILD_FAILED,	/* "build-failed": a kernel did not build */
	JOB_BOOT_FAILED,	/* "boot-failed": the patched one did not run */
	JOB_DUPLICATE,		/* "duplicate": its patches were measured
				 * already (same patch-ids, base, target):
				 * not built nor run, the reply points at
				 * the earlier result
				 */
	JOB_NR_OUTCOMES,
};

/* "" for JOB_OUTCOME_NONE and for a value out of range. */
const char *job_outcome_name(enum job_outcome outcome);
/* -1 for an unknown name; "" is JOB_OUTCOME_NONE. */
int job_outcome_from_name(const char *name);
/* The series did not apply, build or boot: a reply says which. */
int job_outcome_failed(enum job_outcome outcome);

/* The two kernels a job compares. */
enum job_side_id {
	JOB_SIDE_BASE,		/* "base": the series' base */
	JOB_SIDE_HEAD,		/* "head": base + the series, "patched" */
	JOB_NR_SIDES,
};

struct job_side {
	char *commit;		/* <side>_commit: what apply made */
	char *kernel;		/* kernel_<side>: the built image */
	char *release;		/* release_<side>: its uname -r */
	char *config;		/* config_<side>: its .config */
	char *digest;		/* digest_<side>: its vmlinux text and data,
				 * vmlinux.h; NULL unknown
				 */
};

struct job_state {
	enum job_stage stage;	/* stage: the next one to run */

	/* What the job was started with (the options; see job.h). */
	char *msgid;		/* the message-id asked for, or NULL */
	char *mbox;		/* absolute path of --mbox, or NULL */
	char *target;
	char *workloads;
	int runs;
	char *base;		/* --base, or NULL: the series' own */
	char *requested_by;	/* email command sender, or NULL */
	char *on_top;		/* the mail whose diff goes on top of the
				 * series (a command's), or NULL
				 */
	/*
	 * A recheck after merge (merged.h): the patched side is this commit
	 * of a named tree, nothing applied, the base the parent of the
	 * series' first commit there; merged_into names the branch
	 * ("tip/sched/core"), report the reply it rechecks (the new one
	 * is threaded under it and closes it).
	 */
	char *head;
	char *merged_into;
	char *report;

	/* The series (series stage; series.json holds all of it). */
	char *cover_msgid;	/* the cover letter, else patch 1 */
	char *subject;
	char *author;
	char *author_email;
	int version;
	int nr_patches;
	char *series_base;	/* the base the author named, or NULL */
	/* run first: the workloads v<run_first_version> regressed */
	char *run_first;
	int run_first_version;

	/* apply */
	char *base_desc;	/* "v6.1-rc6 (base-commit:)", ... */
	char *base_warning;
	char *base_hint;	/* why it did not apply, what to try */
	int base_named;		/* 1: the base is one someone named: the
				 * series' stated base, --base, or the
				 * head of a named tree the bot tracks
				 * (apply.h); 0: the bot's own choice
				 */
	struct job_side side[JOB_NR_SIDES];
	int on_top_applied;	/* 1: head_commit has on_top's diff */
	char *patch_ids;	/* of base..head, patchid.h */
	char *same_as;		/* a duplicate: the job dir measured them */
	char *same_as_reply;	/* ... and its reply's Message-ID */

	/* build */
	char *base_config;	/* what the kernels were built from: a
				 * file or make target; NULL build.baseConfig
				 */
	char *config_origin;	/* where base_config came from (the reply) */
	char *fragments;	/* merged onto it: build_opts.fragment_list;
				 * NULL BUILD_FRAGMENTS (a job before them)
				 */
	char *config_hash;	/* base config + fragments (build.h) */
	char *failed_which;	/* "base" or "patched" */

	/* run */
	int runs_done;		/* A B pairs in results.csv */
	int runs_fixed;		/* --runs given: that many, no adaptive stop */
	int seed;		/* of the A B / B A order of the blocks */

	/* compare: a suspected regression confirmed, the guilty patch */
	int confirmed;		/* 1 the confirmation round agreed, 2 not */
	int bisect_lo;		/* patches known not to regress (base+lo) */
	int bisect_hi;		/* patches known to regress; 0 not started */
	int aligned;		/* the alignment control: enum align_result */

	/* compare (tested, regression), or a failure (apply-failed) */
	enum job_outcome outcome;

	/* reply: where it goes and why (mailpolicy.h) */
	char *mail;		/* "list", "moderators", "outbox", "author" */
	char *mail_why;		/* why not the list; NULL for the list */

	/* reply, send */
	char *reply_msgid;
	char *outbox;		/* the reply's file in the outbox */
};

void job_state_init(struct job_state *js);

/*
 * Whether the two kernels' vmlinux are alike in code and data (their
 * digests known and equal): nothing to run, nothing to claim.
 */
int job_state_identical(const struct job_state *js);
void job_state_release(struct job_state *js);

/*
 * Set a string field: a copy of val, newlines flattened; NULL or ""
 * leaves it NULL.
 */
void job_state_set(char **field, const char *val);

/* A string field for a format or a callee that wants "" for unset. */
static inline const char *job_str(const char *v)
{
	return v ? v : "";
}

/* Two string fields, both set and equal. */
static inline int job_same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * Read path into js (initialised by the caller).  Returns 0, 1 when
 * there is no such file (a new job), or -1 with an error naming the
 * file, line and key.
 */
int job_state_read(struct job_state *js, const char *path);

/* The text of the state file, appended to out. */
struct strbuf;
void job_state_format(const struct job_state *js, struct strbuf *out);

/* Write path atomically; -1 with an error printed. */
int job_state_write(const struct job_state *js, const char *path);

/*
 * Lock the job directory dir: flock(LOCK_EX|LOCK_NB) on dir/lock, which
 * then holds the locker's pid (for people; the lock is flock's, so a
 * killed process holds nothing).  Returns the descriptor, which the
 * builds and targets run do not inherit, or -1 with an error naming
 * the process that holds the lock (from /proc/locks, else the file).
 */
int job_state_lock(const char *dir);
/* Unlock: empty the file, close fd.  fd < 0 is a no-op. */
void job_state_unlock(int fd);

#endif
