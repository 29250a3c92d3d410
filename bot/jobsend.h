/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobsend.h - a job's last stage: its reply.eml where the mail policy
 * sends it (mailpolicy.h): to the outbox to be sent (the lists, or the
 * author alone), to the moderators (moderation.h), or to the outbox
 * only, never sent.
 */
#ifndef SCHED_BOT_JOBSEND_H
#define SCHED_BOT_JOBSEND_H

#include "jobstate.h"
#include "state.h"

/*
 * The reply of the job in job_dir (s its state, db_id its row in st)
 * into the outbox; with send, and when the policy lets it go, its
 * intent recorded first, so that cron sends it exactly once; where it
 * went is recorded in st for `status`.  On success s->outbox names the file and
 * s->stage is JOB_DONE.  Returns 0, EXIT_USAGE (a placeholder identity
 * with send) or EXIT_FAIL (said).
 */
int job_send(const char *job_dir, struct job_state *s, struct state *st,
	     long long db_id, int send);

#endif
