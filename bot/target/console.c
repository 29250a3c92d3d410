// SPDX-License-Identifier: GPL-2.0
/*
 * console.c - the framed console protocol of bot/workloads/init.c, read
 * back on the host.  Everything that is not a valid frame is counted,
 * kept in the tail for the report, and never turned into a number.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "target/console.h"
#include "procstat.h"
#include "run.h"

static const char *const status_names[] = {
	[CONSOLE_OK] = "ok",
	[CONSOLE_NO_INIT] = "no-init",
	[CONSOLE_PANIC] = "panic",
	[CONSOLE_TIMEOUT] = "timeout",
	[CONSOLE_TRUNCATED] = "truncated",
	[CONSOLE_CORRUPT] = "corrupt",
	[CONSOLE_FAILED] = "failed",
	[CONSOLE_ERROR] = "error",
	[CONSOLE_INFRA] = "infrastructure",
};

const char *console_status_name(enum console_status s)
{
	if ((size_t)s < ARRAY_SIZE(status_names) && status_names[s])
		return status_names[s];
	return "unknown";
}

void console_tail(const char *buf, size_t len, int n, struct strbuf *out)
{
	size_t i = len, col;
	int lines = 0;

	/* Ignore the final newline, then walk back n line starts. */
	if (i && buf[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (buf[i - 1] == '\n' && ++lines >= n)
			break;
		i--;
	}
	/* Console text may hold control bytes: keep it printable. */
	for (col = 0; i < len; i++) {
		unsigned char c = buf[i];

		/* a flood's line is shown no longer than a line can be */
		if (c == '\n')
			col = 0;
		else if (col++ == CONSOLE_LINE_MAX)
			strbuf_addstr(out, "...");
		if (col > CONSOLE_LINE_MAX)
			continue;
		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f))
			strbuf_addch(out, c);
		else if (c != '\r')
			strbuf_addch(out, '?');
	}
	if (out->len && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
}

static void fail(struct console_result *res, enum console_status s,
		 const char *fmt, ...) PRINTF(3, 4);
static void fail(struct console_result *res, enum console_status s,
		 const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	/* The first problem is the one worth reporting. */
	if (res->status != CONSOLE_OK)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	res->status = s;
	res->reason = strbuf_detach(&sb, NULL);
}

static struct console_run *cur_run(struct console_result *res)
{
	if (!res->nr || res->runs[res->nr - 1].rc != -1)
		return NULL;
	return &res->runs[res->nr - 1];
}

static int parse_uint(const char *s, const char **end, unsigned long *v)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoul(s, &e, 10);
	*end = e;
	return 0;
}

/* "PROFILE <workload> <cell> <event> mode=...|error=...": one begins. */
static void profile_frame(struct console_result *res, const char *p,
			  size_t seq)
{
	struct console_profile *pr;
	size_t wn = strcspn(p, " "), en;
	const char *e, *ev;
	unsigned long cell;

	if (!wn || p[wn] != ' ' || parse_uint(p + wn + 1, &e, &cell) < 0 ||
	    *e != ' ' || cell > 1000) {
		fail(res, CONSOLE_CORRUPT, "frame %zu: bad PROFILE", seq);
		return;
	}
	en = strcspn(e + 1, " ");
	if (!en || en > 32 || wn > 64) {
		fail(res, CONSOLE_CORRUPT, "frame %zu: bad PROFILE", seq);
		return;
	}
	/* more than a guest is asked for: not kept */
	if (res->nr_profiles >= CONSOLE_MAX_PROFILES)
		return;
	ev = e + 1;
	ALLOC_GROW(res->profiles, res->nr_profiles, res->alloc_profiles);
	pr = &res->profiles[res->nr_profiles++];
	memset(pr, 0, sizeof(*pr));
	strbuf_init(&pr->self, 0);
	strbuf_init(&pr->children, 0);
	pr->workload = xstrndup(p, wn);
	pr->cell = (int)cell;
	pr->event = xstrndup(ev, en);
	pr->failed = !starts_with(ev + en, " mode=");
}

/* "PROF self|children <line>": kept while under the bounds. */
static void prof_line(struct console_result *res, const char *p, size_t seq)
{
	struct console_profile *pr = res->nr_profiles ?
		&res->profiles[res->nr_profiles - 1] : NULL;
	int self = starts_with(p, "self "), children = starts_with(p, "children ");
	struct strbuf *sb;

	if (!pr || cur_run(res) || (!self && !children)) {
		fail(res, CONSOLE_CORRUPT, "frame %zu: PROF outside a profile",
		     seq);
		return;
	}
	sb = self ? &pr->self : &pr->children;
	p += self ? 5 : 9;
	if (pr->failed || pr->lines >= CONSOLE_PROFILE_LINES ||
	    sb->len + strlen(p) + 1 > CONSOLE_PROFILE_BYTES)
		return;
	strbuf_addstr(sb, p);
	strbuf_addch(sb, '\n');
	pr->lines++;
}

static void payload(struct console_result *res, const char *p, size_t seq)
{
	struct console_run *r = cur_run(res);
	unsigned long v;
	const char *e;

	if (starts_with(p, "INFO ")) {
		ALLOC_GROW(res->info, res->nr_info, res->alloc_info);
		res->info[res->nr_info++] = xstrdup(p + 5);
	} else if (starts_with(p, "RUN ")) {
		const char *w = p + 4, *sp = strchr(w, ' ');

		if (r)
			fail(res, CONSOLE_CORRUPT,
			     "frame %zu: run of %s never ended", seq,
			     r->workload);
		if (!sp || parse_uint(sp + 1, &e, &v) < 0 ||
		    (*e && *e != ' ')) {
			fail(res, CONSOLE_CORRUPT, "frame %zu: bad RUN", seq);
			return;
		}
		ALLOC_GROW(res->runs, res->nr, res->alloc);
		r = &res->runs[res->nr++];
		memset(r, 0, sizeof(*r));
		strbuf_init(&r->out, 0);
		strbuf_init(&r->err, 0);
		strbuf_init(&r->perf, 0);
		r->workload = xstrndup(w, sp - w);
		r->run = (int)v;
		r->args = xstrdup(*e ? e + 1 : "");
		r->rc = -1;
	} else if (starts_with(p, "OUT ") || starts_with(p, "ERR ")) {
		if (!r) {
			fail(res, CONSOLE_CORRUPT,
			     "frame %zu: output outside a run", seq);
			return;
		}
		strbuf_addstr(p[0] == 'O' ? &r->out : &r->err, p + 4);
		strbuf_addch(p[0] == 'O' ? &r->out : &r->err, '\n');
	} else if (starts_with(p, "PERF ")) {
		if (!r) {
			fail(res, CONSOLE_CORRUPT,
			     "frame %zu: perf counts outside a run", seq);
			return;
		}
		strbuf_addstr(&r->perf, p + 5);
		strbuf_addch(&r->perf, '\n');
	} else if (starts_with(p, "PROFILE ")) {
		profile_frame(res, p + 8, seq);
	} else if (starts_with(p, "PROF ")) {
		prof_line(res, p + 5, seq);
	} else if (starts_with(p, "STAT ")) {
		if (!r || r->stat) {
			fail(res, CONSOLE_CORRUPT, "frame %zu: bad STAT", seq);
			return;
		}
		r->stat = xstrdup(p + 5);
	} else if (starts_with(p, "RC ")) {
		if (!r || parse_uint(p + 3, &e, &v) < 0 || *e) {
			fail(res, CONSOLE_CORRUPT, "frame %zu: bad RC", seq);
			return;
		}
		r->rc = (int)v;
		/* env only describes the machine: its failure costs no
		 * numbers.
		 */
		if (v && strcmp(r->workload, "env"))
			fail(res, CONSOLE_FAILED,
			     "%s run %d exited with %lu: %.200s", r->workload,
			     r->run, v, r->err.len ? r->err.buf : "");
	} else {
		fail(res, CONSOLE_CORRUPT, "frame %zu: unknown record '%.40s'",
		     seq, p);
	}
}

/* One "@@SB ..." frame (from the prefix on, without newline). */
static void frame(struct console_result *res, const char *f, size_t len,
		  int *begun, int *ended, size_t *seq)
{
	char *line = xstrndup(f, len);
	const char *p = line + strlen(CONSOLE_PREFIX), *e;
	unsigned long v, crc;
	uLong c;
	char *ce;

	if (starts_with(p, "BEGIN ")) {
		if (*begun)
			fail(res, CONSOLE_CORRUPT, "init started twice");
		*begun = 1;
		goto out;
	}
	if (!*begun) {
		fail(res, CONSOLE_CORRUPT, "frame before BEGIN");
		goto out;
	}
	if (starts_with(p, "END ")) {
		if (parse_uint(p + 4, &e, &v) < 0 || !starts_with(e, " rc=")) {
			fail(res, CONSOLE_CORRUPT, "bad END frame");
			goto out;
		}
		if (v != *seq)
			fail(res, CONSOLE_CORRUPT,
			     "%zu of %lu frames arrived intact", *seq, v);
		res->rc = atoi(e + 4);
		*ended = 1;
		goto out;
	}
	if (parse_uint(p, &e, &v) < 0 || *e != ' ') {
		fail(res, CONSOLE_CORRUPT, "garbled frame '%.60s'", line);
		goto out;
	}
	crc = strtoul(e + 1, &ce, 16);
	/* crc32 covers "<seq> <payload>": the digits, a space, the payload. */
	c = crc32(0, (const unsigned char *)p, e - p + 1);
	if (ce == e + 9 && *ce == ' ')
		c = crc32(c, (const unsigned char *)ce + 1, strlen(ce + 1));
	if (ce != e + 9 || *ce != ' ' || c != crc) {
		fail(res, CONSOLE_CORRUPT,
		     "frame %lu failed its checksum (console interleaving or line noise): '%.60s'",
		     v, line);
		goto out;
	}
	if (v != *seq + 1) {
		fail(res, CONSOLE_CORRUPT, "frame %lu arrived after frame %zu: frames were lost",
		     v, *seq);
		*seq = v;
		goto out;
	}
	*seq = v;
	res->frames++;
	payload(res, ce + 1, v);
out:
	free(line);
}

enum console_status console_parse(const char *buf, size_t len,
				  int timed_out, struct console_result *res)
{
	const char *line = buf, *end = buf + len, *nl, *look, *f;
	int begun = 0, ended = 0, panic = 0;
	size_t seq = 0;
	struct strbuf tail = STRBUF_INIT;

	memset(res, 0, sizeof(*res));
	res->rc = -1;
	while (line < end) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		/* a flood's line is read no further than a line can be */
		look = nl;
		if (nl - line > CONSOLE_LINE_MAX) {
			look = line + CONSOLE_LINE_MAX;
			res->long_lines++;
		}
		f = memmem(line, look - line, CONSOLE_PREFIX,
			   strlen(CONSOLE_PREFIX));
		if (memmem(line, look - line, "Kernel panic", 12))
			panic = 1;
		if (f && !ended) {
			size_t flen = look - f;

			if (flen && f[flen - 1] == '\r')
				flen--;
			if (!begun && !res->begin_offset)
				res->begin_offset = f - buf;
			if (memchr(f, 0, flen))
				fail(res, CONSOLE_CORRUPT, "NUL in a frame");
			else
				frame(res, f, flen, &begun, &ended, &seq);
		} else if (nl > line) {
			res->stray++;
		}
		line = nl + 1;
	}
	console_tail(buf, len, 30, &tail);
	res->last_lines = strbuf_detach(&tail, NULL);
	/* A panic outranks whatever it left half done. */
	if (panic) {
		free(res->reason);
		res->reason = NULL;
		res->status = CONSOLE_OK;
		fail(res, CONSOLE_PANIC, "the kernel panicked%s",
		     begun ? " while the workloads ran" : " during boot");
	} else if (!begun) {
		fail(res, timed_out ? CONSOLE_TIMEOUT : CONSOLE_NO_INIT,
		     "the kernel never started sched-bench's init%s",
		     timed_out ? " before the timeout" : "");
	} else if (!ended) {
		if (timed_out)
			fail(res, CONSOLE_TIMEOUT,
			     "no result before the timeout (hung after %zu frames)",
			     seq);
		else
			fail(res, CONSOLE_TRUNCATED,
			     "the console output stopped after %zu frames without END",
			     seq);
	} else if (res->rc) {
		fail(res, CONSOLE_FAILED, "init ended with rc=%d", res->rc);
	}
	return res->status;
}

const char *console_info(const struct console_result *res, const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < res->nr_info; i++)
		if (!strncmp(res->info[i], key, n) && res->info[i][n] == '=')
			return res->info[i] + n + 1;
	return NULL;
}

void console_result_release(struct console_result *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		free(res->runs[i].workload);
		free(res->runs[i].args);
		strbuf_release(&res->runs[i].out);
		strbuf_release(&res->runs[i].err);
		strbuf_release(&res->runs[i].perf);
		free(res->runs[i].stat);
	}
	free(res->runs);
	for (i = 0; i < res->nr_profiles; i++) {
		free(res->profiles[i].workload);
		free(res->profiles[i].event);
		strbuf_release(&res->profiles[i].self);
		strbuf_release(&res->profiles[i].children);
	}
	free(res->profiles);
	for (i = 0; i < res->nr_info; i++)
		free(res->info[i]);
	free(res->info);
	free(res->reason);
	free(res->last_lines);
	memset(res, 0, sizeof(*res));
}

int console_run_stat(const struct console_run *r, const char *key,
		     double *v)
{
	size_t n = strlen(key);
	const char *p = r->stat;
	char *end;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == '=') {
			errno = 0;
			*v = strtod(p + n + 1, &end);
			if (end == p + n + 1 || errno || !isfinite(*v) ||
			    (*end && *end != ' '))
				return -1;
			return 0;
		}
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return -1;
}

/* A tool's run: its env records apart, the rest is the tool's text
 * (stdout, then stderr, as on the local target).
 */
static int parse_tool_run(const struct console_run *r,
			  const struct run_meta *meta, int seconds,
			  struct sample_set *set)
{
	static const char *const cpu_keys[] = {
		"cpu_usr", "cpu_sys", "cpu_idle", "cpu_iowait", "cpu_softirq",
	};
	struct strbuf env = STRBUF_INIT, text = STRBUF_INIT;
	const char *line = r->out.buf, *nl;
	double cpu[ARRAY_SIZE(cpu_keys)], wall;
	struct cpu_util u = { 0 };
	char *params = NULL, **argv;
	int have_cpu = 1, ret;
	size_t i;

	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		strbuf_add(starts_with(line, "env,") ? &env : &text, line,
			   nl - line + 1);
	}
	strbuf_addch(&text, '\n');
	strbuf_add(&text, r->err.buf, r->err.len);
	for (i = 0; i < ARRAY_SIZE(cpu_keys); i++)
		have_cpu = have_cpu && !console_run_stat(r, cpu_keys[i],
							  &cpu[i]);
	if (have_cpu) {
		u.usr = cpu[0];
		u.sys = cpu[1];
		u.idle = cpu[2];
		u.iowait = cpu[3];
		u.softirq = cpu[4];
	}
	if (console_run_stat(r, "wall_s", &wall))
		wall = -1;
	/* The params text of the command the host built for this run. */
	argv = run_tool_argv(r->workload, "x", seconds, &params);
	ret = run_tool_rows(r->workload, params, r->run, text.buf, wall,
			    have_cpu ? &u : NULL, meta,
			    env.len ? env.buf : NULL, set);
	run_argv_free(argv);
	free(params);
	strbuf_release(&env);
	strbuf_release(&text);
	return ret;
}

/* sched-bench's record format has one reader: run.c's. */
static int parse_run(const struct console_run *r, const char *label,
		     const char *target, const char *release, int seconds,
		     struct sample_set *set)
{
	struct run_meta meta = {
		.label = label, .kernel = release, .target = target,
	};

	size_t from = set->nr;
	int ret;

	if (run_is_tool_workload(r->workload))
		ret = parse_tool_run(r, &meta, seconds, set) < 0 ? -1 : 0;
	else
		ret = run_parse_bench_output(r->out.buf, r->out.len, &meta,
					     set) < 0 ? -1 : 0;
	/* perf stat's counts of the run, beside its rows */
	if (!ret && r->perf.len)
		run_perf_rows(r->perf.buf, from, set);
	return ret;
}

/*
 * The first row of the run that cell of workload w ran first (the
 * cells of a workload run in order within each of its runs), or -1.
 */
static long profile_row(const struct console_result *res, const size_t *from,
			const struct sample_set *set,
			const struct console_profile *pr)
{
	size_t i;
	int first = -1, k = 0;

	for (i = 0; i < res->nr; i++) {
		const struct console_run *r = &res->runs[i];

		if (strcmp(r->workload, pr->workload))
			continue;
		if (first < 0)
			first = r->run;
		if (r->run != first)
			continue;
		if (k++ == pr->cell)
			return from[i] < from[i + 1] && from[i] < set->nr ?
			       (long)from[i] : -1;
	}
	return -1;
}

int console_to_samples(const struct console_result *res, const char *label,
		       const char *target, struct sample_set *set)
{
	const char *release = console_info(res, "release");
	const char *secs = console_info(res, "seconds");
	size_t *from = xcalloc(res->nr + 1, sizeof(*from));
	size_t i;
	int ret = 0;

	for (i = 0; i < res->nr && !ret; i++) {
		const struct console_run *r = &res->runs[i];

		from[i] = set->nr;
		/* env describes the machine; its records carry no rows. */
		if (!strcmp(r->workload, "env"))
			continue;
		if (parse_run(r, label, target, release,
			      secs ? atoi(secs) : 5, set) < 0)
			ret = error("%s run %d: output is not result rows",
				    r->workload, r->run);
	}
	from[res->nr] = set->nr;
	for (i = 0; i < res->nr_profiles && !ret; i++) {
		const struct console_profile *pr = &res->profiles[i];
		long at = profile_row(res, from, set, pr);

		if (pr->failed || at < 0)
			continue;
		run_profile_rows(pr->self.buf, "self", pr->event, at, set);
		run_profile_rows(pr->children.buf, "children", pr->event, at,
				 set);
	}
	free(from);
	return ret;
}

enum console_status console_parse_status(const char *buf, size_t len)
{
	struct console_result c;
	enum console_status s = console_parse(buf, len, 0, &c);

	console_result_release(&c);
	return s;
}
