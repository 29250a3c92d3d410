// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/tree.c - `sched-bot tree init|status|export|fetch`: the kernel tree
 * patches are applied to.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "config.h"
#include "tree.h"
#include "util.h"

static const char *tarball, *tree_dir;

static const char *const tree_synopsis[] = {
	"tree init [--tarball FILE] [DIR]",
	"tree status [DIR | --tree DIR]",
	"tree export [--tree DIR] REV OUTDIR",
	"tree fetch [--tree DIR] [URL | NAME...]",
	NULL
};

static const struct option_spec tree_options[] = {
	OPT_STRING(0, "tarball", &tarball, "FILE",
		   "init: the linux-source tarball to import (default tree.tarball, else " TREE_DEBIAN_TARBALL ")"),
	OPT_STRING(0, "tree", &tree_dir, "DIR",
		   "status, export, fetch: the tree (default tree.path, else $XDG_DATA_HOME/sched-bot/linux.git)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc tree_doc = {
	.name = "tree",
	.summary = "set up the kernel tree (import linux-source)",
	.synopsis = tree_synopsis,
	.text =
"init imports Debian's linux-source tarball into a bare git repository,\n"
"once: one commit, branch " TREE_DEBIAN_BRANCH ", tags v<version> (from its\n"
"Makefile) and " TREE_DEBIAN_TAG ".  DIR defaults to config tree.path,\n"
"else $XDG_DATA_HOME/sched-bot/linux.git.  status prints the tree's path,\n"
"HEAD, the named trees ([tree \"NAME\"]: url, each branch's head and\n"
"subject, the last fetch, and which heads have a kernel built in the\n"
"build cache), then every ref.  export writes the files of REV to OUTDIR\n"
"(new or empty), without .git.  fetch NAME... fetches those named trees\n"
"(all of them when neither URL nor NAME is given and trees are\n"
"configured) into refs/remotes/NAME/* and tags, each for at most\n"
"tree.fetchTimeout seconds; fetch URL (or tree.remote) fetches into\n"
"refs/remotes/origin/* and tags.",
	.options = tree_options,
	.notes =
"Exit codes: 3 a tree or tarball that does not exist or cannot be read.",
};

static char *tree_path(void)
{
	return tree_dir ? xstrdup(tree_dir) : tree_default_path();
}

static int tree_init(int argc, char **argv)
{
	const char *from = tarball ? tarball :
			   config_get("tree.tarball");
	struct tree_import res;
	char *path;

	if (argc > 2)
		return options_error(&tree_doc, "init takes at most one DIR");
	if (tree_dir)
		return options_error(&tree_doc, "init takes DIR, not --tree");
	path = argc == 2 ? xstrdup(argv[1]) : tree_default_path();
	if (tree_import_tarball(path, from, &res) < 0) {
		free(path);
		/* said already; an unreadable tarball is "not found" */
		return access(from, R_OK) ? EXIT_NOTFOUND : EXIT_FAIL;
	}
	if (res.cached)
		printf("tree %s: already there (%s%s)\n", path,
		       res.version[0] ? "v" : "no version tag",
		       res.version);
	else
		printf("tree %s: imported %zu files of Linux %s in %.1f s\n",
		       path, res.files, res.version, res.seconds);
	if (res.commit[0])
		printf("commit %s\n", res.commit);
	free(path);
	return EXIT_OK;
}

static int print_ref(git_reference *ref, void *data)
{
	git_reference *peeled = NULL;
	char hex[GIT_OID_HEXSZ + 1] = "";

	(void)data;
	if (!git_reference_resolve(&peeled, ref) &&
	    git_reference_target(peeled))
		git_oid_tostr(hex, sizeof(hex), git_reference_target(peeled));
	printf("%s %s\n", hex, git_reference_name(ref));
	git_reference_free(peeled);
	git_reference_free(ref);
	return 0;
}

/* The cache's art-<tree id>-<config> directories with a bzImage. */
static int built(const char *cache, const git_oid *tree_id)
{
	char hex[17], *want, *p;
	struct dirent *de;
	DIR *d = opendir(cache);
	int n = 0;

	if (!d)
		return 0;
	git_oid_tostr(hex, sizeof(hex), tree_id);
	want = xasprintf("art-%s-", hex);
	while ((de = readdir(d))) {
		if (!starts_with(de->d_name, want))
			continue;
		p = xasprintf("%s/%s/bzImage", cache, de->d_name);
		n += !access(p, R_OK);
		free(p);
	}
	closedir(d);
	free(want);
	return n;
}

static void print_named(git_repository *repo)
{
	const char *dir = config_get("build.cacheDir");
	char *cache = dir && *dir ? xstrdup(dir) : cache_path("builds");
	struct tree_remotes t;
	size_t i, j;

	tree_remotes_load(&t);
	for (i = 0; i < t.nr; i++) {
		const struct tree_remote *r = &t.v[i];
		long long last = tree_last_fetch(repo, r->name);
		char **refs, when[32] = "never";
		size_t nr = tree_remote_refs(repo, r, &refs);
		time_t tt = last;

		if (last)
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S",
				 localtime(&tt));
		printf("tree %s %s\n", r->name, r->url);
		printf("  last fetch %s\n", when);
		for (j = 0; j < r->nr_paths; j++)
			printf("  path %s\n", r->paths[j]);
		for (j = 0; j < r->nr_lists; j++)
			printf("  list %s\n", r->lists[j]);
		for (j = 0; j < r->nr_branches; j++) {
			char *ref = xasprintf("refs/remotes/%s/%s", r->name,
					      r->branches[j]);
			git_oid oid;

			if (git_reference_name_to_id(&oid, repo, ref) < 0)
				printf("  %s not fetched\n", r->branches[j]);
			free(ref);
		}
		for (j = 0; j < nr; j++) {
			const char *b = refs[j] + strlen("refs/remotes/") +
					strlen(r->name) + 1;
			git_commit *c = NULL;
			git_oid oid;
			char hex[13];
			int n = 0;

			if (!git_reference_name_to_id(&oid, repo, refs[j]) &&
			    !git_commit_lookup(&c, repo, &oid)) {
				git_oid_tostr(hex, sizeof(hex), &oid);
				n = built(cache, git_commit_tree_id(c));
				printf("  %s %s (%s)%s\n", b, hex,
				       git_commit_summary(c) ?
				       git_commit_summary(c) : "",
				       n ? ", built" : "");
				git_commit_free(c);
			}
			free(refs[j]);
		}
		free(refs);
	}
	tree_remotes_release(&t);
	free(cache);
}

static int tree_status(int argc, char **argv)
{
	git_repository *repo;
	git_reference *head = NULL;
	char *path;

	if (argc > 2 || (argc == 2 && tree_dir))
		return options_error(&tree_doc,
				     "status takes at most one DIR");
	path = argc == 2 ? xstrdup(argv[1]) : tree_path();
	if (tree_open(&repo, path) < 0) {
		free(path);
		return EXIT_NOTFOUND;
	}
	printf("path %s\n", path);
	if (!git_repository_head(&head, repo)) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), git_reference_target(head));
		printf("HEAD %s %s\n", hex, git_reference_name(head));
		git_reference_free(head);
	}
	printf("defaultBase %s\n", config_get("tree.defaultBase"));
	print_named(repo);
	git_reference_foreach(repo, print_ref, NULL);
	git_repository_free(repo);
	free(path);
	return EXIT_OK;
}

static int tree_export_cmd(int argc, char **argv)
{
	git_repository *repo;
	char *path;
	int ret;

	if (argc != 3)
		return options_error(&tree_doc, "export needs REV and OUTDIR");
	path = tree_path();
	if (tree_open(&repo, path) < 0) {
		free(path);
		return EXIT_NOTFOUND;
	}
	ret = tree_export(repo, argv[1], argv[2]);
	git_repository_free(repo);
	free(path);
	return ret < 0 ? EXIT_FAIL : EXIT_OK;
}

static int tree_fetch_cmd(int argc, char **argv)
{
	git_repository *repo;
	const char *url;
	char *path;
	int ret;

	struct tree_remotes t;
	struct tree_fetch_opts fo = { 0 };
	int i, named = 0;

	tree_remotes_load(&t);
	for (i = 1; i < argc; i++)
		named += tree_remote_find(&t, argv[i]) != NULL;
	if (named && named != argc - 1) {
		tree_remotes_release(&t);
		return options_error(&tree_doc, "fetch: give URL or the names of configured trees");
	}
	url = argc > 1 ? argv[1] : config_get("tree.remote");
	if (!named && (argc > 2 || (!url && !t.nr))) {
		tree_remotes_release(&t);
		return options_error(&tree_doc, "fetch needs URL, tree.remote or a named tree");
	}
	path = tree_path();
	if (tree_open(&repo, path) < 0) {
		free(path);
		tree_remotes_release(&t);
		return EXIT_NOTFOUND;
	}
	fo.timeout = config_get_int("tree.fetchTimeout");
	fo.progress = 1;
	if (named || (argc == 1 && !url)) {
		ret = 0;
		for (i = 0; i < (int)t.nr; i++) {
			int want = !named, k;

			for (k = 1; k < argc; k++)
				want |= !strcmp(argv[k], t.v[i].name);
			if (want && tree_fetch_remote(repo, &t.v[i], &fo) < 0)
				ret = -1;
		}
	} else {
		ret = tree_fetch(repo, url);
	}
	tree_remotes_release(&t);
	git_repository_free(repo);
	free(path);
	return ret < 0 ? EXIT_NETWORK : EXIT_OK;
}

int cmd_tree(int argc, char **argv)
{
	argc = parse_options(argc, argv, &tree_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc < 1)
		return options_error(&tree_doc, "expected init, status, export or fetch");
	if (tarball && strcmp(argv[0], "init"))
		return options_error(&tree_doc, "--tarball is for 'tree init'");
	if (!strcmp(argv[0], "init"))
		return tree_init(argc, argv);
	if (!strcmp(argv[0], "status"))
		return tree_status(argc, argv);
	if (!strcmp(argv[0], "export"))
		return tree_export_cmd(argc, argv);
	if (!strcmp(argv[0], "fetch"))
		return tree_fetch_cmd(argc, argv);
	return options_error(&tree_doc, "unknown subcommand '%s'", argv[0]);
}
