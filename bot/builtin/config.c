// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/config.c - `sched-bot config --list [--all] | --keys |
 * --get KEY | --path`, and config_to_library(): the configuration read
 * once, at start-up, into the options of the library's modules.
 */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "builtin/builtin.h"
#include "config.h"
#include "lore.h"
#include "outbox.h"
#include "smtp.h"
#include "util.h"

const char cmd_config_usage[] =
"usage: sched-bot config --list [--all]\n"
"       sched-bot config --keys\n"
"       sched-bot config --get <key>\n"
"       sched-bot config --path\n"
"\n"
"The configuration is a git-config file: $XDG_CONFIG_HOME/sched-bot/config\n"
"(or ~/.config/sched-bot/config, or $SCHED_BOT_CONFIG, or --config FILE).\n"
"--list shows the keys set, secrets masked; --list --all every key, as\n"
"key=value, a tab, and where the value comes from (default, file, or\n"
"unset when the key has no default).  --keys shows each key's type,\n"
"default and meaning; contrib/sched-bot.config is a sample of them all.\n"
"--get prints the value set in the file (not a default).\n";

/*
 * curl's config2setopts: each module's settings are read here, once,
 * into its options struct, and handed to the module before a command
 * runs.  The library itself never reads them at the bottom of a call.
 */
void config_to_library(void)
{
	struct lore_opts lo;
	struct smtp_opts so;
	struct outbox_opts oo;
	struct build_defaults bd;

	lore_opts_from_config(&lo);
	lore_configure(&lo);
	smtp_opts_from_config(&so);
	smtp_configure(&so);
	outbox_opts_from_config(&oo);
	outbox_configure(&oo);
	build_defaults_from_config(&bd);
	build_configure(&bd);
}

/* a and b are x and y, in either order */
static int is_pair(const char *a, const char *b, const char *x,
		   const char *y)
{
	return (!strcmp(a, x) && !strcmp(b, y)) ||
	       (!strcmp(a, y) && !strcmp(b, x));
}

int cmd_config(int argc, char **argv)
{
	const char *v;

	if (argc == 2 && !strcmp(argv[1], "--list"))
		return config_list() < 0 ? EXIT_FAIL : EXIT_OK;
	if (argc == 3 && is_pair(argv[1], argv[2], "--list", "--all"))
		return config_list_all() < 0 ? EXIT_FAIL : EXIT_OK;
	if (argc == 2 && !strcmp(argv[1], "--keys")) {
		config_list_keys();
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "--path")) {
		printf("%s\n", config_path());
		return EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "--get")) {
		v = config_get_set(argv[2]);
		if (!v)
			return EXIT_NOTFOUND;
		printf("%s\n", v);
		return EXIT_OK;
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help")))
		return show_usage("config");
	return usage_error("config", "expected --list [--all], --keys, "
			   "--get KEY or --path");
}
