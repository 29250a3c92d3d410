// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_archive.c - `sched-bot archive`.  Not written yet.
 */
#include "builtin.h"
#include "util.h"

const char cmd_archive_usage[] =
"usage: sched-bot archive [options]\n";

int cmd_archive(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'archive' is not implemented yet");
	return EXIT_FAIL;
}
