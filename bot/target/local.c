// SPDX-License-Identifier: GPL-2.0
/*
 * target/local.c - the workloads on the running kernel: sched-bench's
 * init, not as PID 1, prints the same frames as in a guest, so the same
 * parser turns them into the same rows.  Autogroup and cgroup requests
 * are only applied by a PID 1 init; here the machine runs as it is.
 */
#include <stdlib.h>
#include <string.h>

#include "subproc.h"
#include "target/common.h"

int target_local_run(const char *name, const struct boot_req *req,
		     struct boot_res *res)
{
	struct strbuf args = STRBUF_INIT, out = STRBUF_INIT;
	char *bench = target_sched_bench(req), *words, *w, *save;
	const char *argv[16];
	struct subproc p = { .stdin_fd = -1, .log_fd = -1, .capture = &out,
			     .split_stderr = 1 };
	double start = now_monotonic();
	int n = 0, rc, ret = -1;

	if (req->autogroup >= 0 || (req->cgroup && *req->cgroup &&
				    strcmp(req->cgroup, "root")))
		warning("the local target runs in the machine's own "
			"autogroup and cgroup setting");
	target_init_args(req, &args);
	words = xstrdup(args.buf);
	argv[n++] = bench;
	argv[n++] = "init";
	for (w = strtok_r(words, " ", &save); w && n < 15;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	p.argv = argv;
	rc = subproc_run(&p);
	res->seconds = now_monotonic() - start;
	if (rc >= 0 || rc == SUBPROC_TIMEOUT)
		ret = target_finish(name, req, out.buf, out.len, 0, res);
	free(words);
	free(bench);
	strbuf_release(&args);
	strbuf_release(&out);
	return ret;
}
