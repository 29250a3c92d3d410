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
 * Config: sandbox.user, sandbox.memLimit (bytes of address space per
 * process, default 4G), sandbox.maxProcs (processes of the sandbox uid,
 * default 1024), sandbox.maxFileSize (bytes per file written, default
 * 4G), sandbox.tmpSize (the tmpfs /tmp, default 1G).  0 lifts a limit.
 */
#ifndef SCHED_BOT_SANDBOX_H
#define SCHED_BOT_SANDBOX_H

#include <stddef.h>

#include "subproc.h"

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
};

/*
 * Run p->argv inside the sandbox; p's output, log, timeout (the whole
 * sandbox is killed when it hits) and capture work as for
 * subproc_run(), and so do the return values.  p->env and p->setup are
 * not used.  Returns -1 after printing why when no sandbox can be made.
 */
int sandbox_run(const struct sandbox *sb, const struct subproc *p);

/*
 * 0 when sandbox_run() can work here, else -1 after printing why
 * (bubblewrap missing, user namespaces disabled, root without a
 * sandbox.user).  The answer is remembered.
 */
int sandbox_check(void);

#endif
