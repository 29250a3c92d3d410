// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-bench-output: sched-bench output as it may arrive from a serial
 * console or a hostile machine over ssh.  Rows that come out must be
 * complete (a metric, a finite value).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct run_meta meta = { .label = "fuzz" };
	struct sample_set set = { 0 };
	size_t i;

	run_parse_bench_output((const char *)data, size, &meta, &set);
	for (i = 0; i < set.nr; i++)
		if (!set.v[i].metric || !isfinite(set.v[i].value))
			abort();
	sample_set_release(&set);
	return 0;
}
