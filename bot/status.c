// SPDX-License-Identifier: GPL-2.0
/*
 * status.c - the bot's health for operators and monitoring; see status.h.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "state.h"
#include "status.h"
#include "target/target.h"
#include "util.h"

static void alert(struct status *s, const char *fmt, ...) PRINTF(2, 3);
static void alert(struct status *s, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(s->alerts, s->nr_alerts, s->alloc_alerts);
	s->alerts[s->nr_alerts++] = strbuf_detach(&sb, NULL);
}

static int add_stage(const char *stage, long n, void *data)
{
	struct status *s = data;

	ALLOC_GROW(s->queue, s->nr_queue, s->alloc_queue);
	s->queue[s->nr_queue].name = xstrdup(stage ? stage : "");
	s->queue[s->nr_queue].n = n;
	s->nr_queue++;
	return 0;
}

static struct status_count *target(struct status *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_targets; i++)
		if (!strcmp(s->targets[i].name, name))
			return &s->targets[i];
	ALLOC_GROW(s->targets, s->nr_targets, s->alloc_targets);
	s->targets[s->nr_targets].name = xstrdup(name);
	s->targets[s->nr_targets].n = -1;
	return &s->targets[s->nr_targets++];
}

static long long meta_time(struct state *st, const char *key)
{
	char *v = state_meta_get(st, key);
	long long t = v ? atoll(v) : 0;

	free(v);
	return t;
}

static int add_tally(const char *target, const char *workloads,
		     const char *status, long n, void *data)
{
	struct status *s = data;
	struct status_moderation *m = s->nr_moderation ?
		&s->moderation[s->nr_moderation - 1] : NULL;

	if (!m || strcmp(m->target, target) || strcmp(m->workloads, workloads)) {
		ALLOC_GROW(s->moderation, s->nr_moderation,
			   s->alloc_moderation);
		m = &s->moderation[s->nr_moderation++];
		memset(m, 0, sizeof(*m));
		m->target = xstrdup(target);
		m->workloads = xstrdup(workloads);
	}
	if (!strcmp(status, "held"))
		m->held += n;
	else if (!strcmp(status, "released"))
		m->released += n;
	else if (!strcmp(status, "invalid"))
		m->invalid += n;
	else if (!strcmp(status, "expired"))
		m->expired += n;
	return 0;
}

static int add_kept(long long id, const char *msgid, const char *mail,
		    const char *why, void *data)
{
	struct status *s = data;
	struct status_kept *k;

	ALLOC_GROW(s->kept, s->nr_kept, s->alloc_kept);
	k = &s->kept[s->nr_kept++];
	k->job = id;
	k->msgid = xstrdup(msgid ? msgid : "");
	k->mail = xstrdup(mail ? mail : "");
	k->why = xstrdup(why ? why : "");
	return 0;
}

int status_moderation_collect(struct state *st, struct status *s)
{
	return state_held_tally(st, add_tally, s) < 0 ? -1 : 0;
}

int status_collect(struct state *st, const struct status_opts *o,
		   struct status *s)
{
	struct state_mail_stats ms;
	long max_age = o->max_poll_age;
	const char *jt = o->target;
	size_t i;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	s->now = (long long)time(NULL);
	s->poll_at = meta_time(st, "last_poll_attempt");
	s->poll_ok_at = meta_time(st, "last_poll");
	s->poll_result = state_meta_get(st, "last_poll_result");
	if (!s->poll_at && s->poll_ok_at) {
		/* a state from before the attempts were recorded */
		s->poll_at = s->poll_ok_at;
		free(s->poll_result);
		s->poll_result = xstrdup("ok");
	}
	if (state_jobs_by_stage(st, add_stage, s) < 0)
		ret = -1;
	s->done_day = state_jobs_finished_since(st, s->now - 86400, 0);
	s->failed_day = state_jobs_finished_since(st, s->now - 86400, 1);
	s->done_week = state_jobs_finished_since(st, s->now - 7 * 86400, 0);
	s->failed_week = state_jobs_finished_since(st, s->now - 7 * 86400, 1);
	s->sent_day = state_mails_sent_since(st, s->now - 86400, NULL);
	s->sent_week = state_mails_sent_since(st, s->now - 7 * 86400, NULL);
	if (s->done_day < 0 || s->failed_week < 0 || s->sent_week < 0)
		ret = -1;
	if (state_mail_stats(st, &ms) < 0)
		ret = -1;
	s->pending = ms.pending;
	s->held = ms.held;
	s->dropped = ms.dropped;
	s->oldest_unsent_at = ms.oldest_pending_at;
	if (jt && *jt)
		target(s, jt);
	/* the mark a machine that did not come back leaves (target.h) */
	for (i = 0; i < s->nr_targets; i++) {
		char *why;

		s->targets[i].n = target_unhealthy(s->targets[i].name, &why) ?
				  0 : 1;
		free(why);
	}
	gc_usage(&s->disk);
	if (status_moderation_collect(st, s) < 0)
		ret = -1;
	if (state_jobs_kept(st, s->now - 7 * 86400, add_kept, s) < 0)
		ret = -1;

	if (!s->poll_at)
		alert(s, "no poll recorded");
	else if (s->poll_result && strcmp(s->poll_result, "ok"))
		alert(s, "the last poll failed");
	else if (max_age > 0 && s->now - s->poll_at > max_age)
		alert(s, "the last poll is %llds old (status.maxPollAge %ld)",
		      s->now - s->poll_at, max_age);
	if (s->oldest_unsent_at && s->now - s->oldest_unsent_at > 86400)
		alert(s, "a mail has waited %llds to be sent",
		      s->now - s->oldest_unsent_at);
	if (s->disk.budget > 0 && s->disk.total > s->disk.budget)
		alert(s, "disk use %lld is over gc.maxDiskBytes %lld",
		      s->disk.total, s->disk.budget);
	if (s->disk.min_free > 0 && s->disk.free >= 0 &&
	    s->disk.free < s->disk.min_free)
		alert(s, "%lld bytes free, below gc.minFree %lld",
		      s->disk.free, s->disk.min_free);
	for (i = 0; i < s->nr_targets; i++)
		if (!s->targets[i].n)
			alert(s, "target %s is down", s->targets[i].name);
	if (ret < 0)
		alert(s, "the state database could not be read");
	return ret;
}

void status_release(struct status *s)
{
	size_t i;

	free(s->poll_result);
	for (i = 0; i < s->nr_queue; i++)
		free(s->queue[i].name);
	free(s->queue);
	for (i = 0; i < s->nr_targets; i++)
		free(s->targets[i].name);
	free(s->targets);
	for (i = 0; i < s->nr_moderation; i++) {
		free(s->moderation[i].target);
		free(s->moderation[i].workloads);
	}
	free(s->moderation);
	for (i = 0; i < s->nr_kept; i++) {
		free(s->kept[i].msgid);
		free(s->kept[i].mail);
		free(s->kept[i].why);
	}
	free(s->kept);
	for (i = 0; i < s->nr_alerts; i++)
		free(s->alerts[i]);
	free(s->alerts);
	memset(s, 0, sizeof(*s));
}

static const char *health_name(long n)
{
	return n > 0 ? "up" : n == 0 ? "down" : "unknown";
}

void status_format(const struct status *s, struct strbuf *out)
{
	size_t i, start = out->len;

	if (s->poll_at)
		strbuf_addf(out, "last poll:    %llds ago, %s\n",
			    s->now - s->poll_at,
			    s->poll_result ? s->poll_result : "ok");
	else
		strbuf_addstr(out, "last poll:    none\n");
	strbuf_addstr(out, "queue:       ");
	for (i = 0; i < s->nr_queue; i++)
		strbuf_addf(out, " %s %ld", s->queue[i].name, s->queue[i].n);
	strbuf_addstr(out, s->nr_queue ? "\n" : " empty\n");
	strbuf_addf(out, "jobs:         day %ld done %ld failed, week %ld "
		    "done %ld failed\n", s->done_day, s->failed_day,
		    s->done_week, s->failed_week);
	strbuf_addf(out, "mails:        day %ld sent, week %ld sent, %ld "
		    "pending (%ld held by the caps), %ld dropped\n",
		    s->sent_day, s->sent_week, s->pending, s->held,
		    s->dropped);
	if (s->oldest_unsent_at)
		strbuf_addf(out, "oldest unsent: %llds\n",
			    s->now - s->oldest_unsent_at);
	strbuf_addstr(out, "targets:     ");
	for (i = 0; i < s->nr_targets; i++)
		strbuf_addf(out, " %s %s", s->targets[i].name,
			    health_name(s->targets[i].n));
	strbuf_addch(out, '\n');
	strbuf_addf(out, "disk:         %lld bytes of %lld (gc.maxDiskBytes, "
		    "0: none); %lld free, floor %lld (gc.minFree)\n",
		    s->disk.total, s->disk.budget, s->disk.free,
		    s->disk.min_free);
	if (!s->nr_moderation)
		strbuf_addstr(out, "moderation:   nothing held\n");
	for (i = 0; i < s->nr_moderation; i++) {
		const struct status_moderation *m = &s->moderation[i];

		strbuf_addf(out, "moderation:   %s %s: %ld released, %ld "
			    "invalid, %ld held, %ld expired\n",
			    *m->target ? m->target : "-",
			    *m->workloads ? m->workloads : "(default)",
			    m->released, m->invalid, m->held, m->expired);
	}
	/* the week's replies the mail policy kept off the list */
	for (i = 0; i < s->nr_kept; i++)
		strbuf_addf(out, "off the list: job %lld <%s>: %s, %s\n",
			    s->kept[i].job, s->kept[i].msgid, s->kept[i].mail,
			    s->kept[i].why);
	for (i = 0; i < s->nr_alerts; i++)
		strbuf_addf(out, "needs an operator: %s\n", s->alerts[i]);
	/* Message-IDs come from mail: none of their escapes reach a terminal */
	strbuf_setlen(out, start + strip_controls(out->buf + start,
						  out->len - start));
}

void status_format_json(const struct status *s, struct strbuf *out)
{
	struct json j;
	size_t i;

	json_init(&j, out, 1);
	json_object_begin(&j, NULL);
	json_int(&j, "time", s->now);
	json_object_begin(&j, "poll");
	if (s->poll_at)
		json_int(&j, "last", s->poll_at);
	else
		json_null(&j, "last");
	if (s->poll_ok_at)
		json_int(&j, "last_ok", s->poll_ok_at);
	else
		json_null(&j, "last_ok");
	if (s->poll_at)
		json_string(&j, "result", s->poll_result ? s->poll_result :
			    "ok");
	else
		json_null(&j, "result");
	json_object_end(&j);
	json_object_begin(&j, "queue");
	for (i = 0; i < s->nr_queue; i++)
		json_int(&j, s->queue[i].name, s->queue[i].n);
	json_object_end(&j);
	json_object_begin(&j, "jobs");
	json_int(&j, "done_day", s->done_day);
	json_int(&j, "failed_day", s->failed_day);
	json_int(&j, "done_week", s->done_week);
	json_int(&j, "failed_week", s->failed_week);
	json_object_end(&j);
	json_object_begin(&j, "mails");
	json_int(&j, "sent_day", s->sent_day);
	json_int(&j, "sent_week", s->sent_week);
	json_int(&j, "pending", s->pending);
	json_int(&j, "held", s->held);
	json_int(&j, "dropped", s->dropped);
	if (s->oldest_unsent_at)
		json_int(&j, "oldest_unsent", s->oldest_unsent_at);
	else
		json_null(&j, "oldest_unsent");
	json_object_end(&j);
	json_array_begin(&j, "targets");
	for (i = 0; i < s->nr_targets; i++) {
		json_object_begin(&j, NULL);
		json_string(&j, "name", s->targets[i].name);
		json_string(&j, "health", health_name(s->targets[i].n));
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_begin(&j, "disk");
	json_int(&j, "used", s->disk.total);
	json_int(&j, "jobs", s->disk.jobs);
	json_int(&j, "builds", s->disk.builds);
	json_int(&j, "ccache", s->disk.ccache);
	json_int(&j, "lore", s->disk.lore);
	json_int(&j, "budget", s->disk.budget);
	json_int(&j, "free", s->disk.free);
	json_int(&j, "min_free", s->disk.min_free);
	json_object_end(&j);
	json_array_begin(&j, "moderation");
	for (i = 0; i < s->nr_moderation; i++) {
		const struct status_moderation *m = &s->moderation[i];

		json_object_begin(&j, NULL);
		json_string(&j, "target", m->target);
		json_string(&j, "workloads", m->workloads);
		json_int(&j, "released", m->released);
		json_int(&j, "invalid", m->invalid);
		json_int(&j, "held", m->held);
		json_int(&j, "expired", m->expired);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_array_begin(&j, "off_list");
	for (i = 0; i < s->nr_kept; i++) {
		json_object_begin(&j, NULL);
		json_int(&j, "job", s->kept[i].job);
		json_string(&j, "msgid", s->kept[i].msgid);
		json_string(&j, "mail", s->kept[i].mail);
		json_string(&j, "why", s->kept[i].why);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_bool(&j, "needs_operator", s->nr_alerts > 0);
	json_array_begin(&j, "alerts");
	for (i = 0; i < s->nr_alerts; i++)
		json_string(&j, NULL, s->alerts[i]);
	json_array_end(&j);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

/* A label value: backslash, double quote and newline escaped. */
static void label(struct strbuf *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			strbuf_addch(out, '\\');
		if (*v == '\n') {
			strbuf_addstr(out, "\\n");
			continue;
		}
		strbuf_addch(out, *v);
	}
}

static void metric(struct strbuf *out, const char *name, const char *type,
		   const char *help)
{
	strbuf_addf(out, "# HELP sched_bot_%s %s\n", name, help);
	strbuf_addf(out, "# TYPE sched_bot_%s %s\n", name, type);
}

static void sample(struct strbuf *out, const char *name, const char *lname,
		   const char *lvalue, long long v)
{
	strbuf_addf(out, "sched_bot_%s", name);
	if (lname) {
		strbuf_addf(out, "{%s=\"", lname);
		label(out, lvalue);
		strbuf_addstr(out, "\"}");
	}
	strbuf_addf(out, " %lld\n", v);
}

/* The tally over every target and workloads. */
static void moderation_totals(const struct status *s,
			      struct status_moderation *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < s->nr_moderation; i++) {
		t->released += s->moderation[i].released;
		t->invalid += s->moderation[i].invalid;
		t->held += s->moderation[i].held;
		t->expired += s->moderation[i].expired;
	}
}

void status_format_prometheus(const struct status *s, struct strbuf *out)
{
	struct status_moderation all;
	size_t i;

	metric(out, "last_poll_timestamp_seconds", "gauge",
	       "When the last poll of lore was tried (0: never).");
	sample(out, "last_poll_timestamp_seconds", NULL, NULL, s->poll_at);
	metric(out, "last_poll_success", "gauge",
	       "1 when the last poll of lore succeeded.");
	sample(out, "last_poll_success", NULL, NULL, s->poll_at &&
	       (!s->poll_result || !strcmp(s->poll_result, "ok")));
	metric(out, "queue_jobs", "gauge", "Jobs without an outcome, by stage.");
	for (i = 0; i < s->nr_queue; i++)
		sample(out, "queue_jobs", "stage", s->queue[i].name,
		       s->queue[i].n);
	metric(out, "jobs_done", "gauge",
	       "Jobs tested (with or without a regression) in the window.");
	sample(out, "jobs_done", "window", "day", s->done_day);
	sample(out, "jobs_done", "window", "week", s->done_week);
	metric(out, "jobs_failed", "gauge",
	       "Jobs that ended otherwise in the window.");
	sample(out, "jobs_failed", "window", "day", s->failed_day);
	sample(out, "jobs_failed", "window", "week", s->failed_week);
	metric(out, "mails_sent", "gauge", "Mails sent in the window.");
	sample(out, "mails_sent", "window", "day", s->sent_day);
	sample(out, "mails_sent", "window", "week", s->sent_week);
	metric(out, "mails_pending", "gauge", "Mails recorded, not yet sent.");
	sample(out, "mails_pending", NULL, NULL, s->pending);
	metric(out, "mails_held", "gauge",
	       "Pending mails a rate cap holds back.");
	sample(out, "mails_held", NULL, NULL, s->held);
	metric(out, "mails_dropped", "gauge",
	       "Mails that will not be sent (too old, too many recipients).");
	sample(out, "mails_dropped", NULL, NULL, s->dropped);
	metric(out, "oldest_unsent_mail_age_seconds", "gauge",
	       "Age of the oldest pending mail (0: none).");
	sample(out, "oldest_unsent_mail_age_seconds", NULL, NULL,
	       s->oldest_unsent_at ? s->now - s->oldest_unsent_at : 0);
	metric(out, "target_up", "gauge",
	       "1 up, 0 down (marked unhealthy: sched-bot target status).");
	for (i = 0; i < s->nr_targets; i++)
		sample(out, "target_up", "target", s->targets[i].name,
		       s->targets[i].n);
	metric(out, "disk_used_bytes", "gauge",
	       "Bytes the jobs, builds, ccache and lore cache hold.");
	sample(out, "disk_used_bytes", "area", "jobs", s->disk.jobs);
	sample(out, "disk_used_bytes", "area", "builds", s->disk.builds);
	sample(out, "disk_used_bytes", "area", "ccache", s->disk.ccache);
	sample(out, "disk_used_bytes", "area", "lore", s->disk.lore);
	metric(out, "disk_budget_bytes", "gauge", "gc.maxDiskBytes (0: none).");
	sample(out, "disk_budget_bytes", NULL, NULL, s->disk.budget);
	metric(out, "disk_free_bytes", "gauge",
	       "Bytes free where build.cacheDir is (-1: unknown).");
	sample(out, "disk_free_bytes", NULL, NULL, s->disk.free);
	metric(out, "disk_min_free_bytes", "gauge", "gc.minFree (0: none).");
	sample(out, "disk_min_free_bytes", NULL, NULL, s->disk.min_free);
	metric(out, "moderation_reports", "gauge",
	       "Reports held for the moderators, by what became of them.");
	moderation_totals(s, &all);
	sample(out, "moderation_reports", "status", "released", all.released);
	sample(out, "moderation_reports", "status", "invalid", all.invalid);
	sample(out, "moderation_reports", "status", "held", all.held);
	sample(out, "moderation_reports", "status", "expired", all.expired);
	metric(out, "needs_operator", "gauge",
	       "1 when something needs an operator (status exits 1).");
	sample(out, "needs_operator", NULL, NULL, s->nr_alerts > 0);
}
