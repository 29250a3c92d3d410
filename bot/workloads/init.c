// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - PID 1 of the QEMU initramfs sched-bot builds.
 *
 * It mounts what the workloads and the environment record read (proc,
 * sys, devtmpfs, debugfs, cgroup2), takes its orders from the kernel
 * command line (sb.workloads=spawn,pingpong sb.runs=3 sb.t=5
 * sb.autogroup=0|1 sb.cgroup=root|new sb.<workload>=extra,args, the
 * cells of one workload split at '+': sb.spawn=-c,8,--autogroup,on+-c,
 * 8,--cgroup,new runs spawn in both cells each run), runs
 * the workloads in-process (a fork per run, its stdout and stderr read
 * through pipes), prints everything framed on the console and powers
 * off.
 *
 * sb.perf=/path/perf runs every run under `perf stat -x,` (a built-in
 * workload as this program again), its counts framed as PERF lines; a
 * perf that cannot count here is left out after one probe.
 *
 * sb.profile=/path/perf,<workload>,... profiles each cell of those
 * workloads once more after the measured runs, under `perf record -g`
 * (cycles where the kernel has a PMU, else the software cpu-clock, as
 * under QEMU TCG), and frames what `perf report --no-children` and
 * `--children` say of it as PROF lines, a bounded number of them.
 *
 * sb.exec.<name>=/path/prog,arg,arg makes <name> a workload that runs
 * that program (hackbench, perf bench: the host packs them with their
 * libraries into the initramfs, or copies them to an ssh target).  Its
 * run frames the env records first, as sched-bench's own workloads
 * print them, then the program's output, then a STAT frame with the
 * wall time and the machine's CPU split over the run; the host parses
 * the output with the same code as on the local target.
 *
 * The frame format is described in bot/target/console.h; the host
 * parses it.  Run by hand (`sched-bench init sb.workloads=spawn ...`)
 * it does the same without mounting or powering off, which is how tests
 * check the frames without a VM.
 *
 * Dotted kernel parameters are not passed to init (the kernel takes
 * them for module parameters), so PID 1 reads /proc/cmdline itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define MAX_WORKLOADS 16
#define MAX_ARGS 32
#define LINE_MAX_FRAME 2000

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} workloads[] = {
	{ "spawn", bench_spawn },
	{ "pingpong", bench_pingpong },
	{ "env", bench_env },
};

#define NR_BUILTIN ((int)ARRAY_SIZE(workloads))

/* sb.exec.<name>=prog,arg,...: a program run as a workload. */
struct exec_workload {
	const char *name;
	const char *cmd;
};

struct init_opts {
	char *workloads[MAX_WORKLOADS];
	int nr_workloads;
	int runs;
	int seconds;
	int autogroup;		/* -1: leave */
	char cgroup[64];
	char *extra[MAX_WORKLOADS];	/* sb.<workload>=a,b */
	struct exec_workload execs[MAX_WORKLOADS];
	int nr_execs;
	const char *perf;	/* sb.perf: perf stat around each run */
	const char *gap;	/* sb.gap: spawn's --gap, unless its cell says */
	const char *warmup;	/* sb.warmup: pingpong's --warmup, likewise */
	int perf_all;		/* perf stat -a: it may count every CPU */
	char *profile[MAX_WORKLOADS];	/* sb.profile: perf, workloads */
	int nr_profile;
};

static unsigned long seq;

/* zlib's CRC-32 (reflected 0xEDB88320), bit by bit: libc only. */
static unsigned long crc32_update(unsigned long crc, const char *p, size_t n)
{
	int k;

	crc = ~crc & 0xffffffffUL;
	while (n--) {
		crc ^= (unsigned char)*p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320UL & -(crc & 1));
	}
	return ~crc & 0xffffffffUL;
}

static void write_line(const char *buf, size_t len)
{
	ssize_t w;

	/* One write per line: the kernel's own lines can then only land
	 * between ours, or be caught by the crc.
	 */
	while (len) {
		w = write(1, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		len -= w;
	}
}

static void frame(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void frame(const char *fmt, ...)
{
	char body[LINE_MAX_FRAME + 64], line[sizeof(body) + 32];
	va_list ap;
	int n, m;

	n = snprintf(body, sizeof(body), "%lu ", ++seq);
	va_start(ap, fmt);
	vsnprintf(body + n, sizeof(body) - n, fmt, ap);
	va_end(ap);
	/* Only printable text goes on the wire. */
	for (m = n; body[m]; m++)
		if ((unsigned char)body[m] < 0x20 || body[m] == 0x7f)
			body[m] = '?';
	m = snprintf(line, sizeof(line), "@@SB %lu %08lx %s\n", seq,
		     crc32_update(0, body, strlen(body)), body + n);
	write_line(line, m);
}

static void parse_word(struct init_opts *o, char *w)
{
	char *v = strchr(w, '='), *s, *save;
	size_t i;

	if (!v || strncmp(w, "sb.", 3))
		return;
	*v++ = 0;
	w += 3;
	if (!strcmp(w, "workloads")) {
		o->nr_workloads = 0;
		for (s = strtok_r(v, ",", &save);
		     s && o->nr_workloads < MAX_WORKLOADS;
		     s = strtok_r(NULL, ",", &save))
			o->workloads[o->nr_workloads++] = s;
	} else if (!strcmp(w, "runs")) {
		o->runs = atoi(v);
	} else if (!strcmp(w, "t")) {
		o->seconds = atoi(v);
	} else if (!strcmp(w, "autogroup")) {
		o->autogroup = atoi(v);
	} else if (!strcmp(w, "perf")) {
		o->perf = *v ? v : NULL;
	} else if (!strcmp(w, "gap")) {
		o->gap = *v ? v : NULL;
	} else if (!strcmp(w, "warmup")) {
		o->warmup = *v ? v : NULL;
	} else if (!strcmp(w, "profile")) {
		o->nr_profile = 0;
		for (s = strtok_r(v, ",", &save);
		     s && o->nr_profile < MAX_WORKLOADS;
		     s = strtok_r(NULL, ",", &save))
			o->profile[o->nr_profile++] = s;
	} else if (!strcmp(w, "cgroup")) {
		snprintf(o->cgroup, sizeof(o->cgroup), "%s", v);
	} else if (!strncmp(w, "exec.", 5) && w[5]) {
		for (i = 0; i < (size_t)o->nr_execs; i++)
			if (!strcmp(o->execs[i].name, w + 5))
				break;
		if (i == (size_t)o->nr_execs && o->nr_execs < MAX_WORKLOADS)
			o->nr_execs++;
		if (i < (size_t)o->nr_execs) {
			o->execs[i].name = w + 5;
			o->execs[i].cmd = v;
		}
	} else {
		for (i = 0; i < ARRAY_SIZE(workloads); i++)
			if (!strcmp(w, workloads[i].name))
				o->extra[i] = v;
	}
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

static void read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

static void setup_pid1(void)
{
	static const struct {
		const char *src, *dir, *type;
	} m[] = {
		{ "proc", "/proc", "proc" },
		{ "sysfs", "/sys", "sysfs" },
		{ "devtmpfs", "/dev", "devtmpfs" },
		{ "debugfs", "/sys/kernel/debug", "debugfs" },
		{ "cgroup2", "/sys/fs/cgroup", "cgroup2" },
		{ "tmpfs", "/tmp", "tmpfs" },
	};
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mkdir(m[i].dir, 0755);
		mount(m[i].src, m[i].dir, m[i].type, 0, NULL);
	}
	/* The console might not have been there before devtmpfs. */
	fd = open("/dev/console", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	/* Keep kernel chatter off the console we print results on. */
	write_str("/proc/sys/kernel/printk", "1");
	/*
	 * The schedstat counters (wake-ups, load balancing) count only when
	 * asked: the runs record them beside their results.  Absent
	 * without CONFIG_SCHEDSTATS, and then the runs record none.
	 */
	write_str("/proc/sys/kernel/sched_schedstats", "1");
}

/* "new": a cpu cgroup of its own, as sched-bench --cgroup new makes. */
static int enter_cgroup(const char *how)
{
	const char *name = "sched-bench";
	char path[160], pid[32];

	if (!how[0] || !strcmp(how, "root"))
		return 0;
	if (strcmp(how, "new")) {
		errno = EINVAL;
		return -1;
	}
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+cpu");
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s", name);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/cgroup.procs", name);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_str(path, pid);
}

/* Frame a pipe's complete lines with tag; keep a partial line. */
static int pump(int fd, const char *tag, char *buf, size_t *len, size_t cap)
{
	ssize_t n = read(fd, buf + *len, cap - *len - 1);
	char *s, *nl;

	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0) {
		if (*len) {
			buf[*len] = 0;
			frame("%s %s", tag, buf);
			*len = 0;
		}
		return 0;
	}
	*len += n;
	buf[*len] = 0;
	for (s = buf; (nl = strchr(s, '\n')); s = nl + 1) {
		*nl = 0;
		frame("%s %s", tag, s);
	}
	*len -= s - buf;
	memmove(buf, s, *len);
	/* A line longer than the buffer goes out in pieces. */
	if (*len >= cap - 1) {
		buf[*len] = 0;
		frame("%s %s", tag, buf);
		*len = 0;
	}
	return 1;
}

/* What a forked child does; its return value is its exit code. */
struct child {
	int (*fn)(struct child *c);
	int argc;
	char **argv;
	int builtin;		/* index into workloads[], or -1 */
	const char *perf;	/* perf stat around it, its counts on fd 3 */
	int perf_all;		/* system-wide (-a) rather than inherited */
	int probe;		/* perf_works(): no fallback without perf */
};

static int builtin_child(struct child *c)
{
	return workloads[c->builtin].fn(c->argc, c->argv);
}

static int env_child(struct child *c)
{
	env_print(NULL);
	return 0;
}

static int exec_child(struct child *c)
{
	execv(c->argv[0], c->argv);
	fprintf(stderr, "cannot run %s: %s\n", c->argv[0], strerror(errno));
	return 127;
}

/*
 * The events perf stat counts around a run: the scheduler's software
 * events always, the PMU's where there is one (a guest without a vPMU
 * says <not supported>, and those rows are left out).
 */
#define PERF_EVENTS "context-switches,cpu-migrations,task-clock,cycles," \
		    "instructions"

/*
 * perf stat, counting c's program and every child it forks (inherit),
 * its counts as CSV on fd 3 for the PERF frames; a built-in workload
 * runs as this program again ("sched-bench spawn ..."), which perf's
 * exec reaches by our own path, not /proc/self/exe (perf's by then).
 */
static int perf_child(struct child *c)
{
	static char self[512];
	char *argv[MAX_ARGS + 12];
	ssize_t n;
	int i, argc = 0;

	argv[argc++] = (char *)c->perf;
	argv[argc++] = "stat";
	if (c->perf_all)
		argv[argc++] = "-a";
	argv[argc++] = "-x,";
	argv[argc++] = "--log-fd";
	argv[argc++] = "3";
	argv[argc++] = "-e";
	argv[argc++] = PERF_EVENTS;
	argv[argc++] = "--";
	if (c->builtin >= 0) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0) {
			fprintf(stderr, "cannot find sched-bench: %s\n",
				strerror(errno));
			return 127;
		}
		self[n] = 0;
		argv[argc++] = self;
	}
	for (i = 0; i < c->argc && argc < MAX_ARGS + 11; i++)
		argv[argc++] = c->argv[i];
	argv[argc] = NULL;
	execv(c->perf, argv);
	if (c->probe)
		return 127;
	/* the run goes on without perf: its numbers are the point */
	fprintf(stderr, "cannot run %s: %s\n", c->perf, strerror(errno));
	return c->builtin >= 0 ? c->fn(c) : exec_child(c);
}

/*
 * Fork c, frame its stdout and stderr as OUT and ERR lines (and with
 * c->perf, run it under perf stat, whose counts on fd 3 become PERF
 * lines); its exit status (128 + signal when killed), or -1 after an
 * ERR frame.
 */
static int run_child(struct child *c)
{
	static char obuf[LINE_MAX_FRAME], ebuf[LINE_MAX_FRAME];
	static char pbuf[LINE_MAX_FRAME];
	int out[2], err[2], pf[2] = { -1, -1 }, status = 0, open_fds = 2;
	size_t olen = 0, elen = 0, plen = 0;
	pid_t pid;

	if (c->perf && pipe(pf) == 0)
		open_fds++;
	else if (c->perf)
		frame("ERR perf: pipe: %s", strerror(errno));
	if (pipe(out) < 0 || pipe(err) < 0) {
		frame("ERR pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		frame("ERR fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		/* Its own session: its own autogroup, like a login shell. */
		setsid();
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		close(out[1]);
		close(err[1]);
		if (pf[1] >= 0) {
			dup2(pf[1], 3);
			if (pf[0] != 3)
				close(pf[0]);
			if (pf[1] != 3)
				close(pf[1]);
			exit(perf_child(c));
		}
		exit(c->fn(c));
	}
	close(out[1]);
	close(err[1]);
	if (pf[1] >= 0)
		close(pf[1]);
	while (open_fds) {
		struct pollfd p[3] = {
			{ .fd = out[0], .events = POLLIN },
			{ .fd = err[0], .events = POLLIN },
			{ .fd = pf[0], .events = POLLIN },
		};

		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents && p[0].fd >= 0 &&
		    !pump(out[0], "OUT", obuf, &olen, sizeof(obuf))) {
			close(out[0]);
			out[0] = -1;
			open_fds--;
		}
		if (p[1].revents && p[1].fd >= 0 &&
		    !pump(err[0], "ERR", ebuf, &elen, sizeof(ebuf))) {
			close(err[0]);
			err[0] = -1;
			open_fds--;
		}
		if (p[2].revents && p[2].fd >= 0 &&
		    !pump(pf[0], "PERF", pbuf, &plen, sizeof(pbuf))) {
			close(pf[0]);
			pf[0] = -1;
			open_fds--;
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status)
				 : 128 + WTERMSIG(status);
}

static int read_cpu(struct cpu_times *t)
{
	static char buf[8192];

	if (procstat_read("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	return procstat_parse_cpu(buf, t);
}

/* A program from sb.exec: the env records, then the timed run alone. */
static int run_exec(struct child *c)
{
	struct child env = { .fn = env_child, .builtin = -1 };
	struct cpu_times c0, c1;
	struct cpu_util u;
	int have_cpu, status;
	double t0, wall;

	run_child(&env);
	c->fn = exec_child;
	have_cpu = !read_cpu(&c0);
	t0 = bench_now();
	status = run_child(c);
	wall = bench_now() - t0;
	have_cpu = have_cpu && !read_cpu(&c1) && !procstat_util(&c0, &c1, &u);
	if (status < 0)
		return status;
	if (have_cpu)
		frame("STAT wall_s=%.6f cpu_usr=%.2f cpu_sys=%.2f cpu_idle=%.2f cpu_iowait=%.2f cpu_softirq=%.2f",
		      wall,
		      u.usr, u.sys, u.idle, u.iowait, u.softirq);
	else
		frame("STAT wall_s=%.6f", wall);
	return status;
}

/* The cells of a workload: sb.spawn=a,b+c,d runs "a b" and "c d". */
static int nr_cells(int idx, const struct init_opts *o)
{
	const char *p = idx < NR_BUILTIN ? o->extra[idx] : NULL;
	int n = 1;

	for (; p && *p; p++)
		n += *p == '+';
	return n;
}

/* The extra words of cell k of a workload's sb.<workload>= into buf. */
static void cell_words(const char *extra, int k, char *buf, size_t size)
{
	const char *p = extra;
	size_t n;

	for (; k > 0 && p; k--) {
		p = strchr(p, '+');
		p = p ? p + 1 : NULL;
	}
	n = p ? strcspn(p, "+") : 0;
	if (n >= size)
		n = size - 1;
	memcpy(buf, p ? p : "", n);
	buf[n] = 0;
}

/* The command line of one run of a workload: its argv, its buffers. */
struct cmd {
	char *argv[MAX_ARGS];
	int argc;
	const char *name;
	int exec;		/* an sb.exec program, not a built-in */
	char cmdbuf[LINE_MAX_FRAME], secs[16], runbuf[16], argbuf[256];
};

/* Cell number cell of run number run of workload idx, as c's argv. */
static void cmd_of(int idx, int run, int cell, const struct init_opts *o,
		   struct cmd *c)
{
	char *s, *save;

	c->argc = 0;
	c->exec = idx >= NR_BUILTIN;
	if (c->exec) {
		const struct exec_workload *e = &o->execs[idx - NR_BUILTIN];

		c->name = e->name;
		snprintf(c->cmdbuf, sizeof(c->cmdbuf), "%s", e->cmd);
		for (s = strtok_r(c->cmdbuf, ",", &save);
		     s && c->argc < MAX_ARGS - 1;
		     s = strtok_r(NULL, ",", &save))
			c->argv[c->argc++] = s;
		c->argv[c->argc] = NULL;
		return;
	}
	c->name = workloads[idx].name;
	c->argv[c->argc++] = (char *)c->name;
	if (strcmp(c->name, "env") && o->seconds > 0) {
		snprintf(c->secs, sizeof(c->secs), "%d", o->seconds);
		c->argv[c->argc++] = "-t";
		c->argv[c->argc++] = c->secs;
	}
	if (strcmp(c->name, "env")) {
		/* Records carry the run number: rows keep it. */
		snprintf(c->runbuf, sizeof(c->runbuf), "%d", run);
		c->argv[c->argc++] = "--run";
		c->argv[c->argc++] = c->runbuf;
	}
	if (o->extra[idx]) {
		cell_words(o->extra[idx], cell, c->argbuf, sizeof(c->argbuf));
		for (s = strtok_r(c->argbuf, ",", &save);
		     s && c->argc < MAX_ARGS - 1;
		     s = strtok_r(NULL, ",", &save))
			c->argv[c->argc++] = s;
	}
	/* the job's gap, where the plan's cell does not name one */
	if (o->gap && !strcmp(c->name, "spawn") && c->argc < MAX_ARGS - 2 &&
	    (!o->extra[idx] || !strstr(o->extra[idx], "--gap"))) {
		c->argv[c->argc++] = "--gap";
		c->argv[c->argc++] = (char *)o->gap;
	}
	/* the job's warm-up likewise, for pingpong */
	if (o->warmup && !strcmp(c->name, "pingpong") &&
	    c->argc < MAX_ARGS - 2 &&
	    (!o->extra[idx] || !strstr(o->extra[idx], "--warmup"))) {
		c->argv[c->argc++] = "--warmup";
		c->argv[c->argc++] = (char *)o->warmup;
	}
	c->argv[c->argc] = NULL;
}

static int run_one(int idx, int run, int cell, const struct init_opts *o)
{
	static struct cmd cmd;
	char argline[512];
	struct child c = { .fn = builtin_child, .builtin = idx };
	int status, i;

	cmd_of(idx, run, cell, o, &cmd);
	if (cmd.exec)
		c.builtin = -1;
	argline[0] = 0;
	/* A program's RUN frame shows its whole command line. */
	for (i = cmd.exec ? 0 : 1; i < cmd.argc; i++)
		snprintf(argline + strlen(argline),
			 sizeof(argline) - strlen(argline), " %s",
			 cmd.argv[i]);
	frame("RUN %s %d%s", cmd.name, run, argline);
	c.argc = cmd.argc;
	c.argv = cmd.argv;
	if (strcmp(cmd.name, "env"))
		c.perf = o->perf;
	c.perf_all = o->perf_all;
	if (!cmd.argc) {
		frame("ERR sb.exec.%s names no program", cmd.name);
		status = -1;
	} else {
		status = cmd.exec ? run_exec(&c) : run_child(&c);
	}
	if (status < 0)
		status = 1;
	frame("RC %d", status);
	return status;
}

/* ---- the profile of a workload (sb.profile) ---- */

static int find_workload(const struct init_opts *o, const char *name);

/* What of a profile goes on the console: the top lines of each report. */
#define PROFILE_LINES 40
/* where perf record writes: /tmp (a tmpfs in the guest), ours alone */
static char profile_file[64];

/* Run argv with stdout on out_fd (or /dev/null) and no stderr; status. */
static int spawn_quiet(char **argv, int out_fd, pid_t *pidp)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC), status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		if (null >= 0)
			close(null);
		return -1;
	}
	if (!pid) {
		setsid();
		if (null >= 0) {
			dup2(null, 0);
			dup2(out_fd >= 0 ? out_fd : null, 1);
			dup2(null, 2);
		}
		/* perf keeps its build-id cache and config under $HOME */
		setenv("HOME", "/tmp", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (null >= 0)
		close(null);
	if (pidp) {
		*pidp = pid;
		return 0;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * perf record of one cell of workload idx: system-wide where perf may
 * in a guest of our own (pid1), else its tasks (on a machine run as it
 * is, the other processes' functions are none of the profile's, and
 * perf report would read every one's symbols); 0 when profile_file
 * holds samples.
 */
static int profile_record(const char *perf, const char *event, int idx,
			  int cell, const struct init_opts *o, int pid1,
			  int *all)
{
	static struct cmd cmd;
	static char self[512];
	char *argv[MAX_ARGS + 16];
	struct stat st;
	int argc, i, rc = -1;
	ssize_t n;

	cmd_of(idx, 1, cell, o, &cmd);
	if (!cmd.argc)
		return -1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	for (*all = !!pid1; *all >= 0 && rc; (*all)--) {
		argc = 0;
		argv[argc++] = (char *)perf;
		argv[argc++] = "record";
		argv[argc++] = "-e";
		argv[argc++] = (char *)event;
		argv[argc++] = "-F";
		argv[argc++] = "1000";
		argv[argc++] = "-g";
		argv[argc++] = "-N";	/* no build-id cache to write */
		argv[argc++] = "-q";
		argv[argc++] = "-o";
		argv[argc++] = profile_file;
		if (*all)
			argv[argc++] = "-a";
		argv[argc++] = "--";
		if (!cmd.exec)
			argv[argc++] = self;
		for (i = 0; i < cmd.argc; i++)
			argv[argc++] = cmd.argv[i];
		argv[argc] = NULL;
		unlink(profile_file);
		spawn_quiet(argv, -1, NULL);
		/* the workload's own exit code is not the profile's */
		rc = stat(profile_file, &st) || st.st_size <= 0 ? -1 : 0;
	}
	(*all)++;
	return rc;
}

/* perf report of profile_file, its first lines framed "PROF kind ...". */
static void profile_report(const char *perf, const char *kind)
{
	static char buf[LINE_MAX_FRAME];
	char *argv[] = { (char *)perf, "report", "-i", profile_file,
			 "--stdio", "-q", "--sort", "sym", "-g", "none",
			 "--percent-limit", "0.1",
			 strcmp(kind, "self") ? "--children" : "--no-children",
			 NULL };
	int fd[2], lines = 0, status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fd) < 0)
		return;
	if (spawn_quiet(argv, fd[1], &pid) < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	close(fd[1]);
	while (lines < PROFILE_LINES &&
	       (n = read(fd[0], buf + len, sizeof(buf) - 1 - len)) != 0) {
		char *s, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += n;
		buf[len] = 0;
		for (s = buf; lines < PROFILE_LINES && (nl = strchr(s, '\n'));
		     s = nl + 1) {
			*nl = 0;
			if (*s)
				frame("PROF %s %s", kind, s);
			lines += !!*s;
		}
		len -= s - buf;
		memmove(buf, s, len);
		/* a line longer than the buffer is no report line */
		if (len >= sizeof(buf) - 1)
			len = 0;
	}
	/* the rest is below what the host reads: perf need not finish */
	kill(pid, SIGKILL);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/*
 * Each cell of each workload of sb.profile once more, under perf record,
 * after the measured runs (a profiled run is slower: it measures
 * nothing); its reports framed, PROFILE first.
 */
static void profile_all(const struct init_opts *o, int pid1)
{
	const char *perf = o->profile[0], *event;
	int i, idx, k, n, all;

	if (o->nr_profile < 2)
		return;
	/* no PMU (QEMU TCG, most guests): the kernel's software clock */
	event = access("/sys/bus/event_source/devices/cpu", F_OK) ?
		"cpu-clock" : "cycles";
	/* kernel symbols for perf report, in a guest of our own only */
	if (pid1)
		write_str("/proc/sys/kernel/kptr_restrict", "0");
	snprintf(profile_file, sizeof(profile_file), "/tmp/sb-profile.%d.data",
		 (int)getpid());
	for (i = 1; i < o->nr_profile; i++) {
		idx = find_workload(o, o->profile[i]);
		if (idx < 0 || (idx < NR_BUILTIN &&
				!strcmp(workloads[idx].name, "env")))
			continue;
		n = nr_cells(idx, o);
		for (k = 0; k < n; k++) {
			if (profile_record(perf, event, idx, k, o, pid1,
					   &all)) {
				frame("PROFILE %s %d %s error=perf record recorded nothing",
				      o->profile[i], k,
				      event);
				continue;
			}
			frame("PROFILE %s %d %s mode=%s", o->profile[i], k,
			      event, all ? "system" : "tasks");
			profile_report(perf, "self");
			profile_report(perf, "children");
			unlink(profile_file);
		}
	}
}

/*
 * Whether perf stat can count here: a kernel without perf events, or
 * a perf_event_paranoid that forbids them, makes perf refuse to run
 * the workload at all; then the runs go without it, said once.
 */
static int perf_works(const char *perf, int all)
{
	struct child c = { .builtin = 0, .perf = perf, .perf_all = all };
	char *argv[] = { "env", NULL };
	int status, fd;
	pid_t pid;

	c.argc = 1;
	c.argv = argv;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;
	if (!pid) {
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			dup2(fd, 3);
		}
		c.probe = 1;
		exit(perf_child(&c));
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}
/* An index into workloads[], or NR_BUILTIN + the sb.exec entry. */
static int find_workload(const struct init_opts *o, const char *name)
{
	int i;

	for (i = 0; i < NR_BUILTIN; i++)
		if (!strcmp(name, workloads[i].name))
			return i;
	for (i = 0; i < o->nr_execs; i++)
		if (!strcmp(name, o->execs[i].name))
			return NR_BUILTIN + i;
	return -1;
}

int bench_init(int argc, char **argv)
{
	static char cmdline[4096];
	struct init_opts o = { .runs = 1, .seconds = 5, .autogroup = -1 };
	struct utsname u;
	char buf[64], *w, *save;
	int pid1 = getpid() == 1, i, idx, rc = 0;
	struct interleave order;

	if (pid1) {
		setup_pid1();
		read_str("/proc/cmdline", cmdline, sizeof(cmdline));
		for (w = strtok_r(cmdline, " ", &save); w;
		     w = strtok_r(NULL, " ", &save))
			parse_word(&o, w);
	} else {
		for (i = 1; i < argc; i++)
			parse_word(&o, argv[i]);
	}
	write_line("@@SB BEGIN 1\n", 13);
	if (!uname(&u))
		frame("INFO release=%s", u.release);
	frame("INFO nr_cpus=%ld", sysconf(_SC_NPROCESSORS_ONLN));
	/* The sb.t the host built the programs' command lines with. */
	frame("INFO seconds=%d", o.seconds);
	/*
	 * every CPU where perf may (as root in a guest): counting the
	 * tasks instead puts perf's inherited events on every fork of
	 * the workload, a cost in the very numbers measured
	 */
	o.perf_all = o.perf && perf_works(o.perf, 1);
	if (o.perf && !o.perf_all && !perf_works(o.perf, 0)) {
		frame("INFO perf_error=perf stat cannot count here");
		o.perf = NULL;
	}
	if (o.perf)
		frame("INFO perf=%s mode=%s", o.perf, o.perf_all ? "system" :
		      "tasks");
	read_str("/proc/uptime", buf, sizeof(buf));
	buf[strcspn(buf, " ")] = 0;
	frame("INFO uptime=%s", buf);
	if (o.autogroup >= 0 && pid1 &&
	    write_str("/proc/sys/kernel/sched_autogroup_enabled",
		      o.autogroup ? "1" : "0") < 0)
		frame("INFO autogroup_error=%s", strerror(errno));
	read_str("/proc/sys/kernel/sched_autogroup_enabled", buf, sizeof(buf));
	frame("INFO autogroup=%s", buf);
	if (pid1 && enter_cgroup(o.cgroup) < 0)
		frame("INFO cgroup_error=%s", strerror(errno));
	read_str("/proc/self/cgroup", buf, sizeof(buf));
	frame("INFO cgroup=%s", buf);
	for (i = 0; i < o.nr_workloads; i++)
		if (find_workload(&o, o.workloads[i]) < 0) {
			frame("INFO error=unknown workload %s",
			      o.workloads[i]);
			rc = 2;
		}
	/* a failed workload ends the series after the run it is in */
	interleave_init(&order, rc ? 0 : o.runs, (size_t)o.nr_workloads, 1);
	while (interleave_next(&order)) {
		int k, n;

		idx = find_workload(&o, o.workloads[order.i]);
		n = nr_cells(idx, &o);
		for (k = 0; k < n; k++)
			if (run_one(idx, order.run, k, &o) &&
			    (idx >= NR_BUILTIN ||
			     strcmp(workloads[idx].name, "env"))) {
				rc = 1;
				interleave_last_run(&order);
			}
	}
	if (!rc)
		profile_all(&o, pid1);
	snprintf(buf, sizeof(buf), "@@SB END %lu rc=%d\n", seq, rc);
	write_line(buf, strlen(buf));
	if (!pid1)
		return rc;
	sync();
	reboot(RB_POWER_OFF);
	/* Without ACPI power-off only halts: say so and wait for the
	 * host's timeout rather than panicking on exit.
	 */
	frame("INFO poweroff_error=%s", strerror(errno));
	for (;;)
		pause();
}
