// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/target.c - `sched-bot target status NAME...`: what a target
 * is, whether it is marked unhealthy and, for a LAVA lab, its devices,
 * their health and queue; `sched-bot target clear NAME...` lifts the
 * mark once an operator has fixed the machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "target/target.h"
#include "util.h"

static const char *const target_synopsis[] = {
	"target status NAME...",
	"target clear NAME...",
	NULL
};

static const struct option_spec target_options[] = {
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc target_doc = {
	.name = "target",
	.summary = "show targets: health, a LAVA lab's devices and queue",
	.synopsis = target_synopsis,
	.text =
"status shows each target's type and whether it is marked unhealthy: an\n"
"ssh machine that did not come back on its default kernel, even after\n"
"target.NAME.powerCommand, gets no more runs (boot, test and cron refuse\n"
"it) until an operator has looked at it and says clear.  For a lava\n"
"target, status asks the lab through its REST API for the devices (type,\n"
"state, health, worker) and the number of jobs queued.",
	.options = target_options,
	.notes = "Exit status: 0, 1 when a lab cannot be asked or a mark cannot "
		 "be removed, 2 for an unknown target.",
};

static int show(const char *name, const char *type)
{
	char *why;
	int ret = EXIT_OK;

	printf("%s: type %s\n", name, type);
	if (target_unhealthy(name, &why)) {
		printf("%s: unhealthy %s\n%s: gets no runs until 'sched-bot "
		       "target clear %s'\n", name, why, name, name);
		free(why);
	} else {
		printf("%s: healthy\n", name);
	}
	if (target_status(name, stdout) < 0)
		ret = EXIT_FAIL;
	return ret;
}

int cmd_target(int argc, char **argv)
{
	int i, clear, ret = EXIT_OK;

	argc = parse_options(argc, argv, &target_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc < 2 || (strcmp(argv[0], "status") && strcmp(argv[0], "clear")))
		return options_error(&target_doc, "say 'status' or 'clear' "
				     "and name targets");
	clear = !strcmp(argv[0], "clear");
	for (i = 1; i < argc; i++) {
		const char *type = target_type(argv[i]);
		int rc;

		if (!type) {
			error("unknown target '%s'", argv[i]);
			ret = EXIT_USAGE;
		} else if (!clear) {
			if (show(argv[i], type) != EXIT_OK)
				ret = EXIT_FAIL;
		} else if ((rc = target_clear(argv[i])) < 0) {
			ret = EXIT_FAIL;
		} else {
			printf("%s: %s\n", argv[i], rc ? "was not marked "
			       "unhealthy" : "cleared, healthy again");
		}
	}
	return ret;
}
