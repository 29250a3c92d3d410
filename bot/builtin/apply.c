// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/apply.c - `sched-bot apply`: a series from lore (or an mbox) onto
 * the kernel tree as a branch of commits, like `b4 shazam`, without a
 * checkout (unless --worktree asks for one).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "builtin/builtin.h"
#include "config.h"
#include "json.h"
#include "series.h"
#include "tree.h"
#include "util.h"

static const char *mbox, *worktree, *tree_dir;
static struct apply_opts o;
static int revision, as_json, no_fetch;

static const char *const apply_synopsis[] = {
	"apply <msgid|lore URL> [<options>]",
	"apply --mbox FILE [<options>]",
	NULL
};

static const struct option_spec apply_options[] = {
	OPT_STRING('m', "mbox", &mbox, "FILE",
		   "read the thread from FILE instead of lore"),
	OPT_INTEGER(0, "revision", &revision, "N", 1, INT_MAX,
		    "pick revision N instead of the newest (b4's -v N)"),
	OPT_STRING(0, "tree", &tree_dir, "DIR",
		   "the kernel tree (default tree.path)"),
	OPT_STRING(0, "base", &o.base, "REF", "apply onto REF"),
	OPT_STRING(0, "branch", &o.branch, "NAME",
		   "the branch to create (default above)"),
	OPT_STRING(0, "worktree", &worktree, "DIR",
		   "also write the result's files to DIR (new or empty)"),
	OPT_FLAG(0, "no-3way", &o.no_3way, "never fall back to a 3-way merge"),
	OPT_FLAG(0, "no-link", &o.no_link,
		 "no Link: trailer to the patch's mail"),
	OPT_FLAG(0, "no-fetch", &no_fetch, "never fetch a named tree for a base this tree lacks (tree.fetchOnDemand)"),
	OPT_FLAG(0, "json", &as_json, "print the result as JSON"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc apply_doc = {
	.name = "apply",
	.summary = "apply a series to the kernel tree as commits",
	.synopsis = apply_synopsis,
	.text =
"Applies the series (newest revision unless --revision N) to the kernel\n"
"tree as branch sched-bot/<slug>-v<N>: one commit per patch with its\n"
"author, date, message and the trailers collected from the thread,\n"
"committed by bot.name <bot.email>.  Only the tree's object database is\n"
"written.  The base is --base, else the commit the series names\n"
"(base-commit:, \"tip:sched/core at commit X\"), else the ref it names\n"
"(v6.13, tip/sched/core), each fetched from the named trees ([tree \"NAME\"])\n"
"that may hold it when the tree lacks it; else a commit whose files are\n"
"the patches' pre-image blobs (b4 am --guess-base); else the nearest\n"
"version tag or tree.defaultBase (HEAD), with a warning.  A mail that is\n"
"no [PATCH] series but carries a diff (a tip-bot notification, a diff in\n"
"a reply) is one patch, as git am takes it.  A hunk whose context\n"
"moved is found like git apply does; one that does not match falls back\n"
"to a 3-way merge when the patch's pre-image blobs are in the tree.\n"
"Prints the base and the head commit; exit 1 with a report when a patch\n"
"does not apply, 3 when the tree or the --mbox file cannot be read.",
	.options = apply_options,
};

static void print_json(const struct apply_result *r, int ok)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	struct json j;

	json_init(&j, &sb, 1);
	json_object_begin(&j, NULL);
	json_bool(&j, "ok", ok);
	git_oid_tostr(hex, sizeof(hex), &r->base);
	json_string(&j, "base", hex);
	json_string(&j, "base_desc", r->base_desc);
	json_string(&j, "base_warning", r->base_warning);
	if (ok) {
		git_oid_tostr(hex, sizeof(hex), &r->head);
		json_string(&j, "head", hex);
		json_string(&j, "branch", r->branch);
	}
	json_int(&j, "applied", r->nr_applied);
	json_int(&j, "three_way", r->nr_3way);
	if (!ok) {
		json_object_begin(&j, "failure");
		json_int(&j, "patch", r->fail.index);
		json_int(&j, "total", r->fail.total);
		json_string(&j, "subject", r->fail.subject);
		json_string(&j, "file", r->fail.file);
		json_int(&j, "hunk", r->fail.hunk);
		json_string(&j, "hunk_header", r->fail.hunk_header);
		json_string(&j, "reason", r->fail.reason);
		json_string(&j, "three_way", r->fail.three_way);
		json_string(&j, "hint", r->fail.hint);
		json_object_end(&j);
	}
	json_object_end(&j);
	printf("%s\n", sb.buf);
	strbuf_release(&sb);
}

int cmd_apply(int argc, char **argv)
{
	struct apply_result r = { 0 };
	git_repository *repo = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	char *path;
	struct series s;
	int ret;

	argc = parse_options(argc, argv, &apply_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc > 1)
		return options_error(&apply_doc, "too many arguments");
	if (!argc == !mbox)
		return options_error(&apply_doc,
				     "give a message-id or --mbox FILE");
	if (mbox && need_file(mbox))
		return EXIT_NOTFOUND;
	path = tree_dir ? xstrdup(tree_dir) : tree_default_path();
	if (tree_open(&repo, path) < 0) {
		free(path);
		return EXIT_NOTFOUND;
	}
	free(path);
	ret = series_load(argc ? argv[0] : NULL, mbox, revision, &s);
	if (ret) {
		git_repository_free(repo);
		return ret;
	}
	o.fetch = !no_fetch && config_get_bool("tree.fetchOnDemand") > 0;
	o.progress = 1;
	ret = apply_series(repo, &s, &o, &r) < 0 ? EXIT_FAIL : EXIT_OK;
	if (ret == EXIT_OK && worktree &&
	    tree_export(repo, r.branch, worktree) < 0)
		ret = EXIT_FAIL;
	if (as_json) {
		print_json(&r, ret == EXIT_OK && r.branch);
	} else if (r.branch && ret == EXIT_OK) {
		git_oid_tostr(hex, sizeof(hex), &r.base);
		printf("base %s %s\n", hex, r.base_desc);
		git_oid_tostr(hex, sizeof(hex), &r.head);
		printf("head %s %s\n", hex, r.branch);
		printf("applied %zu patch%s%s\n", r.nr_applied,
		       r.nr_applied == 1 ? "" : "es",
		       r.nr_3way ? " (some with a 3-way merge)" : "");
	}
	if (!r.branch && ret == EXIT_FAIL && r.fail.reason)
		apply_report_failure(&r);
	apply_result_release(&r);
	series_release(&s);
	git_repository_free(repo);
	return ret;
}
