// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/fetch.c - `sched-bot fetch`: a whole thread (or one message, or
 * search results) from lore, as an mboxrd file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "lore.h"
#include "util.h"

const char cmd_fetch_usage[] =
"usage: sched-bot fetch [-o FILE] [--no-cache] [--raw] <msgid | lore URL>\n"
"   or: sched-bot fetch --check <msgid | lore URL>\n"
"   or: sched-bot fetch [-o FILE] --search QUERY [--threads | --atom]\n"
"   or: sched-bot fetch [-o FILE] --atom\n"
"\n"
"Download the whole thread holding a message from lore\n"
"(<lore.url>/all/<msgid>/t.mbox.gz) and write it as an mboxrd.\n"
"The message-id may be given with or without <>, or as any lore URL\n"
"(.../all/<id>/, .../r/<id>, .../<list>/<id>/T/#u, percent-escaped);\n"
"only the message-id is taken from a URL, the server is lore.url.\n"
"\n"
"    -o, --output FILE   write to FILE (default: stdout)\n"
"        --no-cache      do not use a cached copy (the cache is refreshed)\n"
"        --raw           only the message itself, not its thread\n"
"        --check         only say by the exit code whether lore has the\n"
"                        message (0 yes, 3 no), printing nothing\n"
"    -s, --search QUERY  messages matching a public-inbox QUERY, e.g.\n"
"                        's:PATCH AND dfn:kernel/sched/ AND rt:1.day.ago..'\n"
"    -t, --threads       with --search: the whole threads of the hits\n"
"        --atom          with --search: an Atom feed, not an mbox;\n"
"                        alone: the newest messages (new.atom)\n"
"\n"
"Threads are cached under $XDG_CACHE_HOME/sched-bot/lore for\n"
"lore.cacheMaxAge seconds (default 600); searches never are.  Failed\n"
"requests (5xx, timeouts, refused connections) are retried lore.retries\n"
"times (default 3), lore.retryDelay ms apart (default 500) doubling each\n"
"time or as Retry-After asks, within lore.timeout seconds (default 120).\n"
"Exit codes: 3 unknown message-id or no search hits, 4 lore unreachable,\n"
"1 truncated or corrupt data.\n";

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

/* An argument as it may be shown: control characters made harmless. */
static char *printable(const char *s)
{
	char *p, *out = xstrndup(s, 200);

	for (p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out;
}

enum fetch_mode {
	FETCH_THREAD, FETCH_RAW, FETCH_CHECK, FETCH_SEARCH, FETCH_ATOM
};

int cmd_fetch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "raw", no_argument, NULL, 'R' },
		{ "check", no_argument, NULL, 'C' },
		{ "search", required_argument, NULL, 's' },
		{ "threads", no_argument, NULL, 't' },
		{ "atom", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct strbuf out = STRBUF_INIT;
	const char *output = NULL, *query = NULL;
	enum fetch_mode mode = FETCH_THREAD;
	int threads = 0, raw = 0, atom = 0, check = 0;
	char *msgid = NULL;
	size_t n;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:th", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'N':
			lore_cache_bypass(1);
			break;
		case 'R':
			raw = 1;
			break;
		case 'C':
			check = 1;
			break;
		case 's':
			query = optarg;
			break;
		case 't':
			threads = 1;
			break;
		case 'A':
			atom = 1;
			break;
		case 'h':
			return show_usage("fetch");
		default:
			return usage_error("fetch", "unknown option");
		}
	}
	if (query || atom) {
		if (optind != argc)
			return usage_error("fetch",
					   "--search takes no message-id");
		if (raw || check)
			return usage_error("fetch", "--raw and --check "
					   "are for a message-id");
		if (query && !*query)
			return usage_error("fetch", "empty --search query");
		if (threads && atom)
			return usage_error("fetch",
					   "--threads is for mbox output");
		if (threads && !query)
			return usage_error("fetch", "--threads needs --search");
		mode = atom ? FETCH_ATOM : FETCH_SEARCH;
	} else {
		if (threads)
			return usage_error("fetch", "--threads needs --search");
		if (raw && check)
			return usage_error("fetch",
					   "--raw or --check, not both");
		if (optind != argc - 1)
			return usage_error("fetch",
					   "give one message-id or lore URL");
		msgid = lore_msgid_from_arg(argv[optind]);
		if (!msgid) {
			char *shown = printable(argv[optind]);

			ret = usage_error("fetch", "'%s' holds no message-id",
					  shown);
			free(shown);
			return ret;
		}
		mode = check ? FETCH_CHECK : raw ? FETCH_RAW : FETCH_THREAD;
	}

	switch (mode) {
	case FETCH_THREAD:
		ret = lore_fetch_thread(msgid, &out);
		break;
	case FETCH_RAW:
		ret = lore_fetch_raw(msgid, &out);
		break;
	case FETCH_CHECK:
		ret = lore_check_message(msgid);
		goto out;
	case FETCH_SEARCH:
		ret = lore_search(query, threads, &out);
		break;
	default:
		ret = lore_atom(query, &out);
		break;
	}
	if (ret)
		goto out;
	if (write_out(output, &out) < 0) {
		ret = EXIT_FAIL;
		goto out;
	}
	if (mode == FETCH_THREAD || mode == FETCH_SEARCH) {
		n = lore_mbox_count(out.buf, out.len);
		info("fetched %zu message%s (%zu bytes)%s%s%s", n,
		     n == 1 ? "" : "s", out.len, msgid ? " for <" : "",
		     msgid ? msgid : "", msgid ? ">" : "");
	}
out:
	strbuf_release(&out);
	free(msgid);
	return ret;
}
