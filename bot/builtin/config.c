// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/config.c - `sched-bot config --list | --get KEY | --path`.
 */
#include <stdio.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config.h"
#include "util.h"

const char cmd_config_usage[] =
"usage: sched-bot config --list\n"
"       sched-bot config --get <key>\n"
"       sched-bot config --path\n"
"\n"
"The configuration is a git-config file: $XDG_CONFIG_HOME/sched-bot/config\n"
"(or ~/.config/sched-bot/config, or $SCHED_BOT_CONFIG, or --config FILE).\n"
"contrib/sched-bot.config documents every key.  --list masks secrets.\n";

int cmd_config(int argc, char **argv)
{
	const char *v;

	if (argc == 2 && !strcmp(argv[1], "--list"))
		return config_list() < 0 ? EXIT_FAIL : EXIT_OK;
	if (argc == 2 && !strcmp(argv[1], "--path")) {
		printf("%s\n", config_path());
		return EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "--get")) {
		v = config_get(argv[2], NULL);
		if (!v)
			return EXIT_NOTFOUND;
		printf("%s\n", v);
		return EXIT_OK;
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help")))
		return show_usage("config");
	return usage_error("config", "expected --list, --get KEY or --path");
}
