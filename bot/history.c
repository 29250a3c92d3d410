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

/* compare.json is the bot's own file, but bounded all the same. */
#define HISTORY_JSON_MAX (16 << 20)

struct history_job {
	const struct state_job *row;
	struct job_state s;	/* its state file, when it has one */
	int have_state;
};

/* ---- a version's rows ---- */

typedef void (*version_row_fn)(const struct state_version *v,
			       struct strbuf *out);

static void version_link(const struct state_version *v, struct strbuf *out)
{
	strbuf_addf(out, "%s%s", v->family ? "" : "not linked: ",
		    v->why ? v->why : "?");
}

static void version_change_id(const struct state_version *v,
			      struct strbuf *out)
{
	if (v->change_id)
		strbuf_addstr(out, v->change_id);
}

static void version_seen(const struct state_version *v, struct strbuf *out)
{
	time_t t = (time_t)v->seen_at;
	struct tm tm;
	char buf[32];

	if (t && gmtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm))
		strbuf_addstr(out, buf);
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

/* Each KPI of compare.json: "spawn lps: -12.4% regression". */
static void kpis_of(struct json_object *o, struct strbuf *out)
{
	struct json_object *metrics;
	size_t i, n;

	if (!json_object_object_get_ex(o, "metrics", &metrics) ||
	    !json_object_is_type(metrics, json_type_array))
		return;
	n = json_object_array_length(metrics);
	for (i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(metrics, i);
		struct json_object *w, *p, *k, *c, *v, *d;
		double pct;

		if (json_object_object_get_ex(m, "diagnostic", &d) &&
		    json_object_get_boolean(d))
			continue;
		if (!json_object_object_get_ex(m, "workload", &w) ||
		    !json_object_object_get_ex(m, "metric", &k) ||
		    !json_object_object_get_ex(m, "verdict", &v))
			continue;
		if (out->len)
			strbuf_addstr(out, "; ");
		strbuf_addstr(out, json_object_get_string(w));
		if (json_object_object_get_ex(m, "params", &p) &&
		    json_object_is_type(p, json_type_string) &&
		    *json_object_get_string(p))
			strbuf_addf(out, " %s", json_object_get_string(p));
		strbuf_addf(out, " %s:", json_object_get_string(k));
		pct = json_object_object_get_ex(m, "change_pct", &c) ?
		      json_object_get_double(c) : NAN;
		if (!isnan(pct))
			strbuf_addf(out, " %+.1f%%", pct);
		strbuf_addf(out, " %s", json_object_get_string(v));
	}
}

static void job_kpis(const struct history_job *j, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	struct json_object *o;

	if (!j->row->job_dir ||
	    jobdir_read(j->row->job_dir, "compare.json", &text) < 0 ||
	    text.len > HISTORY_JSON_MAX) {
		strbuf_release(&text);
		return;
	}
	o = json_tokener_parse(text.buf);
	if (o)
		kpis_of(o, out);
	json_object_put(o);
	strbuf_release(&text);
}

static void job_same_as(const struct history_job *j, struct strbuf *out)
{
	if (!j->have_state || j->s.outcome != JOB_DUPLICATE)
		return;
	strbuf_addf(out, "the patches of %s", j->s.same_as ?
		    j->s.same_as : "an earlier job");
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

/* Not recorded yet by any part of the bot: the rows are kept. */
static void job_moderation(const struct history_job *j, struct strbuf *out)
{
}

static void job_merged(const struct history_job *j, struct strbuf *out)
{
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
	if (val->len)
		strbuf_addf(out, "%s%-10s %s\n", indent, label, val->buf);
}

static int print_job(const struct state_job *row, void *data)
{
	struct walk *w = data;
	struct history_job j = { .row = row };
	struct strbuf val = STRBUF_INIT;
	char *path = row->job_dir ? jobdir_path(row->job_dir, "state") : NULL;
	size_t i;

	job_state_init(&j.s);
	j.have_state = path && !job_state_read(&j.s, path);
	strbuf_addf(w->out, "  job %lld: %s", row->id,
		    row->outcome ? row->outcome : "pending");
	if (!row->outcome && row->stage)
		strbuf_addf(w->out, " (at %s)", row->stage);
	if (row->requested_by)
		strbuf_addf(w->out, ", asked by %s", row->requested_by);
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

	strbuf_addf(w->out, "v%d <%s> %s\n", v->version, v->msgid,
		    v->subject ? v->subject : "");
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
