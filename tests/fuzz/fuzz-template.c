// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-template.c - any text as a template (templates.h), expanded over
 * a small report document with kernels, blocks and rows, with and
 * without trimming.  Errors are fine; crashes, leaks and UB are not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "templates.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tmpl_rec d = TMPL_REC_INIT, *b;
	struct tmpl_opts o = { .name = "fuzz", .nr_kernels = 3 };
	struct strbuf out = STRBUF_INIT;
	char *text = xstrndup((const char *)data, size);
	int k, i;

	for (k = 0; k < 3; k++)
		tmpl_setkf(&d.vars, "label", k, "kernel-%d", k);
	kv_set(&d.vars, "verdict", "no significant change");
	for (i = 0; i < 2; i++) {
		b = tmpl_add(&d, "block");
		kv_set(&b->vars, "title", i ? "pingpong" : "spawn");
		kv_set(&b->vars, "empty", "");
		for (k = 0; k < 3; k++) {
			struct kv *row = &tmpl_add(b, "row")->vars;

			kv_setf(row, "name", "m%d\xc2\xb1", k);
			tmpl_setkf(row, "v", k, "%d", 10 * k + i);
		}
	}
	if (tmpl_expand(text, &d, &o, &out) == 0) {
		o.trim = 1;
		strbuf_reset(&out);
		if (tmpl_expand(text, &d, &o, &out) < 0)
			__builtin_trap();	/* the same text parsed once */
	}
	strbuf_reset(&out);
	tmpl_expand_kv(text, &d.vars, NULL, &out);
	strbuf_release(&out);
	tmpl_rec_release(&d);
	free(text);
	return 0;
}
