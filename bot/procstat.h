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

/*
 * /proc/schedstat (CONFIG_SCHEDSTATS), summed over the cpuN lines and,
 * per domain level (the N of "domainN"), over the CPUs that have that
 * level.  The cpuN line has kept its layout since version 14; the
 * domain lines are read only in the version 15 layout (6.1 to 6.11),
 * whose 36 fields are, per idle type (idle, busy, newly idle), lb_count
 * lb_balanced lb_failed lb_imbalance lb_gained lb_hot_gained lb_nobusyq
 * lb_nobusyg, then alb_count alb_failed alb_pushed, sbe_*, sbf_*,
 * ttwu_wake_remote ttwu_move_affine ttwu_move_balance.
 *
 * The text may come from a kernel under test: a line with too few or
 * unreadable fields is skipped, levels past SCHEDSTAT_MAX_DOMAINS are
 * ignored, and nothing is read past the text's NUL.
 */
#define SCHEDSTAT_MAX_DOMAINS 8
#define SCHEDSTAT_IDLE_TYPES 3	/* CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE */
enum {
	SSD_LB_COUNT, SSD_LB_BALANCED, SSD_LB_FAILED, SSD_LB_IMBALANCE,
	SSD_LB_GAINED, SSD_LB_HOT_GAINED, SSD_LB_NOBUSYQ, SSD_LB_NOBUSYG,
	SSD_ALB_COUNT = 8 * SCHEDSTAT_IDLE_TYPES, SSD_ALB_FAILED,
	SSD_ALB_PUSHED, SSD_SBE_COUNT, SSD_SBE_BALANCED, SSD_SBE_PUSHED,
	SSD_SBF_COUNT, SSD_SBF_BALANCED, SSD_SBF_PUSHED,
	SSD_TTWU_WAKE_REMOTE, SSD_TTWU_MOVE_AFFINE, SSD_TTWU_MOVE_BALANCE,
	SSD_FIELDS,
};
/* Index of lb_* field f (SSD_LB_COUNT..) for idle type t. */
#define SSD_LB(f, t) ((t) * 8 + (f))

/* A delta that went backwards (a counter wrapped or was reset). */
#define SCHEDSTAT_UNKNOWN (~0ULL)

struct schedstat_domain {
	int cpus;			/* CPUs that have this level */
	unsigned long long f[SSD_FIELDS];
};

struct schedstat {
	int version;
	int cpus;			/* cpuN lines read */
	int nr_domains;			/* levels read (0: none) */
	unsigned long long yld_count;	/* sched_yield() calls */
	unsigned long long sched_count;	/* calls to schedule() */
	unsigned long long sched_goidle;	/* ... that left the CPU idle */
	unsigned long long ttwu_count;	/* wake-ups done by this CPU */
	unsigned long long ttwu_local;	/* ... of tasks on this CPU */
	unsigned long long rq_cpu_time;	/* ns tasks ran */
	unsigned long long run_delay;	/* ns tasks waited on a runqueue */
	unsigned long long pcount;	/* timeslices run */
	struct schedstat_domain dom[SCHEDSTAT_MAX_DOMAINS];
};
/* 0 when at least one cpuN line was read, else -1. */
int procstat_schedstat(const char *text, struct schedstat *out);
/*
 * b - a, field by field, into d; a field that went backwards is
 * SCHEDSTAT_UNKNOWN.  -1 when the two do not describe the same machine
 * (version, CPUs or domain levels differ: CPU hotplug, another kernel);
 * then d is all unknown.
 */
int procstat_schedstat_delta(const struct schedstat *a,
			     const struct schedstat *b, struct schedstat *d);

/* The same with a fraction ("wait_sum : 12.345678", ms); -1 if absent. */
double procstat_sched_double(const char *text, const char *key);

/* "voluntary_ctxt_switches:  12" style fields of /proc/PID/status. */
long long procstat_status_field(const char *text, const char *key);

/* utime + stime (clock ticks) from /proc/PID/stat text; -1 if malformed. */
long long procstat_pid_cputicks(const char *text);

/* Number of CPUs in a list like "0-3,8,10-11"; -1 on a malformed list. */
int procstat_cpulist_count(const char *list);

/*
 * The firmware's NUMA layout, ACPI's SRAT table as
 * /sys/firmware/acpi/tables/SRAT holds it: what a kernel built without
 * CONFIG_NUMA still can tell.  cpu() is called for each enabled
 * processor entry (its proximity domain and (x2)APIC id), mem() for
 * each enabled memory range.  Entries past len or shorter than their
 * type are ignored; -1 when buf is no SRAT.
 */
int procstat_srat(const unsigned char *buf, size_t len,
		  void (*cpu)(void *data, unsigned int domain, unsigned int apic),
		  void (*mem)(void *data, unsigned int domain,
			      unsigned long long bytes),
		  void *data);

#endif
