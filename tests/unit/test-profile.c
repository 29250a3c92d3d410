// SPDX-License-Identifier: GPL-2.0
/*
 * test-profile.c - the profile block of a report: the functions whose
 * share changed most, self before children, a function one side did
 * not list counted 0 there, nothing without both sides.
 */
#include <stdlib.h>

#include "profile.h"
#include "test.h"

static void add(struct sample_set *set, const char *label, const char *metric,
		double v)
{
	struct sample s;

	sample_init(&s);
	s.label = (char *)label;
	s.workload = "spawn";
	s.params = "copies=2";
	s.run = 1;
	s.metric = (char *)metric;
	s.value = v;
	s.unit = "%cpu-clock";
	sample_set_add(set, &s);
}

static void test_block(void)
{
	struct sample_set set = { 0 };
	struct strbuf out = STRBUF_INIT;
	const char *event;

	add(&set, "base", "lps", 1000);
	add(&set, "base", "diag.profile.self.default_idle", 60);
	add(&set, "base", "diag.profile.self.copy_page", 5);
	add(&set, "base", "diag.profile.children.kernel_clone", 3);
	CHECK_INT(profile_block(&set, &out, &event), 0);
	CHECK_INT(out.len, 0);
	add(&set, "patched", "diag.profile.self.default_idle", 20);
	add(&set, "patched", "diag.profile.self.slow_fork_wait", 41.2);
	add(&set, "patched", "diag.profile.self.copy_page", 5.05);
	add(&set, "patched", "diag.profile.children.kernel_clone", 45);
	CHECK_INT(profile_block(&set, &out, &event), 3);
	CHECK_STR(event, "cpu-clock");
	CHECK_STR(out.buf,
		  "spawn copies=2:\n\n"
		  "    base   change  patched\n"
		  "    0.00   +41.20    41.20  perf-profile.self.cpu-clock."
		  "slow_fork_wait\n"
		  "   60.00   -40.00    20.00  perf-profile.self.cpu-clock."
		  "default_idle\n"
		  "    3.00   +42.00    45.00  perf-profile.children.cpu-clock."
		  "kernel_clone\n");
	sample_set_release(&set);
	strbuf_release(&out);
}

int main(void)
{
	RUN(test_block);
	return test_done();
}
