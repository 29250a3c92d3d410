// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-apply: any text as a patch's diff, applied to a small tree
 * (files, a subdirectory, a symlink): apply_diff() must return 0, 1 or
 * -1 with a reason, never crash or leak.  Objects go to an in-memory
 * backend, so nothing is written to disk per input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/mempack.h>

#include "apply.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static git_repository *repo;
static git_odb_backend *mempack;
static git_oid base_tree;

static void add_blob(git_treebuilder *tb, const char *name, const char *text,
		     git_filemode_t mode)
{
	git_oid oid;

	git_blob_create_from_buffer(&oid, repo, text, strlen(text));
	git_treebuilder_insert(NULL, tb, name, &oid, mode);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char tmpl[] = "/tmp/fuzz-apply.XXXXXX";
	git_treebuilder *tb, *sub;
	git_odb *odb;
	git_oid sub_oid;
	char *dir;

	(void)argc;
	(void)argv;
	git_libgit2_init();
	dir = mkdtemp(tmpl);
	if (!dir || git_repository_init(&repo, dir, 1) < 0)
		abort();
	git_repository_odb(&odb, repo);
	git_mempack_new(&mempack);
	git_odb_add_backend(odb, mempack, 1000);
	git_odb_free(odb);
	git_treebuilder_new(&sub, repo, NULL);
	add_blob(sub, "fair.c", "int a;\nint b;\nint c;\nint d;\n",
		 GIT_FILEMODE_BLOB);
	git_treebuilder_write(&sub_oid, sub);
	git_treebuilder_free(sub);
	git_treebuilder_new(&tb, repo, NULL);
	add_blob(tb, "f", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", GIT_FILEMODE_BLOB);
	add_blob(tb, "x.sh", "#!/bin/sh\n", GIT_FILEMODE_BLOB_EXECUTABLE);
	add_blob(tb, "link", "/tmp", GIT_FILEMODE_LINK);
	git_treebuilder_insert(NULL, tb, "sched", &sub_oid, GIT_FILEMODE_TREE);
	git_treebuilder_write(&base_tree, tb);
	git_treebuilder_free(tb);
	/* The base stays in the mempack; nothing else is kept. */
	remove_tree(dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct apply_failure f = { 0 };
	git_tree *tree;
	git_oid out;
	char *text;
	int rc;

	if (git_tree_lookup(&tree, repo, &base_tree) < 0)
		abort();
	text = xstrndup((const char *)data, size);
	rc = apply_diff(repo, tree, text, 1, &out, &f);
	if (rc < 0 && !f.reason)
		abort();	/* a failure must say why */
	free(text);
	free(f.subject);
	free(f.file);
	free(f.hunk_header);
	free(f.reason);
	free(f.three_way);
	free(f.hint);
	git_tree_free(tree);
	return 0;
}
