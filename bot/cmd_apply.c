// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_apply.c - `sched-bot apply`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_apply_usage[] =
"usage: sched-bot apply [options]\n";

int cmd_apply(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'apply' is not implemented yet");
	return EXIT_FAIL;
}
