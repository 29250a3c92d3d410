// SPDX-License-Identifier: GPL-2.0
/*
 * test-mailpolicy.c - who gets which mail: each row of contrib/operating.md's
 * table, decided from the facts alone, with its Tested-by.
 */
#include <stdlib.h>
#include <string.h>

#include "mailpolicy.h"
#include "moderation.h"
#include "test.h"
#include "util.h"

static const char *const moderators[] = { "mod@kernel.example" };

/* bot.moderation and its moderators, reply.emulated. */
static void configure(const char *mode, int with_moderators,
		      const char *emulated)
{
	struct moderation_opts mo = {
		.mode = mode,
		.moderators = moderators,
		.nr_moderators = with_moderators ? 1 : 0,
		.hold_days = 7,
	};
	struct mailpolicy_opts po = {
		.emulated = emulated,
		.nr_moderators = with_moderators ? 1 : 0,
	};

	moderation_configure(&mo);
	mailpolicy_configure(&po);
}

/* The facts of a measured job on a target fit to vouch. */
static struct mail_facts measured(enum job_outcome outcome)
{
	struct mail_facts f = {
		.outcome = outcome,
		.target = "box",
		.fit = 1,
	};

	return f;
}

/* The decision's destination, Tested-by and reason, in one line. */
static char *decide(const struct mail_facts *f)
{
	struct mail_decision d;
	char *s;

	if (mailpolicy_decide(f, &d) < 0)
		return xstrdup("error");
	s = xasprintf("%s%s%s%s", mail_dest_name(d.dest),
		      d.tested_by ? " tested-by" : "", d.why ? ": " : "",
		      d.why ? d.why : "");
	mail_decision_release(&d);
	return s;
}

#define CHECK_DECIDES(f, want) do {					\
		char *got_ = decide(f);					\
		CHECK_STR(got_, want);					\
		free(got_);						\
	} while (0)

static void test_measured(void)
{
	struct mail_facts f = measured(JOB_TESTED);

	configure("none", 0, "outbox");
	CHECK_DECIDES(&f, "list tested-by");
	f = measured(JOB_REGRESSION);
	CHECK_DECIDES(&f, "list tested-by");
	f.align_failed = 1;
	CHECK_DECIDES(&f, "outbox: a regression the alignment control "
		      "could not check (an aligned kernel did not build)");
	configure("none", 1, "outbox");
	CHECK_DECIDES(&f, "moderators: a regression the alignment control "
		      "could not check (an aligned kernel did not build)");
}

static void test_not_fit(void)
{
	struct mail_facts f = measured(JOB_TESTED);

	f.fit = 0;
	f.target = "qemu";
	configure("none", 0, "outbox");
	CHECK_DECIDES(&f, "outbox: target qemu is not fit to vouch "
		      "(target.qemu.vouch)");
	configure("none", 1, "outbox");
	CHECK_DECIDES(&f, "moderators: target qemu is not fit to vouch "
		      "(target.qemu.vouch)");
}

static void test_emulated(void)
{
	struct mail_facts f = measured(JOB_REGRESSION);

	f.emulated = 1;
	f.fit = 0;
	configure("none", 1, "outbox");
	CHECK_DECIDES(&f, "outbox: emulated (QEMU TCG): its numbers say "
		      "nothing of the kernel (reply.emulated = outbox)");
	configure("none", 1, "author");
	CHECK_DECIDES(&f, "author: emulated (QEMU TCG): to the author only "
		      "(reply.emulated = author)");
	configure("none", 1, "list");
	CHECK_DECIDES(&f, "list");
	configure("none", 1, "lists");
	CHECK_DECIDES(&f, "error");
}

static void test_nothing_to_vouch(void)
{
	struct mail_facts f = measured(JOB_TESTED);

	configure("none", 1, "list");
	f.noisy = 1;
	CHECK_DECIDES(&f, "outbox: too noisy to call: nothing to vouch for");
	f = measured(JOB_TESTED);
	f.identical = 1;
	CHECK_DECIDES(&f, "outbox: identical binaries: nothing was measured");
	f = measured(JOB_TESTED);
	f.layout_only = 1;
	CHECK_DECIDES(&f, "outbox: a regression only in one code layout "
		      "(the alignment control did not see it)");
	f = measured(JOB_DUPLICATE);
	f.same_as = "/jobs/job-2";
	CHECK_DECIDES(&f, "outbox: a duplicate: its patches were tested as "
		      "/jobs/job-2");
}

static void test_failures(void)
{
	struct mail_facts f = measured(JOB_APPLY_FAILED);

	configure("none", 0, "outbox");
	f.base_desc = "HEAD (default base)";
	CHECK_DECIDES(&f, "outbox: an apply failure on HEAD (default base), "
		      "a base the series did not name");
	f.base_named = 1;
	CHECK_DECIDES(&f, "list");
	f = measured(JOB_BUILD_FAILED);
	f.failed_patched = 1;
	CHECK_DECIDES(&f, "list");
	f = measured(JOB_BOOT_FAILED);
	CHECK_DECIDES(&f, "outbox: the base kernel failed too: not the "
		      "patch's fault");
}

static void test_moderation(void)
{
	struct mail_facts f = measured(JOB_REGRESSION);

	configure("regressions", 1, "outbox");
	CHECK_DECIDES(&f, "moderators tested-by: bot.moderation holds a "
		      "regression");
	f = measured(JOB_TESTED);
	CHECK_DECIDES(&f, "list tested-by");
	/* what stays in the outbox is no moderator's business */
	f.noisy = 1;
	configure("all", 1, "outbox");
	CHECK_DECIDES(&f, "outbox: too noisy to call: nothing to vouch for");
	configure("all", 0, "outbox");
	f.noisy = 0;
	CHECK_DECIDES(&f, "error");
}

static void test_names(void)
{
	int d;

	for (d = MAIL_LIST; d <= MAIL_AUTHOR; d++)
		CHECK_INT(mail_dest_from_name(mail_dest_name(d)), d);
	CHECK_INT(mail_dest_from_name("lists"), -1);
	CHECK_INT(mail_dest_from_name(NULL), -1);
}

int main(void)
{
	RUN(test_measured);
	RUN(test_not_fit);
	RUN(test_emulated);
	RUN(test_nothing_to_vouch);
	RUN(test_failures);
	RUN(test_moderation);
	RUN(test_names);
	return test_done();
}
