// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - `sched-bot run`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_run_usage[] =
"usage: sched-bot run [options]\n";

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'run' is not implemented yet");
	return EXIT_FAIL;
}
