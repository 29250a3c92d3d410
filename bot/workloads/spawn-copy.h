/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn-copy.h - one copy of UnixBench's spawn: the fork/exit/wait loop.
 *
 * fork() copies the forking process's page tables and VMAs, so the loop
 * has to run in a process shaped like UnixBench's pgms/spawn: a small,
 * single-threaded, dynamically linked C program.  sched-bench is static
 * (it is the initramfs's /init), so the loop runs in a helper,
 * sched-bench-spawn, built dynamically next to it; spawn.c starts one
 * helper per copy and reads its result from a pipe.  The same loop runs
 * inside sched-bench when the helper is missing (and the record says so).
 */
#ifndef SCHED_BENCH_SPAWN_COPY_H
#define SCHED_BENCH_SPAWN_COPY_H

#define SPAWN_HELPER "sched-bench-spawn"

enum { SPAWN_SETSID = 1, SPAWN_CHILD_CPU = 2 };

/* What a copy writes to its result pipe (one write, same build). */
struct copy_result {
	int copy;
	int failed;		/* errno of a failed fork/wait, 0 ok */
	double count;
	double elapsed;
	long long migrations;	/* of the copy itself; -1 unknown */
	double other_cpu;	/* children that ran on another CPU */
};

/* Loop fork, child _exit(0), parent wait() for `duration` seconds. */
void spawn_copy(int copy, double duration, int flags,
		struct copy_result *res);
/* Write res to fd in one piece; 0, or -1 when the pipe is gone. */
int spawn_copy_report(int fd, const struct copy_result *res);

#endif
