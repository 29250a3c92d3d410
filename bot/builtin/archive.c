// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/archive.c - `sched-bot archive`: finished jobs as HTML.
 */
#include <getopt.h>
#include <stdlib.h>

#include "archive.h"
#include "builtin/builtin.h"
#include "config.h"
#include "util.h"

const char cmd_archive_usage[] =
"usage: sched-bot archive [--jobs DIR] [--out DIR]\n"
"\n"
"Render each job directory as an HTML page (the reply rendered with\n"
"cmark, tables as <pre>, links to results.csv, compare.json and the\n"
"raw reply) and an index.html of all jobs, newest first.\n"
"\n"
"  --jobs DIR   the job directories (default job.dir, else\n"
"               $XDG_DATA_HOME/sched-bot/jobs)\n"
"  --out DIR    where the pages go (default archive.dir, else\n"
"               $XDG_DATA_HOME/sched-bot/archive)\n";

int cmd_archive(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *jobs = config_get("job.dir");
	const char *out = config_get("archive.dir");
	char *jobs_def = NULL, *out_def = NULL;
	int c, n;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			jobs = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			return show_usage("archive");
		default:
			return usage_error("archive", "unknown option");
		}
	}
	if (optind != argc)
		return usage_error("archive", "no arguments expected");
	if (!jobs || !*jobs)
		jobs = jobs_def = data_path("jobs");
	if (!out || !*out)
		out = out_def = data_path("archive");
	n = archive_render(jobs, out);
	if (n >= 0)
		info("%d job page(s) and index.html in %s", n, out);
	free(jobs_def);
	free(out_def);
	return n < 0 ? EXIT_FAIL : EXIT_OK;
}
