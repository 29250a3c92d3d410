// SPDX-License-Identifier: GPL-2.0
/*
 * target/common.c - what the backends share: their configuration, the
 * init command line, the guest's root and the way from a transcript of
 * init's frames to rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config-keys.h"
#include "config.h"
#include "kv.h"
#include "procstat.h"
#include "secret.h"
#include "target/common.h"
#include "target/initramfs.h"

char *target_workdir(const struct boot_req *req)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (req->workdir) {
		if (mkdir_p(req->workdir, 0755) < 0) {
			error("cannot create %s: %s", req->workdir,
			      strerror(errno));
			return NULL;
		}
		return xstrdup(req->workdir);
	}
	dir = xasprintf("%s/sched-bot-boot.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		error("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

static int seconds_of(const struct boot_req *req)
{
	return req->seconds > 0 ? req->seconds : 5;
}

static const struct target_tool *tool_of(const struct target_ctx *ctx,
					 const char *workload, size_t *idx)
{
	size_t i;

	for (i = 0; i < ctx->nr_tools; i++)
		if (!strcmp(ctx->tools[i].info->name, workload)) {
			*idx = i;
			return &ctx->tools[i];
		}
	return NULL;
}

/* sb.exec.<workload>=cmd,arg,arg: init splits at commas, the kernel
 * command line at white space.
 */
static char *exec_word(const struct target_tool *t, const char *cmd,
		       int seconds)
{
	struct strbuf sb = STRBUF_INIT;
	char *params = NULL, **argv, **a;

	argv = run_tool_argv(t->info->name, "x", seconds, &params);
	strbuf_addf(&sb, "sb.exec.%s=%s", t->info->name, cmd);
	for (a = argv + 1; *a; a++)
		strbuf_addf(&sb, ",%s", *a);
	run_argv_free(argv);
	free(params);
	return strbuf_detach(&sb, NULL);
}

/* sb.<workload>=a,b for each "workload=a,b" word of a workload run. */
static void add_workload_args(const struct target_ctx *ctx, const char *args,
			      struct target_words *out)
{
	const char *p = args;
	size_t i;

	while (*p) {
		size_t n = strcspn(p, " "), name = strcspn(p, "=");

		for (i = 0; name < n && i < ctx->workloads.nr; i++) {
			const char *w = ctx->workloads.v[i];
			char *word;

			if (strlen(w) != name || strncmp(w, p, name))
				continue;
			word = xasprintf("sb.%.*s", (int)n, p);
			target_words_add(out, word);
			free(word);
			break;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

int target_init_args(const struct target_ctx *ctx, const struct boot_req *req,
		     char *const *cmds, const char *why,
		     struct target_words *out)
{
	struct strbuf wl = STRBUF_INIT, w = STRBUF_INIT;
	const struct target_tool *t;
	int kept = 0;
	size_t i, k;

	for (i = 0; i < ctx->workloads.nr; i++) {
		const char *name = ctx->workloads.v[i];

		t = tool_of(ctx, name, &k);
		if (t && !cmds[k]) {
			fprintf(stderr, "skip: %s: '%s' is not installed %s (package %s)\n",
				name, t->info->prog, why,
				t->info->package);
			continue;
		}
		if (t && strpbrk(cmds[k], " \t\n")) {
			fprintf(stderr, "skip: %s: cannot run '%s' from a path with white space\n",
				name, cmds[k]);
			continue;
		}
		strbuf_addf(&wl, "%s%s", wl.len ? "," : "", name);
		kept++;
	}
	if (!out)
		goto out;
	strbuf_addf(&w, "sb.workloads=%s", wl.buf);
	target_words_add(out, w.buf);
	strbuf_reset(&w);
	strbuf_addf(&w, "sb.runs=%d", req->runs > 0 ? req->runs : 1);
	target_words_add(out, w.buf);
	strbuf_reset(&w);
	strbuf_addf(&w, "sb.t=%d", seconds_of(req));
	target_words_add(out, w.buf);
	if (req->autogroup >= 0) {
		strbuf_reset(&w);
		strbuf_addf(&w, "sb.autogroup=%d", req->autogroup);
		target_words_add(out, w.buf);
	}
	if (req->cgroup && *req->cgroup) {
		strbuf_reset(&w);
		strbuf_addf(&w, "sb.cgroup=%s", req->cgroup);
		target_words_add(out, w.buf);
	}
	if (req->workload_args)
		add_workload_args(ctx, req->workload_args, out);
	if (req->spawn_gap && !strpbrk(req->spawn_gap, " \t\n")) {
		strbuf_reset(&w);
		strbuf_addf(&w, "sb.gap=%s", req->spawn_gap);
		target_words_add(out, w.buf);
	}
	if (req->warmup && !strpbrk(req->warmup, " \t\n")) {
		strbuf_reset(&w);
		strbuf_addf(&w, "sb.warmup=%s", req->warmup);
		target_words_add(out, w.buf);
	}
	if (ctx->perf && !strpbrk(ctx->perf, " \t\n")) {
		strbuf_reset(&w);
		strbuf_addf(&w, "sb.perf=%s", ctx->perf);
		target_words_add(out, w.buf);
	}
	if (ctx->profile_perf && !strpbrk(ctx->profile_perf, " \t\n,") &&
	    !strpbrk(req->profile, " \t\n")) {
		strbuf_reset(&w);
		strbuf_addf(&w, "sb.profile=%s,%s", ctx->profile_perf,
			    req->profile);
		target_words_add(out, w.buf);
	}
	for (i = 0; i < ctx->nr_tools; i++) {
		char *word;

		t = &ctx->tools[i];
		/* Once per tool, however often the list names it. */
		if (!cmds[i] || strpbrk(cmds[i], " \t\n") ||
		    tool_of(ctx, t->info->name, &k) != t)
			continue;
		word = exec_word(t, cmds[i], seconds_of(req));
		target_words_add(out, word);
		free(word);
	}
out:
	strbuf_release(&wl);
	strbuf_release(&w);
	return kept;
}

char **target_host_cmds(const struct target_ctx *ctx)
{
	char **cmds = xcalloc(ctx->nr_tools + 1, sizeof(*cmds));
	size_t i;

	for (i = 0; i < ctx->nr_tools; i++)
		if (ctx->tools[i].host && !strchr(ctx->tools[i].host, ','))
			cmds[i] = xstrdup(ctx->tools[i].host);
	return cmds;
}

void target_cmds_free(const struct target_ctx *ctx, char **cmds)
{
	size_t i;

	if (!cmds)
		return;
	for (i = 0; i < ctx->nr_tools; i++)
		free(cmds[i]);
	free(cmds);
}

int target_build_initramfs(const struct target_ctx *ctx, const char *path)
{
	struct target_words files = { 0 }, helper_files = { 0 };
	char *helper = NULL;
	size_t i;
	int ret = -1;

	for (i = 0; i < ctx->workloads.nr && !helper; i++)
		if (!strcmp(ctx->workloads.v[i], "spawn"))
			helper = target_spawn_helper(ctx->sched_bench);
	/* The spawn helper's libc and loader, at their own paths; the
	 * helper itself goes next to /init.  Without them spawn forks from
	 * sched-bench, and its records say so.
	 */
	if (helper && target_tool_files(helper, &helper_files, NULL) < 0) {
		warning("not packing sched-bench-spawn: spawn will fork from the static sched-bench (forker=static)");
		free(helper);
		helper = NULL;
	}
	if (helper) {
		for (i = 0; i < helper_files.nr; i++)
			if (strcmp(helper_files.v[i], helper))
				target_words_add_unique(&files,
							helper_files.v[i]);
	}
	for (i = 0; i < ctx->nr_tools; i++) {
		const char *host = ctx->tools[i].host;

		if (host && !strchr(host, ',') &&
		    target_tool_files(host, &files, NULL) < 0)
			goto out;
	}
	if (ctx->perf && target_tool_files(ctx->perf, &files, NULL) < 0)
		goto out;
	if (ctx->profile_perf &&
	    target_tool_files(ctx->profile_perf, &files, NULL) < 0)
		goto out;
	ret = initramfs_build_bench(path, ctx->sched_bench, helper,
				    (const char *const *)files.v);
out:
	target_words_release(&files);
	target_words_release(&helper_files);
	free(helper);
	return ret;
}

/* The "env," lines of a run's output, appended to out. */
static void env_lines(const struct strbuf *text, struct strbuf *out)
{
	const char *p = text->buf, *end = text->buf + text->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (n > 4 && starts_with(p, "env,"))
			strbuf_add(out, p, n);
		p += n;
	}
}

/*
 * The target's own record of itself and the command line of every
 * workload's first run, kept in the work directory as env.txt and
 * commands.txt: the reply states them as facts about the machine that
 * ran the kernels, not the one that drove it.  The record is the env
 * workload's when it ran, else the one every run prints before its
 * numbers (sched-bench's workloads, and init before a tool), so that
 * each target (local, qemu, ssh, lava) leaves it whatever ran.  A lab's
 * record is also kept as the target's facts (target_facts()): nothing
 * else can be asked of a lab's device before a job plans its runs.  Only
 * a reference kernel's (a job's base): a kernel a series changed says
 * what it likes of the machine (4096 CPUs), and the next job's plan
 * would believe it.
 */
static void keep_records(const struct target_ctx *ctx,
			 const struct boot_req *req,
			 const struct console_result *c)
{
	struct strbuf env = STRBUF_INIT, cmds = STRBUF_INIT;
	struct strbuf first = STRBUF_INIT;
	size_t i;

	if (!req->workdir && !(ctx->traits & TARGET_LAB))
		return;
	for (i = 0; i < c->nr; i++) {
		const struct console_run *r = &c->runs[i];

		if (!strcmp(r->workload, "env")) {
			strbuf_add(&env, r->out.buf, r->out.len);
			continue;
		}
		if (!first.len)
			env_lines(&r->out, &first);
		if (r->run <= 1 && run_is_tool_workload(r->workload))
			strbuf_addf(&cmds, "%s\n", r->args);
		else if (r->run <= 1)
			strbuf_addf(&cmds, "sched-bench %s %s\n", r->workload,
				    r->args);
	}
	if (!env.len)
		strbuf_add(&env, first.buf, first.len);
	if ((ctx->traits & TARGET_LAB) && req->reference && env.len)
		target_keep_facts(ctx->name, env.buf, env.len);
	if (env.len && req->workdir) {
		char *p = xasprintf("%s/env.txt", req->workdir);

		secret_write_file(p, env.buf, env.len);
		free(p);
	}
	if (cmds.len && req->workdir) {
		char *p = xasprintf("%s/commands.txt", req->workdir);

		secret_write_file(p, cmds.buf, cmds.len);
		free(p);
	}
	strbuf_release(&env);
	strbuf_release(&cmds);
	strbuf_release(&first);
}

int target_finish(const struct target_ctx *ctx, const struct boot_req *req,
		  const char *buf, size_t len, int timed_out,
		  struct boot_res *res)
{
	struct console_result c;
	const char *release;

	console_parse(buf, len, timed_out, &c);
	keep_records(ctx, req, &c);
	res->status = c.status;
	res->last_lines = xstrdup(c.last_lines);
	release = console_info(&c, "release");
	if (release)
		res->kernel = xstrdup(release);
	if (c.status == CONSOLE_OK &&
	    console_to_samples(&c, req->label, ctx->name, &res->samples) < 0) {
		res->status = CONSOLE_CORRUPT;
		res->reason = xstrdup("the workloads' output is not result rows");
	} else if (c.status == CONSOLE_OK && !res->samples.nr) {
		res->status = CONSOLE_FAILED;
		res->reason = xstrdup("the workloads printed no result rows");
	} else if (c.reason) {
		res->reason = xstrdup(c.reason);
	}
	if (res->reason && c.long_lines) {
		char *why = res->reason;

		res->reason = xasprintf("%s (%zu console line%s over %d KB cut)",
					why, c.long_lines,
					c.long_lines == 1 ? "" : "s",
					CONSOLE_LINE_MAX >> 10);
		free(why);
	}
	console_result_release(&c);
	return res->status == CONSOLE_OK ? 0 : 1;
}

size_t target_console_max(const char *name)
{
	long max = target_cfg_int(name, "maxConsole", 16777216);

	/* what comes back is never read without end */
	return max > 0 ? (size_t)max : 16777216;
}

/* "16 MB", "1.5 MB", "300 KB", "100 bytes" */
static void add_size(struct strbuf *sb, size_t n)
{
	if (n >= 1 << 20)
		strbuf_addf(sb, "%.*f MB", n % (1 << 20) ? 1 : 0,
			    n / 1048576.0);
	else if (n >= 1 << 10)
		strbuf_addf(sb, "%.*f KB", n % (1 << 10) ? 1 : 0,
			    n / 1024.0);
	else
		strbuf_addf(sb, "%zu bytes", n);
}

void target_console_cut(const char *name, struct boot_res *res, int fd)
{
	struct strbuf note = STRBUF_INIT;
	char *why = res->reason, *line;

	strbuf_addstr(&note, "console output cut at ");
	add_size(&note, target_console_max(name));
	strbuf_addf(&note, " (target.%s.maxConsole)", name);
	warning("%s: %s", name, note.buf);
	if (fd >= 0) {
		line = xasprintf("\n[sched-bot: %s]\n", note.buf);
		(void)write_in_full(fd, line, strlen(line));
		free(line);
	}
	/* rows that came whole before the flood are still rows */
	if (res->status != CONSOLE_OK) {
		res->reason = xasprintf("%s%s%s", note.buf, why ? ": " : "",
					why ? why : "");
		free(why);
	}
	strbuf_release(&note);
}

/*
 * The table of config-keys.c holds the defaults; def is the caller's
 * copy, used only for a key the table leaves to the code (a computed
 * default), and a def that disagrees with the table is a bug.
 */
static void __attribute__((noreturn)) bad_default(const char *k,
						  const char *def,
						  const char *table)
{
	fprintf(stderr, "BUG: %s: default '%s' in the code, '%s' in bot/config-keys.c\n",
		k, def ? def : "(none)", table);
	abort();
}

static const struct kv *target_settings;
static int configured;

void target_configure(const struct target_opts *o)
{
	target_settings = o->set;
	configured = 1;
}

/*
 * target.NAME.KEY (k) as the configuration sets it, else NULL.
 * Unconfigured, a target would be booted as nobody set it up: a bug.
 */
static const char *set_value(const char *k)
{
	if (!configured)
		die("BUG: target used before target_configure()");
	return target_settings ? kv_get(target_settings, k) : NULL;
}

/* The table's entry for k; a key missing from it is a bug. */
static const struct config_key *key_of(const char *k)
{
	const struct config_key *t = config_key_find(k);

	if (!t) {
		fprintf(stderr, "BUG: config key '%s' is not in bot/config-keys.c\n",
			k);
		abort();
	}
	return t;
}

const char *target_cfg(const char *name, const char *key, const char *def)
{
	char *k = xasprintf("target.%s.%s", name, key);
	const struct config_key *t = key_of(k);
	const char *v = set_value(k);

	if (t->def && (!def || strcmp(def, t->def)))
		bad_default(k, def, t->def);
	free(k);
	if (!v)
		v = t->def;
	return v ? v : def;
}

/* The table's default of an int key, which the tests check parses. */
static long table_int(const struct config_key *t)
{
	long n = 0;

	if (t->def)
		config_parse_int(t->def, &n);
	return n;
}

/* k's value v as a number; unset or bad (warned), fallback. */
static long int_value(const char *k, const char *v, long fallback)
{
	long n;

	if (!v)
		return fallback;
	if (config_parse_int(v, &n) < 0) {
		warning("config %s = '%s' is not a number, using %ld", k, v,
			fallback);
		return fallback;
	}
	return n;
}

long target_cfg_int(const char *name, const char *key, long def)
{
	char *k = xasprintf("target.%s.%s", name, key);
	const struct config_key *t = key_of(k);
	char *d;
	long v;

	if (t->def) {
		d = xasprintf("%ld", def);
		if (strcmp(d, t->def))
			bad_default(k, d, t->def);
		free(d);
		def = table_int(t);
	}
	v = int_value(k, set_value(k), def);
	free(k);
	return v;
}

/* Keys with their default in the table only: bool and number. */
int target_cfg_bool(const char *name, const char *key)
{
	char *k = xasprintf("target.%s.%s", name, key);
	const struct config_key *t = key_of(k);
	const char *v = set_value(k);
	int b = v ? config_parse_bool(v) : -1;

	if (v && b < 0)
		warning("config %s = '%s' is not a boolean, using %s", k, v,
			t->def ? t->def : "false");
	if (b < 0)
		b = t->def ? config_parse_bool(t->def) : 0;
	free(k);
	return b > 0;
}

double target_cfg_number(const char *name, const char *key)
{
	char *k = xasprintf("target.%s.%s", name, key);
	const struct config_key *t = key_of(k);
	const char *v = set_value(k);
	double d, def = 0;

	if (t->def)
		config_parse_number(t->def, &def);
	if (!v || config_parse_number(v, &d) < 0) {
		if (v)
			warning("config %s = '%s' is not a number, using %g",
				k, v, def);
		d = def;
	}
	free(k);
	return d;
}

int target_nothing_to_run(struct boot_res *res)
{
	res->status = CONSOLE_FAILED;
	res->skipped_all = 1;
	res->reason = xstrdup("nothing to run: every workload was skipped");
	return 1;
}

int target_need_kernel(const struct target_ctx *ctx,
		       const struct boot_req *req)
{
	if (!req->kernel)
		return error("the %s target needs a kernel (--kernel)",
			     ctx->type);
	if (access(req->kernel, R_OK))
		return error("cannot read kernel %s: %s", req->kernel,
			     strerror(errno));
	return 0;
}

int target_guest_prepare(const struct target_ctx *ctx,
			 const struct boot_req *req, struct target_guest *g,
			 struct boot_res *res)
{
	char *abs;

	memset(g, 0, sizeof(*g));
	g->cmds = target_host_cmds(ctx);
	if (!target_init_args(ctx, req, g->cmds, "on this host", &g->args))
		return target_nothing_to_run(res);
	g->dir = target_workdir(req);
	if (!g->dir)
		return -1;
	/* a relative --workdir: QEMU's sandbox binds absolute paths */
	abs = realpath(g->dir, NULL);
	if (!abs)
		return error("cannot resolve %s: %s", g->dir, strerror(errno));
	free(g->dir);
	g->dir = abs;
	g->initrd = xasprintf("%s/initramfs.cpio.gz", g->dir);
	return target_build_initramfs(ctx, g->initrd) < 0 ? -1 : 0;
}

void target_guest_release(const struct target_ctx *ctx,
			  struct target_guest *g)
{
	target_cmds_free(ctx, g->cmds);
	target_words_release(&g->args);
	free(g->dir);
	free(g->initrd);
	memset(g, 0, sizeof(*g));
}

void target_set_machine(struct boot_res *res, const char *machine)
{
	size_t i;

	for (i = 0; i < res->samples.nr; i++) {
		free(res->samples.v[i].machine);
		res->samples.v[i].machine = xstrdup(machine);
	}
}

int target_shape(const char *name, long *smp, long *mem)
{
	char *k = xasprintf("target.%s.smp", name);
	char *m = xasprintf("target.%s.mem", name);
	const char *sv = set_value(k);

	*smp = int_value(k, sv, table_int(key_of(k)));
	*mem = int_value(m, set_value(m), table_int(key_of(m)));
	free(k);
	free(m);
	return sv != NULL;
}

int target_topology(const char *name, struct target_topo *t)
{
	long mem;
	int set = target_shape(name, &t->cpus, &mem);

	t->sockets = target_cfg_int(name, "sockets", 1);
	t->threads = target_cfg_int(name, "threads", 1);
	t->nodes = target_cfg_int(name, "numa", 1);
	if (t->cpus < 1)
		t->cpus = 1;
	if (t->sockets < 1 || t->sockets > t->cpus)
		t->sockets = 1;
	if (t->threads < 1 || t->threads > t->cpus)
		t->threads = 1;
	if (t->nodes < 1 || t->nodes > t->cpus)
		t->nodes = 1;
	t->llc = t->cpus / t->sockets;
	return target_is(name, TARGET_SHAPED) || set;
}

/*
 * Is env the record of a kernel under test, booted on an ssh machine
 * with its sched_bot.build= token (one that did not go away)?
 */
static int of_kernel_under_test(const char *env)
{
	const char *p;

	for (p = env; (p = strstr(p, "env,cmdline,")); p++) {
		if (p != env && p[-1] != '\n')
			continue;
		return memmem(p, strcspn(p, "\n"), "sched_bot.build=",
			      strlen("sched_bot.build=")) != NULL;
	}
	return 0;
}

void target_keep_facts(const char *name, const char *text, size_t len)
{
	struct strbuf in = STRBUF_INIT, env = STRBUF_INIT;
	char *path = target_file(name, ".facts");

	strbuf_add(&in, text, len);
	env_lines(&in, &env);
	if (of_kernel_under_test(env.buf)) {
		warning("%s runs a kernel under test (sched_bot.build= on its command line): its record is no fact of the machine",
			name);
		goto out;
	}
	/* a record without its CPUs is no fact to plan by: keep the last */
	if (path && strstr(env.buf, "env,nr_cpus,") &&
	    (mkdir_parent(path, 0755) < 0 ||
	     secret_write_file(path, env.buf, env.len) < 0))
		warning("cannot keep the facts of %s in %s: %s", name, path,
			strerror(errno));
out:
	strbuf_release(&in);
	strbuf_release(&env);
	free(path);
}

/*
 * The value of "env,KEY,VALUE" in facts, at most size - 1 bytes of it
 * (the record is the machine's text: a longer value is no fact), or NULL.
 */
static const char *fact(const char *facts, const char *key, char *buf,
			size_t size)
{
	size_t k = strlen(key);
	const char *p = facts;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (n > 5 + k && starts_with(p, "env,") &&
		    !strncmp(p + 4, key, k) && p[4 + k] == ',') {
			size_t v = n - 5 - k;

			if (v >= size)
				return NULL;
			memcpy(buf, p + 5 + k, v);
			buf[v] = '\0';
			return buf;
		}
		p += n + (p[n] == '\n');
	}
	return NULL;
}

/* A count of 1 .. 4096 the record gives for key, else 0. */
static long fact_count(const char *facts, const char *key)
{
	char buf[32], *end;
	const char *v = fact(facts, key, buf, sizeof(buf));
	long n;

	if (!v)
		return 0;
	n = strtol(v, &end, 10);
	return end != v && !*end && n > 0 && n <= 4096 ? n : 0;
}

int target_topology_of(const char *facts, struct target_topo *t)
{
	char buf[4096];
	const char *llcs = fact(facts, "llc_cpus", buf, sizeof(buf));

	memset(t, 0, sizeof(*t));
	t->cpus = fact_count(facts, "nr_cpus");
	t->sockets = fact_count(facts, "sockets");
	t->threads = fact_count(facts, "threads_per_core");
	t->nodes = fact_count(facts, "numa_nodes");
	if (llcs) {
		/* the first LLC's CPUs, "0-15,32-47" of "0-15,32-47 16-31,..." */
		buf[strcspn(buf, " ")] = '\0';
		t->llc = procstat_cpulist_count(buf);
	}
	/* each level must divide the CPUs the machine has online */
	return t->cpus && t->sockets && t->nodes && t->llc > 0 &&
	       t->threads && t->cpus % t->sockets == 0 &&
	       t->cpus % t->nodes == 0 && t->llc <= t->cpus;
}

unsigned long long target_facts_mem_mb(const char *facts)
{
	char buf[32], *end;
	const char *v = fact(facts, "mem_total_kb", buf, sizeof(buf));
	unsigned long long kb;

	if (!v)
		return 0;
	kb = strtoull(v, &end, 10);
	return end != v && !*end ? kb / 1024 : 0;
}

long target_run_budget(const char *name)
{
	const struct target_ops *ops = target_backend(name);

	return target_cfg_int(name, "timeout", ops ? ops->run_budget : 0);
}

/* The runs of workload w (len wl) one repetition makes: its entry in
 * args ("w=a,b+c,d": cells split at '+', "--sweep,1:2:4" points).
 */
static int entry_runs(const char *args, const char *w, size_t wl)
{
	const char *p = args ? args : "";

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n > wl && !strncmp(p, w, wl) && p[wl] == '=') {
			const char *q, *end = p + n;
			const char *s = memmem(p, n, "--sweep,", 8);
			int cells = 1, points = 1;

			for (q = p + wl + 1; q < end; q++)
				cells += *q == '+';
			for (q = s ? s + 8 : end; q < end && *q != ',' &&
			     *q != '+'; q++)
				points += *q == ':';
			return cells * points;
		}
		p += n;
		p += strspn(p, " ");
	}
	return 1;
}

int target_req_runs(const struct boot_req *req)
{
	const char *w = req->workloads ? req->workloads : "";
	int n = 0;

	while (*w) {
		size_t l = strcspn(w, ",");

		if (l)
			n += entry_runs(req->workload_args, w, l);
		w += l + (w[l] == ',');
	}
	return n > 0 ? n : 1;
}
