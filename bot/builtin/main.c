// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - `sched-bot <command> [options]`: global options, then one
 * of the commands in bot/cmd_*.c, git style.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <git2.h>

#include "builtin/builtin.h"
#include "config.h"
#include "secret.h"
#include "util.h"
#include "version.h"

extern const char cmd_fetch_usage[], cmd_series_usage[], cmd_am_usage[],
	cmd_tree_usage[], cmd_apply_usage[], cmd_build_usage[],
	cmd_boot_usage[], cmd_run_usage[], cmd_compare_usage[],
	cmd_test_usage[], cmd_cron_usage[], cmd_archive_usage[],
	cmd_config_usage[];

/* In pipeline order, as `sched-bot help` lists them. */
const struct cmd commands[] = {
	{ "fetch", cmd_fetch, "download a thread from lore by message-id",
	  cmd_fetch_usage },
	{ "series", cmd_series, "show the patch series selected from a thread",
	  cmd_series_usage },
	{ "am", cmd_am, "write the series as an mbox for git am, with trailers",
	  cmd_am_usage },
	{ "tree", cmd_tree, "set up the kernel tree (import linux-source)",
	  cmd_tree_usage },
	{ "apply", cmd_apply, "apply a series to the kernel tree as commits",
	  cmd_apply_usage },
	{ "build", cmd_build, "build a kernel from a tree revision",
	  cmd_build_usage },
	{ "boot", cmd_boot, "boot a built kernel on a target and run workloads",
	  cmd_boot_usage },
	{ "run", cmd_run, "run workloads on the current kernel, write CSV",
	  cmd_run_usage },
	{ "compare", cmd_compare, "compare results with statistics, render tables",
	  cmd_compare_usage },
	{ "test", cmd_test, "the whole pipeline: message-id to reply",
	  cmd_test_usage },
	{ "cron", cmd_cron, "poll lore, queue and test new series, reply once",
	  cmd_cron_usage },
	{ "archive", cmd_archive, "render finished jobs as HTML pages",
	  cmd_archive_usage },
	{ "config", cmd_config, "show the configuration",
	  cmd_config_usage },
	{ NULL, NULL, NULL, NULL }
};

static const char main_usage[] =
"usage: sched-bot [--version] [--config FILE] [-v | -q] <command> [<args>]\n";

static const char exit_codes[] =
"Exit codes: 0 ok, 1 the job failed, 2 usage error, 3 not found,\n"
"            4 network error, 5 significant regression (compare, test).\n";

const struct cmd *find_command(const char *name)
{
	const struct cmd *c;

	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	const struct cmd *c = find_command(cmd);
	va_list ap;

	fprintf(stderr, "%s %s: ", progname, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c)
		fputs(c->usage, stderr);
	return EXIT_USAGE;
}

int show_usage(const char *cmd)
{
	const struct cmd *c = find_command(cmd);

	if (c)
		fputs(c->usage, stdout);
	return EXIT_OK;
}

static void list_commands(FILE *f)
{
	const struct cmd *c;

	fputs(main_usage, f);
	fputs("\nCommands, in pipeline order:\n", f);
	for (c = commands; c->name; c++)
		fprintf(f, "   %-10s %s\n", c->name, c->summary);
	fputs("\n'sched-bot help <command>' shows a command's options.\n", f);
	fputs(exit_codes, f);
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		list_commands(stdout);
		return EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c) {
		error("no such command '%s'; see 'sched-bot help'", argv[1]);
		return EXIT_USAGE;
	}
	fputs(c->usage, stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *config_file = NULL;
	const struct cmd *c;
	int ret;

	secret_filter_logs();
	argv++;
	argc--;
	while (argc > 0 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--version")) {
			printf("sched-bot %s\n", SCHED_BOT_VERSION);
			return EXIT_OK;
		} else if (!strcmp(argv[0], "-h") ||
			   !strcmp(argv[0], "--help")) {
			list_commands(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[0], "--config") && argc > 1) {
			config_file = argv[1];
			argv++;
			argc--;
		} else if (starts_with(argv[0], "--config=")) {
			config_file = argv[0] + strlen("--config=");
		} else if (!strcmp(argv[0], "-v")) {
			verbosity = 1;
		} else if (!strcmp(argv[0], "-q")) {
			verbosity = -1;
		} else {
			fprintf(stderr, "sched-bot: unknown option '%s'\n",
				argv[0]);
			fputs(main_usage, stderr);
			return EXIT_USAGE;
		}
		argv++;
		argc--;
	}
	if (argc < 1) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "help"))
		return cmd_help(argc, argv);
	c = find_command(argv[0]);
	if (!c) {
		error("'%s' is not a sched-bot command; see 'sched-bot help'",
		      argv[0]);
		return EXIT_USAGE;
	}
	if (config_load(config_file) < 0)
		return EXIT_USAGE;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	ret = c->fn(argc, argv);
	curl_global_cleanup();
	config_free();
	git_libgit2_shutdown();
	return ret;
}
