/* SPDX-License-Identifier: GPL-2.0 */
/*
 * patchid.h - the patch-ids of the commits a series became, as `git
 * patch-id --stable` gives them (libgit2's git_diff_patchid: the diff
 * of each commit against its parent, whitespace and line numbers left
 * out), so that two versions of a series whose patches are the same
 * changes are known for the same, whatever their messages, dates and
 * hunk offsets.
 */
#ifndef SCHED_BOT_PATCHID_H
#define SCHED_BOT_PATCHID_H

#include <git2.h>

#include "util.h"

/* At most this many commits between base and head (a series is short). */
#define PATCHID_MAX_COMMITS 1000

/* The stable patch-id of one commit against its first parent. */
int patchid_commit(git_repository *repo, git_commit *c, git_oid *out);

/*
 * The patch-ids of the commits from base (not included) to head along
 * first parents, oldest first, hex, space-separated, into out.
 * Returns the number of commits, or -1 with an error printed (base is
 * not a first-parent ancestor of head within PATCHID_MAX_COMMITS).
 */
int patchid_range(git_repository *repo, const git_oid *base,
		  const git_oid *head, struct strbuf *out);

#endif
