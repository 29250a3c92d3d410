// SPDX-License-Identifier: GPL-2.0
/*
 * target/common.c - from a transcript of init's frames to rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-keys.h"
#include "config.h"
#include "target/common.h"

char *target_workdir(const struct boot_req *req)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (req->workdir) {
		if (mkdir_p(req->workdir, 0755) < 0) {
			error("cannot create %s: %s", req->workdir,
			      strerror(errno));
			return NULL;
		}
		return xstrdup(req->workdir);
	}
	dir = xasprintf("%s/sched-bot-boot.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		error("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

int target_finish(const char *name, const struct boot_req *req,
		  const char *buf, size_t len, int timed_out,
		  struct boot_res *res)
{
	struct console_result c;
	const char *release;

	console_parse(buf, len, timed_out, &c);
	res->status = c.status;
	res->last_lines = xstrdup(c.last_lines);
	release = console_info(&c, "release");
	if (release)
		res->kernel = xstrdup(release);
	if (c.status == CONSOLE_OK &&
	    console_to_samples(&c, req->label, name, &res->samples) < 0) {
		res->status = CONSOLE_CORRUPT;
		res->reason = xstrdup("the workloads' output is not result "
				      "rows");
	} else if (c.status == CONSOLE_OK && !res->samples.nr) {
		res->status = CONSOLE_FAILED;
		res->reason = xstrdup("the workloads printed no result rows");
	} else if (c.reason) {
		res->reason = xstrdup(c.reason);
	}
	console_result_release(&c);
	return res->status == CONSOLE_OK ? 0 : 1;
}

/*
 * The table of config-keys.c holds the defaults; def is the caller's
 * copy, used only for a key the table leaves to the code (a computed
 * default), and a def that disagrees with the table is a bug.
 */
static void __attribute__((noreturn)) bad_default(const char *k,
						  const char *def,
						  const char *table)
{
	fprintf(stderr, "BUG: %s: default '%s' in the code, '%s' in "
		"bot/config-keys.c\n", k, def ? def : "(none)", table);
	abort();
}

const char *target_cfg(const char *name, const char *key, const char *def)
{
	char *k = target_key(name, key);
	const struct config_key *t = config_key_find(k);
	const char *v = config_get(k);

	if (t->def && (!def || strcmp(def, t->def)))
		bad_default(k, def, t->def);
	free(k);
	return v ? v : def;
}

long target_cfg_int(const char *name, const char *key, long def)
{
	char *k = target_key(name, key);
	const struct config_key *t = config_key_find(k);
	char *d;
	long v;

	if (t && t->def) {
		d = xasprintf("%ld", def);
		if (strcmp(d, t->def))
			bad_default(k, d, t->def);
		free(d);
		v = config_get_int(k);
	} else {
		v = config_get_int_or(k, def);
	}
	free(k);
	return v;
}
