/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apply.h - a patch series onto a kernel tree, as commits, the way
 * `git am -3` would, but only in the object database: the user's
 * checkout (if any) is never read or written.
 *
 * Each patch is applied with libgit2 (git_apply_to_tree), which, like
 * `git apply`, finds a hunk whose context moved (line offsets) but does
 * not fuzz context.  When a hunk does not match and the pre-image blobs
 * named by the patch's "index abc..def" lines are in the object database,
 * a 3-way merge follows (a fake ancestor with those blobs, the patch
 * applied to it, merged into the tree).  Paths that are absolute, contain
 * "..", enter ".git" in any spelling a filesystem folds to it (git's
 * verify_path), name .gitmodules or pass through a symlink are refused
 * before anything is written, and so are a binary change without its
 * data and a patch over the limits below; a symlink pointing out of the
 * tree is refused before the result is committed.
 */
#ifndef SCHED_BOT_APPLY_H
#define SCHED_BOT_APPLY_H

#include <git2.h>

#include "series.h"

/*
 * What one patch from a stranger may cost (0: no limit): files it
 * touches, bytes of its diff (both refused before libgit2 parses it),
 * bytes a binary blob inflates to (checked while inflating, before
 * libgit2 does).  Symlinks it creates must point inside the tree.  And
 * what one series may cost: its patches, the bytes of all their diffs
 * (refused before any is applied: applying is linear in both, but a
 * 10,000-patch series is no review anyone asked a bot for).
 */
struct apply_limits {
	long max_files;			/* apply.maxFiles */
	long long max_patch_size;	/* apply.maxPatchSize */
	long long max_blob_size;	/* apply.maxBlobSize */
	long max_patches;		/* series.maxPatches: of one series */
	long long max_series_size;	/* series.maxSize: its diffs' bytes */
};

/* apply's settings, filled in bot/builtin/ (config-opts.c). */
struct apply_defaults {
	struct apply_limits limits;
	const char *bot_name;		/* bot.name: the committer */
	const char *bot_email;		/* bot.email */
	const char *default_base;	/* tree.defaultBase */
	long fetch_timeout;		/* tree.fetchTimeout, seconds */
	long guess_depth;		/* tree.guessDepth, commits */
};

/* Before any series is applied: one applied first is a bug. */
void apply_configure(const struct apply_defaults *d);

struct apply_opts {
	const char *base;	/* --base REF, or NULL */
	const char *branch;	/* NULL: sched-bot/<slug>-v<N> */
	int no_3way;		/* strict only */
	int no_link;		/* no "Link: <lore>/all/<msgid>/" trailer */
	int fetch;		/* fetch named trees for a missing base */
	int progress;		/* the fetch's status line on a terminal */
};

/* apply_patches() flags */
#define APPLY_3WAY 1		/* fall back to a 3-way merge */
#define APPLY_LINK 2		/* add a Link: trailer, as `sched-bot am` */

/* Why a patch did not apply; every field may be NULL/0. */
struct apply_failure {
	int index, total;	/* patch n/m */
	char *subject;
	char *file;		/* the file whose hunk failed */
	int hunk;		/* 1-based within that file, 0: not a hunk */
	char *hunk_header;	/* "@@ -10,7 +10,8 @@ ..." */
	char *reason;		/* one line: what went wrong */
	char *three_way;	/* why the 3-way fallback did not help */
	char *hint;		/* one line: what might help */
};

struct apply_result {
	git_oid base;
	char *base_desc;	/* "v6.1.192 (--base)", ... */
	char *base_warning;	/* set when the base is a substitute */
	/*
	 * The base is one someone named: --base, the series' stated base
	 * (base-commit:, a ref), or tree.defaultBase when it is a branch
	 * of a named tree ([tree "NAME"], "tip/sched/core"); not a guess,
	 * the nearest tag or a default of the bot's own tree.
	 */
	int base_named;
	git_oid head;
	char *branch;		/* full ref name */
	size_t nr_applied;
	size_t nr_3way;		/* patches that needed the 3-way merge */
	struct apply_failure fail;
};

/*
 * Choose the base: opts->base; else the commit the series names
 * (base-commit:, or "tip:sched/core at commit X" in its text), else the
 * ref it names (a tag like v6.13, a branch like tip/sched/core), each
 * after fetching the named trees that may hold it when opts->fetch (the
 * tree the series names first, then those of the lists it was sent to,
 * then those whose paths it touches, then the rest); else a commit whose tree has the pre-image blobs of the
 * patches' "index" lines (b4 am --guess-base), within tree.guessDepth
 * commits of each configured branch and HEAD; else the nearest version
 * tag or config tree.defaultBase (HEAD by default), with base_warning
 * saying "the stated base ... is in no configured tree; tested on ...
 * instead".  base_desc names a configured branch that holds the base:
 * "tip/sched/core 1234abcd5678 (sched/fair: ...)".  Returns 0, or -1
 * with an error printed.
 */
int apply_resolve_base(git_repository *repo, const struct series *s,
		       const struct apply_opts *opts, struct apply_result *r);

/*
 * Apply one patch's diff to tree; *out is the resulting tree.  Returns 0,
 * 1 when it applied only with the 3-way merge, -1 with f filled.
 */
int apply_diff(git_repository *repo, git_tree *tree, const char *diff,
	       int allow_3way, git_oid *out, struct apply_failure *f);

/*
 * Commit patches[0..n) onto r->base (already resolved): one commit per
 * patch with its author, date and message (subject, body, trailers),
 * committed by config bot.name/bot.email.  On success the branch
 * (refs/heads/<branch>) points to r->head.  On failure nothing but
 * unreferenced objects is written and r->fail says why.
 */
int apply_patches(git_repository *repo, const struct patch *patches,
		  size_t n, const char *branch, unsigned int flags,
		  struct apply_result *r);

/* The whole job: resolve the base, then apply_patches. */
int apply_series(git_repository *repo, const struct series *s,
		 const struct apply_opts *opts, struct apply_result *r);

/*
 * The commit message git am writes for p (link: with the Link: trailer
 * `sched-bot am` adds).  Caller frees.
 */
char *apply_commit_message(const struct patch *p, int link);

/* Print r->fail as the multi-line report (stderr). */
void apply_report_failure(const struct apply_result *r);

void apply_result_release(struct apply_result *r);

#endif
