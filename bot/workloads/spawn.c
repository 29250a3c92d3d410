// SPDX-License-Identifier: GPL-2.0
/*
 * spawn.c - UnixBench's "Process Creation" (pgms/spawn + Run's pass
 * logic).  Each copy is a small dedicated process that loops fork, child
 * _exit(0), parent wait(): the dynamically linked sched-bench-spawn next
 * to this binary, as UnixBench's spawn is a dynamically linked program
 * (fork's cost follows the forking address space, see spawn-copy.h).
 * A pass sums the copies' counts and divides by their mean elapsed time;
 * passes are aggregated like Run: drop the lowest int(P/3) by raw count,
 * geometric mean of the rest.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "spawn-copy.h"

/* How a copy is started: argv words before the helper's own four. */
struct forker {
	char *words[16];
	int nr;
	char buf[PATH_MAX + 1024];
};

/* "prog" or "loader,--library-path,DIR,prog" (as sb.exec words). */
static int forker_parse(struct forker *f, const char *spec)
{
	char *p, *save;

	f->nr = 0;
	if (strlen(spec) >= sizeof(f->buf))
		return -1;
	strcpy(f->buf, spec);
	for (p = strtok_r(f->buf, ",", &save); p && f->nr < 15;
	     p = strtok_r(NULL, ",", &save))
		f->words[f->nr++] = p;
	f->words[f->nr] = NULL;
	return f->nr ? 0 : -1;
}

/*
 * --helper, else $SCHED_BENCH_SPAWN (set by the ssh target, which ships
 * the helper with its loader), else sched-bench-spawn in this binary's
 * directory (the build directory, the installed bin, the initramfs's
 * root).  0 and f->nr == 0: fork from sched-bench itself.
 */
static int forker_find(struct forker *f, const char *opt)
{
	const char *spec = opt ? opt : getenv("SCHED_BENCH_SPAWN");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	f->nr = 0;
	if (spec && *spec) {
		if (!strcmp(spec, "none"))
			return 0;
		if (forker_parse(f, spec) || access(f->words[0], X_OK)) {
			fprintf(stderr, "sched-bench: spawn helper '%s' cannot be run\n",
				spec);
			return -1;
		}
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash || (size_t)(slash - exe) + sizeof("/" SPAWN_HELPER) >
	    sizeof(f->buf))
		return 0;
	snprintf(f->buf, sizeof(f->buf), "%.*s/%s", (int)(slash - exe), exe,
		 SPAWN_HELPER);
	if (access(f->buf, X_OK))
		return 0;
	f->words[0] = f->buf;
	f->words[1] = NULL;
	f->nr = 1;
	return 0;
}

/* The child of run_pass: become copy i, through the helper if any. */
static void __attribute__((noreturn)) start_copy(const struct forker *f,
						 int i, double duration,
						 int flags, int fd)
{
	struct copy_result res;
	char a_copy[16], a_dur[32], a_flags[16], a_fd[16];
	char *argv[20];
	int k;

	if (!f->nr) {
		spawn_copy(i, duration, flags, &res);
		spawn_copy_report(fd, &res);
		_exit(res.failed ? 2 : 0);
	}
	snprintf(a_copy, sizeof(a_copy), "%d", i);
	snprintf(a_dur, sizeof(a_dur), "%.9g", duration);
	snprintf(a_flags, sizeof(a_flags), "%d", flags);
	snprintf(a_fd, sizeof(a_fd), "%d", fd);
	for (k = 0; k < f->nr; k++)
		argv[k] = f->words[k];
	argv[k++] = a_copy;
	argv[k++] = a_dur;
	argv[k++] = a_flags;
	argv[k++] = a_fd;
	argv[k] = NULL;
	execv(argv[0], argv);
	fprintf(stderr, "sched-bench: cannot run %s: %s\n", argv[0],
		strerror(errno));
	_exit(127);
}

static int run_pass(const struct forker *f, int copies, double duration,
		    int flags, struct copy_result *res)
{
	int fds[2], i, got = 0, failed = 0, status;
	ssize_t n;

	if (pipe(fds)) {
		perror("sched-bench: pipe");
		return -1;
	}
	fflush(NULL);
	/* Started back to back with no barrier, as Run starts its copies. */
	for (i = 0; i < copies; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("sched-bench: fork");
			failed = 1;
			break;
		}
		if (pid == 0) {
			close(fds[0]);
			start_copy(f, i, duration, flags, fds[1]);
		}
	}
	close(fds[1]);
	for (;;) {
		struct copy_result r;

		n = read(fds[0], &r, sizeof(r));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(r))
			break;
		if (r.copy >= 0 && r.copy < copies) {
			res[r.copy] = r;
			got++;
		}
	}
	close(fds[0]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	for (i = 0; i < copies && !failed; i++)
		if (res[i].failed) {
			fprintf(stderr, "sched-bench: spawn copy %d: fork/wait failed: %s\n",
				i, strerror(res[i].failed));
			failed = 1;
		}
	if (failed || got != copies) {
		fprintf(stderr, "sched-bench: spawn: a copy failed\n");
		return -1;
	}
	return 0;
}

static double tv_s(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

static void usage(FILE *f)
{
	bench_usage(BENCH_SPAWN, "spawn", f);
	fputs("  the defaults are ./Run spawn's; 'man sched-bench' has the rest\n", f);
}

/* One spawn run: its options and what its passes add up. */
struct spawn_run {
	struct bench_knobs knobs;
	struct bench_rec rec;
	int copies, passes, child_cpu;
	double duration, gap;
	const char *helper;
	struct forker forker;
	long long migr;		/* -1 once a copy could not count them */
	double other, loops;	/* child runs on another CPU, and all runs */
};

/*
 * The options, the forker and the record's params; 1 when the run must
 * stop there with exit code *rc (--help, a bad option, no forker).
 */
static int spawn_options(struct spawn_run *sr, int argc, char **argv,
			 int *rc)
{
	struct bench_args args;
	int c;

	c = bench_parse(BENCH_SPAWN, "spawn", argc, argv, &args);
	if (c) {
		usage(c == 1 ? stdout : stderr);
		*rc = c == 1 ? 0 : c;
		return 1;
	}
	sr->copies = (int)bench_arg_num(&args, BK_COPIES, sr->copies);
	sr->duration = bench_arg_num(&args, BK_TIME, sr->duration);
	sr->passes = (int)bench_arg_num(&args, BK_PASSES, sr->passes);
	if (args.v[BK_ITERATIONS].set)
		sr->passes = ub_short_passes((int)args.v[BK_ITERATIONS].num);
	sr->gap = bench_arg_num(&args, BK_GAP, sr->gap);
	sr->rec.run = (int)bench_arg_num(&args, BK_RUN, sr->rec.run);
	sr->child_cpu = (int)bench_arg_num(&args, BK_CHILD_CPU, 0);
	sr->helper = bench_arg_str(&args, BK_HELPER, NULL);
	knobs_from_args(&sr->knobs, &args);
	if (sr->passes < 1 || sr->passes > 1000) {
		usage(stderr);
		*rc = 2;
		return 1;
	}
	snprintf(sr->rec.params, sizeof(sr->rec.params),
		 "copies=%d duration=%g passes=%d", sr->copies, sr->duration,
		 sr->passes);
	if (forker_find(&sr->forker, sr->helper)) {
		*rc = 2;
		return 1;
	}
	if (sr->child_cpu)
		strncat(sr->rec.params, " child_cpu=1",
			sizeof(sr->rec.params) - strlen(sr->rec.params) - 1);
	/* Forking from the static sched-bench is faster than UnixBench: a
	 * different benchmark, and the record must say so.
	 */
	if (!sr->forker.nr) {
		if (!sr->helper)
			fprintf(stderr, "sched-bench: spawn: no " SPAWN_HELPER
				" next to sched-bench: forking from sched-bench itself\n");
		strncat(sr->rec.params, " forker=static",
			sizeof(sr->rec.params) - strlen(sr->rec.params) - 1);
	}
	knobs_params(&sr->knobs, sr->rec.params, sizeof(sr->rec.params));
	return 0;
}

/* The passes, each after Run's gap; a "copy" record per copy and pass. */
static int spawn_passes(struct spawn_run *sr, struct copy_result *res,
			struct ub_pass *pass, struct run_stats *st)
{
	double sum_elapsed;
	int p, i;

	for (p = 0; p < sr->passes; p++) {
		/* Run's "sync; sleep 1; sync; sleep 2" before every pass. */
		if (sr->gap > 0) {
			sync();
			bench_sleep_until(bench_now() + sr->gap);
		}
		stats_begin(st);
		if (run_pass(&sr->forker, sr->copies, sr->duration,
			     (sr->knobs.setsid ? SPAWN_SETSID : 0) |
			     (sr->child_cpu ? SPAWN_CHILD_CPU : 0), res))
			return -1;
		stats_end(st);
		sum_elapsed = 0;
		for (i = 0; i < sr->copies; i++) {
			pass[p].count += res[i].count;
			sr->other += res[i].other_cpu;
			sr->loops += res[i].count;
			sum_elapsed += res[i].elapsed;
			if (sr->migr >= 0 && res[i].migrations >= 0)
				sr->migr += res[i].migrations;
			else
				sr->migr = -1;
			rec_line(&sr->rec, "copy", "%d,%d,%.0f,%.6f,%.12g",
				 p + 1, i, res[i].count, res[i].elapsed,
				 res[i].count / res[i].elapsed);
		}
		pass[p].elapsed = sum_elapsed / sr->copies;
	}
	return 0;
}

/*
 * The samples (per pass and UnixBench's score), the stats since ru0 and
 * the summary line; -1 (said) when no pass counted a loop.
 */
static int spawn_report(struct spawn_run *sr, struct ub_pass *pass,
			struct run_stats *st, const struct rusage *ru0)
{
	struct bench_rec *rec = &sr->rec;
	struct ub_result agg;
	struct rusage ru1;
	double foreign;
	int p;

	if (ub_aggregate(pass, sr->passes, &agg)) {
		fprintf(stderr, "sched-bench: spawn: no loop completed\n");
		return -1;
	}
	for (p = 0; p < sr->passes; p++)
		rec_sample(rec, p + 1, "lps", pass[p].count / pass[p].elapsed,
			   "lps", 1);
	rec_sample(rec, 0, "lps", agg.score, "lps", 1);
	getrusage(RUSAGE_CHILDREN, &ru1);
	rec_stat(rec, "passes_kept", agg.kept, "count");
	foreign = stats_print(st, rec, ru1.ru_nvcsw - ru0->ru_nvcsw,
		    ru1.ru_nivcsw - ru0->ru_nivcsw, sr->migr,
		    tv_s(&ru1.ru_utime) + tv_s(&ru1.ru_stime) -
		    tv_s(&ru0->ru_utime) - tv_s(&ru0->ru_stime));
	if (sr->child_cpu && sr->loops > 0)
		rec_stat(rec, "child_other_cpu_pct",
			 100 * sr->other / sr->loops, "%");
	harness_stat(rec);
	rec_end(rec);
	fprintf(stderr, "spawn: %d copies, %d x %g s: %.1f lps (%.1f s, %d samples)%s\n",
		sr->copies, sr->passes, sr->duration, agg.score, agg.time,
		agg.kept, busy_note(foreign));
	return 0;
}

int bench_spawn(int argc, char **argv)
{
	struct spawn_run sr = {
		.knobs = { .saved_autogroup = -1 },
		.rec = { .workload = "spawn", .run = 1, .placement = "free" },
		.copies = bench_online_cpus(),
		.passes = 3,
		.duration = 30,
		.gap = 3,
	};
	struct copy_result *res = NULL;
	struct ub_pass *pass = NULL;
	struct run_stats st;
	struct rusage ru0;
	int rc = 1;

	if (spawn_options(&sr, argc, argv, &rc))
		return rc;
	if (knobs_apply(&sr.knobs))
		return 1;
	res = calloc(sr.copies, sizeof(*res));
	pass = calloc(sr.passes, sizeof(*pass));
	if (!res || !pass)
		goto out;
	rec_header();
	env_print(&sr.knobs);
	memset(&st, 0, sizeof(st));
	getrusage(RUSAGE_CHILDREN, &ru0);
	if (spawn_passes(&sr, res, pass, &st))
		goto out;
	if (spawn_report(&sr, pass, &st, &ru0))
		goto out;
	rc = 0;
out:
	free(res);
	free(pass);
	knobs_restore(&sr.knobs);
	return rc;
}
