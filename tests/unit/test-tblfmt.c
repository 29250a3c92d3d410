// SPDX-License-Identifier: GPL-2.0
/*
 * test-tblfmt.c - the table formats of a thread: each kind found, quoted
 * or not, prose and code left alone, each table counted once, the pick
 * (most used, then latest), hostile input, and the real threads.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tblfmt.h"
#include "test.h"
#include "util.h"

/* Real table lines, from the threads in tests/data (see format/README). */
static const char intel[] =
	"hackbench\n"
	"=========\n"
	"case            \tload    \tbaseline(std%)\tcompare%( std%)\n"
	"process-pipe    \t1 group \t 1.00 (  1.50)\t +0.83 (  0.19)\n"
	"process-pipe    \t2 groups \t 1.00 (  0.77)\t +0.82 (  0.52)\n";
static const char amd[] =
	"==================================================================\n"
	"Test          : hackbench\n"
	"Units         : Normalized time in seconds\n"
	"Interpretation: Lower is better\n"
	"Statistic     : AMean\n"
	"==================================================================\n"
	"Case:           tip[pct imp](CV)    place-initial-fix[pct imp](CV)\n"
	" 1-groups     1.00 [ -0.00]( 2.11)     1.01 [ -1.08]( 2.60)\n"
	" 2-groups     1.00 [ -0.00]( 1.31)     1.01 [ -0.93]( 1.61)\n";
static const char amd_pct[] =
	"NPS1\n"
	"Clients: tip (5531ecffa4b9)      tip (7e9518baed4c)\n"
	"    1    573.26 (0.00 pct)       550.66 (-3.94 pct)\n"
	"  128    32449.37 (0.00 pct)     5175.73 (-84.04 pct) *\n";
static const char lkp[] =
	"c2daff748f0ea954 bdfcae11403e5099769a7c8dc32\n"
	"---------------- ---------------------------\n"
	"          %stddev     %change         %stddev\n"
	"              \\          |                \\\n"
	"     161714 \xc2\xb1  2%     -37.0%     101819 \xc2\xb1  2%  "
	"will-it-scale.per_thread_ops\n";
static const char mmtests[] =
	"hackbench-process-pipes\n"
	"                          5.17.0-rc0             5.17.0-rc0\n"
	"                             vanilla sched-scalewakegran-v5\n"
	"Amean     1        0.3360 (   0.00%)      0.3247 (   3.37%)\n"
	"Amean     12       1.7473 (   0.00%)      1.5793 *   9.61%*\n";
static const char matrix[] =
	"Arch      | commit eff6c8ce8d4d | Fork Result (lps)  |  %Cpu(s)\n"
	"----------+---------------------+--------------------+---------\n"
	"aarch64   | without             | 28677.0            |  3.2 us\n"
	"aarch64   | with                | 19860.7 (30% drop) |  2.7 us\n";
static const char matrix_tabs[] =
	"CFG_SCHED_AUTOGROUP | sched_ag_enabled | eff6c8ce8d4d | Fork (lps)\n"
	"\n"
	"   \ty\t             1\t\t   y            21005 (27120 **)\n"
	"\ty\t\t     0\t\t   y            21059 (27012 **)\n";
static const char simple[] =
	"    w/o patch\tw/ patch\n"
	"    21005\t27120\n";

/* A message: headers (date is "Day, d Mon yyyy hh:mm:ss +0000"), body. */
static void add_mail(struct strbuf *mb, const char *msgid, const char *from,
		     const char *date, const char *body)
{
	strbuf_addf(mb, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		    "From: %s\nMessage-ID: <%s>\nDate: %s\n"
		    "Subject: Re: [PATCH] sched: x\n\n%s\n", from, msgid,
		    date, body);
}

/* body with every line behind prefix ("> ", ">> ", "> > "). */
static char *quote(const char *prefix, const char *body)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = body;

	while (*p) {
		size_t n = strcspn(p, "\n");

		strbuf_addstr(&sb, prefix);
		strbuf_add(&sb, p, n);
		strbuf_addch(&sb, '\n');
		p += n + (p[n] == '\n');
	}
	return strbuf_detach(&sb, NULL);
}

static void scan_body(const char *body, struct tblfmt_scan *s)
{
	struct strbuf mb = STRBUF_INIT;

	add_mail(&mb, "one@x", "Tester <t@x>", "Mon, 1 Jan 2024 10:00:00 +0000",
		 body);
	tblfmt_scan_mbox(mb.buf, mb.len, s);
	strbuf_release(&mb);
}

static const struct {
	const char *body;
	int kind;
} kinds[] = {
	{ intel, TBLFMT_INTEL }, { amd, TBLFMT_AMD }, { amd_pct, TBLFMT_AMD },
	{ lkp, TBLFMT_LKP }, { mmtests, TBLFMT_MMTESTS },
	{ matrix, TBLFMT_MATRIX }, { matrix_tabs, TBLFMT_MATRIX },
	{ simple, TBLFMT_SIMPLE },
};

static void test_each_kind_unquoted(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct tblfmt_scan s = TBLFMT_SCAN_INIT;

		scan_body(kinds[i].body, &s);
		CHECK_INT(s.nr, 1);
		CHECK_INT(s.pick, kinds[i].kind);
		if (s.nr) {
			CHECK_INT(s.tables[0].depth, 0);
			CHECK(s.tables[0].counted);
			CHECK_STR(s.msgs[s.tables[0].msg].msgid, "one@x");
			CHECK_STR(s.msgs[s.tables[0].msg].author_name,
				  "Tester");
		}
		if (s.nr != 1 || s.pick != kinds[i].kind)
			printf("#   kind %zu (%s)\n", i,
			       tblfmt_name(kinds[i].kind));
		tblfmt_release(&s);
	}
}

static void test_each_kind_quoted(void)
{
	static const char *const prefixes[] = { "> ", ">> ", "> > ", ">>>" };
	static const int depth[] = { 1, 2, 2, 3 };
	size_t i, p;

	for (p = 0; p < ARRAY_SIZE(prefixes); p++)
		for (i = 0; i < ARRAY_SIZE(kinds); i++) {
			struct tblfmt_scan s = TBLFMT_SCAN_INIT;
			char *q = quote(prefixes[p], kinds[i].body);
			struct strbuf body = STRBUF_INIT;

			/* a quoted table, then the reply's own words */
			strbuf_addf(&body, "On Mon, someone wrote:\n%s\n"
				    "Thanks, looks good.\n", q);
			scan_body(body.buf, &s);
			CHECK_INT(s.nr, 1);
			/* its original is not in the thread: it counts */
			CHECK_INT(s.pick, kinds[i].kind);
			if (s.nr) {
				CHECK_INT(s.tables[0].depth, depth[p]);
				CHECK(s.tables[0].counted);
			}
			if (s.nr != 1 || s.pick != kinds[i].kind)
				printf("#   kind %zu prefix '%s'\n", i,
				       prefixes[p]);
			tblfmt_release(&s);
			strbuf_release(&body);
			free(q);
		}
}

static void test_not_tables(void)
{
	static const char *const bodies[] = {
		/* headers named in prose, no data row under them */
		"LKP's block starts with %stddev %change %stddev and then\n"
		"the rows; Intel uses baseline(std%) compare%(std%).\n"
		"Can you run w/ this debug snippet w/ and w/o AG enabled?\n",
		/* w/o and w/ in a sentence, a number on the next line */
		"I ran it w/o patch and w/ patch three times each:\n"
		"the numbers were 21005 and 27120.\n",
		/* code with '|', quoted or in a diff */
		"> \tflags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_WAKE;\n"
		"> \treturn 1;\n",
		"diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n"
		"@@ -1,3 +1,3 @@\n"
		"+ * case load baseline(std%) compare%(std%)\n"
		"+ * x | y | z\n"
		"+ * 1 | 2 | 3\n",
		/* the robot's box and its trailer lines */
		"+------------------+-----------------------------------+\n"
		"| testcase: change | will-it-scale: -30.0% regression |\n"
		"| test machine     | 104 threads 2 sockets (Skylake)  |\n"
		"+------------------+-----------------------------------+\n"
		"| Reported-by: kernel test robot <oliver.sang@intel.com>\n"
		"| Closes: https://lore.kernel.org/oe-lkp/2025-lkp@intel.com\n",
		/* a diffstat */
		" kernel/sched/core.c | 21 +++------------------\n"
		" kernel/sched/fair.c |  2 +-\n",
		/* an mmtests-like row that is no mean, alone */
		"Duration User        123.45 (  1.00%)     124.00 (  2.00%)\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bodies); i++) {
		struct tblfmt_scan s = TBLFMT_SCAN_INIT;

		scan_body(bodies[i], &s);
		CHECK_INT(s.nr, 0);
		CHECK_INT(s.pick, -1);
		if (s.nr)
			printf("#   body %zu: %s at line %zu\n", i,
			       tblfmt_name(s.tables[0].kind),
			       s.tables[0].line);
		tblfmt_release(&s);
	}
}

static void test_tables_in_one_mail(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf body = STRBUF_INIT;

	/* the Intel cover's four tables are four, one use */
	strbuf_addf(&body, "%s\nnetperf\n=======\n"
		    "case            \tload    \tbaseline(std%%)\t"
		    "compare%%( std%%)\n"
		    "TCP_RR          \t28 threads\t 1.00 (  0.81)\t"
		    " -0.13 (  0.80)\n\n%s", intel, amd);
	scan_body(body.buf, &s);
	CHECK_INT(s.nr, 3);
	CHECK_INT(s.uses[TBLFMT_INTEL], 1);
	CHECK_INT(s.uses[TBLFMT_AMD], 1);
	/* a tie of uses in one message: the first kind stays */
	CHECK_INT(s.pick, TBLFMT_INTEL);
	tblfmt_release(&s);
	strbuf_release(&body);
}

static void test_repeats_count_once(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf mb = STRBUF_INIT;
	char *q = quote("> ", simple), *qq = quote(">> ", simple);

	add_mail(&mb, "patch@x", "Dietmar <d@x>",
		 "Fri, 14 Mar 2025 16:13:45 +0100", simple);
	add_mail(&mb, "reply@x", "Vincent <v@x>",
		 "Sat, 15 Mar 2025 10:00:00 +0100", q);
	add_mail(&mb, "again@x", "Hagar <h@x>",
		 "Sun, 16 Mar 2025 10:00:00 +0100", qq);
	/* tip-bot copies the commit message, table and all */
	add_mail(&mb, "tip@x", "tip-bot2 <tip-bot2@x>",
		 "Mon, 17 Mar 2025 10:00:00 +0100", simple);
	tblfmt_scan_mbox(mb.buf, mb.len, &s);
	CHECK_INT(s.nr, 4);
	CHECK_INT(s.uses[TBLFMT_SIMPLE], 1);
	CHECK_INT(s.pick, TBLFMT_SIMPLE);
	CHECK_STR(s.msgs[s.pick_msg].msgid, "patch@x");
	CHECK_INT(s.tables[0].counted + s.tables[1].counted +
		  s.tables[2].counted + s.tables[3].counted, 1);
	CHECK(s.tables[0].counted);
	tblfmt_release(&s);
	strbuf_release(&mb);
	free(q);
	free(qq);
}

static void test_quoted_only_counts_for_earliest(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf mb = STRBUF_INIT;
	char *q = quote("> ", matrix), *qq = quote("> > ", matrix);

	/* in mbox order the later reply comes first */
	add_mail(&mb, "late@x", "Dietmar <d@x>",
		 "Mon, 3 Mar 2025 11:06:27 +0100", qq);
	add_mail(&mb, "early@x", "Hagar <h@x>",
		 "Fri, 7 Feb 2025 10:14:54 +0100", q);
	tblfmt_scan_mbox(mb.buf, mb.len, &s);
	CHECK_INT(s.nr, 2);
	CHECK_INT(s.uses[TBLFMT_MATRIX], 1);
	CHECK_STR(s.msgs[s.pick_msg].msgid, "early@x");
	tblfmt_release(&s);
	strbuf_release(&mb);
	free(q);
	free(qq);
}

static void test_pick_most_used_then_latest(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf mb = STRBUF_INIT;
	struct strbuf other = STRBUF_INIT;

	/* intel twice (different tables), amd once and later: intel */
	strbuf_addf(&other, "%s", intel);
	other.buf[strstr(other.buf, "1.50") - other.buf] = '9';
	add_mail(&mb, "i1@x", "Chen Yu <c@x>",
		 "Thu, 1 Dec 2022 16:43:46 +0800", intel);
	add_mail(&mb, "i2@x", "Chen Yu <c@x>",
		 "Fri, 2 Dec 2022 16:43:46 +0800", other.buf);
	add_mail(&mb, "a1@x", "Prateek <p@x>",
		 "Mon, 5 Dec 2022 10:00:00 +0530", amd);
	tblfmt_scan_mbox(mb.buf, mb.len, &s);
	CHECK_INT(s.uses[TBLFMT_INTEL], 2);
	CHECK_INT(s.uses[TBLFMT_AMD], 1);
	CHECK_INT(s.pick, TBLFMT_INTEL);
	CHECK_STR(s.msgs[s.pick_msg].msgid, "i2@x");
	tblfmt_release(&s);

	/* one use each: the latest by Date:, not by mbox order */
	strbuf_reset(&mb);
	add_mail(&mb, "a1@x", "Prateek <p@x>",
		 "Mon, 5 Dec 2022 10:00:00 +0530", amd);
	add_mail(&mb, "i1@x", "Chen Yu <c@x>",
		 "Thu, 1 Dec 2022 16:43:46 +0800", intel);
	tblfmt_scan_mbox(mb.buf, mb.len, &s);
	CHECK_INT(s.pick, TBLFMT_AMD);
	CHECK_STR(s.msgs[s.pick_msg].msgid, "a1@x");
	tblfmt_release(&s);

	/* no Date: the mbox order decides */
	strbuf_reset(&mb);
	strbuf_addf(&mb, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		    "From: A <a@x>\nMessage-ID: <n1@x>\n\n%s\n"
		    "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		    "From: B <b@x>\nMessage-ID: <n2@x>\n\n%s\n", amd, lkp);
	tblfmt_scan_mbox(mb.buf, mb.len, &s);
	CHECK_INT(s.pick, TBLFMT_LKP);
	CHECK_STR(s.msgs[s.pick_msg].msgid, "n2@x");
	tblfmt_release(&s);
	strbuf_release(&mb);
	strbuf_release(&other);
}

static void test_resolve(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	char *note = (char *)"unset";

	CHECK_STR(tblfmt_resolve("mmtests", "lkp", NULL, &note), "mmtests");
	CHECK(note == NULL);
	CHECK_STR(tblfmt_resolve("auto", "lkp", NULL, &note), "lkp");
	CHECK(note && strstr(note, "no thread"));
	free(note);
	scan_body("no tables here\n", &s);
	CHECK_STR(tblfmt_resolve("auto", "simple", &s, &note), "simple");
	CHECK(note && strstr(note, "no result tables"));
	free(note);
	tblfmt_release(&s);
	scan_body(amd, &s);
	CHECK_STR(tblfmt_resolve(NULL, "lkp", &s, &note), "amd");
	CHECK(note && strstr(note, "<one@x>") && strstr(note, "Tester"));
	free(note);
	CHECK_STR(tblfmt_resolve("", "lkp", &s, NULL), "amd");
	tblfmt_release(&s);
	CHECK_INT(tblfmt_from_name("matrix"), TBLFMT_MATRIX);
	CHECK_INT(tblfmt_from_name("plot"), -1);
	CHECK_INT(tblfmt_from_name(NULL), -1);
	CHECK_STR(tblfmt_name(TBLFMT_SIMPLE), "simple");
}

static void test_json(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf mb = STRBUF_INIT, out = STRBUF_INIT;
	struct json j;
	char *q = quote("> ", lkp);

	add_mail(&mb, "r@x", "Rong <r@x>", "Fri, 2 Oct 2020 08:33:11 +0000",
		 lkp);
	add_mail(&mb, "m@x", "Mathieu <m@x>",
		 "Wed, 7 Oct 2020 10:50:00 -0400", q);
	add_mail(&mb, "a@x", "\"Nayak, Prateek\" <p@x>",
		 "Thu, 8 Oct 2020 10:50:00 +0530", amd);
	tblfmt_scan_mbox(mb.buf, mb.len, &s);
	json_init(&j, &out, 0);
	json_object_begin(&j, NULL);
	tblfmt_json(&j, &s);
	json_object_end(&j);
	/* the quote of r@x is no entry; a tie, amd is later */
	CHECK_STR(out.buf, "{\"formats\":["
		  "{\"format\":\"lkp\",\"msgid\":\"r@x\",\"author\":"
		  "{\"name\":\"Rong\",\"email\":\"r@x\"},\"date\":"
		  "\"Fri, 2 Oct 2020 08:33:11 +0000\",\"tables\":1,"
		  "\"quoted\":false,\"chosen\":false},"
		  "{\"format\":\"amd\",\"msgid\":\"a@x\",\"author\":"
		  "{\"name\":\"Nayak, Prateek\",\"email\":\"p@x\"},"
		  "\"date\":\"Thu, 8 Oct 2020 10:50:00 +0530\",\"tables\":1,"
		  "\"quoted\":false,\"chosen\":true}]}");
	tblfmt_release(&s);
	strbuf_release(&mb);
	strbuf_release(&out);
	free(q);
}

static void test_hostile(void)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf body = STRBUF_INIT;
	size_t i;

	/* one line of 4 MiB: a header far past TBLFMT_LINE_MAX is unseen */
	for (i = 0; i < (4u << 20) / 8; i++)
		strbuf_addstr(&body, "abcdefg ");
	strbuf_addstr(&body, " %stddev %change %stddev\n161714 1\n");
	scan_body(body.buf, &s);
	CHECK_INT(s.nr, 0);
	tblfmt_release(&s);

	/* quote marks without end */
	strbuf_reset(&body);
	for (i = 0; i < 1u << 20; i++)
		strbuf_addstr(&body, "> ");
	strbuf_addstr(&body, "w/o patch\tw/ patch\n");
	scan_body(body.buf, &s);
	CHECK_INT(s.nr, 0);	/* no data row under it */
	tblfmt_release(&s);

	/* more tables than kept */
	strbuf_reset(&body);
	for (i = 0; i < TBLFMT_MAX_TABLES + 100; i++)
		strbuf_addf(&body, "w/o patch\tw/ patch\n%zu\t%zu\n\n", i, i);
	scan_body(body.buf, &s);
	CHECK_INT(s.nr, TBLFMT_MAX_TABLES);
	CHECK_INT(s.dropped, 100);
	CHECK_INT(s.uses[TBLFMT_SIMPLE], 1);
	tblfmt_release(&s);

	/* NUL bytes and no body at all */
	tblfmt_scan_mbox("From: a@x\n\n\0\0\0", 14, &s);
	CHECK_INT(s.nr, 0);
	tblfmt_release(&s);
	tblfmt_scan_mbox("", 0, &s);
	CHECK_INT(s.nr, 0);
	CHECK_INT(s.pick, -1);
	tblfmt_release(&s);
	strbuf_release(&body);
}

static void test_real_threads(void)
{
	static const struct {
		const char *file;
		int kind;
		const char *msgid;
		size_t uses;
	} threads[] = {
		{ "intake/short-task-wakeup-v3-complete.mbox", TBLFMT_INTEL,
		  "8a7f8f7fc92863a5bd823a5dbc2d3f8ede7ffb75.1669862147."
		  "git.yu.c.chen@intel.com", 1 },
		{ "intake/lkml/place-deadline-initial/thread-partial.mbox",
		  TBLFMT_AMD, "5b5c513c-92a8-d9eb-bc07-273518ed3280@amd.com",
		  1 },
		{ "format/lkp-will-it-scale-noise.mbox", TBLFMT_LKP,
		  "e2eb8ed0-1075-3c5d-207e-d218a59c2a9f@linux.intel.com", 2 },
		{ "intake/cgroups/sched-numa-stats-rfc.mbox", TBLFMT_MMTESTS,
		  "b2193c946639598e1c506a555afcfc0224f1cecf.1740483690."
		  "git.yu.c.chen@intel.com", 2 },
		{ "format/fork-matrix-autogroup.mbox", TBLFMT_MATRIX,
		  "5f92761b-c7d4-4b96-9398-183a5bf7556a@arm.com", 1 },
		{ "intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox",
		  TBLFMT_SIMPLE,
		  "20250314151345.275739-1-dietmar.eggemann@arm.com", 1 },
	};
	const char *top = getenv("TOP");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		struct tblfmt_scan s = TBLFMT_SCAN_INIT;
		char *path = xasprintf("%s/tests/data/%s", top ? top : ".",
				       threads[i].file);

		CHECK_INT(tblfmt_scan_file(path, &s), 0);
		CHECK_INT(s.pick, threads[i].kind);
		if (s.pick >= 0) {
			CHECK_STR(s.msgs[s.pick_msg].msgid, threads[i].msgid);
			CHECK_INT(s.uses[s.pick], threads[i].uses);
		}
		tblfmt_release(&s);
		free(path);
	}
}

int main(void)
{
	RUN(test_each_kind_unquoted);
	RUN(test_each_kind_quoted);
	RUN(test_not_tables);
	RUN(test_tables_in_one_mail);
	RUN(test_repeats_count_once);
	RUN(test_quoted_only_counts_for_earliest);
	RUN(test_pick_most_used_then_latest);
	RUN(test_resolve);
	RUN(test_json);
	RUN(test_hostile);
	RUN(test_real_threads);
	return test_done();
}
