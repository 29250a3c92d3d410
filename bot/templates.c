// SPDX-License-Identifier: GPL-2.0
/*
 * templates.c - finding templates/ from the configuration or the binary.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "kv.h"
#include "templates.h"
#include "util.h"

char *template_path(const char *file, const char *key)
{
	/* installed; build/sched-bot; build/tests/unit and deeper */
	static const char *const rel[] = {
		"/../share/sched-bot/templates", "/../templates",
		"/../../templates", "/../../../templates",
	};
	const char *dir = key ? config_get(key) : NULL;
	char *exe, *p;
	size_t i;

	if (!dir || !*dir)
		dir = config_get("templates.dir");
	if (!dir || !*dir)
		dir = getenv("SCHED_BOT_TEMPLATES");
	if (dir && *dir) {
		p = xasprintf("%s/%s", dir, file);
		if (!access(p, R_OK))
			return p;
		error("template %s: %s", p, strerror(errno));
		free(p);
		return NULL;
	}
	exe = exe_dir();
	for (i = 0; exe && i < ARRAY_SIZE(rel); i++) {
		p = xasprintf("%s%s/%s", exe, rel[i], file);
		if (!access(p, R_OK)) {
			free(exe);
			return p;
		}
		free(p);
	}
	free(exe);
	p = xasprintf("templates/%s", file);
	if (!access(p, R_OK))
		return p;
	free(p);
	error("template %s not found (set templates.dir)", file);
	return NULL;
}

/* ---- expansion: {{var}}, {{#if var}}...{{else}}...{{/if}} ---- */

#define MAX_IF_DEPTH 16

struct if_frame {
	int parent;		/* was the enclosing text emitted */
	int cond;		/* the variable is set and non-empty */
	int in_else;
};

static int frame_emits(const struct if_frame *f)
{
	return f->parent && (f->in_else ? !f->cond : f->cond);
}

int template_expand(const char *tmpl, const struct kv *v,
		 struct strbuf *out)
{
	struct if_frame stack[MAX_IF_DEPTH];
	int depth = 0, emit = 1;
	const char *p = tmpl;

	while (*p) {
		const char *open = strstr(p, "{{"), *close;
		char *tag;

		if (!open) {
			if (emit)
				strbuf_addstr(out, p);
			break;
		}
		if (emit)
			strbuf_add(out, p, open - p);
		close = strstr(open + 2, "}}");
		if (!close)
			return error("template: '{{' without '}}'");
		tag = xstrndup_trim(open + 2, close - open - 2);
		p = close + 2;
		if (starts_with(tag, "#if ")) {
			const char *name = tag + 4, *val;

			while (isspace((unsigned char)*name))
				name++;
			val = kv_get(v, name);

			if (depth == MAX_IF_DEPTH) {
				free(tag);
				return error("template: {{#if}} nested too "
					     "deep");
			}
			stack[depth].parent = emit;
			stack[depth].cond = val && *val;
			stack[depth].in_else = 0;
			emit = frame_emits(&stack[depth++]);
		} else if (!strcmp(tag, "else")) {
			if (!depth) {
				free(tag);
				return error("template: {{else}} without "
					     "{{#if}}");
			}
			stack[depth - 1].in_else = 1;
			emit = frame_emits(&stack[depth - 1]);
		} else if (!strcmp(tag, "/if")) {
			if (!depth) {
				free(tag);
				return error("template: {{/if}} without "
					     "{{#if}}");
			}
			emit = stack[--depth].parent;
		} else if (emit) {
			const char *val = kv_get(v, tag);

			if (val)
				strbuf_addstr(out, val);
		}
		free(tag);
		/* A block tag alone on its line leaves no empty line. */
		if (*p == '\n' && (open == tmpl || open[-1] == '\n') &&
		    (open[2] == '#' || open[2] == '/' ||
		     !strncmp(open + 2, "else", 4)))
			p++;
	}
	if (depth)
		return error("template: {{#if}} without {{/if}}");
	return 0;
}
