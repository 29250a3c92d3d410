/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outbox.h - replies waiting to be sent, as a Maildir (outbox.dir,
 * default $XDG_DATA_HOME/sched-bot/outbox): written in tmp/, renamed
 * into new/ (atomic), moved to cur/ with the Maildir "S" flag once the
 * SMTP server accepted it.  Any mail reader can open it; a dry run
 * stops at new/.
 */
#ifndef SCHED_BOT_OUTBOX_H
#define SCHED_BOT_OUTBOX_H

#include <stddef.h>

struct state;

/* The outbox and its caps (0: no cap). */
struct outbox_opts {
	const char *dir;		/* outbox.dir; NULL: the default */
	long max_per_hour;		/* bot.maxPerHour */
	long max_per_day;		/* bot.maxPerDay */
	long max_per_thread;		/* bot.maxPerThread */
	long max_rcpt_per_hour;		/* bot.maxRecipientsPerHour */
	long max_rcpt_per_day;		/* bot.maxRecipientsPerDay */
	long max_recipients;		/* reply.maxRecipients, per mail */
	long max_age;			/* outbox.maxAge, seconds */
	int check_lore;			/* outbox.checkLore */
};

/*
 * Use o from now on: the tool fills it from the configuration
 * (builtin/config-opts.h) and calls this once at start-up, before
 * any other call; a call before it is a bug and dies.
 */
void outbox_configure(const struct outbox_opts *o);

/* outbox.dir, else $XDG_DATA_HOME/sched-bot/outbox.  Caller frees. */
char *outbox_default_dir(void);

/*
 * Put a message (LF line ends) in new/, named after its Message-ID,
 * with every secret filtered out (secret_scrub()); when that
 * Message-ID is already there (new/ or cur/) nothing is written, and
 * when the filtered mail still carries a secret (outbox_check()) it is
 * refused: nothing written, -1.  *path (may be NULL) receives the file name.
 */
int outbox_put(const char *dir, const char *msgid, const char *data,
	       size_t len, char **path);

/*
 * -1 after an error naming the secret's kind and form (never its
 * value) when the mail, filtered as outbox_put() filters it, still
 * carries a secret (mail_check_secrets()); such a mail is neither
 * written to the outbox nor sent.  0 when it may go.
 */
int outbox_check(const char *msgid, const char *data, size_t len);

/* The file holding msgid; *sent says whether it is in cur/. NULL: none. */
char *outbox_find(const char *dir, const char *msgid, int *sent);

/* Move msgid's file from new/ to cur/ (flag S). */
int outbox_mark_sent(const char *dir, const char *msgid);

/*
 * Send every mail whose intent is recorded in st and not yet sent,
 * within the rate caps (bot.maxPerHour, bot.maxPerDay, the recipient
 * caps, bot.maxPerThread), recording each result.  A mail with more
 * recipients than reply.maxRecipients, or waiting longer than
 * outbox.maxAge, is dropped instead; one that carries a secret
 * (outbox_check(): queued before that secret was configured) is not
 * sent and counts as a failed send.  Returns the number sent,
 * or -1 when a send failed (the mail stays pending for the next run).
 */
int outbox_flush(struct state *st, const char *dir);

#endif
