// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - the workload table of workload.h.
 */
#include <stdlib.h>
#include <string.h>

#include "benchopts.h"
#include "workload.h"

const struct workload workload_table[] = {
	{ "spawn", WORKLOAD_SCHED_BENCH, "sched-bench", "sched-bot",
	  "process creation: fork, exit, wait (UnixBench spawn)",
	  WORKLOAD_DEFAULT | WORKLOAD_MAIL, .bench = BENCH_SPAWN,
	  /* one pass per run: repetition comes from --runs */
	  .run_args = "--passes 1 --gap 1" },
	{ "pingpong", WORKLOAD_SCHED_BENCH, "sched-bench", "sched-bot",
	  "task pairs bouncing a byte over pipes (will-it-scale)",
	  WORKLOAD_DEFAULT | WORKLOAD_MAIL, .bench = BENCH_PINGPONG,
	  .run_args = "--warmup 2" },
	{ "hackbench", WORKLOAD_HACKBENCH, "hackbench", "rt-tests",
	  "groups of senders and receivers on sockets (hackbench)",
	  WORKLOAD_MAIL,
	  /* rt-tests defaults but for more loops: ~1 s here */
	  .tool_args = "-P -g 4 -l 500",
	  .params = "groups=4 fds=20 loops=500 size=100 mode=process ipc=socket",
	  .metrics = { { "time", "\nTime:", 0, "s", 0 },
		       { "time", "Time:", 0, "s", 0 } } },
	{ "perf-pipe", WORKLOAD_PERF, "perf", "linux-perf",
	  "two tasks over a pipe (perf bench sched pipe)", 0,
	  .tool_args = "bench sched pipe -l 100000",
	  .params = "loops=100000 mode=processes",
	  .metrics = { { "ops", " ops/sec", 1, "roundtrips/s", 1 },
		       { "usecs_per_op", " usecs/op", 1, "us", 0 } } },
	{ "perf-messaging", WORKLOAD_PERF, "perf", "linux-perf",
	  "hackbench in perf (perf bench sched messaging)", 0,
	  .tool_args = "bench sched messaging -g 4 -l 100",
	  .params = "groups=4 loops=100 mode=process ipc=socket",
	  .metrics = { { "time", "Total time:", 0, "s", 0 } } },
	{ "schbench", WORKLOAD_SCHBENCH, "schbench",
	  "schbench (build from source)",
	  "wakeup latency and requests per second (schbench -m 1)", 0,
	  .tool_args = "-m 1 -t %c -r %d",
	  .params = "messengers=1 threads=%c duration=%d",
	  .metrics = { { "rps", "average rps:", 0, "rps", 1 },
		       { "p99_latency", "99.0th:", 0, "us", 0 } } },
};

const size_t workload_table_nr = ARRAY_SIZE(workload_table);

const struct workload *workload_find_n(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < workload_table_nr; i++)
		if (strlen(workload_table[i].name) == len &&
		    !memcmp(workload_table[i].name, name, len))
			return &workload_table[i];
	return NULL;
}

const struct workload *workload_find(const char *name)
{
	return workload_find_n(name, strlen(name));
}

const char *workload_names(unsigned int sets)
{
	/* one string per combination of sets, made on first use */
	static char *cache[1u << 2];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	sets &= ARRAY_SIZE(cache) - 1;
	if (cache[sets])
		return cache[sets];
	for (i = 0; i < workload_table_nr; i++) {
		if ((workload_table[i].sets & sets) != sets)
			continue;
		if (sb.len)
			strbuf_addch(&sb, ',');
		strbuf_addstr(&sb, workload_table[i].name);
	}
	cache[sets] = strbuf_detach(&sb, NULL);
	return cache[sets];
}

void workload_help(struct strbuf *out)
{
	size_t i;

	for (i = 0; i < workload_table_nr; i++)
		strbuf_addf(out, "    %-16s%s\n", workload_table[i].name,
			    workload_table[i].help);
}
