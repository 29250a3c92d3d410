/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sandbox.h - run untrusted code (a kernel's make and its scripts, QEMU
 * booting an untrusted kernel) under bubblewrap: no network, its own
 * PID namespace that dies as a whole, a clean environment, nothing of
 * the host but /usr, a few read-only files of /etc and the directories
 * and files it is given, an unprivileged uid, and limits on time,
 * memory, processes and file size.
 *
 * Inside, the given directories keep their paths, so that a build's
 * recorded paths (kbuild's .cmd files, ccache's base dir) are the same
 * whether or not it ran sandboxed.  HOME is an empty scratch directory
 * on the sandbox's own /tmp (a tmpfs).
 *
 * The uid: run as root, the bot drops to sandbox.user (default
 * "nobody") before bubblewrap starts; the directories handed over
 * writable are given to that user.  Run as anyone else, the build runs
 * as the bot's own uid inside a user namespace.  Root with no usable
 * sandbox.user is refused: an untrusted build never runs as root.
 *
 * Every run has a cgroup of its own (cgroup.h): sandbox.memoryMax
 * (bytes of memory for the whole run, tmpfs pages included, no swap,
 * default 8G) and sandbox.pidsMax (its processes, default 4096); when
 * a limit bites (a process killed for memory, a fork refused) the whole
 * run is stopped, and whatever is left in the cgroup afterwards is
 * killed.  Its tmpfs mounts are sized: /tmp and /dev/shm
 * sandbox.tmpSize each, with an inode for every 16 KiB of it (a run
 * that takes them all is stopped, SANDBOX_OVER_INODES); / and /dev are
 * read-only.
 *
 * Config: sandbox.user, sandbox.memLimit (bytes of address space per
 * process, default 4G), sandbox.maxProcs (processes of the sandbox uid,
 * default 1024), sandbox.maxFileSize (bytes per file written, default
 * 4G), sandbox.tmpSize (the tmpfs /tmp and /dev/shm, default 1G each),
 * sandbox.memoryMax, sandbox.pidsMax, sandbox.cgroup.  0 lifts a limit.
 */
#ifndef SCHED_BOT_SANDBOX_H
#define SCHED_BOT_SANDBOX_H

#include <stddef.h>

#include "subproc.h"

/* The sandbox.* settings, filled in bot/builtin/ (config-opts.c). */
struct sandbox_opts {
	const char *user;	/* sandbox.user: the uid root drops to */
	long mem_limit;		/* sandbox.memLimit, bytes per process */
	long max_procs;		/* sandbox.maxProcs */
	long max_file_size;	/* sandbox.maxFileSize, bytes */
	long tmp_size;		/* sandbox.tmpSize, bytes of each tmpfs */
	long memory_max;	/* sandbox.memoryMax, bytes of the run */
	long pids_max;		/* sandbox.pidsMax */
};

/* Before any sandbox: one run or check before it is a bug. */
void sandbox_configure(const struct sandbox_opts *o);

struct sandbox_dir {
	const char *path;	/* absolute, the same inside: a dir or a file */
	int writable;		/* 0: read-only */
};

struct sandbox {
	const struct sandbox_dir *dirs;
	size_t nr_dirs;
	/*
	 * "K=V" for the command, on top of the allowlist taken from our
	 * environment: PATH, LANG, LC_ALL, ARCH, CROSS_COMPILE, and
	 * CCACHE_* (a CCACHE_DIR must be one of dirs to be any use).
	 */
	const char *const *env;
	/*
	 * Device nodes bound in as they are (NULL-terminated, e.g.
	 * "/dev/kvm"); the sandbox's /dev has only null, zero, full,
	 * random, urandom and tty otherwise.  Dropped to sandbox.user, the
	 * child keeps the group of each such node, so that a node of mode
	 * 0660 stays usable.
	 */
	const char *const *devices;
	/*
	 * Bytes of address space allowed on top of sandbox.memLimit: what
	 * the program allocates by design (a guest's RAM), not on input.
	 */
	unsigned long long extra_mem;
	/*
	 * Bytes the writable dirs may gain together (0: no bound) over
	 * disk_base, what they held before the work began (the caller's
	 * measure: a build's several runs share one), measured about every
	 * half second while the program runs; past it the run is stopped.
	 * What others left there is not this run's cost.  max_disk_key
	 * names the bound in messages.
	 */
	unsigned long long max_disk;
	unsigned long long disk_base;
	const char *max_disk_key;
};

/* sandbox_run() stopped the run at a limit (the whole sandbox killed). */
#define SANDBOX_OVER_MEMORY (-3)	/* sandbox.memoryMax */
#define SANDBOX_OVER_PIDS (-4)		/* sandbox.pidsMax */
#define SANDBOX_OVER_DISK (-5)		/* sb->max_disk */
#define SANDBOX_OVER_INODES (-6)	/* a tmpfs's inodes, all taken */
#define SANDBOX_STOPPED(ret) \
	((ret) <= SANDBOX_OVER_MEMORY && (ret) >= SANDBOX_OVER_INODES)

/*
 * Run p->argv inside the sandbox; p's output, log, timeout (the whole
 * sandbox is killed when it hits) and capture work as for
 * subproc_run(), and so do the return values, and SANDBOX_OVER_*
 * when a limit stopped it.  p->env, p->setup and p->watch are not used.
 * Returns -1 after printing why when no sandbox can be made.
 */
int sandbox_run(const struct sandbox *sb, const struct subproc *p);

/*
 * What a SANDBOX_OVER_* return means, to follow "the build": "used more
 * than sandbox.memoryMax (N bytes of memory)"...  Caller frees; NULL
 * for any other value.
 */
char *sandbox_over(const struct sandbox *sb, int ret);

/*
 * 0 when sandbox_run() can work here, else -1 after printing why
 * (bubblewrap missing, user namespaces disabled, root without a
 * sandbox.user).  The answer is remembered.
 */
int sandbox_check(void);

#endif
