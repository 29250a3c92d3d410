// SPDX-License-Identifier: GPL-2.0
/*
 * templates.c - finding templates/ from the configuration or the binary.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
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
