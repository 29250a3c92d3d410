/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - sched-bench's sub-commands.  sched-bench is static and uses
 * libc only: it runs in a tiny initramfs and on machines reached by ssh.
 * spawn's copies fork from sched-bench-spawn, a dynamic helper shipped
 * with its libc and loader (spawn-copy.h).
 *
 * OUTPUT FORMAT (version 1), on stdout; human lines go to stderr.
 * One record per line, fields separated by commas, the first field is the
 * record kind.  No field contains a comma or a newline, except the last
 * field of "env" records, which runs to the end of the line.  Readers
 * ignore every line that does not start with a known kind followed by a
 * comma (kernel messages on a serial console, blank lines), and reject a
 * record whose field count or numbers are wrong.
 *
 *   # sched-bench 1 <free text>
 *   kind,workload,params,run,sample,metric,value,unit,hib,placement
 *   env,<key>,<value to end of line>
 *   health,<key>,<value to end of line>   (sched-bench health only)
 *   sample,<workload>,<params>,<run>,<sample>,<metric>,<value>,<unit>,
 *          <hib>,<placement>            (one line)
 *   stat,<workload>,<params>,<run>,<key>,<value>,<unit>,<placement>
 *   copy,<workload>,<params>,<run>,<pass>,<copy>,<count>,<elapsed_s>,<lps>
 *   inst,<workload>,<params>,<run>,<instance>,<cpu>,<handoffs_per_s>
 *   end,<workload>,<params>,<run>,<records>
 *
 * params    canonical "key=value key=value" (spaces, never commas)
 * run       the repetition number given by --run (default 1)
 * sample    0 = the run's headline value; 1.. = the pass (spawn) or the
 *           measured one-second sample (pingpong)
 * hib       1 when higher is better, else 0
 * placement "pinned" (each pair confined to one CPU), "free" (the
 *           scheduler places the tasks), "apart" (free, each pair started
 *           on two CPUs: --apart) or "" (not applicable)
 * stat      per-run facts: cpu_usr cpu_sys cpu_idle cpu_iowait
 *           cpu_softirq cpu_other (% of machine time over the measured
 *           part, from /proc/stat), wall_s, ctx_voluntary,
 *           ctx_involuntary (getrusage of the workers), migrations
 *           (se.nr_migrations of the long-lived tasks, when
 *           /proc/PID/sched exists),
 *           schedstat.* (deltas of /proc/schedstat over the measured
 *           part, summed over CPUs, when the file exists:
 *           rq_cpu_time run_delay (ms) pcount run_delay_per_slice (us)
 *           always; while sched_schedstats is on also yld_count
 *           sched_count sched_goidle ttwu ttwu_local ttwu_remote
 *           ttwu_move_affine ttwu_wake_remote, and per domain level N
 *           domN.lb_count domN.lb_failed domN.lb_imbalance
 *           domN.lb_gained (over the idle types) domN.lb_count_newidle
 *           domN.alb_count domN.alb_pushed), task_wait_ms (pingpong:
 *           wait_sum of its tasks, when schedstats count)
 *           harness_cpu_s (CPU time of sched-bench's own sampling
 *           thread), passes_kept (spawn), child_other_cpu_pct (spawn
 *           --child-cpu: % of children that ran on another CPU than
 *           their parent at fork time)
 *           own_cpu_s (CPU time of the benchmark tasks over the measured
 *           part), foreign_cpu_pct (the rest of the machine's busy time,
 *           % of all CPUs: other load that makes the run untrustworthy)
 * copy      spawn: one copy's fork loops, measured elapsed time and rate
 * inst      pingpong: one instance's average hand-offs/s and its CPU
 *           (-1 when free)
 * end       closes a run: <records> = number of sample, stat, copy and
 *           inst records of this (workload, params, run); a reader drops
 *           a run whose end is missing or whose count differs.
 * health    keys: nr_cpus cpufreq_driver governor boost smt thp loadavg,
 *           top ("<% of a CPU> <pid> <comm>", the busiest first, over
 *           top_seconds), prepare (what --prepare did); see health.c
 * env keys  see env.c (kernel_release, nr_cpus, config_sched_autogroup,
 *           sched_autogroup_enabled, cgroup, autogroup, ...); "unknown"
 *           when the machine does not say.
 *
 * Every workload run prints the env records first, as seen by the
 * benchmark tasks (after --cgroup/--autogroup took effect).
 */
#ifndef SCHED_BENCH_H
#define SCHED_BENCH_H

#include <stdio.h>
#include <sys/resource.h>

#include "../procstat.h"
#include "../benchcalc.h"
#include "../interleave.h"
#include "../benchopts.h"

#define BENCH_FORMAT_VERSION 1

/* util.h's, which sched-bench does not include */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int bench_spawn(int argc, char **argv);		/* spawn.c */
int bench_pingpong(int argc, char **argv);	/* pingpong.c */
int bench_env(int argc, char **argv);		/* env.c */
int bench_health(int argc, char **argv);	/* health.c */
/* init.c: PID 1 of the QEMU initramfs; runs the workloads asked on the
 * kernel command line and prints framed results on the console.
 */
int bench_init(int argc, char **argv);

/* common.c: records, run statistics and the environment knobs. */
double bench_now(void);			/* CLOCK_MONOTONIC seconds */
void bench_sleep_until(double t);
int bench_online_cpus(void);

/* Records of one (workload, params, run); counts them for "end". */
struct bench_rec {
	const char *workload;
	char params[256];
	int run;
	const char *placement;
	int count;
};
void rec_header(void);
void rec_sample(struct bench_rec *r, int sample, const char *metric,
		double value, const char *unit, int hib);
void rec_stat(struct bench_rec *r, const char *key, double value,
	      const char *unit);
void rec_line(struct bench_rec *r, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rec_end(struct bench_rec *r);
void rec_env(const char *key, const char *value);

/* Machine-wide and per-worker counters around the measured part. */
struct run_stats {
	struct cpu_times cpu0, cpu;	/* accumulated measured ticks */
	int have_cpu;
	/* /proc/schedstat at the segment's start, and the sum of the
	 * segments' deltas: only the measured parts count
	 */
	struct schedstat ss0, ss;
	int have_ss;		/* ss is known */
	int ss_enabled;		/* sched_schedstats was 1 throughout */
	double wall;
};
void stats_begin(struct run_stats *st);
void stats_end(struct run_stats *st);	/* may alternate with begin */
/*
 * Prints the stat records; a count < 0 is unknown and left out.  own_cpu_s
 * is the CPU time of the benchmark's tasks over the measured part: the
 * rest of the machine's busy time is foreign load (foreign_cpu_pct).  Returns
 * foreign_cpu_pct, or -1 when unknown.
 */
double stats_print(struct run_stats *st, struct bench_rec *r,
		    long long nvcsw, long long nivcsw, long long migrations,
		    double own_cpu_s);
/* A warning for the human line when other load took > 1 % of the
 * machine during the run (the results are then not trustworthy).
 */
const char *busy_note(double foreign_pct);
/* CPU time sched-bench itself (this thread: sampling, records) used. */
void harness_stat(struct bench_rec *r);
/* se.nr_migrations of a task (pid, or tid of this process); -1 unknown. */
long long task_migrations(int pid, int is_thread);
/* wait_sum of a task in us, while schedstats count; -1 unknown. */
long long task_wait_us(int pid, int is_thread);

/* Environment knobs shared by the workloads. */
struct bench_knobs {
	const char *autogroup;	/* "on", "off" or NULL */
	const char *cgroup;	/* "root", "new" or NULL */
	int setsid;
	int saved_autogroup;	/* -1: nothing to restore */
	char made_cgroup[1024];	/* the directory to remove */
	char cgroup_procs_root[1024];
};
/* --autogroup, --cgroup and --setsid as bench_parse() found them. */
void knobs_from_args(struct bench_knobs *k, const struct bench_args *a);
int knobs_apply(struct bench_knobs *k);	/* -1 + message on failure */
void knobs_restore(struct bench_knobs *k);
void knobs_params(const struct bench_knobs *k, char *buf, size_t size);

/* inflate.c: decode a gzip member; *out is NUL-terminated, free it. */
int bench_gunzip(const unsigned char *in, size_t len, char **out,
		 size_t *outlen);

/* env.c: print every env record. */
void env_print(const struct bench_knobs *k);

#endif
