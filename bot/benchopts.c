// SPDX-License-Identifier: GPL-2.0
/*
 * benchopts.c - sched-bench's option table and its parser (benchopts.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchopts.h"
#include "util.h"

#define S BENCH_SPAWN
#define P BENCH_PINGPONG
#define E BENCH_ENV
#define H BENCH_HEALTH

const struct bench_opt bench_opts[] = {
	{ "copies", 'c', S, BO_INT, BK_COPIES, "N", 1, 4096, 0,
	  "the online CPUs",
	  "N copies of the fork loop run at once (UnixBench's -c N)" },
	{ "pairs", 'n', P, BO_INT, BK_COPIES, "N", 1, 4096, 0, "1",
	  "N pairs of tasks, each bouncing a byte over two pipes" },
	{ "time", 't', S, BO_NUM, BK_TIME, "S", 0.001, 86400, 0, "30",
	  "seconds of each pass (UnixBench's spawn runs 30)" },
	{ "time", 't', P, BO_INT, BK_TIME, "S", 1, 86400, 0, "5",
	  "measured seconds, one sample each, after the warm-up" },
	{ "passes", 0, S, BO_INT, BK_PASSES, "P", 1, 1000, 0, "3",
	  "passes, aggregated as UnixBench's Run does: the lowest third dropped, the geometric mean of the rest" },
	{ "iterations", 'i', S, BO_INT, BK_ITERATIONS, "K", 1, 1000, 0,
	  "unset (--passes applies)",
	  "UnixBench's short iteration count, turned into passes as Run does ((K + 1) / 3, at least 1); overrides --passes" },
	{ "gap", 0, S, BO_NUM, BK_GAP, "S", 0, 3600, 0, "3",
	  "seconds of sync and sleep before each pass, as UnixBench's Run" },
	{ "warmup", 0, P, BO_INT, BK_WARMUP, "S", 0, 3600, 0, "6",
	  "one-second samples run and dropped before the measured ones" },
	{ "threads", 0, P, BO_SET, BK_THREADS, NULL, 0, 0, 1,
	  "processes", "the two tasks of a pair are threads of one process" },
	{ "processes", 0, P, BO_SET, BK_THREADS, NULL, 0, 0, 0,
	  "processes", "the two tasks of a pair are processes" },
	{ "pin", 0, P, BO_SET, BK_PIN, NULL, 0, 0, 1, "pinned",
	  "both tasks of each pair pinned to one CPU (will-it-scale's context_switch1)" },
	{ "no-pin", 0, P, BO_SET, BK_PIN, NULL, 0, 0, 0, "pinned",
	  "no task bound to a CPU: the scheduler places both" },
	{ "apart", 0, P, BO_SET, BK_APART, NULL, 0, 0, 1, "off (pinned)",
	  "as --no-pin, but the tasks of pair i start on CPU i and CPU i + N/2 of N, then are freed: where wake-ups go decides whether a pair meets on one CPU" },
	{ "sweep", 0, P, BO_STRING, BK_SWEEP, "1,2,4", 0, 0, 0,
	  "the -n count alone",
	  "run once for each pair count of the list (commas or colons)" },
	{ "run", 0, S | P, BO_INT, BK_RUN, "K", 1, 1e9, 0, "1",
	  "the run number written in each record" },
	{ "autogroup", 0, S | P | E, BO_WORD, BK_AUTOGROUP, "on|off", 0, 0,
	  0, "as the machine is",
	  "set kernel.sched_autogroup_enabled while the workload runs, restored after (needs root and CONFIG_SCHED_AUTOGROUP)" },
	{ "cgroup", 0, S | P | E, BO_WORD, BK_CGROUP, "root|new", 0, 0, 0,
	  "the cgroup it was started in",
	  "run in the root cpu cgroup, or in a new one made for the run and removed after" },
	{ "setsid", 0, S | P, BO_SET, BK_SETSID, NULL, 0, 0, 1, "off",
	  "each copy or pair in a session of its own (one autogroup each)" },
	{ "child-cpu", 0, S, BO_SET, BK_CHILD_CPU, NULL, 0, 0, 1, "off",
	  "record how often the child ran on another CPU than its parent (the child reads its CPU before _exit)" },
	{ "helper", 0, S, BO_STRING, BK_HELPER, "PROG|none", 0, 0, 0,
	  "sched-bench-spawn next to sched-bench, else $SCHED_BENCH_SPAWN",
	  "the program each copy forks from; none: sched-bench itself, which forks faster (recorded as forker=static)" },
	{ "time", 't', H, BO_NUM, BK_TIME, "S", 0.1, 60, 0, "1",
	  "seconds over which the processes' CPU time is sampled" },
	{ "prepare", 0, H, BO_SET, BK_PREPARE, NULL, 0, 0, 1, "off",
	  "first set the performance cpufreq governor on every CPU" },
};

const unsigned int bench_opts_nr = ARRAY_SIZE(bench_opts);

static int is_word(const char *words, const char *arg)
{
	size_t n = strlen(arg);
	const char *p = words;

	while (*p) {
		size_t l = strcspn(p, "|");

		if (l == n && !strncmp(p, arg, n))
			return 1;
		p += l + (p[l] == '|');
	}
	return 0;
}

int bench_opt_accepts(const struct bench_opt *o, const char *arg)
{
	char *end;
	double v;

	switch (o->kind) {
	case BO_SET:
		return !arg;
	case BO_INT:
	case BO_NUM:
		errno = 0;
		v = strtod(arg, &end);
		return *arg && !*end && !errno && isfinite(v) && v >= o->min &&
		       v <= o->max && (o->kind == BO_NUM || v == floor(v));
	case BO_WORD:
		return is_word(o->argh, arg);
	case BO_STRING:
		return 1;
	}
	return 0;
}

static int take(const struct bench_opt *o, const char *arg,
		struct bench_args *a)
{
	if (!bench_opt_accepts(o, arg)) {
		fprintf(stderr, "sched-bench: --%s: bad value '%s' (%s",
			o->name, arg, o->argh);
		if (o->kind == BO_INT || o->kind == BO_NUM)
			fprintf(stderr, ": %g..%g", o->min, o->max);
		fputs(")\n", stderr);
		return -1;
	}
	a->v[o->key].set = 1;
	if (o->kind == BO_SET)
		a->v[o->key].num = o->setval;
	else if (o->kind == BO_INT || o->kind == BO_NUM)
		a->v[o->key].num = strtod(arg, NULL);
	else
		a->v[o->key].str = arg;
	return 0;
}

static const struct bench_opt *find(unsigned int cmd, const char *name,
				    size_t len, int short_name)
{
	unsigned int i;

	for (i = 0; i < bench_opts_nr; i++) {
		const struct bench_opt *o = &bench_opts[i];

		if (!(o->workloads & cmd))
			continue;
		if (short_name ? o->short_name == short_name :
		    strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	}
	return NULL;
}

int bench_parse(unsigned int cmd, const char *name, int argc, char **argv,
		struct bench_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		const char *s = argv[i], *eq = NULL, *arg = NULL;
		const struct bench_opt *o;

		if (!strcmp(s, "-h") || !strcmp(s, "--help"))
			return 1;
		if (s[0] == '-' && s[1] == '-' && s[2]) {
			eq = strchr(s + 2, '=');
			o = find(cmd, s + 2, eq ? (size_t)(eq - s - 2) :
				 strlen(s + 2), 0);
		} else if (s[0] == '-' && s[1] && !s[2]) {
			o = find(cmd, NULL, 0, s[1]);
		} else {
			fprintf(stderr, "sched-bench: %s: unexpected '%s'\n",
				name, s);
			return 2;
		}
		if (!o) {
			fprintf(stderr, "sched-bench: %s: unknown option '%s'\n",
				name, s);
			return 2;
		}
		if (o->kind != BO_SET) {
			arg = eq ? eq + 1 : argv[i + 1];
			if (!arg) {
				fprintf(stderr, "sched-bench: %s needs a value (%s)\n",
					s, o->argh);
				return 2;
			}
			if (!eq)
				i++;
		} else if (eq) {
			fprintf(stderr, "sched-bench: --%s takes no value\n",
				o->name);
			return 2;
		}
		if (take(o, arg, a) < 0)
			return 2;
	}
	return 0;
}

void bench_usage(unsigned int cmd, const char *name, FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: sched-bench %s [options]\n", name);
	for (i = 0; i < bench_opts_nr; i++) {
		const struct bench_opt *o = &bench_opts[i];
		char sh[8] = "    ";

		if (!(o->workloads & cmd))
			continue;
		if (o->short_name)
			snprintf(sh, sizeof(sh), "-%c, ", o->short_name);
		fprintf(f, "    %s--%s%s%s\n", sh, o->name, o->argh ? " " : "",
			o->argh ? o->argh : "");
		fprintf(f, "          %s; default: %s\n", o->help, o->def);
	}
}

double bench_arg_num(const struct bench_args *a, enum bench_key k,
		     double dflt)
{
	return a->v[k].set ? a->v[k].num : dflt;
}

const char *bench_arg_str(const struct bench_args *a, enum bench_key k,
			  const char *dflt)
{
	return a->v[k].set ? a->v[k].str : dflt;
}

const struct bench_opt *bench_opt_find(unsigned int cmd, enum bench_key k,
				       int val)
{
	unsigned int i;

	for (i = 0; i < bench_opts_nr; i++) {
		const struct bench_opt *o = &bench_opts[i];

		if ((o->workloads & cmd) && o->key == k &&
		    (o->kind != BO_SET || o->setval == val))
			return o;
	}
	return NULL;
}
