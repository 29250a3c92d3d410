/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin.h - one entry point per sub-command, each in bot/builtin/<name>.c,
 * in the manner of git's builtin/ directory.  main.c dispatches to them.
 *
 * Each command's interface is its struct options_doc (options.h): the
 * synopsis, the description and the option table that parses its
 * command line.  Its --help, `sched-bot help <cmd>`, its section of the
 * man page and the shell completion all print that one description.
 */
#ifndef SCHED_BOT_BUILTIN_H
#define SCHED_BOT_BUILTIN_H

#include <stdio.h>

#include "options.h"

typedef int (*cmd_fn)(int argc, char **argv);

struct cmd {
	cmd_fn fn;
	const struct options_doc *doc;	/* name, summary, options */
};

int cmd_fetch(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_am(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_boot(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_cron(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_target(int argc, char **argv);
int cmd_help(int argc, char **argv);

extern const struct options_doc fetch_doc, series_doc, am_doc, tree_doc,
	apply_doc, build_doc, plan_doc, boot_doc, run_doc, compare_doc, test_doc,
	cron_doc, archive_doc, gc_doc, status_doc, history_doc, check_doc,
	config_doc, target_doc, help_doc;

/* The tool's own options (before the command), and the exit-code rule. */
extern const struct options_doc main_doc;
extern const char exit_codes_text[];

/* In pipeline order, as `sched-bot help` lists them; ends with { NULL }. */
extern const struct cmd commands[];
const struct cmd *find_command(const char *name);
/* `sched-bot help`: the options, the commands, the exit codes. */
void list_commands(FILE *f);

/* The most runs of a kernel any command does (run, boot, test, cron). */
#define RUNS_MAX 1000

/*
 * An input named on the command line (or by default) must be there:
 * 0 when path can be read (need_file: a file, need_dir: a directory),
 * else EXIT_NOTFOUND after "cannot read PATH: reason" -- the same code
 * for the same situation in every command.
 */
int need_file(const char *path);
int need_dir(const char *path);

/* Read the configuration once into the library modules' options. */
void config_to_library(void);

#endif
