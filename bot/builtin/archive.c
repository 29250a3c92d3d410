// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/archive.c - `sched-bot archive`: finished jobs as HTML.
 */
#include <stdlib.h>
#include <unistd.h>

#include "archive.h"
#include "builtin/builtin.h"
#include "config.h"
#include "state.h"
#include "util.h"

static const char *jobs, *out;

static const char *const archive_synopsis[] = {
	"archive [--jobs DIR] [--out DIR]",
	NULL
};

static const struct option_spec archive_options[] = {
	OPT_STRING(0, "jobs", &jobs, "DIR",
		   "the job directories (default job.dir, else $XDG_DATA_HOME/sched-bot/jobs)"),
	OPT_STRING(0, "out", &out, "DIR",
		   "where the pages go (default archive.dir, else $XDG_DATA_HOME/sched-bot/archive)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc archive_doc = {
	.name = "archive",
	.summary = "render finished jobs as HTML pages",
	.synopsis = archive_synopsis,
	.text =
"Render each job directory as an HTML page (the reply rendered with\n"
"cmark, tables as <pre>, links to results.csv, compare.json and the\n"
"raw reply) and an index.html of all jobs, newest first, with the\n"
"moderators' tally of held reports (bot.moderation) when the state\n"
"database has one, and, from its lineage, a page per series\n"
"(series-N.html): its versions, their jobs and `sched-bot history`'s\n"
"account of them.  A jobs directory that cannot be read exits 3.",
	.options = archive_options,
};

int cmd_archive(int argc, char **argv)
{
	char *jobs_def = NULL, *out_def = NULL;
	int n, ret;

	jobs = config_get("job.dir");
	out = config_get("archive.dir");
	argc = parse_options(argc, argv, &archive_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc)
		return options_error(&archive_doc, "no arguments expected");
	if (!jobs || !*jobs)
		jobs = jobs_def = data_path("jobs");
	if (!out || !*out)
		out = out_def = data_path("archive");
	ret = need_dir(jobs);
	if (!ret) {
		char *db = state_default_path();
		/* the tally of a bot that has a state; none made here */
		struct state *st = access(db, F_OK) ? NULL : state_open(db);

		n = archive_render(jobs, out, st);
		state_close(st);
		free(db);
		if (n >= 0)
			info("%d job page(s) and index.html in %s", n, out);
		ret = n < 0 ? EXIT_FAIL : EXIT_OK;
	}
	free(jobs_def);
	free(out_def);
	return ret;
}
