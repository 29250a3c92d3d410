/* SPDX-License-Identifier: GPL-2.0 */
/*
 * templates.h - the one template language, for compare's report tables
 * (templates/report-<format>.txt, filled by render.c) and the bot's
 * mails (templates/mail-<name>.md, filled by reply.c and job.c), and
 * where the files in templates/ are found.
 *
 * Text outside {{ }} is copied as it is.  Tags (blanks inside the
 * braces, around the content, do not matter):
 *
 *   {{name}}          the value of name; empty when it is not set.
 *                     Every value is outside text: its control
 *                     characters but \n and \t are printed as '?'
 *                     (strip_controls())
 *   {{#if name}} A {{else}} B {{/if}}
 *                     A when name is set and not empty, else B (the
 *                     {{else}} part is optional); nests
 *   {{#each list}} ... {{/each}}
 *                     the body once for each record of list (a block of
 *                     a report, then a row of that block); inside, a
 *                     name is looked up in the record first, then in
 *                     the records around it.  {{#each kernel}} repeats
 *                     its body for each compared kernel (every kernel
 *                     but the baseline, kernel 0); inside it a name is
 *                     looked up for that kernel first (next section)
 *   {{! text}}        a comment, never printed; may span lines
 *
 * A tag other than {{name}} alone on its line (at its start, its newline
 * right after the tag) takes the newline with it: it leaves no empty
 * line.  Nesting goes 16 deep.  Unbalanced or unknown tags are errors.
 *
 * Values for one kernel: the variable "name.K" (see tmpl_setkf) holds
 * name's value for kernel K.  Inside {{#each kernel}}, {{name}} means
 * name.K, else name; outside, name, else name.0 (the baseline).
 *
 * Columns, for tables:
 *   {{name<N}} {{name>N}}
 *                     the value left / right aligned in its column: the
 *                     column is as wide as N (may be left out), as its
 *                     widest header text (next form) and as its widest
 *                     value in a nested {{#each}} (the rows)
 *   {{name<N|Text}}   Text (or, for |$var, var's value) aligned in
 *                     name's column: column headers
 *   {{name=c}}        the character c (default -) repeated over name's
 *                     column width, or over the width of name's value
 *                     when name has no column: rules
 * Each record of a top-level {{#each}} is one table: it is expanded once
 * to measure its columns and once to print.  Widths count characters,
 * not bytes (UTF-8 "±" is one column).
 */
#ifndef SCHED_BOT_TEMPLATES_H
#define SCHED_BOT_TEMPLATES_H

#include <stddef.h>

#include "kv.h"
#include "util.h"

struct tmpl_list;

/* A record: its variables and the named lists of records under it. */
struct tmpl_rec {
	struct kv vars;
	struct tmpl_list *lists;
	size_t nr_lists, alloc_lists;
};

struct tmpl_list {
	char *name;
	struct tmpl_rec **v;
	size_t nr, alloc;
};

#define TMPL_REC_INIT { KV_INIT, NULL, 0, 0 }

/* Append a new, empty record to parent's list (created when new). */
struct tmpl_rec *tmpl_add(struct tmpl_rec *parent, const char *list);
/* The list, or NULL when parent has none of that name. */
const struct tmpl_list *tmpl_list(const struct tmpl_rec *parent,
				  const char *list);
void tmpl_rec_release(struct tmpl_rec *r);

/* Set name's value for kernel k: the variable "name.k". */
void tmpl_setkf(struct kv *v, const char *name, int k, const char *fmt, ...)
	PRINTF(4, 5);

struct tmpl_opts {
	const char *name;	/* the template, for error messages */
	int nr_kernels;		/* {{#each kernel}}: 1..nr_kernels-1 */
	int trim;		/* strip the blanks that end a line */
};

/*
 * Expand text over data into out (appended).  Returns 0, or -1 with an
 * error printed, and out as it was, when the template is malformed.
 */
int tmpl_expand(const char *text, const struct tmpl_rec *data,
		const struct tmpl_opts *o, struct strbuf *out);
/* The same over variables alone (a mail). */
int tmpl_expand_kv(const char *text, const struct kv *vars,
		   const struct tmpl_opts *o, struct strbuf *out);

/* The configured directory, filled in bot/builtin/ (config-opts.c). */
struct tmpl_dirs {
	const char *dir;	/* templates.dir, or NULL */
};

/* Before any template is found: tmpl_path() before it is a bug. */
void tmpl_configure(const struct tmpl_dirs *d);

/*
 * The path of templates/<file>: in dir (a caller's own configured
 * directory, may be NULL), else templates.dir, else
 * $SCHED_BOT_TEMPLATES; without any of them, next to the binary
 * (../share/sched-bot/templates when installed, the source tree's
 * templates/ when run from build/), else ./templates.  NULL, with an
 * error printed, when it is not there.
 */
char *tmpl_path(const char *file, const char *dir);
/* Read templates/<file> (found as tmpl_path does) into out; -1 if not. */
int tmpl_load(const char *file, const char *dir, struct strbuf *out);

#endif
