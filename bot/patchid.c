// SPDX-License-Identifier: GPL-2.0
/*
 * patchid.c - patch-ids of a series' commits; see patchid.h.
 */
#include <stdlib.h>
#include <string.h>

#include "patchid.h"

int patchid_commit(git_repository *repo, git_commit *c, git_oid *out)
{
	git_diff_patchid_options po = GIT_DIFF_PATCHID_OPTIONS_INIT;
	git_commit *parent = NULL;
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	int ret = -1;

	if (git_commit_parent(&parent, c, 0) < 0 ||
	    git_commit_tree(&a, parent) < 0 || git_commit_tree(&b, c) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, a, b, NULL) < 0 ||
	    git_diff_patchid(out, diff, &po) < 0)
		goto out;
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	git_commit_free(parent);
	return ret;
}

int patchid_range(git_repository *repo, const git_oid *base,
		  const git_oid *head, struct strbuf *out)
{
	char (*ids)[GIT_OID_HEXSZ + 1] = NULL;
	git_oid cur = *head;
	size_t nr = 0, alloc = 0, i;
	int ret = -1;

	while (!git_oid_equal(&cur, base)) {
		git_commit *c = NULL;
		git_oid id;

		if (nr >= PATCHID_MAX_COMMITS) {
			error("patch-id: the base is not within %d commits of the head",
			      PATCHID_MAX_COMMITS);
			goto out;
		}
		if (git_commit_lookup(&c, repo, &cur) < 0 ||
		    git_commit_parentcount(c) < 1) {
			error("patch-id: the base is not an ancestor of the head (%.12s)",
			      git_oid_tostr_s(&cur));
			git_commit_free(c);
			goto out;
		}
		if (patchid_commit(repo, c, &id) < 0) {
			const git_error *e = git_error_last();

			error("patch-id of %.12s: %s", git_oid_tostr_s(&cur),
			      e ? e->message : "failed");
			git_commit_free(c);
			goto out;
		}
		ALLOC_GROW(ids, nr, alloc);
		git_oid_tostr(ids[nr++], GIT_OID_HEXSZ + 1, &id);
		cur = *git_commit_parent_id(c, 0);
		git_commit_free(c);
	}
	for (i = nr; i > 0; i--) {
		if (i != nr)
			strbuf_addch(out, ' ');
		strbuf_addstr(out, ids[i - 1]);
	}
	ret = (int)nr;
out:
	free(ids);
	return ret;
}
