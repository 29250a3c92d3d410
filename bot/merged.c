// SPDX-License-Identifier: GPL-2.0
/*
 * merged.c - measured series found merged into a named tree, their
 * recheck queued; see merged.h.
 */
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "jobdir.h"
#include "jobstate.h"
#include "merged.h"
#include "patchid.h"
#include "state.h"
#include "tree.h"
#include "util.h"

/* A patch-id of the branch, and where its commit is (0: the head). */
struct seen {
	char id[GIT_OID_HEXSZ + 1];
	size_t pos;
};

/* What a branch gained: its commits, newest first, and their ids. */
struct scan {
	git_oid *commits;
	size_t nr, alloc;
	struct seen *ids;
	size_t nr_ids, alloc_ids;
};

/* A job whose patches are all on the branch. */
struct found {
	long long job_id;
	size_t first, last;	/* positions of its first and last patch */
	char *target, *workloads;
};

struct matches {
	const struct scan *sc;
	struct found *v;
	size_t nr, alloc;
};

static int seen_cmp(const void *a, const void *b)
{
	return strcmp(((const struct seen *)a)->id,
		      ((const struct seen *)b)->id);
}

/* The first-parent walk from head to the head scanned last. */
static int walk(git_repository *repo, const git_oid *head, const char *last,
		size_t max, struct scan *sc)
{
	git_oid cur = *head, stop;
	int have_stop = last && !git_oid_fromstr(&stop, last);

	while (sc->nr < max && !(have_stop && git_oid_equal(&cur, &stop))) {
		git_commit *c = NULL;
		git_oid id;
		unsigned int parents;

		if (git_commit_lookup(&c, repo, &cur) < 0)
			return tree_git_error("merge scan");
		parents = git_commit_parentcount(c);
		ALLOC_GROW(sc->commits, sc->nr, sc->alloc);
		sc->commits[sc->nr] = cur;
		if (parents == 1 && !patchid_commit(repo, c, &id)) {
			ALLOC_GROW(sc->ids, sc->nr_ids, sc->alloc_ids);
			git_oid_tostr(sc->ids[sc->nr_ids].id, GIT_OID_HEXSZ + 1,
				      &id);
			sc->ids[sc->nr_ids++].pos = sc->nr;
		}
		sc->nr++;
		if (parents)
			cur = *git_commit_parent_id(c, 0);
		git_commit_free(c);
		if (!parents)
			break;
	}
	qsort(sc->ids, sc->nr_ids, sizeof(*sc->ids), seen_cmp);
	return 0;
}

/* Whether every patch-id of the job is on the branch, and where. */
static int match(const struct state_patches *p, long long job_id, void *data)
{
	struct matches *m = data;
	const char *s = p->patch_ids;
	size_t first = 0, last = (size_t)-1, n = 0;

	while (*s) {
		struct seen key, *hit;
		size_t len = strcspn(s, " ");

		if (len != GIT_OID_HEXSZ)
			return 0;
		memcpy(key.id, s, len);
		key.id[len] = '\0';
		hit = bsearch(&key, m->sc->ids, m->sc->nr_ids,
			      sizeof(*m->sc->ids), seen_cmp);
		if (!hit)
			return 0;
		/* newest first: the first patch is the farthest back */
		if (hit->pos >= first)
			first = hit->pos;
		if (hit->pos < last)
			last = hit->pos;
		n++;
		s += len;
		s += *s == ' ';
	}
	if (!n)
		return 0;
	ALLOC_GROW(m->v, m->nr, m->alloc);
	m->v[m->nr].job_id = job_id;
	m->v[m->nr].first = first;
	m->v[m->nr].last = last;
	m->v[m->nr].target = xstrdup(p->target ? p->target : "");
	m->v[m->nr].workloads = xstrdup(p->workloads ? p->workloads : "");
	m->nr++;
	return 0;
}

/* Did the job report a regression: its outcome, or its compare.json. */
static int regressed(const struct state_job *job)
{
	struct strbuf text = STRBUF_INIT;
	struct history_kpi *k;
	size_t i, nr;
	int ret = 0;

	if (job->outcome && !strcmp(job->outcome, "regression"))
		return 1;
	if (!job->job_dir ||
	    jobdir_read(job->job_dir, "compare.json", &text) < 0) {
		strbuf_release(&text);
		return 0;
	}
	nr = history_kpis(text.buf, text.len, &k);
	for (i = 0; i < nr && !ret; i++)
		ret = !strcmp(k[i].verdict, "regression");
	history_kpis_release(k, nr);
	strbuf_release(&text);
	return ret;
}

/* The job's report, from its state file: caller frees, or NULL. */
static char *report_of(const struct state_job *job)
{
	struct job_state s;
	char *path, *ret = NULL;

	if (!job->job_dir)
		return NULL;
	job_state_init(&s);
	path = jobdir_path(job->job_dir, "state");
	if (!job_state_read(&s, path) && s.reply_msgid)
		ret = xstrdup(s.reply_msgid);
	free(path);
	job_state_release(&s);
	return ret;
}

/* Record one job found on the branch; 1 new, 0 known, -1. */
static int record(struct state *st, git_repository *repo, const char *branch,
		  const struct scan *sc, const struct found *f)
{
	char commit[GIT_OID_HEXSZ + 1], parent[GIT_OID_HEXSZ + 1];
	struct state_merge m = { 0 };
	struct state_job job;
	git_commit *c = NULL;
	int ret, again;

	if (state_job_get(st, f->job_id, &job) <= 0)
		return 0;
	if (git_commit_lookup(&c, repo, &sc->commits[f->first]) < 0 ||
	    git_commit_parentcount(c) < 1) {
		git_commit_free(c);
		state_job_release(&job);
		return 0;
	}
	git_oid_tostr(parent, sizeof(parent), git_commit_parent_id(c, 0));
	git_commit_free(c);
	git_oid_tostr(commit, sizeof(commit), &sc->commits[f->last]);
	again = regressed(&job);
	m.job_id = f->job_id;
	m.tree = (char *)branch;
	m.commit = commit;
	m.parent = parent;
	m.target = f->target;
	m.workloads = f->workloads;
	m.report = report_of(&job);
	ret = state_merge_add(st, &m, again ? job.msgid : NULL);
	if (ret > 0) {
		info("merged: the patches of job %lld are in %s as %.12s%s",
		     f->job_id, branch, commit, again ?
		     "; it reported a regression: a recheck is queued" : "");
		if (again)
			info("queued job %lld: <%s> again, %.12s against "
			     "%.12s", m.recheck_job, job.msgid, commit,
			     parent);
		state_crash_point("merge-recorded");
	}
	free(m.report);
	state_job_release(&job);
	return ret;
}

static int scan_branch(struct state *st, git_repository *repo,
		       const char *ref, int max)
{
	const char *branch = ref + strlen("refs/remotes/");
	struct scan sc = { 0 };
	struct matches m = { .sc = &sc };
	char hex[GIT_OID_HEXSZ + 1], *key, *last;
	git_oid head;
	size_t i;
	int ret = 0, rc;

	if (git_reference_name_to_id(&head, repo, ref) < 0)
		return 0;
	git_oid_tostr(hex, sizeof(hex), &head);
	key = xasprintf("merge-scan:%s", branch);
	last = state_meta_get(st, key);
	if (last && !strcmp(last, hex))
		goto out;
	if (walk(repo, &head, last, (size_t)max, &sc) < 0) {
		warning("merge scan: %s is not read", branch);
		goto out;
	}
	if (state_measured_patches(st, match, &m) < 0) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < m.nr && ret >= 0; i++) {
		rc = record(st, repo, branch, &sc, &m.v[i]);
		ret = rc < 0 ? -1 : ret + rc;
	}
	/* the head is scanned when every merge on it is recorded */
	if (ret >= 0)
		state_meta_set(st, key, hex);
out:
	for (i = 0; i < m.nr; i++) {
		free(m.v[i].target);
		free(m.v[i].workloads);
	}
	free(m.v);
	free(sc.commits);
	free(sc.ids);
	free(last);
	free(key);
	return ret;
}

int merged_scan(struct state *st, git_repository *repo,
		const struct tree_remote *r, int max_commits)
{
	char **refs;
	size_t nr = tree_remote_refs(repo, r, &refs), i;
	int ret = 0, rc;

	for (i = 0; i < nr; i++) {
		rc = ret < 0 ? 0 : scan_branch(st, repo, refs[i], max_commits);
		ret = rc < 0 ? -1 : ret + rc;
		free(refs[i]);
	}
	free(refs);
	return ret;
}
