/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mailcmd.h - commands sent to the bot by mail, like syzbot's.  A reply
 * in a series' thread that is addressed to the bot (bot.email in To: or
 * Cc:) and holds a line
 *
 *	#sched-bot test [workload[,workload...]] [runs=N]
 *
 * from a sender listed in bot.allow (multi-valued: an address, or
 * "@domain" for a whole domain) queues a test of that thread's series.
 * Quoted lines ("> ...") never count.  Anything else, or from anyone
 * else, is ignored and logged.  At most MAILCMD_MAX commands per mail;
 * more, or a bad argument, is answered with an error and nothing runs.
 * The From: header is trusted as the list delivered it: run the bot
 * only on lists that check DKIM/SPF, or keep the allowlist short.
 */
#ifndef SCHED_BOT_MAILCMD_H
#define SCHED_BOT_MAILCMD_H

#include <stddef.h>

#define MAILCMD_MAX 3

enum mailcmd_status {
	MAILCMD_NONE,		/* no command in the mail */
	MAILCMD_IGNORED,	/* not for us, or a sender not allowed */
	MAILCMD_ERROR,		/* allowed sender, bad command: say why */
	MAILCMD_OK,		/* cmds[] to queue */
};

struct mailcmd {
	char *workloads;	/* "spawn,pingpong"; "" for the default */
	int runs;		/* 0 for the default */
};

struct mailcmd_result {
	enum mailcmd_status status;
	char *sender;		/* bare address, lowercase */
	char *msgid;		/* the command mail's Message-ID */
	/* the thread it answers: first References: entry, else In-Reply-To: */
	char *target;
	struct mailcmd cmds[MAILCMD_MAX];
	int nr;
	char *why;		/* for IGNORED and ERROR */
};

/* Parse one raw mail; never fails on hostile input (status says it). */
void mailcmd_parse(const char *mail, size_t len, struct mailcmd_result *r);
void mailcmd_release(struct mailcmd_result *r);

/* Is this sender on the bot.allow list? */
int mailcmd_allowed(const char *email);

#endif
