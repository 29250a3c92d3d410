// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-mbox.c - the mbox splitter on arbitrary bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mbox.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbox mb;
	size_t i;

	mbox_split((const char *)data, size, &mb);
	for (i = 0; i < mb.nr; i++) {
		/* Every message is a C string of the length given. */
		if (strlen(mb.msgs[i].data) > mb.msgs[i].len)
			__builtin_trap();
		free(mbox_header(mb.msgs[i].data, mb.msgs[i].len, "Subject"));
	}
	mbox_release(&mb);
	return 0;
}
