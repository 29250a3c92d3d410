/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools.h - the external benchmark programs (hackbench, perf bench) on
 * a target that does not have them: the real binary on this host and
 * every file it needs to run somewhere else, that is its shared
 * libraries (ldd) and the dynamic loader (the ELF's PT_INTERP).  A QEMU
 * guest gets them in its initramfs at their own paths; an ssh target in
 * one directory, run through the loader.
 */
#ifndef SCHED_BOT_TARGET_TOOLS_H
#define SCHED_BOT_TARGET_TOOLS_H

#include <stddef.h>

/* A NULL-terminated list of allocated strings. */
struct target_words {
	char **v;
	size_t nr, alloc;
};

void target_words_add(struct target_words *w, const char *s);
/* Add s unless the list holds it already. */
void target_words_add_unique(struct target_words *w, const char *s);
void target_words_release(struct target_words *w);

/*
 * The program behind a tool, on this host: PATH's, or, when that is a
 * wrapper script (Debian's perf picks perf_<version> by `uname -r`), the
 * versioned ELF binary it would run.  Allocated, NULL when not here.
 */
char *target_tool_host_path(const char *prog);

/*
 * The files that host_path needs to run on another machine of its
 * architecture, host paths, appended to files without duplicates: the
 * program, its shared libraries and the dynamic loader (*interp, when
 * interp is not NULL: allocated, NULL for a static program).  -1
 * (printed) when a library cannot be found or ldd fails.
 */
int target_tool_files(const char *host_path, struct target_words *files,
		      char **interp);

/*
 * sched-bench-spawn next to the sched-bench at sched_bench (allocated),
 * or NULL when there is none: the dynamically linked program spawn's
 * copies fork from (bot/workloads/spawn-copy.h).  A target ships it, its
 * libraries and its loader wherever it ships sched-bench.
 */
char *target_spawn_helper(const char *sched_bench);

/* The ELF's PT_INTERP (allocated), NULL for a static or non-ELF file. */
char *target_elf_interp(const char *path);

#endif
