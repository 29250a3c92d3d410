// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_compare.c - `sched-bot compare`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_compare_usage[] =
"usage: sched-bot compare [options]\n";

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'compare' is not implemented yet");
	return EXIT_FAIL;
}
