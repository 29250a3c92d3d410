// SPDX-License-Identifier: GPL-2.0
/*
 * cron.c - poll, queue, test, reply; see cron.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cron.h"
#include "job.h"
#include "lore.h"
#include "mail.h"
#include "mailcmd.h"
#include "mbox.h"
#include "outbox.h"
#include "reply.h"
#include "series.h"
#include "state.h"
#include "util.h"
#include "version.h"
#include "workload.h"

/* Called on each message of a search result. */
typedef void (*message_fn)(const char *msg, size_t len, void *data);

/*
 * The key of a mail in the quarantine: its Message-ID as the header
 * text says (no MIME parse needed), else a hash of the whole mail.
 */
static char *poison_key(const char *msg, size_t len)
{
	char *h = mbox_header(msg, len, "Message-ID");
	char *id = mbox_bare_msgid(h);
	unsigned long long fnv = 14695981039346656037ULL;
	size_t i;

	free(h);
	if (id && *id)
		return id;
	free(id);
	for (i = 0; i < len; i++)
		fnv = (fnv ^ (unsigned char)msg[i]) * 1099511628211ULL;
	return xasprintf("no-message-id-%016llx", fnv);
}

static void quarantine(struct state *st, const char *key, const char *why,
		       size_t len)
{
	if (state_quarantine_add(st, key, why, (long long)len) > 0)
		warning("<%s>: quarantined, skipped from now on: %s", key,
			why);
}

/*
 * A crash of the bot on one mail must not wedge every later run: the
 * mail in hand is recorded before it is handled and cleared after.  A
 * mail the bot died on twice is quarantined at the next start.
 */
static void poll_mark(struct state *st, const char *key)
{
	char *cur = state_meta_get(st, "poll_current");

	if (!cur || strcmp(cur, key))
		state_meta_set(st, "poll_deaths", "0");
	free(cur);
	state_meta_set(st, "poll_current", key);
}

static void poll_unmark(struct state *st)
{
	state_meta_set(st, "poll_current", "");
	state_meta_set(st, "poll_deaths", "0");
}

static void poll_recover(struct state *st)
{
	char *cur = state_meta_get(st, "poll_current");
	char *d = state_meta_get(st, "poll_deaths");
	int deaths = (d ? atoi(d) : 0) + 1;

	if (cur && *cur) {
		warning("<%s>: the last poll stopped while handling it", cur);
		if (deaths >= 2) {
			quarantine(st, cur, "the bot stopped twice while "
				   "handling it", 0);
			poll_unmark(st);
		} else {
			char *n = xasprintf("%d", deaths);

			state_meta_set(st, "poll_deaths", n);
			free(n);
		}
	}
	free(cur);
	free(d);
}

/*
 * Each mail of the search result is parsed within the mail budget
 * first (mail.h): a poison one is quarantined, not handed on.
 */
static void for_each_message(struct state *st, const char *text, size_t len,
			     message_fn fn, void *data)
{
	struct mbox mb = { 0 };
	size_t i;

	mbox_split(text, len, &mb);
	for (i = 0; i < mb.nr; i++) {
		const char *msg = mb.msgs[i].data;
		size_t n = mb.msgs[i].len;
		char *key = poison_key(msg, n);
		struct mail m;
		int bad;

		if (state_quarantined(st, key) > 0) {
			free(key);
			continue;
		}
		poll_mark(st, key);
		state_crash_point("poll-message");
		/* Unparsable is no poison: fn says what it makes of it. */
		bad = mail_parse(msg, n, &m) < 0;
		if (!bad && m.poison)
			quarantine(st, key, m.poison, n);
		else
			fn(msg, n, data);
		if (!bad)
			mail_release(&m);
		poll_unmark(st);
		free(key);
	}
	mbox_release(&mb);
}

/* "[PATCH v3 0/2] ..." or "[PATCH] ...": the first mail of a series. */
static int starts_series(const char *subject)
{
	const char *p = subject, *close, *slash;

	while (*p == ' ')
		p++;
	if (*p != '[')
		return 0;
	close = strchr(p, ']');
	if (!close || !memmem(p, close - p, "PATCH", 5))
		return 0;
	slash = memchr(p, '/', close - p);
	if (!slash)
		return 1;
	while (slash > p && isdigit((unsigned char)slash[-1]))
		slash--;
	return atoi(slash) <= 1;
}

struct poll_ctx {
	struct state *st;
	const char *workloads;
	int queued;
	char **seen;		/* roots handled in this run */
	size_t nr_seen, alloc_seen;
};

static int seen_root(struct poll_ctx *c, const char *msgid)
{
	size_t i;

	for (i = 0; i < c->nr_seen; i++)
		if (!strcmp(c->seen[i], msgid))
			return 1;
	ALLOC_GROW(c->seen, c->nr_seen, c->alloc_seen);
	c->seen[c->nr_seen++] = xstrdup(msgid);
	return 0;
}

static void queue_series(const char *msg, size_t len, void *data)
{
	struct poll_ctx *c = data;
	struct reply_thread t;
	struct strbuf thread = STRBUF_INIT;
	struct series s;
	const struct patch *first;
	long long id;
	int ret;

	if (reply_thread_from_mail(msg, len, &t) < 0)
		return;
	if (skip_prefix_ci(t.subject, "re:") || !starts_series(t.subject) ||
	    seen_root(c, t.msgid))
		goto out;
	if (lore_fetch_thread(t.msgid, &thread))
		goto out;
	if (series_from_mbox(thread.buf, thread.len, 0, t.msgid, &s)) {
		info("<%s>: no series in the thread, skipped", t.msgid);
		goto out;
	}
	if (s.nr_patches) {
		first = s.cover ? s.cover : &s.patches[0];
		ret = state_series_add(c->st, first->msgid, s.version,
				       s.base.commit ? s.base.commit :
				       s.base.ref ? s.base.ref : "",
				       c->workloads, s.subject, &id);
		if (!ret) {
			info("queued job %lld: v%d %s <%s>", id, s.version,
			     s.subject, first->msgid);
			c->queued++;
		}
	}
	series_release(&s);
out:
	strbuf_release(&thread);
	reply_thread_release(&t);
}

static char *expand_since(const char *query, long long since)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = query, *hit;

	while ((hit = strstr(p, "<since>"))) {
		strbuf_add(&sb, p, hit - p);
		strbuf_addf(&sb, "%lld", since);
		p = hit + strlen("<since>");
	}
	strbuf_addstr(&sb, p);
	return strbuf_detach(&sb, NULL);
}

struct query_ctx {
	struct poll_ctx *poll;
	long long since;
	int failed;
	message_fn fn;
	void *data;
};

static int run_query(const char *query, void *data)
{
	struct query_ctx *q = data;
	struct strbuf mbox = STRBUF_INIT;
	char *qs = expand_since(query, q->since);
	int ret;

	info("polling lore: %s", qs);
	ret = lore_search(qs, 0, &mbox);
	/* EXIT_NOTFOUND: no hits */
	if (!ret)
		for_each_message(q->poll->st, mbox.buf, mbox.len, q->fn,
				 q->data);
	else if (ret != EXIT_NOTFOUND)
		q->failed = 1;
	free(qs);
	strbuf_release(&mbox);
	return 0;
}

/* ---- email commands ---- */

struct cmd_ctx {
	struct state *st;
	int send;
	int queued;
};

/* An error reply to a command mail: threaded under the command. */
static void answer_command(struct cmd_ctx *c, const char *msg, size_t len,
			   const char *why)
{
	struct reply_thread t;
	struct kv v = { 0 };
	struct strbuf tmpl = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, q = STRBUF_INIT;
	char *msgid = NULL, *dir = outbox_default_dir(), *path = NULL;
	char *first;

	if (reply_thread_from_mail(msg, len, &t) < 0)
		goto out_free;
	if (reply_load_template("command-error", &tmpl) < 0)
		goto out;
	reply_quote(&t, 6, &q);
	kv_set(&v, "quote", q.buf);
	first = xstrndup(t.author_name, strcspn(t.author_name, " "));
	kv_set(&v, "greeting", first);
	free(first);
	kv_setf(&v, "log", "    %s", why);
	kv_set(&v, "workloads", config_get("bot.knownWorkloads") ?:
	       workload_names(WORKLOAD_MAIL));
	kv_set(&v, "signature", config_get("reply.signature"));
	if (reply_expand(tmpl.buf, &v, &body) < 0 ||
	    reply_compose(&t, body.buf, &out, &msgid) < 0)
		goto out;
	if (outbox_put(dir, msgid, out.buf, out.len, &path) < 0)
		goto out;
	if (c->send)
		state_mail_intent(c->st, msgid, 0, t.msgid, path);
	info("answered the bad command in <%s>: %s", t.msgid, why);
out:
	reply_thread_release(&t);
out_free:
	kv_release(&v);
	strbuf_release(&tmpl);
	strbuf_release(&body);
	strbuf_release(&out);
	strbuf_release(&q);
	free(msgid);
	free(dir);
	free(path);
}

static void handle_command(const char *msg, size_t len, void *data)
{
	struct cmd_ctx *c = data;
	struct mailcmd_result r;
	int i;

	mailcmd_parse(msg, len, &r);
	if (r.status == MAILCMD_NONE || !r.msgid ||
	    state_command_seen(c->st, r.msgid) != 0)
		goto out;
	switch (r.status) {
	case MAILCMD_IGNORED:
		info("command in <%s> from %s ignored: %s", r.msgid,
		     r.sender, r.why);
		state_command_add(c->st, r.msgid, r.sender, "ignored");
		break;
	case MAILCMD_ERROR:
		answer_command(c, msg, len, r.why);
		state_command_add(c->st, r.msgid, r.sender, "error");
		break;
	case MAILCMD_OK:
		for (i = 0; i < r.nr; i++) {
			long long id;

			if (state_job_add(c->st, r.target, r.cmds[i].workloads,
					  r.cmds[i].runs, r.sender, r.msgid,
					  &id) < 0)
				continue;
			info("queued job %lld for %s: <%s> %s runs=%d", id,
			     r.sender, r.target, *r.cmds[i].workloads ?
			     r.cmds[i].workloads : "(default workloads)",
			     r.cmds[i].runs);
			c->queued++;
		}
		state_command_add(c->st, r.msgid, r.sender, "queued");
		break;
	default:
		break;
	}
out:
	mailcmd_release(&r);
}

/* ---- the queue ---- */

static int process_queue(struct state *st, const struct cron_opts *o,
			 double deadline)
{
	long max_attempts = config_get_int("cron.maxAttempts");
	long long after = 0;
	int done = 0;

	for (;;) {
		struct state_job job;
		struct job_opts jo = { 0 };
		char *dir, *outcome = NULL;
		int n, ret;

		if (now_monotonic() >= deadline) {
			info("time budget used up; the rest waits for the "
			     "next run");
			break;
		}
		if (o->max_jobs && done >= o->max_jobs)
			break;
		if (state_job_next(st, &job, after) <= 0)
			break;
		after = job.id;
		n = state_job_attempt(st, job.id);
		if (n > max_attempts) {
			warning("job %lld failed %ld times; giving up",
				job.id, max_attempts);
			state_job_update(st, job.id, NULL, "error", NULL);
			state_job_release(&job);
			continue;
		}
		if (job.job_dir) {
			dir = xstrdup(job.job_dir);
		} else {
			char *name = xasprintf("job-%lld", job.id);

			dir = job_default_dir(name);
			free(name);
		}
		jo.msgid = job.msgid;
		jo.dir = dir;
		jo.workloads = job.workloads;
		jo.runs = job.runs;
		jo.send = o->send;
		jo.db_id = job.id;
		jo.requested_by = job.requested_by;
		info("job %lld: <%s> (attempt %d)", job.id, job.msgid, n);
		ret = job_run(&jo, st, &outcome, NULL);
		info("job %lld: %s", job.id, outcome && *outcome ? outcome :
		     ret ? "stopped" : "done");
		free(outcome);
		free(dir);
		state_job_release(&job);
		done++;
	}
	return done;
}

int cron_add(const char *msgid, const char *workloads, int runs)
{
	struct state *st = state_open(NULL);
	long long id;
	int ret;

	if (!st)
		return EXIT_FAIL;
	ret = state_job_add(st, msgid, workloads, runs, NULL, NULL, &id);
	if (!ret)
		printf("%lld\n", id);
	state_close(st);
	return ret ? EXIT_FAIL : EXIT_OK;
}

int cron_run(const struct cron_opts *o)
{
	long budget = o->budget ? o->budget :
		      config_get_int("cron.budget");
	double deadline = now_monotonic() + budget;
	char *db = state_default_path(), *box = outbox_default_dir();
	struct state *st = NULL;
	int lock, ret = EXIT_OK;

	lock = state_lock(db);
	if (lock < 0)
		goto out_nolock;
	st = state_open(db);
	if (!st) {
		ret = EXIT_FAIL;
		goto out;
	}
	if (o->send && outbox_flush(st, box) < 0)
		ret = EXIT_NETWORK;

	if (o->poll) {
		long long start = (long long)time(NULL), since = o->since;
		struct poll_ctx pc = { .st = st };
		struct cmd_ctx cc = { .st = st, .send = o->send };
		struct query_ctx q = { .poll = &pc };
		char *last;

		pc.workloads = config_get("bot.workloads") ?:
			       workload_names(WORKLOAD_DEFAULT);
		if (!since) {
			last = state_meta_get(st, "last_poll");
			since = last ? atoll(last) -
				config_get_int("cron.overlap") :
				start - config_get_int("cron.firstWindow");
			free(last);
		}
		poll_recover(st);
		q.since = since;
		q.fn = queue_series;
		q.data = &pc;
		config_get_all("cron.query", run_query, &q);
		q.fn = handle_command;
		q.data = &cc;
		config_get_all("cron.commandQuery", run_query, &q);
		if (q.failed) {
			ret = EXIT_NETWORK;
		} else {
			char *s = xasprintf("%lld", start);

			state_meta_set(st, "last_poll", s);
			free(s);
		}
		info("poll: %d new series, %d commands queued",
		     pc.queued, cc.queued);
		while (pc.nr_seen)
			free(pc.seen[--pc.nr_seen]);
		free(pc.seen);
	}

	if (!o->no_jobs)
		process_queue(st, o, deadline);
	if (o->send && outbox_flush(st, box) < 0)
		ret = EXIT_NETWORK;
out:
	state_close(st);
	close(lock);
out_nolock:
	free(db);
	free(box);
	return ret;
}
