// SPDX-License-Identifier: GPL-2.0
/*
 * jobpast.c - what the bot measured before, as a job uses it (see
 * jobpast.h): the state database's lineage and patch-ids, the earlier
 * jobs' directories.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "jobdir.h"
#include "jobpast.h"
#include "jobreply.h"
#include "lineage.h"
#include "lore.h"
#include "patchid.h"
#include "plan.h"
#include "util.h"

void jobpast_lineage(const struct job_past *j, const struct series *s,
			const char *msgid)
{
	if (!j->st)
		return;
	if (lineage_record(j->st, s) < 0 ||
	    (j->db_id && state_job_version_set(j->st, j->db_id, msgid) < 0))
		warning("job %s: the lineage of <%s> is not recorded", j->dir,
			msgid);
}

/*
 * The first sentence of the last "Verdict: " of a job's verdict.txt (a
 * confirmed regression's is the confirmation's), its lines joined and
 * without its full stop; NULL when there is none.
 */
static char *verdict_sentence(const char *dir)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *p, *v = NULL;

	if (jobdir_read(dir, "verdict.txt", &sb) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	for (p = sb.buf; (p = strstr(p, "Verdict: ")); p++)
		v = p + strlen("Verdict: ");
	for (p = v; p && *p; p++) {
		/* "p < 0.01)." ends it, "0.01" does not */
		if (*p == '.' && (!p[1] || isspace((unsigned char)p[1])))
			break;
		if (isspace((unsigned char)*p)) {
			if (out.len && out.buf[out.len - 1] != ' ')
				strbuf_addch(&out, ' ');
		} else {
			strbuf_addch(&out, *p);
		}
	}
	strbuf_release(&sb);
	strbuf_trim(&out);
	if (!out.len) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

/*
 * What the earlier job found, in one line: nothing measured when its
 * kernels were alike, else its verdict, and why its numbers vouched
 * for nothing when they did not.
 */
static void earlier_verdict(const char *dir, struct job_state *es,
			    const char *outcome, struct strbuf *out)
{
	char *v = dir ? verdict_sentence(dir) : NULL;
	const char *why = dir ? job_reply_unvouched(dir, es) : NULL;

	if (dir && job_state_identical(es))
		strbuf_addstr(out, "nothing measured, the patched kernel's code and data were the base's");
	else if (v)
		strbuf_addstr(out, v);
	else
		strbuf_addstr(out, outcome);
	if (why && !job_state_identical(es))
		strbuf_addf(out, " (%s: no Tested-by)", why);
	free(v);
}

static void duplicate(const struct job_past *j, long long earlier)
{
	struct state_job ej;
	struct job_state es;
	struct strbuf f = STRBUF_INIT;
	char *path = NULL, *link = NULL, *cover, v[32] = "an earlier version";
	int have = 0;

	job_state_init(&es);
	if (state_job_get(j->st, earlier, &ej) <= 0)
		return;
	path = ej.job_dir ? jobdir_path(ej.job_dir, "state") : NULL;
	if (path && job_state_read(&es, path) < 0)
		warning("job %s: cannot read the state of job %lld", j->dir,
			earlier);
	else if (path)
		have = 1;
	if (es.version)
		snprintf(v, sizeof(v), "v%d", es.version);
	/* the earlier verdict, repeated in one line: never "measured" of a
	 * job that measured nothing
	 */
	strbuf_addf(&f, "They are the patches of %s [1], by patch-id (git patch-id --stable), on the same base (%.12s), target (%s) and workloads (%s).  Job %lld's verdict on them",
		    v, job_str(j->s->side[JOB_SIDE_BASE].commit),
		    job_str(j->s->target), job_str(j->s->workloads), earlier);
	if (es.reply_msgid) {
		link = lore_link(es.reply_msgid);
		strbuf_addstr(&f, " [2]: ");
		job_state_set(&j->s->same_as_reply, es.reply_msgid);
	} else {
		strbuf_addstr(&f, " (no report of it is recorded): ");
	}
	earlier_verdict(have ? ej.job_dir : NULL, &es, job_str(ej.outcome),
			&f);
	strbuf_addstr(&f, ".\n");
	/* references a reader opens: lore links, not message-ids */
	cover = lore_link(es.cover_msgid ? es.cover_msgid : ej.msgid);
	strbuf_addf(&f, "\n[1] %s\n", cover);
	free(cover);
	if (link)
		strbuf_addf(&f, "[2] %s\n", link);
	job_state_set(&j->s->same_as, ej.job_dir);
	jobdir_fail(j->dir, j->s, JOB_DUPLICATE, f.buf);
	info("job %s: the patches of job %lld, tested already: not built nor run%s",
	     j->dir, earlier, j->quiet ?
	     "; no reply (bot.quiet)" : "");
	if (j->quiet)
		j->s->stage = JOB_DONE;
	strbuf_release(&f);
	free(link);
	free(path);
	job_state_release(&es);
	state_job_release(&ej);
}

/*
 * Nothing twice: the patch-ids of what apply made are recorded with
 * the job, and when an earlier job measured the same patches on the
 * same base for the same target and workloads, this one stops here.
 */
void jobpast_seen_before(const struct job_past *j, git_repository *repo,
			    const struct apply_result *ar)
{
	struct strbuf ids = STRBUF_INIT;
	struct state_patches p = { 0 };
	long long earlier;

	if (patchid_range(repo, &ar->base, &ar->head, &ids) <= 0) {
		strbuf_release(&ids);
		return;
	}
	job_state_set(&j->s->patch_ids, ids.buf);
	strbuf_release(&ids);
	if (!j->st || !j->db_id)
		return;
	p.msgid = j->s->cover_msgid;
	p.base = j->s->side[JOB_SIDE_BASE].commit;
	p.target = job_str(j->s->target);
	p.workloads = j->s->workloads;
	p.patch_ids = j->s->patch_ids;
	if (state_job_patches_set(j->st, j->db_id, &p) < 0)
		return;
	earlier = state_job_same_patches(j->st, j->db_id, &p);
	if (earlier > 0)
		duplicate(j, earlier);
}

/* The newest measured job of an earlier version on the same target. */
struct earlier {
	struct state *st;
	const struct job_state *now;
	int version;		/* of the one found, 0: none yet */
	long long job;
	struct job_state s;	/* its state */
	char *dir;
};

static int earlier_job(const struct state_job *row, void *data)
{
	struct earlier *e = data;
	struct job_state s;
	char *path;

	if (!row->job_dir || !row->outcome ||
	    (strcmp(row->outcome, "tested") &&
	     strcmp(row->outcome, "regression")))
		return 0;
	job_state_init(&s);
	path = jobdir_path(row->job_dir, "state");
	/* a recheck after merge measured the tree's commits, not a version */
	if (!job_state_read(&s, path) && !s.head &&
	    job_same(s.target, e->now->target) &&
	    s.version < e->now->version && s.version >= e->version) {
		job_state_release(&e->s);
		free(e->dir);
		e->s = s;
		e->dir = xstrdup(row->job_dir);
		e->version = s.version;
		e->job = row->id;
	} else {
		job_state_release(&s);
	}
	free(path);
	return 0;
}

static int earlier_version(const struct state_version *v, void *data)
{
	struct earlier *e = data;

	if (v->version >= e->now->version ||
	    job_same(v->msgid, e->now->cover_msgid))
		return 0;
	return state_version_jobs(e->st, v->msgid, earlier_job, e);
}

/*
 * The newest measured earlier version's job, into e (set up by the
 * caller, freed by earlier_release); 0 when there is none.
 */
static int find_earlier(const struct job_past *j, struct earlier *e)
{
	struct state_version v;

	if (!j->st ||
	    state_version_get(j->st, job_str(j->s->cover_msgid), &v) <= 0)
		return 0;
	if (v.family)
		state_family_versions(j->st, v.family, earlier_version, e);
	state_version_release(&v);
	return e->dir != NULL;
}

static void earlier_release(struct earlier *e)
{
	job_state_release(&e->s);
	free(e->dir);
}

/*
 * The reply remembers: what the newest measured earlier version on
 * the same target regressed, and whether this version still does, in
 * earlier.txt for the reply (history.h words it).
 */
void jobpast_earlier(const struct job_past *j)
{
	struct earlier e = { .st = j->st, .now = j->s };
	struct strbuf then = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	struct history_then h = { 0 };
	char *link = NULL;

	if (j->s->outcome != JOB_TESTED && j->s->outcome != JOB_REGRESSION)
		return;
	job_state_init(&e.s);
	if (find_earlier(j, &e) && !jobdir_read(e.dir, "compare.json", &then)) {
		jobdir_read(j->dir, "compare.json", &now);
		link = e.s.reply_msgid ? lore_link(e.s.reply_msgid) : NULL;
		h.version = e.version;
		h.json = then.buf;
		h.len = then.len;
		h.link = link;
		history_still_there(&h, now.buf, now.len, j->s->version,
				    job_state_identical(j->s), &out);
		if (out.len)
			jobdir_write(j->dir, "earlier.txt", out.buf, out.len);
	}
	free(link);
	strbuf_release(&then);
	strbuf_release(&now);
	strbuf_release(&out);
	earlier_release(&e);
}

/* Add the n bytes of w to the comma-separated list, unless there. */
static void add_workload(struct strbuf *list, const char *w, size_t n)
{
	if (!plan_list_has(list->buf, w, n))
		strbuf_addf(list, "%s%.*s", list->len ? "," : "", (int)n, w);
}

void jobpast_run_first(const struct job_past *j)
{
	struct earlier e = { .st = j->st, .now = j->s };
	struct strbuf then = STRBUF_INIT, first = STRBUF_INIT;
	struct history_kpi *k = NULL;
	size_t i, nr = 0;

	job_state_init(&e.s);
	if (find_earlier(j, &e) && !jobdir_read(e.dir, "compare.json", &then))
		nr = history_kpis(then.buf, then.len, &k);
	/* a KPI is "workload params metric": its workload runs first */
	for (i = 0; i < nr; i++)
		if (!strcmp(k[i].verdict, "regression"))
			add_workload(&first, k[i].name,
				     strcspn(k[i].name, " "));
	if (first.len) {
		job_state_set(&j->s->run_first, first.buf);
		j->s->run_first_version = e.version;
		info("job %s: run first: %s, which v%d regressed", j->dir,
		     first.buf, e.version);
	}
	history_kpis_release(k, nr);
	strbuf_release(&then);
	strbuf_release(&first);
	earlier_release(&e);
}
