// SPDX-License-Identifier: GPL-2.0
/*
 * test-console.c - the framed console parser on fixture console logs:
 * clean, stray kernel lines, interleaving, truncation, lost frames,
 * panic, no init, garbage, a failed workload, a timeout; and what
 * target_finish keeps of a LAVA job's log in the run directory.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "target/common.h"
#include "target/console.h"
#include "target/lava.h"
#include "test.h"
#include "util.h"

static enum console_status parse_fixture(const char *name, int timed_out,
					 struct console_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/kbuild/%s", getenv("DATA") ?
			       getenv("DATA") : "tests/data", name);
	enum console_status s;

	if (strbuf_read_file(&sb, path) < 0) {
		printf("#   cannot read %s\n", path);
		memset(res, 0, sizeof(*res));
		free(path);
		return CONSOLE_ERROR;
	}
	s = console_parse(sb.buf, sb.len, timed_out, res);
	strbuf_release(&sb);
	free(path);
	return s;
}

static void test_ok(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("ok.log", 0, &r), CONSOLE_OK);
	CHECK(!r.reason);
	CHECK_INT(r.nr, 2);
	CHECK_INT(r.rc, 0);
	CHECK_INT(r.frames, 20);
	CHECK(r.stray >= 7);	/* the boot lines and the mouse */
	CHECK_STR(console_info(&r, "release"), "6.1.192");
	CHECK_STR(console_info(&r, "nr_cpus"), "2");
	CHECK(!console_info(&r, "nr"));
	if (r.nr == 2) {
		CHECK_STR(r.runs[0].workload, "spawn");
		CHECK_INT(r.runs[0].run, 1);
		CHECK_STR(r.runs[0].args, "-t 1");
		CHECK_INT(r.runs[0].rc, 0);
		CHECK(strstr(r.runs[0].out.buf,
			     "sample,spawn,copies=2 duration=1,1,0,lps,6812.5"));
		CHECK(strstr(r.runs[0].err.buf, "6812.5 lps"));
		CHECK(!strstr(r.runs[0].out.buf, "lps (2 copies"));
		CHECK_STR(r.runs[1].workload, "pingpong");
		CHECK(!strstr(r.runs[1].out.buf, "input:"));
	}
	CHECK(strstr(r.last_lines, "reboot: Power down"));
	console_result_release(&r);
}

static void test_rows(void)
{
	struct console_result r;
	struct sample_set set = { 0 };

	CHECK_INT(parse_fixture("ok.log", 0, &r), CONSOLE_OK);
	CHECK_INT(console_to_samples(&r, "base", "qemu", &set), 0);
	CHECK_INT(set.nr, 2);
	if (set.nr == 2) {
		CHECK_STR(set.v[0].label, "base");
		CHECK_STR(set.v[0].kernel, "6.1.192");
		CHECK_STR(set.v[0].workload, "spawn");
		CHECK_STR(set.v[0].target, "qemu");
		CHECK_NEAR(set.v[0].value, 6812.5, 1e-9);
		CHECK_INT(set.v[0].run, 1);
		CHECK_STR(set.v[1].workload, "pingpong");
		CHECK_NEAR(set.v[1].value, 180000, 1e-9);
	}
	sample_set_release(&set);
	console_result_release(&r);
}

static void test_stray_prefix(void)
{
	struct console_result r;

	/* A kernel line without its newline before our frame. */
	CHECK_INT(parse_fixture("stray-prefix.log", 0, &r), CONSOLE_OK);
	CHECK_INT(r.nr, 2);
	CHECK_STR(console_info(&r, "uptime"), "0.61");
	console_result_release(&r);
}

static void test_interleaved(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("interleaved.log", 0, &r), CONSOLE_CORRUPT);
	CHECK(r.reason && strstr(r.reason, "checksum"));
	CHECK(strstr(r.last_lines, "Power down"));
	console_result_release(&r);
}

static void test_truncated(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("truncated.log", 0, &r), CONSOLE_TRUNCATED);
	CHECK(r.reason && strstr(r.reason, "without END"));
	CHECK(strstr(r.last_lines, "@@SB 11 "));
	console_result_release(&r);
}

static void test_timeout(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("truncated.log", 1, &r), CONSOLE_TIMEOUT);
	CHECK(r.reason && strstr(r.reason, "timeout"));
	console_result_release(&r);
	CHECK_INT(console_parse("", 0, 1, &r), CONSOLE_TIMEOUT);
	console_result_release(&r);
}

static void test_lost(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("lost.log", 0, &r), CONSOLE_CORRUPT);
	CHECK(r.reason && strstr(r.reason, "lost"));
	console_result_release(&r);
}

static void test_panic(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("panic.log", 0, &r), CONSOLE_PANIC);
	CHECK(r.reason && strstr(r.reason, "while the workloads ran"));
	CHECK(strstr(r.last_lines, "Attempted to kill init"));
	console_result_release(&r);
	CHECK_INT(parse_fixture("noinit.log", 0, &r), CONSOLE_PANIC);
	CHECK(r.reason && strstr(r.reason, "during boot"));
	CHECK(strstr(r.last_lines, "Unable to mount root fs"));
	console_result_release(&r);
}

static void test_no_init(void)
{
	struct console_result r;
	const char log[] = "[    0.0] Linux version 6.1\n[    0.1] hmm\n";

	CHECK_INT(console_parse(log, sizeof(log) - 1, 0, &r), CONSOLE_NO_INIT);
	CHECK(strstr(r.last_lines, "hmm"));
	console_result_release(&r);
}

static void test_garbage(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("garbage.log", 0, &r), CONSOLE_CORRUPT);
	/* Control bytes do not reach a report. */
	CHECK(!strchr(r.last_lines, 0x1b));
	console_result_release(&r);
}

static void test_failed(void)
{
	struct console_result r;

	CHECK_INT(parse_fixture("failed.log", 0, &r), CONSOLE_FAILED);
	CHECK(r.reason && strstr(r.reason, "spawn run 1 exited with 3"));
	console_result_release(&r);
}

static void test_hostile(void)
{
	struct console_result r;
	static const char *const inputs[] = {
		"@@SB BEGIN 1\n@@SB 1 00000000\n",
		"@@SB BEGIN 1\n@@SB 99999999999999999999999 x y\n",
		"@@SB BEGIN 1\n@@SB END\n",
		"@@SB END 0 rc=0\n",
		"@@SB BEGIN 1\n@@SB BEGIN 1\n@@SB END 0 rc=0\n",
		"@@SB ",
		"\n\n\n@@SB BEGIN",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		console_parse(inputs[i], strlen(inputs[i]), 0, &r);
		CHECK(r.status != CONSOLE_OK);
		CHECK(r.reason != NULL);
		console_result_release(&r);
	}
}

static void test_tail(void)
{
	struct strbuf sb = STRBUF_INIT;

	console_tail("a\nb\nc\nd\n", 8, 2, &sb);
	CHECK_STR(sb.buf, "c\nd\n");
	strbuf_reset(&sb);
	console_tail("a\nb", 3, 5, &sb);
	CHECK_STR(sb.buf, "a\nb\n");
	strbuf_release(&sb);
}

/* A transcript as init prints it: BEGIN, the payloads framed, END. */
static void framed(struct strbuf *sb, const char *const *payloads)
{
	int seq;

	strbuf_addstr(sb, "@@SB BEGIN 1\n");
	for (seq = 1; payloads[seq - 1]; seq++) {
		char *body = xasprintf("%d %s", seq, payloads[seq - 1]);

		strbuf_addf(sb, "@@SB %d %08lx %s\n", seq,
			    crc32(0, (const unsigned char *)body, strlen(body)),
			    payloads[seq - 1]);
		free(body);
	}
	strbuf_addf(sb, "@@SB END %d rc=0\n", seq - 1);
}

/* A program's run (sb.exec): env records, its text, STAT -> the rows
 * `sched-bot run` makes of it. */
static void test_tool_rows(void)
{
	static const char *const p[] = {
		"INFO release=6.1.192",
		"INFO seconds=1",
		"RUN hackbench 1 /usr/bin/hackbench -P -g 4 -l 500",
		"OUT env,nr_cpus,2",
		"OUT env,config_sched_autogroup,y",
		"OUT Running in process mode with 4 groups using 40 file "
		"descriptors each (== 160 tasks)",
		"OUT Time: 11.678",
		"STAT wall_s=12.5 cpu_usr=6.25 cpu_sys=91.38 cpu_idle=1.37 "
		"cpu_iowait=0.00 cpu_softirq=0.99",
		"RC 0",
		NULL,
	};
	struct strbuf sb = STRBUF_INIT;
	struct console_result r;
	struct sample_set set = { 0 };
	double v;

	framed(&sb, p);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_OK);
	CHECK_INT(r.nr, 1);
	if (r.nr == 1) {
		CHECK_INT(console_run_stat(&r.runs[0], "cpu_sys", &v), 0);
		CHECK_NEAR(v, 91.38, 1e-9);
		CHECK_INT(console_run_stat(&r.runs[0], "cpu", &v), -1);
	}
	CHECK_INT(console_to_samples(&r, "base", "qemu", &set), 0);
	CHECK_INT(set.nr, 2);
	if (set.nr == 2) {
		CHECK_STR(set.v[0].workload, "hackbench");
		CHECK_STR(set.v[0].params, "groups=4 fds=20 loops=500 "
			  "size=100 mode=process ipc=socket");
		CHECK_STR(set.v[0].metric, "time");
		CHECK_NEAR(set.v[0].value, 11.678, 1e-9);
		CHECK_INT(set.v[0].higher_is_better, 0);
		CHECK_STR(set.v[0].placement, "free");
		CHECK_STR(set.v[0].kernel, "6.1.192");
		CHECK_INT(set.v[0].nr_cpus, 2);
		CHECK_STR(set.v[0].autogroup_config, "y");
		CHECK_NEAR(set.v[0].cpu_sys, 91.38, 1e-9);
		CHECK_NEAR(set.v[0].cpu_softirq, 0.99, 1e-9);
		CHECK_STR(set.v[1].metric, "diag.wall_s");
		CHECK_NEAR(set.v[1].value, 12.5, 1e-9);
	}
	sample_set_release(&set);
	console_result_release(&r);
	strbuf_release(&sb);
}

/*
 * The profiles after the runs: each cell's rows take the params of its
 * cell's first run; a failed one, one of no run, and the lines beyond
 * a profile's bounds give none.
 */
static void test_profile_rows(void)
{
	static const char *p[] = {
		"INFO release=6.1.192",
		"RUN spawn 1 -t 1 --run 1 -c 2",
		"OUT # sched-bench 1 spawn",
		"OUT kind,workload,params,run,sample,metric,value,unit,hib,"
		"placement",
		"OUT sample,spawn,copies=2,1,0,lps,6812.5,lps,1,",
		"OUT end,spawn,copies=2,1,1",
		"RC 0",
		"RUN spawn 1 -t 1 --run 1 -c 4",
		"OUT # sched-bench 1 spawn",
		"OUT kind,workload,params,run,sample,metric,value,unit,hib,"
		"placement",
		"OUT sample,spawn,copies=4,1,0,lps,7000,lps,1,",
		"OUT end,spawn,copies=4,1,1",
		"RC 0",
		"RUN spawn 2 -t 1 --run 2 -c 2",
		"OUT # sched-bench 1 spawn",
		"OUT kind,workload,params,run,sample,metric,value,unit,hib,"
		"placement",
		"OUT sample,spawn,copies=2,2,0,lps,6800,lps,1,",
		"OUT end,spawn,copies=2,2,1",
		"RC 0",
		"PROFILE spawn 1 cpu-clock mode=system",
		"PROF self     41.20%  [k] slow_fork_wait",
		"PROF self      3.07%  [.] 0x00000000015976e8",
		"PROF self      2.00%  [k] rm -rf /",
		"PROF self      1.00%  [k] slow_fork_wait",
		"PROF children     52.00%     0.10%  [k] kernel_clone",
		"PROFILE spawn 0 cpu-clock error=perf record recorded nothing",
		"PROF self     9.00%  [k] lost",
		"PROFILE pingpong 0 cpu-clock mode=tasks",
		"PROF self     9.00%  [k] none_ran",
		NULL,
	};
	size_t i, nr = 0;
	struct sample_set set = { 0 };
	struct console_result r;
	struct strbuf sb = STRBUF_INIT;

	framed(&sb, p);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_OK);
	CHECK_INT(r.nr_profiles, 3);
	CHECK_INT(console_to_samples(&r, "patched", "qemu", &set), 0);
	for (i = 0; i < set.nr; i++) {
		const struct sample *s = &set.v[i];

		if (!starts_with(s->metric, "diag.profile."))
			continue;
		nr++;
		CHECK_STR(s->params, "copies=4");
		CHECK_STR(s->unit, "%cpu-clock");
		CHECK_STR(s->label, "patched");
		CHECK_INT(s->run, 1);
	}
	CHECK_INT(nr, 2);
	CHECK_INT(set.nr, 5);
	if (set.nr == 5) {
		CHECK_STR(set.v[3].metric, "diag.profile.self.slow_fork_wait");
		CHECK_NEAR(set.v[3].value, 41.2, 1e-9);
		CHECK_STR(set.v[4].metric,
			  "diag.profile.children.kernel_clone");
		CHECK_NEAR(set.v[4].value, 52, 1e-9);
	}
	sample_set_release(&set);
	console_result_release(&r);
	strbuf_reset(&sb);
	/* a report line with no profile begun is corruption */
	p[1] = "PROF self  1.00%  [k] early";
	p[2] = NULL;
	framed(&sb, p);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_CORRUPT);
	console_result_release(&r);
	strbuf_release(&sb);
}

/* A tool that printed no result, or a second STAT: no numbers. */
static void test_tool_bad(void)
{
	static const char *const none[] = {
		"RUN hackbench 1 /usr/bin/hackbench",
		"OUT Running in process mode",
		"STAT wall_s=0.1",
		"RC 0",
		NULL,
	};
	static const char *const twice[] = {
		"RUN hackbench 1 /usr/bin/hackbench",
		"OUT Time: 1.0",
		"STAT wall_s=0.1",
		"STAT wall_s=0.2",
		"RC 0",
		NULL,
	};
	struct strbuf sb = STRBUF_INIT;
	struct console_result r;
	struct sample_set set = { 0 };

	framed(&sb, none);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_OK);
	CHECK_INT(console_to_samples(&r, "base", "qemu", &set), -1);
	console_result_release(&r);
	sample_set_release(&set);
	strbuf_reset(&sb);
	framed(&sb, twice);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_CORRUPT);
	console_result_release(&r);
	strbuf_release(&sb);
}

/*
 * A LAVA job's log (its target lines as lava.c reads them) through
 * target_finish, as lava_boot_run calls it: the run directory keeps the
 * target's own env record and the commands, as for qemu and ssh, also
 * when the env workload did not run (the record every run prints).
 */
static void test_lava_env_record(void)
{
	static const char *const p[] = {
		"INFO release=6.1.192",
		"INFO seconds=1",
		"RUN spawn 1 -c 2 -t 1 --run 1",
		"OUT kind,workload,params,run,sample,metric,value,unit,hib,"
		"placement",
		"OUT env,kernel_release,6.1.192",
		"OUT env,cpu_model,AMD EPYC 7713 64-Core Processor",
		"OUT env,sockets,2",
		"OUT env,nr_cpus,4",
		"OUT sample,spawn,copies=2 duration=1,1,0,lps,6812.5,lps,1,",
		"OUT end,spawn,copies=2 duration=1,1,1",
		"RC 0",
		NULL,
	};
	struct strbuf frames = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf env = STRBUF_INIT, cmds = STRBUF_INIT;
	struct lava_log ll = { .console = STRBUF_INIT };
	struct target_ctx ctx = { .name = "lava-qemu", .type = "lava",
				  .traits = TARGET_GUEST | TARGET_LAB };
	struct boot_req req = { .label = "base", .reference = 1,
				.autogroup = -1 };
	struct boot_res res;
	char dir[] = "/tmp/test-console.XXXXXX", *path;
	const char *line;

	CHECK(mkdtemp(dir) != NULL);
	req.workdir = dir;
	/* the lab's record is kept as the target's facts, in here */
	setenv("XDG_DATA_HOME", dir, 1);
	framed(&frames, p);
	strbuf_addstr(&log, "- {\"dt\": \"2026-01-01T00:00:00\", \"lvl\": "
		      "\"info\", \"msg\": \"booting\"}\n");
	for (line = frames.buf; *line;) {
		size_t n = strcspn(line, "\n");

		strbuf_addf(&log, "- {\"dt\": \"2026-01-01T00:00:01\", "
			    "\"lvl\": \"target\", \"msg\": \"%.*s\"}\n",
			    (int)n, line);
		line += n + (line[n] == '\n');
	}
	lava_log_feed(&ll, log.buf, log.len);
	memset(&res, 0, sizeof(res));
	CHECK_INT(target_finish(&ctx, &req, ll.console.buf, ll.console.len,
				0, &res), 0);
	CHECK_INT(res.samples.nr, 1);
	path = xasprintf("%s/env.txt", dir);
	CHECK(strbuf_read_file(&env, path) > 0);
	free(path);
	CHECK(env.len && strstr(env.buf, "env,cpu_model,AMD EPYC 7713 "
				"64-Core Processor\n") != NULL);
	CHECK(env.len && strstr(env.buf, "env,sockets,2\n") != NULL);
	CHECK(!env.len || !strstr(env.buf, "sample,"));
	path = xasprintf("%s/commands.txt", dir);
	CHECK(strbuf_read_file(&cmds, path) >= 0);
	free(path);
	CHECK_STR(cmds.buf, "sched-bench spawn -c 2 -t 1 --run 1\n");
	/* what a plan for the lab's next job is scaled to */
	strbuf_reset(&env);
	path = xasprintf("%s/sched-bot/targets/lava-qemu.facts", dir);
	CHECK(strbuf_read_file(&env, path) > 0);
	free(path);
	CHECK(env.len && strstr(env.buf, "env,nr_cpus,4\n") != NULL);
	CHECK(env.len && strstr(env.buf, "env,sockets,2\n") != NULL);
	CHECK(!env.len || !strstr(env.buf, "sample,"));
	boot_res_release(&res);
	lava_log_release(&ll);
	strbuf_release(&frames);
	strbuf_release(&log);
	strbuf_release(&env);
	strbuf_release(&cmds);
	remove_tree(dir);
}

/* A run on a lab's device, as lava_boot_run reads its log: rows or not. */
static int lava_run(const char *const *p, int reference, char *dir)
{
	struct strbuf frames = STRBUF_INIT, log = STRBUF_INIT;
	struct lava_log ll = { .console = STRBUF_INIT };
	struct target_ctx ctx = { .name = "lava-qemu", .type = "lava",
				  .traits = TARGET_GUEST | TARGET_LAB };
	struct boot_req req = { .label = reference ? "base" : "patched",
				.reference = reference, .autogroup = -1,
				.workdir = dir };
	struct boot_res res;
	const char *line;
	int ret;

	framed(&frames, p);
	for (line = frames.buf; *line;) {
		size_t n = strcspn(line, "\n");

		strbuf_addf(&log, "- {\"lvl\": \"target\", \"msg\": \"%.*s\"}\n",
			    (int)n, line);
		line += n + (line[n] == '\n');
	}
	lava_log_feed(&ll, log.buf, log.len);
	memset(&res, 0, sizeof(res));
	ret = target_finish(&ctx, &req, ll.console.buf, ll.console.len, 0,
			    &res);
	boot_res_release(&res);
	lava_log_release(&ll);
	strbuf_release(&frames);
	strbuf_release(&log);
	return ret;
}

/*
 * A kernel a series changed says what it likes of the machine: its
 * 4096 CPUs never become the device's facts, before or after the base
 * kernel's record is kept.
 */
static void test_lava_facts_of_patched(void)
{
#define RUN_OF(cpus) {							\
		"INFO release=6.1.192", "INFO seconds=1",		\
		"RUN spawn 1 -c 2 -t 1 --run 1",			\
		"OUT kind,workload,params,run,sample,metric,value,unit,hib," \
		"placement",						\
		"OUT env,nr_cpus," cpus,				\
		"OUT sample,spawn,copies=2 duration=1,1,0,lps,6812.5,lps,1,", \
		"OUT end,spawn,copies=2 duration=1,1,1",		\
		"RC 0", NULL }
	static const char *const base[] = RUN_OF("4");
	static const char *const patched[] = RUN_OF("4096");
#undef RUN_OF
	char dir[] = "/tmp/test-console.XXXXXX", *path;
	struct strbuf facts = STRBUF_INIT;

	CHECK(mkdtemp(dir) != NULL);
	setenv("XDG_DATA_HOME", dir, 1);
	path = xasprintf("%s/sched-bot/targets/lava-qemu.facts", dir);
	CHECK_INT(lava_run(patched, 0, dir), 0);
	CHECK(access(path, F_OK) < 0);
	CHECK_INT(lava_run(base, 1, dir), 0);
	CHECK(strbuf_read_file(&facts, path) > 0);
	CHECK_STR(facts.buf, "env,nr_cpus,4\n");
	CHECK_INT(lava_run(patched, 0, dir), 0);
	strbuf_reset(&facts);
	CHECK(strbuf_read_file(&facts, path) > 0);
	CHECK_STR(facts.buf, "env,nr_cpus,4\n");
	free(path);
	strbuf_release(&facts);
	remove_tree(dir);
}

/*
 * An ssh machine still up on a kernel under test (its token on the
 * command line) gives no facts, whatever it says.
 */
static void test_facts_of_kernel_under_test(void)
{
	static const char own[] = "health,load1,0.01\nenv,nr_cpus,8\n"
				  "env,cmdline,root=/dev/sda1 quiet\n";
	static const char test[] = "env,nr_cpus,4096\nenv,cmdline,root=/dev/"
				   "sda1 sched_bot.build=0123456789abcdef\n";
	char dir[] = "/tmp/test-console.XXXXXX", *path;
	struct strbuf facts = STRBUF_INIT;

	CHECK(mkdtemp(dir) != NULL);
	setenv("XDG_DATA_HOME", dir, 1);
	path = xasprintf("%s/sched-bot/targets/box.facts", dir);
	target_keep_facts("box", own, strlen(own));
	target_keep_facts("box", test, strlen(test));
	CHECK(strbuf_read_file(&facts, path) > 0);
	CHECK_STR(facts.buf,
		  "env,nr_cpus,8\nenv,cmdline,root=/dev/sda1 quiet\n");
	free(path);
	strbuf_release(&facts);
	remove_tree(dir);
}

/*
 * A lab's log kept across reads: at most max bytes of console, each line
 * at most CONSOLE_LINE_MAX; an entry no console line can be is skipped,
 * counted.
 */
static void test_lava_bounded(void)
{
	struct lava_log ll = { .console = STRBUF_INIT };
	struct strbuf log = STRBUF_INIT;
	int i;

	ll.max = 1000;
	for (i = 0; i < 100; i++)
		strbuf_addf(&log, "- {\"lvl\": \"target\", \"msg\": \"line %03d of a flood\"}\n",
			    i);
	CHECK_INT(lava_log_feed(&ll, log.buf, log.len), 100);
	CHECK(ll.cut);
	CHECK(ll.console.len <= 1000 && ll.console.len > 900);
	CHECK_INT(ll.seen, 100 * strlen("line 000 of a flood\n"));
	CHECK(starts_with(ll.console.buf, "line 000 of a flood\n"));
	lava_log_release(&ll);

	strbuf_reset(&log);
	strbuf_addstr(&log, "- {\"lvl\": \"target\", \"msg\": \"");
	for (i = 0; i < 2 * CONSOLE_LINE_MAX; i++)
		strbuf_addch(&log, 'y');
	strbuf_addstr(&log, "\"}\n- {\"lvl\": \"target\", \"msg\": \"");
	for (i = 0; i < LAVA_ENTRY_MAX; i++)
		strbuf_addch(&log, 'z');
	strbuf_addstr(&log, "\"}\n- {\"lvl\": \"target\", \"msg\": \"end\"}\n");
	CHECK_INT(lava_log_feed(&ll, log.buf, log.len), 3);
	CHECK(!ll.cut);
	CHECK_INT(ll.long_entries, 1);
	CHECK_INT(ll.lines, 3);
	CHECK_INT(ll.console.len, CONSOLE_LINE_MAX + 1 + 4);
	CHECK(ll.console.len > 6 &&
	      !strcmp(ll.console.buf + ll.console.len - 6, "y\nend\n"));
	lava_log_release(&ll);
	strbuf_release(&log);
}

/*
 * A console line longer than any line can be is a flood: a frame past
 * CONSOLE_LINE_MAX of it is not read, and the tail shows its head.
 */
static void test_long_line(void)
{
	static const char *const p[] = { "INFO release=6.1.192", NULL };
	struct strbuf sb = STRBUF_INIT, tail = STRBUF_INIT;
	struct console_result r;
	size_t i;

	/* BEGIN at the very end of the longest line: read */
	for (i = 0; i < CONSOLE_LINE_MAX - strlen("@@SB BEGIN 1"); i++)
		strbuf_addch(&sb, 'x');
	framed(&sb, p);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_OK);
	CHECK_INT(r.long_lines, 0);
	console_result_release(&r);
	/* after a whole line of flood: not */
	strbuf_reset(&sb);
	for (i = 0; i < CONSOLE_LINE_MAX; i++)
		strbuf_addch(&sb, 'x');
	framed(&sb, p);
	CHECK_INT(console_parse(sb.buf, sb.len, 0, &r), CONSOLE_CORRUPT);
	CHECK_INT(r.long_lines, 1);
	CHECK(r.last_lines && strlen(r.last_lines) < sb.len);
	console_result_release(&r);
	console_tail(sb.buf, sb.len, 40, &tail);
	CHECK(starts_with(tail.buf, "xxx"));
	CHECK_INT(strcspn(tail.buf, "\n"), CONSOLE_LINE_MAX + 3);
	CHECK(strstr(tail.buf, "x...\n@@SB 1 ") != NULL);
	strbuf_release(&sb);
	strbuf_release(&tail);
}

/* Which boot an ssh machine is in: three printable lines, or nothing. */
static void test_ssh_boot_answer(void)
{
	static const char ok[] = "6.1.0\nb0e3\nroot=/dev/sda1 quiet\n";
	static const char esc[] = "6.1.0\x1b]0;owned\x07\nb0e3\nroot=/\n";
	static const char more[] = "6.1.0\nb0e3\nroot=/\nand more\n";
	char *r, *i, *c, *big;

	CHECK_INT(target_ssh_boot_answer(ok, strlen(ok), &r, &i, &c), 0);
	CHECK_STR(r, "6.1.0");
	CHECK_STR(i, "b0e3");
	CHECK_STR(c, "root=/dev/sda1 quiet");
	free(r);
	free(i);
	free(c);
	CHECK_INT(target_ssh_boot_answer(esc, strlen(esc), &r, &i, &c), -1);
	CHECK(!r && !i && !c);
	CHECK_INT(target_ssh_boot_answer(more, strlen(more), &r, &i, &c), -1);
	CHECK_INT(target_ssh_boot_answer(ok, 8, &r, &i, &c), -1);
	big = xcalloc(1, SSH_CMDLINE_MAX + 20);
	memcpy(big, "6.1.0\nb0e3\n", 11);
	memset(big + 11, 'x', SSH_CMDLINE_MAX + 1);
	CHECK_INT(target_ssh_boot_answer(big, strlen(big), &r, &i, &c), -1);
	free(big);
}

/* A default timeout counts each cell and sweep point as a run. */
static void test_req_runs(void)
{
	struct boot_req req = { .workloads = "spawn,pingpong,hackbench" };

	CHECK_INT(target_req_runs(&req), 3);
	req.workload_args = "pingpong=--no-pin,--sweep,1:2:4:8 "
			    "spawn=-c,2,--autogroup,on,--setsid+-c,2,--cgroup,"
			    "new+-c,2,--autogroup,off";
	CHECK_INT(target_req_runs(&req), 3 + 4 + 1);
	req.workload_args = "spawn=-c,2 pingpong=--sweep,1";
	CHECK_INT(target_req_runs(&req), 3);
	req.workloads = "";
	CHECK_INT(target_req_runs(&req), 1);
}

int main(void)
{
	RUN(test_ok);
	RUN(test_rows);
	RUN(test_stray_prefix);
	RUN(test_interleaved);
	RUN(test_truncated);
	RUN(test_timeout);
	RUN(test_lost);
	RUN(test_panic);
	RUN(test_no_init);
	RUN(test_garbage);
	RUN(test_failed);
	RUN(test_hostile);
	RUN(test_tail);
	RUN(test_profile_rows);
	RUN(test_tool_rows);
	RUN(test_tool_bad);
	RUN(test_lava_env_record);
	RUN(test_lava_facts_of_patched);
	RUN(test_facts_of_kernel_under_test);
	RUN(test_lava_bounded);
	RUN(test_long_line);
	RUN(test_ssh_boot_answer);
	RUN(test_req_runs);
	return test_done();
}
