/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobpast.h - what the bot measured before, as a job uses it: the
 * version recorded in the series' lineage (lineage.h), the patches
 * measured already (nothing twice), and what the newest measured
 * earlier version regressed (the reply remembers).  job.c calls these
 * at its series, apply and reply stages.
 */
#ifndef SCHED_BOT_JOBPAST_H
#define SCHED_BOT_JOBPAST_H

#include <git2.h>

#include "apply.h"
#include "jobstate.h"
#include "series.h"
#include "state.h"

/* The job as these see it. */
struct job_past {
	const char *dir;	/* the job directory */
	struct job_state *s;	/* its state, changed in place */
	struct state *st;	/* the state database, or NULL: none */
	long long db_id;	/* the job's row, 0: none */
	int quiet;		/* bot.quiet: no reply for a duplicate */
};

/* Record msgid's version of series s in its lineage (warns on error). */
void jobpast_lineage(const struct job_past *j, const struct series *s,
		     const char *msgid);

/*
 * Nothing twice: record the patch-ids of ar's commits with the job;
 * when an earlier job measured the same patches on the same base,
 * target and workloads, the job fails as JOB_DUPLICATE pointing at it
 * (done at once with quiet).
 */
void jobpast_seen_before(const struct job_past *j, git_repository *repo,
			 const struct apply_result *ar);

/*
 * The reply remembers: earlier.txt in the job directory says, per KPI
 * the newest measured earlier version on the same target regressed,
 * whether this version still does (history.h words it).
 */
void jobpast_earlier(const struct job_past *j);

/*
 * Run first: the workloads of the KPIs the newest measured earlier
 * version on the same target regressed, into the job state's run_first
 * and run_first_version.  Called at the series stage, whose state is
 * saved, so that a resumed job runs them in the same order (plan.h puts
 * them first, and says why that widens no family).
 */
void jobpast_run_first(const struct job_past *j);

#endif
