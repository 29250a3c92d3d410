// SPDX-License-Identifier: GPL-2.0
/*
 * jobstate.c - the typed job state of jobstate.h: one table of fields
 * that both the reader and the writer walk, and the job directory lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "jobstate.h"
#include "secret.h"
#include "util.h"

/* The index of name in a table of nr names, or -1. */
static int name_index(const char *const *names, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

static const char *const stage_names[] = {
	[JOB_FETCH] = "fetch",
	[JOB_SERIES] = "series",
	[JOB_APPLY] = "apply",
	[JOB_BUILD] = "build",
	[JOB_RUN] = "run",
	[JOB_COMPARE] = "compare",
	[JOB_REPLY] = "reply",
	[JOB_SEND] = "send",
	[JOB_DONE] = "done",
};

const char *job_stage_name(enum job_stage stage)
{
	return (size_t)stage < ARRAY_SIZE(stage_names) ?
	       stage_names[stage] : "?";
}

int job_stage_from_name(const char *name)
{
	return name_index(stage_names, ARRAY_SIZE(stage_names), name);
}

/* The one table of the outcomes' names: state file, answers, pages. */
static const char *const outcome_names[JOB_NR_OUTCOMES] = {
	[JOB_OUTCOME_NONE] = "",
	[JOB_TESTED] = "tested",
	[JOB_REGRESSION] = "regression",
	[JOB_APPLY_FAILED] = "apply-failed",
	[JOB_BUILD_FAILED] = "build-failed",
	[JOB_BOOT_FAILED] = "boot-failed",
	[JOB_DUPLICATE] = "duplicate",
};

const char *job_outcome_name(enum job_outcome outcome)
{
	return (size_t)outcome < ARRAY_SIZE(outcome_names) ?
	       outcome_names[outcome] : "";
}

int job_outcome_from_name(const char *name)
{
	return name_index(outcome_names, ARRAY_SIZE(outcome_names), name);
}

int job_outcome_failed(enum job_outcome outcome)
{
	return outcome == JOB_APPLY_FAILED || outcome == JOB_BUILD_FAILED ||
	       outcome == JOB_BOOT_FAILED;
}

enum field_type {
	F_STAGE,
	F_OUTCOME,
	F_STR,
	F_INT,
};

struct field {
	const char *key;
	enum field_type type;
	size_t off;
};

#define STR(k, m) { k, F_STR, offsetof(struct job_state, m) }
#define INT(k, m) { k, F_INT, offsetof(struct job_state, m) }
#define SIDE(k, s, m) STR(k, side[s].m)

/* The file's keys, in the order written: the job's life, top down. */
static const struct field fields[] = {
	{ "stage", F_STAGE, offsetof(struct job_state, stage) },
	STR("msgid", msgid),
	STR("mbox", mbox),
	STR("target", target),
	STR("workloads", workloads),
	INT("runs", runs),
	STR("base", base),
	STR("requested_by", requested_by),
	STR("on_top", on_top),
	STR("head", head),
	STR("merged_into", merged_into),
	STR("report", report),
	STR("cover_msgid", cover_msgid),
	STR("subject", subject),
	STR("author", author),
	STR("author_email", author_email),
	INT("version", version),
	INT("nr_patches", nr_patches),
	STR("series_base", series_base),
	STR("run_first", run_first),
	INT("run_first_version", run_first_version),
	STR("base_desc", base_desc),
	STR("base_warning", base_warning),
	STR("base_hint", base_hint),
	INT("base_named", base_named),
	SIDE("base_commit", JOB_SIDE_BASE, commit),
	SIDE("head_commit", JOB_SIDE_HEAD, commit),
	INT("on_top_applied", on_top_applied),
	STR("base_config", base_config),
	STR("config_origin", config_origin),
	STR("fragments", fragments),
	STR("config_hash", config_hash),
	STR("patch_ids", patch_ids),
	STR("same_as", same_as),
	STR("same_as_reply", same_as_reply),
	STR("failed_which", failed_which),
	SIDE("kernel_base", JOB_SIDE_BASE, kernel),
	SIDE("release_base", JOB_SIDE_BASE, release),
	SIDE("config_base", JOB_SIDE_BASE, config),
	SIDE("digest_base", JOB_SIDE_BASE, digest),
	SIDE("kernel_head", JOB_SIDE_HEAD, kernel),
	SIDE("release_head", JOB_SIDE_HEAD, release),
	SIDE("config_head", JOB_SIDE_HEAD, config),
	SIDE("digest_head", JOB_SIDE_HEAD, digest),
	INT("runs_done", runs_done),
	INT("runs_fixed", runs_fixed),
	INT("seed", seed),
	INT("confirmed", confirmed),
	INT("bisect_lo", bisect_lo),
	INT("bisect_hi", bisect_hi),
	INT("aligned", aligned),
	{ "outcome", F_OUTCOME, offsetof(struct job_state, outcome) },
	STR("mail", mail),
	STR("mail_why", mail_why),
	STR("reply_msgid", reply_msgid),
	STR("outbox", outbox),
};

static char **str_at(struct job_state *js, const struct field *f)
{
	return (char **)((char *)js + f->off);
}

static int *int_at(struct job_state *js, const struct field *f)
{
	return (int *)((char *)js + f->off);
}

void job_state_init(struct job_state *js)
{
	memset(js, 0, sizeof(*js));
	js->stage = JOB_FETCH;
}

int job_state_identical(const struct job_state *js)
{
	const char *a = js->side[JOB_SIDE_BASE].digest;
	const char *b = js->side[JOB_SIDE_HEAD].digest;

	return a && b && !strcmp(a, b);
}

void job_state_release(struct job_state *js)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].type == F_STR)
			free(*str_at(js, &fields[i]));
	job_state_init(js);
}

void job_state_set(char **field, const char *val)
{
	char *p;

	free(*field);
	*field = NULL;
	if (!val || !*val)
		return;
	*field = xstrdup(val);
	for (p = *field; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

/* Digits only, at most INT_MAX: "3x", "", "+3", "-1" are refused. */
static int parse_count(const char *s, int *out)
{
	long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -1;
	}
	*out = (int)v;
	return 0;
}

static const struct field *field_by_key(const char *key, size_t n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (strlen(fields[i].key) == n &&
		    !memcmp(fields[i].key, key, n))
			return &fields[i];
	return NULL;
}

static int set_field(struct job_state *js, const struct field *f,
		     const char *val)
{
	int v;

	switch (f->type) {
	case F_STAGE:
		v = job_stage_from_name(val);
		if (v < 0)
			return -1;
		js->stage = v;
		return 0;
	case F_OUTCOME:
		v = job_outcome_from_name(val);
		if (v < 0)
			return -1;
		js->outcome = v;
		return 0;
	case F_INT:
		return parse_count(val, int_at(js, f));
	case F_STR:
		job_state_set(str_at(js, f), val);
		return 0;
	}
	return -1;
}

int job_state_read(struct job_state *js, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int line = 0, have_stage = 0, ret = -1;

	if (strbuf_read_file(&sb, path) < 0) {
		if (errno == ENOENT) {
			strbuf_release(&sb);
			return 1;
		}
		error("cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	for (p = sb.buf; *p;) {
		size_t n = strcspn(p, "\n");
		const char *eq = memchr(p, '=', n);
		const struct field *f;
		char *val;

		line++;
		if (!n || *p == '#')
			goto next;
		if (!eq) {
			error("%s:%d: not a key=value line", path, line);
			goto out;
		}
		f = field_by_key(p, eq - p);
		if (!f) {
			error("%s:%d: unknown key '%.*s' (from a newer sched-bot?)",
			      path, line, (int)(eq - p), p);
			goto out;
		}
		val = xstrndup(eq + 1, p + n - eq - 1);
		if (set_field(js, f, val) < 0) {
			error("%s:%d: %s: '%s' is not %s", path, line, f->key,
			      val, f->type == F_STAGE ? "a stage" :
			      f->type == F_OUTCOME ? "an outcome" :
			      "a number");
			free(val);
			goto out;
		}
		free(val);
		if (f->type == F_STAGE)
			have_stage = 1;
next:
		p += n + (p[n] == '\n');
	}
	if (!have_stage) {
		error("%s: no stage", path);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

void job_state_format(const struct job_state *js, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const struct field *f = &fields[i];
		const void *at = (const char *)js + f->off;
		const char *s;

		switch (f->type) {
		case F_STAGE:
			strbuf_addf(out, "%s=%s\n", f->key,
				    job_stage_name(js->stage));
			break;
		case F_OUTCOME:
			if (js->outcome)
				strbuf_addf(out, "%s=%s\n", f->key,
					    job_outcome_name(js->outcome));
			break;
		case F_INT:
			if (*(const int *)at)
				strbuf_addf(out, "%s=%d\n", f->key,
					    *(const int *)at);
			break;
		case F_STR:
			s = *(char *const *)at;
			if (s && *s)
				strbuf_addf(out, "%s=%s\n", f->key, s);
			break;
		}
	}
}

int job_state_write(const struct job_state *js, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	job_state_format(js, &sb);
	ret = secret_write_file(path, sb.buf, sb.len);
	if (ret < 0)
		error("cannot write %s: %s", path, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/*
 * Who holds the lock on fd's file: the kernel's word in /proc/locks
 * (whoever took it, sched-bot or flock(1)), else the pid its holder
 * wrote into it; 0 when neither tells.
 */
static long lock_holder(int fd)
{
	struct stat st;
	char line[256], buf[32], *end;
	long pid = 0;
	ssize_t n;
	FILE *f;

	f = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
	if (f) {
		/* "1: FLOCK  ADVISORY  WRITE 1241 fe:00:10953073 0 EOF" */
		while (!pid && fgets(line, sizeof(line), f)) {
			unsigned int maj, min;
			unsigned long long ino;
			char type[16];
			long p;

			if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu",
				   type, &p, &maj, &min, &ino) == 5 &&
			    !strcmp(type, "FLOCK") && p > 0 &&
			    maj == major(st.st_dev) &&
			    min == minor(st.st_dev) && ino == st.st_ino)
				pid = p;
		}
		fclose(f);
	}
	if (pid)
		return pid;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || pid <= 0)
		return 0;
	return pid;
}

int job_state_lock(const char *dir)
{
	char *path = xasprintf("%s/lock", dir);
	char pid[32];
	int fd, n;
	long holder;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot open the lock %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		holder = lock_holder(fd);
		if (err != EWOULDBLOCK)
			error("cannot lock %s: %s", path, strerror(err));
		else if (holder)
			error("job %s is in use by process %ld (it holds %s); "
			      "wait for it to end", dir, holder, path);
		else
			error("job %s is in use by another process (it holds %s); wait for it to end",
			      dir, path);
		close(fd);
		free(path);
		return -1;
	}
	/* for the message above, in the next process; the lock is flock's */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, n, 0) != n)
		warning("cannot write the pid into %s: %s", path,
			strerror(errno));
	free(path);
	return fd;
}

void job_state_unlock(int fd)
{
	if (fd < 0)
		return;
	/* no stale pid for the fallback of lock_holder() */
	if (ftruncate(fd, 0) < 0)
		debug("cannot empty the job lock: %s", strerror(errno));
	close(fd);
}
