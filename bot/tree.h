/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.h - the kernel tree sched-bot applies patches to and builds from.
 *
 * It is a bare git repository (libgit2), by default imported once from
 * Debian's linux-source tarball: one commit, tagged with the version in
 * its Makefile (v6.1.NNN) and "debian-linux-source-6.1".  Any kernel
 * clone can be configured instead (tree.path).  The user's own checkout
 * is never touched: patches become commits in the object database, and
 * a revision is written out to a separate directory with tree_export().
 *
 * Configuration: tree.path (the repository), tree.remote (a URL fetched
 * by `tree fetch`, never needed by the tests), tree.defaultBase (the
 * revision used when a series names no base this tree has).
 */
#ifndef SCHED_BOT_TREE_H
#define SCHED_BOT_TREE_H

#include <git2.h>

#define TREE_DEBIAN_TARBALL "/usr/src/linux-source-6.1.tar.xz"
#define TREE_DEBIAN_TAG "debian-linux-source-6.1"
#define TREE_DEBIAN_BRANCH "linux-6.1"

struct tree_import {
	char version[32];	/* "6.1.192", from the Makefile */
	char commit[GIT_OID_HEXSZ + 1];
	size_t files;		/* blobs written (files and symlinks) */
	double seconds;		/* wall time of the import */
	int cached;		/* 1: the repository was already there */
};

/* tree.path, else data_path("linux.git").  Caller frees. */
char *tree_default_path(void);

/*
 * Import a linux-source tarball (.tar, .tar.xz, .tar.gz; the first path
 * component is dropped) into a new bare repository at path.  Nothing
 * happens when path already holds a repository with the tag
 * TREE_DEBIAN_TAG (res->cached = 1).  The repository is built in a
 * temporary directory next to path and renamed into place, so a killed
 * import leaves no half tree (its leftovers are removed by the next
 * one); path.lock makes a concurrent import wait for the first and use
 * its result.
 */
int tree_import_tarball(const char *path, const char *tarball,
			struct tree_import *res);

/* Open a tree repository (bare or not); errors are printed. */
int tree_open(git_repository **repo, const char *path);

/* Resolve rev ("v6.1.192", a branch, a hash prefix) to a commit. */
int tree_resolve(git_repository *repo, const char *rev, git_oid *commit);

/*
 * Write the files of rev into dir (created; must be empty or absent),
 * as a plain directory without .git.  This is how builds get sources.
 */
int tree_export(git_repository *repo, const char *rev, const char *dir);

/* `git fetch` of tree.remote's refs into refs/remotes/origin/. */
int tree_fetch(git_repository *repo, const char *url);

/* Print the last libgit2 error after msg, return -1. */
int tree_git_error(const char *msg);

#endif
