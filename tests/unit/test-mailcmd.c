// SPDX-License-Identifier: GPL-2.0
/*
 * test-mailcmd.c - "#sched-bot test" commands: who may send them, what
 * they may say, and that anything else runs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "config.h"
#include "dkim.h"
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

/* An override as the tool would hand it down: read at the top again. */
static void set(const char *key, const char *value)
{
	struct mailcmd_opts o;

	config_set_override(key, value);
	mailcmd_opts_from_config(&o);
	mailcmd_configure(&o);
}

static void setup(void)
{
	set("bot.email", "bot@example.org");
	set("bot.allow", "dev@kernel.example");
	set("bot.knownWorkloads", "spawn,pingpong");
	set("bot.maxRuns", "20");
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
	set("bot.allow", "@kernel.example");
	parse("other@kernel.example", "bot@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_OK);
	mailcmd_release(&r);
	parse("x@notkernel.example", "bot@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	mailcmd_release(&r);
	set("bot.allow", "dev@kernel.example");
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

/* release and invalid: moderators only, alone, invalid with a reason */
static void test_moderation(void)
{
	static const char *const bad[] = {
		"#sched-bot invalid\n",
		"#sched-bot invalid   \n",
		"#sched-bot release now\n",
		"#sched-bot release\n#sched-bot test spawn\n",
		"#sched-bot test spawn\n#sched-bot invalid noise\n",
		"#sched-bot invalid caf\xc3\xa9 noise\n",
	};
	struct mailcmd_result r;
	char *long_reason;
	size_t i;

	set("bot.moderators", "mod@kernel.example");
	parse("Mod@Kernel.Example", "bot@example.org",
	      "> #sched-bot invalid quoted\n#sched-bot release\n", &r);
	CHECK_INT(r.status, MAILCMD_OK);
	CHECK_INT(r.nr, 1);
	CHECK(r.moderating);
	CHECK_INT(r.cmds[0].verb, MAILCMD_RELEASE);
	mailcmd_release(&r);
	parse("mod@kernel.example", "bot@example.org",
	      "#sched-bot invalid  a noisy host, run again \r\n", &r);
	CHECK_INT(r.status, MAILCMD_OK);
	CHECK_INT(r.cmds[0].verb, MAILCMD_INVALID);
	CHECK_STR(r.cmds[0].reason, "a noisy host, run again");
	mailcmd_release(&r);
	/* bot.allow lets no one moderate, bot.moderators no one test */
	parse("dev@kernel.example", "bot@example.org",
	      "#sched-bot release\n", &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	CHECK(r.why && strstr(r.why, "bot.moderators"));
	mailcmd_release(&r);
	parse("mod@kernel.example", "bot@example.org",
	      "#sched-bot test spawn\n", &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	CHECK(r.why && strstr(r.why, "bot.allow"));
	mailcmd_release(&r);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		parse("mod@kernel.example", "bot@example.org", bad[i], &r);
		CHECK_INT(r.status, MAILCMD_ERROR);
		CHECK_INT(r.nr, 0);
		CHECK(r.why != NULL);
		mailcmd_release(&r);
	}
	long_reason = xasprintf("#sched-bot invalid %0*d\n",
				MAILCMD_MAX_REASON + 1, 0);
	parse("mod@kernel.example", "bot@example.org", long_reason, &r);
	CHECK_INT(r.status, MAILCMD_ERROR);
	mailcmd_release(&r);
	free(long_reason);
	set("bot.moderators", "");
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

/* The sender as RFC 5322 parses it, not as a string search finds it. */
static void test_from_parsing(void)
{
	static const struct {
		const char *from;
		const char *addr;	/* NULL: refused */
	} cases[] = {
		{ "Dev <Dev@Kernel.Example>", "dev@kernel.example" },
		{ "dev@kernel.example", "dev@kernel.example" },
		{ "\"Dev, Jr.\" <dev@kernel.example>", "dev@kernel.example" },
		{ "dev@kernel.example (Dev)", "dev@kernel.example" },
		{ "evil@evil.example@intel.com", NULL },
		{ "<evil@evil.example@intel.com>", NULL },
		{ "\"dev@intel.com\" <evil@evil.example>", "evil@evil.example" },
		{ "dev@intel.com <evil@evil.example>", "evil@evil.example" },
		{ "a@intel.com, b@evil.example", NULL },
		{ "\"a@b\"@intel.com", NULL },
		{ "dev@intel.com.", NULL },
		{ "dev@-intel.com", NULL },
		{ "dev@intel", NULL },
		{ "", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *domain = NULL, *why = NULL;
		char *a = mailcmd_parse_from(cases[i].from, &domain, &why);

		if (cases[i].addr) {
			if (!a)
				printf("# '%s': %s\n", cases[i].from, why);
			CHECK_STR(a, cases[i].addr);
			CHECK(domain && !strcmp(domain,
						strchr(cases[i].addr, '@') + 1));
		} else {
			if (a)
				printf("# '%s' gave '%s'\n", cases[i].from, a);
			CHECK(a == NULL);
			CHECK(why != NULL);
		}
		free(a);
		free(domain);
		free(why);
	}
	/* an @domain rule is that domain, as parsed */
	set("bot.allow", "@intel.com");
	CHECK(mailcmd_allowed("dev@intel.com"));
	CHECK(!mailcmd_allowed("evil@evil.example@intel.com"));
	CHECK(!mailcmd_allowed("dev@notintel.com"));
	CHECK(!mailcmd_allowed("dev@sub.intel.com"));
	set("bot.allow", "dev@kernel.example");
}

/* Two From: headers: which one would a reader see?  Neither counts. */
static void test_two_froms(void)
{
	struct mailcmd_result r;
	const char *mail = "From: dev@kernel.example\n"
			   "From: evil@attacker.example\n"
			   "To: bot@example.org\n"
			   "Message-ID: <two@x>\n"
			   "References: <cover@example.org>\n\n"
			   "#sched-bot test spawn\n";

	mailcmd_parse(mail, strlen(mail), &r);
	CHECK_INT(r.status, MAILCMD_IGNORED);
	CHECK(r.why && strstr(r.why, "From"));
	mailcmd_release(&r);
}

/* One copy of each header a command is read from, or nothing counts. */
static void test_doubled_headers(void)
{
	static const char *const kinds[] = {
		"Message-ID: <new@attacker.example>",
		"In-Reply-To: <other@example.org>",
		"References: <other@example.org>",
		"Subject: Re: another thread",
		"Date: Thu, 1 Dec 2022 10:00:00 +0000",
		"From: dev@kernel.example",
		/* the name as DKIM reads it: case and blanks do not matter */
		"message-id : <new@attacker.example>",
		"REFERENCES:\t<other@example.org>",
	};
	static const char *const names[] = {
		"Message-ID", "In-Reply-To", "References", "Subject", "Date",
		"From", "Message-ID", "References",
	};
	const char *base = "From: dev@kernel.example\n"
			   "To: bot@example.org\n"
			   "Subject: Re: [PATCH v3 0/2] x\n"
			   "Date: Thu, 1 Dec 2022 09:00:00 +0000\n"
			   "Message-ID: <cmd1@example.org>\n"
			   "In-Reply-To: <p1@example.org>\n"
			   "References: <cover@example.org>\n"
			   " <p1@example.org>\n\n"
			   "#sched-bot test spawn\n"
			   "Message-ID: <in-the-body@example.org>\n";
	size_t i;
	int n = 0;

	/* the genuine mail: each once (a body line is no header) */
	CHECK(mailcmd_doubled_header(base, strlen(base), &n) == NULL);
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		char *mail = xasprintf("%s\n%s", kinds[i], base);
		struct mailcmd_result r;

		n = 0;
		CHECK_STR(mailcmd_doubled_header(mail, strlen(mail), &n),
			  names[i]);
		CHECK_INT(n, 2);
		mailcmd_parse(mail, strlen(mail), &r);
		CHECK_INT(r.status, MAILCMD_IGNORED);
		CHECK_INT(r.nr, 0);
		CHECK(r.why && strstr(r.why, names[i]) &&
		      strstr(r.why, "2 "));
		mailcmd_release(&r);
		free(mail);
	}
	/* a folded line that looks like a header is part of the one before */
	{
		const char *folded = "From: dev@kernel.example\n"
				     "References: <cover@example.org>\n"
				     " Message-ID: <x@y>\n"
				     "Message-ID: <cmd1@example.org>\n\n";

		CHECK(mailcmd_doubled_header(folded, strlen(folded),
					     &n) == NULL);
	}
}

/*
 * public-inbox's second Message-ID on a mail whose first it holds
 * already: removed, and only that one; any other second Message-ID stays
 * (and is refused as doubled).
 */
static void test_archive_msgid(void)
{
	const char *head = "From: mod@kernel.example\n"
			   "Message-ID: <rel1@kernel.example>\n"
			   "Subject: Re: x\n";
	const char *pi = "Message-ID: <20261207180102.AbC-d_9@z>\n";
	const char *body = "\n#sched-bot release\n"
			   "Message-ID: <20261207180102.AbC-d_9@z>\n";
	const char *const others[] = {
		"Message-ID: <replay@attacker.example>\n",
		"Message-ID: <2026120718010.AbC@z>\n",
		"Message-ID: <20261207180102.AbC@z.example>\n",
		"Message-ID: <20261207180102.@z>\n",
	};
	char *mail = xasprintf("%s%s%s", head, pi, body);
	char *want = xasprintf("%s%s", head, body);
	size_t len = mailcmd_drop_archive_msgid(mail, strlen(mail)), i;

	CHECK_INT(len, strlen(want));
	CHECK_STR(mail, want);
	CHECK(mailcmd_doubled_header(mail, len, NULL) == NULL);
	/* once: nothing more to drop, the body untouched */
	CHECK_INT(mailcmd_drop_archive_msgid(mail, len), len);
	free(mail);
	/* its own Message-ID only: the header is no second copy */
	mail = xasprintf("From: a@b.example\n%s%s", pi, body);
	CHECK_INT(mailcmd_drop_archive_msgid(mail, strlen(mail)),
		  strlen(mail));
	free(mail);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		mail = xasprintf("%s%s%s", head, others[i], body);
		len = strlen(mail);
		CHECK_INT(mailcmd_drop_archive_msgid(mail, len), len);
		CHECK_STR(mailcmd_doubled_header(mail, len, NULL),
			  "Message-ID");
		free(mail);
	}
	free(want);
}

/* What a command's DKIM signature must sign: h= read as RFC 6376 says. */
static void test_signed_headers(void)
{
	static const char *const need[] = {
		"From", "Message-ID", "In-Reply-To", "References", "Date", NULL
	};

	CHECK(dkim_unsigned_header("from:to:cc:subject:date:message-id:"
				   "in-reply-to:references", need) == NULL);
	CHECK(dkim_unsigned_header("From : Date:\r\n\tMESSAGE-ID:"
				   "In-Reply-To:References", need) == NULL);
	CHECK_STR(dkim_unsigned_header("from:to:subject:date:message-id:"
				       "in-reply-to", need), "References");
	CHECK_STR(dkim_unsigned_header("from:date:message-id:references",
				       need), "In-Reply-To");
	CHECK_STR(dkim_unsigned_header("from:date:in-reply-to:references",
				       need), "Message-ID");
	CHECK_STR(dkim_unsigned_header("from:message-id:in-reply-to:"
				       "references", need), "Date");
	/* a name inside another does not count */
	CHECK_STR(dkim_unsigned_header("from:date:x-message-id:in-reply-to:"
				       "references:message-idx", need),
		  "Message-ID");
	CHECK_STR(dkim_unsigned_header("", need), "From");
	CHECK_STR(dkim_unsigned_header(NULL, need), "From");
	CHECK(dkim_unsigned_header(NULL, NULL) == NULL);
}

int main(void)
{
	TEST_NAME("test-mailcmd");
	setup();
	RUN(test_ok);
	RUN(test_none);
	RUN(test_stranger);
	RUN(test_bad_args);
	RUN(test_moderation);
	RUN(test_hostile);
	RUN(test_doubled_headers);
	RUN(test_archive_msgid);
	RUN(test_signed_headers);
	RUN(test_from_parsing);
	RUN(test_two_froms);
	config_free();
	return test_done();
}
