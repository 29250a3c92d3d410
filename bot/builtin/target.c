// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/target.c - `sched-bot target status [NAME...]`: what a
 * target is and, for a LAVA lab, its devices, their health and queue.
 */
#include <stdio.h>
#include <string.h>

#include "builtin/builtin.h"
#include "target/lava.h"
#include "target/target.h"
#include "util.h"

const char cmd_target_usage[] =
"usage: sched-bot target status NAME...\n"
"\n"
"Shows each target's type; for a lava target, asks the lab through its\n"
"REST API for the devices (type, state, health, worker) and the number\n"
"of jobs queued.  Exit 1 when a lab cannot be asked.\n";

int cmd_target(int argc, char **argv)
{
	int i, ret = EXIT_OK;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return show_usage("target");
	if (argc < 3 || strcmp(argv[1], "status"))
		return usage_error("target", "say 'status' and name targets");
	for (i = 2; i < argc; i++) {
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
