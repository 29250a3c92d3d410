// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/status.c - `sched-bot status`: the bot's health (status.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "builtin/config-opts.h"
#include "state.h"
#include "status.h"
#include "util.h"

static int as_json;
static const char *prom;

static const char *const status_synopsis[] = {
	"status [--json] [--prometheus FILE]",
	NULL
};

static const struct option_spec status_options[] = {
	OPT_FLAG(0, "json", &as_json, "print the status as JSON"),
	OPT_STRING(0, "prometheus", &prom, "FILE",
		   "also write it as a node_exporter textfile-collector file (FILE.tmp, then renamed)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc status_doc = {
	.name = "status",
	.summary = "show the bot's health; exit 1 when it needs an operator",
	.synopsis = status_synopsis,
	.text =
"Print the last poll and its result, the queue by stage, the jobs done\n"
"and failed in the last day and week, the mails sent, pending, held\n"
"back by the rate caps and dropped, the targets and their health as\n"
"far as the state records it, the disk use against gc.maxDiskBytes\n"
"and gc.minFree, the oldest unsent mail, and the moderators' tally\n"
"(bot.moderation): the reports released, invalid, held and expired,\n"
"by target and workloads, and each job of the last week whose reply\n"
"the mail policy kept off the list: where it went (outbox, moderators,\n"
"author) and why.  Exits 1 when something\n"
"needs an operator: the last poll failed or is older than\n"
"status.maxPollAge (or there was none), a mail has waited more than a\n"
"day, the disk is over the budget or below the floor, a target is\n"
"down.  --prometheus FILE writes the same figures as metrics\n"
"sched_bot_* in the text exposition format, for node_exporter's\n"
"textfile collector.",
	.options = status_options,
};

static int write_prom(const char *path, const struct status *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int ret = 0;

	status_format_prometheus(s, &sb);
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len) {
		ret = error("cannot write %s: %s", tmp, strerror(errno));
		if (f)
			fclose(f);
	} else if (fclose(f) || rename(tmp, path) < 0) {
		ret = error("cannot write %s: %s", path, strerror(errno));
	}
	if (ret)
		unlink(tmp);
	strbuf_release(&sb);
	free(tmp);
	return ret;
}

int cmd_status(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct status_opts so;
	struct status s;
	struct state *st;
	int ret;

	argc = parse_options(argc, argv, &status_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc)
		return options_error(&status_doc, "no arguments expected");
	st = state_open(NULL);
	if (!st)
		return EXIT_FAIL;
	status_opts_from_config(&so);
	status_collect(st, &so, &s);
	if (as_json)
		status_format_json(&s, &out);
	else
		status_format(&s, &out);
	fputs(out.buf, stdout);
	ret = s.nr_alerts ? EXIT_FAIL : EXIT_OK;
	if (prom && write_prom(prom, &s) < 0)
		ret = EXIT_FAIL;
	strbuf_release(&out);
	status_release(&s);
	state_close(st);
	return ret;
}
