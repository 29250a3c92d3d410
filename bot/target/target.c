// SPDX-License-Identifier: GPL-2.0
/*
 * target.c - dispatch to a target type, and what the types share: the
 * init command line, the sched-bench to ship, turning console frames
 * into rows.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "target/target.h"
#include "workload.h"

char *target_key(const char *name, const char *key)
{
	return xasprintf("target.%s.%s", name, key);
}

const char *target_type(const char *name)
{
	static const char *const types[] = { "qemu", "ssh", "local", "lava" };
	char *key = target_key(name, "type");
	const char *t = config_get(key);
	size_t i;

	free(key);
	if (!t)
		t = name;
	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(t, types[i]))
			return types[i];
	return NULL;
}

char *target_sched_bench(const struct boot_req *req)
{
	char *exe, *path;

	if (req->sched_bench)
		return xstrdup(req->sched_bench);
	exe = exe_dir();
	if (!exe)
		return xstrdup("sched-bench");
	path = xasprintf("%s/sched-bench", exe);
	free(exe);
	return path;
}

void target_init_args(const struct boot_req *req, struct strbuf *out)
{
	strbuf_addf(out, "sb.workloads=%s sb.runs=%d sb.t=%d",
		    req->workloads ? req->workloads :
		    workload_names(WORKLOAD_DEFAULT),
		    req->runs > 0 ? req->runs : 1,
		    req->seconds > 0 ? req->seconds : 5);
	if (req->autogroup >= 0)
		strbuf_addf(out, " sb.autogroup=%d", req->autogroup);
	if (req->cgroup && *req->cgroup)
		strbuf_addf(out, " sb.cgroup=%s", req->cgroup);
}

int target_run(const char *name, const struct boot_req *req,
	       struct boot_res *res)
{
	const char *type = target_type(name);

	memset(res, 0, sizeof(*res));
	res->status = CONSOLE_ERROR;
	res->target = xstrdup(name);
	if (!type)
		return error("unknown target '%s' (set target.%s.type to "
			     "qemu, ssh, lava or local)", name, name);
	if (!strcmp(type, "qemu"))
		return target_qemu_run(name, req, res);
	if (!strcmp(type, "ssh"))
		return target_ssh_run(name, req, res);
	if (!strcmp(type, "lava"))
		return target_lava_run(name, req, res);
	return target_local_run(name, req, res);
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
