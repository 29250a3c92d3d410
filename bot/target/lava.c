// SPDX-License-Identifier: GPL-2.0
/*
 * target/lava.c - boot on a LAVA device (see lava.h).
 *
 * LAVA is the lab scheduler: it owns the devices, their health and the
 * queue.  sched-bot only submits a job per boot, follows its log and
 * maps LAVA's verdict onto its own: a kernel that panics, hangs or
 * garbles the console is the kernel's fault, whatever LAVA's health
 * says; a job LAVA ends with an Infrastructure error, or cancels, is
 * the lab's and is retried a bounded number of times, never reported
 * against the kernel.  A bad token is a configuration error: no retry.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <json-c/json.h>

#include "kv.h"
#include "templates.h"
#include "target/common.h"
#include "target/initramfs.h"
#include "target/lava.h"

struct lava {
	const char *name;	/* the target's name */
	char *url;		/* base URL, no trailing slash, no userinfo */
	char *auth;		/* "Authorization: Token ..." */
	CURL *curl;
};

/* ---- the log ---- */

static void lava_log_entry(struct lava_log *log, json_object *o)
{
	json_object *lvl, *msg;
	const char *l;

	if (!json_object_object_get_ex(o, "lvl", &lvl) ||
	    !json_object_object_get_ex(o, "msg", &msg))
		return;
	l = json_object_get_string(lvl);
	if (!strcmp(l, "target")) {
		const char *m = json_object_get_string(msg);
		size_t n = m ? strlen(m) : 0;

		/* the job's whole console, over every read, is bounded */
		log->seen += n + 1;
		if (log->max && log->seen > log->max)
			log->cut = 1;
		if (log->cut)
			return;
		if (n > CONSOLE_LINE_MAX)
			n = CONSOLE_LINE_MAX;
		strbuf_add(&log->console, m ? m : "", n);
		strbuf_addch(&log->console, '\n');
	} else if (!strcmp(l, "results") &&
		   json_object_get_type(msg) == json_type_object) {
		json_object *et, *em;

		/* {"definition": "lava", "case": "job", "result": "fail",
		 *  "error_type": "Infrastructure", "error_msg": "..."}
		 */
		if (json_object_object_get_ex(msg, "error_type", &et) &&
		    !log->error_type) {
			log->error_type = xstrdup(json_object_get_string(et));
			if (json_object_object_get_ex(msg, "error_msg", &em))
				log->error_msg =
					xstrdup(json_object_get_string(em));
		}
	}
}

size_t lava_log_feed(struct lava_log *log, const char *body, size_t len)
{
	const char *p = body, *end = body + len, *nl;
	size_t n = 0;

	while (p < end && (nl = memchr(p, '\n', end - p))) {
		if (nl - p > LAVA_ENTRY_MAX && p[0] == '-') {
			/* no console line is that long: not parsed */
			log->long_entries++;
			log->seen += nl - p;
			if (log->max && log->seen > log->max)
				log->cut = 1;
			n++;
		} else if (nl - p >= 2 && p[0] == '-' && p[1] == ' ') {
			json_tokener *tok = json_tokener_new();
			json_object *o;

			o = json_tokener_parse_ex(tok, p + 2, (int)(nl - p - 2));
			if (o && json_object_get_type(o) == json_type_object)
				lava_log_entry(log, o);
			json_object_put(o);
			json_tokener_free(tok);
			n++;
		}
		p = nl + 1;
	}
	log->lines += n;
	return n;
}

void lava_log_release(struct lava_log *log)
{
	struct strbuf empty = STRBUF_INIT;

	strbuf_release(&log->console);
	free(log->error_type);
	free(log->error_msg);
	memset(log, 0, sizeof(*log));
	log->console = empty;
}

/* ---- HTTP ---- */

/*
 * What LAVA may answer to one request: a job's state and the device list
 * are kilobytes; a log is read in chunks of at most LAVA_LOG_CHUNK.
 */
#define LAVA_BODY_MAX (16u << 20)
#define LAVA_LOG_CHUNK (4u << 20)

/*
 * GET (form NULL) or POST the job definition to path; the answer's
 * body in out, at most max bytes of it.  Returns the HTTP status, or -1
 * when LAVA could not be reached (printed).  With too_big, an answer
 * longer than max is no error: out holds its head, *too_big is set.
 */
static long lava_http_max(struct lava *l, const char *path, const char *form,
			  struct strbuf *out, size_t max, int *too_big)
{
	struct curl_slist *hdr = curl_slist_append(NULL, l->auth);
	curl_mime *mime = NULL;
	char *url = xasprintf("%s/api/v0.2/%s", l->url, path);
	struct capped_body body = { .sb = out, .max = max };
	long code = -1;
	CURLcode rc;

	strbuf_reset(out);
	curl_easy_reset(l->curl);
	curl_easy_setopt(l->curl, CURLOPT_URL, url);
	curl_easy_setopt(l->curl, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(l->curl, CURLOPT_WRITEFUNCTION, capped_body_write);
	curl_easy_setopt(l->curl, CURLOPT_WRITEDATA, &body);
	curl_easy_setopt(l->curl, CURLOPT_TIMEOUT,
			 target_cfg_int(l->name, "httpTimeout", 30));
	curl_easy_setopt(l->curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(l->curl, CURLOPT_NOSIGNAL, 1L);
	/* The token goes to this server only, never along a redirect. */
	curl_easy_setopt(l->curl, CURLOPT_FOLLOWLOCATION, 0L);
	if (form) {
		curl_mimepart *part;

		mime = curl_mime_init(l->curl);
		part = curl_mime_addpart(mime);
		curl_mime_name(part, "definition");
		curl_mime_data(part, form, CURL_ZERO_TERMINATED);
		curl_easy_setopt(l->curl, CURLOPT_MIMEPOST, mime);
	}
	rc = curl_easy_perform(l->curl);
	if (too_big)
		*too_big = body.too_big;
	if (rc == CURLE_OK || (too_big && body.too_big))
		curl_easy_getinfo(l->curl, CURLINFO_RESPONSE_CODE, &code);
	else
		error("lava: %s/api/v0.2/%s: %s", l->url, path,
		      curl_easy_strerror(rc));
	curl_mime_free(mime);
	curl_slist_free_all(hdr);
	free(url);
	return code;
}

static long lava_http(struct lava *l, const char *path, const char *form,
		      struct strbuf *out)
{
	return lava_http_max(l, path, form, out, LAVA_BODY_MAX, NULL);
}

/* A string member of a JSON object text, or NULL; caller frees. */
static char *json_member(const char *text, const char *key)
{
	json_object *o = json_tokener_parse(text), *v;
	char *ret = NULL;

	if (o && json_object_object_get_ex(o, key, &v) &&
	    json_object_get_type(v) != json_type_null)
		ret = xstrdup(json_object_get_string(v));
	json_object_put(o);
	return ret;
}

static int lava_open(struct lava *l, const char *name)
{
	const char *url = target_cfg(name, "url", NULL);
	const char *tf = target_cfg(name, "tokenFile", NULL);
	struct strbuf tok = STRBUF_INIT;
	char *at, *host;
	size_t n;

	memset(l, 0, sizeof(*l));
	l->name = name;
	if (!url || !*url)
		return error("target %s: set target.%s.url to the LAVA server",
			     name, name);
	if (!tf || !*tf)
		return error("target %s: set target.%s.tokenFile to a file holding the LAVA API token",
			     name, name);
	if (strbuf_read_file(&tok, tf) < 0) {
		error("target %s: cannot read token file %s: %s", name, tf,
		      strerror(errno));
		strbuf_release(&tok);
		return -1;
	}
	strbuf_trim(&tok);
	if (!tok.len || strpbrk(tok.buf, "\r\n")) {
		strbuf_release(&tok);
		return error("target %s: %s holds no token", name, tf);
	}
	l->auth = xasprintf("Authorization: Token %s", tok.buf);
	strbuf_release(&tok);
	/* Userinfo in the URL would end up in messages: drop it. */
	l->url = xstrdup(url);
	host = strstr(l->url, "://");
	if (host) {
		host += 3;
		at = strchr(host, '@');
		if (at && at < host + strcspn(host, "/"))
			memmove(host, at + 1, strlen(at + 1) + 1);
	}
	n = strlen(l->url);
	while (n && l->url[n - 1] == '/')
		l->url[--n] = 0;
	l->curl = curl_easy_init();
	if (!l->curl)
		return error("lava: cannot start libcurl");
	return 0;
}

static void lava_close(struct lava *l)
{
	if (l->curl)
		curl_easy_cleanup(l->curl);
	if (l->auth) {
		/* the token does not outlive its use in memory either */
		memset(l->auth, 0, strlen(l->auth));
		free(l->auth);
	}
	free(l->url);
}

/* ---- stopping ---- */

static volatile sig_atomic_t lava_stop_signal;

static void lava_on_signal(int sig)
{
	lava_stop_signal = sig;
}

/* ---- one job ---- */

enum lava_outcome {
	LAVA_DONE,		/* the job finished: look at the console */
	LAVA_INFRA,		/* the lab's failure: retry */
	LAVA_SETUP,		/* refused or unreachable: no retry */
	LAVA_STOPPED,		/* our timeout or a signal: cancelled */
	LAVA_CUT,		/* its console passed maxConsole: cancelled */
};

struct lava_job {
	long id;
	char *device;		/* actual_device */
	char *health;		/* Complete, Incomplete, Canceled */
	char *why;		/* for LAVA_INFRA / LAVA_SETUP */
	struct lava_log log;
	int console_fd;
};

static void lava_job_release(struct lava_job *j)
{
	free(j->device);
	free(j->health);
	free(j->why);
	lava_log_release(&j->log);
	memset(j, 0, sizeof(*j));
	lava_log_release(&j->log);	/* an empty, usable log again */
	j->console_fd = -1;
}

static long lava_submit(struct lava *l, const char *definition,
			struct lava_job *j)
{
	struct strbuf out = STRBUF_INIT;
	long code = lava_http(l, "jobs/", definition, &out);
	json_object *o = NULL, *ids, *id;

	if (code == 201) {
		o = json_tokener_parse(out.buf);
		id = NULL;
		if (o && json_object_object_get_ex(o, "job_ids", &ids) &&
		    json_object_get_type(ids) == json_type_array)
			id = json_object_array_get_idx(ids, 0);
		if (id)
			j->id = json_object_get_int64(id);
		json_object_put(o);
		if (j->id <= 0)
			j->why = xstrdup("LAVA accepted the job but named no job id");
	} else if (code == 401 || code == 403) {
		char *d = json_member(out.buf, "detail");

		j->why = xasprintf("LAVA at %s refused the token in target.%s.tokenFile (HTTP %ld: %s)",
				   l->url, l->name, code,
				   d ? d : "no detail");
		free(d);
	} else if (code > 0) {
		char *m = json_member(out.buf, "message");

		if (!m)
			m = xstrndup(out.buf, out.len > 300 ? 300 : out.len);
		j->why = xasprintf("LAVA refused the job definition (HTTP %ld): %s",
				   code, m);
		free(m);
	} else {
		j->why = xasprintf("LAVA at %s cannot be reached", l->url);
	}
	strbuf_release(&out);
	return j->id > 0 ? 0 : -1;
}

static void lava_cancel(struct lava *l, long id)
{
	struct strbuf out = STRBUF_INIT;
	char *path = xasprintf("jobs/%ld/cancel/", id);

	/* 2023.01 answers POST with 405; GET cancels. */
	if (lava_http(l, path, NULL, &out) / 100 != 2)
		warning("lava: could not cancel job %ld", id);
	free(path);
	strbuf_release(&out);
}

/* Read the log from where we left it; the console lines to the file. */
static void lava_read_log(struct lava *l, struct lava_job *j)
{
	struct strbuf out = STRBUF_INIT;
	char *path = xasprintf("jobs/%ld/logs/?start=%zu", j->id,
			       j->log.lines);
	size_t before = j->log.console.len;
	int big = 0;

	/* 404 while the worker has uploaded nothing yet; a chunk at a time,
	 * the next read goes on from the last whole line of this one
	 */
	if (lava_http_max(l, path, NULL, &out, LAVA_LOG_CHUNK, &big) == 200) {
		if (!lava_log_feed(&j->log, out.buf, out.len) && big) {
			/* one entry longer than a chunk: skipped, counted */
			j->log.lines++;
			j->log.long_entries++;
			j->log.seen += out.len;
			if (j->log.max && j->log.seen > j->log.max)
				j->log.cut = 1;
		}
		if (j->console_fd >= 0 && j->log.console.len > before &&
		    write(j->console_fd, j->log.console.buf + before,
			  j->log.console.len - before) < 0)
			warning("lava: console log: %s", strerror(errno));
	}
	free(path);
	strbuf_release(&out);
}

static enum lava_outcome lava_follow(struct lava *l, struct lava_job *j,
				     double timeout)
{
	struct strbuf out = STRBUF_INIT;
	char *path = xasprintf("jobs/%ld/", j->id);
	double start = now_monotonic();
	long poll_ms = target_cfg_int(l->name, "pollInterval", 1000);
	enum lava_outcome ret = LAVA_DONE;
	int unreachable = 0;

	for (;;) {
		struct timespec ts = { poll_ms / 1000,
				       (poll_ms % 1000) * 1000000L };
		char *state = NULL;
		long code = lava_http(l, path, NULL, &out);

		if (code == 200) {
			unreachable = 0;
			state = json_member(out.buf, "state");
			free(j->device);
			j->device = json_member(out.buf, "actual_device");
			free(j->health);
			j->health = json_member(out.buf, "health");
		} else if (++unreachable > 30) {
			j->why = xasprintf("LAVA stopped answering about job %ld",
					   j->id);
			ret = LAVA_INFRA;
			break;
		}
		lava_read_log(l, j);
		/* a flood is not followed to its end */
		if (j->log.cut) {
			if (!state || strcmp(state, "Finished"))
				lava_cancel(l, j->id);
			free(state);
			ret = LAVA_CUT;
			break;
		}
		if (state && !strcmp(state, "Finished")) {
			free(state);
			/* the worker's last upload may trail the state */
			lava_read_log(l, j);
			break;
		}
		free(state);
		if (lava_stop_signal) {
			lava_cancel(l, j->id);
			j->why = xasprintf("stopped by signal %d; LAVA job %ld cancelled",
					   (int)lava_stop_signal,
					   j->id);
			ret = LAVA_STOPPED;
			break;
		}
		if (now_monotonic() - start > timeout) {
			lava_cancel(l, j->id);
			j->why = xasprintf("LAVA job %ld did not finish in %.0f s; cancelled",
					   j->id, timeout);
			ret = LAVA_STOPPED;
			break;
		}
		nanosleep(&ts, NULL);
	}
	free(path);
	strbuf_release(&out);
	if (ret != LAVA_DONE)
		return ret;
	if (j->log.cut)
		return LAVA_CUT;
	if (j->health && !strcmp(j->health, "Complete"))
		return LAVA_DONE;
	if (j->health && !strcmp(j->health, "Canceled")) {
		j->why = xasprintf("LAVA cancelled job %ld", j->id);
		return LAVA_INFRA;
	}
	if (j->log.error_type && strcmp(j->log.error_type, "Infrastructure")) {
		/* a Job or Test error: the definition or the kernel */
		return LAVA_DONE;
	}
	j->why = xasprintf("LAVA job %ld ended %s: %s%s%s", j->id,
			   j->health ? j->health : "without health",
			   j->log.error_type ? j->log.error_type : "unknown",
			   j->log.error_msg ? ", " : "",
			   j->log.error_msg ? j->log.error_msg : "");
	return LAVA_INFRA;
}

/* ---- the definition ---- */

/* Where the worker fetches a file: file:// here, or under artifactUrl. */
static char *lava_publish(const char *name, const char *file,
			  const char *tag, const char *base)
{
	const char *url = target_cfg(name, "artifactUrl", NULL);
	const char *dir = target_cfg(name, "artifactDir", NULL);
	char real[PATH_MAX], *dst, *sub;
	struct strbuf sb = STRBUF_INIT;

	if (!url || !*url) {
		if (!realpath(file, real)) {
			error("lava: %s: %s", file, strerror(errno));
			return NULL;
		}
		return xasprintf("file://%s", real);
	}
	if (!dir || !*dir) {
		error("target %s: artifactUrl needs artifactDir, the directory it serves",
		      name);
		return NULL;
	}
	sub = xasprintf("%s/%s", dir, tag);
	dst = xasprintf("%s/%s", sub, base);
	if (mkdir_p(sub, 0755) < 0 || strbuf_read_file(&sb, file) < 0 ||
	    write_file_atomic(dst, sb.buf, sb.len) < 0) {
		error("lava: cannot publish %s in %s: %s", file, sub,
		      strerror(errno));
		free(sub);
		free(dst);
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_release(&sb);
	free(sub);
	free(dst);
	return xasprintf("%s/%s/%s", url, tag, base);
}

/* A device a previous boot of this process ran on: A and B meet it. */
static char *lava_pinned;

static int lava_definition(const char *name, const struct boot_req *req,
			   const struct target_words *args,
			   const char *kernel_url, const char *initrd_url,
			   double timeout, struct strbuf *out)
{
	const char *type = target_cfg(name, "deviceType", "qemu");
	const char *file = target_cfg(name, "jobTemplate", NULL);
	const char *device = target_cfg(name, "device", NULL);
	const char *tags = target_cfg(name, "tags", NULL);
	struct strbuf tmpl = STRBUF_INIT, append = STRBUF_INIT;
	struct strbuf tagl = STRBUF_INIT;
	struct kv v = KV_INIT;
	char *path, *t, *tok, *save;
	size_t i;
	int ret;

	if (file && *file) {
		path = xstrdup(file);
	} else {
		char *rel = xasprintf("lava/%s.yaml", type);

		path = tmpl_path(rel, NULL);
		free(rel);
		if (!path)
			return -1;
	}
	if (strbuf_read_file(&tmpl, path) < 0) {
		ret = error("lava: cannot read job template %s: %s", path,
			    strerror(errno));
		free(path);
		strbuf_release(&tmpl);
		return ret;
	}
	free(path);
	strbuf_addstr(&append, "console=ttyS0,115200 panic=-1");
	for (i = 0; i < args->nr; i++)
		strbuf_addf(&append, " %s", args->v[i]);
	if (*target_cfg(name, "append", ""))
		strbuf_addf(&append, " %s", target_cfg(name, "append", ""));
	if (req->append && *req->append)
		strbuf_addf(&append, " %s", req->append);
	if (!device || !*device)
		device = lava_pinned;
	/* No per-job device request in LAVA 2023.01: the lab tags each
	 * device with its own name, and asking for that tag pins it.
	 */
	t = xasprintf("%s,%s", tags ? tags : "", device ? device : "");
	for (tok = strtok_r(t, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save))
		strbuf_addf(&tagl, "%s'%s'", tagl.len ? ", " : "", tok);
	free(t);
	kv_set(&v, "device_type", type);
	kv_set(&v, "tags", tagl.buf);
	kv_setf(&v, "job_name", "sched-bot %s %s", name,
		req->label ? req->label : "boot");
	kv_set(&v, "kernel_url", kernel_url);
	kv_set(&v, "initrd_url", initrd_url);
	kv_set(&v, "append", append.buf);
	kv_setf(&v, "timeout_minutes", "%ld", (long)(timeout / 60) + 1);
	kv_set(&v, "priority", target_cfg(name, "priority", "medium"));
	kv_setf(&v, "smp", "%ld", target_cfg_int(name, "smp", 2));
	kv_setf(&v, "mem", "%ld", target_cfg_int(name, "mem", 1024));
	/* after init's END frame: LAVA keeps the matched line to itself */
	kv_set(&v, "prompt", "reboot: Power down");
	ret = tmpl_expand_kv(tmpl.buf, &v, NULL, out);
	kv_release(&v);
	strbuf_release(&tmpl);
	strbuf_release(&append);
	strbuf_release(&tagl);
	return ret;
}

enum lava_verdict {
	LAVA_KERNEL,		/* the console says what the kernel did */
	LAVA_RETRY,		/* the lab failed: try again */
	LAVA_REJECTED,		/* LAVA refused the job itself: no retry */
};

/*
 * Whose failure is it?  A console with a whole transcript, or one that
 * shows the kernel running and then failing (panic, no init, bad
 * frames, a workload failing), is the kernel's whatever LAVA says.  A
 * console that merely stops is the lab's when LAVA calls it an
 * Infrastructure error (a lost worker), and so is a job that never got
 * as far as the kernel.  A Job or Configuration error before the
 * kernel ran is the definition's: retrying cannot help.
 */
static enum lava_verdict lava_judge(enum lava_outcome o,
				    const struct lava_job *j)
{
	const char *con = j->log.console.buf;
	enum console_status s = console_parse_status(con,
						     j->log.console.len);
	int kernel_ran = strstr(con, "Linux version") ||
			 strstr(con, CONSOLE_PREFIX "BEGIN");

	if (o == LAVA_DONE && !j->log.error_type)
		return LAVA_KERNEL;
	if (s == CONSOLE_OK)
		return LAVA_KERNEL;
	if (kernel_ran && s != CONSOLE_TRUNCATED)
		return LAVA_KERNEL;
	if (o == LAVA_DONE && !kernel_ran)
		return LAVA_REJECTED;
	return LAVA_RETRY;
}

/*
 * Seconds a job may take, unless the target sets its own: a lab queues,
 * so room for waiting as well as for every run of every workload.
 */
static double lava_timeout(const char *name, const struct boot_req *req)
{
	/* each cell and sweep point of a plan is a run */
	int nr_w = target_req_runs(req);

	return target_cfg_int(name, "timeout",
			  600 + nr_w * (req->runs > 0 ? req->runs : 1) *
			  ((req->seconds > 0 ? req->seconds : 5) * 3 + 10));
}

/*
 * Submits one job and follows it to its end, its console into
 * res->console; res names the job and its device.  -1 (said) when the
 * lab did not take it.
 */
static int lava_try(struct lava *l, struct lava_job *j, const char *def,
		    double timeout, struct boot_res *res,
		    enum lava_outcome *o)
{
	j->log.max = target_console_max(l->name);
	if (lava_submit(l, def, j) < 0) {
		error("%s", j->why);
		return -1;
	}
	info("lava: job %ld submitted (%s/scheduler/job/%ld)", j->id,
	     l->url, j->id);
	j->console_fd = open(res->console, O_WRONLY | O_CREAT |
			     O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	*o = lava_follow(l, j, timeout);
	if (j->log.long_entries)
		warning("lava: job %ld: %zu log entries over %d KB were not read",
			j->id, j->log.long_entries, LAVA_ENTRY_MAX >> 10);
	if (j->console_fd >= 0)
		close(j->console_fd);
	j->console_fd = -1;
	free(res->lava_job);
	res->lava_job = xasprintf("%s/scheduler/job/%ld", l->url, j->id);
	free(res->device);
	res->device = j->device ? xstrdup(j->device) : NULL;
	return 0;
}

/*
 * What a job that ended with o means for the boot: 1 with *ret when
 * that is the answer, 0 when the lab failed it and a try may do better.
 */
static int lava_settle(const struct target_ctx *ctx,
		       const struct boot_req *req, const struct lava_job *j,
		       enum lava_outcome o, struct boot_res *res, int *ret)
{
	enum lava_verdict v;

	if (o == LAVA_CUT) {
		int fd = open(res->console, O_WRONLY | O_APPEND | O_NOFOLLOW |
			      O_CLOEXEC);

		/* the kernel's flood, as far as it was kept */
		*ret = target_finish(ctx, req, j->log.console.buf,
				     j->log.console.len, 0, res);
		target_console_cut(ctx->name, res, fd);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (o == LAVA_STOPPED) {
		res->status = CONSOLE_TIMEOUT;
		res->reason = xstrdup(j->why);
		if (lava_stop_signal) {
			error("%s", j->why);
			*ret = -1;
		} else {
			/* the console tells whether the kernel hung or
			 * the lab never ran it
			 */
			*ret = target_finish(ctx, req, j->log.console.buf,
					     j->log.console.len, 1, res);
			if (!j->log.console.len) {
				res->status = CONSOLE_INFRA;
				free(res->reason);
				res->reason = xstrdup(j->why);
			}
		}
		return 1;
	}
	v = lava_judge(o, j);
	if (v == LAVA_KERNEL) {
		*ret = target_finish(ctx, req, j->log.console.buf,
				     j->log.console.len, 0, res);
		if (!lava_pinned && j->device)
			lava_pinned = xstrdup(j->device);
		return 1;
	}
	if (v == LAVA_REJECTED) {
		error("LAVA rejected the job (%s): %s",
		      j->log.error_type, j->log.error_msg ?
		      j->log.error_msg : "no reason given");
		*ret = -1;
		return 1;
	}
	return 0;
}

static int lava_boot_run(const struct target_ctx *ctx,
			 const struct boot_req *req, struct boot_res *res)
{
	const char *name = ctx->name;
	struct target_guest g = { 0 };
	struct strbuf def = STRBUF_INIT;
	struct sigaction sa = { .sa_handler = lava_on_signal }, old_int,
			 old_term;
	char *tag = NULL, *kurl = NULL, *iurl = NULL, *machine;
	struct lava_job j = { .log = { .console = STRBUF_INIT }, .console_fd = -1 };
	struct lava l;
	long tries = target_cfg_int(name, "retries", 2) + 1, try;
	double start = now_monotonic(), timeout;
	int ret = -1;

	if (target_need_kernel(ctx, req) < 0)
		return -1;
	if (lava_open(&l, name) < 0) {
		lava_close(&l);
		return -1;
	}
	timeout = lava_timeout(name, req);
	ret = target_guest_prepare(ctx, req, &g, res);
	if (ret)
		goto out;
	ret = -1;
	tag = xasprintf("%ld-%d", (long)time(NULL), (int)getpid());
	kurl = lava_publish(name, req->kernel, tag, "bzImage");
	iurl = kurl ? lava_publish(name, g.initrd, tag, "initramfs.cpio.gz") :
		      NULL;
	if (!iurl)
		goto out;
	res->console = xasprintf("%s/console.log", g.dir);
	lava_stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (try = 1; try <= tries; try++) {
		enum lava_outcome o;

		lava_job_release(&j);
		strbuf_reset(&def);
		if (lava_definition(name, req, &g.args, kurl, iurl, timeout,
				    &def) < 0)
			break;
		if (lava_try(&l, &j, def.buf, timeout, res, &o) < 0)
			break;
		if (lava_settle(ctx, req, &j, o, res, &ret))
			break;
		warning("lava: %s (try %ld of %ld)", j.why, try, tries);
		if (try == tries) {
			res->status = CONSOLE_INFRA;
			free(res->reason);
			res->reason = xasprintf("%s; gave up after %ld tries",
						j.why, tries);
			ret = 1;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	res->seconds = now_monotonic() - start;
	if (!ret) {
		/* the device the job ran on, else the target */
		machine = xasprintf("lava-%s", res->device ? res->device :
				    name);
		target_set_machine(res, machine);
		free(machine);
	}
out:
	lava_job_release(&j);
	lava_close(&l);
	strbuf_release(&def);
	target_guest_release(ctx, &g);
	free(tag);
	free(kurl);
	free(iurl);
	return ret;
}

/*
 * A lab's board boots the kernel on its hardware; a device of type qemu
 * is a guest, which vouches only when the operator declares it.
 */
static int lava_vouches(const char *name)
{
	return strcmp(target_cfg(name, "deviceType", "qemu"), "qemu") != 0;
}

const struct target_ops target_lava_ops = {
	.type = "lava",
	.describe = "a device of a LAVA lab, booted through its REST API",
	.traits = TARGET_GUEST | TARGET_LAB,
	.boot_run = lava_boot_run,
	.status = target_lava_status,
	.vouches = lava_vouches,
	/* a board boots sched-bot's initramfs */
	.own_fragments = "machine.config initramfs.config",
};

/* ---- status ---- */

int target_lava_status(const char *name, FILE *f)
{
	struct strbuf out = STRBUF_INIT;
	json_object *o = NULL, *results, *cnt;
	struct lava l;
	long code, queued = -1;
	size_t i;
	int ret = -1;

	if (lava_open(&l, name) < 0)
		goto out;
	code = lava_http(&l, "jobs/?state=Submitted&limit=1", NULL, &out);
	if (code == 200)
		o = json_tokener_parse(out.buf);
	if (o && json_object_object_get_ex(o, "count", &cnt))
		queued = json_object_get_int64(cnt);
	json_object_put(o);
	o = NULL;
	code = lava_http(&l, "devices/?limit=200", NULL, &out);
	if (code != 200) {
		error("lava: %s answered %ld for the device list", l.url,
		      code);
		goto out;
	}
	o = json_tokener_parse(out.buf);
	if (!o || !json_object_object_get_ex(o, "results", &results) ||
	    json_object_get_type(results) != json_type_array) {
		error("lava: the device list is not what LAVA sends");
		goto out;
	}
	fprintf(f, "%s: %s, %zu devices, %ld jobs queued\n", name, l.url,
		json_object_array_length(results), queued);
	for (i = 0; i < json_object_array_length(results); i++) {
		json_object *d = json_object_array_get_idx(results, i), *v;
		static const char *const k[] = { "hostname", "device_type",
						 "state", "health", "worker_host" };
		size_t n;

		fputs(" ", f);
		for (n = 0; n < ARRAY_SIZE(k); n++)
			fprintf(f, " %-12s",
				json_object_object_get_ex(d, k[n], &v) ?
				json_object_get_string(v) : "-");
		fputc('\n', f);
	}
	ret = 0;
out:
	json_object_put(o);
	strbuf_release(&out);
	lava_close(&l);
	return ret;
}
