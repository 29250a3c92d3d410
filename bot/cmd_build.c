// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_build.c - `sched-bot build`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_build_usage[] =
"usage: sched-bot build [options]\n";

int cmd_build(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'build' is not implemented yet");
	return EXIT_FAIL;
}
