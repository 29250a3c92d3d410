// SPDX-License-Identifier: GPL-2.0
/*
 * benchcalc.c - UnixBench pass aggregation and will-it-scale averaging.
 */
#include <math.h>
#include <stdlib.h>

#include "benchcalc.h"

int ub_short_passes(int iterations)
{
	int p = (iterations + 1) / 3;

	return p < 1 ? 1 : p;
}

int ub_aggregate(struct ub_pass *passes, int nr, struct ub_result *res)
{
	int i, j, drop = nr / 3, kept = 0;
	double logsum = 0, tsum = 0;
	int *order;

	res->score = 0;
	res->time = 0;
	res->kept = 0;
	if (nr <= 0)
		return -1;
	order = malloc(nr * sizeof(*order));
	if (!order)
		return -1;
	/* Stable insertion sort by count: ties drop the earlier pass, as
	 * Perl's sort (stable merge sort) does in Run.
	 */
	for (i = 0; i < nr; i++) {
		for (j = i; j > 0 && passes[order[j - 1]].count >
				     passes[i].count; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < nr; i++)
		passes[order[i]].dropped = i < drop;
	free(order);
	for (i = 0; i < nr; i++) {
		if (passes[i].dropped)
			continue;
		if (passes[i].count <= 0 || passes[i].elapsed <= 0)
			return -1;
		logsum += log(passes[i].count / passes[i].elapsed);
		tsum += passes[i].elapsed;
		kept++;
	}
	res->score = exp(logsum / kept);
	res->time = tsum / kept;
	res->kept = kept;
	return 0;
}

int wis_average(const unsigned long long *totals, int nr, int warmup,
		unsigned long long *average)
{
	unsigned long long sum = 0;
	int i, n = 0;

	*average = 0;
	for (i = warmup; i < nr; i++) {
		sum += totals[i];
		n++;
	}
	if (!n)
		return 0;
	*average = sum / n;
	return n;
}
