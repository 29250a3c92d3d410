// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/check.c - `sched-bot check`: b4 review's external check, the
 * verdict of the job that tested a patch's series (b4check.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4check.h"
#include "builtin/builtin.h"
#include "state.h"
#include "util.h"

const char cmd_check_usage[] =
"usage: sched-bot check [--mbox FILE] [--untested warn|empty]\n"
"\n"
"b4 review's external check: reads one message (a patch, or a cover\n"
"letter) on stdin, finds the job that tested its series and prints\n"
"b4's JSON, [{\"tool\", \"status\", \"summary\", \"url\", \"details\"}]:\n"
"pass when tested, fail on a regression or when the series did not\n"
"apply, build or boot, warn while queued or testing and when there is\n"
"no job (\"not tested\").  url is the job's page under archive.url, else\n"
"the job directory.  In git config:\n"
"\n"
"    [b4]\n"
"        review-perpatch-check-cmd = sched-bot check\n"
"        review-series-check-cmd = sched-bot check\n"
"\n"
"  --mbox FILE          read the message from FILE instead of stdin\n"
"  --untested MODE      warn (default) or empty: print [] (nothing to\n"
"                       report) for a series without a job\n"
"\n"
"Exit status: 0 with an answer printed, 1 when the input cannot be\n"
"read, 2 on a usage error.\n";

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mbox", required_argument, NULL, 'm' },
		{ "untested", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct b4check_opts o = { 0 };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	const char *mbox = NULL;
	char *db;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mbox = optarg;
			break;
		case 'u':
			if (strcmp(optarg, "warn") && strcmp(optarg, "empty"))
				return usage_error("check", "--untested is "
						   "warn or empty");
			o.untested_empty = !strcmp(optarg, "empty");
			break;
		case 'h':
			return show_usage("check");
		default:
			return usage_error("check", "unknown option");
		}
	}
	if (optind < argc)
		return usage_error("check", "no arguments: the message "
				   "comes on stdin or with --mbox");
	if ((mbox ? strbuf_read_file(&in, mbox) : strbuf_read_fd(&in, 0)) < 0) {
		error("cannot read %s: %s", mbox ? mbox : "stdin",
		      strerror(errno));
		strbuf_release(&in);
		return EXIT_FAIL;
	}
	/* only a database that exists: a check never creates one */
	db = state_default_path();
	if (!access(db, F_OK))
		o.st = state_open(db);
	free(db);
	b4check_answer(in.buf, in.len, &o, &out);
	fwrite(out.buf, 1, out.len, stdout);
	state_close(o.st);
	strbuf_release(&in);
	strbuf_release(&out);
	return EXIT_OK;
}
