// SPDX-License-Identifier: GPL-2.0
/*
 * spawn-copy.c - the loop of UnixBench's pgms/spawn, timed with
 * CLOCK_MONOTONIC instead of a whole-second alarm().  libc and procstat
 * only: it is linked into the dynamic helper as well as sched-bench.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../procstat.h"
#include "spawn-copy.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long self_migrations(void)
{
	char buf[8192];

	if (procstat_read("/proc/self/sched", buf, sizeof(buf)) < 0)
		return -1;
	return procstat_sched_field(buf, "se.nr_migrations");
}

void spawn_copy(int copy, double duration, int flags,
		struct copy_result *res)
{
	long long m0 = self_migrations(), m1;
	int track = flags & SPAWN_CHILD_CPU;
	unsigned long count = 0;
	double t0;
	int status;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	res->copy = copy;
	res->migrations = -1;
	if (flags & SPAWN_SETSID)
		setsid();
	t0 = now();
	for (;;) {
		int cpu = track ? sched_getcpu() : 0;

		pid = fork();
		if (pid == 0) {
			/* exit(), not _exit(), as spawn: the child runs
			 * libc's exit path (atexit, stdio), whose writes to
			 * its copied data pages are part of the cost.
			 * --child-cpu: the child only reads its CPU (vDSO,
			 * no system call) and returns it in its status.
			 */
			if (track)
				exit(1 + (sched_getcpu() & 0x7f));
			exit(0);
		}
		if (pid < 0) {
			res->failed = errno;
			break;
		}
		/* Like spawn: wait for any child; a bad status is fatal. */
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    (!track && status)) {
			res->failed = EIO;
			break;
		}
		if (track && WEXITSTATUS(status) - 1 != (cpu & 0x7f))
			res->other_cpu++;
		count++;
		if (now() - t0 >= duration)
			break;
	}
	res->elapsed = now() - t0;
	res->count = count;
	m1 = m0 >= 0 ? self_migrations() : -1;
	if (m0 >= 0 && m1 >= m0)
		res->migrations = m1 - m0;
}

int spawn_copy_report(int fd, const struct copy_result *res)
{
	const char *p = (const char *)res;
	size_t len = sizeof(*res);

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}
