// SPDX-License-Identifier: GPL-2.0
/*
 * blocks.c - a job's rounds of interleaved blocks and their judgement
 * (see blocks.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blocks.h"
#include "facts.h"
#include "jobdir.h"
#include "plan.h"
#include "samples.h"
#include "secret.h"
#include "tblfmt.h"
#include "tree.h"
#include "target/target.h"

static struct blocks_opts opts;
static int configured;

void blocks_configure(const struct blocks_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, a block would run for zero seconds: a bug. */
static const struct blocks_opts *bo(void)
{
	if (!configured)
		die("BUG: blocks used before blocks_configure()");
	return &opts;
}

void blocks_init(struct job_blocks *b, const char *dir, struct job_state *js,
		 int (*save)(void *ctx), void *ctx)
{
	memset(b, 0, sizeof(*b));
	b->dir = dir;
	b->js = js;
	b->save = save;
	b->ctx = ctx;
}

void blocks_release(struct job_blocks *b)
{
	free(b->workloads);
	free(b->workload_args);
	free(b->append);
	free(b->format);
	free(b->target);
	free(b->tdir);
	free(b->machine);
	b->workloads = b->workload_args = b->format = b->append = NULL;
	b->target = b->tdir = b->machine = NULL;
}

char *blocks_target_dir(const char *dir, const char *name)
{
	return xasprintf("%s/on-%s", dir, name);
}

void blocks_on_target(struct job_blocks *b, const char *target,
		      const char *machine)
{
	free(b->workloads);
	free(b->workload_args);
	/* the reporter's size is each target's own (write_cut) */
	free(b->append);
	b->append = NULL;
	free(b->target);
	free(b->tdir);
	free(b->machine);
	b->workloads = b->workload_args = NULL;
	b->target = target ? xstrdup(target) : NULL;
	b->tdir = target ? blocks_target_dir(b->dir, target) : NULL;
	b->machine = machine ? xstrdup(machine) : NULL;
	if (b->tdir)
		mkdir_p(b->tdir, 0755);
}

/* The target the rounds run on. */
static const char *tgt(const struct job_blocks *j)
{
	return j->target ? j->target : job_str(j->js->target);
}

/* Where that target's own files go: the job's directory, or on-NAME/. */
static const char *tdir(const struct job_blocks *j)
{
	return j->tdir ? j->tdir : j->dir;
}

/*
 * The env record target name of a job on several kept of itself in its
 * first block (the patched kernel's, else the base's) into env; -1
 * when there is none.
 */
static int target_env(const char *dir, const char *name, struct kv *env)
{
	static const char *const files[] = {
		"run-1-head/env.txt", "run-1-base/env.txt",
	};
	char *td = blocks_target_dir(dir, name);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = -1;

	for (i = 0; i < ARRAY_SIZE(files) && ret; i++)
		if (!jobdir_read(td, files[i], &sb)) {
			facts_env_parse(sb.buf, env);
			ret = 0;
		}
	strbuf_release(&sb);
	free(td);
	return ret;
}

char *blocks_machine_name(const char *dir, const char *name)
{
	struct kv env = { 0 };
	const char *arch, *cpus;
	char *ret = NULL;

	if (target_env(dir, name, &env) < 0)
		return NULL;
	arch = kv_get(&env, "arch");
	cpus = kv_get(&env, "nr_cpus");
	if (arch || cpus)
		ret = xasprintf("%s (%s CPU%s)", arch ? arch : "?",
				cpus ? cpus : "?",
				cpus && !strcmp(cpus, "1") ? "" : "s");
	kv_release(&env);
	return ret;
}

static void write_machine(struct job_blocks *j, const char *accel,
			  const struct sample *s)
{
	struct strbuf m = STRBUF_INIT;

	facts_host_machine(tgt(j), accel, s, &m);
	jobdir_write(tdir(j), "machine.txt", m.buf, m.len);
	strbuf_release(&m);
}

/* The patched kernel did not boot or crashed where the base ran. */
static void boot_failure(struct job_blocks *j, const struct boot_res *res)
{
	struct strbuf f = STRBUF_INIT;

	strbuf_addf(&f, "%s\n\n", res->reason ? res->reason :
		    "the patched kernel failed on the target");
	if (res->last_lines)
		facts_indent_block(res->last_lines, &f);
	strbuf_addch(&f, '\n');
	jobdir_fail(j->dir, j->js, JOB_BOOT_FAILED, f.buf);
	strbuf_release(&f);
}

/*
 * Where a lab ran a boot: the device and the LAVA job, a line per boot
 * in lab.txt, so the reply can show that base and patched kernels met
 * the same machine and link each job.
 */
static void note_lab(struct job_blocks *j, const char *side,
		     const struct boot_res *res)
{
	char *path = jobdir_path(tdir(j), "lab.txt");
	FILE *f = fopen(path, "a");
	struct strbuf sb = STRBUF_INIT;

	if (f) {
		/* the lab's names are the lab's text */
		strbuf_addf(&sb, "- lab:     %s kernel on %s, LAVA job %s\n",
			    side, res->device ? res->device : "(device unknown)",
			    res->lava_job);
		secret_scrub(&sb);
		fputs(sb.buf, f);
		fclose(f);
		strbuf_release(&sb);
	} else {
		warning("cannot write %s: %s", path, strerror(errno));
	}
	free(path);
}

/*
 * What the machine says it is (target_facts(): an ssh machine asked now,
 * a lab's device as its last run left it), kept in the job directory as
 * facts.txt, empty when nothing is known: a resumed job plans from the
 * same facts, whatever the machine says by then.
 */
static void job_facts(struct job_blocks *j, const char *target,
		      struct strbuf *facts)
{
	if (!jobdir_read(tdir(j), "facts.txt", facts))
		return;
	strbuf_reset(facts);
	if (target_facts(target, 1, facts) < 0) {
		warning("could not ask %s what it is: the plan goes by its configuration",
			target);
		strbuf_reset(facts);
	}
	jobdir_write(tdir(j), "facts.txt", facts->buf, facts->len);
}

/*
 * A job's option v as the word of sched-bench's option whose own
 * default is dflt, or NULL at that default: a job with the default runs
 * the command line it always ran.  job.spawnGap is spawn's --gap (3 s,
 * UnixBench's Run), job.warmup pingpong's --warmup (6, will-it-scale's).
 */
static const char *option_word(int v, int dflt, char *buf, size_t size)
{
	if (v < 0 || v == dflt)
		return NULL;
	snprintf(buf, size, "%d", v);
	return buf;
}

static const char *gap_word(char *buf, size_t size)
{
	return option_word(bo()->spawn_gap, 3, buf, size);
}

static const char *warmup_word(char *buf, size_t size)
{
	return option_word(bo()->warmup, 6, buf, size);
}

/*
 * The reporter's size the target is cut to (plan_cut): its kernel words
 * for every boot of the job, and cut.txt for the reply (the words, then
 * its sentence).  A job with nothing cut has no cut.txt.
 */
static int write_cut(struct job_blocks *j, const struct plan *p)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	free(j->append);
	j->append = NULL;
	if (!p->cut.words || !p->cut.sentence)
		return 0;
	j->append = xstrdup(p->cut.words);
	strbuf_addf(&sb, "%s\n%s\n", p->cut.words, p->cut.sentence);
	ret = jobdir_write(tdir(j), "cut.txt", sb.buf, sb.len);
	strbuf_release(&sb);
	info("%s: %s", tgt(j), p->cut.sentence);
	return ret;
}

/*
 * The workloads of a run and their options: as given, or for "auto" the
 * plan for the thread (plan.h), written to plan.txt for the reply.  The
 * plan depends on the thread, the configuration, the job's state and
 * the facts it kept, so a resumed job makes the same one.  Either way
 * the workloads an earlier version regressed run first (plan_run_first).
 */
static int run_workloads(struct job_blocks *j, char **workloads, char **args)
{
	char gap[16];
	char warmup[16];
	const char *target = tgt(j);
	struct plan_opts po = { 0 };
	struct strbuf text = STRBUF_INIT, facts = STRBUF_INIT;
	struct plan p;
	char *mbox;
	int assumed = 0, ret;
	int given = j->js->workloads && *j->js->workloads &&
		    strcmp(j->js->workloads, "auto");

	*args = NULL;
	if (given && !target_match_reporter(target)) {
		*workloads = plan_order_first(j->js->workloads,
					      j->js->run_first);
		return 0;
	}
	po.cpus = plan_target_cpus(target, &assumed);
	plan_target_layout(target, &po);
	job_facts(j, target, &facts);
	if (facts.len && plan_facts_layout(facts.buf, &po))
		assumed = 0;
	plan_target_match(target, facts.len ? facts.buf : NULL, &po);
	strbuf_release(&facts);
	po.seconds = bo()->seconds;
	po.spawn_gap = gap_word(gap, sizeof(gap));
	po.warmup = warmup_word(warmup, sizeof(warmup));
	po.budget = plan_target_budget(target);
	po.have_tool = plan_host_has_tool;
	mbox = jobdir_path(j->dir, "thread.mbox");
	ret = plan_from_file(mbox, &po, &p);
	free(mbox);
	if (ret < 0)
		return EXIT_FAIL;
	ret = write_cut(j, &p);
	if (ret < 0 || given) {
		plan_release(&p);
		if (ret < 0)
			return EXIT_FAIL;
		*workloads = plan_order_first(j->js->workloads,
					      j->js->run_first);
		return 0;
	}
	plan_run_first(&p, j->js->run_first, j->js->run_first_version);
	plan_text(&p, &text);
	if (assumed)
		strbuf_addf(&text, "\n(The CPUs of target %s are not known: %d assumed; set target.%s.smp.)\n",
			    target,
			    po.cpus, target);
	*workloads = plan_workloads(&p);
	*args = plan_init_args(&p);
	plan_release(&p);
	ret = jobdir_write(tdir(j), "plan.txt", text.buf, text.len);
	strbuf_release(&text);
	if (ret < 0) {
		free(*workloads);
		free(*args);
		return EXIT_FAIL;
	}
	info("workloads (auto): %s%s%s", *workloads, **args ? ", " : "",
	     *args);
	return 0;
}

/* The workloads (and options) of every block of the job, once. */
int blocks_workloads(struct job_blocks *j)
{
	if (j->workloads)
		return 0;
	return run_workloads(j, &j->workloads, &j->workload_args);
}

/*
 * The table format of the job: reply.format, or for "auto" the format
 * the thread's testers use (tblfmt.h), its note in format.txt.
 */
static const char *job_format(struct job_blocks *j)
{
	struct tblfmt_scan scan = TBLFMT_SCAN_INIT;
	char *mbox, *note = NULL;
	const char *f;

	if (j->format)
		return j->format;
	mbox = jobdir_path(j->dir, "thread.mbox");
	/* several machines: seed 000's table, a row per machine */
	f = tblfmt_resolve(bo()->format, j->several ? "matrix" : "lkp",
			   tblfmt_scan_file(mbox, &scan) < 0 ? NULL : &scan,
			   &note);
	j->format = xstrdup(f);
	if (note) {
		struct strbuf sb = STRBUF_INIT;

		info("%s", note);
		strbuf_addf(&sb, "%s\n", note);
		jobdir_write(j->dir, "format.txt", sb.buf, sb.len);
		strbuf_release(&sb);
	}
	free(note);
	free(mbox);
	tblfmt_release(&scan);
	return j->format;
}

void blocks_pair_of_job(struct job_blocks *j, struct blocks_pair *pk)
{
	size_t i;

	memset(pk, 0, sizeof(*pk));
	for (i = 0; i < 2; i++) {
		pk->kernel[i] = job_str(j->js->side[i].kernel);
		pk->release[i] = job_str(j->js->side[i].release);
	}
	pk->label[0] = "base";
	pk->label[1] = "patched";
	pk->dir[0] = "base";
	pk->dir[1] = "head";
}

/* The plan the job's runs follow: adaptive, or fixed by --runs. */
void blocks_plan(struct job_blocks *j)
{
	if (j->js->runs_fixed)
		seq_plan_init_fixed(&j->plan);
	else
		seq_plan_init(&j->plan);
}

/*
 * Whether block b of round r runs B A rather than A B: a hash of the
 * job's seed, so that a resumed job replays the same order.
 */
static int block_swapped(const struct job_blocks *j, int round, int block)
{
	uint64_t x = ((uint64_t)(unsigned int)j->js->seed << 32) ^
		     ((uint64_t)round << 16) ^ (uint64_t)block;

	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31)) & 1;
}

/*
 * Read csv (none yet: empty), only the rows of target only when it is
 * not NULL (a job on several targets); the last block in it, or -1.
 */
static int read_blocks(const char *csv, const char *only,
		       struct sample_set *set)
{
	struct sample_set all = { 0 };
	size_t i;
	int last = 0;

	if (access(csv, F_OK))
		return 0;
	if (samples_read_file(csv, only ? &all : set) < 0) {
		sample_set_release(&all);
		return -1;
	}
	for (i = 0; only && i < all.nr; i++)
		if (all.v[i].target && !strcmp(all.v[i].target, only))
			sample_set_add(set, &all.v[i]);
	sample_set_release(&all);
	for (i = 0; i < set->nr; i++)
		if (set->v[i].run > last)
			last = set->v[i].run;
	return last;
}

/* Judge the blocks of csv under the job's plan; -1 when it cannot. */
static int judge_set(struct job_blocks *j, const struct sample_set *set,
		     struct compare_result *r)
{
	struct compare_opts co;

	compare_opts_init(&co);
	co.plan = &j->plan;
	/* the reply prints compare_verdict() after the tables */
	co.sentence_follows = 1;
	/* its tables, list and summary: the change the verdict judged */
	co.judged_change = 1;
	memset(r, 0, sizeof(*r));
	return compare_run(set, &co, r);
}

static int judge_file(struct job_blocks *j, const char *name,
		      const char *only, struct compare_result *r)
{
	struct sample_set set = { 0 };
	char *csv = jobdir_path(j->dir, name);
	int ret = read_blocks(csv, only, &set) < 0 ? -1 :
		  judge_set(j, &set, r);

	sample_set_release(&set);
	free(csv);
	return ret;
}

/*
 * Both sides' rows of a block in one append, the baseline's first (it
 * is the first label of the file): the file has a block whole or not
 * at all, and a resumed job counts the blocks it has.
 */
static int append_block(const char *csv, const struct sample_set rows[2])
{
	size_t n = rows[0].nr + rows[1].nr;
	struct sample *all = xmalloc((n ? n : 1) * sizeof(*all));
	int ret = 0;

	/* shallow copies: the sets keep their strings */
	if (rows[0].nr)
		memcpy(all, rows[0].v, rows[0].nr * sizeof(*all));
	if (rows[1].nr)
		memcpy(all + rows[0].nr, rows[1].v,
		       rows[1].nr * sizeof(*all));
	if (samples_append_file(csv, all, n) < 0)
		ret = EXIT_FAIL;
	free(all);
	return ret;
}

/*
 * The profile rows of a block (pk->profile), both sides', as the job's
 * profile.csv, written whole: a block run again writes it again.
 */
static int write_profile(struct job_blocks *j, const struct sample_set p[2])
{
	struct strbuf sb = STRBUF_INIT;
	char *path = jobdir_path(tdir(j), "profile.csv");
	size_t i, k;
	int ret = 0;

	samples_header(&sb);
	for (k = 0; k < 2; k++)
		for (i = 0; i < p[k].nr; i++)
			samples_format_row(&sb, &p[k].v[i]);
	if (write_file_atomic(path, sb.buf, sb.len) < 0)
		ret = error("cannot write %s", path);
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* One block: both kernels, in the block's order, rows appended a first. */
static int run_block(struct job_blocks *j, const char *stem, const char *csv,
		     int round, int block,
		     const struct blocks_pair *pk)
{
	struct sample_set rows[2] = { { 0 }, { 0 } }, prof[2] = { { 0 }, { 0 } };
	const char *profile = block == 1 && pk->profile && *pk->profile ?
			      pk->profile : NULL;
	int order[2] = { 0, 1 }, ret = 0;
	char gap[16], warmup[16];
	size_t i, k;

	if (blocks_workloads(j))
		return EXIT_FAIL;
	if (block_swapped(j, round, block)) {
		order[0] = 1;
		order[1] = 0;
	}
	for (i = 0; i < 2 && !ret; i++) {
		int side = order[i];
		struct boot_req req = { 0 };
		struct boot_res res;
		char *wdir = xasprintf("%s/%s-%d-%s", tdir(j),
				       round == 1 ? "run" : stem,
				       block, pk->dir[side]);
		int rc;

		req.kernel = pk->kernel[side];
		req.release = pk->release[side];
		req.workloads = j->workloads;
		req.workload_args = j->workload_args;
		req.runs = 1;
		req.seconds = bo()->seconds;
		req.spawn_gap = gap_word(gap, sizeof(gap));
		req.warmup = warmup_word(warmup, sizeof(warmup));
		req.label = pk->label[side];
		/* the base is the tree's code: a lab may keep its record */
		req.reference = side == 0;
		req.autogroup = -1;
		req.workdir = wdir;
		req.progress = verbosity >= 0;
		req.profile = profile;
		req.append = j->append;
		mkdir_p(wdir, 0755);
		memset(&res, 0, sizeof(res));
		info("%s block %d (%s): %s kernel on %s", stem, block,
		     order[0] ? "B A" : "A B", req.label, tgt(j));
		rc = target_run(tgt(j), &req, &res);
		if (rc == 1 && side && block == 1 && pk->report_boot) {
			/* base ran or runs, patched did not: report it */
			boot_failure(j, &res);
			ret = -2;
		} else if (rc) {
			error("block %d of the %s kernel failed: %s", block,
			      req.label, res.reason ? res.reason : "see above");
			ret = EXIT_FAIL;
		} else {
			for (k = 0; k < res.samples.nr; k++) {
				struct sample *s = &res.samples.v[k];

				s->run = block;
				/* a job on several: rows picked by target */
				if (j->target) {
					free(s->target);
					s->target = xstrdup(j->target);
				}
				sample_set_add(starts_with(s->metric,
							   "diag.profile.") ?
					       &prof[side] : &rows[side], s);
			}
			if (round == 1 && block == 1 && side)
				write_machine(j, res.accel, res.samples.nr ?
					      &res.samples.v[0] : NULL);
		}
		if (res.lava_job)
			note_lab(j, req.label, &res);
		boot_res_release(&res);
		free(wdir);
	}
	if (!ret && profile && (!prof[0].nr || !prof[1].nr))
		warning("the profile of %s named no function on the %s kernel: no profile in the reply",
			profile,
			!prof[0].nr ? pk->label[0] : pk->label[1]);
	if (!ret && profile)
		ret = write_profile(j, prof);
	if (!ret)
		ret = append_block(csv, rows);
	sample_set_release(&rows[0]);
	sample_set_release(&rows[1]);
	sample_set_release(&prof[0]);
	sample_set_release(&prof[1]);
	return ret;
}

/*
 * Before the first block on a machine that runs between jobs (ssh,
 * local): whether it is busy now, and whether the noise its last
 * `sched-bot target check` kept puts a compare.detect change out of the
 * job's reach, said now and kept in health.txt for the reply's Machine
 * block.  A resumed job has its health.txt: its look was before.  A
 * busy machine with target.NAME.busy = refuse stops the job here with
 * EXIT_BUSY, nothing measured and no health.txt: it looks again when it
 * is run again (cron: later, the attempt not counted).  Else 0.
 */
static int look_at_machine(struct job_blocks *j)
{
	const char *target = tgt(j);
	struct target_check_opts o = { 0 };
	struct strbuf sb = STRBUF_INIT, old = STRBUF_INIT;
	struct target_check c;

	if (!target_is(target, TARGET_MACHINE) ||
	    !jobdir_read(tdir(j), "health.txt", &old)) {
		strbuf_release(&old);
		return 0;
	}
	o.detect = j->plan.detect;
	o.max_runs = j->js->runs_fixed ? j->js->runs : j->plan.max_blocks;
	o.budget = j->js->runs_fixed ? "--runs" : "job.maxRuns";
	o.workloads = j->workloads;
	if (target_check(target, &o, &c) < 0) {
		warning("could not look at %s before the runs", target);
		target_check_release(&c);
		return 0;
	}
	if (c.refuse) {
		error("target %s is busy: %s; target.%s.busy = refuse: the job stops before its runs, nothing measured, and runs again when it is started again",
		      target, c.busy, target);
		target_check_release(&c);
		return EXIT_BUSY;
	}
	if (c.busy)
		strbuf_addf(&sb, "busy before the runs: %s\n", c.busy);
	if (c.noisy)
		strbuf_addf(&sb, "too noisy to find or exclude a %g%% change in %d runs a side: %s\n",
			    o.detect, o.max_runs,
			    c.noisy);
	if (!c.noise || !*c.noise)
		strbuf_addf(&sb, "noise not known: no 'sched-bot target check %s' yet\n",
			    target);
	if (!c.busy && !c.noisy)
		strbuf_addstr(&sb, "idle before the runs\n");
	/* the names of the machine's processes go into a mail */
	secret_scrub(&sb);
	info("target %s: %.*s", target, (int)sb.len - 1, sb.buf);
	jobdir_write(tdir(j), "health.txt", sb.buf, sb.len);
	target_check_release(&c);
	strbuf_release(&sb);
	return 0;
}

/*
 * Interleaved blocks of pk's kernels into the job file name until the
 * plan stops (compare_wants_more) or its budget is spent; with --runs,
 * exactly that many.  The blocks already in the file count, so that a
 * resumed job goes on where it stopped.  Returns 0, -2 when the patched
 * kernel failed its first boot (reported), or an exit code.
 */
int blocks_run(struct job_blocks *j, const char *stem, int round,
		      const struct blocks_pair *pk)
{
	char *name = xasprintf("%s.csv", stem);
	char *csv = jobdir_path(j->dir, name);
	int ret = 0;

	if (!j->js->seed) {
		j->js->seed = (int)((time(NULL) ^ (getpid() << 8)) &
				  0x7fffffff) | 1;
		j->save(j->ctx);
	}
	if (round == 1)
		ret = look_at_machine(j);
	if (ret) {
		free(csv);
		free(name);
		return ret;
	}
	for (;;) {
		struct sample_set set = { 0 };
		struct compare_result r;
		int done = read_blocks(csv, j->target, &set), more = 1;
		int budget = j->js->runs_fixed ? j->js->runs :
			     j->plan.max_blocks;

		if (done >= 0 && done >= budget)
			more = 0;
		else if (done >= 2 && !j->js->runs_fixed &&
			 done >= j->plan.min_blocks) {
			if (judge_set(j, &set, &r) < 0) {
				done = -1;
			} else {
				more = compare_wants_more(&r);
				compare_result_release(&r);
			}
		}
		sample_set_release(&set);
		if (done < 0) {
			ret = EXIT_FAIL;
			break;
		}
		if (round == 1 && j->js->runs_done != done) {
			j->js->runs_done = done;
			j->save(j->ctx);
		}
		if (!more)
			break;
		ret = run_block(j, stem, csv, round, done + 1, pk);
		if (ret)
			break;
	}
	free(csv);
	free(name);
	return ret;
}

void blocks_round_init(struct blocks_round *rt)
{
	memset(rt, 0, sizeof(*rt));
	strbuf_init(&rt->tables, 0);
	strbuf_init(&rt->verdict, 0);
	strbuf_init(&rt->regs, 0);
	strbuf_init(&rt->json, 0);
	strbuf_init(&rt->summary, 0);
	strbuf_init(&rt->kpis, 0);
}

void blocks_round_release(struct blocks_round *rt)
{
	strbuf_release(&rt->tables);
	strbuf_release(&rt->verdict);
	strbuf_release(&rt->regs);
	strbuf_release(&rt->json);
	strbuf_release(&rt->summary);
	strbuf_release(&rt->kpis);
}

/*
 * The commits the base and patched kernels were built from, with their
 * subjects, for the table formats that name commits (lkp).
 */
static void name_commits(struct job_blocks *j, struct compare_result *r)
{
	static const char *const labels[JOB_NR_SIDES] = { "base", "patched" };
	git_repository *repo = NULL;
	char *tp = tree_default_path();
	int i;

	if (access(tp, F_OK) || tree_open(&repo, tp) < 0)
		repo = NULL;
	for (i = 0; i < JOB_NR_SIDES; i++) {
		const char *id = j->js->side[i].commit;
		char *subj = facts_commit_subject(repo, id);

		compare_name_commit(r, labels[i], id, subj);
		free(subj);
	}
	git_repository_free(repo);
	free(tp);
}

/* The keys of the KPIs that regressed, one a line, to match rounds. */
static void regressed_kpis(const struct compare_result *r, struct strbuf *out)
{
	size_t i, k;

	for (i = 0; i < r->nr; i++)
		for (k = 1; k < r->nr_kernels; k++)
			if (r->m[i].side[k].verdict == VERDICT_REGRESSION) {
				strbuf_addf(out, "%s %s %s %s\n",
					    r->m[i].workload, r->m[i].params,
					    r->m[i].metric, r->m[i].machine);
				break;
			}
}

/* Every metric of r on machine, the name a job on several gives it. */
static void name_machine(struct compare_result *r, const char *machine)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->m[i].machine);
		r->m[i].machine = xstrdup(machine);
	}
}

/*
 * The metrics of from moved to the result into, of the same kernels:
 * one result to render, each metric judged in its own family.  The
 * worst verdict is the result's.  -1 (nothing moved) when the kernels
 * differ.
 */
static int move_metrics(struct compare_result *into,
			struct compare_result *from)
{
	size_t k;

	if (into->nr_kernels != from->nr_kernels)
		return -1;
	for (k = 0; k < into->nr_kernels; k++)
		if (strcmp(into->kernels[k], from->kernels[k]))
			return -1;
	into->m = xrealloc(into->m, (into->nr + from->nr + 1) *
			   sizeof(*into->m));
	memcpy(into->m + into->nr, from->m, from->nr * sizeof(*from->m));
	into->nr += from->nr;
	from->nr = 0;
	if (from->verdict > into->verdict)
		into->verdict = from->verdict;
	return 0;
}

/*
 * A workload run with as many copies as its machine has CPUs (spawn's
 * -c, as UnixBench's Run -c 4 on a 4-CPU box) is the same test on every
 * machine: "copies=CPUs" in its params, so that the machines' rows of
 * it share a table.
 */
static void name_copies(struct compare_result *r, const char *dir,
			const char *target)
{
	struct kv env = { 0 };
	const char *cpus;
	char *word;
	size_t i;

	if (target_env(dir, target, &env) < 0)
		return;
	cpus = kv_get(&env, "nr_cpus");
	word = xasprintf("copies=%s", cpus ? cpus : "");
	for (i = 0; cpus && i < r->nr; i++) {
		struct compare_metric *m = &r->m[i];
		char *hit = strstr(m->params, word);
		size_t at = hit ? (size_t)(hit - m->params) : 0;
		char end = hit ? hit[strlen(word)] : 0;
		char *p;

		if (!hit || (at && m->params[at - 1] != ' ') ||
		    (end && end != ' '))
			continue;
		p = xasprintf("%.*scopies=CPUs%s", (int)at, m->params,
			      hit + strlen(word));
		free(m->params);
		m->params = p;
	}
	free(word);
	kv_release(&env);
}

int blocks_tables(struct job_blocks *j, const char *name, char **targets,
		  char **machines, size_t n, struct strbuf *out)
{
	struct compare_result *r = xcalloc(n ? n : 1, sizeof(*r));
	size_t i, have = 0;
	int ret = -1;

	for (i = 0; i < n; i++) {
		have = i + 1;
		if (judge_file(j, name, targets[i], &r[i]) < 0)
			goto out;
		name_commits(j, &r[i]);
		name_machine(&r[i], machines[i]);
		name_copies(&r[i], j->dir, targets[i]);
		if (i && move_metrics(&r[0], &r[i]) < 0)
			goto out;
	}
	ret = n && compare_render(&r[0], job_format(j), out) < 0 ? -1 : 0;
out:
	for (i = 0; i < have; i++)
		compare_result_release(&r[i]);
	free(r);
	return ret;
}

/* Judge the job file name; the sentence is compare's, not the job's. */
int blocks_judge(struct job_blocks *j, const char *name,
		       struct blocks_round *rt)
{
	struct compare_result r;
	int ret = -1;

	if (judge_file(j, name, j->target, &r) < 0)
		return -1;
	name_commits(j, &r);
	if (j->machine)
		name_machine(&r, j->machine);
	if (compare_render(&r, job_format(j), &rt->tables) < 0)
		goto out;
	compare_verdict(&r, &rt->verdict);
	compare_list(&r, VERDICT_REGRESSION, &rt->regs);
	compare_json(&r, &rt->json);
	compare_summary(&r, &rt->summary);
	regressed_kpis(&r, &rt->kpis);
	rt->v = r.verdict;
	rt->blocks = r.nr_kernels > 1 ? r.fam[1].pairs : 0;
	ret = 0;
out:
	compare_result_release(&r);
	return ret;
}
