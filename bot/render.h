/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - a tiny table template language for `compare`'s reports.
 *
 * C code (render.c) turns a compare_result into a document: global
 * variables, blocks (one table each) with their own variables, and rows
 * of named cells.  A template (templates/report-<format>.txt) decides the
 * layout.  Template syntax, line by line:
 *
 *   ## text           a comment, never printed
 *   [header] [block] [row] [blockend] [footer]
 *                     start a section: header once, then for every block
 *                     its [block] lines, a [row] line set per row and its
 *                     [blockend] lines, then footer once
 *   ?line             printed only if every placeholder in it is non-empty
 *
 * Placeholders, anywhere in a line ("{{" prints "{"):
 *   {name}            the value: a row cell, else a block, else a global var
 *   {name<N} {name>N} the value left/right aligned in its column: the
 *                     column is as wide as N, its widest value in the block
 *                     and its widest header text (next form)
 *   {name<N|Text}     Text (or, for |$var, that variable's value) aligned
 *                     in name's column: column headers
 *   {name=c}          the character c repeated over name's column width
 *                     (or over the length of the variable name): rules
 *   [[ ... ]]         repeated for each compared kernel (all but the
 *                     baseline); inside, a name is looked up for that
 *                     kernel first.  Outside, kernel-specific names mean
 *                     the baseline.
 * Widths count characters, not bytes (UTF-8 "±" is one column).  Trailing
 * blanks are stripped from every line.
 */
#ifndef SCHED_BOT_RENDER_H
#define SCHED_BOT_RENDER_H

#include <stddef.h>

#include "util.h"

/* A named value; k is the kernel index or -1 when not kernel-specific. */
struct rcell {
	char *name;
	int k;
	char *val;
};

struct rvars {
	struct rcell *v;
	size_t nr, alloc;
};

struct rblock {
	struct rvars vars;
	struct rvars *rows;
	size_t nr, alloc;
};

struct rdoc {
	struct rvars vars;
	struct rblock *b;
	size_t nr, alloc;
	int nr_kernels;
};

void rvars_set(struct rvars *v, const char *name, int k, const char *fmt,
	       ...) __attribute__((format(printf, 4, 5)));
struct rblock *rdoc_block(struct rdoc *d);
struct rvars *rblock_row(struct rblock *b);
void rdoc_release(struct rdoc *d);

/* Expand template text over doc into out; -1 on a syntax error. */
int render_template_text(const char *name, const char *tmpl,
			 const struct rdoc *doc, struct strbuf *out);

/* Load templates/report-<format>.txt and expand it. */
int render_template(const char *format, const struct rdoc *doc,
		    struct strbuf *out);

#endif
