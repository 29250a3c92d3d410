// SPDX-License-Identifier: GPL-2.0
/*
 * outbox.c - the Maildir outbox and the delivery loop over recorded
 * intents (see state.h for the exactly-once rule).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lore.h"
#include "mail.h"
#include "outbox.h"
#include "reply.h"
#include "secret.h"
#include "smtp.h"
#include "state.h"
#include "util.h"

static struct outbox_opts opts;
static int configured;

void outbox_configure(const struct outbox_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, the caps would be zero, i.e. none: a bug. */
static const struct outbox_opts *oo(void)
{
	if (!configured)
		die("BUG: outbox used before outbox_configure()");
	return &opts;
}

char *outbox_default_dir(void)
{
	const char *d = oo()->dir;

	if (d && *d)
		return xstrdup(d);
	return data_path("outbox");
}

/* A Message-ID as a file name: no '/', no ':' (Maildir's flag mark). */
static char *safe_name(const char *msgid)
{
	char *s = xstrdup(msgid), *p;

	for (p = s; *p; p++)
		if (*p == '/' || *p == ':' || *p == '\\' ||
		    (unsigned char)*p < 33 || (unsigned char)*p > 126)
			*p = '_';
	return s;
}

static int maildir_init(const char *dir)
{
	static const char *const subs[] = { "tmp", "new", "cur" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subs); i++) {
		char *p = xasprintf("%s/%s", dir, subs[i]);
		int ret = mkdir_p(p, 0700);

		free(p);
		if (ret < 0)
			return error("cannot create outbox %s: %s", dir,
				     strerror(errno));
	}
	return 0;
}

char *outbox_find(const char *dir, const char *msgid, int *sent)
{
	char *name = safe_name(msgid), *path;

	path = xasprintf("%s/new/%s", dir, name);
	if (!access(path, F_OK)) {
		if (sent)
			*sent = 0;
		goto out;
	}
	free(path);
	path = xasprintf("%s/cur/%s:2,S", dir, name);
	if (!access(path, F_OK)) {
		if (sent)
			*sent = 1;
		goto out;
	}
	free(path);
	path = NULL;
out:
	free(name);
	return path;
}

/* error() naming the secret's kind and form, never its value */
static int refuse(const char *msgid, const char *what, const char *data,
		  size_t len)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (mail_check_secrets(data, len, &why))
		ret = error("mail <%s> %s: it carries %s", msgid, what,
			    why.buf);
	strbuf_release(&why);
	return ret;
}

int outbox_check(const char *msgid, const char *data, size_t len)
{
	struct strbuf clean = STRBUF_INIT;
	int ret;

	strbuf_add(&clean, data, len);
	secret_scrub(&clean);
	ret = refuse(msgid, "is not sent", clean.buf, clean.len);
	strbuf_release(&clean);
	return ret;
}

int outbox_put(const char *dir, const char *msgid, const char *data,
	       size_t len, char **path)
{
	struct strbuf clean = STRBUF_INIT;
	char *name, *tmp, *dst;
	int ret;

	if (maildir_init(dir) < 0)
		return -1;
	dst = outbox_find(dir, msgid, NULL);
	if (dst) {
		if (path)
			*path = dst;
		else
			free(dst);
		return 0;
	}
	/* every mail that leaves passes here: no configured secret in it,
	 * and what the filter cannot take out keeps the mail in */
	strbuf_add(&clean, data, len);
	secret_scrub(&clean);
	if (refuse(msgid, "is not written to the outbox", clean.buf,
		   clean.len) < 0) {
		strbuf_release(&clean);
		return -1;
	}
	name = safe_name(msgid);
	tmp = xasprintf("%s/tmp/%s", dir, name);
	dst = xasprintf("%s/new/%s", dir, name);
	/* write_file_atomic renames within tmp/; then one more rename */
	ret = write_file_atomic(tmp, clean.buf, clean.len);
	strbuf_release(&clean);
	if (ret < 0)
		error("cannot write %s: %s", tmp, strerror(errno));
	if (!ret && rename(tmp, dst) < 0)
		ret = error("cannot move %s to new/: %s", tmp, strerror(errno));
	free(name);
	free(tmp);
	if (ret < 0) {
		free(dst);
		return -1;
	}
	if (path)
		*path = dst;
	else
		free(dst);
	return 0;
}

int outbox_mark_sent(const char *dir, const char *msgid)
{
	char *name = safe_name(msgid);
	char *src = xasprintf("%s/new/%s", dir, name);
	char *dst = xasprintf("%s/cur/%s:2,S", dir, name);
	int ret = 0;

	if (rename(src, dst) < 0 && errno != ENOENT)
		ret = error("cannot move %s to cur/: %s", src, strerror(errno));
	free(name);
	free(src);
	free(dst);
	return ret;
}

/*
 * The caps count mails sent and the recipients they carried, this
 * mail's (rcpts) included; 0 disables a cap.  The thread is the root
 * the mail answers, whatever kind of mail it is.
 */
static int over_cap(struct state *st, const char *thread, long rcpts)
{
	const struct outbox_opts *o = oo();
	long per_hour = o->max_per_hour;
	long per_day = o->max_per_day;
	long per_thread = o->max_per_thread;
	long long t = (long long)time(NULL);

	if (per_hour > 0 && state_mails_sent_since(st, t - 3600, NULL) >=
	    per_hour)
		return info("rate cap: %ld mails in the last hour "
			    "(bot.maxPerHour)", per_hour), 1;
	if (per_day > 0 && state_mails_sent_since(st, t - 86400, NULL) >=
	    per_day)
		return info("rate cap: %ld mails in the last day "
			    "(bot.maxPerDay)", per_day), 1;
	if (o->max_rcpt_per_hour > 0 &&
	    state_recipients_sent_since(st, t - 3600) + rcpts >
	    o->max_rcpt_per_hour)
		return info("rate cap: %ld recipients in the last hour "
			    "(bot.maxRecipientsPerHour)", o->max_rcpt_per_hour), 1;
	if (o->max_rcpt_per_day > 0 &&
	    state_recipients_sent_since(st, t - 86400) + rcpts >
	    o->max_rcpt_per_day)
		return info("rate cap: %ld recipients in the last day "
			    "(bot.maxRecipientsPerDay)", o->max_rcpt_per_day), 1;
	if (per_thread > 0 && thread &&
	    state_mails_sent_since(st, 0, thread) >= per_thread)
		return info("rate cap: %ld mails to <%s> (bot.maxPerThread)",
			    per_thread, thread), 1;
	return 0;
}

/* Make sure the outbox holds the mail, copying it from the job. */
static char *ensure_queued(const char *dir, const struct state_mail *m,
			   int *sent)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = outbox_find(dir, m->message_id, sent);

	if (path)
		return path;
	*sent = 0;
	if (!m->path || strbuf_read_file(&sb, m->path) < 0) {
		error("mail <%s>: neither in the outbox nor at %s",
		      m->message_id, m->path ? m->path : "(no path)");
		strbuf_release(&sb);
		return NULL;
	}
	if (outbox_put(dir, m->message_id, sb.buf, sb.len, &path) < 0)
		path = NULL;
	strbuf_release(&sb);
	return path;
}

/*
 * A send that was under way when the process died: SMTP may or may not
 * have taken it.  The list archive is the witness: when lore has the
 * Message-ID, the mail went out.  When lore does not (yet) have it, or
 * cannot be asked, it is sent again with the same Message-ID.
 */
static int on_lore(const char *msgid)
{
	struct strbuf sb = STRBUF_INIT;
	int found;

	if (!oo()->check_lore)
		return 0;
	found = lore_fetch_raw(msgid, &sb) == 0;
	strbuf_release(&sb);
	return found;
}

/* An intent older than outbox.maxAge is dropped, not sent late. */
static int too_old(struct state *st, const struct state_mail *m)
{
	long max_age = oo()->max_age;

	if (max_age <= 0 || !m->created_at ||
	    (long long)time(NULL) - m->created_at <= max_age)
		return 0;
	warning("mail <%s> waited more than %ld s (outbox.maxAge); "
		"dropped", m->message_id, max_age);
	state_mail_drop(st, m->message_id, "older than outbox.maxAge");
	return 1;
}

/*
 * The envelope's recipients; a mail with more than reply.maxRecipients
 * (one composed by an older version, or by hand) is dropped: the cap
 * holds for every mail that leaves, whoever composed it.
 */
static long count_recipients(struct state *st, const struct state_mail *m,
			     const struct strbuf *msg)
{
	long max = oo()->max_recipients;
	char *from = NULL, **rcpts = NULL;
	int n = reply_envelope(msg->buf, msg->len, &from, &rcpts);

	if (n < 0) {
		state_mail_drop(st, m->message_id, "no envelope");
		return -1;
	}
	reply_free_addresses(rcpts, n);
	free(from);
	if (max > 0 && n > max) {
		error("mail <%s> has %d recipients, more than "
		      "reply.maxRecipients (%ld); dropped", m->message_id, n,
		      max);
		state_mail_drop(st, m->message_id, "too many recipients");
		return -1;
	}
	return n;
}

int outbox_flush(struct state *st, const char *dir)
{
	struct state_mail *mails;
	size_t nr, i;
	int sent_count = 0, failed = 0;

	if (state_mails_pending(st, &mails, &nr) < 0)
		return -1;
	for (i = 0; i < nr; i++) {
		const struct state_mail *m = &mails[i];
		struct strbuf msg = STRBUF_INIT;
		char *path;
		int sent = 0, ret;
		long rcpts;

		path = ensure_queued(dir, m, &sent);
		if (!path) {
			failed = 1;
			continue;
		}
		if (sent) {
			/* sent before a crash, result not yet recorded */
			info("mail <%s> was already sent; recording it",
			     m->message_id);
			state_mail_sent(st, m->message_id);
			free(path);
			continue;
		}
		if (m->uncertain && on_lore(m->message_id)) {
			info("mail <%s> is on lore already; recording it "
			     "as sent", m->message_id);
			outbox_mark_sent(dir, m->message_id);
			state_mail_sent(st, m->message_id);
			free(path);
			continue;
		}
		if (too_old(st, m)) {
			free(path);
			continue;
		}
		if (strbuf_read_file(&msg, path) < 0) {
			error("cannot read %s", path);
			failed = 1;
			free(path);
			strbuf_release(&msg);
			continue;
		}
		/* queued before a secret was known, or edited since */
		if (refuse(m->message_id, "is not sent", msg.buf,
			   msg.len) < 0) {
			state_mail_failed(st, m->message_id,
					  "it carries a secret");
			failed = 1;
			free(path);
			strbuf_release(&msg);
			continue;
		}
		rcpts = count_recipients(st, m, &msg);
		if (rcpts >= 0 && over_cap(st, m->thread, rcpts)) {
			/* held back, for `status`; sent by a later run */
			state_mail_held(st, m->message_id, "a rate cap");
			free(path);
			strbuf_release(&msg);
			continue;
		}
		if (rcpts < 0) {
			free(path);
			strbuf_release(&msg);
			continue;
		}
		state_mail_recipients(st, m->message_id, (int)rcpts);
		state_mail_sending(st, m->message_id);
		state_crash_point("smtp-sending");
		ret = smtp_send(msg.buf, msg.len);
		strbuf_release(&msg);
		if (ret) {
			warning("mail <%s> stays in %s for the next run",
				m->message_id, path);
			state_mail_failed(st, m->message_id, ret == EXIT_NETWORK
					  ? "server unreachable or busy" :
					  "refused by the server");
			failed = 1;
			free(path);
			continue;
		}
		state_crash_point("smtp-accepted");
		outbox_mark_sent(dir, m->message_id);
		state_crash_point("outbox-moved");
		state_mail_sent(st, m->message_id);
		info("sent <%s>", m->message_id);
		sent_count++;
		free(path);
	}
	state_mails_release(mails, nr);
	return failed ? -1 : sent_count;
}
