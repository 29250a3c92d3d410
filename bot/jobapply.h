/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobapply.h - the apply stage's two special cases (job.c runs the
 * stage): a command mail's diff on top of the series, and a merged
 * series' recheck.
 */
#ifndef SCHED_BOT_JOBAPPLY_H
#define SCHED_BOT_JOBAPPLY_H

#include <git2.h>

#include "apply.h"
#include "jobstate.h"

/*
 * The diff of s->on_top's command mail in dir/thread.mbox, applied on
 * ar's head as one more commit; ar then names it.  0 (also: no diff,
 * the series alone), 1 when it did not apply (ar->fail says why), -1
 * on an error (said).
 */
int job_apply_on_top(const char *dir, struct job_state *s,
		     git_repository *repo, struct apply_result *ar);

/*
 * A recheck after merge: s's base and head are commits of the named
 * tree; both sides are set from them, apply.log written, the stage
 * moved to the build.  0, or -1 (said) when they are not in repo.
 */
int job_apply_merged(const char *dir, struct job_state *s,
		     git_repository *repo);

#endif
