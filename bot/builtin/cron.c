// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/cron.c - `sched-bot cron`: one unattended run (see cron.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config.h"
#include "cron.h"
#include "facts.h"
#include "util.h"
#include "workload-opts.h"

static struct cron_opts o = { .send = -1, .poll = 1 };
static const char *add, *workloads;
static int runs;

static const char *const cron_synopsis[] = {
	"cron [--send | --no-send] [--budget SECONDS]",
	"     [--no-poll | --poll-only] [--since EPOCH] [--max-jobs N]",
	"cron --add <message-id> [--workloads LIST] [--runs N]",
	NULL
};

static const struct option_spec cron_options[] = {
	OPT_SET_INT(0, "send", &o.send, 1,
		    "send replies (overrides smtp.send)"),
	OPT_SET_INT(0, "no-send", &o.send, 0,
		    "leave replies in the outbox (overrides smtp.send)"),
	OPT_INTEGER(0, "budget", &o.budget, "SECONDS", 1, LONG_MAX,
		    "stop starting jobs after this (cron.budget, 3000)"),
	OPT_SET_INT(0, "no-poll", &o.poll, 0,
		    "only run queued jobs and send pending mail"),
	OPT_FLAG(0, "poll-only", &o.no_jobs,
		 "only poll and queue (and answer bad commands)"),
	OPT_INTEGER(0, "since", &o.since, "EPOCH", 1, LLONG_MAX,
		    "poll from this time instead of the last poll"),
	OPT_INTEGER(0, "max-jobs", &o.max_jobs, "N", 1, INT_MAX,
		    "run at most N jobs"),
	OPT_GROUP("Queueing by hand"),
	OPT_STRING(0, "add", &add, "MSGID",
		   "queue a test of that thread and exit"),
	OPT__WORKLOADS_AUTO(&workloads,
			    "with --add; default: bot.workloads"),
	OPT_INTEGER(0, "runs", &runs, "N", 1, RUNS_MAX,
		    "with --add: a fixed count of runs of each kernel (default: adaptive, job.minRuns to job.maxRuns)"),
	OPT_GROUP("Common"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc cron_doc = {
	.name = "cron",
	.summary = "poll lore, queue and test new series, reply once",
	.synopsis = cron_synopsis,
	.text =
"Poll lore for new scheduler series (cron.query) and for\n"
"'#sched-bot test' commands (cron.commandQuery), queue them, test them\n"
"within the time budget, and reply once.  Safe to start every few\n"
"minutes: one instance runs at a time, a series revision is tested\n"
"once, a reply is sent once.  Replies are sent only with --send or\n"
"smtp.send = true; otherwise they stay in the outbox.  With\n"
"bot.moderation, a report is held for bot.moderators, whose\n"
"'#sched-bot release' or '#sched-bot invalid <reason>' the same poll\n"
"reads; one unjudged after bot.holdDays expires.",
	.options = cron_options,
};

int cmd_cron(int argc, char **argv)
{
	argc = parse_options(argc, argv, &cron_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (o.send < 0)
		o.send = config_get_bool("smtp.send");
	if (o.send && facts_check_identity("--send and smtp.send are refused"))
		return EXIT_USAGE;
	if (argc)
		return options_error(&cron_doc, "no arguments expected");
	if (!add && (workloads || runs))
		return options_error(&cron_doc,
				     "--workloads and --runs are for --add");
	if (add) {
		const char *p = add;
		char *id;
		int ret;

		while (*p == '<')
			p++;
		id = xstrndup(p, strcspn(p, ">"));
		ret = *id ? cron_add(id, workloads ? workloads : "", runs) :
		      options_error(&cron_doc, "empty message-id");
		free(id);
		return ret;
	}
	return cron_run(&o);
}
