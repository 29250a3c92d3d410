// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-machsize.c - the size of a machine read from arbitrary bytes:
 * one sentence (machsize.h), then a whole thread planned with
 * matchReporter on an 8-CPU, 1024 MB target (plan.h), whose cut may
 * only go down and must name what it cut.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "lore.h"
#include "machsize.h"
#include "plan.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan_opts o = { .cpus = 8, .match_reporter = 1,
			       .mem_mb = 1024 };
	struct strbuf out = STRBUF_INIT;
	struct machsize m;
	struct plan p;
	size_t n = size < 4096 ? size : 4096;
	char *lc = xmalloc(n + 1);
	int r = machsize_parse((const char *)data, size, &m);
	static int configured;
	struct lore_opts lo;

	if (!configured) {
		/* plan_text() links the messages it cites on lore */
		lore_opts_from_config(&lo);
		lore_configure(&lo);
		configured = 1;
	}
	if (r != (m.cpus > 0) || m.cpus < 0 || m.cpus > MACHSIZE_CPUS_MAX)
		__builtin_trap();
	if (m.mem_mb && (m.mem_mb < MACHSIZE_MEM_MIN_MB ||
			 m.mem_mb > MACHSIZE_MEM_MAX_MB || !m.mem_word[0]))
		__builtin_trap();
	if (!m.mem_mb && m.mem_word[0])
		__builtin_trap();
	memcpy(lc, data, n);
	lc[n] = '\0';
	machsize_hint(lc);
	free(lc);

	plan_from_mbox((const char *)data, size, &o, &p);
	if (p.cut.cpus && (p.cut.cpus >= 8 || p.cpus != p.cut.cpus))
		__builtin_trap();
	if (!p.cut.cpus && p.cpus != 8)
		__builtin_trap();
	if (p.cut.mem_mb && p.cut.mem_mb >= 1024)
		__builtin_trap();
	if (!p.cut.words != !(p.cut.cpus || p.cut.mem_mb))
		__builtin_trap();
	if (p.cut.words && !p.cut.sentence)
		__builtin_trap();
	plan_text(&p, &out);
	if (strlen(out.buf) != out.len)
		__builtin_trap();
	strbuf_release(&out);
	plan_release(&p);
	return 0;
}
