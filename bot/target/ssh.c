// SPDX-License-Identifier: GPL-2.0
/*
 * target/ssh.c - a real machine over the system's OpenSSH client.
 *
 * With a kernel to test:
 *   1. note the machine's boot: uname -r, the boot id (new with every
 *      boot) and /proc/cmdline, its default kernel's;
 *   2. copy the bzImage to remoteDir and run bootCommand, by default
 *        kexec -l {kernel}{initrd} --command-line={cmdline}, kexec -e
 *      where {cmdline} is the machine's own without sched_bot.* words,
 *      then target.NAME.append, the run's own words (the reporter's
 *      size, in place of the machine's maxcpus= nr_cpus= mem=) and
 *      sched_bot.build=TOKEN, the first 16
 *      digits of the bzImage's git blob id (kexec skips firmware and
 *      bootloader: seconds, not minutes);
 *   3. poll until a new boot answers, bounded by bootTimeout, and prove
 *      which kernel runs: the token in /proc/cmdline (base and patched
 *      have the same uname -r), then the release;
 *   4. copy sched-bench, run `sched-bench init sb.…` (the frames are
 *      the same as on a QEMU console) and parse them; the rows' kernel
 *      column carries the token.  A tool workload the machine lacks
 *      (hackbench, perf) is copied first with its shared libraries and
 *      loader into remoteDir/tools and run through that loader; so is
 *      sched-bench-spawn in remoteDir/spawn (SCHED_BENCH_SPAWN);
 *   5. run restoreCommand (default `reboot`: a kexec'ed kernel is gone
 *      after a normal reboot) and wait for a new boot with the default
 *      kernel's command line.
 * A kernel that does not come back is the kernel's failure, with the
 * console lines of that boot when target.NAME.console says how to read
 * them (a file, from where it ended before the kexec, or a command).
 * Then, and when restoring fails, powerCommand power-cycles the machine
 * and its default kernel must come back; a machine that does not is
 * marked unhealthy (target_mark_unhealthy) and gets no more runs until
 * `sched-bot target clear NAME`.  Without a kernel, only step 4 runs.
 *
 * Keys: target.NAME.host, .user, .port, .identity, .sshOptions (extra
 * words for ssh), .remoteDir (/tmp/sched-bot), .bootCommand, .initrd,
 * .append, .restoreCommand, .console, .powerCommand, .bootTimeout
 * (300), .timeout (for the workloads), .shipTools (auto: copy the tools
 * the machine lacks; always; never).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "subproc.h"
#include "target/common.h"

/*
 * What a machine may answer to a command of ours that is not the run
 * (uname, its command line, a path): lines, not megabytes.
 */
#define SSH_ANSWER_MAX (1 << 20)
/* the last lines of a command's stderr shown */
#define SSH_ERR_LINES 20

struct ssh {
	const char *name;
	const char *argv[40];
	int n;				/* words before the remote command */
	char *port, *dest;
	char *opts;			/* sshOptions, split in place */
	/* the bytes an answer (stdout and stderr) may have: ssh_setup()'s
	 * SSH_ANSWER_MAX, the console's budget for the run
	 */
	size_t out_max;
};

static int ssh_setup(struct ssh *s, const char *name)
{
	const char *host = target_cfg(name, "host", NULL);
	const char *user = target_cfg(name, "user", NULL);
	const char *id = target_cfg(name, "identity", NULL);
	char *w, *save;

	memset(s, 0, sizeof(s[0]));
	s->name = name;
	s->out_max = SSH_ANSWER_MAX;
	if (!host)
		return error("target.%s.host is not set", name);
	s->argv[s->n++] = "ssh";
	s->argv[s->n++] = "-o";
	s->argv[s->n++] = "BatchMode=yes";
	s->argv[s->n++] = "-o";
	s->argv[s->n++] = "ConnectTimeout=10";
	/* A kernel that goes away under a session (kexec -e, reboot)
	 * sends no FIN: notice in seconds, not at the command's timeout.
	 */
	s->argv[s->n++] = "-o";
	s->argv[s->n++] = "ServerAliveInterval=5";
	s->argv[s->n++] = "-o";
	s->argv[s->n++] = "ServerAliveCountMax=3";
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

/*
 * Run cmd remotely; stdin from in_fd (-1: none).  Returns its code,
 * SUBPROC_CUT (said) when its answer passed s->out_max.  The machine
 * writes its stdout and stderr: both are read bounded, and what its
 * stderr said is shown afterwards, its last lines, printable.
 */
static int ssh_run(struct ssh *s, const char *cmd, int in_fd, double timeout,
		   struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT, tail = STRBUF_INIT;
	struct subproc p = { .stdin_fd = in_fd, .log_fd = -1,
			     .capture = out, .capture_err = &err,
			     .timeout = timeout, .out_max = s->out_max };
	int rc;

	s->argv[s->n] = cmd;
	s->argv[s->n + 1] = NULL;
	p.argv = s->argv;
	debug("ssh %s: %s", s->dest, cmd);
	rc = subproc_run(&p);
	if (err.len) {
		console_tail(err.buf, err.len, SSH_ERR_LINES, &tail);
		fputs(tail.buf, stderr);
	}
	if (rc == SUBPROC_CUT)
		warning("ssh %s: the answer passed %zu bytes and was cut: %.60s",
			s->dest, s->out_max, cmd);
	strbuf_release(&err);
	strbuf_release(&tail);
	return rc;
}

static int ssh_copy(struct ssh *s, const char *local, const char *remote)
{
	char *cmd = xasprintf("cat > '%s.tmp' && chmod 755 '%s.tmp' && mv '%s.tmp' '%s'",
			      remote, remote, remote,
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

/* Which boot the machine is in.  The release cannot tell a base from a
 * patched build (both are the same uname -r); the boot id changes with
 * every boot and the command line carries the build's token.
 */
struct boot_seen {
	char *release, *id, *cmdline;
};

static void boot_seen_release(struct boot_seen *b)
{
	free(b->release);
	free(b->id);
	free(b->cmdline);
	memset(b, 0, sizeof(*b));
}

/* One line of a machine's answer: printable, at most max bytes. */
static char *answer_line(const char *s, size_t n, size_t max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return NULL;
	}
	return n <= max ? xstrndup_trim(s, n) : NULL;
}

int target_ssh_boot_answer(const char *buf, size_t len, char **release,
			   char **id, char **cmdline)
{
	const char *end = buf + len, *nl1, *nl2;

	*release = *id = *cmdline = NULL;
	nl1 = memchr(buf, '\n', len);
	nl2 = nl1 ? memchr(nl1 + 1, '\n', end - nl1 - 1) : NULL;
	if (!nl2)
		return -1;
	/* /proc/cmdline ends with its newline; nothing may follow it */
	if (end > nl2 + 1 && end[-1] == '\n')
		end--;
	*release = answer_line(buf, nl1 - buf, SSH_RELEASE_MAX);
	*id = answer_line(nl1 + 1, nl2 - nl1 - 1, SSH_RELEASE_MAX);
	*cmdline = answer_line(nl2 + 1, end - nl2 - 1, SSH_CMDLINE_MAX);
	if (*release && **release && *id && **id && *cmdline)
		return 0;
	free(*release);
	free(*id);
	free(*cmdline);
	*release = *id = *cmdline = NULL;
	return -1;
}

static int remote_boot(struct ssh *s, double timeout, struct boot_seen *b)
{
	struct strbuf out = STRBUF_INIT;
	int ret = -1;

	memset(b, 0, sizeof(*b));
	if (!ssh_run(s, "uname -r && cat /proc/sys/kernel/random/boot_id /proc/cmdline",
		     -1, timeout, &out))
		ret = target_ssh_boot_answer(out.buf, out.len, &b->release,
					     &b->id, &b->cmdline);
	strbuf_release(&out);
	return ret;
}

static int read_console_file(const char *path, off_t from, struct strbuf *sb);

/*
 * 1 when the console file, from mark on (this boot's part), shows a
 * kernel panic.  Only a file is looked at while waiting: a console
 * command (ipmitool sol) is run once, after.
 */
static int console_panicked(const char *name, off_t mark)
{
	const char *spec = target_cfg(name, "console", NULL);
	static const char panic[] = "Kernel panic";
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (mark < 0 || !spec || spec[0] != '/')
		return 0;
	ret = !read_console_file(spec, mark, &sb) &&
	      memmem(sb.buf, sb.len, panic, strlen(panic));
	strbuf_release(&sb);
	return ret;
}

/*
 * Poll until the machine answers from a boot other than old_id (and,
 * with want_cmdline, with that command line), bounded by timeout.
 * 0 and *b, or -1; -2 when, with panic_mark >= 0, the console shows
 * that the kernel panicked: a kernel that panicked does not answer,
 * and waiting out bootTimeout (minutes on a server) tells nothing more.
 */
static int wait_boot(struct ssh *s, const char *old_id,
		     const char *want_cmdline, double timeout,
		     off_t panic_mark, struct boot_seen *b)
{
	double end = now_monotonic() + timeout;

	do {
		if (console_panicked(s->name, panic_mark))
			return -2;
		if (!remote_boot(s, 15, b)) {
			if (strcmp(b->id, old_id) &&
			    (!want_cmdline || !strcmp(b->cmdline, want_cmdline)))
				return 0;
			boot_seen_release(b);
		}
		sleep(2);
	} while (now_monotonic() < end);
	return -1;
}

/* Is word a word of the command line? */
static int has_word(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = cmdline; (p = strstr(p, word)); p++)
		if ((p == cmdline || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/* sched_bot.build=<the bzImage's git blob id, 16 digits>: a developer
 * checks it with git hash-object.
 */
static char *build_token(const char *kernel)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;
	int rc;

	git_libgit2_init();
	rc = git_odb_hashfile(&oid, kernel, GIT_OBJECT_BLOB);
	git_libgit2_shutdown();
	if (rc < 0) {
		error("cannot read %s", kernel);
		return NULL;
	}
	git_oid_tostr(hex, sizeof(hex), &oid);
	return xasprintf("sched_bot.build=%.16s", hex);
}

/* Is w "KEY=..." for a KEY= some word of words has (words may be NULL)? */
static int key_in(const char *w, const char *words)
{
	const char *eq = strchr(w, '='), *p;
	size_t n;

	if (!eq || !words)
		return 0;
	n = eq - w + 1;
	for (p = words + strspn(words, " "); *p;
	     p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, w, n))
			return 1;
	return 0;
}

/* The kernel's command line: the machine's own without the words of an
 * earlier test (sched_bot.*) or its bootloader, then target.NAME.append,
 * the run's words (the reporter's size: the machine's own maxcpus= and
 * the like give way to them) and the token, all before a "--" and the
 * arguments for init after it.
 */
static char *kexec_cmdline(const char *name, const char *own,
			   const char *extra, const char *token)
{
	struct strbuf sb = STRBUF_INIT, init = STRBUF_INIT;
	char *copy = xstrdup(own), *w, *save;
	const char *more = target_cfg(name, "append", "");

	for (w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		/* after "--", init's arguments: ours go before them */
		if (init.len || !strcmp(w, "--")) {
			strbuf_addf(&init, " %s", w);
			continue;
		}
		if (starts_with(w, "sched_bot.") ||
		    starts_with(w, "BOOT_IMAGE=") || key_in(w, extra))
			continue;
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", w);
	}
	if (*more)
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", more);
	if (extra && *extra)
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", extra);
	strbuf_addf(&sb, "%s%s", sb.len ? " " : "", token);
	strbuf_add(&sb, init.buf, init.len);
	strbuf_release(&init);
	free(copy);
	return strbuf_detach(&sb, NULL);
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

/* bootCommand with {kernel}, {cmdline} (one quoted word) and {initrd}
 * (" --initrd=FILE" when target.NAME.initrd is set) filled in.
 */
static char *expand(const char *name, const char *tmpl, const char *kernel,
		    const char *cmdline)
{
	struct strbuf sb = STRBUF_INIT;
	const char *initrd = target_cfg(name, "initrd", NULL);
	const char *p;

	for (p = tmpl; *p; p++) {
		if (starts_with(p, "{kernel}")) {
			add_quoted(&sb, kernel);
			p += strlen("{kernel}") - 1;
		} else if (starts_with(p, "{cmdline}")) {
			add_quoted(&sb, cmdline);
			p += strlen("{cmdline}") - 1;
		} else if (starts_with(p, "{initrd}")) {
			if (initrd) {
				strbuf_addstr(&sb, " --initrd=");
				add_quoted(&sb, initrd);
			}
			p += strlen("{initrd}") - 1;
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* Where the console stands before a boot: a file's size. */
static off_t console_mark(const char *name)
{
	const char *spec = target_cfg(name, "console", NULL);
	struct stat st;

	if (!spec || spec[0] != '/' || stat(spec, &st) < 0)
		return 0;
	return st.st_size;
}

/*
 * The console file from offset from on, at most CONSOLE_MAX bytes (the
 * last ones): the guest wrote it, so it is read bounded, and opened
 * without blocking, a regular file only (a FIFO would hang the bot).
 * A file smaller than from was rotated: all of it is the new boot's.
 */
#define CONSOLE_MAX (4 << 20)
static int read_console_file(const char *path, off_t from, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	char buf[65536];
	struct stat st;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (from > st.st_size)
		from = 0;
	if (st.st_size - from > CONSOLE_MAX)
		from = st.st_size - CONSOLE_MAX;
	if (lseek(fd, from, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	while (sb->len < CONSOLE_MAX) {
		size_t want = CONSOLE_MAX - sb->len;

		n = read(fd, buf, want < sizeof(buf) ? want : sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(sb, buf, n);
	}
	close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * The console lines of the boot that failed, when target.NAME.console
 * says how to read them: a file (from the offset noted before the
 * kexec) or a command run here.  They go to res (the tail, and the
 * status when the kernel panicked) and to console.log in the workdir.
 */
static void read_console(const char *name, off_t from,
			 const struct boot_req *req, struct boot_res *res)
{
	const char *spec = target_cfg(name, "console", NULL);
	struct strbuf sb = STRBUF_INIT, tail = STRBUF_INIT;

	if (!spec)
		return;
	if (spec[0] == '/') {
		if (read_console_file(spec, from, &sb) < 0) {
			warning("cannot read the console %s: %s", spec,
				errno == EINVAL ? "not a regular file" :
				strerror(errno));
			goto out;
		}
	} else {
		const char *argv[] = { "sh", "-c", spec, NULL };
		struct subproc p = { .argv = argv, .stdin_fd = -1,
				     .log_fd = -1, .capture = &sb,
				     .capture_max = CONSOLE_MAX, .timeout = 60 };

		if (subproc_run(&p))
			warning("the console command of %s failed", name);
	}
	if (req->workdir) {
		char *path = xasprintf("%s/console.log", req->workdir);

		if (mkdir_p(req->workdir, 0755) < 0 ||
		    write_file_atomic(path, sb.buf, sb.len) < 0)
			warning("cannot write %s", path);
		free(res->console);
		res->console = path;
	}
	console_tail(sb.buf, sb.len, 40, &tail);
	free(res->last_lines);
	res->last_lines = strbuf_detach(&tail, NULL);
	if (strstr(sb.buf, "Kernel panic"))
		res->status = CONSOLE_PANIC;
out:
	strbuf_release(&sb);
	strbuf_release(&tail);
}

/*
 * The machine back on its default kernel (the command line noted
 * before, in a boot other than the one it left), by powerCommand: 0;
 * else it is marked unhealthy and gets no more runs.
 */
static int power_cycle(struct ssh *s, const struct boot_seen *own,
		       const char *why)
{
	const char *power = target_cfg(s->name, "powerCommand", NULL);
	double wait = target_cfg_int(s->name, "bootTimeout", 300);
	struct boot_seen b;
	char *mark;

	if (power) {
		const char *argv[] = { "sh", "-c", power, NULL };
		struct subproc p = { .argv = argv, .stdin_fd = -1,
				     .log_fd = -1, .timeout = 120 };
		int rc;

		info("%s: power-cycling %s: %s", s->name, s->dest, why);
		rc = subproc_run(&p);
		if (rc)
			warning("powerCommand of %s exited with %d", s->name,
				rc);
		if (!wait_boot(s, own->id, own->cmdline, wait, -1, &b)) {
			info("%s is back on its default kernel", s->dest);
			boot_seen_release(&b);
			return 0;
		}
	}
	mark = xasprintf("%s; %s", why, power ? "it did not come back on its default kernel after powerCommand" :
			 "no target.NAME.powerCommand to power-cycle it");
	target_mark_unhealthy(s->name, mark);
	error("%s is marked unhealthy: %s", s->name, mark);
	free(mark);
	return -1;
}

/*
 * Boot req->kernel with its token on the command line and prove that
 * it runs: a new boot id, the token in /proc/cmdline, the release.
 * 0: it runs; 1: it failed, res says how, and the machine is back on
 * its default kernel (or marked unhealthy); 2: up, but not the release
 * built (restore it); -1: a setup error (printed).
 */
static int boot_kernel(struct ssh *s, const struct boot_req *req,
		       const char *rdir, const struct boot_seen *own,
		       const char *token, struct boot_res *res)
{
	char *rk = xasprintf("%s/bzImage", rdir), *cmd, *cmdline;
	double wait = target_cfg_int(s->name, "bootTimeout", 300);
	double start;
	struct boot_seen b;
	off_t mark;
	int ret = -1, rc;

	if (ssh_copy(s, req->kernel, rk) < 0)
		goto out;
	cmdline = kexec_cmdline(s->name, own->cmdline, req->append, token);
	cmd = expand(s->name, target_cfg(s->name, "bootCommand",
		     "kexec -l {kernel}{initrd} --command-line={cmdline} && { sleep 1; kexec -e; } >/dev/null 2>&1 </dev/null &"),
		     rk, cmdline);
	free(cmdline);
	mark = console_mark(s->name);
	start = now_monotonic();
	/* The connection may die with the old kernel (ssh says 255, or the
	 * timeout): no verdict then.  Any other failure is the command's,
	 * on the machine's own kernel still (kexec missing, a bad image).
	 */
	rc = ssh_run(s, cmd, -1, 60, NULL);
	free(cmd);
	if (rc > 0 && rc != 255) {
		res->status = CONSOLE_ERROR;
		res->reason = xasprintf("the boot command failed on %s (exit %d)",
					s->dest, rc);
		ret = 1;
		goto out;
	}
	rc = wait_boot(s, own->id, NULL, wait, mark, &b);
	if (rc) {
		res->status = CONSOLE_TIMEOUT;
		res->reason = rc == -2 ?
			xasprintf("%s did not come back: its console shows a kernel panic %.0fs after the boot (not waiting out bootTimeout)",
				  s->dest,
				  now_monotonic() - start) :
			xasprintf("%s did not come back within %.0fs after booting the kernel",
				  s->dest, wait);
		read_console(s->name, mark, req, res);
		ret = 1;
		power_cycle(s, own, "the kernel under test did not come up");
		goto out;
	}
	res->boot_seconds = now_monotonic() - start;
	if (!has_word(b.cmdline, token)) {
		int own_again = !strcmp(b.cmdline, own->cmdline);

		res->status = CONSOLE_NO_INIT;
		res->reason = xasprintf("%s came back without %s in /proc/cmdline%s: the kernel under test did not stay up",
					s->dest, token,
					own_again ? " (on its default kernel)" :
					"");
		read_console(s->name, mark, req, res);
		if (!own_again)
			power_cycle(s, own, "it runs neither the kernel under test nor its default");
		boot_seen_release(&b);
		ret = 1;
		goto out;
	}
	if (req->release && strcmp(b.release, req->release)) {
		res->status = CONSOLE_NO_INIT;
		res->reason = xasprintf("%s runs %s, not the kernel built (%s): the boot did not take",
					s->dest,
					b.release, req->release);
		boot_seen_release(&b);
		ret = 2;
		goto out;
	}
	info("%s runs %s (%s), up in %.1fs", s->dest, b.release, token,
	     res->boot_seconds);
	boot_seen_release(&b);
	ret = 0;
out:
	free(rk);
	return ret;
}

/* restoreCommand, then the default kernel proved back; else power. */
static void restore(struct ssh *s, const struct boot_seen *own)
{
	double wait = target_cfg_int(s->name, "bootTimeout", 300);
	struct boot_seen now, b;

	if (remote_boot(s, 30, &now) < 0) {
		power_cycle(s, own, "it did not answer after the run");
		return;
	}
	ssh_run(s, target_cfg(s->name, "restoreCommand", "reboot"), -1, 60,
		NULL);
	if (!wait_boot(s, now.id, own->cmdline, wait, -1, &b)) {
		debug("%s is back on its default kernel", s->dest);
		boot_seen_release(&b);
	} else {
		power_cycle(s, own, "restoreCommand did not bring back its default kernel");
	}
	boot_seen_release(&now);
}

/* The remote's own tool, if it runs: its path, else NULL. */
static char *remote_tool(struct ssh *s, const struct workload *t)
{
	struct strbuf out = STRBUF_INIT, cmd = STRBUF_INIT;

	/* Debian's perf is a wrapper that fails on a kernel it has no
	 * perf_<version> for: ask it, not only PATH.
	 */
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
 * neither side has it.  shipTools: auto, always, never.
 */
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
	char *rbench = NULL, *cmd = NULL, **cmds = NULL, *why;
	char *helper = NULL, *rhelper = NULL, *token = NULL;
	struct boot_seen own = { 0 };
	double start = now_monotonic(), timeout;
	struct ssh s;
	int rc, ret = -1, booted = 0, failed;
	size_t i;

	if (ssh_setup(&s, name) < 0)
		return -1;
	if (remote_boot(&s, 30, &own) < 0) {
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
		token = build_token(req->kernel);
		if (!token)
			goto out;
		ret = boot_kernel(&s, req, rdir, &own, token, res);
		/* 2: up, but not the release built */
		booted = !ret || ret == 2;
		if (ret)
			goto out;
		ret = -1;
		/* a new boot: its /tmp may be empty */
		if (ssh_run(&s, cmd, -1, 60, NULL)) {
			error("cannot create %s on %s", rdir, s.dest);
			goto out;
		}
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
	 * loader shipped with it (sched-bench finds it in the environment).
	 */
	for (i = 0; i < ctx->workloads.nr; i++)
		if (!strcmp(ctx->workloads.v[i], "spawn"))
			break;
	if (i < ctx->workloads.nr)
		helper = target_spawn_helper(ctx->sched_bench);
	if (helper && strpbrk(rdir, ", \t"))
		warning("remoteDir '%s' cannot hold sched-bench-spawn: spawn forks from sched-bench itself",
			rdir);
	else if (helper) {
		rhelper = ship_tool(&s, helper, rdir, "spawn");
		if (!rhelper)
			goto out;
	}
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
	timeout = target_cfg_int(name, "timeout", target_ssh_ops.run_budget);
	/* the run's answer is the kernel's console: its budget */
	s.out_max = target_console_max(name);
	rc = ssh_run(&s, cmdline.buf, -1, timeout, &out);
	s.out_max = SSH_ANSWER_MAX;
	res->seconds = now_monotonic() - start;
	res->console = NULL;
	ret = target_finish(ctx, req, out.buf, out.len,
			    rc == SUBPROC_TIMEOUT, res);
	if (rc == SUBPROC_CUT)
		target_console_cut(name, res, -1);
	/* The release is the same for base and patched: the rows say
	 * which build ran, as proved by /proc/cmdline.
	 */
	if (token) {
		for (i = 0; i < res->samples.nr; i++) {
			char *k = res->samples.v[i].kernel;

			res->samples.v[i].kernel = xasprintf("%s %s",
							     k ? k : "", token);
			free(k);
		}
		why = res->kernel;
		res->kernel = xasprintf("%s %s", why ? why : "", token);
		free(why);
	}
out:
	if (booted)
		restore(&s, &own);
	ssh_release(&s);
	strbuf_release(&cmdline);
	strbuf_release(&out);
	target_words_release(&args);
	target_cmds_free(ctx, cmds);
	free(rbench);
	free(helper);
	free(rhelper);
	free(token);
	boot_seen_release(&own);
	free(cmd);
	return ret;
}

/*
 * ---- the machine's own kernel config ----
 *
 * /proc/config.gz (IKCONFIG_PROC), else /boot/config-$(uname -r), the
 * file Debian and most distributions install.  What comes back is the
 * machine's, so it is read bounded, inflated bounded, and must be a
 * kernel config: text, with CONFIG_ lines.  The release it runs comes
 * first (uname -r): the reply names the machine's kernel by it.
 */
#define OWN_CONFIG_WHICH \
	"uname -r; if [ -r /proc/config.gz ]; then echo /proc/config.gz; " \
	"elif [ -r \"/boot/config-$(uname -r)\" ]; then " \
	"echo \"/boot/config-$(uname -r)\"; fi"

/* A path the remote shell named: one of the two forms, nothing else. */
static int own_config_path_ok(const char *p)
{
	if (!strcmp(p, "/proc/config.gz"))
		return 1;
	if (!starts_with(p, "/boot/config-") || strstr(p, ".."))
		return 0;
	for (p += strlen("/boot/config-"); *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-~", *p))
			return 0;
	return 1;
}

static int own_config_check(const struct strbuf *cfg, const char *what)
{
	if (memchr(cfg->buf, 0, cfg->len))
		return error("%s is not a kernel config: binary data", what);
	if (!starts_with(cfg->buf, "CONFIG_") && !strstr(cfg->buf, "\nCONFIG_"))
		return error("%s is not a kernel config: no CONFIG_ line",
			     what);
	return 0;
}

/* uname -r as the machine said it: one plain word, else nothing */
static char *own_release(const char *s, size_t len)
{
	size_t i;

	if (!len || len > 64)
		return NULL;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._+-~", s[i]))
			return NULL;
	return xstrndup(s, len);
}

static int ssh_own_config(const char *name, struct strbuf *cfg,
			  char **origin, char **release)
{
	char *rel = NULL;
	const char *path, *nl;
	struct strbuf out = STRBUF_INIT, gz = STRBUF_INIT;
	struct ssh s;
	char *what = NULL;
	const char *why;
	int ret = -1, rc;

	if (ssh_setup(&s, name) < 0)
		return -1;
	s.out_max = 4096;
	rc = ssh_run(&s, OWN_CONFIG_WHICH, -1, 60, &out);
	strbuf_trim(&out);
	nl = strchr(out.buf, '\n');
	if (nl)
		rel = own_release(out.buf, nl - out.buf);
	path = nl ? nl + 1 : "";
	if (rc || !*path || out.len >= 4096) {
		error("target %s: %s", name, rc ? "ssh failed" :
		      "neither /proc/config.gz nor /boot/config-$(uname -r) is there: build the machine's kernel with CONFIG_IKCONFIG_PROC, or set baseConfig to a file");
		goto out;
	}
	if (!own_config_path_ok(path)) {
		error("target %s named an odd config path: %.80s", name,
		      path);
		goto out;
	}
	what = xasprintf("%s on %s", path, s.dest);
	strbuf_reset(&gz);
	strbuf_addstr(&gz, "cat ");
	add_quoted(&gz, path);
	strbuf_reset(&out);
	/* a gzip'ed config is a tenth of the text: the same bound holds */
	s.out_max = BUILD_MAX_CONFIG + 1;
	rc = ssh_run(&s, gz.buf, -1, 60, &out);
	if (rc || out.len > BUILD_MAX_CONFIG) {
		error("target %s: cannot read %s%s", name, what,
		      rc == SUBPROC_CUT ? ": over 4 MiB" : "");
		goto out;
	}
	strbuf_reset(cfg);
	if (out.len >= 2 && (unsigned char)out.buf[0] == 0x1f &&
	    (unsigned char)out.buf[1] == 0x8b) {
		if (gunzip_mem(out.buf, out.len, BUILD_MAX_CONFIG, cfg,
			       &why)) {
			error("target %s: %s: %s", name, what, why);
			goto out;
		}
	} else {
		strbuf_add(cfg, out.buf, out.len);
	}
	if (own_config_check(cfg, what) < 0)
		goto out;
	*origin = what;
	what = NULL;
	*release = rel;
	rel = NULL;
	ret = 0;
out:
	free(what);
	free(rel);
	strbuf_release(&out);
	strbuf_release(&gz);
	ssh_release(&s);
	return ret;
}

/* sched-bench health on the machine as it runs, copied there first. */
static int ssh_health(const struct target_ctx *ctx, const char *args,
		      struct strbuf *out)
{
	const char *rdir = target_cfg(ctx->name, "remoteDir", "/tmp/sched-bot");
	struct strbuf cmd = STRBUF_INIT;
	char *rbench = xasprintf("%s/sched-bench", rdir);
	struct ssh s;
	int ret = -1, rc;

	if (ssh_setup(&s, ctx->name) < 0) {
		free(rbench);
		return -1;
	}
	/* the machine writes it: the records are a few lines */
	s.out_max = 1 << 20;
	strbuf_addstr(&cmd, "mkdir -p ");
	add_quoted(&cmd, rdir);
	if (ssh_run(&s, cmd.buf, -1, 60, NULL)) {
		error("cannot reach %s over ssh or create %s there", s.dest,
		      rdir);
		goto out;
	}
	if (ssh_copy(&s, ctx->sched_bench, rbench) < 0)
		goto out;
	strbuf_reset(&cmd);
	add_quoted(&cmd, rbench);
	strbuf_addf(&cmd, " health %s", args);
	rc = ssh_run(&s, cmd.buf, -1, 120, out);
	if (rc)
		error("sched-bench health failed on %s (%d)", s.dest, rc);
	else
		ret = 0;
out:
	ssh_release(&s);
	strbuf_release(&cmd);
	free(rbench);
	return ret;
}

/* A machine of its own, booted with the kernel under test. */
static int ssh_vouches(const char *name)
{
	(void)name;
	return 1;
}

const struct target_ops target_ssh_ops = {
	.type = "ssh",
	.describe = "a machine over ssh, booting the kernel with kexec",
	.traits = TARGET_MACHINE,
	.run_budget = 600,
	.boot_run = ssh_boot_run,
	.own_config = ssh_own_config,
	/* booted with kexec (bootCommand) */
	.own_fragments = "machine.config kexec.config",
	.health = ssh_health,
	.vouches = ssh_vouches,
};
