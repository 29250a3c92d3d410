// SPDX-License-Identifier: GPL-2.0
/*
 * jobsend.c - a job's reply where the mail policy sends it (see
 * jobsend.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "facts.h"
#include "jobdir.h"
#include "jobsend.h"
#include "mailpolicy.h"
#include "moderation.h"
#include "outbox.h"
#include "util.h"

static int hold_reply(const struct job_state *s, struct state *st,
		      long long db_id, int send, const struct strbuf *msg,
		      const char *dir, char **path)
{
	struct moderation_report r = {
		.msgid = job_str(s->reply_msgid),
		.mail = msg->buf,
		.len = msg->len,
		.job_id = db_id,
		.thread = job_str(s->cover_msgid),
		.target = job_str(s->target),
		.workloads = job_str(s->workloads),
		.outcome = job_outcome_name(s->outcome),
		.why = s->mail_why,
	};

	return moderation_hold(st, dir, &r, send, path) < 0 ? -1 : 0;
}

/*
 * A private mail to the author goes once a thread: a second one (the
 * series tested again, on another target or after a merge) stays in
 * the outbox.  The state keeps the first one's Message-ID by the
 * thread's root.
 */
static int author_once(struct job_state *s, struct state *st)
{
	char *key = xasprintf("author-once.%s", job_str(s->cover_msgid));
	char *first = state_meta_get(st, key);
	int ret = 0;

	if (first && strcmp(first, job_str(s->reply_msgid))) {
		char *why = xasprintf("the author had this series' one "
				      "private mail already, <%s>", first);

		job_state_set(&s->mail, mail_dest_name(MAIL_OUTBOX));
		job_state_set(&s->mail_why, why);
		free(why);
	} else if (!first &&
		   state_meta_set(st, key, job_str(s->reply_msgid)) < 0) {
		ret = -1;
	}
	free(first);
	free(key);
	return ret;
}

int job_send(const char *job_dir, struct job_state *s, struct state *st,
	     long long db_id, int send)
{
	struct strbuf msg = STRBUF_INIT;
	char *eml = jobdir_path(job_dir, "reply.eml");
	char *dir = outbox_default_dir();
	char *path = NULL;
	const char *mid = job_str(s->reply_msgid);
	int ret = EXIT_FAIL, dest;

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
	/* where it goes, as the policy decided when it was composed */
	dest = mail_dest_from_name(s->mail);
	if (dest < 0)
		dest = mailpolicy_job(job_dir, s, NULL);
	if (dest < 0)
		goto out;
	if (dest == MAIL_AUTHOR && send && st) {
		if (author_once(s, st) < 0)
			goto out;
		dest = mail_dest_from_name(s->mail);
	}
	if (dest != MAIL_LIST)
		info("job %s: %s: %s", job_dir,
		     dest == MAIL_OUTBOX ? "the reply stays in the outbox, "
		     "sent to no one" : dest == MAIL_AUTHOR ? "the reply "
		     "goes to the author alone" : "the reply goes to the "
		     "moderators first", job_str(s->mail_why));
	if (st && state_job_mail_set(st, db_id, s->mail, s->mail_why) < 0)
		goto out;
	if (dest == MAIL_MODERATORS &&
	    hold_reply(s, st, db_id, send, &msg, dir, &path) < 0)
		goto out;
	if ((dest == MAIL_LIST || dest == MAIL_AUTHOR) && send) {
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
	if (dest != MAIL_MODERATORS &&
	    outbox_put(dir, mid, msg.buf, msg.len, &path) < 0)
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

