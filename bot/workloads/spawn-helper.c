// SPDX-License-Identifier: GPL-2.0
/*
 * spawn-helper.c - sched-bench-spawn, the process one spawn copy forks
 * from: dynamically linked and as small as UnixBench's pgms/spawn, so
 * that fork() copies the same kind of address space (see spawn-copy.h).
 * Run by `sched-bench spawn`, not by hand:
 *
 *   sched-bench-spawn COPY SECONDS FLAGS FD
 *
 * loops for SECONDS and writes its struct copy_result to file
 * descriptor FD.  Nothing else touches stdio or the heap before the loop.
 */
#include <stdlib.h>
#include <unistd.h>

#include "spawn-copy.h"

int main(int argc, char **argv)
{
	struct copy_result res;
	double duration;
	int fd;

	if (argc != 5)
		return 2;
	duration = atof(argv[2]);
	fd = atoi(argv[4]);
	if (!(duration > 0) || fd < 0)
		return 2;
	spawn_copy(atoi(argv[1]), duration, atoi(argv[3]), &res);
	if (spawn_copy_report(fd, &res))
		return 1;
	return res.failed ? 2 : 0;
}
