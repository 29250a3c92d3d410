// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/target.c - `sched-bot target list`: the targets there are;
 * `sched-bot target status NAME...`: what a target
 * is, whether it is marked unhealthy and, for a LAVA lab, its devices,
 * their health and queue; `sched-bot target clear NAME...` lifts the
 * mark once an operator has fixed the machine; `sched-bot target check
 * NAME...` says whether a machine is fit to measure on now.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "builtin/config-opts.h"
#include "config.h"
#include "sequential.h"
#include "target/target.h"
#include "util.h"
#include "workload-opts.h"

static const char *const target_synopsis[] = {
	"target list",
	"target status NAME...",
	"target clear NAME...",
	"target check [--runs N] [-t S] [--quick] [--workloads LIST] NAME...",
	NULL
};

static struct target_check_opts check_opts = { .runs = 3, .seconds = 1 };

static const struct option_spec target_options[] = {
	OPT__VERBOSITY(),
	OPT_INTEGER(0, "runs", &check_opts.runs, "N", 2, 50,
		    "check: noise runs of each workload (3)"),
	OPT_INTEGER('t', "duration", &check_opts.seconds, "S", 1, 3600,
		    "check: seconds of each noise run (1)"),
	OPT_FLAG(0, "quick", &check_opts.quick, "check: one spawn pass, no gap, no pingpong warm-up (a first look; the noise of the runs a job makes is lower)"),
	OPT__WORKLOADS(&check_opts.workloads, "check: the default set"),
	OPT_END()
};

const struct options_doc target_doc = {
	.name = "target",
	.summary = "show and check targets: health, load, noise, a LAVA lab",
	.synopsis = target_synopsis,
	.text =
"list prints the names --target takes, with their types: each\n"
"[target \"NAME\"] section of the configuration, then the targets that\n"
"need none (qemu, local).\n\n"
"status shows each target's type and whether it is marked unhealthy: an\n"
"ssh machine that did not come back on its default kernel, even after\n"
"target.NAME.powerCommand, gets no more runs (boot, test and cron refuse\n"
"it) until an operator has looked at it and says clear.  For a lava\n"
"target, status asks the lab through its REST API for the devices (type,\n"
"state, health, worker) and the number of jobs queued.\n\n"
"check looks at an ssh or local machine as it runs: the cpufreq governor\n"
"and driver, boost, SMT, transparent hugepages, the load average and the\n"
"processes that took CPU time over a second (`sched-bench health`, which\n"
"needs no procps there); then, unless the machine is busy, each\n"
"workload's own noise on the running kernel: the CV of --runs short\n"
"runs, and the runs a side a job needs to find or exclude compare.detect\n"
"(about 2 (1.96 CV / detect)^2).  The machine is busy when its 1-minute\n"
"load average per CPU is above target.NAME.maxLoad or a process takes\n"
"more than half a CPU; too noisy when that need is past job.maxRuns.\n"
"The figures are kept per target ($XDG_DATA_HOME/sched-bot/targets/\n"
"NAME.check), and a job on the machine says, before its runs and in its\n"
"reply, when it is busy or too noisy.  With target.NAME.prepare = true,\n"
"check first sets the performance governor on every CPU with cpufreq\n"
"and says what it did.",
	.options = target_options,
	.notes = "Exit status: 0, 1 when a lab cannot be asked or a mark cannot be removed, or (check) when the machine is busy, too noisy or cannot be checked, 2 for an unknown target.",
};

static int show(const char *name, const char *type)
{
	char *why;
	int ret = EXIT_OK;

	printf("%s: type %s\n", name, type);
	if (target_unhealthy(name, &why)) {
		printf("%s: unhealthy %s\n%s: gets no runs until 'sched-bot target clear %s'\n",
		       name, why, name, name);
		free(why);
	} else {
		printf("%s: healthy\n", name);
	}
	if (target_status(name, stdout) < 0)
		ret = EXIT_FAIL;
	return ret;
}

/* One line of list: "NAME TYPE", each name once. */
static int list_one(const char *name, void *data)
{
	struct strbuf *seen = data;
	const char *type = target_type(name);
	char *key = xasprintf("\n%s\n", name);

	if (!strstr(seen->buf, key)) {
		strbuf_addstr(seen, key + 1);
		printf("%s %s\n", name, type ? type : "unknown");
	}
	free(key);
	return 0;
}

/*
 * The names --target takes: the configured [target "NAME"] sections,
 * then the targets that need none (what the completion offers).
 */
static int list(void)
{
	struct strbuf seen = STRBUF_INIT;

	strbuf_addch(&seen, '\n');
	config_subsections("target", list_one, &seen);
	target_each_builtin(list_one, &seen);
	strbuf_release(&seen);
	return EXIT_OK;
}

/* The report, then the verdict: idle, or each cause on its own line. */
static int check(const char *name)
{
	struct target_check c;
	struct seq_defaults sd;
	int ret = EXIT_OK;

	seq_defaults_from_config(&sd);
	check_opts.detect = sd.detect;
	check_opts.max_runs = sd.max_blocks;
	if (target_check(name, &check_opts, &c) < 0)
		return EXIT_FAIL;
	fputs(c.report.buf, stdout);
	if (c.busy) {
		printf("%s: busy: %s\n", name, c.busy);
		ret = EXIT_FAIL;
	}
	if (c.noisy) {
		printf("%s: too noisy: %s\n", name, c.noisy);
		ret = EXIT_FAIL;
	}
	if (ret == EXIT_OK)
		printf("%s: idle, fit to measure on\n", name);
	target_check_release(&c);
	return ret;
}

int cmd_target(int argc, char **argv)
{
	int i, clear, checking, ret = EXIT_OK;

	argc = parse_options(argc, argv, &target_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc == 1 && !strcmp(argv[0], "list"))
		return list();
	if (argc < 2 || (strcmp(argv[0], "status") && strcmp(argv[0], "clear") &&
			 strcmp(argv[0], "check")))
		return options_error(&target_doc, "say 'list', or 'status', 'clear' or 'check' and name targets");
	clear = !strcmp(argv[0], "clear");
	checking = !strcmp(argv[0], "check");
	for (i = 1; i < argc; i++) {
		const char *type = target_type(argv[i]);
		int rc;

		if (!type) {
			error("unknown target '%s'", argv[i]);
			ret = EXIT_USAGE;
		} else if (checking) {
			if (check(argv[i]) != EXIT_OK)
				ret = EXIT_FAIL;
		} else if (!clear) {
			if (show(argv[i], type) != EXIT_OK)
				ret = EXIT_FAIL;
		} else {
			rc = target_clear(argv[i]);
			if (rc < 0)
				ret = EXIT_FAIL;
			else
				printf("%s: %s\n", argv[i], rc ? "was not marked unhealthy" : "cleared, healthy again");
		}
	}
	return ret;
}
