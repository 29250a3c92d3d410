// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_fetch.c - `sched-bot fetch`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_fetch_usage[] =
"usage: sched-bot fetch [options]\n";

int cmd_fetch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'fetch' is not implemented yet");
	return EXIT_FAIL;
}
