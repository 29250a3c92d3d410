// SPDX-License-Identifier: GPL-2.0
/*
 * spawn.c - UnixBench's "Process Creation" (pgms/spawn + Run's pass
 * logic).  Each copy is a small dedicated process (this static binary,
 * single-threaded) that loops fork, child _exit(0), parent wait(), and
 * times itself with CLOCK_MONOTONIC instead of a whole-second alarm().
 * A pass sums the copies' counts and divides by their mean elapsed time;
 * passes are aggregated like Run: drop the lowest int(P/3) by raw count,
 * geometric mean of the rest.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { SPAWN_SETSID = 1, SPAWN_CHILD_CPU = 2 };

struct copy_result {
	int copy;
	int failed;
	double count;
	double elapsed;
	long long migrations;	/* of the copy itself; -1 unknown */
	double other_cpu;	/* children that ran on another CPU */
};

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= n;
	}
}

/* One copy: the loop of pgms/spawn, until `duration` seconds passed. */
static void __attribute__((noreturn)) copy_main(int copy, double duration,
						int flags, int fd)
{
	struct copy_result res = { .copy = copy, .migrations = -1 };
	long long m0 = task_migrations(getpid(), 0);
	unsigned long count = 0;
	int track = flags & SPAWN_CHILD_CPU;
	double t0, t;
	int status;
	pid_t pid;

	if (flags & SPAWN_SETSID)
		setsid();
	t0 = bench_now();
	for (;;) {
		int cpu = track ? sched_getcpu() : 0;

		pid = fork();
		if (pid == 0) {
			/* --child-cpu: the child only reads its CPU (vDSO,
			 * no system call) and returns it in its status. */
			if (track)
				_exit(1 + (sched_getcpu() & 0x7f));
			_exit(0);
		}
		if (pid < 0) {
			res.failed = errno;
			break;
		}
		/* Like spawn: wait for any child; a bad status is fatal. */
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    (!track && status)) {
			res.failed = EIO;
			break;
		}
		if (track && WEXITSTATUS(status) - 1 != (cpu & 0x7f))
			res.other_cpu++;
		count++;
		t = bench_now();
		if (t - t0 >= duration)
			break;
	}
	res.elapsed = bench_now() - t0;
	res.count = count;
	if (m0 >= 0) {
		long long m1 = task_migrations(getpid(), 0);

		res.migrations = m1 >= m0 ? m1 - m0 : -1;
	}
	write_all(fd, &res, sizeof(res));
	_exit(res.failed ? 2 : 0);
}

static int run_pass(int copies, double duration, int flags,
		    struct copy_result *res)
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
			copy_main(i, duration, flags, fds[1]);
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
	fputs("usage: sched-bench spawn [-c COPIES] [-t SECONDS] [--passes P | -i ITERATIONS]\n"
	      "                         [--gap SECONDS] [--run K] [--autogroup on|off]\n"
	      "                         [--cgroup root|new] [--setsid] [--child-cpu]\n"
	      "  --child-cpu: record how often the child ran on another CPU than\n"
	      "  its parent (the child reads its CPU before _exit)\n"
	      "  defaults: -c online CPUs, -t 30, 3 passes, 3 s gap (as ./Run spawn)\n",
	      f);
}

int bench_spawn(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "copies", required_argument, NULL, 'c' },
		{ "time", required_argument, NULL, 't' },
		{ "passes", required_argument, NULL, 'p' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "gap", required_argument, NULL, 'g' },
		{ "run", required_argument, NULL, 'r' },
		{ "autogroup", required_argument, NULL, 'K' },
		{ "cgroup", required_argument, NULL, 'K' },
		{ "setsid", no_argument, NULL, 'K' },
		{ "child-cpu", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bench_knobs knobs = { .saved_autogroup = -1 };
	struct bench_rec rec = { .workload = "spawn", .run = 1,
				 .placement = "free" };
	int copies = bench_online_cpus(), passes = 3, c, idx = 0, p, i;
	double duration = 30, gap = 3, sum_elapsed;
	struct copy_result *res = NULL;
	struct ub_pass *pass = NULL;
	struct run_stats st;
	struct rusage ru0, ru1;
	struct ub_result agg;
	long long migr = 0;
	int rc = 1;
	int child_cpu = 0;
	double foreign;
	double other = 0, loops = 0;

	/* Reset getopt: init.c may call several workloads in one process. */
	optind = 0;
	while ((c = getopt_long(argc, argv, "c:t:i:h", opts, &idx)) != -1) {
		switch (c) {
		case 'c':
			copies = atoi(optarg);
			break;
		case 't':
			duration = atof(optarg);
			break;
		case 'p':
			passes = atoi(optarg);
			break;
		case 'i':
			passes = ub_short_passes(atoi(optarg));
			break;
		case 'g':
			gap = atof(optarg);
			break;
		case 'r':
			rec.run = atoi(optarg);
			break;
		case 'K':
			knobs_option(&knobs, opts[idx].name, optarg);
			break;
		case 'C':
			child_cpu = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc || copies < 1 || copies > 4096 || passes < 1 ||
	    passes > 1000 || !(duration > 0) || gap < 0 || rec.run < 1) {
		usage(stderr);
		return 2;
	}
	snprintf(rec.params, sizeof(rec.params),
		 "copies=%d duration=%g passes=%d", copies, duration, passes);
	if (child_cpu)
		strncat(rec.params, " child_cpu=1",
			sizeof(rec.params) - strlen(rec.params) - 1);
	knobs_params(&knobs, rec.params, sizeof(rec.params));
	if (knobs_apply(&knobs))
		return 1;
	res = calloc(copies, sizeof(*res));
	pass = calloc(passes, sizeof(*pass));
	if (!res || !pass)
		goto out;
	rec_header();
	env_print(&knobs);
	memset(&st, 0, sizeof(st));
	getrusage(RUSAGE_CHILDREN, &ru0);
	for (p = 0; p < passes; p++) {
		/* Run's "sync; sleep 1; sync; sleep 2" before every pass. */
		if (gap > 0) {
			sync();
			bench_sleep_until(bench_now() + gap);
		}
		stats_begin(&st);
		if (run_pass(copies, duration,
			     (knobs.setsid ? SPAWN_SETSID : 0) |
			     (child_cpu ? SPAWN_CHILD_CPU : 0), res))
			goto out;
		stats_end(&st);
		sum_elapsed = 0;
		for (i = 0; i < copies; i++) {
			pass[p].count += res[i].count;
			other += res[i].other_cpu;
			loops += res[i].count;
			sum_elapsed += res[i].elapsed;
			if (migr >= 0 && res[i].migrations >= 0)
				migr += res[i].migrations;
			else
				migr = -1;
			rec_line(&rec, "copy", "%d,%d,%.0f,%.6f,%.12g", p + 1,
				 i, res[i].count, res[i].elapsed,
				 res[i].count / res[i].elapsed);
		}
		pass[p].elapsed = sum_elapsed / copies;
	}
	if (ub_aggregate(pass, passes, &agg)) {
		fprintf(stderr, "sched-bench: spawn: no loop completed\n");
		goto out;
	}
	for (p = 0; p < passes; p++)
		rec_sample(&rec, p + 1, "lps", pass[p].count / pass[p].elapsed,
			   "lps", 1);
	rec_sample(&rec, 0, "lps", agg.score, "lps", 1);
	getrusage(RUSAGE_CHILDREN, &ru1);
	rec_stat(&rec, "passes_kept", agg.kept, "count");
	foreign = stats_print(&st, &rec, ru1.ru_nvcsw - ru0.ru_nvcsw,
		    ru1.ru_nivcsw - ru0.ru_nivcsw, migr,
		    tv_s(&ru1.ru_utime) + tv_s(&ru1.ru_stime) -
		    tv_s(&ru0.ru_utime) - tv_s(&ru0.ru_stime));
	if (child_cpu && loops > 0)
		rec_stat(&rec, "child_other_cpu_pct", 100 * other / loops, "%");
	harness_stat(&rec);
	rec_end(&rec);
	fprintf(stderr, "spawn: %d copies, %d x %g s: %.1f lps (%.1f s, %d samples)%s\n",
		copies, passes, duration, agg.score, agg.time, agg.kept,
		busy_note(foreign));
	rc = 0;
out:
	free(res);
	free(pass);
	knobs_restore(&knobs);
	return rc;
}
