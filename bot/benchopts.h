/* SPDX-License-Identifier: GPL-2.0 */
/*
 * benchopts.h - sched-bench's options, one table for both sides: the
 * parser and usage of sched-bench's workloads (bot/workloads/) and the
 * command line sched-bot builds for them (run.h), so that an option is
 * named, typed and limited in one place.  libc only: sched-bench is
 * built with it (the Makefile's BENCH_SHARED).
 */
#ifndef SCHED_BOT_BENCHOPTS_H
#define SCHED_BOT_BENCHOPTS_H

#include <stdio.h>

/* The sched-bench sub-commands an option belongs to. */
#define BENCH_SPAWN (1u << 0)
#define BENCH_PINGPONG (1u << 1)
#define BENCH_ENV (1u << 2)
#define BENCH_HEALTH (1u << 3)

/* What an option sets; two options may set one thing (-c and -n). */
enum bench_key {
	BK_COPIES, BK_TIME, BK_PASSES, BK_ITERATIONS, BK_GAP, BK_WARMUP,
	BK_THREADS, BK_PIN, BK_SWEEP, BK_RUN, BK_AUTOGROUP, BK_CGROUP,
	BK_SETSID, BK_CHILD_CPU, BK_HELPER, BK_PREPARE, BK_APART, BK_NR
};

enum bench_kind {
	BO_SET,		/* no argument: the value is setval */
	BO_INT,		/* a whole number in [min, max] */
	BO_NUM,		/* a number in [min, max] */
	BO_WORD,	/* one of the '|'-separated words of argh */
	BO_STRING,	/* any text */
};

struct bench_opt {
	const char *name;	/* the long name */
	char short_name;	/* or 0 */
	unsigned int workloads;	/* BENCH_SPAWN | ... */
	enum bench_kind kind;
	enum bench_key key;
	const char *argh;	/* "N", "on|off"; NULL for BO_SET */
	double min, max;	/* BO_INT, BO_NUM */
	int setval;		/* BO_SET */
	/* what applies without the option, and what it does: the usage and
	 * sched-bench(1) print them (t0000 checks every one has both)
	 */
	const char *def;
	const char *help;
};

extern const struct bench_opt bench_opts[];
extern const unsigned int bench_opts_nr;

/* The values given; set = 0 when the option was not. */
struct bench_args {
	struct {
		int set;
		double num;
		const char *str;
	} v[BK_NR];
};

/*
 * Parse argv[1..argc) of sub-command cmd (one BENCH_ bit) into a.
 * Returns 0, 1 for -h/--help, or 2 (a usage error) after a message on
 * stderr; the caller prints its usage then.
 */
int bench_parse(unsigned int cmd, const char *name, int argc, char **argv,
		struct bench_args *a);
/* "usage: sched-bench NAME [options]" and the options of cmd. */
void bench_usage(unsigned int cmd, const char *name, FILE *f);

double bench_arg_num(const struct bench_args *a, enum bench_key k,
		     double dflt);
const char *bench_arg_str(const struct bench_args *a, enum bench_key k,
			  const char *dflt);

/* 1 when arg is a value o accepts, else 0 (no message). */
int bench_opt_accepts(const struct bench_opt *o, const char *arg);

/* The option of cmd that sets k (to val, for a BO_SET one), or NULL. */
const struct bench_opt *bench_opt_find(unsigned int cmd, enum bench_key k,
				       int val);

#endif
