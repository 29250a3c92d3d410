// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - `sched-bot [<options>] <command> [<args>]`: the tool's own
 * options, then one of the commands in bot/builtin/, git style.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>
#include <git2.h>

#include "builtin/builtin.h"
#include "config.h"
#include "secret.h"
#include "util.h"
#include "version.h"

/* In pipeline order, as `sched-bot help` lists them. */
const struct cmd commands[] = {
	{ cmd_fetch, &fetch_doc },
	{ cmd_series, &series_doc },
	{ cmd_am, &am_doc },
	{ cmd_tree, &tree_doc },
	{ cmd_apply, &apply_doc },
	{ cmd_build, &build_doc },
	{ cmd_plan, &plan_doc },
	{ cmd_boot, &boot_doc },
	{ cmd_run, &run_doc },
	{ cmd_compare, &compare_doc },
	{ cmd_test, &test_doc },
	{ cmd_cron, &cron_doc },
	{ cmd_archive, &archive_doc },
	{ cmd_gc, &gc_doc },
	{ cmd_status, &status_doc },
	{ cmd_history, &history_doc },
	{ cmd_check, &check_doc },
	{ cmd_config, &config_doc },
	{ cmd_target, &target_doc },
	{ cmd_help, &help_doc },
	{ NULL, NULL }
};

/*
 * The one rule, shown by `sched-bot help` and the man page: one line
 * per value of enum exit_code (util.h), which t0000 checks, and the
 * guide that lists the commands says the same (t0000 too).
 */
const char exit_codes_text[] =
"Exit codes, the same in every command:\n"
"    0  done (compare, test: no significant regression)\n"
"    1  the work failed: a patch did not apply, a kernel did not build\n"
"       or boot, a workload failed, the data is bad\n"
"    2  usage: a bad option, argument or configuration (a --config\n"
"       file that cannot be read is configuration)\n"
"    3  not found: a message-id lore does not have, a search without\n"
"       hits, a tree, key or input file or directory named on the\n"
"       command line that does not exist or cannot be read\n"
"    4  network: lore or SMTP unreachable after the retries\n"
"    5  regression: compare or test found a significant regression\n"
"    6  disk full: test, cron: a file system a job writes to is full,\n"
"       or below gc.minFree; nothing recorded is lost, run it again\n"
"       once 'sched-bot gc' or an operator has freed space\n"
"    7  busy: test: the machine was busy before the runs and\n"
"       target.NAME.busy is refuse; nothing was measured or mailed,\n"
"       run it again later (cron does, counting no attempt)\n";

static const char *config_file;
static int show_version, show_help;

static const char *const main_synopsis[] = {
	"[--version] [--config FILE] [-v | -q] <command> [<args>]",
	NULL
};

static const struct option_spec main_options[] = {
	OPT_STRING(0, "config", &config_file, "FILE",
		   "read the configuration from FILE instead of $SCHED_BOT_CONFIG or $XDG_CONFIG_HOME/sched-bot/config"),
	OPT__VERBOSITY(),
	OPT_FLAG(0, "version", &show_version,
		 "print the version and the commit it was built from, and exit"),
	OPT_FLAG('h', "help", &show_help,
		 "list the commands; 'sched-bot <command> -h' shows one"),
	OPT_END()
};

const struct options_doc main_doc = {
	.name = NULL,
	.summary = "test Linux scheduler patches from lore, report on-list",
	.synopsis = main_synopsis,
	.text =
"Fetch a thread from lore by message-id, select the series, apply it to\n"
"a kernel tree, build the base and the patched kernel, boot them, run\n"
"workloads interleaved, compare with statistics and reply on-list with\n"
"the tables in the thread's own format; as a cron job, for every new\n"
"scheduler series, once.  The options below go before the command; -v\n"
"and -q are also accepted after it.",
	.options = main_options,
};

const struct cmd *find_command(const char *name)
{
	const struct cmd *c;

	for (c = commands; c->fn; c++)
		if (!strcmp(c->doc->name, name))
			return c;
	return NULL;
}

static int cannot_read(const char *path, int err)
{
	error("cannot read %s: %s", path, strerror(err));
	return EXIT_NOTFOUND;
}

int need_file(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return cannot_read(path, errno);
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		return cannot_read(path, err);
	}
	close(fd);
	if (S_ISDIR(st.st_mode))
		return cannot_read(path, EISDIR);
	return 0;
}

int need_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return cannot_read(path, errno);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int ret;

	/*
	 * First of all: no child, however it is started, may inherit the
	 * password, so it leaves the environment before anything runs;
	 * the filter and the smtp module keep the value.
	 */
	secret_take_env();
	secret_filter_logs();
	argc = parse_options(argc, argv, &main_doc,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options_exit(argc);
	if (show_version) {
		if (*SCHED_BOT_COMMIT)
			printf("sched-bot %s (%s)\n", SCHED_BOT_VERSION,
			       SCHED_BOT_COMMIT);
		else
			printf("sched-bot %s\n", SCHED_BOT_VERSION);
		return EXIT_OK;
	}
	if (show_help) {
		char *help_argv[] = { "help", NULL };

		return cmd_help(1, help_argv);
	}
	if (argc < 1) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	c = find_command(argv[0]);
	if (!c) {
		error("'%s' is not a sched-bot command; see 'sched-bot help'",
		      argv[0]);
		return EXIT_USAGE;
	}
	if (c->fn == cmd_help)
		return cmd_help(argc, argv);
	if (config_load(config_file) < 0)
		return EXIT_USAGE;
	config_to_library();
	curl_global_init(CURL_GLOBAL_DEFAULT);
	ret = c->fn(argc, argv);
	curl_global_cleanup();
	config_free();
	git_libgit2_shutdown();
	return ret;
}
