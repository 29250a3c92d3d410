// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/gc.c - `sched-bot gc`: keep the disk within its budget (gc.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "gc.h"
#include "state.h"
#include "util.h"

static int dry_run, as_json;

static const char *const gc_synopsis[] = {
	"gc [--dry-run] [--json]",
	NULL
};

static const struct option_spec gc_options[] = {
	OPT_FLAG('n', "dry-run", &dry_run,
		 "list what would be deleted, in order, with sizes; delete nothing"),
	OPT_FLAG(0, "json", &as_json, "print the result as JSON"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc gc_doc = {
	.name = "gc",
	.summary = "delete old job files, builds and lore cache past a budget",
	.synopsis = gc_synopsis,
	.text =
"Measure job.dir, build.cacheDir, the ccache directory and the lore\n"
"cache together (st_blocks, links not followed) and delete, oldest\n"
"first, in this order: 1. the kernels, consoles and build logs of\n"
"finished jobs (build-*.log, console-*.log, bzImage*, vmlinu*, *.img,\n"
"initramfs*), 2. build slots and artifacts (slot-*, art-*), 3. lore\n"
"cache entries; while the total is over gc.maxDiskBytes or the free\n"
"space on build.cacheDir is below gc.minFree, and whatever is older\n"
"than gc.keepDays.  Never deleted: a running (locked) job, a job not\n"
"done or whose reply is not yet sent, the newest gc.keepJobs finished\n"
"jobs, any job's state, series.json, results.csv, compare.json,\n"
"verdict.txt and reply.eml, the base artifacts the build-ahead keeps\n"
"warm, build slots while a job runs, and the ccache (its own max_size\n"
"bounds it).  Then the state rows only a cache needs are pruned\n"
"(state.h lists which).  cron runs gc after its queue when\n"
"gc.maxDiskBytes or gc.keepDays is set.  Exits 1 when something could\n"
"not be deleted or the total stays over the budget.",
	.options = gc_options,
};

int cmd_gc(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct gc_result r;
	struct state *st;
	char *db;
	int lock = -1, ret;

	argc = parse_options(argc, argv, &gc_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc)
		return options_error(&gc_doc, "no arguments expected");
	db = state_default_path();
	/* not beside a running cron, whose jobs and builds it would race */
	if (!dry_run) {
		lock = state_lock(db);
		if (lock < 0) {
			free(db);
			return EXIT_FAIL;
		}
	}
	st = state_open(db);
	free(db);
	if (!st) {
		if (lock >= 0)
			close(lock);
		return EXIT_FAIL;
	}
	ret = gc_run(st, dry_run, &r) < 0 ? EXIT_FAIL : EXIT_OK;
	if (r.after.budget > 0 && r.after.total > r.after.budget)
		ret = EXIT_FAIL;
	if (as_json)
		gc_format_json(&r, dry_run, &out);
	else
		gc_format(&r, dry_run, &out);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	gc_result_release(&r);
	state_close(st);
	if (lock >= 0)
		close(lock);
	return ret;
}
