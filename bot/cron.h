/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cron.h - one run of the bot, as cron or a systemd timer starts it:
 *
 *   1. take the lock (one instance at a time; a second exits at once);
 *   2. send the replies still pending from earlier runs (when sending);
 *   3. poll lore with each cron.query, "<since>" replaced by the time of
 *      the last poll (minus cron.overlap seconds), and queue each new
 *      series revision: once per (message-id, version, base, workloads);
 *      each polled mail is parsed within the mail budget first (mail.h)
 *      and a poison one, or one the bot died on twice, is quarantined
 *      in the state by Message-ID, reported once and skipped for good;
 *   4. poll lore with cron.commandQuery for "#sched-bot" commands
 *      (mailcmd.h), queue the allowed ones, answer the bad ones; fetch
 *      the named trees and queue a recheck of each series found merged
 *      there that the bot had reported a regression of (merged.h);
 *   5. run queued jobs until cron.budget seconds have passed (a job
 *      that fails cron.maxAttempts times is given up; one with a build
 *      to do waits, stage "disk-full", while the free space stays under
 *      gc.minFree after gc; one that stopped because a file system it
 *      writes to filled up, job.h's exit 6, is marked "disk-full" too,
 *      its attempt not counted, and the queue stops for this run; one
 *      whose machine was busy with target.NAME.busy = refuse, exit 7,
 *      is "busy" the same way, to be tried again by the next run);
 *   6. send the new replies;
 *   7. with gc.maxDiskBytes or gc.keepDays set, run gc (gc.h).
 *
 * Exit: 0; 4 when lore or SMTP failed; 6 when a job stopped for a full
 * disk or a pending mail found no room in the outbox (nothing is sent
 * that was not queued whole).
 */
#ifndef SCHED_BOT_CRON_H
#define SCHED_BOT_CRON_H

struct cron_opts {
	int send;		/* send replies (--send, smtp.send) */
	int poll;		/* 0: --no-poll, only the queue */
	long budget;		/* seconds; 0: cron.budget */
	long long since;	/* poll from here (epoch); 0: last poll */
	int max_jobs;		/* 0: no limit */
	int no_jobs;		/* --poll-only: queue, run nothing */
};

/* The configured settings, filled in bot/builtin/ (config-opts.c). */
struct cron_defaults {
	const char *bot_email;		/* bot.email: answers' ids */
	const char *workloads;		/* bot.workloads, or NULL */
	const char *known_workloads;	/* bot.knownWorkloads, or NULL */
	const char *signature;		/* reply.signature */
	long max_jobs_per_sender;	/* bot.maxJobsPerSender, 0: none */
	long max_jobs_per_day;		/* bot.maxJobsPerDay, 0: none */
	const char *target;		/* job.target: the queue's */
	long parallel;			/* target.<job.target>.parallel */
	long max_attempts;		/* cron.maxAttempts */
	long budget;			/* cron.budget, seconds */
	long overlap;			/* cron.overlap, seconds */
	long first_window;		/* cron.firstWindow, seconds */
	const char *const *queries;	/* cron.query, each value */
	size_t nr_queries;
	const char *const *command_queries;	/* cron.commandQuery */
	size_t nr_command_queries;
	int build_ahead;		/* cron.buildAhead */
	long merge_scan;		/* cron.mergeScan, 0: none */
	long fetch_timeout;		/* tree.fetchTimeout, seconds */
	long long gc_min_free;		/* gc.minFree, 0: none */
	long long gc_max_disk_bytes;	/* gc.maxDiskBytes, 0: none */
	long gc_keep_days;		/* gc.keepDays, 0: none */
};

/* Before any cron run or --add: one made first is a bug. */
void cron_configure(const struct cron_defaults *d);

int cron_run(const struct cron_opts *o);

/* Queue a test of msgid by hand (`cron --add`); prints the job id. */
int cron_add(const char *msgid, const char *workloads, int runs);

#endif
