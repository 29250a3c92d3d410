/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merged.h - the series the bot measured, found merged into a named
 * tree, and the check after merge.
 *
 * After a fetch of a named tree (tree.h), the commits each of its
 * branches gained since the head scanned last (state meta
 * "merge-scan:tip/sched/core"), along first parents and at most
 * max_commits of them, are given their patch-ids (git patch-id
 * --stable, patchid.h).  A measured job (tested or regression) whose
 * every patch is among them is recorded as merged there, once per job
 * and branch (state.h's merges): the commit of its last patch and the
 * parent of its first.  When that job reported a regression (its
 * outcome, or a KPI its compare.json calls one), a recheck job is
 * queued in the same transaction, so that a kill -9 leaves both or
 * neither: the merged commit against that parent, on the job's target
 * and workloads (job.h's head, merged_into, report).  Its reply goes
 * under the report it rechecks: "still a regression on tip/sched/core
 * <sha>", with the Reported-by: and Closes: lines of a fix, or "not
 * seen on" (nothing under bot.quiet).
 *
 * A merge commit is passed along its first parent, its own diff not
 * looked at: a series merged in as a topic branch is not seen (tip
 * applies patches in line).  The first scan of a branch reads its
 * newest max_commits; so does one whose last head is no longer in its
 * history (a rebase).
 */
#ifndef SCHED_BOT_MERGED_H
#define SCHED_BOT_MERGED_H

#include <git2.h>

struct state;
struct tree_remote;

/*
 * Scan the branches of r as fetched into repo; returns the merges
 * recorded, or -1 on an error of the state (a branch that cannot be
 * read is skipped with a warning).
 */
int merged_scan(struct state *st, git_repository *repo,
		const struct tree_remote *r, int max_commits);

#endif
