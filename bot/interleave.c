// SPDX-License-Identifier: GPL-2.0
/*
 * interleave.c - the A B A B order of interleave.h.
 */
#include "interleave.h"

void interleave_init(struct interleave *it, int runs, size_t nr, int first)
{
	it->runs = runs;
	it->nr = nr;
	it->run = first;
	it->i = 0;
	it->started = 0;
}

int interleave_next(struct interleave *it)
{
	if (!it->nr)
		return 0;
	if (it->started && ++it->i == it->nr) {
		it->i = 0;
		it->run++;
	}
	it->started = 1;
	return it->run <= it->runs;
}

void interleave_last_run(struct interleave *it)
{
	if (it->runs > it->run)
		it->runs = it->run;
}
