// SPDX-License-Identifier: GPL-2.0
/*
 * test-mailcmd.c - "#sched-bot test" commands: who may send them, what
 * they may say, and that anything else runs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mailcmd.h"
#include "test.h"
#include "util.h"

static void parse(const char *from, const char *to, const char *body,
		  struct mailcmd_result *r)
{
	char *mail = xasprintf("From: Some One <%s>\nTo: %s\n"
			       "Cc: linux-kernel@vger.kernel.org\n"
			       "Subject: Re: [PATCH v3 0/2] x\n"
			       "Message-ID: <cmd1@example.org>\n"
			       "In-Reply-To: <p1@example.org>\n"
			       "References: <cover@example.org>\n"
			       " <p1@example.org>\n\n%s", from, to, body);

	mailcmd_parse(mail, strlen(mail), r);
	free(mail);
}

static void setup(void)
{
	config_set_override("bot.email", "bot@example.org");
	config_set_override("bot.allow", "dev@kernel.example");
	config_set_override("bot.knownWorkloads", "spawn,pingpong");
	config_set_override("bot.maxRuns", "20");
}

static void test_ok(void)
{
	struct mailcmd_result r;

	parse("Dev@Kernel.Example", "bot@example.org",
	      "> #sched-bot test quoted\nPlease:\n"
	      "#sched-bot test spawn,pingpong runs=7\n"
	      "  #sched-bot test\n", &r);
	CHECK_INT(r.status, MAILCMD_OK);
	CHECK_INT(r.nr, 2);
	CHECK_STR(r.sender, "dev@kernel.example");
	CHECK_STR(r.msgid, "cmd1@example.org");
	CHECK_STR(r.target, "cover@example.org");
	CHECK_STR(r.cmds[0].workloads, "spawn,pingpong");
	CHECK_INT(r.cmds[0].runs, 7);
	CHECK_STR(r.cmds[1].workloads, "");
	CHECK_INT(r.cmds[1].runs, 0);
	mailcmd_release(&r);
}

static void test_none(void)
{
	struct mailcmd_result r;

	parse("dev@kernel.example", "bot@example.org",
	      "> #sched-bot test\nthanks\n#sched-botnot a command\n", &r);
	CHECK_INT(r.status, MAILCMD_NONE);
	CHECK_INT(r.nr, 0);
	mailcmd_release(&r);
}

static void test_stranger(void)
{
	struct mailcmd_result r;

	parse("evil@attacker.example", "bot@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	CHECK_INT(r.nr, 0);
	CHECK(r.why && strstr(r.why, "bot.allow"));
	mailcmd_release(&r);
	/* allowed sender, but the bot is not addressed */
	parse("dev@kernel.example", "someone@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	CHECK_INT(r.nr, 0);
	mailcmd_release(&r);
	/* a whole domain */
	config_set_override("bot.allow", "@kernel.example");
	parse("other@kernel.example", "bot@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_OK);
	mailcmd_release(&r);
	parse("x@notkernel.example", "bot@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	mailcmd_release(&r);
	config_set_override("bot.allow", "dev@kernel.example");
}

static void test_bad_args(void)
{
	static const char *const bad[] = {
		"#sched-bot test runs=0\n",
		"#sched-bot test runs=21\n",
		"#sched-bot test runs=abc\n",
		"#sched-bot test runs=\n",
		"#sched-bot test rm-rf\n",
		"#sched-bot test spawn,,pingpong\n",
		"#sched-bot test ../../etc\n",
		"#sched-bot build\n",
		"#sched-bot test\n#sched-bot test\n#sched-bot test\n"
		"#sched-bot test\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mailcmd_result r;

		parse("dev@kernel.example", "bot@example.org", bad[i], &r);
		CHECK_INT(r.status, MAILCMD_ERROR);
		CHECK_INT(r.nr, 0);
		CHECK(r.why != NULL);
		mailcmd_release(&r);
	}
}

static void test_hostile(void)
{
	struct mailcmd_result r;
	const char *junk = "\x01\x02#sched-bot test\n\n\xff";

	mailcmd_parse(junk, strlen(junk), &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	mailcmd_release(&r);
	mailcmd_parse("", 0, &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	mailcmd_release(&r);
}

int main(void)
{
	TEST_NAME("test-mailcmd");
	setup();
	RUN(test_ok);
	RUN(test_none);
	RUN(test_stranger);
	RUN(test_bad_args);
	RUN(test_hostile);
	config_free();
	return test_done();
}
