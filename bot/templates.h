/* SPDX-License-Identifier: GPL-2.0 */
/*
 * templates.h - where the files in templates/ are found, for the report
 * tables (render.c) and the mails (reply.c) alike.
 */
#ifndef SCHED_BOT_TEMPLATES_H
#define SCHED_BOT_TEMPLATES_H

/*
 * The path of templates/<file>: in the directory named by config key
 * (may be NULL), else templates.dir, else $SCHED_BOT_TEMPLATES; without
 * any of them, next to the binary (../share/sched-bot/templates when
 * installed, the source tree's templates/ when run from build/), else
 * ./templates.  NULL, with an error printed, when it is not there.
 */
char *template_path(const char *file, const char *key);

struct kv;
struct strbuf;

/*
 * Expand tmpl into out: {{var}} is var's value (empty when unset),
 * {{#if var}}...{{else}}...{{/if}} keeps one branch, depending on
 * whether var is set and non-empty; they nest.  -1 with an error on an
 * unbalanced {{#if}}.
 */
int template_expand(const char *tmpl, const struct kv *v,
		    struct strbuf *out);

#endif
