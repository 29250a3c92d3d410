/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procstat.h - parsers for the /proc and /sys texts a benchmark run
 * records: CPU time from /proc/stat, the cpu cgroup and autogroup of a
 * task, kernel config lines, /proc/PID/sched and /proc/schedstat fields.
 *
 * libc only: sched-bench (static, runs as PID 1 in an initramfs) compiles
 * this file too.  The parsers take the file's text so that unit tests
 * can feed fixtures; procstat_read() is the only function touching files.
 * Nothing here fails on odd input: a missing field is "unknown" (-1).
 */
#ifndef SCHED_BOT_PROCSTAT_H
#define SCHED_BOT_PROCSTAT_H

#include <stddef.h>

/* The aggregate "cpu " line of /proc/stat, in clock ticks. */
struct cpu_times {
	unsigned long long user, nice, system, idle, iowait, irq, softirq,
		steal;
};

/* Percentages of machine time between two snapshots; they sum to 100. */
struct cpu_util {
	double usr;		/* user + nice */
	double sys;		/* system */
	double idle;
	double iowait;
	double softirq;
	double other;		/* irq + steal */
};

/* Read a whole small file into buf (NUL-terminated); -1 when absent. */
int procstat_read(const char *path, char *buf, size_t size);

/* Parse the "cpu " line of /proc/stat text; 0 on success, -1 if absent. */
int procstat_parse_cpu(const char *text, struct cpu_times *out);
/* a -> b; -1 when no tick elapsed (then every field is 0). */
int procstat_util(const struct cpu_times *a, const struct cpu_times *b,
		  struct cpu_util *u);

/*
 * /proc/PID/cgroup text: the path of the cpu controller.  *version is 1
 * when a v1 hierarchy has the cpu controller, 2 when only the unified
 * ("0::") line names the task's group.  -1 when neither is present.
 */
int procstat_cgroup_cpu(const char *text, char *path, size_t size,
			int *version);

/* /proc/PID/autogroup text "/autogroup-13 nice 0" -> "/autogroup-13". */
int procstat_autogroup(const char *text, char *name, size_t size,
		       int *nice);

/*
 * A kernel .config text: "y", "m", a value (CONFIG_HZ=250 -> "250",
 * quotes kept) or "n" for "# CONFIG_X is not set".  -1 when the option
 * is not mentioned at all (unknown).
 */
int procstat_config(const char *text, const char *option, char *val,
		    size_t size);

/* "key   :   value" lines of /proc/PID/sched; -1 when absent. */
long long procstat_sched_field(const char *text, const char *key);

/* Sums over the cpuN lines of /proc/schedstat (version 15 layout). */
struct schedstat {
	unsigned long long sched_count;	/* calls to schedule() */
	unsigned long long ttwu_count;	/* wake-ups done by this CPU */
	unsigned long long ttwu_local;	/* ... of tasks on this CPU */
};
int procstat_schedstat(const char *text, struct schedstat *out);

/* "voluntary_ctxt_switches:  12" style fields of /proc/PID/status. */
long long procstat_status_field(const char *text, const char *key);

/* utime + stime (clock ticks) from /proc/PID/stat text; -1 if malformed. */
long long procstat_pid_cputicks(const char *text);

/* Number of CPUs in a list like "0-3,8,10-11"; -1 on a malformed list. */
int procstat_cpulist_count(const char *list);

#endif
