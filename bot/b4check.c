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
#include "config.h"
#include "json.h"
#include "kv.h"
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

/* A job's state file as key/value pairs; -1 when there is none. */
static int read_state(const char *dir, struct kv *kv)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/state", dir);
	const char *p;
	int ret = -1;

	if (strbuf_read_file(&sb, path) >= 0) {
		for (p = sb.buf; *p;) {
			size_t n = strcspn(p, "\n");
			const char *eq = memchr(p, '=', n);

			if (eq) {
				char *k = xstrndup(p, eq - p);
				char *v = xstrndup(eq + 1, p + n - eq - 1);

				kv_set(kv, k, v);
				free(k);
				free(v);
			}
			p += n + (p[n] == '\n');
		}
		ret = 0;
	}
	free(path);
	strbuf_release(&sb);
	return ret;
}

static const char *get(const struct kv *kv, const char *key)
{
	const char *v = kv_get(kv, key);

	return v ? v : "";
}

static char *jobs_root(const struct b4check_opts *o)
{
	const char *base = o->jobs_dir ? o->jobs_dir :
			   config_get("job.dir");

	return base && *base ? xstrdup(base) : data_path("jobs");
}

/* Rank of a state file among the ids (lower is better), or ids->nr. */
static size_t rank(const struct kv *kv, const struct ids *ids)
{
	size_t i;

	for (i = 0; i < ids->nr; i++)
		if (!strcmp(get(kv, "msgid"), ids->v[i]) ||
		    !strcmp(get(kv, "cover_msgid"), ids->v[i]))
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
		struct kv kv = KV_INIT;
		char *dir;
		size_t r;

		if (e->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", root, e->d_name);
		if (read_state(dir, &kv) == 0 &&
		    (r = rank(&kv, ids)) < *best_rank) {
			*best_rank = r;
			free(best);
			best = dir;
			dir = NULL;
		}
		free(dir);
		kv_release(&kv);
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

static char *job_url(const char *dir)
{
	const char *base = config_get("archive.url");
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

static const struct {
	const char *outcome;
	const char *what;
} failures[] = {
	{ "apply-failed", "the series does not apply" },
	{ "build-failed", "a kernel does not build" },
	{ "boot-failed", "a kernel does not boot" },
};

static void answer_job(struct json *j, const char *dir)
{
	struct kv kv = KV_INIT;
	struct strbuf details = STRBUF_INIT, summary = STRBUF_INIT;
	const char *outcome, *status = "warn";
	char *url = job_url(dir), *verdict;
	size_t i;

	read_state(dir, &kv);
	outcome = get(&kv, "outcome");
	if (*get(&kv, "version"))
		strbuf_addf(&summary, "v%s", get(&kv, "version"));
	if (*get(&kv, "nr_patches"))
		strbuf_addf(&summary, "%s%s patch%s", summary.len ? ", " : "",
			    get(&kv, "nr_patches"),
			    strcmp(get(&kv, "nr_patches"), "1") ? "es" : "");
	if (summary.len)
		strbuf_addstr(&summary, ": ");
	if (!strcmp(outcome, "tested") || !strcmp(outcome, "regression")) {
		status = !strcmp(outcome, "tested") ? "pass" : "fail";
		verdict = first_line(dir, "verdict.txt", "Verdict: ");
		strbuf_addstr(&summary, verdict ? verdict : outcome);
		free(verdict);
		add_file(&details, dir, "verdict.txt", NULL);
		add_file(&details, dir, "regressions.txt",
			 "Significant regressions:");
		add_file(&details, dir, "kernels.txt", "Kernels:");
		add_file(&details, dir, "tables.txt", "Results:");
	} else if (*outcome) {
		const char *what = NULL;

		for (i = 0; i < ARRAY_SIZE(failures); i++)
			if (!strcmp(outcome, failures[i].outcome))
				what = failures[i].what;
		status = what ? "fail" : "warn";
		strbuf_addf(&summary, "%s (%s)", what ? what :
			    "the test stopped", outcome);
		add_file(&details, dir, "failure.txt", NULL);
	} else {
		strbuf_addf(&summary, "testing, at stage %s",
			    *get(&kv, "stage") ? get(&kv, "stage") : "?");
	}
	result(j, status, summary.buf, url, details.buf);
	strbuf_release(&summary);
	strbuf_release(&details);
	kv_release(&kv);
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
		answer_job(&j, dir);
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
