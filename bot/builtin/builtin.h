/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin.h - one entry point per sub-command, each in bot/cmd_<name>.c,
 * in the manner of git's builtin/ directory.  main.c dispatches to them.
 */
#ifndef SCHED_BOT_BUILTIN_H
#define SCHED_BOT_BUILTIN_H

#include <stdio.h>

typedef int (*cmd_fn)(int argc, char **argv);

struct cmd {
	const char *name;
	cmd_fn fn;
	const char *summary;	/* one line for `sched-bot help` */
	const char *usage;	/* full text for `sched-bot help <cmd>` */
};

int cmd_fetch(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_am(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_boot(int argc, char **argv);
int cmd_run(int argc, char **argv);
void cmd_run_help(FILE *f);	/* after its usage: the workload table */
int cmd_compare(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_cron(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_target(int argc, char **argv);

extern const struct cmd commands[];
const struct cmd *find_command(const char *name);

/* Print a command's usage to stderr and return EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print the usage to stdout (for -h/--help) and return EXIT_OK. */
int show_usage(const char *cmd);

/* Read the configuration once into the library modules' options. */
void config_to_library(void);

#endif
