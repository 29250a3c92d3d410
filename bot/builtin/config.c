// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/config.c - `sched-bot config --list [--all] | --keys |
 * --get KEY | --path | --check`, and config_to_library(): the
 * configuration read once, at start-up, into the options of the
 * library's modules.
 */
#include <stdio.h>
#include <unistd.h>

#include "apply.h"
#include "blocks.h"
#include "build.h"
#include "cgroup.h"
#include "compare.h"
#include "cron.h"
#include "builtin/builtin.h"
#include "builtin/config-opts.h"
#include "config.h"
#include "dkim.h"
#include "facts.h"
#include "gc.h"
#include "job.h"
#include "jobreply.h"
#include "lore.h"
#include "mail.h"
#include "mailcmd.h"
#include "mailpolicy.h"
#include "moderation.h"
#include "outbox.h"
#include "reply.h"
#include "run.h"
#include "sandbox.h"
#include "secret.h"
#include "sequential.h"
#include "smtp.h"
#include "state.h"
#include "target/target.h"
#include "templates.h"
#include "tree.h"
#include "util.h"

/*
 * curl's config2setopts: each module's settings are read here, once,
 * into its options struct, and handed to the module before a command
 * runs.  The library itself never reads them at the bottom of a call.
 */
void config_to_library(void)
{
	struct secret_opts seo;
	struct lore_opts lo;
	struct smtp_opts so;
	struct outbox_opts oo;
	struct build_defaults bd;
	struct mail_limits ml;
	struct apply_defaults ad;
	struct state_opts sto;
	struct run_opts ro;
	struct cgroup_opts cgo;
	struct sandbox_opts sbo;
	struct tree_opts tro;
	struct gc_opts gco;
	struct target_opts tgo;
	struct cron_defaults crd;
	struct dkim_opts dko;
	struct compare_defaults cd;
	struct seq_defaults sd;
	struct job_defaults jd;
	struct blocks_opts bo;
	struct jobreply_opts jro;
	struct facts_opts fo;
	struct mailcmd_opts mco;
	struct moderation_opts mdo;
	struct mailpolicy_opts mpo;
	struct tmpl_dirs td;
	struct reply_opts rpo;

	/* first: the filter knows the configured secrets before all else */
	secret_opts_from_config(&seo);
	secret_configure(&seo);
	tmpl_dirs_from_config(&td);
	tmpl_configure(&td);
	lore_opts_from_config(&lo);
	lore_configure(&lo);
	smtp_opts_from_config(&so);
	smtp_configure(&so);
	outbox_opts_from_config(&oo);
	outbox_configure(&oo);
	build_defaults_from_config(&bd);
	build_configure(&bd);
	mail_limits_from_config(&ml);
	mail_configure(&ml);
	apply_defaults_from_config(&ad);
	apply_configure(&ad);
	state_opts_from_config(&sto);
	state_configure(&sto);
	run_opts_from_config(&ro);
	run_configure(&ro);
	cgroup_opts_from_config(&cgo);
	cgroup_configure(&cgo);
	sandbox_opts_from_config(&sbo);
	sandbox_configure(&sbo);
	tree_opts_from_config(&tro);
	tree_configure(&tro);
	gc_opts_from_config(&gco);
	gc_configure(&gco);
	target_opts_from_config(&tgo);
	target_configure(&tgo);
	cron_defaults_from_config(&crd);
	cron_configure(&crd);
	dkim_opts_from_config(&dko);
	dkim_configure(&dko);
	compare_defaults_from_config(&cd);
	compare_configure(&cd);
	seq_defaults_from_config(&sd);
	seq_configure(&sd);
	job_defaults_from_config(&jd);
	job_configure(&jd);
	blocks_opts_from_config(&bo);
	blocks_configure(&bo);
	jobreply_opts_from_config(&jro);
	jobreply_configure(&jro);
	facts_opts_from_config(&fo);
	facts_configure(&fo);
	mailcmd_opts_from_config(&mco);
	mailcmd_configure(&mco);
	moderation_opts_from_config(&mdo);
	moderation_configure(&mdo);
	mailpolicy_opts_from_config(&mpo);
	mailpolicy_configure(&mpo);
	reply_opts_from_config(&rpo);
	reply_configure(&rpo);
}

static int list, all, keys, path, check;
static const char *key;

static const char *const config_synopsis[] = {
	"config --list [--all]",
	"config --keys",
	"config --get <key>",
	"config --path",
	"config --check",
	NULL
};

static const struct option_spec config_options[] = {
	OPT_FLAG(0, "list", &list,
		 "the keys set, as key=value, secrets masked"),
	OPT_FLAG(0, "all", &all,
		 "with --list: every key, a tab, and where its value comes from (default, file, or unset when it has no default)"),
	OPT_FLAG(0, "keys", &keys,
		 "each key's type, default and meaning"),
	OPT_STRING(0, "get", &key, "KEY",
		   "the value set in the file, not a default (exit 3 when it is not set)"),
	OPT_FLAG(0, "path", &path, "the configuration file's path"),
	OPT_FLAG(0, "check", &check,
		 "check the file: exit 2 when it sets a key the table does not know (each is named with the nearest known key, as every command warns) or a value that is not of its key's type"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc config_doc = {
	.name = "config",
	.summary = "show the configuration",
	.synopsis = config_synopsis,
	.text =
"The configuration is one git-config file: --config FILE, else\n"
"$SCHED_BOT_CONFIG, else $XDG_CONFIG_HOME/sched-bot/config, else\n"
"~/.config/sched-bot/config; only the first of these is read.\n"
"Every key has its default in one table (--keys); contrib/sched-bot.config\n"
"is a sample of them all.  Every command warns of a key the file sets that\n"
"the table does not know, naming the nearest known one (bot.moderaton:\n"
"did you mean bot.moderation?), and goes on without it; --check makes\n"
"that, and a value not of its key's type, an error.",
	.options = config_options,
};

/*
 * --check: what config_load() warned of (unknown keys) and the values
 * the getters would replace by a default, as an error: a file meant for
 * cron is checked before it runs unattended.
 */
static int check_file(void)
{
	int bad = config_nr_unknown() + config_check_values();

	if (bad) {
		error("config %s: %d key%s unknown or not of %s type",
		      config_path(), bad, bad == 1 ? "" : "s",
		      bad == 1 ? "its" : "their");
		return EXIT_USAGE;
	}
	if (access(config_path(), F_OK) < 0)
		printf("%s: no such file, the defaults apply\n", config_path());
	else
		printf("%s: every key known, every value of its type\n",
		       config_path());
	return EXIT_OK;
}

int cmd_config(int argc, char **argv)
{
	const char *v;

	argc = parse_options(argc, argv, &config_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc || list + keys + path + check + !!key != 1 || (all && !list))
		return options_error(&config_doc, "expected --list [--all], --keys, --get KEY, --path or --check");
	if (check)
		return check_file();
	if (list && all)
		return config_list_all() < 0 ? EXIT_FAIL : EXIT_OK;
	if (list)
		return config_list() < 0 ? EXIT_FAIL : EXIT_OK;
	if (keys) {
		config_list_keys();
		return EXIT_OK;
	}
	if (path) {
		printf("%s\n", config_path());
		return EXIT_OK;
	}
	v = config_get_set(key);
	if (!v)
		return EXIT_NOTFOUND;
	printf("%s\n", v);
	return EXIT_OK;
}
