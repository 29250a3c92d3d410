// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/apply.c - `sched-bot apply`: a series from lore (or an mbox) onto
 * the kernel tree as a branch of commits, like `b4 shazam`, without a
 * checkout (unless --worktree asks for one).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "builtin/builtin.h"
#include "json.h"
#include "series.h"
#include "tree.h"
#include "util.h"

const char cmd_apply_usage[] =
"usage: sched-bot apply <msgid|lore URL> [options]\n"
"       sched-bot apply --mbox FILE [options]\n"
"\n"
"Applies the series (newest revision unless -v N) to the kernel tree as\n"
"branch sched-bot/<slug>-v<N>: one commit per patch with its author,\n"
"date, message and the trailers collected from the thread, committed by\n"
"bot.name <bot.email>.  Only the tree's object database is written.\n"
"The base is --base, else the series' base-commit if the tree has it,\n"
"else its stated base (e.g. v6.1-rc6, or the nearest version tag, with a\n"
"warning), else tree.defaultBase (HEAD).  A hunk whose context moved is\n"
"found like git apply does; one that does not match falls back to a\n"
"3-way merge when the patch's pre-image blobs are in the tree.\n"
"Prints the base and the head commit; exit 1 with a report when a patch\n"
"does not apply.\n"
"\n"
"    --mbox FILE       read the thread from FILE instead of lore\n"
"    -v, --version N   pick revision N\n"
"    --tree DIR        the kernel tree (default tree.path)\n"
"    --base REF        apply onto REF\n"
"    --branch NAME     the branch to create (default above)\n"
"    --worktree DIR    also write the result's files to DIR (new/empty)\n"
"    --no-3way         never fall back to a 3-way merge\n"
"    --no-link         no Link: trailer to the patch's mail\n"
"    --json            print the result as JSON\n";

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
	static const struct option opts[] = {
		{ "mbox", required_argument, NULL, 'm' },
		{ "version", required_argument, NULL, 'v' },
		{ "tree", required_argument, NULL, 't' },
		{ "base", required_argument, NULL, 'b' },
		{ "branch", required_argument, NULL, 'B' },
		{ "worktree", required_argument, NULL, 'w' },
		{ "no-3way", no_argument, NULL, '3' },
		{ "no-link", no_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *mbox = NULL, *arg = NULL, *worktree = NULL;
	struct apply_opts o = { 0 };
	struct apply_result r = { 0 };
	git_repository *repo = NULL;
	char *tree_dir = NULL, *end;
	struct series s;
	int version = 0, json = 0, c, ret;
	char hex[GIT_OID_HEXSZ + 1];

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:v:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mbox = optarg;
			break;
		case 'v':
			version = (int)strtol(optarg, &end, 10);
			if (*end || version < 1)
				return usage_error("apply",
						   "-v wants a revision > 0");
			break;
		case 't':
			free(tree_dir);
			tree_dir = xstrdup(optarg);
			break;
		case 'b':
			o.base = optarg;
			break;
		case 'B':
			o.branch = optarg;
			break;
		case 'w':
			worktree = optarg;
			break;
		case '3':
			o.no_3way = 1;
			break;
		case 'L':
			o.no_link = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			free(tree_dir);
			return show_usage("apply");
		default:
			free(tree_dir);
			return usage_error("apply", "unknown option");
		}
	}
	if (optind < argc)
		arg = argv[optind++];
	if (optind < argc || !!arg == !!mbox) {
		free(tree_dir);
		return usage_error("apply", optind < argc ?
				   "too many arguments" :
				   "give a message-id or --mbox FILE");
	}
	if (!tree_dir)
		tree_dir = tree_default_path();
	if (tree_open(&repo, tree_dir) < 0) {
		free(tree_dir);
		return EXIT_NOTFOUND;
	}
	ret = series_load(arg, mbox, version, &s);
	if (ret) {
		git_repository_free(repo);
		free(tree_dir);
		return ret;
	}
	ret = apply_series(repo, &s, &o, &r) < 0 ? EXIT_FAIL : EXIT_OK;
	if (ret == EXIT_OK && worktree &&
	    tree_export(repo, r.branch, worktree) < 0)
		ret = EXIT_FAIL;
	if (json) {
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
	free(tree_dir);
	return ret;
}
