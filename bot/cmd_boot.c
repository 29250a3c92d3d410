// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_boot.c - `sched-bot boot`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_boot_usage[] =
"usage: sched-bot boot [options]\n";

int cmd_boot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'boot' is not implemented yet");
	return EXIT_FAIL;
}
