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

#include "secret.h"
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

void target_ctx_release(struct target_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nr_tools; i++)
		free(ctx->tools[i].host);
	free(ctx->tools);
	free(ctx->sched_bench);
	target_words_release(&ctx->workloads);
	memset(ctx, 0, sizeof(*ctx));
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
	for (w = strtok_r(list, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		const struct workload *t = run_find_tool(w);

		target_words_add(&ctx->workloads, w);
		if (!t)
			continue;
		ALLOC_GROW(ctx->tools, ctx->nr_tools, alloc);
		ctx->tools[ctx->nr_tools].info = t;
		ctx->tools[ctx->nr_tools].host = target_tool_host_path(t->prog);
		ctx->nr_tools++;
	}
	free(list);
	ctx->sched_bench = run_find_sched_bench(req->sched_bench);
	if (!ctx->sched_bench) {
		target_ctx_release(ctx);
		return error("sched-bench not found: build it (make), set "
			     "run.schedBench or give --sched-bench");
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

/*
 * The mark: $XDG_DATA_HOME/sched-bot/targets/NAME.unhealthy, one line,
 * beside the state database, so that cron and every command see it.
 */
static char *health_path(const char *name)
{
	char *sub, *path;

	if (!*name || strchr(name, '/') || name[0] == '.')
		return NULL;
	sub = xasprintf("targets/%s.unhealthy", name);
	path = data_path(sub);
	free(sub);
	return path;
}

void target_mark_unhealthy(const char *name, const char *why)
{
	char *path = health_path(name), *line, *slash;
	char when[32];
	time_t t = time(NULL);

	if (!path)
		return;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	line = xasprintf("since %s: %s\n", when, why);
	slash = strrchr(path, '/');
	*slash = 0;
	mkdir_p(path, 0755);
	*slash = '/';
	if (write_file_atomic(path, line, strlen(line)) < 0)
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
		error("%s\n  see 'sched-bot target status %s'; once the "
		      "machine is fixed, 'sched-bot target clear %s'", res->reason,
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
