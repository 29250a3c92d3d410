// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/test.c - `sched-bot test`: one series from message-id (or mbox)
 * to reply, through a resumable job directory (job.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "config.h"
#include "facts.h"
#include "gc.h"
#include "job.h"
#include "jobstate.h"
#include "lore.h"
#include "outbox.h"
#include "state.h"
#include "util.h"
#include "workload-opts.h"


static struct job_opts o;
static int send = -1;

static const char *const test_synopsis[] = {
	"test <message-id> [<options>]",
	"test --mbox FILE [<options>]",
	"test --job-dir DIR [--restart] [<options>]",
	NULL
};

static const struct option_spec test_options[] = {
	OPT_STRING('m', "mbox", &o.mbox, "FILE",
		   "test the series in a local mbox instead of lore"),
	OPT_STRING(0, "target", &o.target, "NAME[,NAME...]",
		   "where to run (default job.target, else qemu); a comma-separated list runs the job on each target, one reply"),
	OPT__WORKLOADS_AUTO(&o.workloads,
			    "default: bot.workloads, else auto"),
	OPT_INTEGER(0, "runs", &o.runs, "N", 1, RUNS_MAX,
		    "a fixed number of runs of each kernel (default: adaptive, job.minRuns to job.maxRuns blocks)"),
	OPT_STRING(0, "base", &o.base, "REV",
		   "apply onto REV instead of the series' base"),
	OPT_STRING(0, "on-top", &o.on_top, "MSGID",
		   "also apply the diff of that mail of the thread on top of the series (what a #sched-bot test command with a diff does)"),
	OPT_STRING(0, "job-dir", &o.dir, "DIR",
		   "the job directory (default job.dir/<message-id>); "
		   "alone, resumes the job in DIR"),
	OPT_FLAG(0, "restart", &o.restart,
		 "start the job over when the options differ from the ones it was started with"),
	OPT_SET_INT(0, "send", &send, 1,
		    "send the reply (as smtp.send = true does)"),
	OPT_SET_INT(0, "no-send", &send, 0, "only write it to the outbox"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc test_doc = {
	.name = "test",
	.summary = "the whole pipeline: message-id to reply",
	.synopsis = test_synopsis,
	.text =
"Fetch the thread, apply the series to its base, build the base and\n"
"the patched kernel, run both on the target (runs interleaved A B A B),\n"
"compare, and write the reply: to the outbox (printed), or by SMTP\n"
"with --send.  Everything is kept in a job directory; running the\n"
"same command again resumes an interrupted job.",
	.options = test_options,
	.notes =
"Exit: 0 tested, 5 regression, 1 apply/build failure or a stage\n"
"failed (run again to resume), 3 message not found or an --mbox file\n"
"that cannot be read, 4 network, 6 a full disk (job.dir, the outbox)\n"
"or build.cacheDir below gc.minFree: nothing is lost, run it again\n"
"after 'sched-bot gc', 7 the target's machine was busy before the runs\n"
"and target.NAME.busy = refuse: nothing was measured, run it again.",
};

/*
 * The free-space floor (gc.minFree) before a job that still has a
 * build to do, as cron checks it; but where cron runs gc first, a run
 * by hand deletes nothing of its own accord: it names the command
 * that would free the space.  1 below the floor (said), else 0.
 */
static int below_floor(const char *dir)
{
	long long min_free = config_get_int("gc.minFree"), avail;
	struct job_state js;
	char *path, *builds;
	int builds_left = 1;

	if (min_free <= 0)
		return 0;
	/* --restart builds again */
	if (dir && !o.restart) {
		path = xasprintf("%s/state", dir);
		job_state_init(&js);
		if (!job_state_read(&js, path) && js.stage > JOB_BUILD)
			builds_left = 0;
		job_state_release(&js);
		free(path);
	}
	if (!builds_left)
		return 0;
	builds = gc_build_cache_dir();
	avail = gc_free_bytes(builds);
	if (avail < 0 || avail >= min_free) {
		free(builds);
		return 0;
	}
	error("disk full: %lld bytes free on %s's file system, %lld needed (gc.minFree) before a build; 'sched-bot gc' frees space ('sched-bot gc --dry-run' lists what it would delete)",
	      avail, builds, min_free);
	free(builds);
	return 1;
}

int cmd_test(int argc, char **argv)
{
	struct state *st;
	char *msgid = NULL, *outcome = NULL, *dir = NULL, *jobdir = NULL;
	char *on_top = NULL;
	int ret;

	argc = parse_options(argc, argv, &test_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (send < 0)
		send = config_get_bool("smtp.send");
	if (send && facts_check_identity("--send and smtp.send are refused"))
		return EXIT_USAGE;
	if (argc > 1)
		return options_error(&test_doc, "one message-id at most");
	if (argc == 1) {
		msgid = lore_msgid_from_arg(argv[0]);
		if (!msgid)
			return options_error(&test_doc,
					     "'%s' holds no message-id",
					     argv[0]);
		o.msgid = msgid;
	}
	if (!o.msgid && !o.mbox && !o.dir)
		return options_error(&test_doc, "give a message-id, --mbox FILE or --job-dir DIR");
	if (o.mbox && need_file(o.mbox)) {
		free(msgid);
		return EXIT_NOTFOUND;
	}
	if (o.mbox && !o.dir && !o.msgid) {
		/* a job per mbox file: its name */
		const char *slash = strrchr(o.mbox, '/');
		char *name = xasprintf("mbox-%s", slash ? slash + 1 : o.mbox);

		dir = job_default_dir(name);
		o.dir = dir;
		free(name);
	}
	if (o.on_top) {
		on_top = lore_msgid_from_arg(o.on_top);
		if (!on_top) {
			free(msgid);
			free(dir);
			return options_error(&test_doc, "--on-top '%s' holds no message-id",
					     o.on_top);
		}
		o.on_top = on_top;
	}
	jobdir = o.dir ? xstrdup(o.dir) : o.msgid ? job_default_dir(o.msgid) :
		 NULL;
	if (below_floor(jobdir)) {
		free(jobdir);
		free(msgid);
		free(on_top);
		free(dir);
		return EXIT_DISKFULL;
	}
	free(jobdir);
	jobdir = NULL;
	o.send = send;
	st = state_open(NULL);
	if (!st) {
		free(msgid);
		free(on_top);
		free(dir);
		return EXIT_FAIL;
	}
	ret = job_run(&o, st, &outcome, &jobdir);
	if (send && (ret == EXIT_OK || ret == EXIT_REGRESSION ||
		     (ret == EXIT_FAIL && outcome &&
		      job_outcome_failed(job_outcome_from_name(outcome))))) {
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
	free(on_top);
	free(dir);
	return ret;
}
