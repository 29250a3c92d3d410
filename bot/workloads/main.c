// SPDX-License-Identifier: GPL-2.0
/*
 * sched-bench - the built-in workloads: UnixBench-style spawn and
 * will-it-scale-style context_switch1 ping-pong.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "spawn", bench_spawn, "fork/exit/wait loops per second (UnixBench spawn)" },
	{ "pingpong", bench_pingpong, "pipe hand-offs per second (context_switch1)" },
	{ "env", bench_env, "print the scheduler environment record" },
	{ "health", bench_health, "what else moves the numbers: governor, load, top" },
	{ "init", bench_init, "run as /init in the QEMU initramfs" },
};

/*
 * Run as /init again by perf stat (init.c: "/init spawn ..."): a
 * workload named, not init's words.
 */
static int is_workload(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc >= 2 && i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name) && strcmp(argv[1], "init"))
			return 1;
	return 0;
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: sched-bench <workload> [options]\n\n", f);
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "   %-9s %s\n", cmds[i].name, cmds[i].help);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	size_t i;

	base = base ? base + 1 : argv[0];
	/* As PID 1 (or linked as /init) the kernel gives us no arguments. */
	if (getpid() == 1 || (!strcmp(base, "init") && !is_workload(argc, argv)))
		return bench_init(argc, argv);
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "sched-bench: unknown workload '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
