// SPDX-License-Identifier: GPL-2.0
/*
 * health.c - `sched-bench health`: what on the machine, other than the
 * kernel, moves a benchmark's numbers: the cpufreq governor and boost,
 * SMT, transparent hugepages, the load average and the processes that
 * take CPU time now (over -t seconds, from /proc/PID/stat: the machine
 * needs no procps).  With --prepare it first sets the performance
 * governor on every CPU that has cpufreq.  Records are "health,KEY,
 * VALUE to the end of the line"; what the machine does not say is
 * "unknown".  The machine's env record (env.c: its CPUs, sockets, NUMA
 * nodes, LLCs) comes first: the facts a plan for it is scaled to.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define TOP_SHOWN 5

struct proc_ticks {
	int pid;
	unsigned long long ticks;	/* utime + stime */
	char comm[20];
};

static void rec_health(const char *key, const char *value)
{
	const unsigned char *p;

	printf("health,%s,", key);
	for (p = (const unsigned char *)(value && *value ? value : "unknown");
	     *p; p++)
		putchar(isprint(*p) ? *p : '?');
	putchar('\n');
	fflush(stdout);
}

/* The first line of a small file, or NULL. */
static const char *line_of(const char *path, char *buf, size_t size)
{
	if (procstat_read(path, buf, size) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* The [chosen] word of a sysfs choice ("always [madvise] never"). */
static const char *chosen(const char *path, char *buf, size_t size)
{
	char *l, *r;

	if (!line_of(path, buf, size))
		return NULL;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r)
		return buf;
	*r = '\0';
	return l + 1;
}

/*
 * Boost: the cpufreq core's switch (acpi-cpufreq, amd-pstate), else
 * intel_pstate's no_turbo, which says the opposite.
 */
static void health_boost(void)
{
	char buf[64];

	if (line_of("/sys/devices/system/cpu/cpufreq/boost", buf, sizeof(buf)))
		rec_health("boost", !strcmp(buf, "1") ? "on" : "off");
	else if (line_of("/sys/devices/system/cpu/intel_pstate/no_turbo", buf,
			 sizeof(buf)))
		rec_health("boost", !strcmp(buf, "0") ? "on" : "off");
	else
		rec_health("boost", "unknown");
}

/* --prepare: the performance governor wherever cpufreq offers it. */
static void health_prepare(void)
{
	char path[96], buf[256];
	int cpu, set = 0, failed = 0, have = 0;

	for (cpu = 0; cpu < 8192; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d",
			 cpu);
		if (access(path, F_OK))
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 cpu);
		if (access(path, F_OK))
			continue;
		have++;
		f = fopen(path, "w");
		if (f && fputs("performance\n", f) >= 0 && !fclose(f)) {
			set++;
		} else {
			if (f)
				fclose(f);
			failed++;
		}
	}
	if (!have)
		snprintf(buf, sizeof(buf), "no cpufreq: no governor to set");
	else if (failed)
		snprintf(buf, sizeof(buf), "performance governor set on %d of %d CPUs (%d refused it)",
			 set, have, failed);
	else
		snprintf(buf, sizeof(buf), "performance governor set on %d CPUs",
			 set);
	rec_health("prepare", buf);
}

/* utime + stime and comm of every process; *nr of them. */
static struct proc_ticks *proc_snapshot(size_t *nr)
{
	struct proc_ticks *v = NULL;
	size_t alloc = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	int self = getpid();

	*nr = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char path[64], buf[1024], *l, *r;
		unsigned long long ut, st;
		int pid = atoi(e->d_name);

		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (procstat_read(path, buf, sizeof(buf)) < 0)
			continue;
		/* comm may hold spaces and parentheses: the last ')' ends it */
		l = strchr(buf, '(');
		r = strrchr(buf, ')');
		if (!l || !r || r < l ||
		    sscanf(r + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			   &ut, &st) != 2)
			continue;
		if (*nr == alloc) {
			struct proc_ticks *n;

			alloc = alloc ? 2 * alloc : 256;
			n = realloc(v, alloc * sizeof(*v));
			if (!n)
				break;
			v = n;
		}
		v[*nr].pid = pid;
		v[*nr].ticks = ut + st;
		*r = '\0';
		snprintf(v[*nr].comm, sizeof(v[*nr].comm), "%s", l + 1);
		(*nr)++;
	}
	closedir(d);
	return v;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_ticks *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_ticks(const void *a, const void *b)
{
	const struct proc_ticks *x = a, *y = b;

	return x->ticks < y->ticks ? 1 : x->ticks > y->ticks ? -1 : 0;
}

/* The processes that ran over the interval, the busiest first. */
static void health_top(double seconds)
{
	struct proc_ticks *a, *b;
	size_t na, nb, i, k, shown = 0;
	double start = bench_now(), hz = sysconf(_SC_CLK_TCK), wall;
	char buf[96];

	a = proc_snapshot(&na);
	bench_sleep_until(start + seconds);
	b = proc_snapshot(&nb);
	wall = bench_now() - start;
	if (a)
		qsort(a, na, sizeof(*a), by_pid);
	if (b)
		qsort(b, nb, sizeof(*b), by_pid);
	/* b's ticks become the deltas since a (a new process: all of them) */
	for (i = 0, k = 0; i < nb; i++) {
		while (k < na && a[k].pid < b[i].pid)
			k++;
		if (k < na && a[k].pid == b[i].pid && a[k].ticks <= b[i].ticks)
			b[i].ticks -= a[k].ticks;
	}
	qsort(b, nb, sizeof(*b), by_ticks);
	for (i = 0; i < nb && shown < TOP_SHOWN && b[i].ticks; i++, shown++) {
		snprintf(buf, sizeof(buf), "%.1f %d %s",
			 100.0 * b[i].ticks / hz / wall, b[i].pid, b[i].comm);
		rec_health("top", buf);
	}
	snprintf(buf, sizeof(buf), "%.2f", wall);
	rec_health("top_seconds", buf);
	free(a);
	free(b);
}

int bench_health(int argc, char **argv)
{
	struct bench_args a;
	char buf[256], num[32];
	const char *v;
	int rc = bench_parse(BENCH_HEALTH, "health", argc, argv, &a);

	if (rc) {
		bench_usage(BENCH_HEALTH, "health", rc == 1 ? stdout : stderr);
		return rc == 1 ? 0 : rc;
	}
	printf("# sched-bench %d health\n", BENCH_FORMAT_VERSION);
	/* the machine itself (env.c), the facts a plan is scaled to */
	env_print(NULL);
	if (bench_arg_num(&a, BK_PREPARE, 0))
		health_prepare();
	snprintf(num, sizeof(num), "%d", bench_online_cpus());
	rec_health("nr_cpus", num);
	v = line_of("/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
		    buf, sizeof(buf));
	rec_health("cpufreq_driver", v ? v : "none");
	v = line_of("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		    buf, sizeof(buf));
	rec_health("governor", v ? v : "none");
	health_boost();
	rec_health("smt", line_of("/sys/devices/system/cpu/smt/control", buf,
				  sizeof(buf)));
	rec_health("thp", chosen("/sys/kernel/mm/transparent_hugepage/enabled",
				 buf, sizeof(buf)));
	rec_health("loadavg", line_of("/proc/loadavg", buf, sizeof(buf)));
	health_top(bench_arg_num(&a, BK_TIME, 1));
	return 0;
}
