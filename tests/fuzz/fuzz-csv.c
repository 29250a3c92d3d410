// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-csv - hostile results CSVs through the reader, the comparison
 * and every renderer: errors are fine, crashes, leaks and UB are not.
 */
#include <stddef.h>
#include <stdint.h>

#include "builtin/config-opts.h"
#include "compare.h"
#include "samples.h"
#include "templates.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = {
		"intel", "amd", "lkp", "mmtests", "matrix", "simple", "plot",
	};
	struct sample_set set = { 0 };
	struct compare_result r;
	struct compare_opts o;
	struct strbuf out = STRBUF_INIT;
	static int configured;
	size_t i;

	if (!configured) {
		/* the defaults, as the tool hands them down at start-up */
		struct compare_defaults cd;
		struct seq_defaults sd;
		struct tmpl_dirs td;

		compare_defaults_from_config(&cd);
		compare_configure(&cd);
		/* compare_run judges a paired family by a one-look plan */
		seq_defaults_from_config(&sd);
		seq_configure(&sd);
		tmpl_dirs_from_config(&td);
		tmpl_configure(&td);
		configured = 1;
	}

	if (samples_read_buf("fuzz.csv", (const char *)data, size, &set) < 0)
		goto out;
	compare_opts_init(&o);
	if (compare_run(&set, &o, &r) < 0)
		goto out;
	compare_json(&r, &out);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		compare_render(&r, formats[i], &out);
	compare_result_release(&r);
out:
	strbuf_release(&out);
	sample_set_release(&set);
	return 0;
}
