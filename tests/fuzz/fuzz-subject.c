// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-subject.c - Subject: parsing, and a whole series built from a
 * fuzzed thread (the subject decides what is a patch).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct subject_info si;
	struct series s;
	char *str = xstrndup((const char *)data, size);

	subject_parse(str, &si);
	if (si.index < 0 || si.total < 0 || si.version < 1)
		__builtin_trap();
	subject_release(&si);
	free(str);
	if (!series_from_mbox((const char *)data, size, 0, NULL, &s)) {
		free(series_slug(&s));
		series_release(&s);
	}
	return 0;
}
