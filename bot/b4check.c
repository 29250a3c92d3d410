// SPDX-License-Identifier: GPL-2.0
/*
 * b4check.c - answer b4 review's external check protocol from the
 * bot's jobs (see b4check.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4check.h"
#include "jobreply.h"
#include "jobstate.h"
#include "json.h"
#include "mail.h"
#include "state.h"
#include "util.h"

#define TOOL "sched-bot"
/* Job directories read when looking for a job by its state files. */
#define MAX_SCAN 100000
/* Bytes of each file put into details. */
#define MAX_DETAIL 32768

struct ids {
	char **v;
	size_t nr, alloc;
};

static void ids_add(struct ids *ids, const char *id)
{
	size_t i;

	if (!id || !*id)
		return;
	for (i = 0; i < ids->nr; i++)
		if (!strcmp(ids->v[i], id))
			return;
	ALLOC_GROW(ids->v, ids->nr, ids->alloc);
	ids->v[ids->nr++] = xstrdup(id);
}

static void ids_release(struct ids *ids)
{
	size_t i;

	for (i = 0; i < ids->nr; i++)
		free(ids->v[i]);
	free(ids->v);
}

/* A job's state (js initialised by the caller); -1 when there is none. */
static int read_state(const char *dir, struct job_state *js)
{
	char *path = xasprintf("%s/state", dir);
	int ret = job_state_read(js, path) ? -1 : 0;

	free(path);
	return ret;
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static char *jobs_root(const struct b4check_opts *o)
{
	const char *base = o->jobs_dir;

	return base && *base ? xstrdup(base) : data_path("jobs");
}

/* Rank of a state file among the ids (lower is better), or ids->nr. */
static size_t rank(const struct job_state *js, const struct ids *ids)
{
	size_t i;

	for (i = 0; i < ids->nr; i++)
		if (same(js->msgid, ids->v[i]) ||
		    same(js->cover_msgid, ids->v[i]))
			return i;
	return ids->nr;
}

/* The job directory among root's whose state names the best id. */
static char *scan_jobs(const char *root, const struct ids *ids,
		       size_t *best_rank)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char *best = NULL;
	size_t seen = 0;

	*best_rank = ids->nr;
	if (!d)
		return NULL;
	while ((e = readdir(d)) && seen++ < MAX_SCAN) {
		struct job_state js;
		char *dir;
		size_t r;

		if (e->d_name[0] == '.')
			continue;
		job_state_init(&js);
		dir = xasprintf("%s/%s", root, e->d_name);
		if (read_state(dir, &js) == 0 &&
		    (r = rank(&js, ids)) < *best_rank) {
			*best_rank = r;
			free(best);
			best = dir;
			dir = NULL;
		}
		free(dir);
		job_state_release(&js);
	}
	closedir(d);
	return best;
}

/*
 * The directory of the job for the first id that has one, from the job
 * directories or the state database (a job may live outside job.dir);
 * *queued is set when that job has no directory yet.
 */
static char *find_job(const struct b4check_opts *o, const struct ids *ids,
		      int *queued)
{
	char *root = jobs_root(o), *dir;
	size_t i, found;

	*queued = 0;
	dir = scan_jobs(root, ids, &found);
	for (i = 0; o->st && i < found; i++) {
		struct state_job job;
		char *path;

		if (state_job_find(o->st, ids->v[i], &job) != 1)
			continue;
		free(dir);
		dir = NULL;
		if (job.job_dir && *job.job_dir) {
			path = xasprintf("%s/state", job.job_dir);
			if (!access(path, R_OK))
				dir = xstrdup(job.job_dir);
			free(path);
		}
		*queued = !dir;
		state_job_release(&job);
		break;
	}
	free(root);
	return dir;
}

/* The first line of a job file, without prefix, or NULL. */
static char *first_line(const char *dir, const char *file,
			const char *prefix)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", dir, file), *ret = NULL;
	const char *p;

	if (strbuf_read_file(&sb, path) >= 0) {
		strbuf_trim(&sb);
		p = sb.buf;
		if (prefix && starts_with(p, prefix))
			p += strlen(prefix);
		if (*p)
			ret = xstrndup(p, strcspn(p, "\n"));
	}
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* Append a job file (its last MAX_DETAIL bytes) under a title. */
static void add_file(struct strbuf *out, const char *dir, const char *file,
		     const char *title)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", dir, file);
	const char *p;

	if (strbuf_read_file(&sb, path) >= 0) {
		strbuf_trim(&sb);
		p = sb.buf;
		if (sb.len > MAX_DETAIL) {
			p += sb.len - MAX_DETAIL;
			p += strcspn(p, "\n");
		}
		if (*p) {
			if (out->len)
				strbuf_addch(out, '\n');
			if (title)
				strbuf_addf(out, "%s\n\n", title);
			strbuf_addstr(out, p);
			strbuf_addch(out, '\n');
		}
	}
	free(path);
	strbuf_release(&sb);
}

static char *job_url(const char *base, const char *dir)
{
	const char *name = strrchr(dir, '/');
	char *abs, *url;
	size_t n;

	name = name ? name + 1 : dir;
	if (base && *base) {
		n = strlen(base);
		while (n && base[n - 1] == '/')
			n--;
		return xasprintf("%.*s/%s.html", (int)n, base, name);
	}
	abs = realpath(dir, NULL);
	url = xasprintf("file://%s", abs ? abs : dir);
	free(abs);
	return url;
}

/* JSON strings must be UTF-8: job files are ours, logs may not be. */
static void json_text(struct json *j, const char *key, const char *s)
{
	char *u = mail_to_utf8(s, strlen(s), "utf-8");

	json_string(j, key, u);
	free(u);
}

static void result(struct json *j, const char *status, const char *summary,
		   const char *url, const char *details)
{
	json_object_begin(j, NULL);
	json_string(j, "tool", TOOL);
	json_string(j, "status", status);
	json_text(j, "summary", summary);
	if (url)
		json_string(j, "url", url);
	if (details && *details)
		json_text(j, "details", details);
	json_object_end(j);
}

static const char *const failures[JOB_NR_OUTCOMES] = {
	[JOB_APPLY_FAILED] = "the series does not apply",
	[JOB_BUILD_FAILED] = "a kernel does not build",
	[JOB_BOOT_FAILED] = "a kernel does not boot",
};

static void answer_job(struct json *j, const struct b4check_opts *o,
		       const char *dir)
{
	struct job_state js;
	struct strbuf details = STRBUF_INIT, summary = STRBUF_INIT;
	const char *outcome, *status = "warn";
	char *url = job_url(o->archive_url, dir), *verdict;

	job_state_init(&js);
	read_state(dir, &js);
	outcome = job_outcome_name(js.outcome);
	if (js.version)
		strbuf_addf(&summary, "v%d", js.version);
	if (js.nr_patches)
		strbuf_addf(&summary, "%s%d patch%s", summary.len ? ", " : "",
			    js.nr_patches, js.nr_patches != 1 ? "es" : "");
	if (summary.len)
		strbuf_addstr(&summary, ": ");
	if (js.outcome == JOB_TESTED || js.outcome == JOB_REGRESSION) {
		/* a pass is what the reply's Tested-by says: none, warn */
		const char *unvouched = js.outcome == JOB_TESTED ?
			job_reply_unvouched(dir, &js) : NULL;

		status = js.outcome != JOB_TESTED ? "fail" :
			 unvouched ? "warn" : "pass";
		verdict = first_line(dir, "verdict.txt", "Verdict: ");
		strbuf_addstr(&summary, verdict ? verdict : outcome);
		if (unvouched)
			strbuf_addf(&summary, " No Tested-by: %s.", unvouched);
		free(verdict);
		add_file(&details, dir, "verdict.txt", NULL);
		add_file(&details, dir, "regressions.txt",
			 "Significant regressions:");
		add_file(&details, dir, "kernels.txt", "Kernels:");
		add_file(&details, dir, "tables.txt", "Results:");
	} else if (js.outcome == JOB_DUPLICATE) {
		/* the earlier version's result is the answer: failure.txt
		 * says which and where */
		strbuf_addstr(&summary, "the patches of an earlier version, "
			      "tested already (duplicate)");
		add_file(&details, dir, "failure.txt", NULL);
	} else if (js.outcome) {
		const char *what = failures[js.outcome];

		status = what ? "fail" : "warn";
		strbuf_addf(&summary, "%s (%s)", what ? what :
			    "the test stopped", outcome);
		add_file(&details, dir, "failure.txt", NULL);
	} else {
		strbuf_addf(&summary, "testing, at stage %s",
			    job_stage_name(js.stage));
	}
	result(j, status, summary.buf, url, details.buf);
	strbuf_release(&summary);
	strbuf_release(&details);
	job_state_release(&js);
	free(url);
}

void b4check_answer(const char *raw, size_t len,
		    const struct b4check_opts *o, struct strbuf *out)
{
	struct ids ids = { 0 };
	struct json j;
	struct mail m;
	char *dir = NULL;
	int parsed, queued = 0;
	size_t i;

	parsed = !mail_parse(raw, len, &m);
	if (parsed) {
		ids_add(&ids, m.msgid);
		ids_add(&ids, m.in_reply_to);
		for (i = m.nr_refs; i > 0; i--)
			ids_add(&ids, m.refs[i - 1]);
		mail_release(&m);
	}
	if (ids.nr)
		dir = find_job(o, &ids, &queued);

	json_init(&j, out, 1);
	json_array_begin(&j, NULL);
	if (dir)
		answer_job(&j, o, dir);
	else if (queued)
		result(&j, "warn", "queued for testing", NULL, NULL);
	else if (!ids.nr)
		result(&j, "warn", "not tested: the message has no "
		       "Message-ID to find its series by", NULL, NULL);
	else if (!o->untested_empty)
		result(&j, "warn", "not tested: no sched-bot job for this "
		       "series", NULL, NULL);
	json_array_end(&j);
	if (!out->len || out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	free(dir);
	ids_release(&ids);
}
