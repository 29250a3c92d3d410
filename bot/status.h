/* SPDX-License-Identifier: GPL-2.0 */
/*
 * status.h - what an operator (or a monitoring system) asks of a bot
 * that runs unattended: the last poll and its result, the queue by
 * stage, jobs done and failed in the last day and week, mails sent,
 * pending, held back by the rate caps and dropped, the targets and
 * their health (down when the target is marked unhealthy, target.h:
 * a machine that did not come back; up otherwise), disk use against gc's budget
 * (gc.h), the oldest unsent mail, and the moderators' tally of the
 * reports held for them (moderation.h) by target and workloads, and
 * each job of the last week whose reply the mail policy kept off the
 * list, where it went and why (mailpolicy.h).
 *
 * Needs an operator: the last poll failed, or is older than
 * status.maxPollAge (or there was none); a mail unsent for more than a
 * day; disk use over gc.maxDiskBytes or the free space under
 * gc.minFree; a target whose health is "down".
 */
#ifndef SCHED_BOT_STATUS_H
#define SCHED_BOT_STATUS_H

#include "gc.h"

struct state;
struct strbuf;

struct status_count {
	char *name;
	long n;
};

/* The held reports of one target and workloads, by what became of them. */
struct status_moderation {
	char *target;
	char *workloads;
	long held, released, invalid, expired;
};

/* A job of the last week whose reply did not go to the list. */
struct status_kept {
	long long job;
	char *msgid;
	char *mail;		/* "outbox", "moderators", "author" */
	char *why;
};

struct status {
	long long now;
	long long poll_at;	/* last poll attempt, 0: none */
	long long poll_ok_at;	/* last poll that succeeded, 0: none */
	char *poll_result;	/* "ok", "failed", or NULL */
	struct status_count *queue;	/* pending jobs by stage */
	size_t nr_queue, alloc_queue;
	long done_day, failed_day, done_week, failed_week;
	long sent_day, sent_week, pending, held, dropped;
	long long oldest_unsent_at;	/* 0: none */
	struct status_count *targets;	/* n: 1 up, 0 down, -1 unknown */
	size_t nr_targets, alloc_targets;
	struct gc_usage disk;
	struct status_moderation *moderation;
	size_t nr_moderation, alloc_moderation;
	struct status_kept *kept;	/* the mail policy's decisions */
	size_t nr_kept, alloc_kept;
	char **alerts;		/* why an operator is needed */
	size_t nr_alerts, alloc_alerts;
};

/* What status_collect() measures against; the tool fills it. */
struct status_opts {
	long max_poll_age;	/* status.maxPollAge, seconds */
	const char *target;	/* job.target */
};

/* Fill s from the state and the disk; -1 when the state fails. */
int status_collect(struct state *st, const struct status_opts *o,
		   struct status *s);
void status_release(struct status *s);
/* Only the tally (for the archive's index); -1 when the state fails. */
int status_moderation_collect(struct state *st, struct status *s);

/* For a terminal: what came from mail (a Message-ID) shown as text. */
void status_format(const struct status *s, struct strbuf *out);
void status_format_json(const struct status *s, struct strbuf *out);
/* node_exporter's textfile collector format, metrics sched_bot_*. */
void status_format_prometheus(const struct status *s, struct strbuf *out);

#endif
