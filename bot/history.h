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

/* compare.json is the bot's own file, but read bounded all the same. */
#define HISTORY_JSON_MAX (16 << 20)

/* A KPI of a job's compare.json, diagnostics left out. */
struct history_kpi {
	char *name;		/* "spawn lps": workload, params, metric */
	double pct;		/* the change, NAN when none */
	char *verdict;		/* verdict_name(): "regression", ... */
};

/* The KPIs of the compare.json text; *out for history_kpis_release(). */
size_t history_kpis(const char *text, size_t len, struct history_kpi **out);
void history_kpis_release(struct history_kpi *k, size_t nr);

/* The earlier version's job a reply looks back at. */
struct history_then {
	int version;
	const char *json;	/* its compare.json */
	size_t len;
	const char *link;	/* its report, or NULL */
};

/*
 * For each KPI then's job called a regression, a line saying whether
 * this job (now_json, version now_version; identical: its kernels
 * alike in code and data, nothing measured) still sees it: "- v1
 * regressed spawn lps by -8.1%; in v2: -0.4%, within noise: gone" or
 * "still there".  Nothing when then regressed none.
 */
void history_still_there(const struct history_then *then,
			 const char *now_json, size_t now_len, int now_version,
			 int identical, struct strbuf *out);

#endif
