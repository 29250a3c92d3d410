// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/target.c - `sched-bot target status NAME...`: what a target
 * is and, for a LAVA lab, its devices, their health and queue.
 */
#include <stdio.h>
#include <string.h>

#include "builtin/builtin.h"
#include "target/lava.h"
#include "target/target.h"
#include "util.h"

static const char *const target_synopsis[] = {
	"target status NAME...",
	NULL
};

static const struct option_spec target_options[] = {
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc target_doc = {
	.name = "target",
	.summary = "show targets: a LAVA lab's devices and queue",
	.synopsis = target_synopsis,
	.text =
"Shows each target's type; for a lava target, asks the lab through its\n"
"REST API for the devices (type, state, health, worker) and the number\n"
"of jobs queued.",
	.options = target_options,
	.notes = "Exit status: 0, 1 when a lab cannot be asked, 2 for an "
		 "unknown target.",
};

int cmd_target(int argc, char **argv)
{
	int i, ret = EXIT_OK;

	argc = parse_options(argc, argv, &target_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc < 2 || strcmp(argv[0], "status"))
		return options_error(&target_doc, "say 'status' and name "
				     "targets");
	for (i = 1; i < argc; i++) {
		const char *type = target_type(argv[i]);

		if (!type) {
			error("unknown target '%s'", argv[i]);
			ret = EXIT_USAGE;
		} else if (!strcmp(type, "lava")) {
			if (target_lava_status(argv[i], stdout) < 0)
				ret = EXIT_FAIL;
		} else {
			printf("%s: type %s\n", argv[i], type);
		}
	}
	return ret;
}
