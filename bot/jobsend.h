/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobsend.h - a job's last stage: its reply.eml to the outbox, or,
 * when bot.moderation holds it, to the moderators (moderation.h).
 */
#ifndef SCHED_BOT_JOBSEND_H
#define SCHED_BOT_JOBSEND_H

#include "jobstate.h"
#include "state.h"

/*
 * The reply of the job in job_dir (s its state, db_id its row in st)
 * into the outbox; with send, its intent recorded first, so that cron
 * sends it exactly once.  On success s->outbox names the file and
 * s->stage is JOB_DONE.  Returns 0, EXIT_USAGE (a placeholder identity
 * with send) or EXIT_FAIL (said).
 */
int job_send(const char *job_dir, struct job_state *s, struct state *st,
	     long long db_id, int send);

#endif
