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
 *
 * Named trees ([tree "tip"] url, branches, lists, paths) are remotes of
 * that one repository: a tree's branches are fetched into
 * refs/remotes/NAME/, its tags into refs/tags/, so every object of every
 * tree is in one object database and a base from any of them is a
 * revision like another.  The Debian import stays the default for a
 * machine that has no network: no named tree is needed.
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

struct tree_remotes;

/* The tree.* settings, filled in bot/builtin/ (config-opts.c). */
struct tree_opts {
	const char *path;			/* tree.path, or NULL */
	/* the [tree "NAME"] blocks */
	const struct tree_remotes *remotes;
};

/* Before any use of the trees: a path or remotes asked first is a bug. */
void tree_configure(const struct tree_opts *o);

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
 * Whether the file path of commit rev holds needle in its first max
 * bytes: 1, 0 (not there, or no such file), -1 when rev is no commit.
 */
int tree_file_has(git_repository *repo, const char *rev, const char *path,
		  const char *needle, size_t max);

/*
 * Write the files of rev into dir (created; must be empty or absent),
 * as a plain directory without .git.  This is how builds get sources.
 */
int tree_export(git_repository *repo, const char *rev, const char *dir);

/* `git fetch` of tree.remote's refs into refs/remotes/origin/. */
int tree_fetch(git_repository *repo, const char *url);

/* A named tree of the configuration. */
struct tree_remote {
	char *name;		/* "tip" */
	char *url;
	char **branches;	/* "sched/core", "master"; none: all */
	size_t nr_branches;
	char **lists;		/* "linux-kernel@vger.kernel.org": a series
				 * sent to one (To:, Cc:) has its base
				 * looked for here before the trees of
				 * its paths
				 */
	size_t nr_lists;
	char **paths;		/* "kernel/sched/" */
	size_t nr_paths;
};

struct tree_remotes {
	struct tree_remote *v;
	size_t nr;
};

/* The [tree "NAME"] blocks with a url, in file order (copies). */
void tree_remotes_load(struct tree_remotes *t);
void tree_remotes_release(struct tree_remotes *t);
const struct tree_remote *tree_remote_find(const struct tree_remotes *t,
					   const char *name);
/* Whether the tree serves a diff touching path (tree.NAME.paths). */
int tree_remote_has_path(const struct tree_remote *r, const char *path);

struct tree_fetch_opts {
	int timeout;		/* seconds, 0: none (tree.fetchTimeout) */
	int progress;		/* a status line on a terminal */
};

/*
 * Fetch the named tree's branches into refs/remotes/NAME/ and its tags,
 * through the repository's remote NAME (created or updated to r->url).
 * The fetch runs in a child process that is killed at the deadline: a
 * transfer that is slow stops at its progress callback, one that hangs
 * (a listener that never answers) by the kill; both are an error that
 * says so.  A fetch that failed or was killed leaves no temporary pack
 * in objects/pack or objects/incoming.  On success the time is kept as
 * the tree's last fetch.
 */
int tree_fetch_remote(git_repository *repo, const struct tree_remote *r,
		      const struct tree_fetch_opts *o);

/*
 * The refs of the tree's branches this repository has: the configured
 * ones, else all of refs/remotes/NAME/.  *refs is a list of full names
 * ("refs/remotes/tip/sched/core"); free each and it.
 */
size_t tree_remote_refs(git_repository *repo, const struct tree_remote *r,
			char ***refs);

/* When the tree was last fetched (seconds since the epoch), 0: never. */
long long tree_last_fetch(git_repository *repo, const char *name);

/*
 * The configured branch (refs/remotes/NAME/BRANCH) whose history holds
 * commit, tip first, within depth commits of each branch head: "tip",
 * "sched/core".  Returns 0, or -1 when none does.
 */
int tree_branch_of(git_repository *repo, const struct tree_remotes *t,
		   const git_oid *commit, int depth, char **tree,
		   char **branch);

/* "tip/sched/core 1234abcd5678 (sched/fair: subject)"; caller frees. */
char *tree_describe(git_repository *repo, const char *where,
		    const git_oid *commit);

/* Print the last libgit2 error after msg, return -1. */
int tree_git_error(const char *msg);

#endif
