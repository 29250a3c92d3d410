// SPDX-License-Identifier: GPL-2.0
/*
 * test-lineage.c - subjects as versions share them, b4's change-id,
 * the links lineage_record() makes or refuses, and what history
 * prints of a job: its moderation and its merges.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "jobstate.h"
#include "lineage.h"
#include "series.h"
#include "state.h"
#include "test.h"
#include "util.h"

static char tmpdir[] = "/tmp/test-lineage.XXXXXX";

static void test_subject_key(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "[PATCH v2 1/3] sched/fair: Foo  Bar",
		  "sched/fair: foo bar" },
		{ "Re: [RESEND][RFC PATCH] sched: x", "sched: x" },
		{ "[PATCH net-next v3 0/2]\tSched: X\n", "sched: x" },
		{ "sched: plain", "sched: plain" },
		{ "[PATCH", "[patch" },
		{ "", "" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *k = lineage_subject_key(cases[i].in);

		CHECK_STR(k, cases[i].want);
		free(k);
	}
}

/*
 * A one-patch series sent by who, its own trailers those lines, with a
 * change-id line when cid.
 */
static int patch_with(const char *msgid, const char *who, const char *tr,
		      const char *subj, const char *cid, struct series *s)
{
	char *mail = xasprintf(
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: %s\nSubject: %s\nMessage-ID: <%s>\n"
		"Date: Thu, 1 Dec 2022 10:00:00 +0000\n\n"
		"Change it.\n\n%s\n---\n"
		" kernel/sched/fair.c | 1 +\n\n"
		"diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n"
		"--- a/kernel/sched/fair.c\n+++ b/kernel/sched/fair.c\n"
		"@@ -1 +1,2 @@\n int x;\n+int y;\n"
		"%s%s%s-- \n2.39.2\n\n", who, subj, msgid, tr,
		cid ? "\nchange-id: " : "", cid ? cid : "", cid ? "\n\n" : "");
	int ret = series_from_mbox(mail, strlen(mail), 0, NULL, s);

	free(mail);
	return ret;
}

/* A one-patch series by who, with a change-id line when cid. */
static int one_patch(const char *msgid, const char *who, const char *subj,
		     const char *cid, struct series *s)
{
	char *tr = xasprintf("Signed-off-by: %s", who);
	int ret = patch_with(msgid, who, tr, subj, cid, s);

	free(tr);
	return ret;
}

static long long record(struct state *st, const char *msgid,
			const char *who, const char *subj, const char *cid)
{
	struct series s;
	long long fam;

	if (one_patch(msgid, who, subj, cid, &s))
		return -2;
	fam = lineage_record(st, &s);
	series_release(&s);
	return fam;
}

static void test_change_id(void)
{
	struct series s;
	char *id;

	CHECK_INT(one_patch("c1@x", "A <a@x>", "[PATCH] sched: a",
			    "20221201-a-0123", &s), 0);
	id = lineage_change_id(&s);
	CHECK_STR(id, "20221201-a-0123");
	free(id);
	series_release(&s);
	CHECK_INT(one_patch("c2@x", "A <a@x>", "[PATCH] sched: a", NULL, &s),
		  0);
	CHECK(lineage_change_id(&s) == NULL);
	series_release(&s);
}

static void test_record(void)
{
	char *db = xasprintf("%s/l.db", tmpdir);
	struct state *st = state_open(db);
	long long a, b;

	CHECK(st != NULL);
	a = record(st, "a1@x", "A <A@x>", "[PATCH] sched: one", NULL);
	CHECK(a > 0);
	/* the same address in another case, a later version: linked */
	CHECK_INT(record(st, "a2@x", "A <a@X>", "[PATCH v2] sched: One",
			 NULL), a);
	/* seen before: the same answer, nothing new */
	CHECK_INT(record(st, "a2@x", "A <a@x>", "[PATCH v2] sched: One",
			 NULL), a);
	/* a second v2 of that subject is another series' or a resend */
	CHECK_INT(record(st, "a3@x", "A <a@x>", "[PATCH v2] sched: one",
			 NULL), 0);
	CHECK_INT(record(st, "a4@x", "A <a@x>",
			 "[RESEND PATCH v2] sched: one", NULL), a);
	/* another author: another series */
	b = record(st, "b1@x", "B <b@x>", "[PATCH v3] sched: one", NULL);
	CHECK(b > 0 && b != a);
	/* a change-id never links by subject, and links across one */
	b = record(st, "c1@x", "A <a@x>", "[PATCH v3] sched: one", "cid-1");
	CHECK(b > 0 && b != a);
	CHECK_INT(record(st, "c2@x", "A <a@x>", "[PATCH v4] other", "cid-1"),
		  b);
	/* now two series of A match "sched: one": neither is taken */
	CHECK_INT(record(st, "a5@x", "A <a@x>", "[PATCH v5] sched: one",
			 NULL), 0);
	state_close(st);
	free(db);
}

static long long record_with(struct state *st, const char *msgid,
			     const char *who, const char *tr,
			     const char *subj, const char *cid)
{
	struct series s;
	long long fam;

	if (patch_with(msgid, who, tr, subj, cid, &s))
		return -2;
	fam = lineage_record(st, &s);
	series_release(&s);
	return fam;
}

/*
 * A change-id is public: it links a version of the family's authors or
 * of someone their patches vouch for, never anyone else's, whose version
 * is linked by its own author and subject.
 */
static void test_change_id_owner(void)
{
	char *db = xasprintf("%s/o.db", tmpdir);
	struct state *st = state_open(db);
	struct state_version v;
	long long a, m;

	CHECK(st != NULL);
	a = record_with(st, "o1@x", "A <a@x>",
			"Co-developed-by: C <c@x>\nSigned-off-by: C <c@x>\n"
			"Signed-off-by: A <a@x>", "[PATCH] sched: own",
			"cid-own");
	CHECK(a > 0);
	CHECK_INT(state_version_get(st, "o1@x", &v), 1);
	CHECK_STR(v.people, "a@x c@x");
	state_version_release(&v);
	/* M copies it, even claiming A's sign-off: a series of M's */
	m = record_with(st, "m2@x", "M <m@x>",
			"Signed-off-by: A <a@x>\nSigned-off-by: M <m@x>",
			"[PATCH v2] sched: own", "cid-own");
	CHECK(m > 0 && m != a);
	CHECK_INT(state_version_get(st, "m2@x", &v), 1);
	CHECK(strstr(v.why, "its change-id is series") != NULL);
	state_version_release(&v);
	/* M's next version joins M's series, by author and subject */
	CHECK_INT(record_with(st, "m3@x", "M <m@x>", "Signed-off-by: M <m@x>",
			      "[PATCH v3] sched: own", "cid-own"), m);
	/* C, whom A's patch vouched for, continues A's */
	CHECK_INT(record_with(st, "c3@x", "C <c@x>", "Signed-off-by: C <c@x>",
			      "[PATCH v3] sched: own, reworked", "cid-own"), a);
	/* and A, of course */
	CHECK_INT(record(st, "o4@x", "A <a@x>", "[PATCH v4] sched: x",
			 "cid-own"), a);
	state_close(st);
	free(db);
}

#define KPI(w, p, m, pct, v) "{ \"workload\": \"" w "\", \"params\": \"" \
	p "\", \"metric\": \"" m "\", \"change_pct\": " pct ", " \
	"\"verdict\": \"" v "\" }"

static void test_still_there(void)
{
	const char *v1 = "{ \"metrics\": [ "
		KPI("hackbench", "4 groups", "time", "-8.1", "regression") ", "
		KPI("spawn", "", "lps", "-12.0", "regression") ", "
		KPI("pingpong", "", "rtt", "-20.0", "regression") ", "
		KPI("spawn", "", "cpu", "1.0", "no significant change")
		" ] }";
	const char *v2 = "{ \"metrics\": [ "
		KPI("hackbench", "4 groups", "time", "-0.4",
		    "no significant change") ", "
		KPI("spawn", "", "lps", "-11.5", "regression") " ] }";
	struct history_then h = { 1, v1, strlen(v1), "http://l/all/r1/" };
	struct strbuf out = STRBUF_INIT;

	history_still_there(&h, v2, strlen(v2), 2, 0, &out);
	CHECK_STR(out.buf,
		  "The regressions v1 reported, in v2:\n\n"
		  "- v1 regressed hackbench 4 groups time by -8.1%; in v2: "
		  "-0.4%, within noise: gone\n"
		  "- v1 regressed spawn lps by -12.0%; in v2: -11.5%, a "
		  "regression: still there\n"
		  "- v1 regressed pingpong rtt by -20.0%; in v2: not "
		  "measured: unknown\n"
		  "\nv1's report:\n\n    http://l/all/r1/\n");
	strbuf_reset(&out);
	/* nothing regressed then: nothing to say */
	h.json = "{ \"metrics\": [] }";
	h.len = strlen(h.json);
	history_still_there(&h, v2, strlen(v2), 2, 0, &out);
	CHECK_STR(out.buf, "");
	/* hostile or broken JSON: nothing either */
	h.json = "{ \"metrics\": [ { \"workload\": 3 } ";
	h.len = strlen(h.json);
	history_still_there(&h, v2, strlen(v2), 2, 0, &out);
	CHECK_STR(out.buf, "");
	strbuf_release(&out);
}

/* A job of version msgid, its reply r1@x, held and judged, then merged. */
static void test_history_rows(void)
{
	char *db = xasprintf("%s/h.db", tmpdir);
	char *dir = xasprintf("%s/job-1", tmpdir);
	char *path = xasprintf("%s/state", dir);
	struct state *st = state_open(db);
	struct state_held h = { .public_msgid = "r1@x",
				.hold_msgid = "moderation.r1@x",
				.mail = "mail", .status = "held" };
	struct state_merge m = { .tree = "tip/sched/core",
				 .commit = "0123456789abcdef",
				 .parent = "fedcba9876543210",
				 .target = "local", .workloads = "spawn",
				 .report = "r1@x" };
	struct state_merge got;
	struct state_job row;
	struct strbuf out = STRBUF_INIT;
	struct job_state js;
	long long job;

	CHECK(st != NULL);
	CHECK(record(st, "h1@x", "H <h@x>", "[PATCH] sched: h", NULL) > 0);
	CHECK_INT(state_job_add(st, "h1@x", "spawn", 0, NULL, NULL, &job), 0);
	CHECK(mkdir_p(dir, 0755) == 0);
	job_state_init(&js);
	job_state_set(&js.reply_msgid, "r1@x");
	CHECK_INT(job_state_write(&js, path), 0);
	job_state_release(&js);
	CHECK_INT(state_job_update(st, job, "done", "regression", dir), 0);
	h.job_id = job;
	CHECK_INT(state_held_add(st, &h), 0);
	CHECK_INT(state_held_decide(st, "r1@x", "invalid", "noisy host",
				    "mod@x"), 1);
	m.job_id = job;
	/* once per job and branch: the recheck is queued once */
	CHECK_INT(state_merge_add(st, &m, "h1@x"), 1);
	CHECK(m.recheck_job > job);
	CHECK_INT(state_merge_add(st, &m, "h1@x"), 0);
	CHECK_INT(state_merge_of_recheck(st, m.recheck_job, &got), 1);
	CHECK_STR(got.commit, "0123456789abcdef");
	CHECK_STR(got.parent, "fedcba9876543210");
	CHECK_STR(got.report, "r1@x");
	state_merge_release(&got);
	CHECK_INT(state_merge_of_recheck(st, job, &got), 0);
	CHECK_INT(history_format(st, "h1@x", &out), 0);
	CHECK(strstr(out.buf, "\n    moderation invalid by mod@x: noisy "
		     "host\n") != NULL);
	CHECK(strstr(out.buf, "\n    merged     into tip/sched/core as "
		     "0123456789ab (") != NULL);
	CHECK(strstr(out.buf, "), rechecked by job 2\n") != NULL);
	/* the recheck queued, pending, shown with the version */
	CHECK(strstr(out.buf, "\n  job 2: pending") != NULL);
	/* done, it is not the job that tested the mail */
	CHECK_INT(state_job_update(st, m.recheck_job, "done", "tested", NULL),
		  0);
	CHECK_INT(state_job_find(st, "h1@x", &row), 1);
	CHECK(row.id == job);
	state_job_release(&row);
	strbuf_release(&out);
	state_close(st);
	free(path);
	free(dir);
	free(db);
}

int main(void)
{
	TEST_NAME("test-lineage");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(test_subject_key);
	RUN(test_change_id);
	RUN(test_record);
	RUN(test_change_id_owner);
	RUN(test_still_there);
	RUN(test_history_rows);
	remove_tree(tmpdir);
	return test_done();
}
