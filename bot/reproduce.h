/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reproduce.h - how a reader repeats a job from its mail alone: the
 * reply's "How to reproduce" block and the job's reproduce.sh, both
 * from the job's state and directory.  They name the base commit and
 * its tree, the `sched-bot test` line a reader runs on a machine of
 * theirs, and the exact command each kernel ran with its cell
 * (autogroup, cgroup, placement, copies); a build failure gets the
 * `make` lines instead, a job that measured nothing no commands.
 * Never a path of the bot's own disk: the reader has none of them.
 */
#ifndef SCHED_BOT_REPRODUCE_H
#define SCHED_BOT_REPRODUCE_H

#include "jobstate.h"
#include "util.h"

struct reproduce_job {
	const char *dir;		/* the job directory */
	const struct job_state *s;
	const char *tree;		/* the tree as the reply names it */
	const char *base_config;	/* build.baseConfig */
	const char *cc;			/* build.cc */
	const char *page;		/* the job's archive page, or NULL */
};

/* The reply's "How to reproduce" section's text, into out. */
void reproduce_block(const struct reproduce_job *r, struct strbuf *out);

/* dir/reproduce.sh, the same as a script; 0 or -1. */
int reproduce_script_write(const struct reproduce_job *r);

#endif
