// SPDX-License-Identifier: GPL-2.0
/*
 * test-jobstate.c - the typed job state: what is written is what is
 * read back, files of the untyped kind load, numbers are strict, and
 * the job directory lock keeps a second locker out.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobstate.h"
#include "test.h"
#include "util.h"

static char tmpdir[] = "/tmp/test-jobstate.XXXXXX";

static char *tpath(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static int write_text(const char *name, const char *text)
{
	char *path = tpath(name);
	int ret = write_file_atomic(path, text, strlen(text));

	free(path);
	return ret;
}

static int read_text(const char *name, struct job_state *js)
{
	char *path = tpath(name);
	int ret;

	job_state_init(js);
	ret = job_state_read(js, path);
	free(path);
	return ret;
}

static void test_roundtrip(void)
{
	struct job_state js, back;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char *path = tpath("rt");

	job_state_init(&js);
	js.stage = JOB_RUN;
	job_state_set(&js.msgid, "a@b");
	job_state_set(&js.target, "qemu");
	job_state_set(&js.workloads, "spawn,pingpong");
	js.runs = 10;
	js.runs_done = 3;
	js.version = 2;
	js.nr_patches = 4;
	job_state_set(&js.subject, "sched: one\nline");
	job_state_set(&js.side[JOB_SIDE_BASE].commit, "f435c12");
	job_state_set(&js.side[JOB_SIDE_HEAD].kernel, "/k/bzImage");
	job_state_set(&js.base, "");
	CHECK_INT(job_state_write(&js, path), 0);
	CHECK_INT(read_text("rt", &back), 0);
	CHECK_INT(back.stage, JOB_RUN);
	CHECK_STR(back.msgid, "a@b");
	CHECK_INT(back.runs, 10);
	CHECK_INT(back.runs_done, 3);
	CHECK_INT(back.version, 2);
	CHECK_INT(back.nr_patches, 4);
	/* a value is one line: the newline of hostile input is flattened */
	CHECK_STR(back.subject, "sched: one line");
	CHECK_STR(back.side[JOB_SIDE_BASE].commit, "f435c12");
	CHECK_STR(back.side[JOB_SIDE_HEAD].kernel, "/k/bzImage");
	CHECK(back.base == NULL);
	CHECK(back.mbox == NULL);
	job_state_format(&js, &a);
	job_state_format(&back, &b);
	CHECK_STR(a.buf, b.buf);
	/* the file a person greps: stage first, unset keys absent */
	CHECK(starts_with(a.buf, "stage=run\n"));
	CHECK(strstr(a.buf, "\nbase_commit=f435c12\n") != NULL);
	CHECK(strstr(a.buf, "base=") == NULL);
	CHECK(strstr(a.buf, "outcome") == NULL);
	strbuf_release(&a);
	strbuf_release(&b);
	job_state_release(&js);
	job_state_release(&back);
	free(path);
}

static void test_untyped_file(void)
{
	struct job_state js;

	/* as the key=value bag wrote it: empty values, stage after them */
	CHECK_INT(write_text("old", "msgid=\nmbox=/m/x.mbox\ntarget=qemu\n"
			     "workloads=spawn\nruns=3\nbase=\n"
			     "requested_by=\nstage=build\nversion=1\n"
			     "nr_patches=4\nbase_commit=f435\n"
			     "head_commit=beef\nruns_done=0\n"), 0);
	CHECK_INT(read_text("old", &js), 0);
	CHECK_INT(js.stage, JOB_BUILD);
	CHECK(js.msgid == NULL);
	CHECK(js.base == NULL);
	CHECK_STR(js.mbox, "/m/x.mbox");
	CHECK_INT(js.runs, 3);
	CHECK_INT(js.runs_done, 0);
	CHECK_STR(js.side[JOB_SIDE_BASE].commit, "f435");
	CHECK_STR(js.side[JOB_SIDE_HEAD].commit, "beef");
	job_state_release(&js);
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"stage=run\nruns=3x\n",
		"stage=run\nruns=\n",
		"stage=run\nruns=-1\n",
		"stage=run\nruns=+3\n",
		"stage=run\nruns=99999999999\n",
		"stage=sideways\n",
		"runs=3\n",			/* no stage */
		"stage=run\nwhat=ever\n",	/* a newer sched-bot's */
		"stage=run\njust a line\n",
		"stage=done\noutcome=passed\n",	/* not an outcome */
	};
	struct job_state js;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret;

		CHECK_INT(write_text("bad", bad[i]), 0);
		ret = read_text("bad", &js);
		if (ret != -1)
			printf("#   accepted: %s", bad[i]);
		CHECK_INT(ret, -1);
		job_state_release(&js);
	}
	/* comments and blank lines are skipped */
	CHECK_INT(write_text("ok", "# a job\n\nstage=done\nruns=2\n"), 0);
	CHECK_INT(read_text("ok", &js), 0);
	CHECK_INT(js.stage, JOB_DONE);
	CHECK_INT(js.runs, 2);
	job_state_release(&js);
	CHECK_INT(read_text("none", &js), 1);
}

static void test_stage_names(void)
{
	int s;

	for (s = JOB_FETCH; s <= JOB_DONE; s++)
		CHECK_INT(job_stage_from_name(job_stage_name(s)), s);
	CHECK_INT(job_stage_from_name("queued"), -1);
	CHECK_STR(job_stage_name(JOB_SERIES), "series");
}

static void test_outcomes(void)
{
	struct job_state js;
	struct strbuf sb = STRBUF_INIT;
	int o;

	for (o = JOB_OUTCOME_NONE; o < JOB_NR_OUTCOMES; o++)
		CHECK_INT(job_outcome_from_name(job_outcome_name(o)), o);
	CHECK_STR(job_outcome_name(JOB_APPLY_FAILED), "apply-failed");
	CHECK_STR(job_outcome_name(JOB_OUTCOME_NONE), "");
	CHECK_INT(job_outcome_from_name("failed"), -1);
	CHECK(job_outcome_failed(JOB_BOOT_FAILED));
	CHECK(!job_outcome_failed(JOB_REGRESSION));
	CHECK(!job_outcome_failed(JOB_OUTCOME_NONE));
	/* the file's word, both ways; an untyped file's "outcome=" is none */
	CHECK_INT(write_text("oc", "stage=done\noutcome=build-failed\n"), 0);
	CHECK_INT(read_text("oc", &js), 0);
	CHECK_INT(js.outcome, JOB_BUILD_FAILED);
	job_state_format(&js, &sb);
	CHECK_STR(sb.buf, "stage=done\noutcome=build-failed\n");
	job_state_release(&js);
	CHECK_INT(write_text("oc", "stage=reply\noutcome=\n"), 0);
	CHECK_INT(read_text("oc", &js), 0);
	CHECK_INT(js.outcome, JOB_OUTCOME_NONE);
	job_state_release(&js);
	strbuf_release(&sb);
}

static void test_lock(void)
{
	char *path = tpath("lock");
	struct strbuf sb = STRBUF_INIT;
	int a, b;

	a = job_state_lock(tmpdir);
	CHECK(a >= 0);
	CHECK(strbuf_read_file(&sb, path) > 0);
	CHECK_INT(atol(sb.buf), getpid());
	/* another open file, as another process has: refused at once */
	b = job_state_lock(tmpdir);
	CHECK_INT(b, -1);
	job_state_unlock(a);
	b = job_state_lock(tmpdir);
	CHECK(b >= 0);
	job_state_unlock(b);
	strbuf_release(&sb);
	free(path);
}

int main(void)
{
	TEST_NAME("test-jobstate");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(test_roundtrip);
	RUN(test_untyped_file);
	RUN(test_refused);
	RUN(test_stage_names);
	RUN(test_outcomes);
	RUN(test_lock);
	remove_tree(tmpdir);
	return test_done();
}
