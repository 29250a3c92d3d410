/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mailcmd.h - commands sent to the bot by mail, like syzbot's.  A reply
 * in a series' thread that is addressed to the bot (bot.email in To: or
 * Cc:) and holds a line
 *
 *	#sched-bot test [workload[,workload...]] [runs=N]
 *
 * queues a test of that thread's series (when the mail also carries a
 * diff, as `git am` would take it, of the series with that diff on top,
 * as syzbot's "#syz test" does), when all of these hold:
 *  - the sender is on bot.allow (multi-valued: an address, or "@domain"
 *    for exactly that domain), the From: header parsed as RFC 5322 by
 *    libetpan: one From: header, one mailbox, a plain addr-spec (the
 *    display name never counts);
 *  - the mail answers a mail the bot sent (In-Reply-To or References
 *    names a Message-ID in the state); the thread tested is the one of
 *    that mail, whatever else the headers say;
 *  - a DKIM signature verifies and aligns with the From: domain (dkim.h),
 *    and its h= tag signs From, Message-ID, In-Reply-To, References and
 *    Date;
 *  - the mail has one copy of each of From, Message-ID, In-Reply-To,
 *    References, Subject and Date: DKIM verifies the last copy of a
 *    header and the bot reads the first, so a genuine command from lore
 *    with a new Message-ID and References put on top would otherwise
 *    verify and be read as a command for another thread;
 *  - its signed Date: is at most MAILCMD_MAX_AGE old and at most
 *    MAILCMD_MAX_AHEAD ahead;
 *  - its signature (the b= value) authenticated no other command: a
 *    signature counts once (state.h's command signatures), whatever
 *    Message-ID a copy of the mail shows.
 * A moderator (bot.moderators, a list of the same form) answers a
 * report held for moderation (moderation.h) with a line
 *
 *	#sched-bot release
 *	#sched-bot invalid <reason>
 *
 * alone in its mail, under the same checks but against bot.moderators:
 * bot.allow lets no one moderate, nor bot.moderators test.
 * Quoted lines ("> ...") never count.  Anything else is ignored and
 * logged, never answered (an answer to a forged mail would let anyone
 * make the bot write to anyone).  At most MAILCMD_MAX commands per
 * mail; more, or a bad argument, from an authenticated sender is
 * answered with an error and nothing runs.
 */
#ifndef SCHED_BOT_MAILCMD_H
#define SCHED_BOT_MAILCMD_H

#include <stddef.h>

struct state;

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct mailcmd_opts {
	const char *bot_email;	/* bot.email: commands are to it */
	const char *const *allow;	/* bot.allow: addresses, @domains */
	size_t nr_allow;
	const char *const *moderators;	/* bot.moderators: the same form */
	size_t nr_moderators;
	const char *known_workloads;	/* bot.knownWorkloads, or NULL */
	long max_runs;		/* bot.maxRuns */
};

/* Before any parse: a mail parsed before it is a bug. */
void mailcmd_configure(const struct mailcmd_opts *o);

#define MAILCMD_MAX 3
/* The longest reason an invalid command may give */
#define MAILCMD_MAX_REASON 200
/* How old a command's signed Date: may be, and how far ahead: seconds */
#define MAILCMD_MAX_AGE (7 * 86400)
#define MAILCMD_MAX_AHEAD 86400

enum mailcmd_status {
	MAILCMD_NONE,		/* no command in the mail */
	MAILCMD_IGNORED,	/* not for us, or a sender not allowed */
	MAILCMD_ERROR,		/* allowed sender, bad command: say why */
	MAILCMD_OK,		/* cmds[] to queue */
};

enum mailcmd_verb {
	MAILCMD_TEST,		/* queue a test: workloads, runs */
	MAILCMD_RELEASE,	/* send the held report it answers */
	MAILCMD_INVALID,	/* drop it, for reason */
};

/* At most MAILCMD_MAX of them; release and invalid come alone. */
struct mailcmd {
	enum mailcmd_verb verb;
	char *reason;		/* MAILCMD_INVALID: the moderator's words */
	char *workloads;	/* "spawn,pingpong"; "" for the default */
	int runs;		/* 0 for the default */
};

struct mailcmd_result {
	enum mailcmd_status status;
	char *sender;		/* bare address, lowercase */
	char *domain;		/* its domain */
	int authenticated;	/* mailcmd_authenticate() passed */
	char *msgid;		/* the command mail's Message-ID */
	/* after mailcmd_authenticate(): the b= of the DKIM signature */
	char *sig;
	/*
	 * The thread it answers: first References: entry, else
	 * In-Reply-To:; after mailcmd_authenticate(), the thread root of
	 * the bot's mail it answers.
	 */
	char *target;
	/* after mailcmd_authenticate(): the bot's mail it answers */
	char *answered;
	/* a release or invalid line: checked against bot.moderators */
	int moderating;
	struct mailcmd cmds[MAILCMD_MAX];
	int nr;
	char *why;		/* for IGNORED and ERROR */
};

/*
 * Parse one raw mail and check its sender against bot.allow; never
 * fails on hostile input (status says it).  Not yet authenticated.
 */
void mailcmd_parse(const char *mail, size_t len, struct mailcmd_result *r);
/*
 * Check that an OK or ERROR result answers a mail of the bot (st) and
 * carries an aligned DKIM signature; otherwise it becomes IGNORED.
 */
void mailcmd_authenticate(struct state *st, const char *mail, size_t len,
			  struct mailcmd_result *r);
void mailcmd_release(struct mailcmd_result *r);

/*
 * The first of the headers a command is read from (From, Message-ID,
 * In-Reply-To, References, Subject, Date) that the mail has more than
 * once, with *count its copies; NULL when each is there at most once.
 */
const char *mailcmd_doubled_header(const char *mail, size_t len, int *count);

/*
 * public-inbox gives a mail whose Message-ID it holds already, for other
 * content, one more Message-ID: header of its own after the first
 * ("<YYYYmmddHHMMSS.DIGEST@z>"): a genuine command that an unsigned
 * copy of it reached lore before would show two Message-IDs, and its
 * DKIM signature, which verifies the last copy, would fail.  That one
 * header is removed, in place (mail has len + 1 bytes); returns the new
 * length, len when the mail has no such header.  What remains is what
 * the signature checks: adding the header to a mail gains nothing.
 */
size_t mailcmd_drop_archive_msgid(char *mail, size_t len);

/* Is this sender (a bare address) on the bot.allow list? */
int mailcmd_allowed(const char *email);
/* And on bot.moderators? */
int mailcmd_moderator(const char *email);

/*
 * The one mailbox of a From: value as a bare lowercase address, and its
 * domain; NULL with *why when it is not exactly one plain address.
 */
char *mailcmd_parse_from(const char *value, char **domain, char **why);

#endif
