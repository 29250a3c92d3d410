// SPDX-License-Identifier: GPL-2.0
/*
 * job.c - the pipeline of `sched-bot test` and of cron's jobs, one
 * stage at a time, each resumable from the job directory (see job.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "align.h"
#include "arch.h"
#include "bisect.h"
#include "blocks.h"
#include "job.h"
#include "jobapply.h"
#include "jobdir.h"
#include "jobopts.h"
#include "jobpast.h"
#include "jobsend.h"
#include "jobreply.h"
#include "jobstate.h"
#include "json.h"
#include "lore.h"
#include "mbox.h"
#include "reply.h"
#include "secret.h"
#include "series.h"
#include "state.h"
#include "util.h"
#include "version.h"

#include "apply.h"
#include "tree.h"
#include "build.h"
#include "compare.h"
#include "facts.h"
#include "target/target.h"

static struct job_defaults defaults;
static int configured;

void job_configure(const struct job_defaults *d)
{
	defaults = *d;
	configured = 1;
}

/* Unconfigured, a job would run zero runs on no target: a bug. */
static const struct job_defaults *jd(void)
{
	if (!configured)
		die("BUG: job used before job_configure()");
	return &defaults;
}

/* A running job: its directory, its state, its lock. */
struct job {
	char *dir;
	struct job_state s;	/* the "state" file */
	int send;
	long long db_id;
	struct state *st;
	int lock;		/* the fd holding dir/lock, or -1 */
	struct job_blocks b;	/* its rounds of runs */
	/* the targets of job.target (or --target), one or a list */
	char **targets;
	size_t nr_targets;
};

/*
 * The targets a job runs on: its target, one name or a comma-separated
 * list ("q2,q4"), each name once, blanks around it dropped.  0 when the
 * list names none.
 */
static size_t job_targets(const char *list, char ***out)
{
	const char *p = list ? list : "";
	char **v = NULL;
	size_t n = 0, i;

	while (*p) {
		size_t len = strcspn(p, ",");
		char *name = xstrndup(p, len);
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, name);
		strbuf_trim(&sb);
		free(name);
		for (i = 0; i < n && strcmp(v[i], sb.buf); i++)
			;
		if (sb.len && i == n) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = strbuf_detach(&sb, NULL);
		}
		strbuf_release(&sb);
		p += len + (p[len] == ',');
	}
	*out = v;
	return n;
}

static void job_targets_release(struct job *j)
{
	size_t i;

	for (i = 0; i < j->nr_targets; i++)
		free(j->targets[i]);
	free(j->targets);
	j->targets = NULL;
	j->nr_targets = 0;
}

/* A job on several targets: each its own rows, one reply. */
static int job_multi(const struct job *j)
{
	return j->nr_targets > 1;
}

/* The job as jobpast.h sees it. */
static struct job_past past_of(struct job *j)
{
	struct job_past p = { .dir = j->dir, .s = &j->s, .st = j->st,
			      .db_id = j->db_id, .quiet = jd()->quiet };

	return p;
}

static int job_save(struct job *j)
{
	char *path = jobdir_path(j->dir, "state");
	int ret = job_state_write(&j->s, path);

	free(path);
	if (!ret && j->st && j->db_id)
		state_job_update(j->st, j->db_id, job_stage_name(j->s.stage),
				 NULL, j->dir);
	return ret;
}

/* job_save() for the rounds of blocks.h. */
static int save_job(void *job)
{
	return job_save(job);
}

/* 0 loaded, 1 a new job, -1 an unreadable state file. */
static int job_load(struct job *j)
{
	char *path = jobdir_path(j->dir, "state");
	int ret = job_state_read(&j->s, path);

	free(path);
	return ret;
}

/*
 * A stage's product into the job directory, and the job on to the next
 * stage; sb is released either way.
 */
static int stage_done(struct job *j, const char *file, struct strbuf *sb,
		      enum job_stage next)
{
	int ret = jobdir_write(j->dir, file, sb->buf, sb->len);

	strbuf_release(sb);
	if (ret < 0)
		return EXIT_FAIL;
	j->s.stage = next;
	return 0;
}

/* ---- fetch ---- */

static int stage_fetch(struct job *j)
{
	struct strbuf mbox = STRBUF_INIT;
	const char *src = j->s.mbox;
	int ret;

	if (src) {
		if (strbuf_read_file(&mbox, src) < 0) {
			strbuf_release(&mbox);
			error("cannot read %s: %s", src, strerror(errno));
			return EXIT_NOTFOUND;
		}
	} else {
		ret = lore_fetch_thread(job_str(j->s.msgid), &mbox);
		if (ret) {
			strbuf_release(&mbox);
			return ret;
		}
	}
	return stage_done(j, "thread.mbox", &mbox, JOB_SERIES);
}

/* ---- series ---- */

/*
 * The version in the bot's memory, linked to its earlier versions
 * (lineage.h), and the job to the version, for later jobs and for
 * `history`.  Only the memory: the job goes on without it.
 */
static int stage_series(struct job *j)
{
	struct job_past past;
	struct series s;
	struct strbuf out = STRBUF_INIT;
	const struct patch *first;
	int ret;

	ret = jobdir_series(j->dir, j->s.msgid, &s);
	if (ret)
		return ret;
	if (!s.nr_patches) {
		series_release(&s);
		return error("the thread holds no patch");
	}
	first = s.cover ? s.cover : &s.patches[0];
	past = past_of(j);
	jobpast_lineage(&past, &s, first->msgid);
	job_state_set(&j->s.cover_msgid, first->msgid);
	job_state_set(&j->s.subject, s.subject);
	job_state_set(&j->s.author, s.author_name);
	job_state_set(&j->s.author_email, s.author_email);
	j->s.version = s.version;
	j->s.nr_patches = (int)s.nr_patches;
	job_state_set(&j->s.series_base, s.base.commit ? s.base.commit :
		      s.base.ref);
	jobpast_run_first(&past);
	series_json(&s, &out);
	series_release(&s);
	return stage_done(j, "series.json", &out, JOB_APPLY);
}

/* ---- apply ---- */

static int stage_apply(struct job *j)
{
	struct job_past past;
	struct apply_opts ao = { 0 };
	struct apply_result ar;
	git_repository *repo = NULL;
	struct series s;
	struct strbuf log = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], *tp, *lock_path;
	int ret, lock;

	ret = jobdir_series(j->dir, j->s.msgid, &s);
	if (ret)
		return ret;
	tp = tree_default_path();
	if (tree_open(&repo, tp) < 0) {
		free(tp);
		series_release(&s);
		return EXIT_FAIL;
	}
	if (j->s.head) {
		ret = job_apply_merged(j->dir, &j->s, repo) ? EXIT_FAIL : 0;
		git_repository_free(repo);
		free(tp);
		series_release(&s);
		return ret;
	}
	memset(&ar, 0, sizeof(ar));
	ao.base = j->s.base;
	ao.fetch = jd()->fetch_on_demand;
	ao.progress = 1;
	/* jobs run in parallel share the tree: one writes its refs at a
	 * time */
	lock_path = xasprintf("%s/sched-bot-apply.lock", tp);
	lock = lock_file_wait(lock_path);
	free(lock_path);
	j->s.on_top_applied = 0;
	ret = apply_series(repo, &s, &ao, &ar);
	if (!ret && j->s.on_top && job_apply_on_top(j->dir, &j->s, repo, &ar))
		ret = -1;
	if (lock >= 0)
		close(lock);
	if (ret && !ar.fail.index && ar.fail.reason) {
		/* the series as a whole (series.maxPatches, ...) */
		strbuf_addf(&log, "The series was not applied");
		error("job %s: %s", j->dir, ar.fail.reason);
	} else if (ret && (ar.fail.reason || ar.fail.index)) {
		strbuf_addf(&log, "Patch %d/%d (%s) did not apply",
			    ar.fail.index, ar.fail.total,
			    ar.fail.subject ? ar.fail.subject : "?");
	}
	if (ret && (ar.fail.reason || ar.fail.index)) {
		if (ar.fail.file)
			strbuf_addf(&log, " to %s", ar.fail.file);
		strbuf_addf(&log, ":\n\n    %s\n",
			    ar.fail.reason ? ar.fail.reason : "failed");
		if (ar.fail.hunk_header)
			strbuf_addf(&log, "    hunk %d: %s\n", ar.fail.hunk,
				    ar.fail.hunk_header);
		if (ar.fail.three_way)
			strbuf_addf(&log, "    3-way: %s\n",
				    ar.fail.three_way);
		if (ar.fail.hint)
			job_state_set(&j->s.base_hint, ar.fail.hint);
		job_state_set(&j->s.base_desc, ar.base_desc ? ar.base_desc :
			      "the base");
		job_state_set(&j->s.base_warning, ar.base_warning);
		j->s.base_named = ar.base_named;
		jobdir_write(j->dir, "apply.log", log.buf, log.len);
		jobdir_fail(j->dir, &j->s, JOB_APPLY_FAILED, log.buf);
		ret = 0;
	} else if (ret) {
		ret = EXIT_FAIL;
	} else {
		git_oid_tostr(hex, sizeof(hex), &ar.base);
		job_state_set(&j->s.side[JOB_SIDE_BASE].commit, hex);
		git_oid_tostr(hex, sizeof(hex), &ar.head);
		job_state_set(&j->s.side[JOB_SIDE_HEAD].commit, hex);
		job_state_set(&j->s.base_desc, ar.base_desc);
		job_state_set(&j->s.base_warning, ar.base_warning);
		j->s.base_named = ar.base_named;
		strbuf_addf(&log, "base %s %s\nhead %s (%zu patches, %zu "
			    "with a 3-way merge)\n",
			    job_str(j->s.side[JOB_SIDE_BASE].commit),
			    job_str(j->s.base_desc), hex, ar.nr_applied,
			    ar.nr_3way);
		if (j->s.on_top_applied)
			strbuf_addf(&log, "on top: the diff of <%s>\n",
				    j->s.on_top);
		/* The reply says it: a substitute base is another kernel. */
		if (ar.base_warning)
			strbuf_addf(&log, "warning: %s\n", ar.base_warning);
		jobdir_write(j->dir, "apply.log", log.buf, log.len);
		j->s.stage = JOB_BUILD;
		past = past_of(j);
		jobpast_seen_before(&past, repo, &ar);
	}
	strbuf_release(&log);
	apply_result_release(&ar);
	git_repository_free(repo);
	free(tp);
	series_release(&s);
	return ret;
}

/* ---- build ---- */

/*
 * A build's log into the job, scrubbed as every job file is: streamed,
 * for it may be build.maxLog long.
 */
static void copy_into_job(struct job *j, const char *src,
				 const char *name)
{
	char *path;

	if (!src)
		return;
	path = jobdir_path(j->dir, name);
	if (secret_copy_file(src, path) < 0 && errno != ENOENT)
		error("cannot write %s: %s", path, strerror(errno));
	free(path);
}

/*
 * The digest of the vmlinux of a build, as the build stage took it when
 * the build finished (build.h), or NULL when it is unknown.
 */
static char *build_digest(const struct build_result *br)
{
	return br->digest ? xstrdup(br->digest) : NULL;
}

/*
 * The base config target.NAME.baseConfig asks for (the machine's own,
 * for one) and the fragments target.NAME.fragments names (onto the
 * machine's own, only what the bot needs there): taken once, when the
 * job first builds, so that a resumed job builds from what its first
 * kernels were built from.
 */
static int job_base_config(struct job *j)
{
	const char *first = j->nr_targets ? j->targets[0] :
			    job_str(j->s.target);
	char *base, *origin;
	size_t i;

	/*
	 * Only `sched-bot build` takes a target's architecture yet: a job
	 * (its builds, bisection and alignment control, its boots) is
	 * x86_64's, and would build x86 kernels with arm64's fragments.
	 */
	for (i = 0; i < j->nr_targets || (!i && !j->nr_targets); i++) {
		const char *t = j->nr_targets ? j->targets[i] : first;

		if (target_arch(t) != arch_find("x86_64"))
			return error("target %s: jobs on a target of target.%s.arch other than x86_64 are not supported yet (sched-bot build --target %s is)",
				     t, t, t);
	}
	if (!j->s.fragments)
		j->s.fragments = target_fragments(first);
	if (j->s.config_origin)
		return 0;
	if (target_base_config(first, &base, &origin) < 0)
		return -1;
	job_state_set(&j->s.base_config, base);
	job_state_set(&j->s.config_origin, origin);
	free(base);
	free(origin);
	return 0;
}

/*
 * What the patched kernel's config changes of a base config file (the
 * machine's own): config-changes.txt, the list the reply names, kept
 * whole for the job's page.  A kernel made from scratch (tinyconfig)
 * changes nothing of a config of its own: no file.
 */
static void keep_changes(struct job *j, const struct build_result *br)
{
	if (br->changes)
		jobdir_write(j->dir, "config-changes.txt", br->changes,
			     strlen(br->changes));
}

/* Two strings alike, NULL only as NULL. */
static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * A job on several targets builds its two kernels once for them all:
 * every target must build them as the first does (the same
 * target.NAME.baseConfig and fragments), as the QEMU guests of a job
 * do.  0, or -1 with the targets named when one would need kernels of
 * its own.
 */
static int same_kernels(struct job *j)
{
	size_t i;
	int ret = 0;

	for (i = 1; i < j->nr_targets && !ret; i++) {
		char *frag = target_fragments(j->targets[i]);
		char *base = NULL, *origin = NULL;

		if (target_base_config(j->targets[i], &base, &origin) < 0)
			ret = -1;
		else if (!same_text(frag, j->s.fragments) ||
			 !same_text(base, j->s.base_config))
			ret = error("targets %s and %s build their kernels from different configs (target.NAME.baseConfig, target.NAME.fragments): a job builds one pair for all its targets; test them in two jobs",
				    j->targets[0], j->targets[i]);
		free(frag);
		free(base);
		free(origin);
	}
	return ret;
}

static int stage_build(struct job *j)
{
	static const char *const sides[] = {
		[JOB_SIDE_BASE] = "base", [JOB_SIDE_HEAD] = "head",
	};
	struct strbuf kernels = STRBUF_INIT, cfg = STRBUF_INIT;
	const char *config;
	char *tp;
	size_t i;
	int ret = 0;

	if (job_base_config(j) < 0 || same_kernels(j) < 0)
		return EXIT_FAIL;
	tp = tree_default_path();
	for (i = 0; i < ARRAY_SIZE(sides) && !ret; i++) {
		struct job_side *side = &j->s.side[i];
		struct build_opts bo = { 0 };
		struct build_result br;
		char *log = xasprintf("build-%s.log", sides[i]);
		int rc;

		bo.tree = tp;
		bo.rev = job_str(side->commit);
		bo.base_config = j->s.base_config;
		bo.fragment_list = j->s.fragments;
		bo.progress = verbosity >= 0;
		/* the base is the tree's: only it may add to ccache */
		bo.trusted = i == JOB_SIDE_BASE;
		memset(&br, 0, sizeof(br));
		info("building the %s kernel (%.12s)", sides[i], bo.rev);
		rc = build_kernel(&bo, &br);
		copy_into_job(j, br.log, log);
		if (rc == 1) {
			struct strbuf f = STRBUF_INIT;

			strbuf_addf(&f, "The first errors:\n\n");
			if (br.errors)
				facts_indent_block(br.errors, &f);
			job_state_set(&j->s.failed_which,
				      i ? "patched" : "base");
			jobdir_fail(j->dir, &j->s, JOB_BUILD_FAILED, f.buf);
			strbuf_release(&f);
			ret = -2;
		} else if (rc < 0) {
			ret = EXIT_FAIL;
		} else {
			if (br.cached)
				info("%s build reused: %.12s (%s)", sides[i],
				     bo.rev, br.kernel);
			job_state_set(&side->kernel, br.kernel);
			job_state_set(&side->release, br.release);
			job_state_set(&side->config, br.config);
			job_state_set(&j->s.config_hash, br.config_hash);
			if (i == JOB_SIDE_HEAD)
				keep_changes(j, &br);
			free(side->digest);
			side->digest = build_digest(&br);
		}
		build_result_release(&br);
		free(log);
	}
	free(tp);
	if (ret == -2)
		return 0;
	if (ret)
		return ret;
	strbuf_addf(&kernels, "- base:    %.12s %s (%s)\n",
		    job_str(j->s.side[JOB_SIDE_BASE].commit), job_str(j->s.base_desc),
		    job_str(j->s.side[JOB_SIDE_BASE].release));
	strbuf_addf(&kernels, "- patched: %.12s base + %d patch(es) of v%d ",
		    job_str(j->s.side[JOB_SIDE_HEAD].commit), j->s.nr_patches,
		    j->s.version);
	if (j->s.on_top_applied)
		strbuf_addf(&kernels, "+ the diff of <%s> ", j->s.on_top);
	strbuf_addf(&kernels, "(%s)\n",
		    job_str(j->s.side[JOB_SIDE_HEAD].release));
	strbuf_addstr(&kernels, "- config:  ");
	config = j->s.side[JOB_SIDE_HEAD].config;
	if (config && strbuf_read_file(&cfg, config) >= 0)
		facts_config_highlights(cfg.buf, &kernels);
	strbuf_addch(&kernels, '\n');
	jobdir_write(j->dir, "kernels.txt", kernels.buf, kernels.len);
	strbuf_release(&kernels);
	strbuf_release(&cfg);
	j->s.stage = JOB_RUN;
	return 0;
}

/* ---- run ---- */

/*
 * The names the tables and the reply give the targets of a job on
 * several, in the words of seed 000's table ("x86_64 (4 CPUs)", what
 * each said of itself in its first block), the target's name added
 * where two would read alike; n of them, allocated.
 */
static char **job_machines(struct job *j)
{
	char **m = xcalloc(j->nr_targets, sizeof(*m));
	char **own = xcalloc(j->nr_targets, sizeof(*own));
	size_t i, k;

	for (i = 0; i < j->nr_targets; i++)
		own[i] = blocks_machine_name(j->dir, j->targets[i]);
	for (i = 0; i < j->nr_targets; i++) {
		int twin = 0;

		for (k = 0; k < j->nr_targets; k++)
			twin |= k != i && own[i] && own[k] &&
				!strcmp(own[i], own[k]);
		if (!own[i])
			m[i] = xasprintf("target %s", j->targets[i]);
		else if (twin)
			m[i] = xasprintf("%.*s, target %s)",
					 (int)strlen(own[i]) - 1, own[i],
					 j->targets[i]);
		else
			m[i] = xstrdup(own[i]);
	}
	for (i = 0; i < j->nr_targets; i++)
		free(own[i]);
	free(own);
	return m;
}

static void job_machines_free(struct job *j, char **m)
{
	size_t i;

	for (i = 0; m && i < j->nr_targets; i++)
		free(m[i]);
	free(m);
}

/*
 * The plan of a job on several targets for its reply, plan.txt: each
 * target planned its runs for its own CPUs (on-NAME/plan.txt); one
 * plan when they all came to the same, else each under its machine.
 */
static int write_plans(struct job *j)
{
	struct strbuf all = STRBUF_INIT, one = STRBUF_INIT;
	char **m = job_machines(j);
	size_t i, differ = 0, have = 0;
	int ret = 0;

	for (i = 0; i < j->nr_targets; i++) {
		char *td = blocks_target_dir(j->dir, j->targets[i]);

		strbuf_reset(&one);
		if (!jobdir_read(td, "plan.txt", &one)) {
			strbuf_trim(&one);
			if (have && strcmp(one.buf, all.buf))
				differ = 1;
			if (!have)
				strbuf_addstr(&all, one.buf);
			have++;
		}
		free(td);
	}
	if (differ) {
		strbuf_reset(&all);
		for (i = 0; i < j->nr_targets; i++) {
			char *td = blocks_target_dir(j->dir, j->targets[i]);

			strbuf_reset(&one);
			if (!jobdir_read(td, "plan.txt", &one)) {
				strbuf_trim(&one);
				strbuf_addf(&all, "%sOn %s:\n\n%s\n",
					    all.len ? "\n" : "", m[i], one.buf);
			}
			free(td);
		}
	} else if (have) {
		strbuf_addch(&all, '\n');
	}
	if (have && jobdir_write(j->dir, "plan.txt", all.buf, all.len) < 0)
		ret = EXIT_FAIL;
	job_machines_free(j, m);
	strbuf_release(&all);
	strbuf_release(&one);
	return ret;
}

/*
 * The runs of a job on several targets: each target in turn, its
 * workloads planned for it, its blocks interleaved A B / B A as on one
 * target, its rows into the job's results.csv with its name in their
 * target column.  One after the other: targets that are machines of
 * their own could run at once here (a child per target, as cron runs
 * jobs with target.NAME.parallel), the rows of each its own.
 */
static int run_targets(struct job *j, struct blocks_pair *pk)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < j->nr_targets && !ret; i++) {
		blocks_on_target(&j->b, j->targets[i], NULL);
		ret = blocks_workloads(&j->b);
		if (!ret)
			ret = blocks_run(&j->b, "results", 1, pk);
	}
	blocks_on_target(&j->b, NULL, NULL);
	if (!ret)
		ret = write_plans(j);
	return ret;
}

static int stage_run(struct job *j)
{
	struct blocks_pair pk;
	int ret;

	if (job_state_identical(&j->s)) {
		info("the patched kernel's code and data are identical to "
		     "the base's: no runs");
		j->s.stage = JOB_COMPARE;
		return 0;
	}
	/* several targets plan their workloads each (run_targets) */
	if (!job_multi(j)) {
		ret = blocks_workloads(&j->b);
		if (ret)
			return ret;
	}
	blocks_plan(&j->b);
	blocks_pair_of_job(&j->b, &pk);
	pk.report_boot = 1;
	if (j->s.runs < 1 && j->s.runs_fixed)
		j->s.runs = 1;
	ret = job_multi(j) ? run_targets(j, &pk) :
			     blocks_run(&j->b, "results", 1, &pk);
	if (ret == -2)
		return 0;
	if (ret)
		return ret;
	j->s.stage = JOB_COMPARE;
	return 0;
}

/* ---- compare ---- */

/* Base and patched vmlinux alike in code and data: no runs, say so. */
static int write_identical(struct job *j)
{
	const char *d = j->s.side[JOB_SIDE_HEAD].digest;
	struct strbuf v = STRBUF_INIT, t = STRBUF_INIT, js = STRBUF_INIT;
	int ret;

	strbuf_addstr(&v, "Verdict: nothing to measure: the patched "
		      "kernel's code and data are\nidentical to the "
		      "base's (every section of vmlinux that the kernel\n"
		      "loads, as the two builds wrote them), so neither "
		      "kernel was booted\nand nothing is claimed of their "
		      "speed.\n");
	strbuf_addf(&t, "vmlinux, every loaded section: identical "
		    "(SHA-1 %s, from the builds)\n", d);
	strbuf_addf(&js, "{\n  \"verdict\": \"%s\",\n  \"identical\": true,"
		    "\n  \"digest\": \"%s\"\n}\n",
		    verdict_name(VERDICT_NONE), d);
	ret = jobdir_write(j->dir, "verdict.txt", v.buf, v.len) < 0 ||
	      jobdir_write(j->dir, "tables.txt", t.buf, t.len) < 0 ||
	      jobdir_write(j->dir, "regressions.txt", "", 0) < 0 ||
	      jobdir_write(j->dir, "compare.json", js.buf, js.len) < 0;
	strbuf_release(&v);
	strbuf_release(&t);
	strbuf_release(&js);
	if (ret)
		return EXIT_FAIL;
	j->s.outcome = JOB_TESTED;
	j->s.stage = JOB_REPLY;
	return 0;
}

/*
 * The alignment control of a confirmed regression (align.h): its round
 * into r, its tables and sentence after the job's; the confirmation's
 * summary says whether the regression survived it.
 */
static int stage_align(struct job *j, struct blocks_round *confirm,
		       struct blocks_round *r, struct strbuf *tables,
		       struct strbuf *verdict)
{
	int rc = align_control(&j->b, jd()->alignment, confirm, r);

	if (rc)
		return rc;
	job_save(j);
	align_report(&j->b, jd()->alignment, r, tables, verdict,
		     &confirm->summary);
	return 0;
}

/*
 * The reply's summary names the first patch that shows the change when
 * the bisection found one short of the whole series: then its numbers
 * are that patch's (base + k against the base), not the series'.
 */
static void summary_of_bisect(struct job *j, struct blocks_round *last)
{
	int k = j->s.bisect_hi;
	struct blocks_round rt;
	char *name;

	if (j->s.confirmed != 1 || k < 1 || k >= j->s.nr_patches ||
	    k - j->s.bisect_lo != 1)
		return;
	name = xasprintf("bisect-%d.csv", k);
	blocks_round_init(&rt);
	if (!blocks_judge(&j->b, name, &rt) && rt.summary.len) {
		strbuf_reset(&last->summary);
		strbuf_add(&last->summary, rt.summary.buf, rt.summary.len);
	}
	blocks_round_release(&rt);
	free(name);
}

/*
 * The workloads of the KPIs round r regressed ("workload params metric
 * machine" lines), each once, comma-separated in out: the ones the
 * confirmation profiles with job.profile.
 */
static const char *profile_workloads(const struct blocks_round *r,
				     struct strbuf *out)
{
	const char *p = r->kpis.buf;

	while (*p) {
		size_t n = strcspn(p, " \n");
		char *w = xstrndup(p, n), *key = xasprintf(",%s,", w);
		char *have = xasprintf(",%s,", out->buf);

		if (n && !strstr(have, key))
			strbuf_addf(out, "%s%s", out->len ? "," : "", w);
		free(have);
		free(key);
		free(w);
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return out->len ? out->buf : NULL;
}

/* ---- compare, on several targets ---- */

/*
 * A round's verdict on one machine of several: "Verdict on x86_64 (4
 * CPUs): ...", rewrapped; a verdict of several paragraphs (a
 * confirmation's) under "On x86_64 (4 CPUs):".
 */
static void verdict_on(const char *machine, const char *text,
		       struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	if (starts_with(text, "Verdict: ") && !strstr(text, "\n\n") &&
	    !strstr(text, "\nVerdict: ")) {
		strbuf_addf(&sb, "Verdict on %s: ", machine);
		for (p = text + strlen("Verdict: "); *p; p++)
			strbuf_addch(&sb, *p == '\n' ? ' ' : *p);
		strbuf_trim(&sb);
		reply_wrap(sb.buf, 72, out);
		strbuf_trim(out);
		strbuf_addch(out, '\n');
	} else {
		strbuf_addf(out, "On %s:\n%s", machine, text);
	}
	strbuf_release(&sb);
}

/*
 * What a round measured, in a phrase for the reply's first sentence:
 * its verdict's first sentence ("no significant change in the 2 KPIs
 * judged; ..."), its lines joined, on machine.
 */
static void measured_on(const char *machine, const char *verdict,
			struct strbuf *out)
{
	const char *t = starts_with(verdict, "Verdict: ") ?
			verdict + strlen("Verdict: ") : verdict;
	struct strbuf sb = STRBUF_INIT;
	char *end;

	for (; *t; t++)
		strbuf_addch(&sb, *t == '\n' ? ' ' : *t);
	end = strstr(sb.buf, ". ");
	if (end)
		strbuf_setlen(&sb, end - sb.buf);
	strbuf_trim(&sb);
	while (sb.len && sb.buf[sb.len - 1] == '.')
		strbuf_setlen(&sb, sb.len - 1);
	strbuf_addf(out, "%son %s: %s", out->len ? "; " : "", machine,
		    sb.buf);
	strbuf_release(&sb);
}

/*
 * The summary of a job on several targets (summary.txt, compare_summary
 * "key: value" lines): the leads of every target with a call, each on
 * its machine ("-30.0% regression of spawn.lps on aarch64 (4 CPUs),
 * -10.0% on x86_64 (4 CPUs)"), the testcase and rule of the first, the
 * KPIs that moved and the why of each on its machine, and the machines
 * ("machines:") for the reply's frame.
 */
struct multi_summary {
	struct strbuf lead, head, rest, machines;
	char *first_lead;
};

/*
 * A lead without its "(params, on MACHINE)": the headline names the
 * machine after it, the frame the params.
 */
static char *lead_core(const char *lead)
{
	size_t n = strlen(lead), depth = 0;

	if (!n || lead[n - 1] != ')')
		return xstrdup(lead);
	while (n--) {
		if (lead[n] == ')')
			depth++;
		else if (lead[n] == '(' && !--depth)
			break;
	}
	while (n && n != (size_t)-1 && lead[n - 1] == ' ')
		n--;
	return n && n != (size_t)-1 ? xstrndup(lead, n) : xstrdup(lead);
}

static void add_summary(struct multi_summary *ms, const char *sum,
			const char *machine)
{
	const char *p = sum;
	int first = !ms->first_lead;

	while (*p) {
		size_t n = strcspn(p, "\n"), k = strcspn(p, ":\n");
		const char *val = p + k + (k < n) + (k + 1 < n);
		char *key = xstrndup(p, k), *v = xstrndup(val, p + n - val);

		if (k >= n) {
			/* not a "key: value" line */
		} else if (!strcmp(key, "lead") && first) {
			ms->first_lead = lead_core(v);
			strbuf_addf(&ms->lead, "%s on %s", ms->first_lead,
				    machine);
			strbuf_addstr(&ms->machines, machine);
		} else if (!strcmp(key, "lead")) {
			char *core = lead_core(v);
			const char *mine = strchr(core, ' ');
			const char *theirs = strchr(ms->first_lead, ' ');

			/* "-10.0% on x86_64 (4 CPUs)": the same KPI */
			if (mine && theirs && !strcmp(mine, theirs))
				strbuf_addf(&ms->lead, ", %.*s on %s",
					    (int)(mine - core), core, machine);
			else
				strbuf_addf(&ms->lead, ", %s on %s", core,
					    machine);
			strbuf_addf(&ms->machines, ", %s", machine);
			free(core);
		} else if (!strcmp(key, "moved")) {
			/* its "(params, on MACHINE)" says where */
			strbuf_addf(&ms->rest, "%s: %s\n", key, v);
		} else if (!strcmp(key, "why")) {
			strbuf_addf(&ms->rest, "%s: %s on %s\n", key, v,
				    machine);
		} else if (first) {
			strbuf_addf(&ms->head, "%s: %s\n", key, v);
		}
		free(key);
		free(v);
		p += n + (p[n] == '\n');
	}
}

static void multi_summary_text(struct multi_summary *ms, struct strbuf *out)
{
	if (!ms->first_lead)
		return;
	strbuf_addf(out, "lead: %s\n%smachines: %s\n%s", ms->lead.buf,
		    ms->head.buf, ms->machines.buf, ms->rest.buf);
}

/*
 * compare.json of a job on several targets: the worst verdict of them
 * (the reply's claims and the mail policy read it), then each target's
 * own document with its name and machine.
 */
static void multi_json(struct job *j, char **m, struct blocks_round **last,
		       struct strbuf *out)
{
	enum verdict worst = VERDICT_NONE;
	size_t i;

	for (i = 0; i < j->nr_targets; i++)
		if (last[i]->v > worst)
			worst = last[i]->v;
	strbuf_addf(out, "{\n  \"verdict\": \"%s\",\n  \"targets\": [\n",
		    verdict_name(worst));
	for (i = 0; i < j->nr_targets; i++) {
		struct strbuf doc = STRBUF_INIT;

		strbuf_add(&doc, last[i]->json.buf, last[i]->json.len);
		strbuf_trim(&doc);
		strbuf_addstr(out, "    {\"target\": ");
		json_quote(out, j->targets[i], strlen(j->targets[i]));
		strbuf_addstr(out, ", \"machine\": ");
		json_quote(out, m[i], strlen(m[i]));
		strbuf_addf(out, ", \"compare\": %s}%s\n",
			    doc.len ? doc.buf : "null",
			    i + 1 < j->nr_targets ? "," : "");
		strbuf_release(&doc);
	}
	strbuf_addstr(out, "  ]\n}\n");
}

static int stage_compare_multi(struct job *j)
{
	size_t n = j->nr_targets, i, first = n;
	struct blocks_round *r1 = xcalloc(n, sizeof(*r1));
	struct blocks_round *r2 = xcalloc(n, sizeof(*r2)), r3;
	struct blocks_round **last = xcalloc(n, sizeof(*last));
	struct strbuf tables = STRBUF_INIT, verdict = STRBUF_INIT;
	struct strbuf regs = STRBUF_INIT, json = STRBUF_INIT;
	struct strbuf sum = STRBUF_INIT, measured = STRBUF_INIT;
	struct strbuf profile = STRBUF_INIT;
	struct multi_summary ms = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				    STRBUF_INIT, NULL };
	char **m = job_machines(j);
	int ret = EXIT_FAIL, rc, confirmed = 0, unconfirmed = 0;

	for (i = 0; i < n; i++) {
		blocks_round_init(&r1[i]);
		blocks_round_init(&r2[i]);
	}
	blocks_round_init(&r3);
	/* each target judged on its own rows, its own family */
	for (i = 0; i < n; i++) {
		blocks_on_target(&j->b, j->targets[i], m[i]);
		last[i] = &r1[i];
		if (blocks_judge(&j->b, "results.csv", &r1[i]) < 0)
			goto out;
		if (r1[i].v != VERDICT_REGRESSION)
			continue;
		{
			struct blocks_pair pk;

			/* accuse only what a fresh round on it repeats */
			info("a suspected regression on %s: a confirmation round",
			     m[i]);
			blocks_pair_of_job(&j->b, &pk);
			strbuf_reset(&profile);
			if (jd()->profile)
				pk.profile = profile_workloads(&r1[i],
							       &profile);
			rc = blocks_run(&j->b, "confirm", 2, &pk);
			if (rc) {
				ret = rc == -2 ? EXIT_FAIL : rc;
				goto out;
			}
		}
		if (blocks_judge(&j->b, "confirm.csv", &r2[i]) < 0)
			goto out;
		last[i] = &r2[i];
		if (r2[i].v == VERDICT_REGRESSION) {
			confirmed++;
			if (first == n)
				first = i;
		} else {
			unconfirmed++;
		}
	}
	/* the reply's Machine block: each target under its name */
	for (i = 0; i < n; i++)
		strbuf_addf(&sum, "%s\t%s\n", j->targets[i], m[i]);
	if (jobdir_write(j->dir, "machines.txt", sum.buf, sum.len) < 0)
		goto out;
	strbuf_reset(&sum);
	/* one set of tables, a row (or columns) per machine */
	if (blocks_tables(&j->b, "results.csv", j->targets, m, n,
			  &tables) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		struct strbuf t = STRBUF_INIT;

		if (last[i] == &r2[i]) {
			strbuf_addf(&tables, "\nThe confirmation on %s, a "
				    "fresh round of %zu blocks:\n\n", m[i],
				    r2[i].blocks);
			strbuf_add(&tables, r2[i].tables.buf,
				   r2[i].tables.len);
			strbuf_addf(&t, "The first round (%zu blocks):\n%s\n"
				    "The confirmation (a fresh round of %zu "
				    "blocks):\n%s", r1[i].blocks,
				    r1[i].verdict.buf, r2[i].blocks,
				    r2[i].verdict.buf);
			if (r2[i].v != VERDICT_REGRESSION)
				strbuf_addstr(&t, "\nThe confirmation did not "
					      "repeat the first round's "
					      "regression:\nnone is reported.\n");
		} else {
			strbuf_add(&t, r1[i].verdict.buf, r1[i].verdict.len);
		}
		if (verdict.len)
			strbuf_addch(&verdict, '\n');
		verdict_on(m[i], t.buf, &verdict);
		strbuf_release(&t);
	}
	j->s.confirmed = confirmed ? 1 : unconfirmed ? 2 : 0;
	/* the controls of a confirmed regression: on its first machine */
	if (confirmed) {
		blocks_on_target(&j->b, j->targets[first], m[first]);
		if (align_enabled(jd()->alignment)) {
			rc = stage_align(j, &r2[first], &r3, &tables,
					 &verdict);
			if (rc) {
				ret = rc;
				goto out;
			}
			if (j->s.aligned == ALIGN_NOT_SEEN)
				last[first] = &r3;
		}
	}
	j->s.outcome = confirmed && j->s.aligned != ALIGN_NOT_SEEN ?
		       JOB_REGRESSION : JOB_TESTED;
	if (j->s.outcome == JOB_REGRESSION && j->s.nr_patches > 1 &&
	    !j->s.head) {
		rc = bisect_series(&j->b, r2[first].regs.buf);
		if (rc) {
			ret = rc;
			goto out;
		}
	}
	if (confirmed)
		summary_of_bisect(j, last[first]);
	for (i = 0; i < n; i++) {
		char *td = blocks_target_dir(j->dir, j->targets[i]);

		strbuf_add(&regs, last[i]->regs.buf, last[i]->regs.len);
		add_summary(&ms, last[i]->summary.buf, m[i]);
		measured_on(m[i], last[i]->verdict.buf, &measured);
		/* each target's own, for its page */
		if (jobdir_write(td, "compare.json", last[i]->json.buf,
				 last[i]->json.len) < 0 ||
		    jobdir_write(td, "summary.txt", last[i]->summary.buf,
				 last[i]->summary.len) < 0) {
			free(td);
			goto out;
		}
		free(td);
	}
	strbuf_addstr(&measured, ".\n");
	multi_summary_text(&ms, &sum);
	multi_json(j, m, last, &json);
	if (jobdir_write(j->dir, "compare.json", json.buf, json.len) < 0 ||
	    jobdir_write(j->dir, "tables.txt", tables.buf, tables.len) < 0 ||
	    jobdir_write(j->dir, "verdict.txt", verdict.buf, verdict.len) < 0 ||
	    jobdir_write(j->dir, "measured.txt", measured.buf,
			 measured.len) < 0 ||
	    jobdir_write(j->dir, "regressions.txt", regs.buf, regs.len) < 0 ||
	    jobdir_write(j->dir, "summary.txt", sum.buf, sum.len) < 0)
		goto out;
	j->s.stage = JOB_REPLY;
	ret = 0;
out:
	blocks_on_target(&j->b, NULL, NULL);
	for (i = 0; i < n; i++) {
		blocks_round_release(&r1[i]);
		blocks_round_release(&r2[i]);
	}
	blocks_round_release(&r3);
	free(r1);
	free(r2);
	free(last);
	job_machines_free(j, m);
	strbuf_release(&tables);
	strbuf_release(&verdict);
	strbuf_release(&regs);
	strbuf_release(&json);
	strbuf_release(&sum);
	strbuf_release(&measured);
	strbuf_release(&profile);
	strbuf_release(&ms.lead);
	strbuf_release(&ms.head);
	strbuf_release(&ms.rest);
	strbuf_release(&ms.machines);
	free(ms.first_lead);
	return ret;
}

static int stage_compare(struct job *j)
{
	struct blocks_round r1, r2, r3, *last = &r1;
	struct strbuf tables = STRBUF_INIT, verdict = STRBUF_INIT;
	struct strbuf profile = STRBUF_INIT;
	int ret = EXIT_FAIL, rc;

	blocks_plan(&j->b);
	if (job_state_identical(&j->s))
		return write_identical(j);
	if (job_multi(j))
		return stage_compare_multi(j);
	blocks_round_init(&r1);
	blocks_round_init(&r2);
	blocks_round_init(&r3);
	if (blocks_judge(&j->b, "results.csv", &r1) < 0)
		goto out;
	strbuf_add(&tables, r1.tables.buf, r1.tables.len);
	strbuf_add(&verdict, r1.verdict.buf, r1.verdict.len);
	if (r1.v == VERDICT_REGRESSION) {
		/* accuse only what a fresh round of blocks repeats */
		struct blocks_pair pk;

		info("a suspected regression: a confirmation round");
		blocks_pair_of_job(&j->b, &pk);
		if (jd()->profile)
			pk.profile = profile_workloads(&r1, &profile);
		rc = blocks_run(&j->b, "confirm", 2, &pk);
		if (rc) {
			ret = rc == -2 ? EXIT_FAIL : rc;
			goto out;
		}
		if (blocks_judge(&j->b, "confirm.csv", &r2) < 0)
			goto out;
		last = &r2;
		j->s.confirmed = r2.v == VERDICT_REGRESSION ? 1 : 2;
		strbuf_addf(&tables, "\nThe confirmation, a fresh round of "
			    "%zu interleaved blocks:\n\n", r2.blocks);
		strbuf_add(&tables, r2.tables.buf, r2.tables.len);
		strbuf_reset(&verdict);
		strbuf_addf(&verdict, "The first round (%zu blocks):\n%s\n"
			    "The confirmation (a fresh round of %zu blocks):"
			    "\n%s", r1.blocks, r1.verdict.buf, r2.blocks,
			    r2.verdict.buf);
		if (j->s.confirmed != 1)
			strbuf_addstr(&verdict, "\nThe confirmation did not "
				      "repeat the first round's regression:\n"
				      "none is reported.\n");
	}
	if (j->s.confirmed == 1 && align_enabled(jd()->alignment)) {
		rc = stage_align(j, &r2, &r3, &tables, &verdict);
		if (rc) {
			ret = rc;
			goto out;
		}
		if (j->s.aligned == ALIGN_NOT_SEEN)
			last = &r3;
	}
	j->s.outcome = j->s.confirmed == 1 && j->s.aligned != ALIGN_NOT_SEEN ?
		       JOB_REGRESSION : JOB_TESTED;
	/* a recheck after merge: the report it rechecks named the patch */
	if (j->s.outcome == JOB_REGRESSION && j->s.nr_patches > 1 &&
	    !j->s.head) {
		rc = bisect_series(&j->b, r2.regs.buf);
		if (rc) {
			ret = rc;
			goto out;
		}
	}
	summary_of_bisect(j, last);
	if (jobdir_write(j->dir, "compare.json", last->json.buf,
			   last->json.len) < 0 ||
	    jobdir_write(j->dir, "tables.txt", tables.buf, tables.len) < 0 ||
	    jobdir_write(j->dir, "verdict.txt", verdict.buf, verdict.len) < 0 ||
	    jobdir_write(j->dir, "regressions.txt", last->regs.buf,
			   last->regs.len) < 0 ||
	    jobdir_write(j->dir, "summary.txt", last->summary.buf,
			 last->summary.len) < 0)
		goto out;
	j->s.stage = JOB_REPLY;
	ret = 0;
out:
	blocks_round_release(&r1);
	blocks_round_release(&r2);
	blocks_round_release(&r3);
	strbuf_release(&tables);
	strbuf_release(&verdict);
	strbuf_release(&profile);
	return ret;
}

/* ---- reply ---- */

static int stage_reply(struct job *j)
{
	struct job_past past;
	int ret;

	/* after merge, with bot.quiet, "not seen" is news to nobody, nor
	 * is a recheck that could not see anything */
	if (j->s.head && j->s.outcome == JOB_TESTED && jd()->quiet) {
		const char *why = job_reply_unvouched(j->dir, &j->s);

		if (why)
			info("job %s: could not be rechecked on %s (%s); no "
			     "reply (bot.quiet)", j->dir,
			     job_str(j->s.merged_into), why);
		else
			info("job %s: not seen on %s; no reply (bot.quiet)",
			     j->dir, job_str(j->s.merged_into));
		j->s.stage = JOB_DONE;
		return 0;
	}
	past = past_of(j);
	if (!j->s.head)
		jobpast_earlier(&past);
	ret = job_reply_write(j->dir, &j->s);

	if (!ret)
		j->s.stage = JOB_SEND;
	return ret;
}

/* ---- send ---- */

/*
 * A reply bot.moderation holds: the moderators get a note with it
 * attached, and the reply itself waits in the state for their word
 * (moderation.h).  1 when held, 0 when it goes as it is, -1 on error.
 */
static int stage_send(struct job *j)
{
	return job_send(j->dir, &j->s, j->st, j->db_id, j->send);
}

/* ---- the driver ---- */

char *job_default_dir(const char *msgid)
{
	const char *base = jd()->dir;
	char *root = base && *base ? xstrdup(base) : data_path("jobs");
	char *safe = xstrdup(msgid), *p, *ret;

	for (p = safe; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("@.-_+=", *p))
			*p = '_';
	if (safe[0] == '.')
		safe[0] = '_';
	ret = xasprintf("%s/%s", root, safe);
	free(root);
	free(safe);
	return ret;
}

/* An option of job_opts: NULL when not given (NULL or ""). */
/* Returns 0, or the exit code with the error printed. */
static int job_setup(struct job *j, const struct job_opts *o)
{
	struct job_state old;
	char *mbox = NULL;
	int fresh, ret = EXIT_USAGE;

	job_state_init(&old);
	if (o->dir) {
		j->dir = xstrdup(o->dir);
	} else if (o->msgid) {
		j->dir = job_default_dir(o->msgid);
	} else {
		error("a job needs a message-id, --mbox or --job-dir");
		goto out;
	}
	if (mkdir_p(j->dir, 0755) < 0) {
		error("cannot create %s: %s", j->dir, strerror(errno));
		goto out;
	}
	/* before the state is read: until then it may be another's */
	j->lock = job_state_lock(j->dir);
	if (j->lock < 0) {
		ret = EXIT_FAIL;
		goto out;
	}
	if (o->mbox) {
		mbox = realpath(o->mbox, NULL);
		if (!mbox) {
			error("cannot read %s: %s", o->mbox, strerror(errno));
			goto out;
		}
	}
	fresh = job_load(j);
	if (fresh < 0)
		goto out;
	if (fresh) {
		if (!o->msgid && !mbox) {
			error("%s holds no job; give a message-id or --mbox",
			      j->dir);
			goto out;
		}
		jobopts_start(&j->s, o->msgid, mbox, o, &old, jd());
	} else if (!o->restart) {
		if (jobopts_differ(j->dir, &j->s, o, mbox))
			goto out;
		info("resuming job %s at stage %s", j->dir,
		     job_stage_name(j->s.stage));
		ret = 0;
		goto out;
	} else {
		/* another thread is taken as given, message-id and mbox */
		int other = jobopts_other_thread(&j->s, o->msgid, mbox);
		int keep = !other && j->s.stage > JOB_FETCH;

		if (jobdir_clean(j->dir, keep) < 0) {
			ret = EXIT_FAIL;
			goto out;
		}
		old = j->s;
		job_state_init(&j->s);
		jobopts_start(&j->s, other ? o->msgid : old.msgid,
			      other ? mbox : old.mbox, o, &old, jd());
		j->s.stage = keep ? JOB_SERIES : JOB_FETCH;
		info("starting job %s over at stage %s%s", j->dir,
		     job_stage_name(j->s.stage),
		     keep ? ", with the thread fetched before" : "");
	}
	ret = job_save(j) < 0 ? EXIT_FAIL : 0;
out:
	job_state_release(&old);
	free(mbox);
	return ret;
}

typedef int (*stage_fn)(struct job *j);

static const stage_fn stage_fns[] = {
	[JOB_FETCH] = stage_fetch,
	[JOB_SERIES] = stage_series,
	[JOB_APPLY] = stage_apply,
	[JOB_BUILD] = stage_build,
	[JOB_RUN] = stage_run,
	[JOB_COMPARE] = stage_compare,
	[JOB_REPLY] = stage_reply,
	[JOB_SEND] = stage_send,
};

int job_run(const struct job_opts *o, struct state *st, char **outcome,
	    char **dir_out)
{
	struct job j = { 0 };
	const char *oc;
	int ret = 0;

	job_state_init(&j.s);
	j.lock = -1;
	j.send = o->send;
	j.db_id = o->db_id;
	j.st = st;
	ret = job_setup(&j, o);
	if (ret)
		goto out;
	j.nr_targets = job_targets(j.s.target, &j.targets);
	blocks_init(&j.b, j.dir, &j.s, save_job, &j);
	j.b.several = job_multi(&j);
	while (j.s.stage != JOB_DONE) {
		enum job_stage before = j.s.stage;
		char *point;

		debug("job %s: stage %s", j.dir, job_stage_name(j.s.stage));
		disk_full_clear();
		ret = stage_fns[j.s.stage](&j);
		if (ret < 0)
			ret = EXIT_FAIL;
		/* a file the stage meant to write is missing: not done */
		if (disk_full_path()) {
			ret = jobdir_disk_full(j.dir, job_stage_name(before));
			goto out;
		}
		if (ret) {
			error("job %s stopped at stage %s; run it again to "
			      "resume", j.dir, job_stage_name(before));
			goto out;
		}
		if (job_save(&j) < 0) {
			ret = disk_full_path() ?
			      jobdir_disk_full(j.dir, job_stage_name(before)) :
			      EXIT_FAIL;
			goto out;
		}
		point = xasprintf("after-%s", job_stage_name(before));
		state_crash_point(point);
		free(point);
	}
	oc = job_outcome_name(j.s.outcome);
	if (st && j.db_id)
		state_job_update(st, j.db_id, "done", oc, j.dir);
	if (j.s.outcome == JOB_REGRESSION)
		ret = EXIT_REGRESSION;
	else if (j.s.outcome == JOB_TESTED || j.s.outcome == JOB_DUPLICATE)
		ret = EXIT_OK;
	else
		ret = EXIT_FAIL;
out:
	if (outcome)
		*outcome = xstrdup(job_outcome_name(j.s.outcome));
	if (dir_out)
		*dir_out = j.dir ? xstrdup(j.dir) : NULL;
	job_state_unlock(j.lock);
	job_state_release(&j.s);
	blocks_release(&j.b);
	job_targets_release(&j);
	free(j.dir);
	return ret;
}
