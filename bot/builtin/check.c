// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/check.c - `sched-bot check`: b4 review's external check, the
 * verdict of the job that tested a patch's series (b4check.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4check.h"
#include "builtin/builtin.h"
#include "builtin/config-opts.h"
#include "state.h"
#include "util.h"

static const char *mbox, *untested = "warn";

static const char *const check_synopsis[] = {
	"check [--mbox FILE] [--untested warn|empty] < message",
	NULL
};

static const struct option_spec check_options[] = {
	OPT_STRING('m', "mbox", &mbox, "FILE",
		   "read the message from FILE instead of stdin"),
	OPT_STRING(0, "untested", &untested, "warn|empty",
		   "for a series without a job: warn (default, \"not tested\") or empty: print [] (nothing to report)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc check_doc = {
	.name = "check",
	.summary = "the test verdict of a patch, for b4 review",
	.synopsis = check_synopsis,
	.text =
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
"        review-series-check-cmd = sched-bot check",
	.options = check_options,
	.notes =
"Exit status: 0 with an answer printed, 3 when --mbox cannot be read, 1\n"
"when stdin cannot be, 2 on a usage error.",
};

int cmd_check(int argc, char **argv)
{
	struct b4check_opts o = { 0 };
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char *db;

	argc = parse_options(argc, argv, &check_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc)
		return options_error(&check_doc, "no arguments: the message comes on stdin or with --mbox");
	if (strcmp(untested, "warn") && strcmp(untested, "empty"))
		return options_error(&check_doc, "--untested is warn or empty");
	b4check_opts_from_config(&o);
	o.untested_empty = !strcmp(untested, "empty");
	if (mbox && need_file(mbox))
		return EXIT_NOTFOUND;
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
