// SPDX-License-Identifier: GPL-2.0
/*
 * history.c - a series' versions, jobs and verdicts; see history.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "history.h"
#include "jobdir.h"
#include "jobstate.h"
#include "state.h"
#include "util.h"


struct history_job {
	struct state *st;
	const struct state_job *row;
	struct job_state s;	/* its state file, when it has one */
	int have_state;
};

/*
 * A value from mail (a subject, a message-id, an author) as one line
 * of plain text: no terminal escape or line break of a stranger's
 * reaches the operator's terminal.
 */
static void add_text(struct strbuf *out, const char *s)
{
	for (; s && *s; s++)
		strbuf_addch(out, (unsigned char)*s < 0x20 || *s == 0x7f ?
			     '?' : *s);
}

/* ---- a version's rows ---- */

typedef void (*version_row_fn)(const struct state_version *v,
			       struct strbuf *out);

static void version_link(const struct state_version *v, struct strbuf *out)
{
	strbuf_addstr(out, v->family ? "" : "not linked: ");
	add_text(out, v->why ? v->why : "?");
}

static void version_change_id(const struct state_version *v,
			      struct strbuf *out)
{
	add_text(out, v->change_id);
}

/* A time of the state, "2026-12-02 06:50 UTC", between pre and post. */
static void add_date(struct strbuf *out, long long when, const char *pre,
		     const char *post)
{
	time_t t = (time_t)when;
	struct tm tm;
	char buf[32];

	if (t && gmtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm))
		strbuf_addf(out, "%s%s%s", pre, buf, post);
}

static void version_seen(const struct state_version *v, struct strbuf *out)
{
	add_date(out, v->seen_at, "", "");
}

static const struct {
	const char *label;
	version_row_fn fn;
} version_rows[] = {
	{ "linked", version_link },
	{ "change-id", version_change_id },
	{ "seen", version_seen },
};

/* ---- a job's rows ---- */

typedef void (*job_row_fn)(const struct history_job *j, struct strbuf *out);

static void job_target(const struct history_job *j, struct strbuf *out)
{
	if (j->have_state && j->s.target)
		strbuf_addf(out, "%s, workloads %s", j->s.target,
			    j->s.workloads ? j->s.workloads : "default");
}

static void job_base(const struct history_job *j, struct strbuf *out)
{
	const char *c = j->have_state ? j->s.side[JOB_SIDE_BASE].commit : NULL;

	/* base_desc names the commit already, and how it was chosen */
	if (j->have_state && j->s.base_desc)
		strbuf_addstr(out, j->s.base_desc);
	else if (c)
		strbuf_addf(out, "%.12s", c);
}

void history_kpis_release(struct history_kpi *k, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(k[i].name);
		free(k[i].verdict);
	}
	free(k);
}

static const char *member_string(struct json_object *m, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(m, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* "spawn lps", "hackbench 4 groups time": workload, params, metric. */
static char *kpi_name(struct json_object *m)
{
	const char *w = member_string(m, "workload");
	const char *p = member_string(m, "params");
	const char *k = member_string(m, "metric");

	if (!w || !k)
		return NULL;
	return xasprintf("%s%s%s %s", w, p && *p ? " " : "", p && *p ? p : "",
			 k);
}

size_t history_kpis(const char *text, size_t len, struct history_kpi **out)
{
	struct json_object *o, *metrics, *d, *c;
	struct history_kpi *k = NULL;
	size_t i, n, nr = 0, alloc = 0;

	*out = NULL;
	if (!text || len > HISTORY_JSON_MAX)
		return 0;
	o = json_tokener_parse(text);
	if (!o || !json_object_object_get_ex(o, "metrics", &metrics) ||
	    !json_object_is_type(metrics, json_type_array)) {
		json_object_put(o);
		return 0;
	}
	n = json_object_array_length(metrics);
	for (i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(metrics, i);
		const char *v = member_string(m, "verdict");
		char *name;

		if (json_object_object_get_ex(m, "diagnostic", &d) &&
		    json_object_get_boolean(d))
			continue;
		name = kpi_name(m);
		if (!name || !v) {
			free(name);
			continue;
		}
		ALLOC_GROW(k, nr, alloc);
		k[nr].name = name;
		k[nr].verdict = xstrdup(v);
		k[nr].pct = json_object_object_get_ex(m, "change_pct", &c) &&
			    !json_object_is_type(c, json_type_null) ?
			    json_object_get_double(c) : NAN;
		nr++;
	}
	json_object_put(o);
	*out = k;
	return nr;
}

static void kpis_of(const struct strbuf *text, struct strbuf *out)
{
	struct history_kpi *k;
	size_t i, nr = history_kpis(text->buf, text->len, &k);

	for (i = 0; i < nr; i++) {
		if (out->len)
			strbuf_addstr(out, "; ");
		strbuf_addf(out, "%s:", k[i].name);
		if (!isnan(k[i].pct))
			strbuf_addf(out, " %+.1f%%", k[i].pct);
		strbuf_addf(out, " %s", k[i].verdict);
	}
	history_kpis_release(k, nr);
}

static const struct history_kpi *find_kpi(const struct history_kpi *k,
					  size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(k[i].name, name))
			return &k[i];
	return NULL;
}

void history_still_there(const struct history_then *then,
			 const char *now_json, size_t now_len, int now_version,
			 int identical, struct strbuf *out)
{
	struct history_kpi *old, *cur;
	size_t nr_old = history_kpis(then->json, then->len, &old);
	size_t nr_cur = history_kpis(now_json, now_len, &cur), i;
	int said = 0;

	for (i = 0; i < nr_old; i++) {
		const struct history_kpi *o = &old[i], *c;

		if (strcmp(o->verdict, "regression"))
			continue;
		if (!said++)
			strbuf_addf(out, "The regressions v%d reported, in v%d:\n\n",
				    then->version, now_version);
		strbuf_addf(out, "- v%d regressed %s", then->version, o->name);
		if (!isnan(o->pct))
			strbuf_addf(out, " by %+.1f%%", o->pct);
		strbuf_addf(out, "; in v%d: ", now_version);
		c = find_kpi(cur, nr_cur, o->name);
		if (identical && !c)
			strbuf_addstr(out, "the patched kernel's code and data are the base's: gone\n");
		else if (!c)
			strbuf_addstr(out, "not measured: unknown\n");
		else if (!strcmp(c->verdict, "regression"))
			strbuf_addf(out, "%+.1f%%, a regression: still there\n",
				    isnan(c->pct) ? 0.0 : c->pct);
		else
			strbuf_addf(out, "%+.1f%%, %s: gone\n",
				    isnan(c->pct) ? 0.0 : c->pct,
				    !strcmp(c->verdict, "improvement") ?
				    "an improvement" :
				    !strcmp(c->verdict, "noisy") ?
				    "too noisy to tell, no regression shown" :
				    "within noise");
	}
	if (said && then->link)
		strbuf_addf(out, "\nv%d's report:\n\n    %s\n", then->version,
			    then->link);
	history_kpis_release(old, nr_old);
	history_kpis_release(cur, nr_cur);
}

static void job_kpis(const struct history_job *j, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;

	if (!j->row->job_dir ||
	    jobdir_read(j->row->job_dir, "compare.json", &text) < 0 ||
	    text.len > HISTORY_JSON_MAX) {
		strbuf_release(&text);
		return;
	}
	kpis_of(&text, out);
	strbuf_release(&text);
}

/*
 * The job directory by its name alone: the text goes onto the archive's
 * series pages too, which show no path of the bot's machine.
 */
static void job_same_as(const struct history_job *j, struct strbuf *out)
{
	const char *name = j->s.same_as ? strrchr(j->s.same_as, '/') : NULL;

	if (!j->have_state || j->s.outcome != JOB_DUPLICATE)
		return;
	name = name && name[1] ? name + 1 : j->s.same_as;
	strbuf_addf(out, "the patches of %s", name ? name : "an earlier job");
	if (j->s.same_as_reply)
		strbuf_addf(out, ", reported in <%s>", j->s.same_as_reply);
}

static void job_reply(const struct history_job *j, struct strbuf *out)
{
	if (j->have_state && j->s.reply_msgid)
		strbuf_addf(out, "<%s>", j->s.reply_msgid);
	else if (j->have_state && j->s.outcome == JOB_DUPLICATE)
		strbuf_addstr(out, "none (bot.quiet)");
}

/* A held report: what the moderators made of it (moderation.h). */
static void job_moderation(const struct history_job *j, struct strbuf *out)
{
	struct state_held h;

	if (!j->have_state || !j->s.reply_msgid ||
	    state_held_get(j->st, j->s.reply_msgid, &h) <= 0)
		return;
	strbuf_addf(out, "%s", h.status ? h.status : "?");
	if (h.decided_by)
		strbuf_addf(out, " by %s", h.decided_by);
	if (h.reason)
		strbuf_addf(out, ": %s", h.reason);
	state_held_release(&h);
}

static int add_merge(const struct state_merge *m, void *data)
{
	struct strbuf *out = data;

	if (out->len)
		strbuf_addstr(out, "; ");
	strbuf_addf(out, "into %s as %.12s", m->tree, m->commit);
	add_date(out, m->recorded_at, " (", ")");
	if (m->recheck_job)
		strbuf_addf(out, ", rechecked by job %lld", m->recheck_job);
	return 0;
}

/* The named trees the job's patches were found merged into (merged.h),
 * or, for a recheck, the merge it ran.
 */
static void job_merged(const struct history_job *j, struct strbuf *out)
{
	if (j->have_state && j->s.head) {
		strbuf_addf(out, "a recheck on %s %.12s against %.12s",
			    job_str(j->s.merged_into), j->s.head,
			    job_str(j->s.base));
		return;
	}
	state_job_merges(j->st, j->row->id, add_merge, out);
}

static const struct {
	const char *label;
	job_row_fn fn;
} job_rows[] = {
	{ "target", job_target },
	{ "base", job_base },
	{ "kpis", job_kpis },
	{ "same as", job_same_as },
	{ "reply", job_reply },
	{ "moderation", job_moderation },
	{ "merged", job_merged },
};

/* ---- the walk ---- */

struct walk {
	struct state *st;
	struct strbuf *out;
	int versions;
};

/* "    label: value", for the rows that have a value. */
static void add_row(struct strbuf *out, const char *indent,
		    const char *label, const struct strbuf *val)
{
	if (val->len) {
		strbuf_addf(out, "%s%-10s ", indent, label);
		add_text(out, val->buf);
		strbuf_addch(out, '\n');
	}
}

static int print_job(const struct state_job *row, void *data)
{
	struct walk *w = data;
	struct history_job j = { .st = w->st, .row = row };
	struct strbuf val = STRBUF_INIT;
	char *path = row->job_dir ? jobdir_path(row->job_dir, "state") : NULL;
	size_t i;

	job_state_init(&j.s);
	j.have_state = path && !job_state_read(&j.s, path);
	strbuf_addf(w->out, "  job %lld: %s", row->id,
		    row->outcome ? row->outcome : "pending");
	if (!row->outcome && row->stage)
		strbuf_addf(w->out, " (at %s)", row->stage);
	if (row->requested_by) {
		strbuf_addstr(w->out, ", asked by ");
		add_text(w->out, row->requested_by);
	}
	strbuf_addch(w->out, '\n');
	for (i = 0; i < ARRAY_SIZE(job_rows); i++) {
		strbuf_reset(&val);
		job_rows[i].fn(&j, &val);
		add_row(w->out, "    ", job_rows[i].label, &val);
	}
	strbuf_release(&val);
	job_state_release(&j.s);
	free(path);
	return 0;
}

static int print_version(const struct state_version *v, void *data)
{
	struct walk *w = data;
	struct strbuf val = STRBUF_INIT;
	size_t i;

	strbuf_addf(w->out, "v%d <", v->version);
	add_text(w->out, v->msgid);
	strbuf_addstr(w->out, "> ");
	add_text(w->out, v->subject);
	strbuf_addch(w->out, '\n');
	for (i = 0; i < ARRAY_SIZE(version_rows); i++) {
		strbuf_reset(&val);
		version_rows[i].fn(v, &val);
		add_row(w->out, "  ", version_rows[i].label, &val);
	}
	strbuf_release(&val);
	w->versions++;
	return state_version_jobs(w->st, v->msgid, print_job, w);
}

int history_format(struct state *st, const char *name, struct strbuf *out)
{
	struct walk w = { st, out, 0 };
	struct state_version v;
	char *id = xstrdup(name);
	long long family = 0;
	int found, ret;

	if (*id == '<' && id[strlen(id) - 1] == '>') {
		memmove(id, id + 1, strlen(id));
		id[strlen(id) - 1] = '\0';
	}
	found = state_version_get(st, id, &v);
	if (found < 0)
		goto fail;
	if (!found) {
		family = state_family_of_change_id(st, id);
		if (family <= 0) {
			free(id);
			return family < 0 ? -1 : 1;
		}
	} else if (v.family) {
		family = v.family;
		state_version_release(&v);
	}
	if (family) {
		strbuf_addf(out, "Series %lld:\n", family);
		ret = state_family_versions(st, family, print_version, &w);
	} else {
		/* unlinked: the one version alone */
		strbuf_addstr(out, "A version linked to no series:\n");
		ret = print_version(&v, &w);
		state_version_release(&v);
	}
	free(id);
	return ret < 0 ? -1 : 0;
fail:
	free(id);
	return -1;
}
