// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-console.c - the console frame parser and the row conversion on
 * arbitrary bytes: whatever a guest prints, never a crash; and the same
 * bytes as a LAVA job's log, kept within a budget and a line bound.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target/console.h"
#include "target/lava.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a lab's log, read in two chunks, kept within max. */
static void lava_log_bounded(const char *data, size_t size)
{
	struct lava_log log = { .console = STRBUF_INIT };
	size_t half = size / 2, used, i;
	const char *p;

	log.max = 1 + size % 4096;
	/* a chunk's partial last line is read again with the next one */
	used = 0;
	for (p = data, i = 0; i < half; i++)
		if (p[i] == '\n')
			used = i + 1;
	lava_log_feed(&log, data, half);
	lava_log_feed(&log, data + used, size - used);
	if (log.console.len > log.max)
		abort();
	/* every kept line fits the line bound */
	for (p = log.console.buf; p < log.console.buf + log.console.len;) {
		const char *nl = memchr(p, '\n', log.console.buf +
					log.console.len - p);

		if (!nl || nl - p > CONSOLE_LINE_MAX)
			abort();
		p = nl + 1;
	}
	if (log.cut && log.seen <= log.max)
		abort();
	lava_log_release(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct console_result r;
	struct sample_set set = { 0 };
	struct strbuf tail = STRBUF_INIT;
	const char *p;
	size_t col = 0;

	console_parse((const char *)data, size, size & 1, &r);
	if (r.status == CONSOLE_OK)
		console_to_samples(&r, "fuzz", "qemu", &set);
	sample_set_release(&set);
	console_result_release(&r);
	/* the tail a reply shows: printable, its lines within the bound */
	console_tail((const char *)data, size, 30, &tail);
	for (p = tail.buf; *p; p++) {
		if (*p == '\n') {
			col = 0;
			continue;
		}
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f ||
		    ++col > CONSOLE_LINE_MAX + 3)
			abort();
	}
	strbuf_release(&tail);
	lava_log_bounded((const char *)data, size);
	return 0;
}
