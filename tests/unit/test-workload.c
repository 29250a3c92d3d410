// SPDX-License-Identifier: GPL-2.0
/*
 * test-workload.c - the workload table: one entry per name, the sets
 * that are the defaults of bot.workloads and bot.knownWorkloads, and the
 * modules that read it agreeing with it.
 */
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "test.h"
#include "workload.h"
#include "workload-opts.h"

static void test_table(void)
{
	size_t i, j;

	CHECK(workload_table_nr >= 6);
	for (i = 0; i < workload_table_nr; i++) {
		const struct workload *w = &workload_table[i];

		CHECK(w->name && *w->name && !strchr(w->name, ','));
		CHECK(w->prog && *w->prog && w->package && *w->package);
		CHECK(w->help && *w->help);
		CHECK(workload_find(w->name) == w);
		for (j = i + 1; j < workload_table_nr; j++)
			CHECK(strcmp(w->name, workload_table[j].name));
		/* sched-bench's own workloads ship with sched-bot */
		CHECK_INT(w->runner == WORKLOAD_SCHED_BENCH,
			  !strcmp(w->prog, "sched-bench"));
	}
	CHECK(workload_find("frob") == NULL);
	CHECK(workload_find("") == NULL);
	CHECK(workload_find("spawn,pingpong") == NULL);
	CHECK(workload_find_n("spawn,pingpong", 5) == workload_find("spawn"));
	CHECK(workload_find_n("perf", 4) == NULL);
}

/* The defaults as documented, now computed from the table. */
static void test_sets(void)
{
	const char *all = workload_names(0);

	CHECK_STR(workload_names(WORKLOAD_DEFAULT), "spawn,pingpong");
	CHECK_STR(workload_names(WORKLOAD_MAIL), "spawn,pingpong,hackbench");
	CHECK(!strncmp(all, "spawn,pingpong,hackbench,", 25));
	CHECK(strstr(all, ",schbench") != NULL);
	/* the same string each time: callers keep the pointer */
	CHECK(workload_names(0) == all);
	CHECK(workload_names(WORKLOAD_DEFAULT) ==
	      workload_names(WORKLOAD_DEFAULT));
	/* every default may also be asked for by mail */
	CHECK(strstr(workload_names(WORKLOAD_MAIL),
		     workload_names(WORKLOAD_DEFAULT)) != NULL);
}

/* run.c dispatches on the table: sched-bench's or a tool's. */
static void test_runners(void)
{
	size_t i;

	for (i = 0; i < workload_table_nr; i++) {
		const struct workload *w = &workload_table[i];
		struct bench_spec spec;
		int own = w->runner == WORKLOAD_SCHED_BENCH;

		bench_spec_init(&spec);
		spec.workload = w->name;
		CHECK_INT(bench_spec_check(&spec) == 0, own);
		CHECK_INT(run_is_tool_workload(w->name), !own);
	}
	CHECK(!run_is_tool_workload("frob"));
}

static void test_help(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	size_t i, lines = 0;

	workload_help(&sb);
	for (p = sb.buf; *p; p = strchr(p, '\n') + 1) {
		size_t len = strcspn(p, "\n");

		CHECK(len <= 79);
		lines++;
	}
	CHECK_INT(lines, workload_table_nr);
	for (i = 0; i < workload_table_nr; i++) {
		char *want = xasprintf("\n    %-16s%s\n",
				       workload_table[i].name,
				       workload_table[i].help);

		strbuf_reset(&sb);
		strbuf_addch(&sb, '\n');
		workload_help(&sb);
		CHECK(strstr(sb.buf, want) != NULL);
		free(want);
	}
	strbuf_release(&sb);
}

/* The shared options' callbacks: one set of words, 1 and 0 as synonyms. */
static void test_shared_options(void)
{
	static int ag = -1;
	static const char *cg, *wl;
	static const struct option_spec o[] = {
		OPT__AUTOGROUP(&ag),
		OPT__CGROUP(&cg),
		OPT__WORKLOADS(&wl, "required"),
		OPT__WORKLOADS_AUTO(&wl, "default: auto"),
	};

	CHECK_INT(o[0].callback(&o[0], "on"), 0);
	CHECK_INT(ag, 1);
	CHECK_INT(o[0].callback(&o[0], "0"), 0);
	CHECK_INT(ag, 0);
	CHECK_INT(o[0].callback(&o[0], "1"), 0);
	CHECK_INT(ag, 1);
	CHECK_INT(o[0].callback(&o[0], "off"), 0);
	CHECK_INT(ag, 0);
	CHECK_INT(o[0].callback(&o[0], "On"), -1);
	CHECK_INT(o[0].callback(&o[0], ""), -1);
	CHECK_INT(ag, 0);
	CHECK_INT(o[1].callback(&o[1], "new"), 0);
	CHECK_STR(cg, "new");
	CHECK_INT(o[1].callback(&o[1], "root"), 0);
	CHECK_STR(cg, "root");
	CHECK_INT(o[1].callback(&o[1], "mygroup"), -1);
	CHECK_STR(cg, "root");
	CHECK_INT(o[2].callback(&o[2], workload_names(0)), 0);
	CHECK_STR(wl, workload_names(0));
	CHECK_INT(o[2].callback(&o[2], "spawn"), 0);
	CHECK_INT(o[2].callback(&o[2], "auto"), -1);
	CHECK_INT(o[2].callback(&o[2], "spawn,"), -1);
	CHECK_INT(o[2].callback(&o[2], ",spawn"), -1);
	CHECK_INT(o[2].callback(&o[2], "spawn,perf"), -1);
	CHECK_INT(o[2].callback(&o[2], ""), -1);
	CHECK_STR(wl, "spawn");
	CHECK_INT(o[3].callback(&o[3], "auto"), 0);
	CHECK_STR(wl, "auto");
	CHECK_INT(o[3].callback(&o[3], "spawn,auto"), -1);
	CHECK_INT(o[3].callback(&o[3], "hackbench"), 0);
}

int main(void)
{
	TEST_NAME("test-workload");
	RUN(test_table);
	RUN(test_sets);
	RUN(test_runners);
	RUN(test_help);
	RUN(test_shared_options);
	return test_done();
}
