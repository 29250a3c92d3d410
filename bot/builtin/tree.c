// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/tree.c - `sched-bot tree init|status|export|fetch`: the kernel tree
 * patches are applied to.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config.h"
#include "tree.h"
#include "util.h"

const char cmd_tree_usage[] =
"usage: sched-bot tree init [--tarball FILE] [DIR]\n"
"       sched-bot tree status [DIR]\n"
"       sched-bot tree export [--tree DIR] REV OUTDIR\n"
"       sched-bot tree fetch [--tree DIR] [URL]\n"
"\n"
"init imports Debian's linux-source tarball (default " TREE_DEBIAN_TARBALL
")\n"
"into a bare git repository, once: one commit, branch " TREE_DEBIAN_BRANCH
",\n"
"tags v<version> (from its Makefile) and " TREE_DEBIAN_TAG ".\n"
"DIR defaults to config tree.path, else $XDG_DATA_HOME/sched-bot/linux.git.\n"
"status prints the tree's path, HEAD and refs.  export writes the files\n"
"of REV to OUTDIR (new or empty), without .git.  fetch fetches URL (default\n"
"tree.remote) into refs/remotes/origin/* and tags.\n";

static int tree_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tarball", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *tarball = config_get("tree.tarball");
	struct tree_import res;
	char *path;
	int c;

	while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tarball = optarg;
			break;
		case 'h':
			return show_usage("tree");
		default:
			return usage_error("tree", "bad option");
		}
	}
	if (argc - optind > 1)
		return usage_error("tree", "init takes at most one DIR");
	path = optind < argc ? xstrdup(argv[optind]) : tree_default_path();
	if (tree_import_tarball(path, tarball, &res) < 0) {
		free(path);
		return EXIT_FAIL;
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

static char *tree_arg(int argc, char **argv, int *i)
{
	if (*i + 1 < argc && !strcmp(argv[*i], "--tree")) {
		*i += 2;
		return xstrdup(argv[*i - 1]);
	}
	return tree_default_path();
}

static int tree_status(int argc, char **argv)
{
	git_repository *repo;
	git_reference *head = NULL;
	char *path;

	if (argc > 2)
		return usage_error("tree", "status takes at most one DIR");
	path = argc == 2 ? xstrdup(argv[1]) : tree_default_path();
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
	git_reference_foreach(repo, print_ref, NULL);
	git_repository_free(repo);
	free(path);
	return EXIT_OK;
}

static int tree_export_cmd(int argc, char **argv)
{
	git_repository *repo;
	int i = 1, ret;
	char *path = tree_arg(argc, argv, &i);

	if (argc - i != 2) {
		free(path);
		return usage_error("tree", "export needs REV and OUTDIR");
	}
	if (tree_open(&repo, path) < 0) {
		free(path);
		return EXIT_NOTFOUND;
	}
	ret = tree_export(repo, argv[i], argv[i + 1]);
	git_repository_free(repo);
	free(path);
	return ret < 0 ? EXIT_FAIL : EXIT_OK;
}

static int tree_fetch_cmd(int argc, char **argv)
{
	git_repository *repo;
	const char *url;
	int i = 1, ret;
	char *path = tree_arg(argc, argv, &i);

	url = i < argc ? argv[i] : config_get("tree.remote");
	if (!url || argc - i > 1) {
		free(path);
		return usage_error("tree", "fetch needs URL or tree.remote");
	}
	if (tree_open(&repo, path) < 0) {
		free(path);
		return EXIT_NOTFOUND;
	}
	ret = tree_fetch(repo, url);
	git_repository_free(repo);
	free(path);
	return ret < 0 ? EXIT_NETWORK : EXIT_OK;
}

int cmd_tree(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("tree", "expected init, status, export "
				   "or fetch");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return show_usage("tree");
	if (!strcmp(argv[1], "init"))
		return tree_init(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status"))
		return tree_status(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return tree_export_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fetch"))
		return tree_fetch_cmd(argc - 1, argv + 1);
	return usage_error("tree", "unknown subcommand '%s'", argv[1]);
}
