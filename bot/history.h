/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h - a series' whole life from the bot's memory: its versions
 * as lineage.h linked them, each version's jobs, and each job's
 * outcome and verdict per KPI (from its compare.json), or, for a
 * duplicate, the job that measured the same patches.
 *
 * The lines are printed from two tables, one of a version's rows and
 * one of a job's, so a later record (a moderation decision, a merge)
 * is a row added, not a printer rewritten.
 */
#ifndef SCHED_BOT_HISTORY_H
#define SCHED_BOT_HISTORY_H

struct state;
struct strbuf;

/*
 * The history of the series that name (a message-id of a version, with
 * or without <>, or a b4 change-id) belongs to, appended to out.
 * Returns 0, 1 when the state knows no such version or change-id, -1
 * on an error of the state.
 */
int history_format(struct state *st, const char *name, struct strbuf *out);

#endif
