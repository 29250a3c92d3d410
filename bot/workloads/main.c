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
	unsigned int opts;	/* its options in bench_opts, BENCH_* */
} cmds[] = {
	{ "spawn", bench_spawn, "fork/exit/wait loops per second (UnixBench spawn)",
	  BENCH_SPAWN },
	{ "pingpong", bench_pingpong, "pipe hand-offs per second (context_switch1)",
	  BENCH_PINGPONG },
	{ "env", bench_env, "print the scheduler environment record",
	  BENCH_ENV },
	{ "health", bench_health, "what else moves the numbers: governor, load, top",
	  BENCH_HEALTH },
	{ "init", bench_init, "run as /init in the QEMU initramfs", 0 },
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

	fputs("usage: sched-bench <workload> [options]\n"
	      "       sched-bench --man\n\n", f);
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "   %-9s %s\n", cmds[i].name, cmds[i].help);
}

/* Text as roff: \ as \e, - as \- (so that options stay greppable). */
static void roff(const char *s, FILE *f)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void man_option(const struct bench_opt *o, FILE *f)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", f);
	roff(o->name, f);
	fputs("\\fR", f);
	if (o->argh) {
		fputs(" \\fI", f);
		roff(o->argh, f);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff(o->help, f);
	fputs(".\n.br\nDefault: ", f);
	roff(o->def, f);
	fputs(".\n", f);
}

/*
 * sched-bench(1), from the table of workloads above and the option
 * table (benchopts.c), the way `sched-bot help --man` writes
 * sched-bot(1): `make` writes build/sched-bench.1.
 */
static void man_page(FILE *f)
{
	size_t i;
	unsigned int j;

	fputs(
".\\\" sched-bench(1), written by 'sched-bench --man' from its option table\n"
".TH SCHED\\-BENCH 1 \"\" \"sched-bench\" \"sched-bot manual\"\n"
".nh\n.ad l\n"
".SH NAME\nsched\\-bench \\- the scheduler workloads of sched\\-bot\n"
".SH SYNOPSIS\n.nf\n", f);
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "\\fBsched\\-bench %s\\fR %s\n", cmds[i].name,
			cmds[i].opts ? "[options]" : "[sb.KEY=VALUE...]");
	fputs("\\fBsched\\-bench \\-\\-man\\fR\n.fi\n.SH DESCRIPTION\n", f);
	roff(
"sched-bench is the program sched-bot runs its own workloads with: on the\n"
"kernel under test as /init of a QEMU initramfs, on a machine reached by\n"
"ssh, and on this machine (sched-bot run).  It is static and needs libc\n"
"only; spawn's copies fork from sched-bench-spawn, a small dynamically\n"
"linked helper next to it, as UnixBench's spawn is a dynamic program.\n"
"Each run prints the environment records first, then one record per\n"
"line on stdout (sample, stat, copy, inst, end; the format is described\n"
"in bot/workloads/bench.h); human lines go to stderr.  Every run also\n"
"records the CPU split from /proc/stat, context switches, migrations and\n"
"the deltas of /proc/schedstat over its measured part.\n", f);
	fputs(".SH WORKLOADS\n", f);
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		fprintf(f, ".SS \"sched\\-bench %s\"\n", cmds[i].name);
		roff(cmds[i].help, f);
		fputs(".\n", f);
		if (!cmds[i].opts) {
			roff(
"Without options: as PID 1 (or run as init) it mounts proc,\n"
"sys and the cgroup file systems, reads its orders from the kernel\n"
"command line (sb.workloads=spawn,pingpong sb.runs=3 sb.t=5 ...),\n"
"runs the workloads, prints everything framed on the console and\n"
"powers off.  sched-bot writes that command line; run by hand with\n"
"sb.KEY=VALUE words it does the same without mounting or powering\n"
"off.\n", f);
			continue;
		}
		for (j = 0; j < bench_opts_nr; j++)
			if (bench_opts[j].workloads & cmds[i].opts)
				man_option(&bench_opts[j], f);
	}
	fputs(".SH \"DEFAULTS UNDER SCHED-BOT\"\n", f);
	roff(
"The defaults above are those of a run by hand, the originals' (spawn:\n"
"./Run spawn, 30 s passes, 3 of them, 3 s gap; pingpong: will-it-scale\n"
"context_switch1, 5 measured seconds).  sched-bot passes options of its\n"
"own, and -t comes from the command: sched-bot run -t (10), sched-bot\n"
"boot -t (5), a job's job.seconds (0 means 5).  sched-bot run gives\n"
"spawn --passes 1 --gap 1 (its runs come from --runs) and pingpong\n"
"--warmup 2; in a kernel booted by a job or by boot, spawn runs its 3\n"
"passes with the gap of job.spawnGap or boot --spawn-gap, and pingpong\n"
"drops job.warmup samples (boot: 6).  The params column of every\n"
"result row says what ran, and a reply's \"How to reproduce\" gives the\n"
"command lines.\n", f);
	fputs(".SH ENVIRONMENT\n", f);
	roff(
"SCHED_BENCH_SPAWN names the program spawn's copies fork from when\n"
"--helper is not given and no sched-bench-spawn is next to sched-bench.\n",
	     f);
	fputs(".SH \"EXIT STATUS\"\n", f);
	roff(
"0 when the workload ran, 1 when it failed (a copy died, a file of\n"
"/proc could not be read, a knob could not be set), 2 for a bad option\n"
"or value (the usage follows).\n", f);
	fputs(".SH \"SEE ALSO\"\n\\fBsched\\-bot\\fR(1)\n", f);
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
	if (argc == 2 && !strcmp(argv[1], "--man")) {
		man_page(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "sched-bench: unknown workload '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
