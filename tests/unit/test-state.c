// SPDX-License-Identifier: GPL-2.0
/*
 * test-state.c - SQLite state (series dedupe, job queue, mail intents)
 * and the Maildir outbox.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "builtin/config-opts.h"
#include "config.h"
#include "outbox.h"
#include "smtp.h"
#include "state.h"
#include "test.h"
#include "util.h"

static char tmpdir[] = "/tmp/test-state.XXXXXX";

static char *tpath(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void test_series(void)
{
	char *db = tpath("s.db");
	struct state *st = state_open(db);
	struct state_job job;
	long long id1 = 0, id2 = 0, id3 = 0;

	CHECK(st != NULL);
	CHECK_INT(state_series_add(st, "a@b", 3, "v6.1", "spawn", "subj",
				   &id1), 0);
	CHECK_INT(state_series_add(st, "a@b", 3, "v6.1", "spawn", "subj",
				   &id2), 1);
	CHECK_INT(id2, 0);
	CHECK_INT(state_series_add(st, "a@b", 4, "v6.1", "spawn", "subj",
				   &id2), 0);
	CHECK(id2 > id1);
	CHECK_INT(state_job_add(st, "c@d", "pingpong", 5, "me@x", "cmd@x",
				&id3), 0);
	CHECK_INT(state_job_next(st, &job, 0), 1);
	CHECK_INT(job.id, id1);
	CHECK_STR(job.stage, "queued");
	CHECK(job.outcome == NULL);
	state_job_release(&job);
	CHECK_INT(state_job_update(st, id1, "done", "tested", "/j/1"), 0);
	CHECK_INT(state_job_next(st, &job, 0), 1);
	CHECK_INT(job.id, id2);
	state_job_release(&job);
	CHECK_INT(state_job_next(st, &job, id2), 1);
	CHECK_INT(job.id, id3);
	CHECK_INT(job.runs, 5);
	CHECK_STR(job.requested_by, "me@x");
	state_job_release(&job);
	CHECK_INT(state_job_get(st, id1, &job), 1);
	CHECK_STR(job.outcome, "tested");
	CHECK_STR(job.job_dir, "/j/1");
	state_job_release(&job);
	state_close(st);

	/* it persists */
	st = state_open(db);
	CHECK_INT(state_series_add(st, "a@b", 3, "v6.1", "spawn", NULL, NULL),
		  1);
	CHECK_INT(state_command_seen(st, "cmd1@x"), 0);
	CHECK_INT(state_command_add(st, "cmd1@x", "me@x", "queued", NULL), 0);
	CHECK_INT(state_command_seen(st, "cmd1@x"), 1);
	CHECK_INT(state_meta_set(st, "last_poll", "123"), 0);
	{
		char *v = state_meta_get(st, "last_poll");

		CHECK_STR(v, "123");
		free(v);
	}
	state_close(st);
	free(db);
}

static void test_job_find(void)
{
	char *db = tpath("f.db");
	struct state *st = state_open(db);
	struct state_job job;
	long long a = 0, b = 0, c = 0;

	CHECK(st != NULL);
	CHECK_INT(state_job_find(st, "x@y", &job), 0);
	CHECK_INT(state_job_add(st, "x@y", "", 0, NULL, NULL, &a), 0);
	CHECK_INT(state_job_add(st, "x@y", "", 0, NULL, NULL, &b), 0);
	CHECK_INT(state_job_add(st, "other@y", "", 0, NULL, NULL, &c), 0);
	/* none finished: the newest queued */
	CHECK_INT(state_job_find(st, "x@y", &job), 1);
	CHECK_INT(job.id, b);
	state_job_release(&job);
	/* a finished one wins over a newer queued one (a re-test) */
	CHECK_INT(state_job_update(st, a, "done", "regression", "/j/a"), 0);
	CHECK_INT(state_job_find(st, "x@y", &job), 1);
	CHECK_INT(job.id, a);
	CHECK_STR(job.outcome, "regression");
	CHECK_STR(job.job_dir, "/j/a");
	state_job_release(&job);
	CHECK_INT(state_job_find(st, "other@y", &job), 1);
	CHECK_INT(job.id, c);
	state_job_release(&job);
	state_close(st);
	free(db);
}

static void test_mails(void)
{
	char *db = tpath("m.db");
	struct state *st = state_open(db);
	struct state_mail *m;
	size_t nr;

	CHECK_INT(state_mail_status(st, "x@y"), MAIL_UNKNOWN);
	CHECK_INT(state_mail_intent(st, "x@y", 1, "t@y", "/p"), 0);
	CHECK_INT(state_mail_intent(st, "x@y", 1, "t@y", "/other"), 0);
	CHECK_INT(state_mail_status(st, "x@y"), MAIL_INTENT);
	CHECK_INT(state_mails_pending(st, &m, &nr), 0);
	CHECK_INT(nr, 1);
	if (nr == 1) {
		CHECK_STR(m[0].path, "/p");
		CHECK_STR(m[0].thread, "t@y");
	}
	state_mails_release(m, nr);
	CHECK_INT(state_mails_sent_since(st, 0, NULL), 0);
	CHECK_INT(state_mail_sent(st, "x@y"), 0);
	CHECK_INT(state_mail_status(st, "x@y"), MAIL_SENT);
	CHECK_INT(state_mails_pending(st, &m, &nr), 0);
	CHECK_INT(nr, 0);
	state_mails_release(m, nr);
	CHECK_INT(state_mails_sent_since(st, 0, NULL), 1);
	CHECK_INT(state_mails_sent_since(st, 0, "t@y"), 1);
	CHECK_INT(state_mails_sent_since(st, 0, "other@y"), 0);
	state_close(st);
	free(db);
}

static void test_lock(void)
{
	char *db = tpath("l.db");
	int fd = state_lock(db), fd2;

	CHECK(fd >= 0);
	fd2 = state_lock(db);
	CHECK_INT(fd2, -1);
	close(fd);
	fd2 = state_lock(db);
	CHECK(fd2 >= 0);
	close(fd2);
	free(db);
}

static void test_outbox(void)
{
	char *dir = tpath("outbox"), *p1 = NULL, *p2 = NULL, *f;
	struct outbox_opts oo;
	int sent = -1;

	/* as the tool does at start-up */
	outbox_opts_from_config(&oo);
	outbox_configure(&oo);
	CHECK_INT(outbox_put(dir, "a/b:c@x", "x\n", 2, &p1), 0);
	CHECK(p1 && strstr(p1, "/new/a_b_c@x"));
	CHECK_INT(outbox_put(dir, "a/b:c@x", "other\n", 6, &p2), 0);
	CHECK_STR(p1, p2);
	f = outbox_find(dir, "a/b:c@x", &sent);
	CHECK_STR(f, p1);
	CHECK_INT(sent, 0);
	free(f);
	CHECK_INT(outbox_mark_sent(dir, "a/b:c@x"), 0);
	f = outbox_find(dir, "a/b:c@x", &sent);
	CHECK(f && strstr(f, "/cur/a_b_c@x:2,S"));
	CHECK_INT(sent, 1);
	free(f);
	CHECK(outbox_find(dir, "none@x", NULL) == NULL);
	free(p1);
	free(p2);
	free(dir);
}

/* A refused connection leaves the mail pending in new/. */
static void test_flush_refused(void)
{
	char *db = tpath("f.db"), *dir = tpath("fbox"), *eml = tpath("r.eml");
	const char *msg = "From: Bot <bot@x.org>\nTo: a@x.org\n"
			  "Message-ID: <r1@x.org>\nSubject: t\n\nbody\n";
	struct state *st = state_open(db);
	struct outbox_opts oo;
	struct smtp_opts so;
	int sent = -1;
	char *f;

	write_file_atomic(eml, msg, strlen(msg));
	config_set_override("smtp.url", "smtp://127.0.0.1:1");
	outbox_opts_from_config(&oo);
	outbox_configure(&oo);
	smtp_opts_from_config(&so);
	smtp_configure(&so);
	CHECK_INT(state_mail_intent(st, "r1@x.org", 1, "t@x", eml), 0);
	CHECK_INT(outbox_flush(st, dir), -1);
	CHECK_INT(state_mail_status(st, "r1@x.org"), MAIL_INTENT);
	f = outbox_find(dir, "r1@x.org", &sent);
	CHECK(f != NULL);
	CHECK_INT(sent, 0);
	free(f);
	/* found in cur/ (sent before a crash): recorded, not resent */
	outbox_mark_sent(dir, "r1@x.org");
	CHECK_INT(outbox_flush(st, dir), 0);
	CHECK_INT(state_mail_status(st, "r1@x.org"), MAIL_SENT);
	state_close(st);
	free(db);
	free(dir);
	free(eml);
}

/* One DKIM signature, one command: the table that says so. */
static void test_command_sigs(void)
{
	char *db = tpath("c.db"), *m;
	struct state *st = state_open(db);
	sqlite3 *raw;

	CHECK(st != NULL);
	CHECK_INT(state_command_sig_msgid(st, "AAAA", &m), 0);
	CHECK_INT(state_command_add(st, "c1@x", "me@x", "queued", "AAAA"), 0);
	CHECK_INT(state_command_sig_msgid(st, "AAAA", &m), 1);
	CHECK_STR(m, "c1@x");
	free(m);
	/* a later command with the same signature keeps the first owner */
	CHECK_INT(state_command_add(st, "c2@x", "me@x", "ignored", "AAAA"),
		  0);
	CHECK_INT(state_command_sig_msgid(st, "AAAA", &m), 1);
	CHECK_STR(m, "c1@x");
	free(m);
	CHECK_INT(state_command_seen(st, "c2@x"), 1);
	/* inside the caller's transaction, a rollback takes both rows */
	CHECK_INT(state_begin(st), 0);
	CHECK_INT(state_command_add(st, "c3@x", "me@x", "queued", "BBBB"), 0);
	state_rollback(st);
	CHECK_INT(state_command_seen(st, "c3@x"), 0);
	CHECK_INT(state_command_sig_msgid(st, "BBBB", &m), 0);

	/* a look-up that fails says so: the caller refuses, never "unseen" */
	CHECK_INT(sqlite3_open(db, &raw), SQLITE_OK);
	CHECK_INT(sqlite3_exec(raw, "DROP TABLE command_sigs", NULL, NULL,
			       NULL), SQLITE_OK);
	sqlite3_close(raw);
	CHECK_INT(state_command_sig_msgid(st, "AAAA", &m), -1);
	CHECK(m == NULL);
	state_close(st);

	/* a database from before the table gets it when opened */
	st = state_open(db);
	CHECK(st != NULL);
	CHECK_INT(state_command_sig_msgid(st, "AAAA", &m), 0);
	CHECK_INT(state_command_add(st, "c4@x", "me@x", "queued", "CCCC"), 0);
	CHECK_INT(state_command_sig_msgid(st, "CCCC", &m), 1);
	CHECK_STR(m, "c4@x");
	free(m);
	state_close(st);
	free(db);
}

int main(void)
{
	TEST_NAME("test-state");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(test_series);
	RUN(test_job_find);
	RUN(test_mails);
	RUN(test_lock);
	RUN(test_outbox);
	RUN(test_flush_refused);
	RUN(test_command_sigs);
	remove_tree(tmpdir);
	config_free();
	return test_done();
}
