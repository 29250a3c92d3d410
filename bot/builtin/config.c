// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/config.c - `sched-bot config --list | --get KEY | --path`.
 */
#include <stdio.h>

#include "builtin/builtin.h"
#include "config.h"
#include "util.h"

static int list, path;
static const char *key;

static const char *const config_synopsis[] = {
	"config --list",
	"config --get <key>",
	"config --path",
	NULL
};

static const struct option_spec config_options[] = {
	OPT_FLAG(0, "list", &list,
		 "every key in effect as key=value, secrets masked"),
	OPT_STRING(0, "get", &key, "KEY",
		   "the value of KEY (exit 3 when it is not set)"),
	OPT_FLAG(0, "path", &path, "the configuration file's path"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc config_doc = {
	.name = "config",
	.summary = "show the configuration",
	.synopsis = config_synopsis,
	.text =
"The configuration is a git-config file: $XDG_CONFIG_HOME/sched-bot/config\n"
"(or ~/.config/sched-bot/config, or $SCHED_BOT_CONFIG, or --config FILE).\n"
"contrib/sched-bot.config documents every key.",
	.options = config_options,
};

int cmd_config(int argc, char **argv)
{
	const char *v;

	argc = parse_options(argc, argv, &config_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc || list + path + !!key != 1)
		return options_error(&config_doc,
				     "expected --list, --get KEY or --path");
	if (list)
		return config_list() < 0 ? EXIT_FAIL : EXIT_OK;
	if (path) {
		printf("%s\n", config_path());
		return EXIT_OK;
	}
	v = config_get(key, NULL);
	if (!v)
		return EXIT_NOTFOUND;
	printf("%s\n", v);
	return EXIT_OK;
}
