/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compiledout.h - which config options keep the lines a series changed
 * out of the build: the reason, nearly always, that its patched kernel's
 * code and data are the base's (identical binaries).
 *
 * For each hunk of base..head in a C source or header, the lines it
 * adds or leaves (deletions: the line after them) are read in the head
 * commit's file under the preprocessor conditionals around them; a
 * hunk is out when each of its code lines sits under an `#ifdef
 * CONFIG_X`, `#ifndef CONFIG_X`, `#if [!]defined(CONFIG_X)` or `#if
 * [!]IS_ENABLED(CONFIG_X)` (or its `#else`) that the config decides
 * against.  A changed file is out when its directory's Makefile builds
 * it only as `obj-$(CONFIG_X) += name.o` and the config leaves X unset.
 * Conditions of other forms (`&&`, `#elif`, values) count as unknown:
 * the lines under them are not said to be out.  All of it from the
 * tree and the config's text, nothing inferred from the binaries.
 */
#ifndef SCHED_BOT_COMPILEDOUT_H
#define SCHED_BOT_COMPILEDOUT_H

#include <git2.h>

#include "util.h"

/* At most this many hunks are looked at, and files read. */
#define COMPILEDOUT_MAX_HUNKS 64

struct compiledout {
	size_t hunks;		/* hunks of C sources and headers, all */
	size_t out;		/* of which kept out by the config */
	struct strbuf items;	/* "path:line: under #ifdef CONFIG_X (not
				 * set in the config)", a line each
				 */
};

/*
 * Look at the hunks of base..head against config (the kernel's .config
 * text), at most max items into r (initialised by the function; release
 * with compiledout_release).  Returns 0, or -1 when the commits or the
 * diff cannot be read (r then empty).
 */
int compiledout_find(git_repository *repo, const char *base,
		     const char *head, const char *config, size_t max,
		     struct compiledout *r);
void compiledout_release(struct compiledout *r);

#endif
