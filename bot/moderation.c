// SPDX-License-Identifier: GPL-2.0
/*
 * moderation.c - hold a report for the moderators, release or drop it
 * on their word; see moderation.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "kv.h"
#include "mailcmd.h"
#include "mbox.h"
#include "moderation.h"
#include "outbox.h"
#include "reply.h"
#include "state.h"
#include "util.h"

static struct moderation_opts opts;
static int configured;

void moderation_configure(const struct moderation_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, every report would go out unmoderated: a bug. */
static const struct moderation_opts *mo(void)
{
	if (!configured)
		die("BUG: moderation used before moderation_configure()");
	return &opts;
}

int moderation_holds(const char *outcome)
{
	const char *mode = mo()->mode ? mo()->mode : "none";
	int held;

	if (!strcmp(mode, "none"))
		return 0;
	if (!strcmp(mode, "regressions"))
		held = outcome && !strcmp(outcome, "regression");
	else if (!strcmp(mode, "all"))
		held = 1;
	else
		return error("bot.moderation must be none, regressions or "
			     "all, not '%s'", mode);
	if (held && !mo()->nr_moderators)
		return error("bot.moderation is %s but bot.moderators names "
			     "no one: the report is not sent", mode);
	return held;
}

/* The note's Message-ID: the same for the same report, on every run. */
static char *hold_msgid(const char *public_msgid)
{
	return xasprintf("moderation.%s", public_msgid);
}

/* A boundary that the attached mail does not hold. */
static char *boundary(const char *mail, size_t len)
{
	unsigned long long fnv = 14695981039346656037ULL;
	char *b = NULL;
	size_t i;

	for (i = 0; i < len; i++)
		fnv = (fnv ^ (unsigned char)mail[i]) * 1099511628211ULL;
	for (i = 0;; i++) {
		free(b);
		b = xasprintf("=_sched-bot-held-%016llx-%zu", fnv, i);
		if (!memmem(mail, len, b, strlen(b)))
			return b;
	}
}

static int is_ascii(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] > 126)
			return 0;
	return 1;
}

/* Whom the public mail goes to: its To: and Cc: addresses, bare. */
static void recipients(const struct moderation_report *r, struct strbuf *out)
{
	static const char *const fields[] = { "To", "Cc" };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		char *h = mbox_header(r->mail, r->len, fields[i]), **a;
		size_t n = reply_parse_addresses(h, &a);

		for (j = 0; j < n; j++)
			strbuf_addf(out, "%s%s", out->len ? ", " : "", a[j]);
		reply_free_addresses(a, n);
		free(h);
	}
	if (!out->len)
		strbuf_addstr(out, "no one");
}

/* The note's text: templates/mail-moderation.md, wrapped. */
static int note_body(const struct moderation_report *r, struct strbuf *out)
{
	const struct moderation_opts *o = mo();
	struct strbuf tmpl = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf rcpts = STRBUF_INIT;
	struct kv v = { 0 };
	char *expires = reply_date((long long)time(NULL) +
				   o->hold_days * 86400);
	int ret = -1;

	if (reply_load_template("moderation", &tmpl) < 0)
		goto out;
	kv_set(&v, "mode", o->mode);
	if (r->why && *r->why)
		kv_set(&v, "why", r->why);
	else
		kv_setf(&v, "why", "bot.moderation = %s", o->mode);
	recipients(r, &rcpts);
	kv_set(&v, "recipients", rcpts.buf);
	kv_set(&v, "thread", r->thread ? r->thread : "?");
	kv_set(&v, "outcome", r->outcome ? r->outcome : "?");
	kv_set(&v, "target", r->target && *r->target ? r->target : "?");
	kv_set(&v, "workloads", r->workloads && *r->workloads ?
	       r->workloads : "the default workloads");
	kv_set(&v, "expires", expires);
	kv_setf(&v, "hold_days", "%ld", o->hold_days);
	strbuf_reset(&rcpts);
	reply_signature(o->signature, &rcpts);
	kv_set(&v, "signature", rcpts.buf);
	if (reply_expand(tmpl.buf, &v, &text) < 0)
		goto out;
	reply_wrap(text.buf, 72, out);
	ret = 0;
out:
	kv_release(&v);
	strbuf_release(&tmpl);
	strbuf_release(&text);
	strbuf_release(&rcpts);
	free(expires);
	return ret;
}

/*
 * The note to the moderators: a text part that says what to answer,
 * and the public mail as a message/rfc822 part, byte for byte (no
 * transfer encoding: RFC 2046 5.2.1 allows none for message/rfc822).
 */
static int compose_note(const struct moderation_report *r, const char *mid,
			struct strbuf *out)
{
	const struct moderation_opts *o = mo();
	struct strbuf body = STRBUF_INIT;
	char *subject = mbox_header(r->mail, r->len, "Subject");
	char *date = reply_date((long long)time(NULL));
	char *b = boundary(r->mail, r->len);
	size_t i;

	if (note_body(r, &body) < 0) {
		free(subject);
		free(date);
		free(b);
		return -1;
	}
	strbuf_addstr(out, "From: ");
	reply_encode_header(o->bot_name, out);
	strbuf_addf(out, " <%s>\nTo: ", o->bot_email);
	for (i = 0; i < o->nr_moderators; i++)
		strbuf_addf(out, "%s%s", i ? ",\n " : "", o->moderators[i]);
	/* the public Subject: as it is, RFC 2047 words and all */
	strbuf_addf(out, "\nSubject: [sched-bot moderation] %s\n",
		    subject ? subject : "a held report");
	strbuf_addf(out, "Date: %s\nMessage-ID: <%s>\n", date, mid);
	strbuf_addf(out, "MIME-Version: 1.0\nContent-Type: multipart/mixed; "
		    "boundary=\"%s\"\n\n", b);
	strbuf_addf(out, "--%s\nContent-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: 8bit\n\n", b);
	strbuf_add(out, body.buf, body.len);
	if (body.len && body.buf[body.len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addf(out, "\n--%s\nContent-Type: message/rfc822\n"
		    "Content-Disposition: inline\n"
		    "Content-Transfer-Encoding: %s\n\n", b,
		    is_ascii(r->mail, r->len) ? "7bit" : "8bit");
	strbuf_add(out, r->mail, r->len);
	if (r->len && r->mail[r->len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addf(out, "\n--%s--\n", b);
	strbuf_release(&body);
	free(subject);
	free(date);
	free(b);
	return 0;
}

/* The held row and the note's intent: both or neither. */
static int record_hold(struct state *st, const struct moderation_report *r,
		       const char *mid, const char *path)
{
	struct state_held h = {
		.public_msgid = (char *)r->msgid,
		.hold_msgid = (char *)mid,
		.job_id = r->job_id,
		.thread = (char *)r->thread,
		.target = (char *)r->target,
		.workloads = (char *)r->workloads,
		.outcome = (char *)r->outcome,
	};
	char *mail = xstrndup(r->mail, r->len);
	int ret = -1;

	h.mail = mail;
	if (state_begin(st) < 0)
		goto out;
	/* the note is about the series' thread: bot.maxPerThread counts it */
	if (state_held_add(st, &h) < 0 ||
	    state_mail_intent(st, mid, r->job_id, r->thread, path) < 0) {
		state_rollback(st);
		goto out;
	}
	ret = state_commit(st);
out:
	free(mail);
	return ret;
}

int moderation_hold(struct state *st, const char *dir,
		    const struct moderation_report *r, int send, char **path)
{
	struct strbuf note = STRBUF_INIT;
	char *mid = hold_msgid(r->msgid);
	int ret = -1;

	*path = NULL;
	if (send && !st) {
		error("holding a report needs the state database");
		goto out;
	}
	if (compose_note(r, mid, &note) < 0 ||
	    outbox_put(dir, mid, note.buf, note.len, path) < 0)
		goto out;
	if (send && record_hold(st, r, mid, *path) < 0)
		goto out;
	info("report <%s> held for the moderators: <%s>", r->msgid, mid);
	ret = 0;
out:
	strbuf_release(&note);
	free(mid);
	return ret;
}

/* The decision, the public mail's intent (release) and the command. */
static int record_judgement(struct state *st, const struct state_held *h,
			    const struct mailcmd_result *r, const char *path)
{
	const struct mailcmd *cmd = &r->cmds[0];
	int release = cmd->verb == MAILCMD_RELEASE;
	int changed;

	if (state_begin(st) < 0)
		return -1;
	changed = state_held_decide(st, h->public_msgid, release ? "released" :
				    "invalid", cmd->reason, r->sender);
	if (changed != 1)
		goto fail;
	if (release && state_mail_intent(st, h->public_msgid, h->job_id,
					 h->thread, path) < 0)
		goto fail;
	if (state_command_add(st, r->msgid, r->sender, release ? "released" :
			      "invalid", r->sig) < 0)
		goto fail;
	return state_commit(st);
fail:
	state_rollback(st);
	return -1;
}

int moderation_judge(struct state *st, const struct mailcmd_result *r)
{
	const struct mailcmd *cmd = &r->cmds[0];
	const char *what = cmd->verb == MAILCMD_RELEASE ? "release" :
			   "invalid";
	struct state_held h;
	char *dir = NULL, *path = NULL;
	int found, ret = -1;

	found = r->answered ? state_held_get(st, r->answered, &h) : 0;
	if (found < 0)
		return -1;
	if (!found || strcmp(h.hold_msgid, r->answered)) {
		info("%s command in <%s> from %s ignored: it answers no held "
		     "report", what, r->msgid, r->sender);
		ret = state_command_add(st, r->msgid, r->sender, "ignored",
					r->sig);
		goto out;
	}
	if (strcmp(h.status, "held")) {
		info("%s command in <%s> from %s: report <%s> was %s already; "
		     "nothing changes", what, r->msgid, r->sender,
		     h.public_msgid, h.status);
		ret = state_command_add(st, r->msgid, r->sender,
					"judged-already", r->sig);
		goto out;
	}
	/* the mail as it was held, into the outbox for the intent */
	dir = outbox_default_dir();
	if (cmd->verb == MAILCMD_RELEASE &&
	    outbox_put(dir, h.public_msgid, h.mail, strlen(h.mail),
		       &path) < 0)
		goto out;
	state_crash_point("release-queued");
	if (record_judgement(st, &h, r, path) < 0)
		goto out;
	if (cmd->verb == MAILCMD_RELEASE)
		info("report <%s> released by %s", h.public_msgid, r->sender);
	else
		info("report <%s> judged invalid by %s: %s", h.public_msgid,
		     r->sender, cmd->reason);
	ret = 0;
out:
	if (found > 0)
		state_held_release(&h);
	free(dir);
	free(path);
	return ret;
}

long moderation_expire(struct state *st)
{
	long days = mo()->hold_days;
	long n;

	if (days <= 0)
		return 0;
	n = state_held_expire(st, (long long)time(NULL) - days * 86400);
	if (n > 0)
		info("%ld held report(s) expired unjudged (bot.holdDays = "
		     "%ld)", n, days);
	return n;
}
