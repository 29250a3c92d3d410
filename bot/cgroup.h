/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - one cgroup for each sandbox run: a memory limit for the
 * whole run (its tmpfs pages included), no swap, a process limit, and
 * a way to kill everything left in it afterwards.
 *
 * Where: cgroup v2 when its memory and pids controllers are there,
 * else the v1 memory and pids hierarchies.  sandbox.cgroup is "auto"
 * (v2: the bot's own cgroup, delegated to it (systemd's Delegate=yes)
 * or the bot running as root: the bot moves itself into a leaf "bot"
 * and the runs go below "sandboxes"; at the root of the hierarchy,
 * below "/sched-bot"; v1: below "sched-bot" in the bot's own cgroup of
 * each hierarchy), a path in the hierarchy as /proc/self/cgroup names
 * it (the runs go below it), or "none".
 *
 * When "auto" finds no cgroup it may use (a user without delegation,
 * no controllers) the runs go on with the rlimits only, said in a
 * warning once; a configured path that cannot be used is an error.
 */
#ifndef SCHED_BOT_CGROUP_H
#define SCHED_BOT_CGROUP_H

#define CGROUP_MAX_HIER 2

struct cgroup {
	int v2;
	int nr;				/* 0: no cgroup for this run */
	char *dir[CGROUP_MAX_HIER];	/* v2: one; v1: memory, pids */
	int procs_fd[CGROUP_MAX_HIER];	/* cgroup.procs, open for the child */
	unsigned long long memory;	/* its limit, 0: none */
};

#define CGROUP_INIT { 0, 0, { NULL, NULL }, { -1, -1 }, 0 }

/* Where the cgroups are made: filled by the tool at start-up. */
struct cgroup_opts {
	const char *where;	/* sandbox.cgroup: auto, none or a path */
};
/* Before the first cgroup_create(); one made before it is a bug. */
void cgroup_configure(const struct cgroup_opts *o);

/*
 * Make a cgroup for one run: memory bytes (0: no limit) with no swap,
 * pids processes (0: no limit).  Returns 0 with cg->nr > 0, 0 with
 * cg->nr == 0 when the run goes without (warned once), -1 on error
 * (printed).
 */
int cgroup_create(struct cgroup *cg, unsigned long long memory, long pids);

/*
 * In the child, before exec and before dropping root: move the calling
 * process into the cgroup.  No allocation.  Returns 0 or -1 (errno).
 */
int cgroup_enter(const struct cgroup *cg);

#define CGROUP_OVER_MEMORY 1
#define CGROUP_OVER_PIDS 2

/*
 * Whether a limit has bitten: the kernel killed a process for memory,
 * or the memory nothing can reclaim (anonymous and tmpfs pages: there
 * is no swap) fills the limit, so that the next allocation or tmpfs
 * write fails (CGROUP_OVER_MEMORY); or it refused a fork
 * (CGROUP_OVER_PIDS); else 0.
 */
int cgroup_over(const struct cgroup *cg);

/* SIGKILL everything in the cgroup now. */
void cgroup_kill(const struct cgroup *cg);

/*
 * Kill everything left, wait for it to be gone, remove the cgroup and
 * close its descriptors.  Returns -1 when it could not be removed
 * (printed).
 */
int cgroup_destroy(struct cgroup *cg);

#endif
