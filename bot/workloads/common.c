// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - what spawn and pingpong share: the output records, the run
 * statistics and the environment knobs (autogroup, cgroup, setsid).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void bench_sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

int bench_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

void rec_header(void)
{
	printf("# sched-bench %d\n", BENCH_FORMAT_VERSION);
	puts("kind,workload,params,run,sample,metric,value,unit,hib,placement");
	fflush(stdout);
}

void rec_sample(struct bench_rec *r, int sample, const char *metric,
		double value, const char *unit, int hib)
{
	printf("sample,%s,%s,%d,%d,%s,%.12g,%s,%d,%s\n", r->workload,
	       r->params, r->run, sample, metric, value, unit, hib ? 1 : 0,
	       r->placement);
	fflush(stdout);
	r->count++;
}

void rec_stat(struct bench_rec *r, const char *key, double value,
	      const char *unit)
{
	printf("stat,%s,%s,%d,%s,%.12g,%s,%s\n", r->workload, r->params,
	       r->run, key, value, unit, r->placement);
	fflush(stdout);
	r->count++;
}

void rec_line(struct bench_rec *r, const char *kind, const char *fmt, ...)
{
	va_list ap;

	printf("%s,%s,%s,%d,", kind, r->workload, r->params, r->run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	r->count++;
}

void rec_end(struct bench_rec *r)
{
	printf("end,%s,%s,%d,%d\n", r->workload, r->params, r->run, r->count);
	fflush(stdout);
}

void rec_env(const char *key, const char *value)
{
	const char *p;

	printf("env,%s,", key);
	/* One line per record, whatever the kernel put in the file. */
	for (p = value && *value ? value : "unknown"; *p; p++)
		putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
	putchar('\n');
	fflush(stdout);
}

static int read_stat(struct cpu_times *t)
{
	char buf[8192];

	if (procstat_read("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	return procstat_parse_cpu(buf, t);
}

static int read_schedstat(struct schedstat *s)
{
	static char buf[1 << 18];

	/* 36 numbers per domain line: ~ 300 bytes per CPU and level */
	if (procstat_read("/proc/schedstat", buf, sizeof(buf)) < 0)
		return -1;
	return procstat_schedstat(buf, s);
}

/*
 * Whether the schedstat counters count: with CONFIG_SCHEDSTATS but
 * sched_schedstats off, the cpuN and domain counters stay 0 and only
 * the sched_info ones (rq_cpu_time, run_delay, pcount) move.
 */
static int schedstats_enabled(void)
{
	char buf[16];

	if (procstat_read("/proc/sys/kernel/sched_schedstats", buf,
			  sizeof(buf)) < 0)
		return 0;
	return buf[0] == '1';
}

static void ss_acc(unsigned long long *acc, unsigned long long v)
{
	if (*acc == SCHEDSTAT_UNKNOWN || v == SCHEDSTAT_UNKNOWN)
		*acc = SCHEDSTAT_UNKNOWN;
	else
		*acc += v;
}

/* st->ss += the delta from st->ss0 to now. */
static void ss_segment_end(struct run_stats *st)
{
	static struct schedstat b, d;
	struct schedstat *acc = &st->ss;
	int l, i;

	if (read_schedstat(&b) || procstat_schedstat_delta(&st->ss0, &b, &d) ||
	    (acc->cpus && acc->nr_domains != d.nr_domains)) {
		st->have_ss = 0;
		return;
	}
	if (!acc->cpus) {
		*acc = d;
		return;
	}
	ss_acc(&acc->yld_count, d.yld_count);
	ss_acc(&acc->sched_count, d.sched_count);
	ss_acc(&acc->sched_goidle, d.sched_goidle);
	ss_acc(&acc->ttwu_count, d.ttwu_count);
	ss_acc(&acc->ttwu_local, d.ttwu_local);
	ss_acc(&acc->rq_cpu_time, d.rq_cpu_time);
	ss_acc(&acc->run_delay, d.run_delay);
	ss_acc(&acc->pcount, d.pcount);
	for (l = 0; l < d.nr_domains; l++)
		for (i = 0; i < SSD_FIELDS; i++)
			ss_acc(&acc->dom[l].f[i], d.dom[l].f[i]);
}

void stats_begin(struct run_stats *st)
{
	if (!st->wall && !st->have_cpu) {
		memset(st, 0, sizeof(*st));
		st->have_ss = 1;
		st->ss_enabled = schedstats_enabled();
	}
	if (st->have_ss && read_schedstat(&st->ss0))
		st->have_ss = 0;
	st->have_cpu = !read_stat(&st->cpu0) ? 1 : -1;
	st->wall -= bench_now();
}

#define ADD(f) (st->cpu.f += b.f > st->cpu0.f ? b.f - st->cpu0.f : 0)

void stats_end(struct run_stats *st)
{
	struct cpu_times b;

	st->wall += bench_now();
	if (st->have_cpu > 0 && !read_stat(&b)) {
		ADD(user); ADD(nice); ADD(system); ADD(idle);
		ADD(iowait); ADD(irq); ADD(softirq); ADD(steal);
	} else {
		st->have_cpu = -1;
	}
	if (st->have_ss)
		ss_segment_end(st);
	if (!schedstats_enabled())
		st->ss_enabled = 0;
}

#undef ADD

/* A schedstat delta as a stat record, unless it is unknown. */
static void ss_stat(struct bench_rec *r, const char *key,
		    unsigned long long v, double scale, const char *unit)
{
	char name[64];

	if (v == SCHEDSTAT_UNKNOWN)
		return;
	snprintf(name, sizeof(name), "schedstat.%s", key);
	rec_stat(r, name, v / scale, unit);
}

static unsigned long long ss_sum3(const struct schedstat_domain *d, int f)
{
	unsigned long long s = 0;
	int t;

	for (t = 0; t < SCHEDSTAT_IDLE_TYPES; t++) {
		if (d->f[SSD_LB(f, t)] == SCHEDSTAT_UNKNOWN)
			return SCHEDSTAT_UNKNOWN;
		s += d->f[SSD_LB(f, t)];
	}
	return s;
}

/*
 * The /proc/schedstat deltas of the measured part, summed over CPUs.
 * The sched_info counters (run time, run-queue wait, timeslices) count
 * whenever the file exists; the others only while sched_schedstats is
 * on, and a zero from a kernel that does not count is no datum.
 */
static void ss_print(const struct run_stats *st, struct bench_rec *r)
{
	const struct schedstat *s = &st->ss;
	unsigned long long affine = 0, remote = 0, v;
	char key[48];
	int l;

	if (!st->have_ss || !s->cpus)
		return;
	ss_stat(r, "rq_cpu_time", s->rq_cpu_time, 1e6, "ms");
	ss_stat(r, "run_delay", s->run_delay, 1e6, "ms");
	ss_stat(r, "pcount", s->pcount, 1, "count");
	if (s->run_delay != SCHEDSTAT_UNKNOWN &&
	    s->pcount != SCHEDSTAT_UNKNOWN && s->pcount)
		rec_stat(r, "schedstat.run_delay_per_slice",
			 s->run_delay / 1e3 / s->pcount, "us");
	if (!st->ss_enabled)
		return;
	ss_stat(r, "yld_count", s->yld_count, 1, "count");
	ss_stat(r, "sched_count", s->sched_count, 1, "count");
	ss_stat(r, "sched_goidle", s->sched_goidle, 1, "count");
	ss_stat(r, "ttwu", s->ttwu_count, 1, "count");
	ss_stat(r, "ttwu_local", s->ttwu_local, 1, "count");
	if (s->ttwu_count != SCHEDSTAT_UNKNOWN &&
	    s->ttwu_local != SCHEDSTAT_UNKNOWN &&
	    s->ttwu_count >= s->ttwu_local)
		ss_stat(r, "ttwu_remote", s->ttwu_count - s->ttwu_local, 1,
			"count");
	for (l = 0; l < s->nr_domains; l++) {
		const struct schedstat_domain *d = &s->dom[l];
		static const struct { const char *name; int f; } lb[] = {
			{ "lb_count", SSD_LB_COUNT },
			{ "lb_failed", SSD_LB_FAILED },
			{ "lb_imbalance", SSD_LB_IMBALANCE },
			{ "lb_gained", SSD_LB_GAINED },
		};
		size_t i;

		if (!d->cpus)
			continue;
		for (i = 0; i < ARRAY_SIZE(lb); i++) {
			snprintf(key, sizeof(key), "dom%d.%s", l, lb[i].name);
			ss_stat(r, key, ss_sum3(d, lb[i].f), 1, "count");
		}
		snprintf(key, sizeof(key), "dom%d.lb_count_newidle", l);
		ss_stat(r, key, d->f[SSD_LB(SSD_LB_COUNT, 2)], 1, "count");
		snprintf(key, sizeof(key), "dom%d.alb_count", l);
		ss_stat(r, key, d->f[SSD_ALB_COUNT], 1, "count");
		snprintf(key, sizeof(key), "dom%d.alb_pushed", l);
		ss_stat(r, key, d->f[SSD_ALB_PUSHED], 1, "count");
		v = d->f[SSD_TTWU_MOVE_AFFINE];
		affine = affine == SCHEDSTAT_UNKNOWN || v == SCHEDSTAT_UNKNOWN ?
			 SCHEDSTAT_UNKNOWN : affine + v;
		v = d->f[SSD_TTWU_WAKE_REMOTE];
		remote = remote == SCHEDSTAT_UNKNOWN || v == SCHEDSTAT_UNKNOWN ?
			 SCHEDSTAT_UNKNOWN : remote + v;
	}
	if (s->nr_domains) {
		/* each wake-up counts at one level only: the sum is the
		 * machine's
		 */
		ss_stat(r, "ttwu_move_affine", affine, 1, "count");
		ss_stat(r, "ttwu_wake_remote", remote, 1, "count");
	}
}

double stats_print(struct run_stats *st, struct bench_rec *r,
		    long long nvcsw, long long nivcsw, long long migrations,
		    double own_cpu_s)
{
	double foreign_pct = -1;
	struct cpu_times zero = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	struct cpu_util u;

	if (st->have_cpu > 0 && !procstat_util(&zero, &st->cpu, &u)) {
		rec_stat(r, "cpu_usr", u.usr, "%");
		rec_stat(r, "cpu_sys", u.sys, "%");
		rec_stat(r, "cpu_idle", u.idle, "%");
		rec_stat(r, "cpu_iowait", u.iowait, "%");
		rec_stat(r, "cpu_softirq", u.softirq, "%");
		rec_stat(r, "cpu_other", u.other, "%");
	}
	rec_stat(r, "wall_s", st->wall, "s");
	if (st->have_cpu > 0 && own_cpu_s >= 0 && hz > 0 && st->wall > 0) {
		const struct cpu_times *c = &st->cpu;
		double busy = (double)(c->user + c->nice + c->system + c->irq +
				       c->softirq + c->steal) / hz;
		double foreign = busy - own_cpu_s;

		/* Tick sampling makes small negative values: clamp. */
		if (foreign < 0)
			foreign = 0;
		rec_stat(r, "own_cpu_s", own_cpu_s, "s");
		foreign_pct = 100 * foreign / (st->wall * bench_online_cpus());
		rec_stat(r, "foreign_cpu_pct", foreign_pct, "%");
	}
	if (nvcsw >= 0)
		rec_stat(r, "ctx_voluntary", nvcsw, "count");
	if (nivcsw >= 0)
		rec_stat(r, "ctx_involuntary", nivcsw, "count");
	if (migrations >= 0)
		rec_stat(r, "migrations", migrations, "count");
	ss_print(st, r);
	return foreign_pct;
}

/* A benchmark task's /proc/PID/sched (a thread's under /proc/self/task). */
static int task_sched_read(int pid, int is_thread, char *buf, size_t size)
{
	char path[64];

	if (is_thread)
		snprintf(path, sizeof(path), "/proc/self/task/%d/sched", pid);
	else
		snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	return procstat_read(path, buf, size);
}

long long task_migrations(int pid, int is_thread)
{
	char buf[8192];

	if (task_sched_read(pid, is_thread, buf, sizeof(buf)) < 0)
		return -1;
	return procstat_sched_field(buf, "se.nr_migrations");
}

void knobs_from_args(struct bench_knobs *k, const struct bench_args *a)
{
	k->autogroup = bench_arg_str(a, BK_AUTOGROUP, NULL);
	k->cgroup = bench_arg_str(a, BK_CGROUP, NULL);
	k->setsid = (int)bench_arg_num(a, BK_SETSID, 0);
}

void knobs_params(const struct bench_knobs *k, char *buf, size_t size)
{
	size_t len = strlen(buf);

	if (k->autogroup)
		len += snprintf(buf + len, size > len ? size - len : 0,
				" autogroup=%s", k->autogroup);
	if (k->cgroup && len < size)
		len += snprintf(buf + len, size - len, " cgroup=%s", k->cgroup);
	if (k->setsid && len < size)
		snprintf(buf + len, size - len, " setsid=1");
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * The mount point of the hierarchy holding the cpu controller, from
 * /proc/self/mountinfo: a v1 "cgroup" mount whose options name cpu, else
 * a cgroup2 mount whose cgroup.controllers lists cpu.
 */
static int cpu_hierarchy(char *mnt, size_t size, int *version)
{
	static char buf[65536];
	char v2[512] = "";
	char *line, *save = NULL;

	if (procstat_read("/proc/self/mountinfo", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sep = strstr(line, " - "), *f[6], *p = line, *fs, *opts;
		int i;

		if (!sep)
			continue;
		*sep = '\0';
		for (i = 0; i < 5 && p; i++) {
			f[i] = p;
			p = strchr(p, ' ');
			if (p)
				*p++ = '\0';
		}
		if (i < 5)
			continue;
		fs = sep + 3;
		p = strchr(fs, ' ');
		if (!p)
			continue;
		*p++ = '\0';
		opts = strchr(p, ' ');	/* skip the source */
		opts = opts ? opts + 1 : p;
		if (!strcmp(fs, "cgroup")) {
			char *o, *osave = NULL;

			for (o = strtok_r(opts, ",", &osave); o;
			     o = strtok_r(NULL, ",", &osave))
				if (!strcmp(o, "cpu")) {
					snprintf(mnt, size, "%s", f[4]);
					*version = 1;
					return 0;
				}
		} else if (!strcmp(fs, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", f[4]);
		}
	}
	if (v2[0]) {
		char path[600], ctl[256];

		snprintf(path, sizeof(path), "%s/cgroup.controllers", v2);
		if (procstat_read(path, ctl, sizeof(ctl)) >= 0 &&
		    (strstr(ctl, "cpu ") || strstr(ctl, "cpu\n") ||
		     !strcmp(ctl, "cpu"))) {
			snprintf(mnt, size, "%s", v2);
			*version = 2;
			return 0;
		}
	}
	return -1;
}

static int join_cgroup(const char *dir)
{
	char path[1100], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	return write_str(path, pid);
}

int knobs_apply(struct bench_knobs *k)
{
	char mnt[512], dir[600], ctl[600];
	int version;

	k->saved_autogroup = -1;
	k->made_cgroup[0] = '\0';
	if (k->autogroup) {
		char buf[16];
		const char *p = "/proc/sys/kernel/sched_autogroup_enabled";

		if (procstat_read(p, buf, sizeof(buf)) < 0) {
			fprintf(stderr, "sched-bench: --autogroup: %s: %s (kernel without CONFIG_SCHED_AUTOGROUP?)\n",
				p, strerror(errno));
			return -1;
		}
		k->saved_autogroup = atoi(buf);
		if (write_str(p, strcmp(k->autogroup, "on") ? "0" : "1")) {
			fprintf(stderr, "sched-bench: --autogroup: cannot write %s: %s (needs root)\n",
				p, strerror(errno));
			k->saved_autogroup = -1;
			return -1;
		}
	}
	if (!k->cgroup)
		return 0;
	if (cpu_hierarchy(mnt, sizeof(mnt), &version)) {
		fprintf(stderr, "sched-bench: --cgroup: no mounted cgroup hierarchy has the cpu controller\n");
		goto fail;
	}
	snprintf(k->cgroup_procs_root, sizeof(k->cgroup_procs_root), "%s",
		 mnt);
	if (!strcmp(k->cgroup, "new")) {
		snprintf(dir, sizeof(dir), "%s/sched-bench.%d", mnt,
			 (int)getpid());
		if (version == 2) {
			snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control",
				 mnt);
			write_str(ctl, "+cpu");
		}
		if (mkdir(dir, 0755)) {
			fprintf(stderr, "sched-bench: --cgroup new: mkdir %s: %s\n",
				dir, strerror(errno));
			k->made_cgroup[0] = '\0';
			goto fail;
		}
		snprintf(k->made_cgroup, sizeof(k->made_cgroup), "%s", dir);
	} else {
		snprintf(dir, sizeof(dir), "%s", mnt);
	}
	if (join_cgroup(dir)) {
		fprintf(stderr, "sched-bench: --cgroup %s: cannot move into %s: %s\n",
			k->cgroup, dir, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	knobs_restore(k);
	return -1;
}

void knobs_restore(struct bench_knobs *k)
{
	if (k->made_cgroup[0]) {
		/* Leave the group (to the root) so that it can be removed. */
		join_cgroup(k->cgroup_procs_root);
		if (rmdir(k->made_cgroup))
			fprintf(stderr, "sched-bench: cannot remove %s: %s\n",
				k->made_cgroup, strerror(errno));
		k->made_cgroup[0] = '\0';
	}
	if (k->saved_autogroup >= 0) {
		write_str("/proc/sys/kernel/sched_autogroup_enabled",
			  k->saved_autogroup ? "1" : "0");
		k->saved_autogroup = -1;
	}
}

void harness_stat(struct bench_rec *r)
{
	struct rusage ru;

	/* The calling thread only: in threads mode the workers are threads
	 * of this process, and RUSAGE_SELF would count them too.
	 */
	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	rec_stat(r, "harness_cpu_s", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6, "s");
}

const char *busy_note(double foreign_pct)
{
	static char buf[96];

	if (foreign_pct <= 1)
		return "";
	snprintf(buf, sizeof(buf),
		 " [WARNING: other load used %.0f%% of the machine]",
		 foreign_pct);
	return buf;
}

long long task_wait_us(int pid, int is_thread)
{
	char buf[8192];
	double ms;

	if (task_sched_read(pid, is_thread, buf, sizeof(buf)) < 0)
		return -1;
	/* shown only while schedstats count; "se.statistics." before 5.15 */
	ms = procstat_sched_double(buf, "wait_sum");
	if (ms < 0)
		ms = procstat_sched_double(buf, "se.statistics.wait_sum");
	return ms < 0 ? -1 : (long long)(ms * 1e3);
}
