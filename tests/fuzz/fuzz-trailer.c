// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-trailer.c - trailer lines and b4's person matching.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trailer.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t l = nl ? (size_t)(nl - (const char *)data) : size;
	char *from = nl ? xstrndup(nl + 1, size - l - 1) : xstrdup("");
	struct trailer t, u;

	if (trailer_parse((const char *)data, l, &t)) {
		char *f = trailer_format(&t);

		trailer_from_matches(&t, from, from);
		trailer_copy(&u, &t);
		if (!trailer_same(&t, &u))
			__builtin_trap();
		trailer_release(&u);
		free(f);
		trailer_release(&t);
	}
	free(from);
	return 0;
}
