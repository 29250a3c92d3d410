// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/test.c - `sched-bot test`: one series from message-id (or mbox)
 * to reply, through a resumable job directory (job.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "config.h"
#include "job.h"
#include "lore.h"
#include "outbox.h"
#include "state.h"
#include "util.h"


const char cmd_test_usage[] =
"usage: sched-bot test [<message-id> | --mbox FILE] [options]\n"
"\n"
"Fetch the thread, apply the series to its base, build the base and\n"
"the patched kernel, run both on the target (runs interleaved A B A B),\n"
"compare, and write the reply: to the outbox (printed), or by SMTP\n"
"with --send.  Everything is kept in a job directory; running the\n"
"same command again resumes an interrupted job.\n"
"\n"
"  --mbox FILE        test the series in a local mbox instead of lore\n"
"  --target NAME      where to run (default job.target, else qemu)\n"
"  --workloads LIST   comma-separated (default bot.workloads,\n"
"                     else spawn,pingpong)\n"
"  --runs N           runs of each kernel (default bot.runs, else 5)\n"
"  --base REV         apply onto REV instead of the series' base\n"
"  --job-dir DIR      the job directory (default job.dir/<message-id>);\n"
"                     alone, resumes the job in DIR with its options\n"
"  --restart          start the job over with the options given (an\n"
"                     option that differs from the job's is refused\n"
"                     without it); the thread fetched is kept\n"
"  --send             send the reply (as smtp.send = true does)\n"
"  --no-send          only write it to the outbox\n"
"\n"
"Exit: 0 tested, 5 regression, 1 apply/build failure or a stage\n"
"failed (run again to resume) or another process holds the job,\n"
"2 usage or options that differ from the job's, 3 message not found,\n"
"4 network.\n";

int cmd_test(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mbox", required_argument, NULL, 'm' },
		{ "target", required_argument, NULL, 't' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "runs", required_argument, NULL, 'r' },
		{ "base", required_argument, NULL, 'b' },
		{ "job-dir", required_argument, NULL, 'd' },
		{ "send", no_argument, NULL, 's' },
		{ "no-send", no_argument, NULL, 'S' },
		{ "restart", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct job_opts o = { 0 };
	struct state *st;
	char *msgid = NULL, *outcome = NULL, *dir = NULL, *jobdir = NULL, *end;
	int c, ret, send = config_get_bool("smtp.send");

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o.mbox = optarg;
			break;
		case 't':
			o.target = optarg;
			break;
		case 'w':
			o.workloads = optarg;
			break;
		case 'r':
			o.runs = (int)strtol(optarg, &end, 10);
			if (*end || o.runs < 1 || o.runs > 1000)
				return usage_error("test", "--runs must be "
						   "1..1000");
			break;
		case 'b':
			o.base = optarg;
			break;
		case 'd':
			o.dir = optarg;
			break;
		case 's':
			send = 1;
			break;
		case 'S':
			send = 0;
			break;
		case 'R':
			o.restart = 1;
			break;
		case 'h':
			return show_usage("test");
		default:
			return usage_error("test", "unknown option");
		}
	}
	if (optind < argc - 1)
		return usage_error("test", "one message-id at most");
	if (optind == argc - 1) {
		msgid = lore_msgid_from_arg(argv[optind]);
		if (!msgid)
			return usage_error("test", "'%s' holds no message-id",
					   argv[optind]);
		o.msgid = msgid;
	}
	if (!o.msgid && !o.mbox && !o.dir)
		return usage_error("test", "give a message-id, --mbox FILE "
				   "or --job-dir DIR");
	if (o.mbox && !o.dir && !o.msgid) {
		/* a job per mbox file: its name */
		const char *slash = strrchr(o.mbox, '/');
		char *name = xasprintf("mbox-%s", slash ? slash + 1 : o.mbox);

		dir = job_default_dir(name);
		o.dir = dir;
		free(name);
	}
	o.send = send;
	st = state_open(NULL);
	if (!st) {
		free(msgid);
		free(dir);
		return EXIT_FAIL;
	}
	ret = job_run(&o, st, &outcome, &jobdir);
	if (send && (ret == EXIT_OK || ret == EXIT_REGRESSION ||
		     (ret == EXIT_FAIL && outcome &&
		      strstr(outcome, "failed")))) {
		char *db = state_default_path(), *box = outbox_default_dir();
		int lock = state_lock(db);

		/* with cron running, cron sends it; never two senders */
		if (lock >= 0) {
			if (outbox_flush(st, box) < 0 && ret == EXIT_OK)
				ret = EXIT_NETWORK;
			close(lock);
		}
		free(db);
		free(box);
	}
	if (jobdir)
		info("job directory: %s", jobdir);
	if (outcome && *outcome)
		info("outcome: %s", outcome);
	free(jobdir);
	state_close(st);
	free(outcome);
	free(msgid);
	free(dir);
	return ret;
}
