/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mailpolicy.h - who gets which mail: the one place that decides where
 * a job's reply goes, from what the job found (contrib/operating.md,
 * "Who gets which mail", states the same rules as a table).
 *
 *   list        the author and the thread's lists (reply.cc): a
 *               measured verdict (tested, improvement, regression)
 *               from a target fit to vouch (target_vouches()); a
 *               build or boot failure of the patched kernel where the
 *               base built and booted; an apply failure on a base
 *               someone named (the series' stated base, --base, the
 *               head of a named tree)
 *   moderators  held for bot.moderators (moderation.h): a measured
 *               verdict from a target not fit to vouch, a regression
 *               whose alignment control failed, and whatever
 *               bot.moderation holds of the list's mail
 *   outbox      kept in the outbox and the job (status shows it), not
 *               sent: emulated results (reply.emulated = outbox),
 *               noisy or inconclusive ones, identical binaries,
 *               duplicates, layout-only regressions, apply failures on
 *               the bot's own choice of base, a failure of the base
 *               kernel; the first two kinds with no moderator either
 *   author      privately to the author, once a thread: emulated
 *               results with reply.emulated = author
 *
 * A Tested-by goes only with a decisive verdict (not noisy, nothing
 * emulated, measured, no layout-only regression) from a target fit to
 * vouch.
 */
#ifndef SCHED_BOT_MAILPOLICY_H
#define SCHED_BOT_MAILPOLICY_H

#include "jobstate.h"

enum mail_dest {
	MAIL_LIST,		/* "list" */
	MAIL_MODERATORS,	/* "moderators" */
	MAIL_OUTBOX,		/* "outbox" */
	MAIL_AUTHOR,		/* "author" */
};

const char *mail_dest_name(enum mail_dest d);
/* -1 for an unknown name. */
int mail_dest_from_name(const char *name);

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct mailpolicy_opts {
	const char *emulated;	/* reply.emulated: outbox, author, list */
	size_t nr_moderators;	/* bot.moderators given */
};

/* Before any decision: one made before it is a bug. */
void mailpolicy_configure(const struct mailpolicy_opts *o);

/* What a job found, as the policy weighs it. */
struct mail_facts {
	enum job_outcome outcome;
	const char *target;
	int fit;		/* the target may vouch (target_vouches()) */
	int emulated;		/* a run under QEMU TCG */
	int noisy;		/* too noisy, or inconclusive */
	int identical;		/* the two vmlinux alike: nothing measured */
	int layout_only;	/* the alignment control did not see it */
	int align_failed;	/* an aligned kernel did not build */
	int failed_patched;	/* build or boot: the patched kernel only */
	int base_named;		/* apply: a base someone named was tried */
	const char *base_desc;	/* apply: the base tried */
	const char *same_as;	/* duplicate: the job that measured them */
};

/* What becomes of the reply. */
struct mail_decision {
	enum mail_dest dest;
	int tested_by;		/* the reply may carry a Tested-by */
	char *why;		/* one line, when not the list; else NULL */
};

/*
 * The facts of the job in dir, js its state: compare.json's verdict,
 * verdict.txt's noise, the machine of results.csv and machine.txt, the
 * target's fitness.  f's strings point into js.
 */
void mailpolicy_facts(const char *dir, const struct job_state *js,
		      struct mail_facts *f);

/* Decide for f; d->why allocated.  -1 (said) on a bad reply.emulated. */
int mailpolicy_decide(const struct mail_facts *f, struct mail_decision *d);
void mail_decision_release(struct mail_decision *d);

/*
 * Decide for the job in dir and record it in js (mail, mail_why).
 * Returns the decision's destination, or -1 (said).  *tested_by (may
 * be NULL) receives whether a Tested-by may go.
 */
int mailpolicy_job(const char *dir, struct job_state *js, int *tested_by);

#endif
