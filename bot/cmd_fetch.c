// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_fetch.c - `sched-bot fetch <msgid|lore URL> [-o FILE] [--no-cache]`:
 * the whole thread as lore serves it, as an mboxrd file.
 */
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "lore.h"
#include "util.h"

const char cmd_fetch_usage[] =
"usage: sched-bot fetch [-o FILE] [--no-cache] <msgid | lore URL>\n"
"\n"
"Download the whole thread holding a message from lore\n"
"(<lore.url>/all/<msgid>/t.mbox.gz) and write it as an mboxrd.\n"
"The message-id may be given with or without <>, or as any lore URL\n"
"(…/all/<id>/, …/r/<id>, …/<list>/<id>/T/#u, percent-escaped).\n"
"\n"
"    -o, --output FILE  write the mbox to FILE (default: stdout)\n"
"        --no-cache     do not use a cached copy (the cache is refreshed)\n"
"\n"
"Threads are cached under $XDG_CACHE_HOME/sched-bot/lore for\n"
"lore.cacheMaxAge seconds (default 600).  Failed requests are retried\n"
"lore.retries times (default 3) with exponential backoff.\n"
"Exit codes: 3 unknown message-id, 4 lore unreachable, 1 bad data.\n";

static int write_out(const char *path, const struct strbuf *sb)
{
	const char *p = sb->buf;
	size_t left = sb->len;

	if (path && strcmp(path, "-")) {
		if (write_file_atomic(path, sb->buf, sb->len) < 0)
			return error("cannot write %s: %m", path);
		return 0;
	}
	while (left) {
		ssize_t n = write(STDOUT_FILENO, p, left);

		if (n < 0)
			return error("cannot write to stdout: %m");
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

int cmd_fetch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct strbuf mbox = STRBUF_INIT;
	const char *output = NULL;
	char *msgid;
	size_t n;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'N':
			lore_cache_bypass(1);
			break;
		case 'h':
			return show_usage("fetch");
		default:
			return usage_error("fetch", "unknown option");
		}
	}
	if (optind != argc - 1)
		return usage_error("fetch", "give one message-id or lore URL");
	msgid = lore_msgid_from_arg(argv[optind]);
	if (!msgid)
		return usage_error("fetch", "'%s' holds no message-id",
				   argv[optind]);

	ret = lore_fetch_thread(msgid, &mbox);
	if (ret)
		goto out;
	if (write_out(output, &mbox) < 0) {
		ret = EXIT_FAIL;
		goto out;
	}
	n = lore_mbox_count(mbox.buf, mbox.len);
	info("fetched %zu message%s (%zu bytes) for <%s>", n,
	     n == 1 ? "" : "s", mbox.len, msgid);
out:
	strbuf_release(&mbox);
	free(msgid);
	return ret;
}
