// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/fetch.c - `sched-bot fetch`: a whole thread (or one message, or
 * search results) from lore, as an mboxrd file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "lore.h"
#include "util.h"

static const char *output, *query;
static int threads, raw, atom, check, no_cache;

static const char *const fetch_synopsis[] = {
	"fetch [-o FILE] [--no-cache] [--raw] <msgid | lore URL>",
	"fetch --check <msgid | lore URL>",
	"fetch [-o FILE] --search QUERY [--threads | --atom]",
	"fetch [-o FILE] --atom",
	NULL
};

static const struct option_spec fetch_options[] = {
	OPT_STRING('o', "output", &output, "FILE",
		   "write to FILE (default: stdout)"),
	OPT_FLAG(0, "no-cache", &no_cache,
		 "do not use a cached copy (the cache is refreshed)"),
	OPT_FLAG(0, "raw", &raw, "only the message itself, not its thread"),
	OPT_FLAG(0, "check", &check,
		 "only say by the exit code whether lore has the message (0 yes, 3 no), printing nothing"),
	OPT_STRING('s', "search", &query, "QUERY",
		   "messages matching a public-inbox QUERY, e.g. 's:PATCH AND dfn:kernel/sched/ AND rt:1.day.ago..'"),
	OPT_FLAG(0, "threads", &threads,
		 "with --search: the whole threads of the hits"),
	OPT_FLAG(0, "atom", &atom,
		 "with --search: an Atom feed, not an mbox; "
		 "alone: the newest messages (new.atom)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc fetch_doc = {
	.name = "fetch",
	.summary = "download a thread from lore by message-id",
	.synopsis = fetch_synopsis,
	.text =
"Download the whole thread holding a message from lore\n"
"(<lore.url>/all/<msgid>/t.mbox.gz) and write it as an mboxrd.\n"
"The message-id may be given with or without <>, or as any lore URL\n"
"(.../all/<id>/, .../r/<id>, .../<list>/<id>/T/#u, percent-escaped);\n"
"only the message-id is taken from a URL, the server is lore.url.",
	.options = fetch_options,
	.notes =
"Threads are cached under $XDG_CACHE_HOME/sched-bot/lore for\n"
"lore.cacheMaxAge seconds (default 600); searches never are.  Failed\n"
"requests (5xx, timeouts, refused connections) are retried lore.retries\n"
"times (default 3), lore.retryDelay ms apart (default 500) doubling each\n"
"time or as Retry-After asks, within lore.timeout seconds (default 120).\n"
"Exit codes: 3 unknown message-id or no search hits, 4 lore unreachable,\n"
"1 truncated or corrupt data.",
};

static int write_out(const char *path, const struct strbuf *sb)
{
	if (path && strcmp(path, "-")) {
		if (write_file_atomic(path, sb->buf, sb->len) < 0)
			return error("cannot write %s: %m", path);
		return 0;
	}
	if (write_in_full(STDOUT_FILENO, sb->buf, sb->len) < 0)
		return error("cannot write to stdout: %m");
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
	struct strbuf out = STRBUF_INIT;
	enum fetch_mode mode = FETCH_THREAD;
	char *msgid = NULL;
	size_t n;
	int ret;

	argc = parse_options(argc, argv, &fetch_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (no_cache)
		lore_cache_bypass(1);
	if (query || atom) {
		if (argc)
			return options_error(&fetch_doc,
					     "--search takes no message-id");
		if (raw || check)
			return options_error(&fetch_doc, "--raw and --check are for a message-id");
		if (query && !*query)
			return options_error(&fetch_doc,
					     "empty --search query");
		if (threads && atom)
			return options_error(&fetch_doc,
					     "--threads is for mbox output");
		if (threads && !query)
			return options_error(&fetch_doc,
					     "--threads needs --search");
		mode = atom ? FETCH_ATOM : FETCH_SEARCH;
	} else {
		if (threads)
			return options_error(&fetch_doc,
					     "--threads needs --search");
		if (raw && check)
			return options_error(&fetch_doc,
					     "--raw or --check, not both");
		if (argc != 1)
			return options_error(&fetch_doc,
					     "give one message-id or lore URL");
		msgid = lore_msgid_from_arg(argv[0]);
		if (!msgid) {
			char *shown = printable(argv[0]);

			ret = options_error(&fetch_doc,
					    "'%s' holds no message-id", shown);
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
