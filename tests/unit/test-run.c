// SPDX-License-Identifier: GPL-2.0
/*
 * run.c: the sched-bench record parser (clean, console noise, cut short),
 * the tool output parsers, the sched-bench command lines, and the rows
 * surviving a CSV round trip.
 */
#include <stdlib.h>
#include <unistd.h>

#include "run.h"
#include "test.h"
#include "util.h"

static struct strbuf text = STRBUF_INIT;

static const char *fixture(const char *name)
{
	const char *data = getenv("DATA");
	char *path = xasprintf("%s/bench/%s", data ? data : "tests/data", name);

	strbuf_reset(&text);
	if (strbuf_read_file(&text, path) < 0)
		printf("#   cannot read %s\n", path);
	free(path);
	return text.buf;
}

static const struct sample *find(const struct sample_set *set,
				 const char *params, int sample,
				 const char *metric)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (set->v[i].sample == sample &&
		    !strcmp(set->v[i].metric, metric) &&
		    (!params || !strcmp(set->v[i].params, params)))
			return &set->v[i];
	return NULL;
}

static const struct run_meta meta = { .label = "base", .target = "local" };

static void check_spawn(const struct sample_set *set)
{
	const struct sample *s = find(set, NULL, 0, "lps");
	int passes = 0;
	size_t i;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR(s->workload, "spawn");
	CHECK_STR(s->params, "copies=2 duration=1 passes=3");
	CHECK_STR(s->label, "base");
	CHECK_STR(s->target, "local");
	CHECK_STR(s->machine, "testbox");
	CHECK_STR(s->kernel, "6.18.44-fc-v669");
	CHECK_STR(s->autogroup_config, "y");
	CHECK_STR(s->autogroup_enabled, "1");
	CHECK_STR(s->cgroup, "/");
	CHECK_STR(s->placement, "free");
	CHECK_INT(s->nr_cpus, 2);
	CHECK_INT(s->higher_is_better, 1);
	CHECK(s->value > 0);
	CHECK(s->cpu_usr >= 0 && s->cpu_usr <= 100);
	CHECK_NEAR(s->cpu_usr + s->cpu_sys + s->cpu_idle + s->cpu_iowait +
		   s->cpu_softirq, 100, 5);
	for (i = 0; i < set->nr; i++)
		if (!strcmp(set->v[i].metric, "lps") && set->v[i].sample > 0)
			passes++;
	CHECK_INT(passes, 3);
	s = find(set, NULL, 0, "diag.ctx_voluntary");
	CHECK(s && s->higher_is_better == 0 && s->value > 0);
	CHECK(find(set, NULL, 0, "diag.wall_s") != NULL);
	CHECK(find(set, NULL, 0, "cpu_usr") == NULL);
}

static void test_parse_spawn(void)
{
	struct sample_set set = { 0 };
	struct run_parse_report rep;

	fixture("spawn.out");
	CHECK_INT(run_parse_bench_output_report(text.buf, text.len, &meta,
						&set, &rep), 1);
	CHECK_INT(rep.runs, 1);
	CHECK_INT(rep.dropped, 0);
	CHECK_INT(rep.bad_records, 0);
	CHECK(rep.env > 20);
	check_spawn(&set);
	sample_set_release(&set);
}

static void test_parse_console(void)
{
	struct sample_set set = { 0 };
	struct run_parse_report rep;

	/* CRLF, kernel messages and one mangled record in between. */
	fixture("console.out");
	CHECK_INT(run_parse_bench_output_report(text.buf, text.len, &meta,
						&set, &rep), 1);
	CHECK_INT(rep.bad_records, 1);
	check_spawn(&set);
	sample_set_release(&set);
}

static void test_parse_pingpong_sweep(void)
{
	struct sample_set set = { 0 };
	const struct sample *s1, *s2;
	struct run_parse_report rep;
	char *cut;

	fixture("pingpong.out");
	CHECK_INT(run_parse_bench_output_report(text.buf, text.len, &meta,
						&set, &rep), 2);
	s1 = find(&set, "pairs=1 mode=processes duration=2 warmup=1", 0,
		  "handoffs");
	s2 = find(&set, "pairs=2 mode=processes duration=2 warmup=1", 0,
		  "handoffs");
	CHECK(s1 && s2);
	if (s1 && s2) {
		CHECK_STR(s1->placement, "pinned");
		CHECK_STR(s1->unit, "handoffs/s");
		CHECK(s1->value > 0 && s2->value > 0);
	}
	CHECK(find(&set, "pairs=2 mode=processes duration=2 warmup=1", 2,
		   "handoffs") != NULL);
	sample_set_release(&set);

	/* Cut before the last end record: that run is dropped whole. */
	cut = strstr(text.buf, "end,pingpong,pairs=2");
	CHECK(cut != NULL);
	if (!cut)
		return;
	CHECK_INT(run_parse_bench_output_report(text.buf, cut - text.buf,
						&meta, &set, &rep), 1);
	CHECK_INT(rep.dropped, 1);
	CHECK(find(&set, "pairs=2 mode=processes duration=2 warmup=1", 0,
		   "handoffs") == NULL);
	sample_set_release(&set);

	/* A lost record makes the count wrong: dropped too. */
	fixture("pingpong.out");
	cut = strstr(text.buf, "inst,pingpong,pairs=1");
	CHECK(cut != NULL);
	if (!cut)
		return;
	*cut = 'X';
	CHECK_INT(run_parse_bench_output_report(text.buf, text.len, &meta,
						&set, &rep), 1);
	CHECK_INT(rep.dropped, 1);
	sample_set_release(&set);
}

static void test_parse_garbage(void)
{
	static const char *const bad[] = {
		"",
		"sample,spawn,x,1,0,lps,nan,lps,1,free\nend,spawn,x,1,1\n",
		"sample,spawn,x,0,0,lps,5,lps,1,free\nend,spawn,x,0,1\n",
		"sample,spawn,x,1,0,lps,5,lps,2,free\nend,spawn,x,1,1\n",
		"sample,spawn,a;b,1,0,lps,5,lps,1,free\nend,spawn,a;b,1,1\n",
		"sample,spawn,x,1,0,lps,5,lps,1,free,extra\nend,spawn,x,1,1\n",
		"end,spawn,x,1,0\n",
		"env,kernel_release\n\xff\xfe\n",
	};
	struct sample_set set = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_INT(run_parse_bench_output(bad[i], strlen(bad[i]), &meta,
						 &set), -1);
		CHECK_INT(set.nr, 0);
	}
	sample_set_release(&set);
}

static void test_tool_parsers(void)
{
	struct sample_set set = { 0 };
	const struct sample *s;

	CHECK_INT(run_parse_tool_output("perf-pipe", "loops=20000", 1,
					fixture("perf-pipe.out"), &meta, NULL,
					&set), 2);
	s = find(&set, NULL, 0, "ops");
	CHECK(s && s->value == 276468 && s->higher_is_better == 1);
	s = find(&set, NULL, 0, "usecs_per_op");
	CHECK(s && fabs(s->value - 3.61705) < 1e-9);
	CHECK_INT(run_parse_tool_output("perf-messaging", "g=1", 1,
					fixture("perf-messaging.out"), &meta,
					NULL, &set), 1);
	CHECK_INT(run_parse_tool_output("hackbench", "g=1", 1,
					fixture("hackbench.out"), &meta, NULL,
					&set), 1);
	CHECK_INT(run_parse_tool_output("schbench", "m=1", 1,
					fixture("schbench.out"), &meta, NULL,
					&set), 2);
	s = find(&set, "m=1", 0, "p99_latency");
	CHECK(s && s->value == 26 && s->higher_is_better == 0);
	s = find(&set, "m=1", 0, "rps");
	CHECK(s && fabs(s->value - 4126.2) < 1e-9);
	s = find(&set, "g=1", 0, "time");
	CHECK(s && fabs(s->value - 0.023) < 1e-12);
	CHECK_INT(run_parse_tool_output("hackbench", "", 1, "Segfault\n",
					&meta, NULL, &set), -1);
	CHECK_INT(run_parse_tool_output("hackbench", "", 1, "Time: 0.000\n",
					&meta, NULL, &set), -1);
	sample_set_release(&set);
}

static void test_argv(void)
{
	struct bench_spec spec;
	char **argv, *line;

	bench_spec_init(&spec);
	spec.workload = "pingpong";
	spec.copies = 2;
	spec.duration = 5;
	spec.pin = 0;
	spec.threads = 1;
	spec.warmup = 0;
	spec.sweep = "1,2,4";
	spec.run = 3;
	spec.cgroup = "new";
	argv = run_bench_argv(&spec, "/x/sched-bench");
	CHECK(argv != NULL);
	if (argv) {
		CHECK_STR(argv[0], "/x/sched-bench");
		CHECK_STR(argv[1], "pingpong");
		CHECK(argv[16] == NULL);
	}
	run_argv_free(argv);
	line = run_bench_cmdline(&spec);
	CHECK_STR(line, "pingpong -n 2 -t 5 --warmup 0 --threads --no-pin --sweep 1,2,4 --run 3 --cgroup new");
	free(line);

	bench_spec_init(&spec);
	spec.workload = "spawn";
	spec.copies = 4;
	spec.passes = 3;
	spec.gap = 0;
	spec.threads = 1;		/* not a spawn option: ignored */
	spec.setsid = 1;
	spec.child_cpu = 1;
	spec.autogroup = "off";
	line = run_bench_cmdline(&spec);
	CHECK_STR(line, "spawn -c 4 --passes 3 --gap 0 --child-cpu --autogroup off --setsid");
	free(line);

	/* a target's words: run_args where unset, no -t or --run */
	line = run_bench_workload_args(&spec);
	CHECK_STR(line, "spawn=-c,4,--passes,3,--gap,0,--child-cpu,--autogroup,off,--setsid");
	free(line);
	bench_spec_init(&spec);
	spec.workload = "pingpong";
	spec.duration = 5;
	spec.run = 2;
	spec.pin = 0;
	line = run_bench_workload_args(&spec);
	CHECK_STR(line, "pingpong=--warmup,2,--no-pin");
	free(line);

	spec.workload = "rm -rf";
	CHECK(run_bench_cmdline(&spec) == NULL);
	spec.workload = "pingpong";
	spec.sweep = "1 2";
	CHECK(run_bench_argv(&spec, NULL) == NULL);
}

/* A tool's command line and params come from its workload table entry. */
static void test_tool_argv(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char *params = NULL, **argv, *want;

	argv = run_tool_argv("schbench", "/bin/schbench", 7, &params);
	CHECK_STR(argv[0], "/bin/schbench");
	CHECK_STR(argv[1], "-m");
	CHECK_STR(argv[3], "-t");
	CHECK_INT(atol(argv[4]), ncpu > 0 ? ncpu : 1);
	CHECK_STR(argv[6], "7");
	CHECK(argv[7] == NULL);
	want = xasprintf("messengers=1 threads=%ld duration=7",
			 ncpu > 0 ? ncpu : 1);
	CHECK_STR(params, want);
	free(want);
	free(params);
	run_argv_free(argv);
	argv = run_tool_argv("perf-pipe", "perf", 7, &params);
	CHECK_STR(argv[1], "bench");
	CHECK_STR(argv[3], "pipe");
	CHECK_STR(argv[5], "100000");
	CHECK(argv[6] == NULL);
	CHECK_STR(params, "loops=100000 mode=processes");
	free(params);
	run_argv_free(argv);
}

static void test_csv_round_trip(void)
{
	char path[] = "/tmp/sched-bot-run.XXXXXX";
	struct sample_set set = { 0 }, back = { 0 };
	size_t i;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	fixture("spawn.out");
	CHECK_INT(run_parse_bench_output(text.buf, text.len, &meta, &set), 1);
	/* A label and cgroup that need quoting. */
	for (i = 0; i < set.nr; i++) {
		free(set.v[i].label);
		set.v[i].label = xstrdup("v6.13, \"patched\"");
	}
	CHECK_INT(samples_append_file(path, set.v, set.nr), 0);
	CHECK_INT(samples_append_file(path, set.v, 2), 0);
	CHECK_INT(samples_read_file(path, &back), 0);
	CHECK_INT(back.nr, set.nr + 2);
	for (i = 0; i < set.nr && i < back.nr; i++) {
		CHECK_STR(back.v[i].label, "v6.13, \"patched\"");
		CHECK_STR(back.v[i].metric, set.v[i].metric);
		CHECK_STR(back.v[i].params, set.v[i].params);
		CHECK(back.v[i].value == set.v[i].value);
		CHECK(back.v[i].cpu_sys == set.v[i].cpu_sys);
		CHECK_INT(back.v[i].sample, set.v[i].sample);
		CHECK_INT(back.v[i].higher_is_better,
			  set.v[i].higher_is_better);
	}
	unlink(path);
	sample_set_release(&set);
	sample_set_release(&back);
}


/* The row of a run that perf's rows hang on: spawn copies=2, 1000 lps. */
static void run_row(struct sample_set *set, const char *label, int run)
{
	struct sample s;

	sample_init(&s);
	s.label = (char *)label;
	s.workload = "spawn";
	s.params = "copies=2";
	s.run = run;
	s.metric = "lps";
	s.value = 1000;
	sample_set_add(set, &s);
}

/* perf stat's lines as a guest wrote them: only what they must say. */
static void test_perf_rows(void)
{
	static const char perf[] =
		"12048,,context-switches,1986338204,100.00,6.065,K/sec\n"
		"<not supported>,,cycles,0,100.00,,\n"
		"1986.34,msec,task-clock,1986338204,100.00,0.153,CPUs\n"
		"99,,context-switches,1,100.00,,\n"	/* a second: ignored */
		"-5,,cpu-migrations,1,100.00,,\n"	/* negative */
		"nan,,instructions,1,100.00,,\n"
		"7,,cpu-migrations\n"
		"5,,rm -rf /,1,100.00,,\n"		/* no such event */
		",,\n\n,\nx"
		"123456789012345678901234567890123456789012345678901234567890"
		"123456789012345678901234567890123456789012345678901234567890"
		"123456789012345678901234567890,,instructions\n";
	struct sample_set set = { 0 };

	run_row(&set, "base", 3);
	CHECK_INT(run_perf_rows(perf, 0, &set), 3);
	CHECK_INT(set.nr, 4);
	CHECK_STR(set.v[1].metric, "diag.perf.context-switches");
	CHECK(set.v[1].value == 12048);
	CHECK_STR(set.v[1].unit, "count");
	CHECK_STR(set.v[1].workload, "spawn");
	CHECK_STR(set.v[1].params, "copies=2");
	CHECK_INT(set.v[1].run, 3);
	CHECK_INT(set.v[1].higher_is_better, 0);
	CHECK_STR(set.v[2].metric, "diag.perf.task-clock");
	CHECK_STR(set.v[2].unit, "ms");
	CHECK_STR(set.v[3].metric, "diag.perf.cpu-migrations");
	CHECK(set.v[3].value == 7);
	/* no row of the run to hang them on: none */
	CHECK_INT(run_perf_rows(perf, 4, &set), 0);
	sample_set_release(&set);
}
/* perf report's lines as a guest wrote them: symbols only, bounded. */
static void test_profile_rows(void)
{
	struct strbuf rep = STRBUF_INIT;
	struct sample_set set = { 0 };
	int i;

	strbuf_addstr(&rep,
		"    41.20%  [k] slow_fork_wait\n"
		"     5.00%  [.] main\n"
		"     4.00%  [k] slow_fork_wait\n"	/* again: ignored */
		"     3.00%  [.] 0x00000000015976e8\n"	/* an address */
		"     3.00%  [.] 0000000000000000\n"
		"     2.50%  [k] finish_task_switch.isra.0\n"
		"   101.00%  [k] too_much\n"
		"      nan%  [k] not_a_number\n"
		"     1.00%  [k] a;b\n"
		"     1.00%  [k]\n"
		"     1.00%  slow\n"
		"     1.00%  [k] "
		"an_overlong_symbol_name_0123456789_0123456789_0123456789_0123456789\n"
		"garbage\n\n%\n");
	run_row(&set, "patched", 1);
	set.v[0].higher_is_better = 1;
	CHECK_INT(run_profile_rows(rep.buf, "self", "cpu-clock", 0, &set), 3);
	CHECK_INT(set.nr, 4);
	CHECK_STR(set.v[1].metric, "diag.profile.self.slow_fork_wait");
	CHECK(set.v[1].value == 41.2);
	CHECK_STR(set.v[1].unit, "%cpu-clock");
	CHECK_STR(set.v[1].params, "copies=2");
	CHECK_INT(set.v[1].higher_is_better, 0);
	CHECK_STR(set.v[2].metric, "diag.profile.self.main");
	CHECK_STR(set.v[3].metric,
		  "diag.profile.self.finish_task_switch.isra.0");
	/* --children: the first column */
	CHECK_INT(run_profile_rows("  52.00%  41.20%  [k] kernel_clone\n",
				   "children", "cpu-clock", 0, &set), 1);
	CHECK_STR(set.v[4].metric, "diag.profile.children.kernel_clone");
	CHECK(set.v[4].value == 52);
	/* a report of more functions than kept: RUN_PROFILE_MAX */
	strbuf_reset(&rep);
	for (i = 0; i < 3 * RUN_PROFILE_MAX; i++)
		strbuf_addf(&rep, "  0.10%%  [k] fn_%d\n", i);
	CHECK_INT(run_profile_rows(rep.buf, "self", "cycles", 0, &set),
		  RUN_PROFILE_MAX);
	CHECK_INT(run_profile_rows(rep.buf, "self", "cycles", 99999, &set), 0);
	sample_set_release(&set);
	strbuf_release(&rep);
}

int main(void)
{
	TEST_NAME("test-run");
	RUN(test_parse_spawn);
	RUN(test_parse_console);
	RUN(test_parse_pingpong_sweep);
	RUN(test_parse_garbage);
	RUN(test_tool_parsers);
	RUN(test_argv);
	RUN(test_tool_argv);
	RUN(test_csv_round_trip);
	RUN(test_perf_rows);
	RUN(test_profile_rows);
	strbuf_release(&text);
	return test_done();
}
