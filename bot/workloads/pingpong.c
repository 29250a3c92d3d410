// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong.c - will-it-scale's context_switch1: PAIRS instances, each a
 * task and its partner bouncing one byte over two pipes.  The instance
 * adds 2 to its counter per round trip (two one-way hand-offs), the main
 * task samples all counters once a second, discards the warm-up samples
 * and averages the rest.  By default instance i is bound to the i-th
 * allowed CPU (mod the CPU count) before it creates its partner, which
 * inherits the mask: every hand-off is then a same-CPU context switch.
 * --no-pin leaves them to the scheduler; --apart too, but starts the two
 * tasks of pair i on CPU i and CPU i + N/2 of N (then frees them), so
 * that where a wake-up goes decides whether they meet: a pair that
 * started on one CPU by chance hides a change to wake-up placement
 * (select_idle_sibling returning the previous CPU, unpinned, showed no
 * move in one boot of three).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* One instance's counter and tasks, in its own 256-byte slot like
 * will-it-scale's, so that counters never share a cache line.
 */
struct slot {
	unsigned long long count;
	int tid[2];		/* instance, partner (pids or tids) */
	int cpu;		/* -1 when free */
	int start[2];		/* --apart: the first CPUs of both, or -1 */
	int ready;
	char pad[256 - 32];
};

struct pp {
	int pairs;
	int threads;
	int pin;
	int apart;		/* --no-pin, each pair started on two CPUs */
	int setsid_inst;
	int start_fd;		/* read end of the start pipe */
	struct slot *slots;
	pthread_t *th;
	pthread_t *pth;		/* partners, threads mode */
};

static int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

static void xread1(int fd)
{
	char c;

	while (read(fd, &c, 1) != 1)
		if (errno != EINTR)
			_exit(1);
}

static void xwrite1(int fd)
{
	char c = 0;

	while (write(fd, &c, 1) != 1)
		if (errno != EINTR)
			_exit(1);
}

struct partner_arg {
	int rfd, wfd;
	struct slot *slot;
};

static void partner_loop(int rfd, int wfd)
{
	for (;;) {
		xread1(rfd);
		xwrite1(wfd);
	}
}

/* The CPUs the process may run on, for --apart's release. */
static cpu_set_t free_cpus;

/*
 * --apart: move the calling task (or thread) to cpu, then let it run
 * anywhere again.  Widening the mask does not move it, so it starts on
 * cpu and goes where the scheduler's wake-up placement takes it.
 */
static void start_on(int cpu)
{
	cpu_set_t one;

	if (cpu < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	sched_setaffinity(0, sizeof(free_cpus), &free_cpus);
}

static void *partner_thread(void *p)
{
	struct partner_arg *a = p;

	start_on(a->slot->start[1]);
	a->slot->tid[1] = gettid_();
	partner_loop(a->rfd, a->wfd);
	return NULL;
}

/*
 * Wait for the main task's go, as will-it-scale's testcase_trampoline()
 * does.  The partner is created only after it, by the running instance,
 * so the scheduler places it where it places will-it-scale's: forking it
 * before the go, while the main task was busy starting the others, gave
 * a different split over the CPUs when unpinned (0.87x the hand-offs).
 */
static void wait_start(struct pp *pp, struct slot *s)
{
	struct pollfd pfd = { .fd = pp->start_fd, .events = POLLIN };

	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	while (poll(&pfd, 1, -1) != 1)
		;
}

/*
 * will-it-scale's process mode arms a watchdog in both tasks: SIGALRM
 * every second, whose handler checks the parent with kill(pid, 0).  Its
 * wake-up interrupts a blocked read once a second and so takes part in
 * where an unpinned pair runs; we keep it for that, not for cleanup
 * (PR_SET_PDEATHSIG does that).
 */
static pid_t watchdog_parent;

static void watchdog(int sig)
{
	(void)sig;
	if (kill(watchdog_parent, 0) == -1)
		_exit(0);
	alarm(1);
}

static void arm_watchdog(pid_t parent)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watchdog;
	sa.sa_flags = SA_RESTART;
	watchdog_parent = parent;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
}

static void instance_loop(struct slot *s, int p1[2], int p2[2])
{
	unsigned long long count = 0;

	for (;;) {
		xwrite1(p1[1]);
		xread1(p2[0]);
		count += WIS_HANDOFFS_PER_ROUNDTRIP;
		__atomic_store_n(&s->count, count, __ATOMIC_RELAXED);
	}
}

static int make_pipes(int p1[2], int p2[2])
{
	if (pipe(p1))
		return -1;
	if (pipe(p2)) {
		close(p1[0]);
		close(p1[1]);
		return -1;
	}
	return 0;
}

struct inst_arg {
	struct pp *pp;
	int i;
};

static void *instance_thread(void *p)
{
	struct inst_arg *a = p;
	struct slot *s = &a->pp->slots[a->i];
	struct partner_arg pa = { .slot = s };
	int p1[2], p2[2];
	pthread_t th;

	if (s->cpu >= 0 || s->start[0] >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(s->cpu >= 0 ? s->cpu : s->start[0], &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	s->tid[0] = gettid_();
	if (make_pipes(p1, p2))
		return NULL;
	pa.rfd = p1[0];
	pa.wfd = p2[1];
	wait_start(a->pp, s);
	/* The partner inherits this thread's affinity. */
	if (pthread_create(&th, NULL, partner_thread, &pa))
		return NULL;
	if (s->start[0] >= 0)
		sched_setaffinity(0, sizeof(free_cpus), &free_cpus);
	a->pp->pth[a->i] = th;
	instance_loop(s, p1, p2);
	return NULL;
}

static void __attribute__((noreturn)) instance_process(struct pp *pp,
						       int i)
{
	struct slot *s = &pp->slots[i];
	int p1[2], p2[2];
	pid_t pid;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pp->setsid_inst)
		setsid();
	arm_watchdog(getppid());
	s->tid[0] = getpid();
	if (make_pipes(p1, p2))
		_exit(1);
	wait_start(pp, s);
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		arm_watchdog(getppid());
		s->tid[1] = getpid();
		start_on(s->start[1]);
		partner_loop(p1[0], p2[1]);
	}
	if (s->start[0] >= 0)
		sched_setaffinity(0, sizeof(free_cpus), &free_cpus);
	instance_loop(s, p1, p2);
	_exit(0);
}

/* The i-th CPU this process may run on, wrapping around. */
static int nth_cpu(const cpu_set_t *allowed, int i)
{
	int n = CPU_COUNT(allowed), cpu, k = 0;

	if (n <= 0)
		return 0;
	i %= n;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, allowed) && k++ == i)
			return cpu;
	return 0;
}

static int start_instances(struct pp *pp, struct inst_arg *args)
{
	cpu_set_t allowed, one;
	int i, half;

	sched_getaffinity(0, sizeof(allowed), &allowed);
	free_cpus = allowed;
	half = CPU_COUNT(&allowed) / 2 > 0 ? CPU_COUNT(&allowed) / 2 : 1;
	fflush(NULL);
	for (i = 0; i < pp->pairs; i++) {
		struct slot *s = &pp->slots[i];

		s->cpu = pp->pin ? nth_cpu(&allowed, i) : -1;
		/*
		 * --apart: pair i on the i-th CPU and the one half the
		 * CPUs away, wrapping around: on a machine of two sockets
		 * (or LLCs) numbered in order, on two of them.
		 */
		s->start[0] = pp->apart ? nth_cpu(&allowed, i) : -1;
		s->start[1] = pp->apart ? nth_cpu(&allowed, i + half) : -1;
		if (pp->threads) {
			args[i].pp = pp;
			args[i].i = i;
			if (pthread_create(&pp->th[i], NULL, instance_thread,
					   &args[i]))
				return -1;
			continue;
		}
		/* Like will-it-scale: bind ourselves, fork, restore. */
		if (s->cpu >= 0 || s->start[0] >= 0) {
			CPU_ZERO(&one);
			CPU_SET(s->cpu >= 0 ? s->cpu : s->start[0], &one);
			sched_setaffinity(0, sizeof(one), &one);
		}
		if (fork() == 0)
			instance_process(pp, i);
		if (s->cpu >= 0 || s->start[0] >= 0)
			sched_setaffinity(0, sizeof(allowed), &allowed);
	}
	return 0;
}

/* Sum over every task of every instance of: 0 migrations, 1 voluntary,
 * 2 involuntary context switches, 3 CPU time in clock ticks, 4 time
 * waiting on a runqueue in us (schedstats).
 */
static long long tasks_field(struct pp *pp, int which)
{
	long long sum = 0, v;
	char path[80], buf[8192];
	int i, k;

	for (i = 0; i < pp->pairs; i++)
		for (k = 0; k < 2; k++) {
			int tid = pp->slots[i].tid[k];

			if (tid <= 0)
				return -1;
			if (which == 4) {
				v = task_wait_us(tid, pp->threads);
			} else if (which == 0) {
				v = task_migrations(tid, pp->threads);
			} else if (which == 3) {
				snprintf(path, sizeof(path), pp->threads ?
					 "/proc/self/task/%d/stat" :
					 "/proc/%d/stat", tid);
				if (procstat_read(path, buf, sizeof(buf)) < 0)
					return -1;
				v = procstat_pid_cputicks(buf);
			} else {
				snprintf(path, sizeof(path), pp->threads ?
					 "/proc/self/task/%d/status" :
					 "/proc/%d/status", tid);
				if (procstat_read(path, buf, sizeof(buf)) < 0)
					return -1;
				v = procstat_status_field(buf, which == 1 ?
					"voluntary_ctxt_switches" :
					"nonvoluntary_ctxt_switches");
			}
			if (v < 0)
				return -1;
			sum += v;
		}
	return sum;
}

static void stop_instances(struct pp *pp)
{
	int i;

	if (pp->threads) {
		/* read and write are cancellation points. */
		for (i = 0; i < pp->pairs; i++) {
			pthread_cancel(pp->th[i]);
			pthread_join(pp->th[i], NULL);
			pthread_cancel(pp->pth[i]);
			pthread_join(pp->pth[i], NULL);
		}
		return;
	}
	for (i = 0; i < pp->pairs; i++) {
		if (pp->slots[i].tid[0] > 0)
			kill(pp->slots[i].tid[0], SIGKILL);
		if (pp->slots[i].tid[1] > 0)
			kill(pp->slots[i].tid[1], SIGKILL);
	}
	/* Partners are re-parented to us (child subreaper): reap all. */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

static int run_one(struct pp *pp, struct bench_rec *rec, int seconds,
		   int warmup)
{
	int nsamp = warmup + seconds, i, k, start[2], rc = -1;
	unsigned long long *prev, *totals, *inst_sum, avg;
	long long m0 = -1, v0 = -1, iv0 = -1, c0 = -1, w0 = -1, m1, v1, iv1, c1;
	long long w1;
	long hz = sysconf(_SC_CLK_TCK);
	double foreign;
	struct inst_arg *args;
	struct run_stats st;
	double t0, now;

	prev = calloc(pp->pairs, sizeof(*prev));
	inst_sum = calloc(pp->pairs, sizeof(*inst_sum));
	totals = calloc(nsamp, sizeof(*totals));
	args = calloc(pp->pairs, sizeof(*args));
	pp->th = calloc(pp->pairs, sizeof(*pp->th));
	pp->pth = calloc(pp->pairs, sizeof(*pp->pth));
	pp->slots = mmap(NULL, pp->pairs * sizeof(struct slot),
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	if (!prev || !inst_sum || !totals || !args || !pp->th || !pp->pth ||
	    pp->slots == MAP_FAILED || pipe(start)) {
		perror("sched-bench: pingpong");
		goto out_nomap;
	}
	pp->start_fd = start[0];
	if (start_instances(pp, args)) {
		perror("sched-bench: pingpong: start");
		goto out;
	}
	/* All instances exist and wait on the start pipe: go together. */
	for (i = 0; i < pp->pairs; i++)
		while (!__atomic_load_n(&pp->slots[i].ready, __ATOMIC_ACQUIRE))
			usleep(1000);
	xwrite1(start[1]);
	memset(&st, 0, sizeof(st));
	t0 = bench_now();
	for (k = 0; k < nsamp; k++) {
		if (k == warmup) {
			m0 = tasks_field(pp, 0);
			v0 = tasks_field(pp, 1);
			iv0 = tasks_field(pp, 2);
			c0 = tasks_field(pp, 3);
			w0 = tasks_field(pp, 4);
			stats_begin(&st);
			/*
			 * The measured seconds start now, however long the
			 * warm-up took on a loaded machine, and after
			 * stats_begin(): the window it times holds them all.
			 */
			t0 = bench_now() - k;
		}
		/* will-it-scale's sleep(1), but on absolute deadlines so
		 * that the sampling loop does not drift.
		 */
		bench_sleep_until(t0 + k + 1);
		/*
		 * Late by more than half a second (the machine stalled
		 * us): later deadlines count from now, as will-it-scale's
		 * relative sleep(1) would.  Kept, they would all be past
		 * and fire back to back: samples of no time, 0 handoffs.
		 */
		now = bench_now();
		if (now > t0 + k + 1.5)
			t0 = now - (k + 1);
		for (i = 0; i < pp->pairs; i++) {
			unsigned long long c = __atomic_load_n(
				&pp->slots[i].count, __ATOMIC_RELAXED);

			totals[k] += c - prev[i];
			if (k >= warmup)
				inst_sum[i] += c - prev[i];
			prev[i] = c;
		}
	}
	stats_end(&st);
	m1 = tasks_field(pp, 0);
	v1 = tasks_field(pp, 1);
	iv1 = tasks_field(pp, 2);
	c1 = tasks_field(pp, 3);
	w1 = tasks_field(pp, 4);
	stop_instances(pp);
	for (k = warmup; k < nsamp; k++)
		rec_sample(rec, k - warmup + 1, "handoffs", totals[k],
			   "handoffs/s", 1);
	wis_average(totals, nsamp, warmup, &avg);
	rec_sample(rec, 0, "handoffs", avg, "handoffs/s", 1);
	/*
	 * handoffs divided by the pair count: a diagnostic, never a KPI of
	 * its own (it would only repeat the row above in the Holm family);
	 * with one pair it would repeat it exactly, so it is left out.
	 */
	if (pp->pairs > 1)
		rec_stat(rec, "handoffs_per_task", (double)avg / pp->pairs,
			 "handoffs/s");
	for (i = 0; i < pp->pairs; i++)
		rec_line(rec, "inst", "%d,%d,%.12g", i, pp->slots[i].cpu,
			 (double)inst_sum[i] / seconds);
	foreign = stats_print(&st, rec, v0 >= 0 && v1 >= v0 ? v1 - v0 : -1,
		    iv0 >= 0 && iv1 >= iv0 ? iv1 - iv0 : -1,
		    m0 >= 0 && m1 >= m0 ? m1 - m0 : -1,
		    c0 >= 0 && c1 >= c0 && hz > 0 ?
		    (double)(c1 - c0) / hz : -1);
	if (w0 >= 0 && w1 >= w0)
		rec_stat(rec, "task_wait_ms", (w1 - w0) / 1e3, "ms");
	harness_stat(rec);
	rec_end(rec);
	fprintf(stderr, "pingpong: %d %s pair%s, %s, %d s (+%d s warm-up): %llu hand-offs/s (%.0f per pair)%s\n",
		pp->pairs, pp->threads ? "thread" : "process",
		pp->pairs == 1 ? "" : "s", rec->placement, seconds, warmup,
		avg, (double)avg / pp->pairs, busy_note(foreign));
	rc = 0;
out:
	close(start[0]);
	close(start[1]);
	munmap(pp->slots, pp->pairs * sizeof(struct slot));
out_nomap:
	free(prev);
	free(inst_sum);
	free(totals);
	free(args);
	free(pp->th);
	free(pp->pth);
	return rc;
}

static void usage(FILE *f)
{
	bench_usage(BENCH_PINGPONG, "pingpong", f);
	fputs("  the defaults are will-it-scale context_switch1 -s 5's; 'man sched-bench'\n"
	      "  has the rest\n", f);
}

int bench_pingpong(int argc, char **argv)
{
	struct bench_knobs knobs = { .saved_autogroup = -1 };
	struct pp pp = { .pairs = 1, .pin = 1 };
	struct bench_rec rec = { .workload = "pingpong", .run = 1 };
	int seconds = 5, warmup = 6, c, nsweep = 0, i, rc = 0;
	struct bench_args args;
	int sweep[64];
	char *p, *end;

	c = bench_parse(BENCH_PINGPONG, "pingpong", argc, argv, &args);
	if (c) {
		usage(c == 1 ? stdout : stderr);
		return c == 1 ? 0 : c;
	}
	pp.pairs = (int)bench_arg_num(&args, BK_COPIES, pp.pairs);
	seconds = (int)bench_arg_num(&args, BK_TIME, seconds);
	warmup = (int)bench_arg_num(&args, BK_WARMUP, warmup);
	pp.threads = (int)bench_arg_num(&args, BK_THREADS, pp.threads);
	pp.pin = (int)bench_arg_num(&args, BK_PIN, pp.pin);
	pp.apart = (int)bench_arg_num(&args, BK_APART, pp.apart);
	if (pp.apart)
		pp.pin = 0;
	rec.run = (int)bench_arg_num(&args, BK_RUN, rec.run);
	knobs_from_args(&knobs, &args);
	/* 1,2,4 or 1:2:4: init splits its sb.pingpong= at commas */
	for (p = (char *)bench_arg_str(&args, BK_SWEEP, ""); *p; p = end) {
		/* no room for one more: end stays at p, a bad list */
		end = p;
		if (nsweep < 64)
			sweep[nsweep] = (int)strtol(p, &end, 10);
		if (end == p || sweep[nsweep] < 1 || sweep[nsweep] > 4096 ||
		    (*end && *end != ',' && *end != ':')) {
			fprintf(stderr, "sched-bench: --sweep: bad list '%s'\n",
				bench_arg_str(&args, BK_SWEEP, ""));
			usage(stderr);
			return 2;
		}
		nsweep++;
		if (*end)
			end++;
	}
	if (!nsweep)
		sweep[nsweep++] = pp.pairs;
	pp.setsid_inst = knobs.setsid;
	/* Threads share one session: give the whole process its own. */
	if (knobs.setsid && pp.threads && getsid(0) != getpid())
		setsid();
	rec.placement = pp.pin ? "pinned" : pp.apart ? "apart" : "free";
	if (knobs_apply(&knobs))
		return 1;
	/* Orphaned partners come back to us, so that we reap them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rec_header();
	env_print(&knobs);
	for (i = 0; i < nsweep && !rc; i++) {
		pp.pairs = sweep[i];
		rec.count = 0;
		snprintf(rec.params, sizeof(rec.params),
			 "pairs=%d mode=%s duration=%d warmup=%d", pp.pairs,
			 pp.threads ? "threads" : "processes", seconds, warmup);
		knobs_params(&knobs, rec.params, sizeof(rec.params));
		rc = run_one(&pp, &rec, seconds, warmup) ? 1 : 0;
	}
	knobs_restore(&knobs);
	return rc;
}
