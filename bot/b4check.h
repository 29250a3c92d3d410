/* SPDX-License-Identifier: GPL-2.0 */
/*
 * b4check.h - the bot's finished jobs as b4 review's external checks.
 *
 * `b4 review` runs each configured check command with one message on
 * stdin (a patch for b4.review-perpatch-check-cmd, the cover letter for
 * b4.review-series-check-cmd) and reads a JSON array of results,
 * [{"tool", "status": "pass"|"warn"|"fail", "summary", "url",
 * "details"}], "[]" meaning nothing to report.  The answer here is one
 * result, tool "sched-bot", for the job that tested the message's series:
 *
 *   tested                      pass, the verdict line
 *   regression                  fail, the verdict line; the metrics that
 *                               regressed and the tables in details
 *   apply-/build-/boot-failed   fail, what failed; the log in details
 *   no outcome yet              warn, "testing" (the stage) or "queued",
 *                               as b4 shows a pending Patchwork check
 *   no job                      warn, "not tested" (or "[]" with
 *                               untested_empty)
 *
 * url is the job's archive page (archive.url/<job>.html, the page
 * `sched-bot archive` writes), else the job directory as a file:// URL.
 *
 * Which job: the message's own Message-ID, its In-Reply-To, then its
 * References from the newest back (a patch hangs under its cover letter,
 * a v2 cover may hang under v1), each looked up as the tested message
 * of a job in the state database (cron's jobs) or in the state file of
 * a job directory under job.dir (msgid= or cover_msgid=, also `sched-bot
 * test`'s jobs).  The first id with a job wins, so a v3 patch finds the
 * v3 job, not v2's.
 */
#ifndef SCHED_BOT_B4CHECK_H
#define SCHED_BOT_B4CHECK_H

#include <stddef.h>

#include "util.h"

struct state;

struct b4check_opts {
	struct state *st;	/* the state database, or NULL */
	const char *jobs_dir;	/* job.dir; NULL: the default */
	const char *archive_url; /* archive.url; NULL: links to files */
	int untested_empty;	/* no job: "[]" rather than "not tested" */
};

/*
 * The answer for one raw message, a JSON array appended to out (always
 * valid JSON, also for a message that cannot be read).
 */
void b4check_answer(const char *raw, size_t len,
		    const struct b4check_opts *o, struct strbuf *out);

#endif
