// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_test.c - `sched-bot test`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_test_usage[] =
"usage: sched-bot test [options]\n";

int cmd_test(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'test' is not implemented yet");
	return EXIT_FAIL;
}
