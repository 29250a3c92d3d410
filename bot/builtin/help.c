// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/help.c - `sched-bot help`: the commands, one command's help,
 * the manual page and the lists the shell completion reads, all printed
 * from the commands' option tables (options.h), never kept by hand.
 */
#include <stdio.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config-keys.h"
#include "util.h"
#include "workload.h"
#include "version.h"

static int man, list_cmds, list_opts, list_workloads;

static const char *const help_synopsis[] = {
	"help [<command>]",
	"help --man",
	"help --list-cmds | --list-workloads | --list-options [<command>]",
	NULL
};

static const struct option_spec help_options[] = {
	OPT_FLAG(0, "man", &man,
		 "print the manual page, sched-bot(1), as roff (make writes it to build/sched-bot.1; 'make install' installs it)"),
	OPT_FLAG(0, "list-cmds", &list_cmds,
		 "print the command names, one a line (for the completion)"),
	OPT_FLAG(0, "list-workloads", &list_workloads,
		 "print the workload names, one a line (for the completion)"),
	OPT_FLAG(0, "list-options", &list_opts,
		 "print the options of <command>, or the tool's own without one: one a line, the name and its argument's name if any (for the completion)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc help_doc = {
	.name = "help",
	.summary = "show the commands, a command's options, the manual",
	.synopsis = help_synopsis,
	.text =
"Without arguments, lists the tool's options, the commands and the exit\n"
"codes; with a command, prints that command's help (the same as\n"
"'sched-bot <command> --help').",
	.options = help_options,
};

void list_commands(FILE *f)
{
	const struct cmd *c;

	options_help(&main_doc, f);
	fputs("\nCommands, in pipeline order:\n", f);
	for (c = commands; c->fn; c++)
		fprintf(f, "   %-10s %s\n", c->doc->name, c->doc->summary);
	fputs("\n'sched-bot help <command>' shows a command's options, 'man sched-bot' all.\n\n",
	      f);
	fputs(exit_codes_text, f);
}

/*
 * The CONFIGURATION section: every key of bot/config-keys.c with its
 * type, default and help line, in the table's order, so that the
 * manual cannot lack a key the code reads.
 */
static void man_configuration(FILE *f)
{
	size_t i;

	fputs(".SH CONFIGURATION\n", f);
	options_roff_text(
"One git-config file is read: --config FILE, else $SCHED_BOT_CONFIG,\n"
"else $XDG_CONFIG_HOME/sched-bot/config, else\n"
"~/.config/sched-bot/config.  The first of these that is given is the\n"
"only file read; the others are not merged into it.  A --config file\n"
"that cannot be read is a usage error (exit 2); a default file that\n"
"does not exist is an empty configuration.\n"
"\n"
"A key with a * in its name is set once per name: target.*.smp is smp\n"
"in a [target \"NAME\"] section, read as target.NAME.smp by --target\n"
"NAME; tree.*.url is url in a [tree \"NAME\"] section.  Each line\n"
"below gives the key's type (int takes k, M and G suffixes; multi may\n"
"be given more than once) and its default; a key without a default is\n"
"decided by the code, as its text says.  'sched-bot config --keys'\n"
"prints the same list, 'sched-bot config --list --all' each key's\n"
"value and where it comes from.", f);
	for (i = 0; i < config_nr_keys; i++) {
		const struct config_key *k = &config_keys[i];

		fputs(".TP\n\\fB", f);
		options_roff_str(k->name, f);
		fputs("\\fR (", f);
		options_roff_str(config_type_name(k->type), f);
		if (k->secret) {
			fputs(", secret", f);
		} else if (k->def) {
			fputs(", default ", f);
			options_roff_str(*k->def ? k->def : "\"\"", f);
		}
		fputs(")\n", f);
		options_roff_str(k->help, f);
		fputc('\n', f);
	}
}

static void man_page(FILE *f)
{
	struct options_doc global = main_doc;
	const struct cmd *c;

	fprintf(f, ".\\\" sched-bot(1), written by 'sched-bot help --man' from the option tables\n");
	fprintf(f, ".TH SCHED\\-BOT 1 \"\" \"sched-bot %s\" \"sched-bot manual\"\n",
		SCHED_BOT_VERSION);
	/* no hyphenation or justification: options stay greppable */
	fputs(".nh\n.ad l\n", f);
	fputs(".SH NAME\nsched-bot \\- ", f);
	options_roff_str(main_doc.summary, f);
	fputc('\n', f);
	fputs(".SH SYNOPSIS\n.nf\n", f);
	options_man_synopsis(&main_doc, f);
	fputs(".fi\n.SH DESCRIPTION\n", f);
	options_roff_text(main_doc.text, f);
	fputs(".SH OPTIONS\n", f);
	global.text = NULL;
	options_man(&global, f);
	fputs(".SH COMMANDS\n", f);
	options_roff_text("In pipeline order.  Every command also accepts -v, -q and -h.",
			  f);
	for (c = commands; c->fn; c++)
		options_man(c->doc, f);
	fputs(".SH \"EXIT STATUS\"\n", f);
	options_roff_text(exit_codes_text, f);
	man_configuration(f);
	fputs(".SH ENVIRONMENT\n", f);
	options_roff_text(
"SCHED_BOT_CONFIG names the configuration file.  XDG_CONFIG_HOME,\n"
"XDG_CACHE_HOME and XDG_DATA_HOME place the configuration\n"
"(sched-bot/config), the caches (lore threads, kernel builds) and the\n"
"data (jobs/, outbox/, state.db, linux.git).  SCHED_BOT_SMTP_PASSWORD\n"
"is the SMTP password when smtp.passwordFile is not set.", f);
	fputs(".SH \"SEE ALSO\"\n", f);
	fputs("\\fBsched\\-bench\\fR(1), ", f);
	fputs("\\fBgit\\-am\\fR(1), \\fBgit\\-config\\fR(1), \\fBb4\\fR(5)\n",
	      f);
}

int cmd_help(int argc, char **argv)
{
	const struct cmd *c = NULL, *k;

	argc = parse_options(argc, argv, &help_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc > 1)
		return options_error(&help_doc, "one command at most");
	if (argc == 1) {
		c = find_command(argv[0]);
		if (!c)
			return options_error(&help_doc,
					     "no such command '%s'", argv[0]);
	}
	/* help shows what the commands parse: never a faulty table */
	for (k = commands; k->fn; k++)
		if (options_check(k->doc) < 0)
			return EXIT_FAIL;
	if (options_check(&main_doc) < 0)
		return EXIT_FAIL;
	if (man + list_cmds + list_opts + list_workloads > 1)
		return options_error(&help_doc, "--man, --list-cmds, --list-workloads or --list-options, one of them");
	if (list_workloads) {
		size_t i;

		for (i = 0; i < workload_table_nr; i++)
			puts(workload_table[i].name);
		return EXIT_OK;
	}
	if (man || list_cmds) {
		if (c)
			return options_error(&help_doc, "--%s takes no command",
					     man ? "man" : "list-cmds");
		if (man)
			man_page(stdout);
		else
			for (k = commands; k->fn; k++)
				printf("%s\n", k->doc->name);
		return EXIT_OK;
	}
	if (list_opts) {
		options_list(c ? c->doc : &main_doc, stdout);
		return EXIT_OK;
	}
	if (c)
		options_help(c->doc, stdout);
	else
		list_commands(stdout);
	return EXIT_OK;
}
