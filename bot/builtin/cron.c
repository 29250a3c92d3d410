// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/cron.c - `sched-bot cron`: one unattended run (see cron.h).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config.h"
#include "cron.h"
#include "util.h"

const char cmd_cron_usage[] =
"usage: sched-bot cron [--send | --no-send] [--budget SECONDS]\n"
"                      [--no-poll | --poll-only] [--since EPOCH]\n"
"                      [--max-jobs N]\n"
"   or: sched-bot cron --add <message-id> [--workloads LIST] [--runs N]\n"
"\n"
"Poll lore for new scheduler series (cron.query) and for\n"
"'#sched-bot test' commands (cron.commandQuery), queue them, test them\n"
"within the time budget, and reply once.  Safe to start every few\n"
"minutes: one instance runs at a time, a series revision is tested\n"
"once, a reply is sent once.  Replies are sent only with --send or\n"
"smtp.send = true; otherwise they stay in the outbox.\n"
"\n"
"  --send, --no-send  override smtp.send\n"
"  --budget SECONDS   stop starting jobs after this (cron.budget, 3000)\n"
"  --no-poll          only run queued jobs and send pending mail\n"
"  --poll-only        only poll and queue (and answer bad commands)\n"
"  --since EPOCH      poll from this time instead of the last poll\n"
"  --max-jobs N       run at most N jobs\n"
"  --add MSGID        queue a test of that thread by hand and exit\n";

int cmd_cron(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "send", no_argument, NULL, 's' },
		{ "no-send", no_argument, NULL, 'S' },
		{ "budget", required_argument, NULL, 'b' },
		{ "no-poll", no_argument, NULL, 'P' },
		{ "since", required_argument, NULL, 'i' },
		{ "max-jobs", required_argument, NULL, 'm' },
		{ "poll-only", no_argument, NULL, 'p' },
		{ "add", required_argument, NULL, 'a' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "runs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cron_opts o = { 0 };
	const char *add = NULL, *workloads = "";
	char *end;
	int c, runs = 0;

	o.send = config_get_bool("smtp.send");
	o.poll = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.send = 1;
			break;
		case 'S':
			o.send = 0;
			break;
		case 'b':
			o.budget = strtol(optarg, &end, 10);
			if (*end || o.budget < 1)
				return usage_error("cron", "bad --budget");
			break;
		case 'P':
			o.poll = 0;
			break;
		case 'i':
			o.since = strtoll(optarg, &end, 10);
			if (*end || o.since < 1)
				return usage_error("cron", "bad --since");
			break;
		case 'm':
			o.max_jobs = (int)strtol(optarg, &end, 10);
			if (*end || o.max_jobs < 1)
				return usage_error("cron", "bad --max-jobs");
			break;
		case 'p':
			o.no_jobs = 1;
			break;
		case 'a':
			add = optarg;
			break;
		case 'w':
			workloads = optarg;
			break;
		case 'r':
			runs = (int)strtol(optarg, &end, 10);
			if (*end || runs < 1 || runs > 1000)
				return usage_error("cron", "bad --runs");
			break;
		case 'h':
			return show_usage("cron");
		default:
			return usage_error("cron", "unknown option");
		}
	}
	if (optind != argc)
		return usage_error("cron", "no arguments expected");
	if (add) {
		const char *p = add;
		char *id;
		int ret;

		while (*p == '<')
			p++;
		id = xstrndup(p, strcspn(p, ">"));
		ret = *id ? cron_add(id, workloads, runs) :
		      usage_error("cron", "empty message-id");
		free(id);
		return ret;
	}
	return cron_run(&o);
}
