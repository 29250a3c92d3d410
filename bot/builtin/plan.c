// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/plan.c - `sched-bot plan`: what `test --workloads auto` would
 * run for a thread, and why (plan.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtin/builtin.h"
#include "config.h"
#include "plan.h"
#include "target/target.h"
#include "util.h"

static const char *target;
static int cpus, seconds, init_args;

static const char *const plan_synopsis[] = {
	"plan <mbox> [--target NAME] [--cpus N] [--seconds S] [--init-args]",
	NULL
};

static const struct option_spec plan_options[] = {
	OPT_STRING(0, "target", &target, "NAME",
		   "scale to this target's CPUs (default job.target)"),
	OPT_INTEGER(0, "cpus", &cpus, "N", 1, 4095,
		    "scale to N CPUs instead of the target's"),
	OPT_INTEGER(0, "seconds", &seconds, "S", 1, 86400,
		    "length of one run (default job.seconds, else 5)"),
	OPT_FLAG(0, "init-args", &init_args,
		 "print the workloads and init words a boot gets, not the plan"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc plan_doc = {
	.name = "plan",
	.summary = "the workloads a thread gets with --workloads auto",
	.synopsis = plan_synopsis,
	.text =
"Reads a thread (an mbox, as `series --mbox` does) and prints what\n"
"`test --workloads auto` runs for it: the benchmarks its messages\n"
"report mapped to sched-bot's workloads and scaled to the target's\n"
"CPUs, or, when it names none the bot can run, the workloads for what\n"
"the diff touches (wake-up, fork and cgroup, load balance).  Each with\n"
"its command line, its placement and the phrase or hunk that chose it;\n"
"benchmarks sched-bot cannot run are listed as not run.  A qemu\n"
"target's CPUs and layout are its configuration; an ssh target's or a\n"
"lab's are what the machine last said of itself (kept by `sched-bot\n"
"target check NAME` or a lab's run; a job asks an ssh machine anew).\n"
"With target.NAME.matchReporter, the thread's first sentence stating\n"
"the machine it measured on (\"4 vCPUs and 16 GiB RAM\") cuts a larger\n"
"target down to it (maxcpus= nr_cpus=, mem=, never up): the plan\n"
"quotes it with its message and says what is cut and why.",
	.options = plan_options,
	.notes =
"Exit: 0, 3 when the mbox cannot be read, 2 on a usage error.",
};

int cmd_plan(int argc, char **argv)
{
	struct plan_opts o = { 0 };
	struct strbuf out = STRBUF_INIT, facts = STRBUF_INIT;
	struct plan p;
	int assumed = 0, gap, warmup;
	char gapbuf[16], warmupbuf[16];

	argc = parse_options(argc, argv, &plan_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc != 1)
		return options_error(&plan_doc, "one mbox file");
	if (need_file(argv[0]))
		return EXIT_NOTFOUND;
	if (!target)
		target = config_get("job.target");
	o.cpus = cpus ? cpus : plan_target_cpus(target, &assumed);
	if (!cpus)
		plan_target_layout(target, &o);
	/* what the machine said of itself last (no ssh from a plan) */
	if (target_facts(target, 0, &facts) <= 0)
		strbuf_reset(&facts);
	if (!cpus && facts.len && plan_facts_layout(facts.buf, &o))
		assumed = 0;
	plan_target_match(target, facts.len ? facts.buf : NULL, &o);
	strbuf_release(&facts);
	if (!cpus && assumed)
		warning("the CPUs of target '%s' are not known: %d assumed (set target.%s.smp or give --cpus)",
			target, o.cpus,
			target);
	o.seconds = seconds ? seconds :
		    (int)config_get_int("job.seconds");
	gap = (int)config_get_int("job.spawnGap");
	if (gap >= 0 && gap != 3) {
		snprintf(gapbuf, sizeof(gapbuf), "%d", gap);
		o.spawn_gap = gapbuf;
	}
	warmup = (int)config_get_int("job.warmup");
	if (warmup >= 0 && warmup != 6) {
		snprintf(warmupbuf, sizeof(warmupbuf), "%d", warmup);
		o.warmup = warmupbuf;
	}
	o.budget = plan_target_budget(target);
	o.have_tool = plan_host_has_tool;
	if (plan_from_file(argv[0], &o, &p) < 0)
		return EXIT_NOTFOUND;
	if (init_args) {
		char *w = plan_workloads(&p), *a = plan_init_args(&p);

		printf("workloads=%s\nargs=%s\n", w, a);
		free(w);
		free(a);
	} else {
		plan_text(&p, &out);
		fwrite(out.buf, 1, out.len, stdout);
	}
	strbuf_release(&out);
	plan_release(&p);
	return EXIT_OK;
}
