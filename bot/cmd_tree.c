// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_tree.c - `sched-bot tree`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_tree_usage[] =
"usage: sched-bot tree [options]\n";

int cmd_tree(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'tree' is not implemented yet");
	return EXIT_FAIL;
}
