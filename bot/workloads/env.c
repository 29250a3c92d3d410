// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "bench.h"

int bench_env(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("sched-bench: env is not written yet\n", stderr);
	return 1;
}
