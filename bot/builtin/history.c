// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/history.c - `sched-bot history`: a series' versions, jobs
 * and verdicts (history.h).
 */
#include <stdio.h>

#include "builtin/builtin.h"
#include "history.h"
#include "state.h"
#include "util.h"

static const char *const history_synopsis[] = {
	"history <message-id | change-id>",
	NULL
};

static const struct option_spec history_options[] = {
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc history_doc = {
	.name = "history",
	.summary = "show a series' versions, their jobs and verdicts",
	.synopsis = history_synopsis,
	.text =
"Print the series that a version's message-id (its cover letter, else\n"
"patch 1) or a b4 change-id names, as the bot linked its versions: by\n"
"the change-id of the cover letter, else by author and subject (a\n"
"version left unlinked, because more than one series matched, is\n"
"shown alone, with the reason).  For each version, its jobs: the\n"
"outcome, target, base, the verdict per KPI, the reply, and for a\n"
"version whose patches were measured already (the same patch-ids on\n"
"the same base and target), the job that measured them; what the\n"
"moderators made of a held report; the named trees the job's patches\n"
"were found merged into, and the recheck each merge queued.  Exits 3\n"
"when the state knows no such version or change-id.",
	.options = history_options,
};

int cmd_history(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct state *st;
	int ret;

	argc = parse_options(argc, argv, &history_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc != 1)
		return options_error(&history_doc,
				     "one message-id or change-id expected");
	st = state_open(NULL);
	if (!st)
		return EXIT_FAIL;
	ret = history_format(st, argv[0], &out);
	if (ret > 0)
		error("no version or change-id '%s' in the state", argv[0]);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	state_close(st);
	return ret < 0 ? EXIT_FAIL : ret ? EXIT_NOTFOUND : EXIT_OK;
}
