/* SPDX-License-Identifier: GPL-2.0 */
/*
 * state.h - the bot's memory, in SQLite (state.db, config state.db,
 * default $XDG_DATA_HOME/sched-bot/state.db): every series seen, every
 * job with its stage and outcome, every mail with its Message-ID, and
 * the email commands already handled.
 *
 * Exactly-once replies.  A reply is written to the job directory first
 * (reply.eml, with its Message-ID), then its intent is recorded
 * (state_mail_intent, one transaction), then it is sent, then the result
 * is recorded (state_mail_sent).  On restart, an intent without a result
 * is sent again WITH THE SAME Message-ID, unless the outbox shows it was
 * already sent (the file moved to cur/ after SMTP accepted it), or, when
 * the crash happened during the SMTP transaction (state_mail_sending),
 * lore already has that Message-ID (outbox.checkLore).  The only window
 * left for a duplicate is a crash between the server's "250" to DATA
 * and that rename, when lore has not archived the mail yet.  We prefer
 * this (at-least-once, same Message-ID, which public-inbox, lore and b4
 * deduplicate) over at-most-once, which would silently lose a reply.
 *
 * Crash testing: with SCHED_BOT_CRASH_AT=<point> in the environment,
 * state_crash_point(<point>) makes the process _exit(137) there, as a
 * kill -9 would; without the variable it does nothing.  Points:
 * after-<stage> (job.c, after each stage is saved), before-intent,
 * intent-recorded (job.c), smtp-sending, smtp-accepted, outbox-moved
 * (outbox.c), command-answered (cron.c: an answer to a mail command
 * is queued, the command not yet recorded as handled), poll-message
 * (cron.c, with a polled mail in hand), release-queued (moderation.c:
 * a released report is in the outbox, its release not yet recorded),
 * merge-recorded (merged.c: a merge and its recheck job recorded, the
 * branch's scanned head not yet).
 */
#ifndef SCHED_BOT_STATE_H
#define SCHED_BOT_STATE_H

struct state;

/* Where the database is: state.db, filled by the tool at start-up. */
struct state_opts {
	const char *db;		/* state.db; NULL: the default */
};
void state_configure(const struct state_opts *o);

/* Open (creating) the database; path NULL: state_default_path(). */
struct state *state_open(const char *path);
void state_close(struct state *st);
/* state_opts.db, else $XDG_DATA_HOME/sched-bot/state.db.  Caller frees. */
char *state_default_path(void);

/*
 * One instance at a time: flock(LOCK_EX|LOCK_NB) on <db>.lock.  Returns
 * the descriptor (keep it open), or -1 when another instance holds it.
 */
int state_lock(const char *db_path);

/* Exit as if killed when SCHED_BOT_CRASH_AT names this point. */
void state_crash_point(const char *point);

/*
 * Record a series revision; 0 when new (a job is queued for it and
 * *job_id set), 1 when (msgid, version, base, workloads) was seen.
 */
int state_series_add(struct state *st, const char *msgid, int version,
		     const char *base, const char *workloads,
		     const char *subject, long long *job_id);

struct state_job {
	long long id;
	char *msgid;		/* what to test (cover or patch 1) */
	char *workloads;	/* "" for the configured default */
	int runs;		/* 0 for the configured default */
	char *requested_by;	/* email command sender, or NULL */
	char *command_msgid;	/* the command mail, or NULL */
	char *stage;		/* "queued", then job.h's stage names */
	/* NULL while pending, else "tested", "regression", "apply-failed"... */
	char *outcome;
	char *job_dir;
};

/* Queue a job by hand (email commands, `test`); sets *job_id. */
int state_job_add(struct state *st, const char *msgid, const char *workloads,
		  int runs, const char *requested_by,
		  const char *command_msgid, long long *job_id);
/* The oldest job without an outcome; 1 when found, 0 when none. */
int state_job_next(struct state *st, struct state_job *job,
		   long long after_id);
int state_job_get(struct state *st, long long id, struct state_job *job);
/*
 * The job that tested msgid (a cover letter or patch 1): the newest with
 * an outcome, else the newest queued, a recheck after merge (merged.h)
 * left out; 1 when found, 0 when none.
 */
int state_job_find(struct state *st, const char *msgid, struct state_job *job);
int state_job_update(struct state *st, long long id, const char *stage,
		     const char *outcome, const char *job_dir);
/*
 * Where the job's reply went and why (mailpolicy.h: "list",
 * "moderators", "outbox", "author"); _kept calls fn for each job
 * updated since a time whose reply did not go to the list, oldest
 * first (fn returns 0 to go on).
 */
int state_job_mail_set(struct state *st, long long id, const char *mail,
		       const char *why);
int state_jobs_kept(struct state *st, long long since,
		    int (*fn)(long long id, const char *msgid,
			      const char *mail, const char *why, void *data),
		    void *data);
/* Count one more attempt at a job; returns the count. */
int state_job_attempt(struct state *st, long long id);
/* Take that attempt back: the job stopped for a full disk, not a fault. */
int state_job_attempt_undo(struct state *st, long long id);
void state_job_release(struct state_job *job);

/*
 * Lineage, as lineage.h decides it; these only store.  A version is a
 * series' cover letter (else patch 1), by message-id; a family links
 * the versions of one series; family 0 is none (the version is left
 * unlinked, "why" says why).  Keys are the normalised subjects a
 * version is known by, of kind "cover" or "patch".
 */
struct state_version {
	char *msgid;
	long long family;	/* 0: unlinked */
	int version;
	char *change_id;	/* b4's change-id:, or NULL */
	char *author;		/* lower-case address */
	char *subject;
	char *why;		/* how it was linked, or why not */
	long long seen_at;
	/*
	 * Who may post a later version: the author and the Signed-off-by
	 * and Co-developed-by of its own patches, lower-case addresses
	 * separated by spaces; NULL in rows older than the column.
	 */
	char *people;
};

/* 1 and *v when msgid is recorded, 0 when not, -1 on error. */
int state_version_get(struct state *st, const char *msgid,
		      struct state_version *v);
void state_version_release(struct state_version *v);
int state_version_add(struct state *st, const struct state_version *v);
int state_version_key_add(struct state *st, const char *msgid,
			  const char *kind, const char *key);
/* The family with that change-id, 0 when none, -1 on error. */
long long state_family_of_change_id(struct state *st, const char *change_id);
/*
 * The families holding a version by author known by key (of kind):
 * the first max of them into ids; returns how many there are, or -1.
 */
int state_families_by_key(struct state *st, const char *author,
			  const char *kind, const char *key, long long *ids,
			  int max);
/* A new family; its id, or -1. */
long long state_family_new(struct state *st, const char *change_id);
/* Give a family without a change-id the one a later version carries. */
int state_family_set_change_id(struct state *st, long long family,
			       const char *change_id);
/* Each version of a family, oldest first; fn returns 0 to go on. */
int state_family_versions(struct state *st, long long family,
			  int (*fn)(const struct state_version *v,
				    void *data), void *data);
/* The version a job tests (its series stage found it). */
int state_job_version_set(struct state *st, long long job_id,
			  const char *msgid);
/* Each job of a version, oldest first; fn returns 0 to go on. */
int state_version_jobs(struct state *st, const char *msgid,
		       int (*fn)(const struct state_job *job, void *data),
		       void *data);

/*
 * What a job applied: the patch-ids of its commits (git patch-id
 * --stable), in order, space-separated, on which base commit, for
 * which target and workloads.
 */
struct state_patches {
	const char *msgid;	/* the version */
	const char *base;	/* the base commit */
	const char *target;
	const char *workloads;
	const char *patch_ids;
};

int state_job_patches_set(struct state *st, long long job_id,
			  const struct state_patches *p);
/*
 * The newest other job that applied the same patches to the same base
 * for the same target and workloads and was measured (tested or
 * regression): its id, 0 when none, -1 on error.
 */
long long state_job_same_patches(struct state *st, long long job_id,
				 const struct state_patches *p);

/* Each measured job's patches (tested or regression), oldest first. */
int state_measured_patches(struct state *st,
			   int (*fn)(const struct state_patches *p,
				     long long job_id, void *data),
			   void *data);

/*
 * A measured job's patches found in a named tree (merged.h): the
 * branch, the commit of the series' last patch there and the parent of
 * its first, what the job ran (target, workloads) and its report.
 */
struct state_merge {
	long long job_id;
	char *tree;		/* "tip/sched/core" */
	char *commit;
	char *parent;
	char *target;
	char *workloads;
	char *report;		/* the job's reply Message-ID, or NULL */
	long long recheck_job;	/* the job that runs it again, 0: none */
	long long recorded_at;
};

/*
 * Record m once per (job, tree), and with recheck_msgid a recheck job
 * for that version in the same transaction (m->recheck_job set): a
 * crash leaves both or neither.  1 recorded, 0 recorded before, -1.
 */
int state_merge_add(struct state *st, struct state_merge *m,
		    const char *recheck_msgid);
/* The merge a recheck job runs: 1 and *m, 0 when job_id is none. */
int state_merge_of_recheck(struct state *st, long long job_id,
			   struct state_merge *m);
/* Each merge of a job's patches; fn returns 0 to go on. */
int state_job_merges(struct state *st, long long job_id,
		     int (*fn)(const struct state_merge *m, void *data),
		     void *data);
void state_merge_release(struct state_merge *m);

enum mail_status {
	MAIL_UNKNOWN = 0,
	MAIL_INTENT,		/* recorded, not known to be sent */
	MAIL_SENT,
};

/* Record the intent to send; idempotent per Message-ID. */
int state_mail_intent(struct state *st, const char *message_id,
		      long long job_id, const char *thread, const char *path);
/* Just before SMTP: after a crash past this point, delivery is unknown. */
int state_mail_sending(struct state *st, const char *message_id);
int state_mail_sent(struct state *st, const char *message_id);
int state_mail_failed(struct state *st, const char *message_id,
		      const char *why);
enum mail_status state_mail_status(struct state *st, const char *message_id);

struct state_mail {
	char *message_id;
	long long job_id;
	char *thread;
	char *path;		/* the job's reply.eml */
	int attempts;
	int uncertain;		/* a send started, its end unknown */
	long long created_at;	/* when the intent was recorded */
};

/* Every intent without a result, oldest first. */
int state_mails_pending(struct state *st, struct state_mail **mails,
			size_t *nr);
void state_mails_release(struct state_mail *mails, size_t nr);
/* Mails sent since the time given (and to the thread, if not NULL). */
long state_mails_sent_since(struct state *st, long long since,
			    const char *thread);
/* Recipients of the mails sent since the time given. */
long state_recipients_sent_since(struct state *st, long long since);
/* How many recipients a mail has; set before it is sent. */
int state_mail_recipients(struct state *st, const char *message_id, int n);
/*
 * A mail that will not be sent: too old (outbox.maxAge), or refused
 * before SMTP (too many recipients).  It leaves the pending list.
 */
int state_mail_drop(struct state *st, const char *message_id,
		    const char *why);
/*
 * Is message_id a mail the bot sent (SMTP took it)?  Returns the thread
 * root recorded with it (caller frees), or NULL.
 */
char *state_mail_thread(struct state *st, const char *message_id);

/*
 * Email commands already handled (by the command's Message-ID).  sig,
 * when not NULL, is the b= of the DKIM signature that authenticated
 * the command (dkim.h), recorded with it in one transaction.
 */
int state_command_seen(struct state *st, const char *msgid);
int state_command_add(struct state *st, const char *msgid,
		      const char *sender, const char *outcome,
		      const char *sig);
/*
 * The Message-ID of the command recorded with that signature: 1 and
 * *msgid (caller frees) when a command carried it, 0 when none did, -1
 * when the state cannot say (the caller then refuses the command: a
 * signature authenticates one command, once, and a failed look-up must
 * not let a replay through).
 */
int state_command_sig_msgid(struct state *st, const char *sig, char **msgid);
/* Commands of sender (NULL: anyone) with that outcome since a time. */
long state_commands_since(struct state *st, long long since,
			  const char *sender, const char *outcome);
/* Jobs queued by mail commands since a time, by sender (NULL: all). */
long state_jobs_requested_since(struct state *st, long long since,
				const char *sender);

/*
 * One transaction around several writes (BEGIN IMMEDIATE ... COMMIT):
 * a crash inside leaves none of them.  Not nested.
 */
int state_begin(struct state *st);
int state_commit(struct state *st);
void state_rollback(struct state *st);

/* Small key-value store: last poll time and the like. */
/*
 * Poison mail (mail.h: over a parse budget, or it crashed a parser or
 * the bot), by Message-ID and digest (mbox_digest(): another mail may
 * show the same Message-ID): cron skips it for good.  _add returns 1
 * when the mail is new to the table, 0 when it was there, -1 on error.
 */
int state_quarantined(struct state *st, const char *msgid,
		      const char *digest);
int state_quarantine_add(struct state *st, const char *msgid,
			 const char *digest, const char *reason,
			 long long size);

/*
 * The poll's progress, mail by mail: a mail of query kind ("series",
 * "command") handled to the end is recorded, by Message-ID and digest
 * as in the quarantine, and skipped when a later poll finds it again (a
 * poll killed half-way).  _expire drops the rows recorded before a time
 * no query reaches back to any more.
 */
int state_polled(struct state *st, const char *kind, const char *msgid,
		 const char *digest);
int state_polled_add(struct state *st, const char *kind, const char *msgid,
		     const char *digest);
int state_polled_expire(struct state *st, long long before);

char *state_meta_get(struct state *st, const char *key);
int state_meta_set(struct state *st, const char *key, const char *value);

/* The state of the mail's row: "intent", "sent", "dropped", or NULL
 * when there is none; caller frees.
 */
char *state_mail_state(struct state *st, const char *message_id);
/* A pending mail a rate cap holds back: why, for `status`. */
int state_mail_held(struct state *st, const char *message_id,
		    const char *why);

struct state_mail_stats {
	long pending;		/* intents without a result */
	long held;		/* of those, held back by a rate cap */
	long dropped;		/* will not be sent (too old, too many rcpts) */
	long long oldest_pending_at;	/* created_at, 0: none pending */
};
int state_mail_stats(struct state *st, struct state_mail_stats *s);

/* The jobs without an outcome, counted by stage; fn returns 0 to go on. */
int state_jobs_by_stage(struct state *st,
			int (*fn)(const char *stage, long n, void *data),
			void *data);
/* Jobs given an outcome since a time: tested, regression or duplicate
 * (measured before: nothing failed; failed 0), or any other outcome
 * (failed 1).
 */
long state_jobs_finished_since(struct state *st, long long since,
			       int failed);

/* Each meta row whose key starts with prefix, in key order. */
int state_meta_list(struct state *st, const char *prefix,
		    int (*fn)(const char *key, const char *value, void *data),
		    void *data);

/*
 * Reports held for a moderator (moderation.h), by the Message-ID of the
 * public mail they would be; the mail itself is kept here, whole, so
 * that a release sends exactly what was held, whatever gc did to the
 * job directory since.  status: "held", then "released", "invalid"
 * (reason: the moderator's) or "expired".
 */
struct state_held {
	char *public_msgid;
	char *hold_msgid;	/* the mail to the moderators */
	long long job_id;
	char *thread;		/* the series' root */
	char *target;
	char *workloads;
	char *outcome;
	char *mail;		/* the public mail as it would be sent */
	char *status;
	char *reason;
	char *decided_by;
	long long created_at;
};
/* Record a held report; nothing when its public Message-ID is there. */
int state_held_add(struct state *st, const struct state_held *h);
/* By either Message-ID: 1 and *h, 0 when none, -1 on error. */
int state_held_get(struct state *st, const char *msgid, struct state_held *h);
void state_held_release(struct state_held *h);
/* A held report judged: 1 when it was held, 0 when judged already. */
int state_held_decide(struct state *st, const char *public_msgid,
		      const char *status, const char *reason, const char *by);
/* Held reports recorded before a time become "expired"; how many. */
long state_held_expire(struct state *st, long long before);
/* The reports by target, workloads and status; fn returns 0 to go on. */
int state_held_tally(struct state *st,
		     int (*fn)(const char *target, const char *workloads,
			       const char *status, long n, void *data),
		     void *data);

/*
 * Retention (gc.h).  Which rows only a cache needs, and which make the
 * bot's answers exactly-once and so are never pruned:
 *
 *   pruned   polled        a poll's progress, for a poll killed half-way;
 *                          no query reaches back before the poll window
 *   kept     mails         every Message-ID sent, intended or dropped:
 *                          the exactly-once record and the rate caps
 *   kept     series        each (msgid, version, base, workloads) once
 *   kept     jobs          the queue and the outcomes `check` reports
 *   kept     commands,     each mail command handled once, each DKIM
 *            command_sigs  signature used once
 *   kept     quarantine    poison mail stays skipped
 *   kept     moderation    each held report, its decision and the tally
 *   kept     meta          last poll, build-ahead heads, poll recovery
 *   kept     families,     the lineage of every series: later versions
 *            versions,     and `history` look back at it
 *            version_keys,
 *            job_versions
 *   kept     job_patches   what each job applied: nothing measured twice
 *   kept     merges        each merge found once, its recheck queued once
 *
 * state_prune() deletes the pruned rows recorded before a time and
 * returns how many, or -1.
 */
long state_prune(struct state *st, long long before);

#endif
