// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-console.c - the console frame parser and the row conversion on
 * arbitrary bytes: whatever a guest prints, never a crash.
 */
#include <stddef.h>
#include <stdint.h>

#include "target/console.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct console_result r;
	struct sample_set set = { 0 };

	console_parse((const char *)data, size, size & 1, &r);
	if (r.status == CONSOLE_OK)
		console_to_samples(&r, "fuzz", "qemu", &set);
	sample_set_release(&set);
	console_result_release(&r);
	return 0;
}
