/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test.h - unit-test helpers.  A test is a function; it passes when every
 * CHECK in it holds.  main() calls RUN() for each and returns test_done().
 * Output is TAP-like, with the summary line tests/run-tests counts.
 */
#ifndef SCHED_BOT_TEST_H
#define SCHED_BOT_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_failed_checks;
static int test_nr, test_pass, test_fail;
/* Named after the test file unless TEST_NAME() says otherwise. */
static const char *test_name_ = __BASE_FILE__;

#define CHECK(cond) do {						\
		if (!(cond)) {						\
			printf("#   %s:%d: CHECK(%s) failed\n",	\
			       __FILE__, __LINE__, #cond);		\
			test_failed_checks++;				\
		}							\
	} while (0)

#define CHECK_STR(a, b) do {						\
		const char *a_ = (a), *b_ = (b);			\
		if (!a_ || !b_ || strcmp(a_, b_)) {			\
			printf("#   %s:%d: '%s' != '%s' (%s vs %s)\n",	\
			       __FILE__, __LINE__, a_ ? a_ : "(null)",	\
			       b_ ? b_ : "(null)", #a, #b);		\
			test_failed_checks++;				\
		}							\
	} while (0)

#define CHECK_INT(a, b) do {						\
		long long a_ = (long long)(a), b_ = (long long)(b);	\
		if (a_ != b_) {						\
			printf("#   %s:%d: %lld != %lld (%s vs %s)\n",	\
			       __FILE__, __LINE__, a_, b_, #a, #b);	\
			test_failed_checks++;				\
		}							\
	} while (0)

#define CHECK_NEAR(a, b, eps) do {					\
		double a_ = (a), b_ = (b);				\
		if (!(fabs(a_ - b_) <= (eps))) {			\
			printf("#   %s:%d: %.10g != %.10g +- %g (%s)\n", \
			       __FILE__, __LINE__, a_, b_, (double)(eps), #a); \
			test_failed_checks++;				\
		}							\
	} while (0)

#define RUN(fn) test_run_(#fn, fn)

static inline void test_run_(const char *name, void (*fn)(void))
{
	int before = test_failed_checks;

	fn();
	test_nr++;
	if (test_failed_checks == before) {
		test_pass++;
		printf("ok %d - %s\n", test_nr, name);
	} else {
		test_fail++;
		printf("not ok %d - %s\n", test_nr, name);
	}
}

static inline int test_done(void)
{
	const char *name = strrchr(test_name_, '/');
	int len;

	name = name ? name + 1 : test_name_;
	len = (int)strcspn(name, ".");
	printf("# %.*s: passed %d failed %d skipped 0\n", len, name,
	       test_pass, test_fail);
	return test_fail ? 1 : 0;
}

#define TEST_NAME(n) (test_name_ = (n))

#endif
