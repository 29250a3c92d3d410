/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobopts.h - a job's options against its stored state: what a new
 * job starts with, and whether a resumed one was asked the same.
 */
#ifndef SCHED_BOT_JOBOPTS_H
#define SCHED_BOT_JOBOPTS_H

#include "job.h"
#include "jobstate.h"

/*
 * Whether the thread named (a message-id, an mbox) is another one than
 * the stored job's.  The cover's message-id names the job as well as
 * the one it was started with.
 */
int jobopts_other_thread(const struct job_state *s, const char *msgid,
			 const char *mbox);

/*
 * The options given (o, mbox) against those job dir's state s was
 * started with: how many differ, each said with what to run instead.
 */
int jobopts_differ(const char *dir, const struct job_state *s,
		   const struct job_opts *o, const char *mbox);

/*
 * A new job's options into s: the thread as chosen, the others as
 * given, else as old had them (a restart), else the defaults d.
 */
void jobopts_start(struct job_state *s, const char *msgid, const char *mbox,
		   const struct job_opts *o, const struct job_state *old,
		   const struct job_defaults *d);

#endif
