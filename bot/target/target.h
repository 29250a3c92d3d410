/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target.h - where the workloads run: a QEMU guest booted with a built
 * kernel, a real machine reached over ssh, or the local host.
 *
 * A target is named by --target NAME and configured in [target "NAME"];
 * its type is target.NAME.type (qemu, ssh or local), defaulting to the
 * name itself, so "--target qemu" works with no configuration at all.
 *
 *   qemu:  target.NAME.smp (2), .mem (MB, 1024), .timeout (s, 600),
 *          .accel (auto|kvm|tcg; auto probes KVM briefly, else TCG),
 *          .qemu (qemu-system-x86_64), .append (extra kernel args)
 *   ssh:   .host, .user, .port, .identity, .sshOptions, .bootCommand
 *          (default: kexec -l K --command-line=<own + token>, kexec -e),
 *          .initrd, .append, .restoreCommand, .console, .powerCommand,
 *          .bootTimeout, .timeout, .remoteDir, .prepare, .maxLoad and
 *          .busy (for target_check(), as the local target)
 *   local: nothing; runs sched-bench on this machine
 *
 * Workloads are sched-bench's own (spawn, pingpong) or external tools
 * (hackbench, perf-pipe, perf-messaging: see run.h).  A QEMU guest gets
 * the tools of this host in its initramfs, with their shared libraries
 * and loader; an ssh target gets them copied when it lacks them
 * (.shipTools = auto|always|never).  A tool that is nowhere is skipped
 * with a "skip:" line, as `sched-bot run` does.
 *
 * Whatever happens, the result says it: boot failure, panic, hang
 * (timeout) and garbage on the console are statuses with the last
 * console lines, never numbers.
 */
#ifndef SCHED_BOT_TARGET_H
#define SCHED_BOT_TARGET_H

#include <stdio.h>

#include "target/console.h"
#include "samples.h"

struct arch;
struct kv;

/* The [target "NAME"] blocks, filled in bot/builtin/ (config-opts.c). */
struct target_opts {
	/* "target.NAME.KEY" -> the value the configuration sets; a key
	 * not in it has the table's default (config-keys.c)
	 */
	const struct kv *set;
};

/* Before any target is asked or run: one used first is a bug. */
void target_configure(const struct target_opts *o);

struct boot_req {
	const char *kernel;	/* bzImage (qemu, ssh); NULL for local */
	const char *release;	/* ssh: uname -r expected after boot */
	const char *workloads;	/* "spawn,pingpong" */
	/* sched-bench options per workload, "pingpong=--no-pin,-n,2
	 * spawn=-c,4" (init splits at commas); NULL: none
	 */
	const char *workload_args;
	int runs;		/* repetitions of each, interleaved */
	int seconds;		/* length of one workload run */
	/* spawn's --gap, seconds before each pass; NULL: sched-bench's
	 * (3 s, UnixBench's Run)
	 */
	const char *spawn_gap;
	/* pingpong's --warmup; NULL: sched-bench's (6, will-it-scale's) */
	const char *warmup;
	const char *label;	/* the CSV label column */
	/*
	 * 1: the kernel the series is measured against (a job's base, the
	 * tree's own code), not one a series changed: only its record of
	 * the machine may become a lab device's facts (target_facts())
	 */
	int reference;
	int autogroup;		/* -1: as booted, 0 off, 1 on */
	const char *cgroup;	/* NULL, "root" or "new": a new cpu cgroup */
	const char *workdir;	/* console log, initramfs; NULL: a temp dir */
	const char *sched_bench;/* NULL: run_find_sched_bench()'s */
	/* workloads ("spawn,hackbench") to run once more after the runs,
	 * each cell under perf record: diag.profile.* rows (qemu and lava
	 * ship this machine's perf unless target.NAME.perf = false;
	 * local: its own); NULL: none
	 */
	const char *profile;
	/*
	 * Kernel command-line words of this run beyond the target's own
	 * (.append): the reporter's size, "maxcpus=4 nr_cpus=4 mem=16G"
	 * (plan.h); a machine's own words of those names give way to them.
	 * NULL: none.  Only a target that boots a kernel takes them.
	 */
	const char *append;
	int progress;		/* 1: status on stderr, if a tty */
};

struct boot_res {
	enum console_status status;	/* CONSOLE_OK when rows are valid */
	char *reason;		/* one line: what went wrong */
	char *last_lines;	/* tail of the console when not OK */
	char *console;		/* path of the full console log */
	char *accel;		/* qemu: "kvm" or "tcg" */
	char *kernel;		/* uname -r seen in the guest / machine */
	char *target;		/* target name, for the CSV */
	char *device;		/* lava: the device LAVA ran it on */
	char *lava_job;		/* lava: the job's page */
	double boot_seconds;	/* start to /init (the BEGIN frame) */
	double seconds;		/* whole boot + run */
	/* every workload was skipped, its tool nowhere: nothing ran */
	int skipped_all;
	struct sample_set samples;
};

/*
 * Boot (when the target boots) and run req's workloads on target name.
 * Returns 0 when res->samples holds the rows, 1 when the target ran but
 * failed (res->status, reason, last_lines), -1 on a setup error
 * (printed).  Either way res must be released.
 */
int target_run(const char *name, const struct boot_req *req,
	       struct boot_res *res);
void boot_res_release(struct boot_res *res);

/*
 * A target marked unhealthy by a machine that did not come back: 1 and
 * *why (allocated: the reason and when), else 0.  target_run() refuses
 * such a target until target_clear() (`sched-bot target clear NAME`).
 */
int target_unhealthy(const char *name, char **why);
/* Clear the mark: 0, 1 when there was none, -1 (printed) on error. */
int target_clear(const char *name);

/*
 * The base config the kernels for target name are built from,
 * target.NAME.baseConfig: unset, NULL in *base (build.baseConfig's);
 * a make target or a file, as given; "running", the machine's own,
 * taken once from it (ssh: /proc/config.gz or /boot/config-RELEASE) and
 * kept beside its health mark.  *origin says where it came from, for
 * the reply.  Both allocated.  0, or -1 (printed).
 */
int target_base_config(const char *name, char **base, char **origin);

/*
 * The config fragments the kernels for target name get, blank-separated
 * names in kernel/configs (or files), allocated: target.NAME.fragments
 * when set; else, for a machine whose kernels are built from its own
 * config (target.NAME.baseConfig running or a file), its backend's
 * (ssh: machine.config kexec.config; lava: machine.config
 * initramfs.config), which force nothing that changes what is
 * measured; else BUILD_FRAGMENTS, the bot's guests', which a kernel
 * made from scratch (tinyconfig) needs all of (for arm64:
 * sched.config qemu-arm64.config, arch.h).
 */
char *target_fragments(const char *name);

/*
 * The architecture of target name's kernels: target.NAME.arch, x86_64
 * when unset (or name is NULL); NULL, said, for one sched-bot does
 * not know.
 */
const struct arch *target_arch(const char *name);

/*
 * Is the machine fit to measure on (target/check.c): its settings and
 * other load now, over `sched-bench health`, and with runs > 0 each
 * workload's own noise, runs short runs on the running kernel (their
 * CV), kept per target; with runs 0, the noise the last check kept
 * (a job's look before its runs).  With target.NAME.prepare and runs
 * > 0 the performance governor is set first.  Only for a machine that
 * runs between jobs: ssh and local.  A busy machine is reported (its
 * numbers are taken, the reply says it was busy) unless
 * target.NAME.busy = refuse.
 */
struct target_check_opts {
	const char *workloads;	/* of the noise runs, and the ones judged;
				 * NULL: the default set, every one kept
				 */
	int runs;		/* of each; 0: the kept noise */
	int seconds;		/* of each run */
	int quick;		/* one spawn pass, no gap or warm-up */
	double detect;		/* compare.detect: the change to find, % */
	int max_runs;		/* job.maxRuns: the runs a side at most */
	const char *budget;	/* what sets max_runs; NULL: "job.maxRuns" */
};

struct target_check {
	struct strbuf report;	/* the lines to show, "NAME: ..." */
	char *busy;		/* what else loads the machine, or NULL */
	/* busy, and target.NAME.busy = refuse: no job runs there now */
	int refuse;
	char *noisy;		/* why detect is out of reach, or NULL */
	char *noise;		/* "noise WORKLOAD METRIC CV RUNS" lines */
};

/* 0 with c filled (busy and noisy say the verdict), -1 (printed). */
int target_check(const char *name, const struct target_check_opts *o,
		 struct target_check *c);
void target_check_release(struct target_check *c);

/* The target's type ("qemu", "ssh", "local") or NULL when unknown. */
const char *target_type(const char *name);

/*
 * fn for each name that is a target with no [target "NAME"] section:
 * the type of each backend that needs nothing configured (a guest whose
 * shape has defaults, this machine), e.g. "qemu" and "local".
 */
int target_each_builtin(int (*fn)(const char *name, void *data),
			void *data);

/*
 * What a target is, as its backend declares it (target_ops.traits).
 * Code that treats kinds of target differently asks for a trait, never
 * for a type name: a new backend says what it is in its ops table.
 */
enum target_trait {
	/* its configuration is its shape (.smp, .mem, .numa): qemu */
	TARGET_SHAPED = 1 << 0,
	/* this machine on its running kernel, as it is: local */
	TARGET_HERE = 1 << 1,
	/* boots the kernel with sched-bot's initramfs, the tools of this
	 * host in it: qemu, lava
	 */
	TARGET_GUEST = 1 << 2,
	/* a lab's device: a run's own records are all the bot learns of
	 * the machine, so they are kept: lava
	 */
	TARGET_LAB = 1 << 3,
	/* a machine of its own between jobs, looked at (health, noise)
	 * before a job's runs: ssh, local
	 */
	TARGET_MACHINE = 1 << 4,
};

/* Has target name every trait in traits?  0 for an unknown target. */
int target_is(const char *name, unsigned int traits);

/*
 * Is the target fit to vouch for a kernel (a Tested-by, a verdict on
 * the list): target.NAME.vouch when set, else its backend's word (ssh:
 * yes; lava: yes but for a device of type qemu; qemu, even under KVM,
 * and local, which runs on this machine's own kernel: no).
 */
int target_vouches(const char *name);

/*
 * What the target's backend can say of its machines beyond the health
 * mark (a LAVA lab: its devices and queue), to out.  0, also when it has
 * nothing to say; -1 (printed) when the lab cannot be asked.
 */
int target_status(const char *name, FILE *out);

/*
 * The vCPUs and MB of memory target.NAME.smp and .mem give (their
 * defaults when unset); returns whether .smp is set for NAME.
 */
int target_shape(const char *name, long *smp, long *mem);

/* The most NUMA nodes a QEMU guest is given (target.NAME.numa). */
#define TARGET_NODES_MAX 8

/* A target's CPUs as its configuration lays them out. */
struct target_topo {
	long cpus;		/* .smp */
	long sockets;		/* .sockets, 1 */
	long threads;		/* .threads per core, 1 */
	long nodes;		/* .numa, 1 */
	long llc;		/* CPUs sharing a last-level cache */
};

/*
 * The layout target.NAME.smp, .sockets, .threads and .numa give a QEMU
 * guest (QEMU gives each socket one L3, so an LLC is a socket); 1 when
 * it is known (a qemu target, or .smp set), 0 when only the CPU count
 * (this machine's) is.
 */
int target_topology(const char *name, struct target_topo *t);

/*
 * The seconds a boot's runs may take on target name, as a plan must fit
 * them: target.NAME.timeout when set (qemu: the guest's boot too), an
 * ssh machine's 600 by default; 0 when the target reckons its timeout
 * from the runs it is given (qemu, lava, local).
 */
long target_run_budget(const char *name);

/*
 * The machine's own record of itself (sched-bench's "env," lines: its
 * CPUs online, sockets, threads per core, NUMA nodes, the CPUs of each
 * LLC) as measured on it, for a target whose shape is no configuration:
 * with fresh, an ssh machine is asked now (`sched-bench health` on its
 * running kernel); else the record last kept, by `sched-bot target
 * check` (ssh), a lab's last run of a reference kernel (lava: never a
 * kernel a series changed, whatever it says of the machine; nor, on an
 * ssh machine, a kernel booted with a sched_bot.build= token).  Into
 * facts: 1, 0 when none is known (a qemu target: its configuration is
 * its shape; local: this machine as it is), -1 (printed) when the
 * machine cannot be asked.
 */
int target_facts(const char *name, int fresh, struct strbuf *facts);
/*
 * The layout such a record gives into t (cpus, sockets, threads, nodes,
 * llc: the CPUs of the first LLC): 1 when every level is known and
 * divides the CPUs, else 0 with t->cpus the CPUs when the record says.
 */
int target_topology_of(const char *facts, struct target_topo *t);
/* The memory the record gives (its MemTotal), in MB; 0 when it does not. */
unsigned long long target_facts_mem_mb(const char *facts);

/*
 * target.NAME.matchReporter: whether the target is cut down to the
 * machine a thread says it measured on (plan.h, struct plan_cut), with
 * the kernel words boot_req.append carries.
 */
int target_match_reporter(const char *name);

/*
 * Write the QEMU guest's initramfs for req (sched-bench as /init, the
 * tools req->workloads name, with their libraries) to path, without
 * booting anything.  -1 (printed) on error.
 */
int target_make_initramfs(const char *path, const struct boot_req *req);

#endif
