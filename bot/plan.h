/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - what to run for a series (`--workloads auto`), and why.
 *
 * The thread comes first: the benchmarks its cover letter, patches and
 * replies report are mapped to the bot's runners (workload.h), scaled
 * to the target's CPUs:
 *
 *   will-it-scale context_switch1    pingpong: pinned unless the thread
 *                                    says no task is bound ("--no-pin"),
 *                                    threads for per_thread_ops, an
 *                                    instance sweep 1 .. 2x CPUs when it
 *                                    reports instance counts (else 1 ..
 *                                    CPUs)
 *   UnixBench `./Run -c N spawn`     spawn -c CPUs; in three cells of
 *                                    the autogroup x cgroup matrix when
 *                                    the thread or the diff is about
 *                                    autogroup, cgroup or task-group
 *                                    code: autogroup on, each copy in
 *                                    its own session (--setsid); a new
 *                                    cpu cgroup; autogroup off, for
 *                                    contrast, when one boot's runs fit
 *                                    the target's timeout with it (each
 *                                    run, sweep point and cell counts
 *                                    -t + 10 s).  The local target runs
 *                                    as the machine is: one cell.
 *   hackbench                        hackbench (the runner's parameters)
 *   perf bench sched pipe/messaging  perf-pipe, perf-messaging
 *   schbench                         schbench
 *
 * Benchmarks the bot has no runner for (netperf, tbench, dbench, stream,
 * ...) are named as not run.  When the thread names nothing the bot can
 * run, the diff decides:
 *
 *   wake-up and idle selection (select_idle_*, wake_affine, wake_wide,
 *   select_task_rq, try_to_wake_up)        unpinned ping-pong sweep,
 *                                          hackbench
 *   fork, exit, cgroup, autogroup (kernel/fork.c, kernel/exit.c,
 *   kernel/sched/autogroup.c, sched_move_task, core.c cgroup code)
 *                                          spawn -c CPUs, the placement
 *                                          recorded
 *   load balance (load_balance, find_busiest_*, sched_balance_*, ...)
 *                                          hackbench, spawn
 *
 * and when neither does, the workload table's default set runs.  Each
 * item carries the phrase or the hunk that chose it.
 *
 * An instance sweep with the target's layout known (plan_target_layout:
 * a qemu target's configured shape; plan_facts_layout: what an ssh
 * machine or a lab's device reports of itself; LLC, node and socket
 * sizes) is 1, one LLC, one node, one socket, all CPUs and twice that;
 * without it 1, 2, 4, ... with CPUs/2 and CPUs.
 *
 * With target.NAME.matchReporter, the first sentence of the thread that
 * states the machine it measured on ("4 vCPUs and 16 GiB RAM", "mem=16G
 * maxcpus=4 nr_cpus=4": machsize.h) cuts the target down to it: a
 * target with more CPUs boots with maxcpus=N nr_cpus=N and the plan is
 * scaled to N, one with more memory with mem=; a larger size is said,
 * never applied (struct plan_cut).  The plan quotes the sentence, with
 * the message it is in, and says what is cut and what is not.
 *
 * Only the first TEXT_LINE_MAX bytes of a line are read; a thread of any
 * size is read in time linear in its length.
 */
#ifndef SCHED_BOT_PLAN_H
#define SCHED_BOT_PLAN_H

#include <stddef.h>

#include "util.h"

struct plan_opts {
	int cpus;		/* the target's CPUs (>= 1) */
	/* CPUs in one LLC, one NUMA node, one socket; 0: not known */
	int llc, node, socket;
	/* 1: cpus and the layout are the machine's own record of itself */
	int measured;
	/* 1: the target runs as the machine is (local): one cell */
	int as_booted;
	int seconds;		/* -t of a run; 0: sched-bench's 5 */
	const char *spawn_gap;	/* spawn's --gap; NULL: its own 3 s */
	const char *warmup;	/* pingpong's --warmup; NULL: its own 6 s */
	/* the seconds one boot's runs may take (plan_target_budget); 0:
	 * no bound (the target's timeout is reckoned from the runs)
	 */
	int budget;
	/* 1 when prog can run on the target; NULL: every tool can. */
	int (*have_tool)(const char *prog);
	/*
	 * target.NAME.matchReporter: cut the target down to the machine
	 * the thread says it measured on (struct plan_cut), never up.
	 */
	int match_reporter;
	/* the target's memory in MB (its .mem, or its record); 0: unknown */
	unsigned long long mem_mb;
};

struct plan_item {
	const char *workload;	/* a workload.h name */
	char *args;		/* runner options, blank-separated, or "" */
	char *cmdline;		/* the exact command the target runs */
	char *placement;	/* where its tasks run */
	char *summary;		/* one line: what it measures here */
	char *why;		/* lines: the phrases, hunks that chose it */
};

struct plan_skip {
	char *name;		/* "netperf" */
	char *why;		/* "named in <msgid> (Author); no runner" */
};

enum plan_basis {
	PLAN_THREAD,		/* benchmarks named in the thread */
	PLAN_DIFF,		/* what the diff touches */
	PLAN_DEFAULT,		/* neither said anything */
};

/*
 * The reporter's size (plan_opts.match_reporter): the first sentence of
 * the thread that states the CPUs of the machine it measured on (and
 * its memory, machsize.h), and what of it the target is cut to with
 * kernel words: maxcpus=N nr_cpus=N when it has more CPUs, mem= when it
 * has more memory.  A size larger than the target's is said, not
 * applied; the local target runs as the machine is, and is not cut.
 */
struct plan_cut {
	int asked;		/* match_reporter was set */
	int said_cpus;		/* the thread's; 0: it states none */
	unsigned long long said_mem_mb;
	int target_cpus;	/* the target's, before the cut */
	int cpus;		/* cut to; 0: not cut */
	unsigned long long mem_mb;	/* cut to; 0: not cut */
	char *words;		/* "maxcpus=4 nr_cpus=4 mem=16G", or NULL */
	char *said;		/* the sentence, cited: "..." (who [1]) */
	char *why;		/* lines: what is cut and what is not */
	char *sentence;		/* the reply's: "cut to the reporter's ..." */
};

struct plan {
	int cpus;
	int llc, node, socket;	/* as plan_opts has them */
	int measured;
	/* one boot's runs as reckoned ((-t + 10 s) each), and o->budget */
	int boot_seconds, budget;
	enum plan_basis basis;
	struct plan_item *items;
	size_t nr, alloc;
	struct plan_skip *skips;
	size_t nr_skips, alloc_skips;
	char **refs;		/* the message-ids cited: [1] is refs[0] */
	size_t nr_refs, alloc_refs;
	struct plan_cut cut;	/* the reporter's size; cpus is after it */
};

/*
 * Plan the runs for the thread in an mbox (every message is read; those
 * carrying a diff give the diff).  Always gives a plan (a thread with no
 * message gets the default set).  Release with plan_release().
 */
void plan_from_mbox(const char *text, size_t len, const struct plan_opts *o,
		    struct plan *p);
/* The same for a file; -1 with an error printed. */
int plan_from_file(const char *path, const struct plan_opts *o,
		   struct plan *p);
void plan_release(struct plan *p);

/*
 * The CPUs the workloads get on target name: target.NAME.smp for QEMU
 * (and any target that sets it), this machine's for local; else this
 * machine's with *assumed = 1 (may be NULL).
 */
int plan_target_cpus(const char *target, int *assumed);
/*
 * The LLC, node and socket sizes of target's layout (target_topology)
 * into o, when it is known; o->cpus is left as it is.
 */
void plan_target_layout(const char *target, struct plan_opts *o);
/*
 * The CPUs and layout of a machine's own record (target_facts(): an ssh
 * machine, a lab's device) into o, o->measured set: 1 when the record
 * gives the CPUs (the layout too when it has every level), else 0 with
 * o as it was.  The sweep is the one a qemu target of that shape gets.
 */
int plan_facts_layout(const char *facts, struct plan_opts *o);
/*
 * target.NAME.matchReporter into o, with the target's memory: its .mem
 * (a QEMU guest), else what its record says (facts, may be NULL).
 */
void plan_target_match(const char *target, const char *facts,
		       struct plan_opts *o);
/* The seconds one boot's runs may take on target: its timeout, or 0. */
int plan_target_budget(const char *target);
/* have_tool for the targets that take tools from this host: its PATH. */
int plan_host_has_tool(const char *prog);

/*
 * Run first: the items whose workload is in first (comma-separated: the
 * workloads an earlier version, v<version>, regressed; jobpast.h) move
 * to the front, those and the rest each in the plan's order, their why
 * saying so.  Only the order changes: they are run and judged as every
 * other KPI, in the one family of compare.h, at its alpha, so looking
 * at them again adds no test and no false alarm.  NULL or "": as it was.
 */
void plan_run_first(struct plan *p, const char *first, int version);
/* The same order for a comma-separated list of workloads (a new string). */
char *plan_order_first(const char *workloads, const char *first);
/* 1 when the n bytes of name are one of the comma-separated list's words. */
int plan_list_has(const char *list, const char *name, size_t n);

/* The workloads, comma-separated, for a boot request: "pingpong,hackbench". */
char *plan_workloads(const struct plan *p);
/*
 * The runner options as init words for a boot request, one per item with
 * options, space-separated: "pingpong=--no-pin,--sweep,1:2:4 spawn=-c,2"
 * (init splits at commas, sched-bench's --sweep takes ':' too).
 */
char *plan_init_args(const struct plan *p);
/* The plan as a job's plan.txt (and `sched-bot plan`): what runs, why. */
void plan_text(const struct plan *p, struct strbuf *out);

#endif
