// SPDX-License-Identifier: GPL-2.0
/*
 * target/qemu.c - boot a bzImage in qemu-system-x86_64 with sched-bot's
 * initramfs and read the results off the serial console.
 *
 * The guest runs sched-bench's own workloads and, from the initramfs
 * too, this host's hackbench and perf with their shared libraries and
 * dynamic loader (target/tools.c), so that the same tool produces the
 * same rows as on the local target.
 *
 * KVM is used only when it demonstrably works: /dev/kvm can exist and
 * still be unusable (nested or paravirtual KVM that cannot run a guest),
 * so "auto" boots the kernel under KVM for a few seconds and keeps KVM
 * only when the kernel's first line shows up; else TCG.  The verdict is
 * kept for the rest of the process and written in the results.
 *
 * The kernel is untrusted (it is a patch from a list), and so is what
 * it does to QEMU: QEMU runs in the sandbox (sandbox.h) as builds do,
 * with no network, nothing of the host but /usr (its firmware is in
 * /usr/share) and the kernel and initramfs read-only, one scratch
 * directory writable, /dev/kvm only when KVM is used.  The console is
 * QEMU's stdout (-serial stdio), read through the pipe subproc makes,
 * so no socket or file of ours is needed inside.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "progress.h"
#include "sandbox.h"
#include "subproc.h"
#include "target/common.h"

struct qemu_run {
	double start;
	double begin;		/* when init's BEGIN frame arrived */
	int seen_linux;
	int want_progress;
	struct progress progress;
};

static void qemu_line(const char *line, void *data)
{
	struct qemu_run *q = data;

	if (!q->seen_linux && strstr(line, "Linux version"))
		q->seen_linux = 1;
	if (!q->begin && strstr(line, "@@SB BEGIN"))
		q->begin = now_monotonic();
	progress_output(&q->progress, line);
}

/*
 * -smp with the sockets and threads per core target.NAME.sockets and
 * .threads ask for, and one -numa node (with its share of the memory)
 * per target.NAME.numa node, each a contiguous range of CPUs, as a
 * real box numbers them.  NULL (printed) when the shape does not
 * divide.
 */
static char *qemu_smp(const char *name, long mem_mb, const char **argv,
		      int *n, char **nodes)
{
	struct target_topo t;
	long per, i;

	target_topology(name, &t);
	if (t.cpus % (t.sockets * t.threads) || t.cpus % t.nodes ||
	    mem_mb % t.nodes || t.nodes > TARGET_NODES_MAX) {
		error("target.%s: %ld CPUs do not divide into %ld socket(s) of %ld-thread cores, or %ld CPUs and %ld MB into %ld node(s) (at most %d)",
		      name, t.cpus, t.sockets,
		      t.threads, t.cpus, mem_mb, t.nodes, TARGET_NODES_MAX);
		return NULL;
	}
	if (t.nodes > 1) {
		per = t.cpus / t.nodes;
		for (i = 0; i < t.nodes; i++) {
			nodes[2 * i] = xasprintf("memory-backend-ram,id=sbmem%ld,size=%ldM",
						 i,
						 mem_mb / t.nodes);
			nodes[2 * i + 1] = xasprintf("node,nodeid=%ld,cpus=%ld-%ld,memdev=sbmem%ld",
						     i,
						     i * per, i * per + per - 1,
						     i);
			argv[(*n)++] = "-object";
			argv[(*n)++] = nodes[2 * i];
			argv[(*n)++] = "-numa";
			argv[(*n)++] = nodes[2 * i + 1];
		}
	}
	if (t.sockets == 1 && t.threads == 1)
		return xasprintf("%ld", t.cpus);
	return xasprintf("%ld,sockets=%ld,cores=%ld,threads=%ld", t.cpus,
			 t.sockets, t.cpus / (t.sockets * t.threads),
			 t.threads);
}

static int run_qemu(const char *name, const char *accel, const char *kernel,
		    const char *initrd, const char *scratch,
		    const char *append, double timeout, int log_fd,
		    struct strbuf *capture, struct qemu_run *q)
{
	static const char *const kvm[] = { "/dev/kvm", NULL };
	const char *qemu = target_cfg(name, "qemu", "qemu-system-x86_64");
	long mem_mb = target_cfg_int(name, "mem", 1024);
	struct sandbox_dir dirs[4];
	struct sandbox sb = { .dirs = dirs };
	const char *env[2] = { NULL, NULL };
	char *tmpdir = NULL;
	const char *cpu = target_cfg(name, "cpu", NULL);
	char *nodes[2 * TARGET_NODES_MAX] = { NULL }, *smp;
	char *mem = xasprintf("%ld", mem_mb);
	const char *argv[32 + 4 * TARGET_NODES_MAX];
	struct subproc p = { .stdin_fd = -1 };
	int n = 0, ret, i;

	argv[n++] = qemu;
	argv[n++] = "-accel";
	argv[n++] = accel;
	smp = qemu_smp(name, mem_mb, argv, &n, nodes);
	if (!smp) {
		free(mem);
		return -1;
	}
	if (cpu) {
		argv[n++] = "-cpu";
		argv[n++] = cpu;
	}
	argv[n++] = "-smp";
	argv[n++] = smp;
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-nodefaults";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-serial";
	argv[n++] = "stdio";
	argv[n++] = "-no-reboot";
	argv[n++] = "-kernel";
	argv[n++] = kernel;
	if (initrd) {
		argv[n++] = "-initrd";
		argv[n++] = initrd;
	}
	argv[n++] = "-append";
	argv[n++] = append;
	argv[n] = NULL;
	p.argv = argv;
	p.timeout = timeout;
	p.log_fd = log_fd;
	p.capture = capture;
	/* a kernel that floods its console is stopped, not read to the end */
	p.out_max = target_console_max(name);
	p.line = qemu_line;
	p.data = q;
	/* A QEMU outside /usr (target.NAME.qemu): the binary itself. */
	if (qemu[0] == '/' && strncmp(qemu, "/usr/", 5))
		dirs[sb.nr_dirs++] = (struct sandbox_dir){ qemu, 0 };
	dirs[sb.nr_dirs++] = (struct sandbox_dir){ kernel, 0 };
	if (initrd)
		dirs[sb.nr_dirs++] = (struct sandbox_dir){ initrd, 0 };
	if (scratch) {
		dirs[sb.nr_dirs++] = (struct sandbox_dir){ scratch, 1 };
		env[0] = tmpdir = xasprintf("TMPDIR=%s", scratch);
	}
	sb.env = env;
	if (!strcmp(accel, "kvm"))
		sb.devices = kvm;
	/* the guest's RAM is QEMU's by design; the limit is for the rest */
	sb.extra_mem = (unsigned long long)(mem_mb > 0 ? mem_mb : 0) << 20;
	q->start = now_monotonic();
	progress_start(&q->progress, q->want_progress);
	ret = sandbox_run(&sb, &p);
	progress_done(&q->progress);
	if (SANDBOX_STOPPED(ret)) {
		/* the boot's failure, as a QEMU killed would be */
		char *why = sandbox_over(&sb, ret);

		warning("qemu %s and was stopped", why);
		free(why);
		ret = 128 + SIGKILL;
	}
	free(smp);
	free(mem);
	free(tmpdir);
	for (i = 0; i < 2 * TARGET_NODES_MAX; i++)
		free(nodes[i]);
	return ret;
}

/* Does KVM boot this kernel?  Asked once per process. */
static const char *choose_accel(const char *name, const char *kernel)
{
	static const char *verdict;
	const char *want = target_cfg(name, "accel", "auto");
	struct qemu_run q = { 0 };
	struct strbuf sb = STRBUF_INIT;
	char *path, *sp, *slash;
	struct utsname u;
	int fd;

	if (!strcmp(want, "kvm") || !strcmp(want, "tcg"))
		return want;
	if (verdict)
		return verdict;
	verdict = "tcg";
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		debug("no usable /dev/kvm (%s): TCG", strerror(errno));
		return verdict;
	}
	close(fd);
	/* The probe costs seconds: remember it for this host kernel. */
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	path = cache_path("qemu-accel");
	if (strbuf_read_file(&sb, path) > 0) {
		strbuf_trim(&sb);
		sp = strchr(sb.buf, ' ');
		if (sp && !strncmp(sb.buf, u.release, sp - sb.buf) &&
		    !u.release[sp - sb.buf]) {
			verdict = !strcmp(sp + 1, "kvm") ? "kvm" : "tcg";
			goto out;
		}
	}
	run_qemu(name, "kvm", kernel, NULL, NULL, "console=ttyS0 panic=-1",
		 target_cfg_int(name, "kvmProbeTimeout", 5), -1, NULL, &q);
	if (q.seen_linux)
		verdict = "kvm";
	info("KVM %s: using %s", q.seen_linux ? "works" : "does not boot a guest here",
	     verdict);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s %s\n", u.release, verdict);
	slash = strrchr(path, '/');
	*slash = 0;
	mkdir_p(path, 0755);
	*slash = '/';
	write_file_atomic(path, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	free(path);
	return verdict;
}

/* Boot plus every run, unless configured: a tool run under TCG can take
 * far longer than the -t of sched-bench's own workloads.  Each cell and
 * sweep point of a plan is a run (target_req_runs).
 */
static double default_timeout(const struct target_ctx *ctx,
			      const struct boot_req *req)
{
	int runs = req->runs > 0 ? req->runs : 1;
	int secs = req->seconds > 0 ? req->seconds : 5;
	/* a profile: a run of each cell again, and perf report twice */
	int profile = ctx->profile_perf ? target_req_runs(req) *
					  (secs * 3 + 60) : 0;

	return 120 + target_req_runs(req) * runs * (secs * 3 + 10) +
	       ctx->nr_tools * runs * 120 + profile;
}

static int qemu_boot_run(const struct target_ctx *ctx,
			 const struct boot_req *req, struct boot_res *res)
{
	struct strbuf append = STRBUF_INIT, console = STRBUF_INIT;
	struct target_guest g;
	const char *name = ctx->name;
	char *kernel = NULL, *scratch = NULL, *machine;
	struct qemu_run q = { .want_progress = req->progress };
	const char *accel;
	double timeout;
	int fd = -1, rc, ret;
	size_t i;

	if (target_need_kernel(ctx, req) < 0)
		return -1;
	ret = target_guest_prepare(ctx, req, &g, res);
	if (ret)
		goto out;
	ret = -1;
	/* the sandbox binds it at its absolute path */
	kernel = realpath(req->kernel, NULL);
	if (!kernel) {
		error("cannot resolve %s: %s", req->kernel, strerror(errno));
		goto out;
	}
	/* QEMU's own scratch space, the only place it may write */
	scratch = xasprintf("%s/qemu", g.dir);
	if (mkdir_p(scratch, 0755) < 0) {
		error("cannot create %s: %s", scratch, strerror(errno));
		goto out;
	}
	res->console = xasprintf("%s/console.log", g.dir);
	fd = open(res->console, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		  O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot write %s: %s", res->console, strerror(errno));
		goto out;
	}
	accel = choose_accel(name, kernel);
	res->accel = xstrdup(accel);
	strbuf_addstr(&append, "console=ttyS0 panic=-1");
	for (i = 0; i < g.args.nr; i++)
		strbuf_addf(&append, " %s", g.args.v[i]);
	if (*target_cfg(name, "append", ""))
		strbuf_addf(&append, " %s", target_cfg(name, "append", ""));
	/* the reporter's size (plan.h): after the target's own words */
	if (req->append && *req->append)
		strbuf_addf(&append, " %s", req->append);
	timeout = target_cfg_int(name, "timeout", default_timeout(ctx, req));
	debug("qemu: -accel %s -append '%s', timeout %.0fs", accel,
	      append.buf, timeout);
	rc = run_qemu(name, accel, kernel, g.initrd, scratch, append.buf,
		      timeout, fd, &console, &q);
	res->seconds = now_monotonic() - q.start;
	if (q.begin)
		res->boot_seconds = q.begin - q.start;
	if (rc < 0 && rc != SUBPROC_TIMEOUT && rc != SUBPROC_CUT)
		goto out;
	ret = target_finish(ctx, req, console.buf, console.len,
			    rc == SUBPROC_TIMEOUT, res);
	if (rc == SUBPROC_CUT)
		target_console_cut(name, res, fd);
	/* Say in every row how the numbers were made: TCG numbers are not
	 * KVM numbers.
	 */
	machine = xasprintf("qemu-%s-smp%ld", accel,
			    target_cfg_int(name, "smp", 2));
	target_set_machine(res, machine);
	free(machine);
	if (!ret && rc && rc != SUBPROC_CUT) {
		/* Rows came out but QEMU did not end cleanly: say it. */
		warning("qemu exited with %d after the results", rc);
	}
	if (ret && rc && rc != SUBPROC_TIMEOUT && !console.len) {
		res->status = CONSOLE_ERROR;
		free(res->reason);
		res->reason = xasprintf("qemu failed to start (exit %d)", rc);
	}
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&append);
	strbuf_release(&console);
	target_guest_release(ctx, &g);
	free(kernel);
	free(scratch);
	return ret;
}

const struct target_ops target_qemu_ops = {
	.type = "qemu",
	.describe = "a QEMU guest booting the kernel with sched-bot's initramfs",
	.traits = TARGET_SHAPED | TARGET_GUEST,
	.boot_run = qemu_boot_run,
};
