// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_am.c - `sched-bot am`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_am_usage[] =
"usage: sched-bot am [options]\n";

int cmd_am(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'am' is not implemented yet");
	return EXIT_FAIL;
}
