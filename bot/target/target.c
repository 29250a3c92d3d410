// SPDX-License-Identifier: GPL-2.0
/*
 * target.c - the list of backends and the dispatch through it.  What
 * every backend needs first is found here once: the sched-bench to run
 * or ship, and the tool workloads with their binaries on this host.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "build.h"
#include "config.h"
#include "secret.h"
#include "subproc.h"
#include "target/common.h"
#include "workload.h"

static const struct target_ops *const backends[] = {
	&target_qemu_ops,
	&target_ssh_ops,
	&target_local_ops,
	&target_lava_ops,
};

const struct target_ops *target_backend(const char *name)
{
	const char *type = target_cfg(name, "type", name);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(backends); i++)
		if (!strcmp(type, backends[i]->type))
			return backends[i];
	return NULL;
}

const char *target_type(const char *name)
{
	const struct target_ops *ops = target_backend(name);

	return ops ? ops->type : NULL;
}

int target_each_builtin(int (*fn)(const char *name, void *data),
			void *data)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < ARRAY_SIZE(backends); i++)
		if (backends[i]->traits & (TARGET_SHAPED | TARGET_HERE))
			ret = fn(backends[i]->type, data);
	return ret;
}

int target_is(const char *name, unsigned int traits)
{
	const struct target_ops *ops = target_backend(name);

	return ops && (ops->traits & traits) == traits;
}

int target_vouches(const char *name)
{
	const struct target_ops *ops = target_backend(name);
	const char *v = target_cfg(name, "vouch", NULL);
	int b = v ? config_parse_bool(v) : -1;

	if (v && b < 0)
		warning("config target.%s.vouch = '%s' is not a boolean: the target does not vouch", name, v);
	if (v)
		return b > 0;
	return ops && ops->vouches && ops->vouches(name);
}

int target_match_reporter(const char *name)
{
	return target_cfg_bool(name, "matchReporter") > 0;
}

int target_status(const char *name, FILE *out)
{
	const struct target_ops *ops = target_backend(name);

	return ops && ops->status ? ops->status(name, out) : 0;
}

void target_ctx_release(struct target_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_tools; i++)
		free(ctx->tools[i].host);
	free(ctx->tools);
	free(ctx->perf);
	free(ctx->profile_perf);
	free(ctx->sched_bench);
	target_words_release(&ctx->workloads);
	memset(ctx, 0, sizeof(*ctx));
}

/*
 * perf for perf stat around the runs (target.NAME.perf): this machine's,
 * run here (local) or shipped in the initramfs (qemu, lava, when asked);
 * never on an ssh machine, which has its own.  Missing: said once.
 */
static char *ctx_perf(const char *name, unsigned int traits)
{
	const char *v = target_cfg(name, "perf", "auto");
	int local = traits & TARGET_HERE;
	int ship = traits & TARGET_GUEST;
	static int said;
	char *perf;

	if (!strcmp(v, "false") || !(local || (ship && !strcmp(v, "true"))))
		return NULL;
	perf = target_tool_host_path("perf");
	if (!perf && !said++)
		info("perf is not installed on this machine (package linux-perf): the runs carry no perf stat rows");
	return perf;
}

/*
 * perf for the profile a request asks for (req->profile): this machine's,
 * run here (local) or shipped in the initramfs (qemu, lava: asked for
 * by the profile, unless target.NAME.perf = false); an ssh machine has
 * its own, not used.  Why there is none is said once.
 */
static char *ctx_profile_perf(const char *name, const char *type,
			      unsigned int traits, const struct boot_req *req)
{
	const char *v = target_cfg(name, "perf", "auto");
	int here = traits & (TARGET_HERE | TARGET_GUEST);
	static int said;
	char *perf = NULL;

	if (!req->profile || !*req->profile)
		return NULL;
	if (!strcmp(v, "false") || !here) {
		if (!said++)
			info("no profile on target %s (%s): %s", name,
			     type ? type : "?", here ? "target.NAME.perf is false" : "perf record runs on qemu, lava and local targets");
		return NULL;
	}
	perf = target_tool_host_path("perf");
	if (!perf && !said++)
		info("perf is not installed on this machine (package linux-perf): no profile");
	return perf;
}

int target_ctx_init(struct target_ctx *ctx, const char *name,
		    const struct target_ops *ops, const struct boot_req *req)
{
	char *list = xstrdup(req->workloads ? req->workloads :
			     workload_names(WORKLOAD_DEFAULT)), *w, *save;
	size_t alloc = 0;

	memset(ctx, 0, sizeof(*ctx));
	ctx->name = name;
	ctx->type = ops ? ops->type : NULL;
	ctx->traits = ops ? ops->traits : 0;
	for (w = strtok_r(list, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		const struct workload *t = run_find_tool(w);

		target_words_add(&ctx->workloads, w);
		if (!t)
			continue;
		ALLOC_GROW(ctx->tools, ctx->nr_tools, alloc);
		ctx->tools[ctx->nr_tools].info = t;
		/* here, any program of PATH runs; elsewhere it must ship */
		ctx->tools[ctx->nr_tools].host = ctx->traits & TARGET_HERE ?
			subproc_find(t->prog) : target_tool_host_path(t->prog);
		ctx->nr_tools++;
	}
	free(list);
	ctx->perf = ctx_perf(name, ctx->traits);
	ctx->profile_perf = ctx_profile_perf(name, ctx->type, ctx->traits,
					     req);
	ctx->sched_bench = run_find_sched_bench(req->sched_bench);
	if (!ctx->sched_bench) {
		target_ctx_release(ctx);
		return error("sched-bench not found: build it (make), set run.schedBench or give --sched-bench");
	}
	return 0;
}

static void unknown_target(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(backends); i++)
		strbuf_addf(&sb, "\n  %-6s %s", backends[i]->type,
			    backends[i]->describe);
	error("unknown target '%s': set target.%s.type to one of:%s", name,
	      name, sb.buf);
	strbuf_release(&sb);
}

char *target_file(const char *name, const char *suffix)
{
	char *sub, *path;

	if (!*name || strchr(name, '/') || name[0] == '.')
		return NULL;
	sub = xasprintf("targets/%s%s", name, suffix);
	path = data_path(sub);
	free(sub);
	return path;
}

static char *health_path(const char *name)
{
	return target_file(name, ".unhealthy");
}

void target_mark_unhealthy(const char *name, const char *why)
{
	char *path = health_path(name), *line;
	char when[32];
	time_t t = time(NULL);

	if (!path)
		return;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	line = xasprintf("since %s: %s\n", when, why);
	if (mkdir_parent(path, 0755) < 0 ||
	    write_file_atomic(path, line, strlen(line)) < 0)
		error("cannot write %s: %s", path, strerror(errno));
	free(line);
	free(path);
}

int target_unhealthy(const char *name, char **why)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = health_path(name);
	int ret = 0;

	*why = NULL;
	if (path && strbuf_read_file(&sb, path) >= 0) {
		strbuf_trim(&sb);
		*why = strbuf_detach(&sb, NULL);
		ret = 1;
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

int target_clear(const char *name)
{
	char *path = health_path(name);
	int ret = 0;

	if (!path)
		return 1;
	if (unlink(path) < 0) {
		ret = errno == ENOENT ? 1 : -1;
		if (ret < 0)
			error("cannot remove %s: %s", path, strerror(errno));
	}
	free(path);
	return ret;
}

int target_run(const char *name, const struct boot_req *req,
	       struct boot_res *res)
{
	const struct target_ops *ops = target_backend(name);
	struct target_ctx ctx;
	char *why;
	int ret;

	memset(res, 0, sizeof(*res));
	res->status = CONSOLE_ERROR;
	res->target = xstrdup(name);
	if (!ops) {
		unknown_target(name);
		return -1;
	}
	if (target_unhealthy(name, &why)) {
		res->reason = xasprintf("target %s is marked unhealthy %s", name,
					why);
		error("%s\n  see 'sched-bot target status %s'; once the machine is fixed, 'sched-bot target clear %s'",
		      res->reason,
		      name, name);
		free(why);
		return -1;
	}
	if (target_ctx_init(&ctx, name, ops, req) < 0)
		return -1;
	ret = ops->boot_run(&ctx, req, res);
	/* a console holds what the kernel and the configuration printed */
	if (res->console && secret_scrub_file(res->console) < 0)
		warning("cannot scrub %s: %s", res->console, strerror(errno));
	target_ctx_release(&ctx);
	return ret;
}

int target_make_initramfs(const char *path, const struct boot_req *req)
{
	struct target_ctx ctx;
	char **cmds;
	int ret;

	if (target_ctx_init(&ctx, "qemu", &target_qemu_ops, req) < 0)
		return -1;
	/* The skip lines a boot would print, for the tools not here. */
	cmds = target_host_cmds(&ctx);
	target_init_args(&ctx, req, cmds, "on this host", NULL);
	target_cmds_free(&ctx, cmds);
	ret = target_build_initramfs(&ctx, path);
	target_ctx_release(&ctx);
	return ret;
}

void boot_res_release(struct boot_res *res)
{
	free(res->reason);
	free(res->last_lines);
	free(res->console);
	free(res->accel);
	free(res->kernel);
	free(res->target);
	free(res->device);
	free(res->lava_job);
	sample_set_release(&res->samples);
	memset(res, 0, sizeof(*res));
}

/*
 * baseConfig = running: the machine's config, asked once and kept as
 * NAME.config with its origin in NAME.config-origin.  Kept, not asked
 * at every job: builds are cached per config text, so the same text
 * means every job on that machine shares its builds, and a machine
 * booted into a test kernel must not hand that kernel's config back.
 */
/*
 * Ask the machine for its config (ops->own_config) and keep it at path,
 * where it came from at opath and in o.  0, or -1 (said).
 */
static int take_config(const char *name, const struct target_ops *ops,
		       const char *path, const char *opath, struct strbuf *o)
{
	struct strbuf cfg = STRBUF_INIT;
	char *from = NULL, *release = NULL;
	int ret = -1;

	if (!ops->own_config)
		return error("target.%s.baseConfig = running: a %s target has no running kernel to take it from",
			     name,
			     ops->type);
	info("taking the kernel config of target %s", name);
	if (ops->own_config(name, &cfg, &from, &release) < 0)
		goto out;
	if (release)
		strbuf_addf(o, "the machine's own (%s), %s", release, from);
	else
		strbuf_addf(o, "the machine's own, %s", from);
	if (mkdir_parent(path, 0755) < 0 ||
	    write_file_atomic(opath, o->buf, o->len) < 0 ||
	    write_file_atomic(path, cfg.buf, cfg.len) < 0) {
		error("cannot keep %s: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(from);
	free(release);
	strbuf_release(&cfg);
	return ret;
}

static int running_config(const char *name, const struct target_ops *ops,
			  char **base, char **origin)
{
	char *path = target_file(name, ".config");
	char *opath = target_file(name, ".config-origin");
	struct strbuf o = STRBUF_INIT;
	int ret = -1;

	if (!path || !opath) {
		error("target %s: not a name to keep a config under", name);
		goto out;
	}
	if (access(path, R_OK) || strbuf_read_file(&o, opath) < 0) {
		strbuf_reset(&o);
		if (take_config(name, ops, path, opath, &o) < 0)
			goto out;
	}
	strbuf_trim(&o);
	*base = path;
	path = NULL;
	*origin = strbuf_detach(&o, NULL);
	ret = 0;
out:
	free(path);
	free(opath);
	strbuf_release(&o);
	return ret;
}

int target_base_config(const char *name, char **base, char **origin)
{
	const struct target_ops *ops = target_backend(name);
	const char *v = target_cfg(name, "baseConfig", NULL);

	*base = NULL;
	*origin = NULL;
	if (!v || !*v)
		return 0;
	if (!ops) {
		unknown_target(name);
		return -1;
	}
	if (!strcmp(v, "running"))
		return running_config(name, ops, base, origin);
	*base = xstrdup(v);
	*origin = xasprintf("target.%s.baseConfig", name);
	return 0;
}

char *target_fragments(const char *name)
{
	const struct target_ops *ops = name ? target_backend(name) : NULL;
	const char *v = name ? target_cfg(name, "fragments", NULL) : NULL;
	const char *base = name ? target_cfg(name, "baseConfig", NULL) : NULL;
	const struct arch *a;

	if (v && *v)
		return xstrdup(v);
	/* running, or a file: the machine's own config */
	if (ops && ops->own_fragments && base && *base &&
	    (!strcmp(base, "running") || !build_base_is_target(base)))
		return xstrdup(ops->own_fragments);
	a = target_arch(name);
	if (a && a != &arch_table[0])
		return xasprintf("sched.config %s", a->qemu_fragment);
	return xstrdup(BUILD_FRAGMENTS);
}

const struct arch *target_arch(const char *name)
{
	const char *v = name ? target_cfg(name, "arch", "x86_64") : NULL;
	const struct arch *a;

	if (!v || !*v)
		return &arch_table[0];
	a = arch_find(v);
	if (!a)
		error("target.%s.arch: '%s' is not an architecture sched-bot builds (x86_64, arm64)",
		      name, v);
	return a;
}
