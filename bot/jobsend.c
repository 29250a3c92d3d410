// SPDX-License-Identifier: GPL-2.0
/*
 * jobsend.c - a job's reply into the outbox, or held for the
 * moderators (see jobsend.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "facts.h"
#include "jobdir.h"
#include "jobsend.h"
#include "moderation.h"
#include "outbox.h"
#include "util.h"

static int hold_reply(const struct job_state *s, struct state *st,
		      long long db_id, int send, const struct strbuf *msg,
		      const char *dir, char **path)
{
	const char *outcome = job_outcome_name(s->outcome);
	struct moderation_report r = {
		.msgid = job_str(s->reply_msgid),
		.mail = msg->buf,
		.len = msg->len,
		.job_id = db_id,
		.thread = job_str(s->cover_msgid),
		.target = job_str(s->target),
		.workloads = job_str(s->workloads),
		.outcome = outcome,
	};
	int held = moderation_holds(outcome);

	if (held <= 0)
		return held;
	return moderation_hold(st, dir, &r, send, path) < 0 ? -1 : 1;
}

int job_send(const char *job_dir, struct job_state *s, struct state *st,
	     long long db_id, int send)
{
	struct strbuf msg = STRBUF_INIT;
	char *eml = jobdir_path(job_dir, "reply.eml");
	char *dir = outbox_default_dir();
	char *path = NULL;
	const char *mid = job_str(s->reply_msgid);
	int ret = EXIT_FAIL, held;

	if (strbuf_read_file(&msg, eml) < 0) {
		error("job %s has no reply.eml", job_dir);
		goto out;
	}
	/* no mail leaves under a placeholder identity */
	if (send && facts_check_identity("no mail is sent")) {
		ret = EXIT_USAGE;
		goto out;
	}
	/* before the intent: a mail that may not go leaves no trace to
	 * send, and the step can run again once the cause is gone */
	if (outbox_check(mid, msg.buf, msg.len) < 0)
		goto out;
	held = hold_reply(s, st, db_id, send, &msg, dir, &path);
	if (held < 0)
		goto out;
	if (!held && send) {
		if (!st) {
			error("sending needs the state database");
			goto out;
		}
		state_crash_point("before-intent");
		if (state_mail_intent(st, mid, db_id,
				      job_str(s->cover_msgid), eml) < 0)
			goto out;
		state_crash_point("intent-recorded");
	}
	if (!held && outbox_put(dir, mid, msg.buf, msg.len, &path) < 0)
		goto out;
	if (!send)
		printf("%s\n", path);
	job_state_set(&s->outbox, path);
	s->stage = JOB_DONE;
	ret = 0;
out:
	strbuf_release(&msg);
	free(eml);
	free(dir);
	free(path);
	return ret;
}

