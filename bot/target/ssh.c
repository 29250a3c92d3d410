// SPDX-License-Identifier: GPL-2.0
/*
 * target/ssh.c - a real machine over the system's OpenSSH client.
 *
 * With a kernel to test:
 *   1. note `uname -r` (the machine's default kernel);
 *   2. copy the bzImage to remoteDir and run bootCommand, by default
 *        kexec -l {kernel} --reuse-cmdline && kexec -e
 *      (kexec skips firmware and bootloader: seconds, not minutes; the
 *      connection drops as the old kernel goes away, which is expected);
 *   3. poll `uname -r` until it answers, bounded by bootTimeout, and
 *      check it is the release just built;
 *   4. copy sched-bench, run `sched-bench init sb.…` (the frames are
 *      the same as on a QEMU console) and parse them; a tool workload
 *      the machine lacks (hackbench, perf) is copied first with its
 *      shared libraries and loader into remoteDir/tools and run
 *      through that loader; so is sched-bench-spawn, the program spawn
 *      forks from, in remoteDir/spawn (given to sched-bench as
 *      SCHED_BENCH_SPAWN);
 *   5. run restoreCommand (default `reboot`: a kexec'ed kernel is
 *      gone after a normal reboot, so the machine comes back on its
 *      default kernel) and wait for the original `uname -r`.
 * Without a kernel, only step 4 runs.  Tests use bootCommand = true and
 * restoreCommand = true against an sshd on 127.0.0.1.
 *
 * Keys: target.NAME.host, .user, .port, .identity, .sshOptions (extra
 * words for ssh), .remoteDir (/tmp/sched-bot), .bootCommand,
 * .restoreCommand, .bootTimeout (300), .timeout (for the workloads),
 * .shipTools (auto: copy the tools the machine lacks; always; never).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "subproc.h"
#include "target/common.h"

struct ssh {
	const char *name;
	const char *argv[40];
	int n;				/* words before the remote command */
	char *port, *dest;
	char *opts;			/* sshOptions, split in place */
};

static int ssh_setup(struct ssh *s, const char *name)
{
	const char *host = target_cfg(name, "host", NULL);
	const char *user = target_cfg(name, "user", NULL);
	const char *id = target_cfg(name, "identity", NULL);
	char *w, *save;

	memset(s, 0, sizeof(s[0]));
	s->name = name;
	if (!host)
		return error("target.%s.host is not set", name);
	s->argv[s->n++] = "ssh";
	s->argv[s->n++] = "-o";
	s->argv[s->n++] = "BatchMode=yes";
	s->argv[s->n++] = "-o";
	s->argv[s->n++] = "ConnectTimeout=10";
	s->port = xstrdup(target_cfg(name, "port", "22"));
	s->argv[s->n++] = "-p";
	s->argv[s->n++] = s->port;
	if (id) {
		s->argv[s->n++] = "-i";
		s->argv[s->n++] = id;
	}
	s->opts = xstrdup(target_cfg(name, "sshOptions", ""));
	for (w = strtok_r(s->opts, " ", &save); w && s->n < 30;
	     w = strtok_r(NULL, " ", &save))
		s->argv[s->n++] = w;
	s->dest = user ? xasprintf("%s@%s", user, host) : xstrdup(host);
	s->argv[s->n++] = "--";
	s->argv[s->n++] = s->dest;
	return 0;
}

static void ssh_release(struct ssh *s)
{
	free(s->port);
	free(s->dest);
	free(s->opts);
}

/* Run cmd remotely; stdin from in_fd (-1: none).  Returns its code. */
static int ssh_run(struct ssh *s, const char *cmd, int in_fd, double timeout,
		   struct strbuf *out)
{
	struct subproc p = { .stdin_fd = in_fd, .log_fd = -1,
			     .capture = out, .split_stderr = 1,
			     .timeout = timeout };

	s->argv[s->n] = cmd;
	s->argv[s->n + 1] = NULL;
	p.argv = s->argv;
	debug("ssh %s: %s", s->dest, cmd);
	return subproc_run(&p);
}

static int ssh_copy(struct ssh *s, const char *local, const char *remote)
{
	char *cmd = xasprintf("cat > '%s.tmp' && chmod 755 '%s.tmp' && "
			      "mv '%s.tmp' '%s'", remote, remote, remote,
			      remote);
	int fd = open(local, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		free(cmd);
		return error("cannot read %s: %s", local, strerror(errno));
	}
	rc = ssh_run(s, cmd, fd, 600, NULL);
	close(fd);
	free(cmd);
	return rc ? error("copying %s to %s:%s failed (%d)", local, s->dest,
			  remote, rc) : 0;
}

static char *remote_release(struct ssh *s, double timeout)
{
	struct strbuf out = STRBUF_INIT;

	if (ssh_run(s, "uname -r", -1, timeout, &out)) {
		strbuf_release(&out);
		return NULL;
	}
	strbuf_trim(&out);
	return strbuf_detach(&out, NULL);
}

/* Poll until uname -r answers (and equals want, when given). */
static char *wait_for(struct ssh *s, const char *want, double timeout)
{
	double end = now_monotonic() + timeout;
	char *rel;

	do {
		rel = remote_release(s, 15);
		if (rel && (!want || !strcmp(rel, want)))
			return rel;
		free(rel);
		rel = NULL;
		sleep(2);
	} while (now_monotonic() < end);
	return NULL;
}

static char *expand(const char *tmpl, const char *kernel)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	for (p = tmpl; *p; p++) {
		if (starts_with(p, "{kernel}")) {
			strbuf_addstr(&sb, kernel);
			p += strlen("{kernel}") - 1;
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static int boot_kernel(struct ssh *s, const struct boot_req *req,
		       const char *rdir, struct boot_res *res)
{
	char *rk = xasprintf("%s/bzImage", rdir), *cmd, *rel;
	double wait = target_cfg_int(s->name, "bootTimeout", 300);
	int ret = -1;

	if (ssh_copy(s, req->kernel, rk) < 0)
		goto out;
	cmd = expand(target_cfg(s->name, "bootCommand",
			 "kexec -l {kernel} --reuse-cmdline && kexec -e"),
		     rk);
	/* The connection may die with the old kernel: no verdict here. */
	ssh_run(s, cmd, -1, 60, NULL);
	free(cmd);
	rel = wait_for(s, NULL, wait);
	if (!rel) {
		res->status = CONSOLE_TIMEOUT;
		res->reason = xasprintf("%s did not come back within %.0fs "
					"after booting the kernel", s->dest,
					wait);
		ret = 1;
		goto out;
	}
	if (req->release && strcmp(rel, req->release)) {
		res->status = CONSOLE_NO_INIT;
		res->reason = xasprintf("%s runs %s, not the kernel built "
					"(%s): the boot did not take", s->dest,
					rel, req->release);
		free(rel);
		ret = 1;
		goto out;
	}
	free(rel);
	ret = 0;
out:
	free(rk);
	return ret;
}

static void restore(struct ssh *s, const char *orig)
{
	double wait = target_cfg_int(s->name, "bootTimeout", 300);
	char *rel;

	ssh_run(s, target_cfg(s->name, "restoreCommand", "reboot"), -1, 60, NULL);
	rel = wait_for(s, orig, wait);
	if (!rel)
		warning("%s did not come back on %s within %.0fs", s->dest,
			orig, wait);
	free(rel);
}

/* A word for the remote shell, single-quoted. */
static void add_quoted(struct strbuf *sb, const char *w)
{
	const char *p;

	strbuf_addch(sb, '\'');
	for (p = w; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

/* The remote's own tool, if it runs: its path, else NULL. */
static char *remote_tool(struct ssh *s, const struct workload *t)
{
	struct strbuf out = STRBUF_INIT, cmd = STRBUF_INIT;

	/* Debian's perf is a wrapper that fails on a kernel it has no
	 * perf_<version> for: ask it, not only PATH. */
	strbuf_addstr(&cmd, "p=$(command -v ");
	add_quoted(&cmd, t->prog);
	strbuf_addf(&cmd, ") && %s && printf '%%s\\n' \"$p\"",
		    !strcmp(t->prog, "perf") ? "\"$p\" version >/dev/null 2>&1"
					     : "test -x \"$p\"");
	if (ssh_run(s, cmd.buf, -1, 60, &out) || !out.len) {
		strbuf_release(&out);
		strbuf_release(&cmd);
		return NULL;
	}
	strbuf_release(&cmd);
	strbuf_trim(&out);
	return strbuf_detach(&out, NULL);
}

/*
 * Copy a tool and the files it needs into rdir/sub, one directory: the
 * remote runs it through the shipped loader with that directory as its
 * library path, so the remote's own libc does not matter.
 */
static char *ship_tool(struct ssh *s, const char *host, const char *rdir,
		       const char *sub)
{
	struct target_words files = { 0 };
	struct strbuf cmd = STRBUF_INIT;
	char *interp = NULL, *tdir = xasprintf("%s/%s", rdir, sub);
	char *ret = NULL;
	const char *base;
	size_t i;

	if (target_tool_files(host, &files, &interp) < 0)
		goto out;
	strbuf_addstr(&cmd, "mkdir -p ");
	add_quoted(&cmd, tdir);
	if (ssh_run(s, cmd.buf, -1, 60, NULL)) {
		error("cannot create %s on %s", tdir, s->dest);
		goto out;
	}
	for (i = 0; i < files.nr; i++) {
		char *remote;

		base = strrchr(files.v[i], '/');
		remote = xasprintf("%s/%s", tdir, base ? base + 1 : files.v[i]);
		if (ssh_copy(s, files.v[i], remote) < 0) {
			free(remote);
			goto out;
		}
		free(remote);
	}
	base = strrchr(host, '/');
	base = base ? base + 1 : host;
	if (interp)
		ret = xasprintf("%s/%s,--library-path,%s,%s/%s", tdir,
				strrchr(interp, '/') + 1, tdir, tdir, base);
	else
		ret = xasprintf("%s/%s", tdir, base);
out:
	target_words_release(&files);
	strbuf_release(&cmd);
	free(interp);
	free(tdir);
	return ret;
}

/* How the remote runs each tool: its own, else what we ship; NULL when
 * neither side has it.  shipTools: auto, always, never. */
static char **tool_cmds(struct ssh *s, const struct target_ctx *ctx,
			const char *rdir, int *failed)
{
	const char *ship = target_cfg(ctx->name, "shipTools", "auto");
	char **cmds = xcalloc(ctx->nr_tools + 1, sizeof(*cmds));
	size_t i, k;

	*failed = 0;
	if (ctx->nr_tools && strpbrk(rdir, ", \t")) {
		/* init splits sb.exec at commas, the shell at spaces. */
		warning("remoteDir '%s' cannot hold tools: not shipping them",
			rdir);
		ship = "never";
	}
	for (i = 0; i < ctx->nr_tools; i++) {
		const struct target_tool *t = &ctx->tools[i];

		/* perf-pipe and perf-messaging share one perf. */
		for (k = 0; k < i; k++)
			if (!strcmp(ctx->tools[k].info->prog, t->info->prog))
				break;
		if (k < i) {
			cmds[i] = cmds[k] ? xstrdup(cmds[k]) : NULL;
			continue;
		}
		if (strcmp(ship, "always"))
			cmds[i] = remote_tool(s, t->info);
		if (cmds[i] || !strcmp(ship, "never") || !t->host)
			continue;
		cmds[i] = ship_tool(s, t->host, rdir, "tools");
		if (!cmds[i])
			*failed = 1;
	}
	return cmds;
}

static int ssh_boot_run(const struct target_ctx *ctx,
			const struct boot_req *req, struct boot_res *res)
{
	struct strbuf cmdline = STRBUF_INIT, out = STRBUF_INIT;
	struct target_words args = { 0 };
	const char *name = ctx->name;
	const char *rdir = target_cfg(name, "remoteDir", "/tmp/sched-bot");
	char *rbench = NULL, *orig = NULL, *cmd = NULL, **cmds = NULL, *why;
	char *helper = NULL, *rhelper = NULL;
	double start = now_monotonic(), timeout;
	struct ssh s;
	int rc, ret = -1, booted = 0, failed;
	size_t i;

	if (ssh_setup(&s, name) < 0)
		return -1;
	orig = remote_release(&s, 30);
	if (!orig) {
		res->reason = xasprintf("cannot reach %s over ssh", s.dest);
		error("%s", res->reason);
		ret = 1;
		goto out;
	}
	cmd = xasprintf("mkdir -p '%s'", rdir);
	if (ssh_run(&s, cmd, -1, 60, NULL)) {
		error("cannot create %s on %s", rdir, s.dest);
		goto out;
	}
	if (req->kernel) {
		ret = boot_kernel(&s, req, rdir, res);
		booted = 1;
		if (ret)
			goto out;
		ret = -1;
	}
	/* Asked on the kernel under test: that is where they run. */
	cmds = tool_cmds(&s, ctx, rdir, &failed);
	if (failed)
		goto out;
	why = xasprintf("on this host nor on %s", s.dest);
	rc = target_init_args(ctx, req, cmds, why, &args);
	free(why);
	if (!rc) {
		ret = target_nothing_to_run(res);
		goto out;
	}
	rbench = xasprintf("%s/sched-bench", rdir);
	if (ssh_copy(&s, ctx->sched_bench, rbench) < 0)
		goto out;
	/* spawn forks from the dynamic helper, run through the libc and
	 * loader shipped with it (sched-bench finds it in the environment). */
	for (i = 0; i < ctx->workloads.nr; i++)
		if (!strcmp(ctx->workloads.v[i], "spawn"))
			break;
	if (i < ctx->workloads.nr)
		helper = target_spawn_helper(ctx->sched_bench);
	if (helper && strpbrk(rdir, ", \t"))
		warning("remoteDir '%s' cannot hold sched-bench-spawn: spawn "
			"forks from sched-bench itself", rdir);
	else if (helper && !(rhelper = ship_tool(&s, helper, rdir, "spawn")))
		goto out;
	if (rhelper) {
		strbuf_addstr(&cmdline, "SCHED_BENCH_SPAWN=");
		add_quoted(&cmdline, rhelper);
		strbuf_addch(&cmdline, ' ');
	}
	add_quoted(&cmdline, rbench);
	strbuf_addstr(&cmdline, " init");
	for (i = 0; i < args.nr; i++) {
		strbuf_addch(&cmdline, ' ');
		add_quoted(&cmdline, args.v[i]);
	}
	timeout = target_cfg_int(name, "timeout", 600);
	rc = ssh_run(&s, cmdline.buf, -1, timeout, &out);
	res->seconds = now_monotonic() - start;
	res->console = NULL;
	ret = target_finish(ctx, req, out.buf, out.len,
			    rc == SUBPROC_TIMEOUT, res);
out:
	if (booted)
		restore(&s, orig);
	ssh_release(&s);
	strbuf_release(&cmdline);
	strbuf_release(&out);
	target_words_release(&args);
	target_cmds_free(ctx, cmds);
	free(rbench);
	free(helper);
	free(rhelper);
	free(orig);
	free(cmd);
	return ret;
}

const struct target_ops target_ssh_ops = {
	.type = "ssh",
	.describe = "a machine over ssh, booting the kernel with kexec",
	.boot_run = ssh_boot_run,
};
