// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_cron.c - `sched-bot cron`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_cron_usage[] =
"usage: sched-bot cron [options]\n";

int cmd_cron(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'cron' is not implemented yet");
	return EXIT_FAIL;
}
