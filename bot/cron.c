// SPDX-License-Identifier: GPL-2.0
/*
 * cron.c - poll, queue, test, reply; see cron.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "build.h"
#include "cron.h"
#include "gc.h"
#include "job.h"
#include "lineage.h"
#include "lore.h"
#include "mail.h"
#include "mailcmd.h"
#include "mbox.h"
#include "merged.h"
#include "moderation.h"
#include "outbox.h"
#include "reply.h"
#include "series.h"
#include "target/target.h"
#include "state.h"
#include "tree.h"
#include "util.h"
#include "version.h"
#include "workload.h"

static struct cron_defaults defaults;
static int configured;

void cron_configure(const struct cron_defaults *d)
{
	defaults = *d;
	configured = 1;
}

/* Unconfigured, cron would poll nothing and run on no target: a bug. */
static const struct cron_defaults *cd(void)
{
	if (!configured)
		die("BUG: cron used before cron_configure()");
	return &defaults;
}

/* Called on each message of a search result: 0 done with it, -1 to be
 * tried again by the next poll (lore or the state failed us).
 */
typedef int (*message_fn)(const char *msg, size_t len, void *data);

/*
 * How cron knows a polled mail: its Message-ID as the header text says
 * (no MIME parse needed), and the digest of the whole mail.  Anyone can
 * send a mail with the Message-ID of another: a copy, unsigned or
 * poison, that reaches lore first must neither stand for the genuine
 * mail (polled) nor hide it (quarantined), so the Message-ID alone
 * names a mail in the log, never in the state.
 */
struct mail_key {
	char *msgid;		/* "no-message-id" when it has none */
	char *digest;		/* mbox_digest() */
};

static void mail_key_of(const char *msg, size_t len, struct mail_key *k)
{
	char *h = mbox_header(msg, len, "Message-ID");

	k->msgid = mbox_bare_msgid(h);
	free(h);
	if (!k->msgid || !*k->msgid) {
		free(k->msgid);
		k->msgid = xstrdup("no-message-id");
	}
	k->digest = mbox_digest(msg, len);
}

static void mail_key_release(struct mail_key *k)
{
	free(k->msgid);
	free(k->digest);
}

static void quarantine(struct state *st, const struct mail_key *k,
		       const char *why, size_t len)
{
	if (state_quarantine_add(st, k->msgid, k->digest, why,
				 (long long)len) > 0)
		warning("<%s>: quarantined, skipped from now on: %s",
			k->msgid, why);
}

/*
 * A crash of the bot on one mail must not wedge every later run: the
 * mail in hand is recorded ("DIGEST MSGID") before it is handled and
 * cleared after.  A mail the bot died on twice is quarantined at the
 * next start.
 */
static void poll_mark(struct state *st, const struct mail_key *k)
{
	char *cur = state_meta_get(st, "poll_current");
	char *key = xasprintf("%s %s", k->digest, k->msgid);

	if (!cur || strcmp(cur, key))
		state_meta_set(st, "poll_deaths", "0");
	free(cur);
	state_meta_set(st, "poll_current", key);
	free(key);
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
	char *sp = cur ? strchr(cur, ' ') : NULL;

	if (sp) {
		struct mail_key k = { sp + 1, cur };

		*sp = '\0';
		warning("<%s>: the last poll stopped while handling it",
			k.msgid);
		if (deaths >= 2) {
			quarantine(st, &k, "the bot stopped twice while handling it",
				   0);
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
 * first (mail.h): a poison one is quarantined, not handed on.  A mail
 * handled to the end is recorded as polled for its kind of query, so
 * that a poll killed after mail K resumes at K+1 instead of doing K
 * mails' work again (their replies were exactly-once anyway).  Every
 * copy of a Message-ID that lore holds is a mail of its own here.
 */
static void call_per_message(struct state *st, const char *kind,
			     const char *text, size_t len, message_fn fn,
			     void *data)
{
	struct mbox mb = { 0 };
	size_t i;

	mbox_split_each(text, len, &mb);
	for (i = 0; i < mb.nr; i++) {
		const char *msg = mb.msgs[i].data;
		size_t n = mb.msgs[i].len;
		struct mail_key k;
		struct mail m;
		int bad, done = 1;

		mail_key_of(msg, n, &k);
		if (state_quarantined(st, k.msgid, k.digest) > 0) {
			mail_key_release(&k);
			continue;
		}
		if (state_polled(st, kind, k.msgid, k.digest) > 0) {
			debug("<%s>: handled by an earlier poll, skipped",
			      k.msgid);
			mail_key_release(&k);
			continue;
		}
		poll_mark(st, &k);
		state_crash_point("poll-message");
		/* Unparsable is no poison: fn says what it makes of it. */
		bad = mail_parse(msg, n, &m) < 0;
		if (!bad && m.poison)
			quarantine(st, &k, m.poison, n);
		else
			done = fn(msg, n, data) == 0;
		if (!bad)
			mail_release(&m);
		if (done)
			state_polled_add(st, kind, k.msgid, k.digest);
		poll_unmark(st);
		state_crash_point("poll-handled");
		mail_key_release(&k);
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

static int queue_series(const char *msg, size_t len, void *data)
{
	struct poll_ctx *c = data;
	struct reply_thread t;
	struct strbuf thread = STRBUF_INIT;
	struct series s;
	const struct patch *first;
	long long id;
	int ret, done = 0;

	if (reply_thread_from_mail(msg, len, &t) < 0)
		return 0;
	if (skip_prefix_ci(t.subject, "re:") || !starts_series(t.subject) ||
	    seen_root(c, t.msgid))
		goto out;
	ret = lore_fetch_thread(t.msgid, &thread);
	if (ret) {
		/* gone is gone; lore down is for the next poll */
		done = ret == EXIT_NOTFOUND ? 0 : -1;
		goto out;
	}
	if (series_from_mbox(thread.buf, thread.len, 0, t.msgid, &s)) {
		info("<%s>: no series in the thread, skipped", t.msgid);
		goto out;
	}
	if (s.nr_patches) {
		/* known to later versions from the poll on (lineage.h) */
		lineage_record(c->st, &s);
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
		if (ret < 0)
			done = -1;
	}
	series_release(&s);
out:
	strbuf_release(&thread);
	reply_thread_release(&t);
	return done;
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
	const char *kind;	/* of the query, for state_polled() */
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
		call_per_message(q->poll->st, q->kind, mbox.buf, mbox.len,
				 q->fn, q->data);
	else if (ret != EXIT_NOTFOUND)
		q->failed = 1;
	free(qs);
	strbuf_release(&mbox);
	return 0;
}

/* Each of the configured queries (cron.query...), in order. */
static void run_queries(const char *const *queries, size_t nr,
			struct query_ctx *q)
{
	size_t i;

	for (i = 0; i < nr; i++)
		run_query(queries[i], q);
}

/* ---- email commands ---- */

struct cmd_ctx {
	struct state *st;
	int send;
	int queued;
};

/*
 * The Message-ID of the bot's answer to a command mail: the same on
 * every run (a hash of the command's Message-ID and the kind), so an
 * answer queued before a crash is found again, never sent twice.
 */
static char *answer_msgid(const char *kind, const char *cmd_msgid)
{
	const char *email = cd()->bot_email, *at = strchr(email, '@');
	char *text = xasprintf("%s\n%s", kind, cmd_msgid), *id;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	git_libgit2_init();
	if (git_odb_hash(&oid, text, strlen(text), GIT_OBJECT_BLOB) < 0)
		memset(&oid, 0, sizeof(oid));
	git_oid_tostr(hex, sizeof(hex), &oid);
	git_libgit2_shutdown();
	free(text);
	id = xasprintf("sched-bot.%s.%.32s@%s", kind, hex,
		       at && at[1] ? at + 1 : "localhost");
	return id;
}

/* The root of the thread a mail is in: first References:, else itself. */
static char *thread_root(const char *msg, size_t len, const char *self)
{
	char *refs = mbox_header(msg, len, "References");
	char *irt = NULL, *root = NULL;
	const char *h = refs, *lt, *gt;

	if (!h || !strchr(h, '<'))
		h = irt = mbox_header(msg, len, "In-Reply-To");
	lt = h ? strchr(h, '<') : NULL;
	gt = lt ? strchr(lt, '>') : NULL;
	if (gt && gt > lt + 1)
		root = xstrndup(lt + 1, gt - lt - 1);
	free(refs);
	free(irt);
	return root ? root : xstrdup(self);
}

/*
 * Answer a command mail in its thread (an error, or the quota note):
 * under a deterministic Message-ID, its intent recorded before the
 * command is, keyed on the thread root for bot.maxPerThread.
 */
static int answer_command(struct cmd_ctx *c, const char *msg, size_t len,
			  const struct mailcmd_result *r, const char *kind,
			  const char *why)
{
	struct reply_thread t;
	struct kv v = { 0 };
	struct strbuf tmpl = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, q = STRBUF_INIT;
	char *msgid = NULL, *dir = outbox_default_dir(), *path = NULL;
	char *first, *name = xasprintf("command-%s", kind), *root = NULL;
	int ret = -1;

	if (reply_thread_from_mail(msg, len, &t) < 0)
		goto out_free;
	if (reply_load_template(name, &tmpl) < 0)
		goto out;
	/* the command itself is what the answer answers */
	reply_quote(&t, 2, &q);
	kv_set(&v, "quote", q.buf);
	first = reply_greeting(&t);
	kv_set(&v, "greeting", first);
	free(first);
	kv_setf(&v, "log", !strcmp(kind, "error") ? "    %s" : "%s", why);
	kv_set(&v, "workloads", cd()->known_workloads ?:
	       workload_names(WORKLOAD_MAIL));
	strbuf_reset(&q);
	reply_signature(cd()->signature, &q);
	kv_set(&v, "signature", q.buf);
	msgid = answer_msgid(kind, r->msgid);
	if (reply_expand(tmpl.buf, &v, &body) < 0 ||
	    reply_compose_as(&t, body.buf, msgid, &out) < 0)
		goto out;
	if (outbox_put(dir, msgid, out.buf, out.len, &path) < 0)
		goto out;
	root = r->authenticated && r->target ? xstrdup(r->target) :
	       thread_root(msg, len, t.msgid);
	if (c->send && state_mail_intent(c->st, msgid, 0, root, path) < 0)
		goto out;
	info("answered the %s command in <%s>: %s",
	     !strcmp(kind, "error") ? "bad" : "over-quota", t.msgid, why);
	ret = 0;
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
	free(name);
	free(root);
	return ret;
}

/* Over bot.maxJobsPerSender or bot.maxJobsPerDay?  NULL or why. */
static char *over_quota(struct state *st, const struct mailcmd_result *r)
{
	long per_sender = cd()->max_jobs_per_sender;
	long per_day = cd()->max_jobs_per_day;
	long long since = (long long)time(NULL) - 86400;
	long n;

	if (per_sender > 0) {
		n = state_jobs_requested_since(st, since, r->sender);
		if (n < 0 || n + r->nr > per_sender)
			return xasprintf("%s has %ld jobs of the %ld a sender may queue in a day (bot.maxJobsPerSender)",
					 r->sender,
					 n, per_sender);
	}
	if (per_day > 0) {
		n = state_jobs_requested_since(st, since, NULL);
		if (n < 0 || n + r->nr > per_day)
			return xasprintf("mail commands queued %ld jobs of the %ld a day allows (bot.maxJobsPerDay)",
					 n, per_day);
	}
	return NULL;
}

/* The jobs and the command's record in one transaction: all or none. */
static int queue_command(struct cmd_ctx *c, const struct mailcmd_result *r)
{
	int i, queued = 0;

	if (state_begin(c->st) < 0)
		return -1;
	for (i = 0; i < r->nr; i++) {
		long long id;

		if (state_job_add(c->st, r->target, r->cmds[i].workloads,
				  r->cmds[i].runs, r->sender, r->msgid,
				  &id) < 0)
			goto fail;
		info("queued job %lld for %s: <%s> %s runs=%d", id,
		     r->sender, r->target, *r->cmds[i].workloads ?
		     r->cmds[i].workloads : "(default workloads)",
		     r->cmds[i].runs);
		queued++;
	}
	if (state_command_add(c->st, r->msgid, r->sender, "queued",
			      r->sig) < 0 ||
	    state_commit(c->st) < 0)
		goto fail;
	c->queued += queued;
	return 0;
fail:
	state_rollback(c->st);
	return -1;
}

static int handle_command(const char *raw, size_t raw_len, void *data)
{
	struct cmd_ctx *c = data;
	struct mailcmd_result r;
	char *quota, *msg = xmalloc(raw_len + 1);
	size_t len;
	int done = 0;

	/* the mail as its sender sent it, without lore's second Message-ID */
	memcpy(msg, raw, raw_len);
	msg[raw_len] = '\0';
	len = mailcmd_drop_archive_msgid(msg, raw_len);
	mailcmd_parse(msg, len, &r);
	if (r.status == MAILCMD_NONE || !r.msgid ||
	    state_command_seen(c->st, r.msgid) != 0)
		goto out;
	mailcmd_authenticate(c->st, msg, len, &r);
	switch (r.status) {
	case MAILCMD_IGNORED:
		/*
		 * Not recorded by its Message-ID: anyone can send a mail
		 * with the Message-ID of a genuine command, which must
		 * still count when it comes.  The poll keeps this copy's
		 * digest (call_per_message): it is not read again.
		 */
		info("command in <%s> from %s ignored: %s", r.msgid,
		     r.sender, r.why);
		break;
	case MAILCMD_ERROR:
		if (answer_command(c, msg, len, &r, "error", r.why) < 0) {
			done = -1;
			break;
		}
		state_crash_point("command-answered");
		state_command_add(c->st, r.msgid, r.sender, "error",
				  r.sig);
		break;
	case MAILCMD_OK:
		/* a moderator's word on a held report queues no job */
		if (r.moderating) {
			done = moderation_judge(c->st, &r);
			break;
		}
		quota = over_quota(c->st, &r);
		if (!quota) {
			done = queue_command(c, &r);
			break;
		}
		info("command in <%s> from %s over quota: %s", r.msgid,
		     r.sender, quota);
		/* one note per sender and day; later ones are only logged */
		if (state_commands_since(c->st, (long long)time(NULL) - 86400,
					 r.sender, "over-quota") == 0) {
			if (answer_command(c, msg, len, &r, "quota",
					   quota) < 0) {
				done = -1;
				free(quota);
				break;
			}
			state_crash_point("command-answered");
			state_command_add(c->st, r.msgid, r.sender,
					  "over-quota", r.sig);
		} else {
			state_command_add(c->st, r.msgid, r.sender,
					  "over-quota-again", r.sig);
		}
		free(quota);
		break;
	default:
		break;
	}
out:
	mailcmd_release(&r);
	free(msg);
	return done;
}

/* ---- the queue ---- */

/* The job's directory, as run_one_job() gives it. */
static char *job_dir_of(const struct state_job *job)
{
	char *name, *dir;

	if (job->job_dir)
		return xstrdup(job->job_dir);
	name = xasprintf("job-%lld", job->id);
	dir = job_default_dir(name);
	free(name);
	return dir;
}

/*
 * A process's own high-water mark of memory (its children, make and
 * git, are not the bot's): a bot that runs for months must not grow
 * with the queue or the database, and this log line is where an
 * operator (or the soak test) sees it.  who: "cron", or the job of a
 * child that ran one (parallel > 1).
 */
static void say_peak_rss(const char *who)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_SELF, &ru))
		info("%s: peak RSS %ld KiB", who, ru.ru_maxrss);
}

/*
 * One queued job, in this process or (parallel > 1) in a child that
 * opens the state database again: a SQLite handle is not to be used
 * across fork().
 */
static int run_one_job(struct state *st, const struct cron_opts *o,
		       struct state_job *job, int n)
{
	struct job_opts jo = { 0 };
	struct state_merge m = { 0 };
	char *dir = job_dir_of(job), *outcome = NULL;
	int ret;

	jo.msgid = job->msgid;
	jo.dir = dir;
	jo.workloads = job->workloads;
	jo.runs = job->runs;
	jo.send = o->send;
	jo.db_id = job->id;
	jo.requested_by = job->requested_by;
	/* a command's diff, if it carries one, goes on top */
	jo.on_top = job->command_msgid;
	/* a recheck after merge runs the named tree's commits (merged.h) */
	if (state_merge_of_recheck(st, job->id, &m) > 0) {
		jo.base = m.parent;
		jo.head = m.commit;
		jo.merged_into = m.tree;
		jo.report = m.report;
		jo.target = m.target && *m.target ? m.target : NULL;
	}
	info("job %lld: <%s> (attempt %d)", job->id, job->msgid, n);
	ret = job_run(&jo, st, &outcome, NULL);
	if (ret == EXIT_DISKFULL) {
		/* a state, not a fault: waits for space, attempt not counted */
		state_job_update(st, job->id, "disk-full", NULL, NULL);
		state_job_attempt_undo(st, job->id);
	} else if (ret == EXIT_BUSY) {
		/* the machine was busy (busy = refuse): no result, nothing
		 * measured; the next run tries again, attempt not counted
		 */
		state_job_update(st, job->id, "busy", NULL, NULL);
		state_job_attempt_undo(st, job->id);
	}
	info("job %lld: %s", job->id, ret == EXIT_DISKFULL ?
	     "stopped: disk full" : ret == EXIT_BUSY ?
	     "not started: the machine is busy, tried again next run" :
	     outcome && *outcome ? outcome : ret ? "stopped" : "done");
	free(outcome);
	free(dir);
	state_merge_release(&m);
	return ret;
}

/*
 * How many jobs run at once: target.NAME.parallel of the job target,
 * for a lab with that many devices (each job's boots stay on the device
 * its first boot got).  A single machine runs one job at a time.
 */
/*
 * The free-space floor (gc.minFree) before a job that has a build to
 * do: below it gc runs, and when the space is still short the job is
 * not started: its row says "disk-full", no attempt is counted, nothing
 * is sent, and the next run tries again.
 */
static int disk_full(struct state *st, const struct state_job *job)
{
	struct job_state js;
	char *dir, *path;
	long long avail = 0;
	int builds = 1;

	if (cd()->gc_min_free <= 0)
		return 0;
	dir = job_dir_of(job);
	path = xasprintf("%s/state", dir);
	job_state_init(&js);
	if (!job_state_read(&js, path) && js.stage > JOB_BUILD)
		builds = 0;
	job_state_release(&js);
	free(path);
	free(dir);
	if (!builds || !gc_ensure_free(st, &avail))
		return 0;
	warning("disk full: %lld bytes free for the build cache, below gc.minFree (%lld); job %lld waits for the next run",
		avail,
		cd()->gc_min_free, job->id);
	state_job_update(st, job->id, "disk-full", NULL, NULL);
	return 1;
}

static long queue_parallel(void)
{
	long n = cd()->parallel;

	return n < 1 ? 1 : n;
}

static void reap_one(int *running)
{
	int status;

	if (waitpid(-1, &status, 0) > 0)
		(*running)--;
}

static int process_queue(struct state *st, const struct cron_opts *o,
			 double deadline)
{
	long max_attempts = cd()->max_attempts;
	long parallel = queue_parallel();
	long long after = 0;
	int done = 0, running = 0;

	for (;;) {
		struct state_job job;
		char *why;
		int n;

		if (now_monotonic() >= deadline) {
			info("time budget used up; the rest waits for the next run");
			break;
		}
		if (o->max_jobs && done >= o->max_jobs)
			break;
		/* a machine that did not come back takes no job, and the
		 * jobs keep their attempts until an operator clears it
		 */
		if (target_unhealthy(cd()->target, &why)) {
			warning("target %s is marked unhealthy %s; the queue waits for 'sched-bot target clear %s'",
				cd()->target, why, cd()->target);
			free(why);
			break;
		}
		if (state_job_next(st, &job, after) <= 0)
			break;
		after = job.id;
		if (disk_full(st, &job)) {
			state_job_release(&job);
			break;
		}
		n = state_job_attempt(st, job.id);
		if (n > max_attempts) {
			warning("job %lld failed %ld times; giving up",
				job.id, max_attempts);
			state_job_update(st, job.id, NULL, "error", NULL);
			state_job_release(&job);
			continue;
		}
		if (parallel == 1) {
			int rc = run_one_job(st, o, &job, n);

			/* the next job would find it full, or busy, too */
			if (rc == EXIT_DISKFULL || rc == EXIT_BUSY) {
				state_job_release(&job);
				break;
			}
		} else {
			pid_t pid;

			while (running >= parallel)
				reap_one(&running);
			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				warning("fork: %s; running job %lld here",
					strerror(errno), job.id);
				run_one_job(st, o, &job, n);
			} else if (!pid) {
				struct state *cst = state_open(NULL);
				int ret = cst ? run_one_job(cst, o, &job, n) :
						EXIT_FAIL;
				char *who = xasprintf("job %lld", job.id);

				state_close(cst);
				say_peak_rss(who);
				free(who);
				fflush(NULL);
				_exit(ret);
			} else {
				running++;
			}
		}
		state_job_release(&job);
		done++;
	}
	while (running > 0)
		reap_one(&running);
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

/* ---- bases built ahead ---- */

/*
 * In the time the queue left: fetch the named trees, and build each
 * configured branch whose head moved since the last run, with the
 * options a job's build uses, so that the base side of the next job on
 * it is a hit in the build cache.  The head built is kept in the state
 * database ("built:tip/sched/core"); a build that failed is not tried
 * again until the branch moves.
 */
static int build_ahead(struct state *st, double deadline, int fetched)
{
	struct tree_fetch_opts fo = { 0 };
	struct tree_remotes t;
	git_repository *repo = NULL;
	char *tp = tree_default_path();
	size_t i, j;
	int built = 0;

	tree_remotes_load(&t);
	if (!t.nr || tree_open(&repo, tp) < 0)
		goto out;
	fo.timeout = cd()->fetch_timeout;
	for (i = 0; i < t.nr && now_monotonic() < deadline; i++) {
		char **refs;
		size_t nr;

		if (!fetched)
			tree_fetch_remote(repo, &t.v[i], &fo);
		nr = tree_remote_refs(repo, &t.v[i], &refs);
		for (j = 0; j < nr; j++) {
			const char *b = refs[j] + strlen("refs/remotes/");
			char hex[GIT_OID_HEXSZ + 1], *key, *last;
			struct build_opts bo = { 0 };
			struct build_result br;
			git_oid oid;
			int rc;

			if (now_monotonic() >= deadline ||
			    git_reference_name_to_id(&oid, repo, refs[j]) < 0)
				goto next;
			git_oid_tostr(hex, sizeof(hex), &oid);
			key = xasprintf("built:%s", b);
			last = state_meta_get(st, key);
			if (last && !strcmp(last, hex)) {
				free(last);
				free(key);
				goto next;
			}
			free(last);
			info("build ahead: %s moved to %.12s", b, hex);
			bo.tree = tp;
			bo.rev = hex;
			bo.trusted = 1;	/* a named tree's head */
			memset(&br, 0, sizeof(br));
			rc = build_kernel(&bo, &br);
			/* Tried once per head: an error that recurs at
			 * every run would take every run's idle time.
			 */
			state_meta_set(st, key, hex);
			info("build ahead: %s %.12s %s", b, hex, rc < 0 ?
			     "could not be built" : rc ? "failed to build" :
			     br.cached ? "was built already" : "built");
			built += !rc && !br.cached;
			build_result_release(&br);
			free(key);
next:
			free(refs[j]);
		}
		free(refs);
	}
out:
	git_repository_free(repo);
	tree_remotes_release(&t);
	free(tp);
	return built;
}

/*
 * After the poll, with cron.mergeScan: fetch the named trees and look
 * in what their branches gained for the series the bot measured
 * (merged.h), so that a recheck it queues runs in this run's queue.
 * Returns 1 when the trees were fetched (build-ahead does not fetch
 * them again), 0 when not.
 */
static int fetch_and_scan(struct state *st)
{
	struct tree_fetch_opts fo = { 0 };
	struct tree_remotes t;
	git_repository *repo = NULL;
	char *tp;
	size_t i;

	if (cd()->merge_scan <= 0)
		return 0;
	tree_remotes_load(&t);
	tp = tree_default_path();
	if (!t.nr || tree_open(&repo, tp) < 0) {
		tree_remotes_release(&t);
		free(tp);
		return 0;
	}
	fo.timeout = cd()->fetch_timeout;
	for (i = 0; i < t.nr; i++)
		if (!tree_fetch_remote(repo, &t.v[i], &fo) &&
		    merged_scan(st, repo, &t.v[i], cd()->merge_scan) < 0)
			warning("merge scan of %s: the state failed",
				t.v[i].name);
	git_repository_free(repo);
	tree_remotes_release(&t);
	free(tp);
	return 1;
}

/* Send what is pending; a mail the outbox had no room for is noted. */
static int flush(struct state *st, const char *box)
{
	disk_full_clear();
	return outbox_flush(st, box);
}


int cron_run(const struct cron_opts *o)
{
	long budget = o->budget ? o->budget :
		      cd()->budget;
	double deadline = now_monotonic() + budget;
	char *db = state_default_path(), *box = outbox_default_dir();
	struct state *st = NULL;
	int lock, ret = EXIT_OK, fetched = 0;

	lock = state_lock(db);
	if (lock < 0)
		goto out_nolock;
	st = state_open(db);
	if (!st) {
		/* its file system full (state.c says so): a state, not a bug */
		ret = disk_full_path() ? EXIT_DISKFULL : EXIT_FAIL;
		goto out;
	}
	if (o->send && flush(st, box) < 0)
		ret = disk_full_path() ? EXIT_DISKFULL : EXIT_NETWORK;

	if (o->poll) {
		long long start = (long long)time(NULL), since = o->since;
		struct poll_ctx pc = { .st = st };
		struct cmd_ctx cc = { .st = st, .send = o->send };
		struct query_ctx q = { .poll = &pc };
		char *last, *s;

		pc.workloads = cd()->workloads ?:
			       workload_names(WORKLOAD_DEFAULT);
		if (!since) {
			last = state_meta_get(st, "last_poll");
			since = last ? atoll(last) -
				cd()->overlap :
				start - cd()->first_window;
			free(last);
		}
		poll_recover(st);
		q.since = since;
		q.kind = "series";
		q.fn = queue_series;
		q.data = &pc;
		run_queries(cd()->queries, cd()->nr_queries, &q);
		q.kind = "command";
		q.fn = handle_command;
		q.data = &cc;
		run_queries(cd()->command_queries,
			    cd()->nr_command_queries, &q);
		/* for `status`: when the bot last tried, and how it went */
		s = xasprintf("%lld", start);
		state_meta_set(st, "last_poll_attempt", s);
		state_meta_set(st, "last_poll_result",
			       q.failed ? "failed" : "ok");
		if (q.failed) {
			ret = EXIT_NETWORK;
		} else {
			state_meta_set(st, "last_poll", s);
			/* where the next poll's window starts */
			state_polled_expire(st, start -
					    cd()->overlap);
		}
		free(s);
		info("poll: %d new series, %d commands queued",
		     pc.queued, cc.queued);
		fetched = fetch_and_scan(st);
		while (pc.nr_seen)
			free(pc.seen[--pc.nr_seen]);
		free(pc.seen);
	}

	disk_full_clear();
	if (!o->no_jobs)
		process_queue(st, o, deadline);
	/* the last job stopped for want of space (and the queue with it) */
	if (disk_full_path())
		ret = EXIT_DISKFULL;
	if (!o->no_jobs && cd()->build_ahead > 0)
		build_ahead(st, deadline, fetched);
	/* a held report nobody judged in time is not sent late */
	moderation_expire(st);
	if (o->send && flush(st, box) < 0)
		ret = disk_full_path() ? EXIT_DISKFULL : EXIT_NETWORK;
	/* after the queue and the sending, which finish jobs gc may trim */
	if (!o->no_jobs && (cd()->gc_max_disk_bytes > 0 ||
			    cd()->gc_keep_days > 0)) {
		struct gc_result r;

		if (gc_run(st, 0, &r) < 0)
			warning("gc: some files could not be deleted");
		info("gc: freed %lld bytes in %zu item(s); %lld bytes in use",
		     r.freed, r.nr, r.after.total);
		gc_result_release(&r);
	}
out:
	state_close(st);
	close(lock);
	say_peak_rss("cron");
out_nolock:
	free(db);
	free(box);
	return ret;
}
