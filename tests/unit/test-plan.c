// SPDX-License-Identifier: GPL-2.0
/*
 * test-plan.c - what `--workloads auto` runs: the benchmarks a thread
 * reports (seed 004's unpinned context_switch1 sweep and hackbench, seed
 * 000's ./Run -c N spawn), scaled to the target's CPUs; the diff's rules
 * when the thread names nothing runnable; benchmarks without a runner
 * named as not run; the default set when nothing decides.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "kv.h"
#include "lore.h"
#include "plan.h"
#include "target/target.h"
#include "test.h"
#include "util.h"

static int all_tools(const char *prog)
{
	return 1;
}

static int no_schbench(const char *prog)
{
	return strcmp(prog, "schbench") != 0;
}

static void plan_of(const char *file, int cpus, int (*tools)(const char *),
		    struct plan *p)
{
	const char *top = getenv("TOP");
	struct plan_opts o = { .cpus = cpus, .seconds = 0 };
	char *path = xasprintf("%s/tests/data/%s", top ? top : ".", file);

	o.have_tool = tools;
	CHECK_INT(plan_from_file(path, &o, p), 0);
	free(path);
}

static void plan_of_text(const char *text, int cpus, struct plan *p)
{
	struct plan_opts o = { .cpus = cpus, .have_tool = all_tools };

	plan_from_mbox(text, strlen(text), &o, p);
}

static const struct plan_item *item(const struct plan *p, const char *w)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->items[i].workload, w))
			return &p->items[i];
	return NULL;
}

static const struct plan_skip *skip(const struct plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nr_skips; i++)
		if (!strcmp(p->skips[i].name, name))
			return &p->skips[i];
	return NULL;
}

static void check_workloads(const struct plan *p, const char *want)
{
	char *w = plan_workloads(p);

	CHECK_STR(w, want);
	free(w);
}

static void check_init_args(const struct plan *p, const char *want)
{
	char *a = plan_init_args(p);

	CHECK_STR(a, want);
	free(a);
}

/* Chen Yu's v3: "No task is bound to any CPU", 1 .. 112 instances. */
static void test_seed_004(void)
{
	const struct plan_item *it;
	const struct plan_skip *sk;
	struct strbuf text = STRBUF_INIT;
	struct plan p;

	plan_of("intake/short-task-wakeup-v3-complete.mbox", 2, all_tools, &p);
	CHECK_INT(p.basis, PLAN_THREAD);
	check_workloads(&p, "pingpong,hackbench,schbench");
	it = item(&p, "pingpong");
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->args, "--no-pin --sweep 1,2,4");
		CHECK_STR(it->cmdline,
			  "sched-bench pingpong -t 5 --no-pin --sweep 1,2,4");
		CHECK(strstr(it->why, "No task is bound to any CPU") != NULL);
		CHECK(strstr(it->why, "112 instances") != NULL);
		CHECK(strstr(it->placement, "--no-pin") != NULL);
	}
	it = item(&p, "hackbench");
	CHECK(it != NULL);
	if (it)
		CHECK(starts_with(it->cmdline, "hackbench "));
	check_init_args(&p, "pingpong=--no-pin,--sweep,1:2:4");
	sk = skip(&p, "netperf");
	CHECK(sk != NULL);
	if (sk)
		CHECK(strstr(sk->why, "no runner") != NULL);
	CHECK(skip(&p, "tbench") != NULL);
	CHECK(item(&p, "spawn") == NULL);
	CHECK_INT(p.nr_refs, 1);
	if (p.nr_refs)
		CHECK_STR(p.refs[0], "8a7f8f7fc92863a5bd823a5dbc2d3f8ede7ffb75."
			  "1669862147.git.yu.c.chen@intel.com");
	plan_text(&p, &text);
	CHECK(strstr(text.buf, "\n    sched-bench pingpong -t 5 --no-pin "
		     "--sweep 1,2,4\n") != NULL);
	CHECK(strstr(text.buf, "\n[1] https://lore.kernel.org/all/"
		     "8a7f8f7f") != NULL);
	/* a quote is whole sentences, never a line cut mid-sentence */
	CHECK(strstr(text.buf, "exposes the issue. The\"") == NULL);
	strbuf_release(&text);
	plan_release(&p);

	/* scaled: 8 CPUs sweep to 16 instances */
	plan_of("intake/short-task-wakeup-v3-complete.mbox", 8, no_schbench,
		&p);
	it = item(&p, "pingpong");
	CHECK(it != NULL);
	if (it)
		CHECK_STR(it->args, "--no-pin --sweep 1,2,4,8,16");
	/* a tool the host lacks is not run, and says why */
	check_workloads(&p, "pingpong,hackbench");
	sk = skip(&p, "schbench");
	CHECK(sk != NULL);
	if (sk)
		CHECK(strstr(sk->why, "not installed") != NULL);
	plan_release(&p);
}

/* The fork regression: ./Run -c 4 spawn, autogroup and cgroup. */
static void test_seed_000_fork(void)
{
	const struct plan_item *it;
	struct plan p;

	plan_of("format/fork-matrix-autogroup.mbox", 2, all_tools, &p);
	CHECK_INT(p.basis, PLAN_THREAD);
	check_workloads(&p, "spawn");
	check_init_args(&p, "spawn=-c,2,--autogroup,on,--setsid+-c,2,"
			"--cgroup,new+-c,2,--autogroup,off");
	it = item(&p, "spawn");
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->cmdline, "sched-bench spawn -t 5 -c 2 --autogroup on "
			  "--setsid\n    sched-bench spawn -t 5 -c 2 --cgroup "
			  "new\n    sched-bench spawn -t 5 -c 2 --autogroup off");
		CHECK(strstr(it->why, "./Run -c 4 spawn") != NULL);
		CHECK(strstr(it->why, "-c 4 there") != NULL);
		CHECK(strstr(it->placement, "autogroup x cgroup") != NULL);
	}
	plan_release(&p);

	plan_of("format/fork-matrix-autogroup.mbox", 16, all_tools, &p);
	check_init_args(&p, "spawn=-c,16,--autogroup,on,--setsid+-c,16,"
			"--cgroup,new+-c,16,--autogroup,off");
	plan_release(&p);

	/* the revert (seed 001): spawn, from its prose */
	plan_of("intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox",
		4, all_tools, &p);
	check_workloads(&p, "spawn");
	check_init_args(&p, "spawn=-c,4,--autogroup,on,--setsid+-c,4,"
			"--cgroup,new+-c,4,--autogroup,off");
	plan_release(&p);
}

/* No benchmark named: select_idle_sibling in fair.c decides. */
static void test_diff_wakeup(void)
{
	const struct plan_item *it;
	struct plan p;

	plan_of("plan/wakeup-diff-only.mbox", 2, all_tools, &p);
	CHECK_INT(p.basis, PLAN_DIFF);
	check_workloads(&p, "pingpong,hackbench");
	it = item(&p, "pingpong");
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->args, "--apart --sweep 1,2,4");
		CHECK(strstr(it->why, "select_idle_sibling") != NULL);
		CHECK(strstr(it->why, "each pair started on two CPUs") != NULL);
		CHECK(strstr(it->placement, "--apart") != NULL);
		CHECK(strstr(it->why, "kernel/sched/fair.c") != NULL);
	}
	CHECK_INT(p.nr_skips, 0);
	plan_release(&p);
}

static void test_diff_autogroup(void)
{
	const struct plan_item *it;
	struct plan p;

	plan_of("plan/autogroup-diff-only.mbox", 4, all_tools, &p);
	CHECK_INT(p.basis, PLAN_DIFF);
	check_workloads(&p, "spawn");
	it = item(&p, "spawn");
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->args, "-c 4 --autogroup on --setsid|-c 4 --cgroup "
			  "new|-c 4 --autogroup off");
		CHECK(strstr(it->why, "autogroup enabled") != NULL);
		CHECK(strstr(it->why, "kernel/sched/autogroup.c") != NULL);
		CHECK(strstr(it->placement, "autogroup x cgroup") != NULL);
	}
	plan_release(&p);
}

/* kernel/fork.c alone: spawn, in the cell the target boots into. */
static void test_diff_fork_one_cell(void)
{
	static const char mbox[] =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: Ben Example <ben@example.org>\n"
		"Subject: [PATCH] fork: Copy less\n"
		"Message-Id: <fork-1@example.org>\n"
		"\n"
		"Copy less at fork.\n"
		"---\n"
		"diff --git a/kernel/fork.c b/kernel/fork.c\n"
		"--- a/kernel/fork.c\n"
		"+++ b/kernel/fork.c\n"
		"@@ -1,3 +1,3 @@ static int copy_mm(struct task_struct *tsk)\n"
		"-\tx = 1;\n"
		"+\tx = 2;\n";
	const struct plan_item *it;
	struct plan p;

	plan_of_text(mbox, 4, &p);
	check_workloads(&p, "spawn");
	it = item(&p, "spawn");
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->args, "-c 4");
		CHECK(strstr(it->why, "kernel/fork.c") != NULL);
	}
	plan_release(&p);
}

/* A known layout: 1, one LLC, one node, one socket, all, twice that. */
static void test_layout_sweep(void)
{
	struct plan_opts o = { .cpus = 16, .llc = 4, .node = 8, .socket = 8,
			       .have_tool = all_tools };
	const char *top = getenv("TOP");
	char *path = xasprintf("%s/tests/data/plan/wakeup-diff-only.mbox",
			       top ? top : ".");
	const struct plan_item *it;
	struct plan p;

	CHECK_INT(plan_from_file(path, &o, &p), 0);
	free(path);
	it = item(&p, "pingpong");
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->args, "--apart --sweep 1,4,8,16,32");
		CHECK(strstr(it->why, "one LLC (4 CPUs)") != NULL);
	}
	plan_release(&p);
}

/* The pingpong sweep a plan for the wake-up diff gets with o. */
static char *wakeup_sweep(struct plan_opts *o, struct strbuf *text)
{
	const char *top = getenv("TOP");
	char *path = xasprintf("%s/tests/data/plan/wakeup-diff-only.mbox",
			       top ? top : ".");
	const struct plan_item *it;
	char *args = NULL;
	struct plan p;

	o->have_tool = all_tools;
	CHECK_INT(plan_from_file(path, o, &p), 0);
	free(path);
	it = item(&p, "pingpong");
	CHECK(it != NULL);
	if (it)
		args = xstrdup(it->args);
	plan_text(&p, text);
	plan_release(&p);
	return args ? args : xstrdup("");
}

/*
 * An ssh box's own record of 2 sockets x 8 cores x 2 threads in 2 NUMA
 * nodes (the facts its health check keeps) gives the sweep a qemu
 * target of that shape gets: 1, one LLC = one node = one socket (16),
 * all 32 CPUs and twice that.
 */
static void test_facts_sweep(void)
{
	const char *top = getenv("TOP");
	char *path = xasprintf("%s/tests/data/plan/facts-2s8c2t.txt",
			       top ? top : ".");
	char *trash = xstrdup("/tmp/test-plan-XXXXXX"), *kept;
	char *q_sweep, *m_sweep;
	struct strbuf facts = STRBUF_INIT, text = STRBUF_INIT, got = STRBUF_INIT;
	struct plan_opts q = { 0 }, m = { 0 };
	struct kv set = KV_INIT;
	struct target_opts to = { .set = &set };
	struct target_topo t;
	int assumed = 0;
	size_t i;

	CHECK(mkdtemp(trash) != NULL);
	setenv("XDG_DATA_HOME", trash, 1);
	kv_set(&set, "target.q.type", "qemu");
	kv_set(&set, "target.q.smp", "32");
	kv_set(&set, "target.q.sockets", "2");
	kv_set(&set, "target.q.threads", "2");
	kv_set(&set, "target.q.numa", "2");
	kv_set(&set, "target.box.type", "ssh");
	kv_set(&set, "target.box.host", "box.invalid");
	target_configure(&to);

	q.cpus = plan_target_cpus("q", &assumed);
	CHECK_INT(assumed, 0);
	plan_target_layout("q", &q);
	q_sweep = wakeup_sweep(&q, &text);
	CHECK_STR(q_sweep, "--apart --sweep 1,16,32,64");

	/* nothing measured yet: the box's CPUs are not known */
	CHECK_INT(target_facts("box", 0, &facts), 0);
	CHECK(strbuf_read_file(&facts, path) > 0);
	CHECK_INT(target_topology_of(facts.buf, &t), 1);
	CHECK_INT(t.cpus, 32);
	CHECK_INT(t.sockets, 2);
	CHECK_INT(t.threads, 2);
	CHECK_INT(t.nodes, 2);
	CHECK_INT(t.llc, 16);
	/* kept as a check keeps it, read back as a job reads it */
	kept = xasprintf("%s/sched-bot/targets", trash);
	CHECK_INT(mkdir_p(kept, 0755), 0);
	free(kept);
	kept = xasprintf("%s/sched-bot/targets/box.facts", trash);
	CHECK_INT(write_file_atomic(kept, facts.buf, facts.len), 0);
	CHECK_INT(target_facts("box", 0, &got), 1);
	CHECK_STR(got.buf, facts.buf);

	m.cpus = plan_target_cpus("box", &assumed);
	CHECK_INT(assumed, 1);
	CHECK_INT(plan_facts_layout(got.buf, &m), 1);
	CHECK_INT(m.cpus, q.cpus);
	CHECK_INT(m.llc, q.llc);
	CHECK_INT(m.node, q.node);
	CHECK_INT(m.socket, q.socket);
	strbuf_reset(&text);
	m_sweep = wakeup_sweep(&m, &text);
	CHECK_STR(m_sweep, q_sweep);
	/* the plan is wrapped at blanks: one line again */
	for (i = 0; i < text.len; i++)
		if (text.buf[i] == '\n')
			text.buf[i] = ' ';
	CHECK(strstr(text.buf, "32 CPUs (2 sockets, 2 NUMA nodes, LLCs of "
		     "16), as the machine reports them:") != NULL);
	CHECK(strstr(text.buf, "one LLC (16 CPUs)") != NULL);

	free(kept);
	free(q_sweep);
	free(m_sweep);
	free(path);
	strbuf_release(&facts);
	strbuf_release(&text);
	strbuf_release(&got);
	kv_release(&set);
	remove_tree(trash);
	free(trash);
}

/* A record that does not add up gives the CPUs at most, no layout. */
static void test_facts_partial(void)
{
	struct plan_opts o = { .cpus = 2 };
	struct target_topo t;

	CHECK_INT(plan_facts_layout("env,nr_cpus,12\nenv,sockets,5\n"
				    "env,numa_nodes,1\nenv,threads_per_core,1"
				    "\nenv,llc_cpus,0-11\n", &o), 1);
	CHECK_INT(o.cpus, 12);
	CHECK_INT(o.llc, 0);
	CHECK_INT(o.measured, 1);
	o.cpus = 2;
	o.measured = 0;
	CHECK_INT(plan_facts_layout("env,nr_cpus,-3\nenv,nr_cpus,x\n", &o), 0);
	CHECK_INT(o.cpus, 2);
	CHECK_INT(o.measured, 0);
	CHECK_INT(target_topology_of("env,nr_cpus,8\nenv,sockets,1\n"
				     "env,numa_nodes,unknown\n"
				     "env,threads_per_core,2\n"
				     "env,llc_cpus,0-7\n", &t), 0);
	CHECK_INT(t.cpus, 8);
	CHECK_INT(target_topology_of("env,nr_cpus,8\nenv,sockets,1\n"
				     "env,numa_nodes,1\nenv,threads_per_core,2"
				     "\nenv,llc_cpus,0-99999999\n", &t), 0);
	CHECK_INT(target_topology_of("", &t), 0);
	CHECK_INT(t.cpus, 0);
}

/* netperf and tbench are named: not run; the diff (wake_affine) rules. */
static void test_netperf_not_runnable(void)
{
	const struct plan_skip *sk;
	struct plan p;

	plan_of("plan/netperf-only.mbox", 2, all_tools, &p);
	CHECK_INT(p.basis, PLAN_DIFF);
	check_workloads(&p, "pingpong,hackbench");
	sk = skip(&p, "netperf");
	CHECK(sk != NULL);
	if (sk) {
		CHECK(strstr(sk->why, "netperf TCP_RR") != NULL);
		CHECK(strstr(sk->why, "the cover letter") != NULL);
	}
	sk = skip(&p, "tbench");
	CHECK(sk != NULL);
	if (sk)
		CHECK(strstr(sk->why, "Dee Reviewer, a reply") != NULL);
	plan_release(&p);
}

static void test_phrases(void)
{
	const struct plan_item *it;
	struct plan p;

	/* will-it-scale's own binding, and the threads variant */
	plan_of_text("Subject: [PATCH] sched: x\n\n"
		     "context_switch1 per_thread_ops, each task pinned.\n", 4,
		     &p);
	it = item(&p, "pingpong");
	CHECK(it != NULL);
	if (it)
		CHECK_STR(it->args, "--pin --threads --sweep 1,2,4");
	plan_release(&p);

	/* perf bench, and code in a quoted diff is not prose */
	plan_of_text("Subject: Re: [PATCH] sched: x\n\n"
		     "perf bench sched pipe: no change.\n"
		     "> diff --git a/x b/x\n"
		     "> +\t/* hackbench */\n", 2, &p);
	check_workloads(&p, "perf-pipe");
	plan_release(&p);

	/* nothing at all: the default set */
	plan_of_text("Subject: [PATCH] docs: typo\n\ntypo.\n---\n"
		     "diff --git a/Documentation/x.rst b/Documentation/x.rst\n"
		     "@@ -1 +1 @@\n-teh\n+the\n", 2, &p);
	CHECK_INT(p.basis, PLAN_DEFAULT);
	check_workloads(&p, "spawn,pingpong");
	check_init_args(&p, "");
	plan_release(&p);

	plan_of_text("", 0, &p);
	CHECK_INT(p.cpus, 1);
	CHECK_INT(p.basis, PLAN_DEFAULT);
	plan_release(&p);
}

/* Long lines and many mentions: bounded, no crash. */
static void test_hostile(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct plan p;
	int i;

	strbuf_addstr(&sb, "Subject: x\n\n");
	for (i = 0; i < 20000; i++)
		strbuf_addstr(&sb, "netperf 1 instances 2 CPUs ");
	strbuf_addstr(&sb, "\n");
	for (i = 0; i < 2000; i++)
		strbuf_addstr(&sb, "> > > context_switch1 -c 99999999999 "
			      "spawn\n");
	plan_of_text(sb.buf, 3, &p);
	CHECK(item(&p, "pingpong") != NULL);
	CHECK(item(&p, "spawn") != NULL);
	CHECK(skip(&p, "netperf") != NULL);
	plan_release(&p);
	strbuf_release(&sb);
}

/*
 * Run first: what an earlier version regressed moves to the front, the
 * rest in the plan's order, the options with their workloads; nothing
 * else of the plan changes, and a name the plan has not changes nothing.
 */
static void test_run_first(void)
{
	struct plan p;
	char *s, *args;
	const char *why;

	plan_of("intake/short-task-wakeup-v3-complete.mbox", 2, all_tools, &p);
	args = plan_init_args(&p);
	plan_run_first(&p, NULL, 1);
	check_workloads(&p, "pingpong,hackbench,schbench");
	plan_run_first(&p, "", 1);
	plan_run_first(&p, "spawn", 1);
	check_workloads(&p, "pingpong,hackbench,schbench");
	CHECK(strstr(item(&p, "pingpong")->why, "run first") == NULL);
	why = item(&p, "schbench")->why;
	s = xasprintf("%s; run first: v2 regressed it", why);
	plan_run_first(&p, "spawn,schbench,hackbench", 2);
	check_workloads(&p, "hackbench,schbench,pingpong");
	CHECK_STR(item(&p, "schbench")->why, s);
	CHECK(strstr(item(&p, "hackbench")->why,
		     "; run first: v2 regressed it") != NULL);
	CHECK(strstr(item(&p, "pingpong")->why, "run first") == NULL);
	CHECK_STR(item(&p, "pingpong")->args, "--no-pin --sweep 1,2,4");
	free(s);
	/* the same options for each workload, in the new order */
	s = plan_init_args(&p);
	CHECK_INT((int)strlen(s), (int)strlen(args));
	CHECK(strstr(s, "pingpong=--no-pin,--sweep,1:2:4") != NULL);
	CHECK(strstr(args, "pingpong=--no-pin,--sweep,1:2:4") != NULL);
	free(s);
	free(args);
	plan_release(&p);

	s = plan_order_first("pingpong,spawn,hackbench", "hackbench,spawn");
	CHECK_STR(s, "spawn,hackbench,pingpong");
	free(s);
	/* whole names only */
	s = plan_order_first("spawn2,spawn,pingpong", "spawn,ping");
	CHECK_STR(s, "spawn,spawn2,pingpong");
	free(s);
	s = plan_order_first("spawn,pingpong", NULL);
	CHECK_STR(s, "spawn,pingpong");
	free(s);
	/* a KPI's name, "workload params metric", by its first word */
	CHECK_INT(plan_list_has("hackbench,spawn", "spawn lps", 5), 1);
	CHECK_INT(plan_list_has("spawn2,pingpong", "spawn", 5), 0);
	CHECK_INT(plan_list_has("spawn", "spawn", 0), 0);
	CHECK_INT(plan_list_has("", "spawn", 5), 0);
	CHECK_INT(plan_list_has(NULL, "spawn", 5), 0);
}

int main(void)
{
	struct lore_opts lo;

	/* the plan's references are lore links: as the tool configures it */
	lore_opts_from_config(&lo);
	lore_configure(&lo);
	RUN(test_seed_004);
	RUN(test_seed_000_fork);
	RUN(test_diff_wakeup);
	RUN(test_diff_autogroup);
	RUN(test_diff_fork_one_cell);
	RUN(test_layout_sweep);
	RUN(test_facts_sweep);
	RUN(test_facts_partial);
	RUN(test_netperf_not_runnable);
	RUN(test_phrases);
	RUN(test_hostile);
	RUN(test_run_first);
	return test_done();
}
