// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-lore.c - lore's parsers of hostile input: message-ids and lore
 * URLs from the command line or from mail, and gzip from the network.
 * The first byte picks the target.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "lore.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT;
	const char *why;
	char *s, *id, *q;
	static int configured;
	struct lore_opts lo;

	if (!configured) {
		/* handed down as the tool does at start-up */
		lore_opts_from_config(&lo);
		lore_configure(&lo);
		configured = 1;
	}
	if (!size)
		return 0;
	if (data[0] & 1) {
		s = xstrndup((const char *)data + 1, size - 1);
		id = lore_msgid_from_arg(s);
		if (id) {
			/* an accepted id is safe in a URL path */
			q = lore_quote_msgid(id);
			if (strchr(q, '/') || strchr(q, ' ') || !*q)
				abort();
			free(q);
			free(id);
		}
		free(s);
		return 0;
	}
	if (!gunzip_mem(data + 1, size - 1, 1 << 20, &out, &why))
		lore_mbox_count(out.buf, out.len);
	else if (!why)
		abort();
	strbuf_release(&out);
	return 0;
}
