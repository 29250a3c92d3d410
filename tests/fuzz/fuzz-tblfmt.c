// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-tblfmt.c - the table-format scan of a thread on arbitrary bytes:
 * mbox splitting, MIME decoding, quote prefixes, the classifier and the
 * counting, then the JSON and the pick it hands on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tblfmt.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tblfmt_scan s = TBLFMT_SCAN_INIT;
	struct strbuf out = STRBUF_INIT;
	struct json j;
	const char *f;
	size_t i, counted = 0, uses = 0;
	char *note;
	int k;

	tblfmt_scan_mbox((const char *)data, size, &s);
	if (s.nr > TBLFMT_MAX_TABLES)
		__builtin_trap();
	for (i = 0; i < s.nr; i++) {
		if (s.tables[i].msg >= s.nr_msgs ||
		    (unsigned)s.tables[i].kind >= TBLFMT_NR)
			__builtin_trap();
		counted += s.tables[i].counted;
	}
	for (k = 0; k < TBLFMT_NR; k++)
		uses += s.uses[k];
	/* every use is a counted table; a pick exactly when there is one */
	if (uses > counted || (s.pick >= 0) != (counted > 0))
		__builtin_trap();
	if (s.pick >= 0 && (s.pick_msg >= s.nr_msgs || !s.uses[s.pick]))
		__builtin_trap();
	f = tblfmt_resolve("auto", "lkp", &s, &note);
	if (!note || (s.pick >= 0 && tblfmt_from_name(f) != s.pick))
		__builtin_trap();
	free(note);
	json_init(&j, &out, 0);
	json_object_begin(&j, NULL);
	tblfmt_json(&j, &s);
	json_object_end(&j);
	if (out.len < 14 || strlen(out.buf) != out.len)
		__builtin_trap();
	strbuf_release(&out);
	tblfmt_release(&s);
	return 0;
}
