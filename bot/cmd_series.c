// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_series.c - `sched-bot series`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_series_usage[] =
"usage: sched-bot series [options]\n";

int cmd_series(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'series' is not implemented yet");
	return EXIT_FAIL;
}
