// SPDX-License-Identifier: GPL-2.0
/*
 * target/local.c - the workloads on the running kernel: sched-bench's
 * init, not as PID 1, prints the same frames as in a guest, so the same
 * parser turns them into the same rows (`sched-bot run` is this path, a
 * cell at a time).  Autogroup and cgroup requests of the boot are only
 * applied by a PID 1 init; here the machine runs as it is, and a
 * workload's own --autogroup or --cgroup (run's options) is sched-bench's.
 * The tools run from this machine's PATH.
 */
#include <stdlib.h>
#include <string.h>

#include "subproc.h"
#include "target/common.h"

static int local_boot_run(const struct target_ctx *ctx,
			  const struct boot_req *req, struct boot_res *res)
{
	struct target_words argv = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct subproc p = { .stdin_fd = -1, .log_fd = -1, .capture = &out,
			     .split_stderr = 1 };
	char **cmds = target_host_cmds(ctx);
	double start = now_monotonic();
	int rc, ret = -1;

	if (req->autogroup >= 0 || (req->cgroup && *req->cgroup &&
				    strcmp(req->cgroup, "root")))
		warning("the local target runs in the machine's own autogroup and cgroup setting");
	target_words_add(&argv, ctx->sched_bench);
	target_words_add(&argv, "init");
	if (!target_init_args(ctx, req, cmds, "on this machine", &argv)) {
		ret = target_nothing_to_run(res);
		goto out;
	}
	p.argv = (const char *const *)argv.v;
	rc = subproc_run(&p);
	res->seconds = now_monotonic() - start;
	if (rc >= 0 || rc == SUBPROC_TIMEOUT)
		ret = target_finish(ctx, req, out.buf, out.len, 0, res);
out:
	target_cmds_free(ctx, cmds);
	target_words_release(&argv);
	strbuf_release(&out);
	return ret;
}

/* sched-bench health here; args are words the bot made (no quoting). */
static int local_health(const struct target_ctx *ctx, const char *args,
			struct strbuf *out)
{
	struct target_words argv = { 0 };
	struct subproc p = { .stdin_fd = -1, .log_fd = -1, .capture = out,
			     .split_stderr = 1, .capture_max = 1 << 20,
			     .timeout = 120 };
	char *words = xstrdup(args), *w, *save;
	int rc;

	target_words_add(&argv, ctx->sched_bench);
	target_words_add(&argv, "health");
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		target_words_add(&argv, w);
	p.argv = (const char *const *)argv.v;
	rc = subproc_run(&p);
	target_words_release(&argv);
	free(words);
	return rc ? error("sched-bench health failed (%d)", rc) : 0;
}

const struct target_ops target_local_ops = {
	.type = "local",
	.describe = "this machine, on its running kernel",
	.traits = TARGET_HERE | TARGET_MACHINE,
	.boot_run = local_boot_run,
	.health = local_health,
};
