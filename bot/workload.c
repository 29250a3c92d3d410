// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - the workload table of workload.h.
 */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

const struct workload workload_table[] = {
	{ "spawn", WORKLOAD_SCHED_BENCH, "sched-bench", "sched-bot",
	  "process creation: fork, exit, wait (UnixBench spawn)",
	  WORKLOAD_DEFAULT | WORKLOAD_MAIL },
	{ "pingpong", WORKLOAD_SCHED_BENCH, "sched-bench", "sched-bot",
	  "task pairs bouncing a byte over pipes (will-it-scale)",
	  WORKLOAD_DEFAULT | WORKLOAD_MAIL },
	{ "hackbench", WORKLOAD_HACKBENCH, "hackbench", "rt-tests",
	  "groups of senders and receivers on sockets (hackbench)",
	  WORKLOAD_MAIL },
	{ "perf-pipe", WORKLOAD_PERF, "perf", "linux-perf",
	  "two tasks over a pipe (perf bench sched pipe)", 0 },
	{ "perf-messaging", WORKLOAD_PERF, "perf", "linux-perf",
	  "hackbench in perf (perf bench sched messaging)", 0 },
	{ "schbench", WORKLOAD_SCHBENCH, "schbench",
	  "schbench (build from source)",
	  "wakeup latency and requests per second (schbench -m 1)", 0 },
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

const char *workload_names(unsigned sets)
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
