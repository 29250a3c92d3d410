// SPDX-License-Identifier: GPL-2.0
/*
 * test-interleave.c - the A B A B order every series of runs follows.
 */
#include "interleave.h"
#include "test.h"
#include "util.h"

/* The steps of a series as "run:item" words. */
static void steps(struct interleave *it, int stop_at_run, size_t stop_at,
		  struct strbuf *out)
{
	while (interleave_next(it)) {
		strbuf_addf(out, "%s%d:%zu", out->len ? " " : "", it->run,
			    it->i);
		if (it->run == stop_at_run && it->i == stop_at)
			interleave_last_run(it);
	}
}

static void test_order(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct interleave it;

	interleave_init(&it, 3, 2, 1);
	steps(&it, 0, 0, &sb);
	CHECK_STR(sb.buf, "1:0 1:1 2:0 2:1 3:0 3:1");
	/* done stays done */
	CHECK_INT(interleave_next(&it), 0);
	strbuf_reset(&sb);
	/* resumed at run 3 of 4 */
	interleave_init(&it, 4, 3, 3);
	steps(&it, 0, 0, &sb);
	CHECK_STR(sb.buf, "3:0 3:1 3:2 4:0 4:1 4:2");
	strbuf_reset(&sb);
	/* a failure in run 2 lets run 2 finish, then stops */
	interleave_init(&it, 5, 3, 1);
	steps(&it, 2, 0, &sb);
	CHECK_STR(sb.buf, "1:0 1:1 1:2 2:0 2:1 2:2");
	strbuf_release(&sb);
}

static void test_empty(void)
{
	struct interleave it;

	interleave_init(&it, 3, 0, 1);
	CHECK_INT(interleave_next(&it), 0);
	interleave_init(&it, 0, 4, 1);
	CHECK_INT(interleave_next(&it), 0);
	interleave_init(&it, 2, 4, 3);
	CHECK_INT(interleave_next(&it), 0);
	interleave_init(&it, 1, 1, 1);
	CHECK_INT(interleave_next(&it), 1);
	CHECK_INT(it.run, 1);
	CHECK_INT(it.i, 0);
	CHECK_INT(interleave_next(&it), 0);
}

int main(void)
{
	TEST_NAME("test-interleave");
	RUN(test_order);
	RUN(test_empty);
	return test_done();
}
