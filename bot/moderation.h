/* SPDX-License-Identifier: GPL-2.0 */
/*
 * moderation.h - a moderator before the list, as syzbot's moderation
 * list: with bot.moderation = regressions (or all), a job's report of
 * that kind is not sent to the thread but held.  The mail the thread
 * would get is kept whole in the state (state.h's held reports) and a
 * note goes only to bot.moderators, with that mail attached
 * (message/rfc822) as it would be sent.  A moderator answers the note
 * with a signed mail command (mailcmd.h):
 *
 *	#sched-bot release		the held mail goes out unchanged:
 *					same Message-ID, threaded on the
 *					series, through the outbox's
 *					exactly-once intent (state.h)
 *	#sched-bot invalid <reason>	it is dropped, the reason recorded
 *
 * A report nobody judged within bot.holdDays expires: it is dropped
 * and recorded as expired.  The tally of the decisions by target and
 * workloads is the false-alarm rate as people judged it (status,
 * archive).
 *
 * The moderators' answers are read as every command is, by
 * cron.commandQuery: they must reach an inbox the bot polls (a
 * moderation list archived by public-inbox).
 */
#ifndef SCHED_BOT_MODERATION_H
#define SCHED_BOT_MODERATION_H

#include <stddef.h>

struct state;
struct mailcmd_result;

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct moderation_opts {
	const char *mode;		/* bot.moderation */
	const char *const *moderators;	/* bot.moderators */
	size_t nr_moderators;
	long hold_days;			/* bot.holdDays */
	const char *bot_name;		/* bot.name */
	const char *bot_email;		/* bot.email */
	const char *signature;		/* reply.signature */
};

/* Before any hold: a report held or judged before it is a bug. */
void moderation_configure(const struct moderation_opts *o);

/*
 * Whether a reply of this outcome (job_outcome_name()) is held: 1, 0,
 * or -1 after an error (bot.moderation not none, regressions or all;
 * moderation without a moderator): then nothing may be sent.
 */
int moderation_holds(const char *outcome);

/* The report a job would send, as moderation_hold() takes it. */
struct moderation_report {
	const char *msgid;	/* the public mail's Message-ID */
	const char *mail;	/* the public mail, as it would be sent */
	size_t len;
	long long job_id;
	const char *thread;	/* the series' root */
	const char *target;
	const char *workloads;
	const char *outcome;
	const char *why;	/* why it is held (mailpolicy.h); NULL:
				 * bot.moderation's mode
				 */
};

/*
 * Hold r: the note to the moderators (Message-ID "moderation.<the
 * public one>", the same on every run) into the outbox dir, *path its
 * file; with send, the report recorded as held and the note's intent
 * (state.h), in one transaction.  Run again after a crash, it adds
 * nothing.  0, or -1 after an error.
 */
int moderation_hold(struct state *st, const char *dir,
		    const struct moderation_report *r, int send,
		    char **path);

/*
 * A moderator's authenticated command r (r->moderating, MAILCMD_OK):
 * release or drop the held report whose note r answers, and record the
 * command, in one transaction; a report judged (or expired) already
 * is left as it is.  0 when handled, -1 when the next poll should try
 * again (the state or the outbox failed).
 */
int moderation_judge(struct state *st, const struct mailcmd_result *r);

/* Held reports older than bot.holdDays become expired; how many, or -1. */
long moderation_expire(struct state *st);

#endif
