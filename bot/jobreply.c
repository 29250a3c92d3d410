// SPDX-License-Identifier: GPL-2.0
/*
 * jobreply.c - the reply a job gets, composed from its directory (see
 * jobreply.h): the template of its outcome, the facts of its kernels
 * and machine, what it can claim, and how to reproduce it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "align.h"
#include "archive.h"
#include "blocks.h"
#include "compare.h"
#include "compiledout.h"
#include "facts.h"
#include "jobdir.h"
#include "jobreply.h"
#include "lore.h"
#include "mailpolicy.h"
#include "profile.h"
#include "reply.h"
#include "reproduce.h"
#include "samples.h"
#include "series.h"
#include "tree.h"
#include "util.h"

static struct jobreply_opts opts;
static int configured;

void jobreply_configure(const struct jobreply_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, a reply would go out unsigned, from nobody: a bug. */
static const struct jobreply_opts *jo(void)
{
	if (!configured)
		die("BUG: job_reply_write() before jobreply_configure()");
	return &opts;
}

/* The job being replied to: its directory and its state. */
struct reply_job {
	const char *dir;
	struct job_state *s;
};

static void set_file_var(struct reply_job *j, struct kv *v,
			 const char *key, const char *file, int indent)
{
	struct strbuf sb = STRBUF_INIT, ind = STRBUF_INIT;

	if (jobdir_read(j->dir, file, &sb) < 0) {
		strbuf_release(&sb);
		return;
	}
	if (indent) {
		facts_indent_block(sb.buf, &ind);
		kv_set(v, key, ind.buf);
	} else {
		strbuf_trim(&sb);
		kv_set(v, key, sb.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&ind);
}

/* The lab's lines (lab.txt) after the machine's, when a lab ran it. */
static void add_lab_lines(struct reply_job *j, struct kv *v)
{
	struct strbuf sb = STRBUF_INIT, m = STRBUF_INIT;

	if (jobdir_read(j->dir, "lab.txt", &sb) < 0) {
		strbuf_release(&sb);
		return;
	}
	strbuf_trim(&sb);
	strbuf_addstr(&m, kv_get(v, "machine") ? kv_get(v, "machine") : "");
	if (m.len)
		strbuf_addch(&m, '\n');
	strbuf_addstr(&m, sb.buf);
	kv_set(v, "machine", m.buf);
	strbuf_release(&sb);
	strbuf_release(&m);
}

/*
 * What the machine was like before the runs (health.txt, an ssh or
 * local target's look: busy, too noisy), after the machine's lines.
 */
static void add_health_lines(struct reply_job *j, struct kv *v)
{
	struct strbuf sb = STRBUF_INIT, m = STRBUF_INIT;
	const char *p;

	if (jobdir_read(j->dir, "health.txt", &sb) < 0) {
		strbuf_release(&sb);
		return;
	}
	strbuf_addstr(&m, kv_get(v, "machine") ? kv_get(v, "machine") : "");
	if (m.len)
		strbuf_addch(&m, '\n');
	for (p = sb.buf; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);

		if (*line)
			facts_item(&m, "health", line, 72);
		free(line);
		p += n + (p[n] == '\n');
	}
	strbuf_trim(&m);
	kv_set(v, "machine", m.buf);
	strbuf_release(&sb);
	strbuf_release(&m);
}

/* The target's own environment record: the patched side's, else base's. */
static int read_env(struct reply_job *j, struct kv *env)
{
	static const char *const files[] = {
		"run-1-head/env.txt", "run-1-base/env.txt",
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = -1;

	for (i = 0; i < ARRAY_SIZE(files) && ret; i++)
		if (!jobdir_read(j->dir, files[i], &sb)) {
			facts_env_parse(sb.buf, env);
			ret = 0;
		}
	strbuf_release(&sb);
	return ret;
}

/*
 * What results.csv says of the runs (of target only's rows, unless
 * NULL): machine, an emulated one first, and placement per workload.
 */
static void read_rows(struct reply_job *j, const char *only, char **machine,
		      struct strbuf *place)
{
	struct sample_set set = { 0 };
	char *csv = jobdir_path(j->dir, "results.csv");
	size_t i;

	if (!access(csv, R_OK) && !samples_read_file(csv, &set)) {
		for (i = 0; i < set.nr; i++) {
			const struct sample *s = &set.v[i];
			char *key;

			if (only && (!s->target || strcmp(s->target, only)))
				continue;
			/* one target of several under TCG: no Tested-by */
			if (s->machine && *s->machine &&
			    (!*machine ||
			     (facts_machine_emulated(s->machine) &&
			      !facts_machine_emulated(*machine)))) {
				free(*machine);
				*machine = xstrdup(s->machine);
			}
			if (!s->placement || !*s->placement)
				continue;
			key = xasprintf(" %s %s;", s->workload, s->placement);
			if (!strstr(place->buf ? place->buf : "", key))
				strbuf_addstr(place, key);
			free(key);
		}
	}
	sample_set_release(&set);
	free(csv);
}

/*
 * Whether the base the series names (its base-commit:, any length of
 * hex) is the commit tested, a full id: then no substitution happened,
 * whatever the base's description says (it names a branch, or the
 * commit in 12 digits).
 */
static int stated_is_tested(const char *stated, const char *commit)
{
	size_t n = stated ? strlen(stated) : 0;

	if (n < 7 || !commit || strspn(stated, "0123456789abcdefABCDEF") != n ||
	    n > strlen(commit))
		return 0;
	return !strncasecmp(stated, commit, n);
}

/* Options of the machine's own config named in the reply, at most. */
#define REPLY_CONFIG_CHANGES 12

/*
 * What the kernels' config adds to its base: onto a config of the
 * machine's own, every option the build changed of it (the build
 * stage's config-changes.txt, named up to REPLY_CONFIG_CHANGES); onto
 * one made from scratch (tinyconfig), the fragments by name.
 */
static void add_fragments(struct reply_job *j, struct strbuf *sb)
{
	struct strbuf chg = STRBUF_INIT;

	if (!jobdir_read(j->dir, "config-changes.txt", &chg)) {
		facts_config_changes(chg.buf, REPLY_CONFIG_CHANGES, sb);
		strbuf_release(&chg);
		return;
	}
	strbuf_release(&chg);
	facts_fragments(j->s->fragments, sb);
}

/* A side's config into the job as name (once), its text into cfg. */
static void keep_config(struct reply_job *j, const struct job_side *side,
			const char *name, struct strbuf *cfg)
{
	char *kept;

	if (!side->config || strbuf_read_file(cfg, side->config) < 0)
		return;
	kept = jobdir_path(j->dir, name);
	if (access(kept, R_OK))
		jobdir_write(j->dir, name, cfg->buf, cfg->len);
	free(kept);
}

/* The tree as the reply names it: the remote, else the tarball's name. */
static const char *tree_name(void)
{
	const char *remote = jo()->tree_remote;
	const char *tarball = jo()->tree_tarball;

	if (remote && *remote)
		return remote;
	if (tarball && *tarball && !jo()->tree_path_set)
		return strrchr(tarball, '/') ? strrchr(tarball, '/') + 1 :
		       tarball;
	return NULL;
}

/* The kernels: tree, base and its subject, commits, compiler, config. */
static void kernels_facts(struct reply_job *j, struct kv *v)
{
	const struct job_side *b = &j->s->side[JOB_SIDE_BASE];
	const struct job_side *h = &j->s->side[JOB_SIDE_HEAD];
	const char *tree = tree_name();
	struct strbuf sb = STRBUF_INIT, cfg = STRBUF_INIT, out = STRBUF_INIT;
	git_repository *repo = NULL;
	char *tp = tree_default_path(), *subj, *cc;
	struct series s;
	size_t i;

	if (access(tp, F_OK) || tree_open(&repo, tp) < 0)
		repo = NULL;
	if (tree)
		facts_item(&out, "tree", tree, 72);
	strbuf_addf(&sb, "%s, commit %.12s", job_str(j->s->base_desc) ,
		    job_str(b->commit));
	if (b->release)
		strbuf_addf(&sb, " (%s)", b->release);
	subj = facts_commit_subject(repo, b->commit);
	if (subj)
		strbuf_addf(&sb, " \"%s\"", subj);
	free(subj);
	facts_item(&out, "base", sb.buf, 72);
	strbuf_reset(&sb);
	facts_item(&out, "stated", j->s->series_base ? j->s->series_base :
		   "none (no base-commit: or base named)", 72);
	strbuf_addf(&sb, "commit %.12s", job_str(h->commit));
	if (h->release)
		strbuf_addf(&sb, " (%s)", h->release);
	strbuf_addf(&sb, ", base + %d patch%s of v%d:\n", j->s->nr_patches,
		    j->s->nr_patches != 1 ? "es" : "", j->s->version);
	if (facts_commits(repo, b->commit, h->commit, &sb) <= 0 &&
	    !jobdir_series(j->dir, j->s->msgid, &s)) {
		for (i = 0; i < s.nr_patches; i++)
			strbuf_addf(&sb, "%d/%d %s\n", s.patches[i].index,
				    s.patches[i].total,
				    job_str(s.patches[i].subject));
		series_release(&s);
	}
	facts_item(&out, "patched", sb.buf, 72);
	strbuf_reset(&sb);
	/* both configs in the job, for its page: the build's are ours */
	keep_config(j, b, "config-base", &cfg);
	strbuf_reset(&cfg);
	keep_config(j, h, "config-patched", &cfg);
	cc = facts_config_compiler(cfg.buf);
	if (cc)
		facts_item(&out, "compiler", cc, 72);
	else
		strbuf_addf(&sb, "%s (version not recorded)",
			    jo()->build_cc);
	if (!cc)
		facts_item(&out, "compiler", sb.buf, 72);
	free(cc);
	strbuf_reset(&sb);
	if (j->s->config_origin)
		strbuf_addf(&sb, "%s (config %s)", j->s->config_origin,
			    job_str(j->s->config_hash));
	else
		strbuf_addstr(&sb, jo()->base_config);
	add_fragments(j, &sb);
	if (jo()->archive_url && *jo()->archive_url && cfg.len)
		strbuf_addstr(&sb, ", config-patched on the job's page");
	if (cfg.len) {
		strbuf_addstr(&sb, "; scheduler options: ");
		facts_config_options(cfg.buf, &sb);
	}
	facts_item(&out, "config", sb.buf, 72);
	strbuf_trim(&out);
	kv_set(v, "kernels", out.buf);
	/*
	 * the series said one base and was tested on another: say it once,
	 * in the job's own words when it recorded why (apply.c: both
	 * bases and the reason)
	 */
	if (j->s->base_warning)
		kv_setf(v, "base_note", "Note: %s.", j->s->base_warning);
	else if (j->s->series_base && j->s->base_desc &&
		 !starts_with(j->s->base_desc, j->s->series_base) &&
		 !stated_is_tested(j->s->series_base, b->commit) &&
		 !strstr(j->s->base_desc, "(--base)"))
		kv_setf(v, "base_note", "Note: the series names %s as its "
			"base, but it was tested on %s.", j->s->series_base,
			j->s->base_desc);
	git_repository_free(repo);
	free(tp);
	strbuf_release(&sb);
	strbuf_release(&cfg);
	strbuf_release(&out);
}

/* Why a job's numbers cannot vouch for its kernel, if they cannot. */
enum unvouched {
	VOUCHED,
	UNVOUCHED_IDENTICAL,	/* nothing was measured */
	UNVOUCHED_EMULATED,	/* measured under TCG: the pipeline's test */
	UNVOUCHED_NOISY,	/* noisy: no call either way */
	UNVOUCHED_LAYOUT,	/* a regression of one code layout only */
};

static enum unvouched judge_claims(struct reply_job *j, const char *machine)
{
	struct strbuf sb = STRBUF_INIT;
	char *verdict = NULL;
	int noisy, emulated;

	if (job_state_identical(j->s))
		return UNVOUCHED_IDENTICAL;
	if (!jobdir_read(j->dir, "compare.json", &sb))
		verdict = facts_verdict(sb.buf);
	strbuf_reset(&sb);
	if (!verdict && !jobdir_read(j->dir, "verdict.txt", &sb) &&
	    strstr(sb.buf, "noisy"))
		verdict = xstrdup(verdict_name(VERDICT_NOISY));
	strbuf_reset(&sb);
	/* compare.json's words are verdict_name()'s */
	noisy = verdict && !strcmp(verdict, verdict_name(VERDICT_NOISY));
	free(verdict);
	emulated = facts_machine_emulated(machine);
	if (!emulated && !jobdir_read(j->dir, "machine.txt", &sb))
		emulated = facts_machine_emulated(sb.buf);
	strbuf_release(&sb);
	if (emulated)
		return UNVOUCHED_EMULATED;
	/* a regression only in one code layout: nothing to vouch with */
	if (j->s->aligned == ALIGN_NOT_SEEN)
		return UNVOUCHED_LAYOUT;
	return noisy ? UNVOUCHED_NOISY : VOUCHED;
}

static void list_items(const char *lines, struct strbuf *out);

/*
 * Identical binaries: the config options that keep the series' changed
 * lines out of the build (compiledout.h), the usual reason, from the
 * tree and the config the job kept, at most 8 items.
 */
static void compiled_out_var(struct reply_job *j, struct kv *v)
{
	struct strbuf cfg = STRBUF_INIT, sb = STRBUF_INIT;
	struct compiledout co;
	git_repository *repo = NULL;
	char *tp = tree_default_path();

	if (jobdir_read(j->dir, "config-patched", &cfg) < 0 ||
	    access(tp, F_OK) || tree_open(&repo, tp) < 0)
		goto out;
	if (compiledout_find(repo, j->s->side[JOB_SIDE_BASE].commit,
			     j->s->side[JOB_SIDE_HEAD].commit, cfg.buf, 8,
			     &co) < 0) {
		compiledout_release(&co);
		goto out;
	}
	if (co.out) {
		/* the options are facts; that they are why is inferred */
		if (co.out == co.hunks && co.hunks == 1)
			strbuf_addstr(&sb, "The change the series makes to C "
				      "code is compiled out by the config it "
				      "was built with, likely why the binaries "
				      "are alike:");
		else if (co.out == co.hunks)
			strbuf_addf(&sb, "Each of the %zu changes the series "
				    "makes to C code is compiled out by the "
				    "config it was built with, likely why the "
				    "binaries are alike:", co.hunks);
		else
			strbuf_addf(&sb, "%zu of the %zu changes the series "
				    "makes to C code are compiled out by the "
				    "config it was built with:", co.out,
				    co.hunks);
		strbuf_reset(&cfg);
		reply_wrap(sb.buf, 72, &cfg);
		strbuf_trim(&cfg);
		kv_set(v, "compiled_out_intro", cfg.buf);
		strbuf_reset(&sb);
		strbuf_trim(&co.items);
		list_items(co.items.buf, &sb);
		strbuf_trim(&sb);
		kv_set(v, "compiled_out", sb.buf);
	}
	compiledout_release(&co);
out:
	git_repository_free(repo);
	free(tp);
	strbuf_release(&cfg);
	strbuf_release(&sb);
}

/*
 * What the numbers can vouch for: a Tested-by only where the mail
 * policy allows one (tested_by), the numbers can vouch at all
 * (judge_claims) and the bot's address is a real one.
 */
static enum unvouched claims(struct reply_job *j, struct kv *v,
			     const char *machine, int tested_by)
{
	enum unvouched u = judge_claims(j, machine);
	int placeholder = facts_email_is_placeholder(jo()->bot_email);

	if (j->s->aligned == ALIGN_NOT_SEEN)
		kv_set(v, "layout", "1");
	if (u == UNVOUCHED_IDENTICAL)
		kv_set(v, "identical", "1");
	else if (u == UNVOUCHED_EMULATED)
		kv_set(v, "pipeline", "1");
	else if (u == UNVOUCHED_NOISY)
		kv_set(v, "inconclusive", "1");
	if (placeholder)
		warning("bot.email is '%s', a placeholder: the reply carries "
			"no Tested-by and cannot be sent; set bot.email",
			jo()->bot_email);
	/*
	 * the mail policy's word (mailpolicy.h: a decisive verdict from a
	 * target fit to vouch), on numbers that can vouch at all
	 */
	if (tested_by && u == VOUCHED && !placeholder)
		kv_setf(v, "tested_by", "%s <%s>", jo()->bot_name,
			jo()->bot_email);
	return u;
}

/*
 * A recheck after merge whose numbers cannot vouch: not "gone", but
 * why it could not be rechecked (mail-merged-tested.md).
 */
static void unchecked_var(struct kv *v, enum unvouched u)
{
	static const char *const why[] = {
		[UNVOUCHED_IDENTICAL] = "the merged kernel's code and data "
			"are its parent's, so nothing was booted or measured",
		[UNVOUCHED_EMULATED] = "the target was emulated (QEMU TCG), "
			"whose numbers say nothing of the kernel's speed",
		[UNVOUCHED_NOISY] = "the runs were too noisy to call a change "
			"either way",
		[UNVOUCHED_LAYOUT] = "the change the runs found did not "
			"survive forced alignment: likely code layout",
	};

	if (u != VOUCHED)
		kv_set(v, "unchecked", why[u]);
}

const char *job_reply_unvouched(const char *dir, struct job_state *js)
{
	static const char *const why[] = {
		[UNVOUCHED_IDENTICAL] = "identical binaries, nothing measured",
		[UNVOUCHED_EMULATED] = "measured under emulation (TCG)",
		[UNVOUCHED_NOISY] = "too noisy to call",
		[UNVOUCHED_LAYOUT] = "a regression of one code layout only",
	};
	struct reply_job j = { dir, js };
	struct strbuf place = STRBUF_INIT;
	char *machine = NULL;
	enum unvouched u;

	read_rows(&j, NULL, &machine, &place);
	u = judge_claims(&j, machine);
	free(machine);
	strbuf_release(&place);
	return u == VOUCHED ? NULL : why[u];
}

/*
 * How to reproduce (reproduce.h), and the same as reproduce.sh in the
 * job directory, which the archive page links with the rest.
 */
static void reproduce_var(struct reply_job *j, struct kv *v)
{
	char *page = archive_page_url(jo()->archive_url, j->dir);
	struct reproduce_job r = {
		.dir = j->dir, .s = j->s, .tree = tree_name(),
		.base_config = jo()->base_config, .cc = jo()->build_cc,
		.page = page,
	};
	struct strbuf sb = STRBUF_INIT;

	reproduce_block(&r, &sb);
	kv_set(v, "reproduce", sb.buf);
	if (reproduce_script_write(&r) < 0)
		warning("job %s: cannot write reproduce.sh", j->dir);
	strbuf_release(&sb);
	free(page);
}

/*
 * What the target was cut to (cut.txt: its kernel words, then the
 * sentence; plan.h), said as done only when the kernel's own record
 * shows every word on its command line.
 */
static void add_cut_line(struct reply_job *j, struct kv *v,
			 const struct kv *env)
{
	struct strbuf sb = STRBUF_INIT, m = STRBUF_INIT;
	const char *cmd = kv_get(env, "cmdline"), *w;
	char *words, *sentence, *nl, *padded;
	size_t n;
	int seen = cmd != NULL;

	if (jobdir_read(j->dir, "cut.txt", &sb) < 0 ||
	    !(nl = strchr(sb.buf, '\n'))) {
		strbuf_release(&sb);
		return;
	}
	words = xstrndup(sb.buf, nl - sb.buf);
	padded = xasprintf(" %s ", cmd ? cmd : "");
	sentence = xstrndup(nl + 1, strcspn(nl + 1, "\n"));
	for (w = words; seen && *w; w += n + strspn(w + n, " ")) {
		char *one;

		n = strcspn(w, " ");
		one = xasprintf(" %.*s ", (int)n, w);
		seen = strstr(padded, one) != NULL;
		free(one);
	}
	strbuf_addstr(&m, kv_get(v, "machine") ? kv_get(v, "machine") : "");
	if (m.len)
		strbuf_addch(&m, '\n');
	if (!seen) {
		free(sentence);
		sentence = xasprintf("the reporter's size was asked for (%s), but the kernel's record of its command line does not show it",
				     words);
	}
	facts_item(&m, "size", sentence, 72);
	strbuf_trim(&m);
	kv_set(v, "machine", m.buf);
	free(words);
	free(padded);
	free(sentence);
	strbuf_release(&sb);
	strbuf_release(&m);
}

/*
 * The machine of the runs: the target's own record, with the placement
 * of each workload, else machine.txt; then the lab's lines.  Returns
 * the machine column of results.csv (allocated, or NULL) for claims().
 * One target of several: its rows (target), its files in own's
 * directory.
 */
static char *machine_of(struct reply_job *j, struct reply_job *own,
			const char *target, struct kv *v)
{
	struct strbuf sb = STRBUF_INIT, place = STRBUF_INIT;
	struct kv env = { 0 };
	char *machine = NULL;

	read_rows(j, target, &machine, &place);
	if (!read_env(own, &env)) {
		facts_machine(&env, target ? target : job_str(j->s->target),
			      machine, &sb);
		if (place.len) {
			/* " w p;" per workload: no ";" after the last */
			strbuf_setlen(&place, place.len - 1);
			facts_item(&sb, "placement", place.buf + 1, 72);
		}
		strbuf_trim(&sb);
		kv_set(v, "machine", sb.buf);
	} else {
		set_file_var(own, v, "machine", "machine.txt", 0);
	}
	add_lab_lines(own, v);
	add_health_lines(own, v);
	add_cut_line(own, v, &env);
	kv_release(&env);
	strbuf_release(&place);
	strbuf_release(&sb);
	return machine;
}

/*
 * The machines of the runs: the target's, or for a job on several
 * (machines.txt, "NAME<tab>machine" a line) each target's under the
 * name the tables give it, its cells (autogroup, cgroup) its own.
 * Returns a machine column for claims(), an emulated one first.
 */
static char *machine_var(struct reply_job *j, struct kv *v)
{
	struct strbuf list = STRBUF_INIT, all = STRBUF_INIT;
	char *machine = NULL;
	const char *p;

	if (jobdir_read(j->dir, "machines.txt", &list) < 0) {
		strbuf_release(&list);
		return machine_of(j, j, NULL, v);
	}
	for (p = list.buf; *p;) {
		size_t n = strcspn(p, "\n"), k = strcspn(p, "\t\n");
		char *name = xstrndup(p, k);
		char *td = blocks_target_dir(j->dir, name), *mc;
		struct reply_job own = { td, j->s };
		struct kv tv = { 0 };

		mc = machine_of(j, &own, name, &tv);
		if (!machine || (mc && facts_machine_emulated(mc) &&
				 !facts_machine_emulated(machine))) {
			free(machine);
			machine = mc;
		} else {
			free(mc);
		}
		strbuf_addf(&all, "%sOn %.*s:\n\n%s\n",
			    all.len ? "\n" : "",
			    k < n ? (int)(n - k - 1) : 0, p + k + (k < n),
			    kv_get(&tv, "machine") ?
			    kv_get(&tv, "machine") : "- unknown");
		kv_release(&tv);
		free(td);
		free(name);
		p += n + (p[n] == '\n');
	}
	strbuf_trim(&all);
	kv_set(v, "machine", all.buf);
	strbuf_release(&list);
	strbuf_release(&all);
	return machine;
}

/* ---- the one-line summary of a regression (summary.txt) ---- */

/*
 * The text of item label in a facts list ("- label:   text", continued
 * by indented lines), its lines joined; NULL when it has none.
 */
static char *item_value(const char *list, const char *label)
{
	struct strbuf sb = STRBUF_INIT;
	char *head = xasprintf("- %s:", label);
	const char *p = list;

	while (p && *p && !starts_with(p, head)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (p && *p) {
		p += strlen(head);
		do {
			size_t n;

			while (*p == ' ')
				p++;
			n = strcspn(p, "\n");
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_add(&sb, p, n);
			p += n;
			p += *p == '\n';
		} while (*p == ' ');
	}
	free(head);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * summary.txt (compare_summary: "key: value" lines) into sum, the values
 * of a repeated key (moved, why) one item a line.  -1 when the job has
 * none (a job from before it, or no KPI with a call).
 */
static int read_summary(struct reply_job *j, struct kv *sum)
{
	struct strbuf sb = STRBUF_INIT, all = STRBUF_INIT;
	const char *p;

	if (jobdir_read(j->dir, "summary.txt", &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	for (p = sb.buf; *p;) {
		size_t n = strcspn(p, "\n"), k = strcspn(p, ":\n");
		char *key = xstrndup(p, k);
		const char *val = p + k + (k < n) + (k + 1 < n);
		const char *old = kv_get(sum, key);

		strbuf_reset(&all);
		if (k < n && old)
			strbuf_addf(&all, "%s\n", old);
		if (k < n) {
			strbuf_add(&all, val, p + n - val);
			kv_set(sum, key, all.buf);
		}
		free(key);
		p += n + (p[n] == '\n');
	}
	strbuf_release(&sb);
	strbuf_release(&all);
	return kv_get(sum, "lead") ? 0 : -1;
}

/* "- " before each line of a list, its words wrapped at 72 under it. */
static void list_items(const char *lines, struct strbuf *out)
{
	const char *p = lines;
	size_t col = 0;

	while (p && *p) {
		size_t n = strcspn(p, " \n"), w = utf8_width(p, n);

		if (!col) {
			strbuf_addstr(out, "- ");
			col = 2;
		} else if (n && col + 1 + w > 72) {
			strbuf_addstr(out, "\n  ");
			col = 2;
		} else if (n) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, n);
		col += w;
		p += n;
		while (*p == ' ')
			p++;
		if (*p == '\n') {
			strbuf_addch(out, '\n');
			col = 0;
			p++;
		}
	}
	if (col)
		strbuf_addch(out, '\n');
}

/*
 * The commit the summary is on: the first patch that shows the change
 * when the bisection named one short of the series (its commit from
 * the tree when the tree has it), else the series' head.
 */
static void frame_commit(struct reply_job *j, struct strbuf *out)
{
	const struct job_side *h = &j->s->side[JOB_SIDE_HEAD];
	int k = j->s->bisect_hi, n = j->s->nr_patches;
	git_repository *repo = NULL;
	char *tp = tree_default_path(), *rev = NULL, hex[GIT_OID_HEXSZ + 1];
	const char *subject = NULL;
	struct series s;
	int have = !jobdir_series(j->dir, j->s->msgid, &s);
	git_oid oid;

	if (j->s->confirmed != 1 || k < 1 || k >= n ||
	    k - j->s->bisect_lo != 1) {
		strbuf_addf(out, "%.12s (\"%s\"), base + %d patch%s of v%d",
			    job_str(h->commit), job_str(j->s->subject), n,
			    n != 1 ? "es" : "", j->s->version);
		goto out;
	}
	if (have && (size_t)k <= s.nr_patches)
		subject = s.patches[k - 1].subject;
	rev = xasprintf("%s~%d", job_str(h->commit), n - k);
	if (!access(tp, F_OK) && !tree_open(&repo, tp) &&
	    !tree_resolve(repo, rev, &oid))
		strbuf_addf(out, "%.12s ", git_oid_tostr(hex, sizeof(hex),
							 &oid));
	strbuf_addf(out, "(\"[PATCH %d/%d] %s\"), the first patch that "
		    "shows it (the numbers: ", k, n,
		    subject ? subject : "(subject unknown)");
	if (k == 1)
		strbuf_addstr(out, "patch 1 on the base)");
	else
		strbuf_addf(out, "patches 1 to %d on the base)", k);
out:
	if (have)
		series_release(&s);
	git_repository_free(repo);
	free(rev);
	free(tp);
}

/*
 * The robot's frame: "sched-bot noticed a -12.4% regression of spawn.lps
 * on:", the commit, the testcase, the machine and the rule; every KPI
 * that moved; then the why (the diagnostics that moved most).  Nothing
 * without summary.txt: the reply then lists the regressions alone.
 */
static void frame_vars(struct reply_job *j, struct kv *v)
{
	struct strbuf sb = STRBUF_INIT, f = STRBUF_INIT;
	struct kv sum = { 0 };
	const char *machine = kv_get(v, "machine");
	char *target = item_value(machine, "target");
	char *cpu = item_value(machine, "CPU");

	if (read_summary(j, &sum) < 0)
		goto out;
	strbuf_addf(&sb, "sched-bot noticed a %s on:", kv_get(&sum, "lead"));
	reply_wrap(sb.buf, 72, &f);
	strbuf_trim(&f);
	kv_set(v, "headline", f.buf);
	strbuf_reset(&f);
	strbuf_reset(&sb);
	frame_commit(j, &sb);
	facts_item(&f, "commit", sb.buf, 72);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s, commit %.12s", job_str(j->s->base_desc),
		    job_str(j->s->side[JOB_SIDE_BASE].commit));
	facts_item(&f, "base", sb.buf, 72);
	facts_item(&f, "testcase", job_str(kv_get(&sum, "testcase")), 72);
	if (kv_get(&sum, "params") && *kv_get(&sum, "params"))
		facts_item(&f, "params", kv_get(&sum, "params"), 72);
	strbuf_reset(&sb);
	/* a job on several: the machines the change was seen on */
	if (kv_get(&sum, "machines"))
		strbuf_addstr(&sb, kv_get(&sum, "machines"));
	else
		strbuf_addf(&sb, "%s%s%s", target ? target : "unknown",
			    cpu ? ", on " : "", cpu ? cpu : "");
	facts_item(&f, "machine", sb.buf, 72);
	facts_item(&f, "rule", job_str(kv_get(&sum, "rule")), 72);
	if (kv_get(&sum, "control"))
		facts_item(&f, "control", kv_get(&sum, "control"), 72);
	strbuf_trim(&f);
	kv_set(v, "frame", f.buf);
	strbuf_reset(&f);
	/* the headline once: no list of the one KPI it names */
	if (strcmp(job_str(kv_get(&sum, "moved")), kv_get(&sum, "lead"))) {
		list_items(kv_get(&sum, "moved"), &f);
		strbuf_trim(&f);
		kv_set(v, "moved", f.buf);
		strbuf_reset(&f);
	}
	if (kv_get(&sum, "why")) {
		list_items(kv_get(&sum, "why"), &f);
		strbuf_trim(&f);
		kv_set(v, "why", f.buf);
	}
out:
	kv_release(&sum);
	free(target);
	free(cpu);
	strbuf_release(&sb);
	strbuf_release(&f);
}

/*
 * The reply's first sentence, its answer: the verdict with the headline
 * KPI and its change (summary.txt's lead), else the verdict's first
 * sentence, which states the bound on any change; for an emulated
 * target or noisy runs, first what the numbers are worth.  Wrapped at
 * 72.
 */
static void answer_var(struct reply_job *j, struct kv *v)
{
	struct strbuf sb = STRBUF_INIT, f = STRBUF_INIT;
	struct kv sum = { 0 };
	const char *series = kv_get(v, "series");

	if (kv_get(v, "pipeline"))
		strbuf_addf(&sb, "sched-bot ran this series (%s) on an "
			    "emulated target (QEMU TCG): this result tests the "
			    "pipeline, not the kernel, and carries no "
			    "Tested-by. It shows ", series);
	if (!read_summary(j, &sum)) {
		strbuf_addf(&sb, "%s%s with this series%s%s%s.",
			    sb.len ? "a " : "sched-bot measured a ",
			    kv_get(&sum, "lead"), sb.len ? "" : " (",
			    sb.len ? "" : series, sb.len ? "" : ")");
	} else if (!jobdir_read(j->dir, "measured.txt", &f)) {
		/* a job on several targets: what each machine measured */
		strbuf_trim(&f);
		if (!sb.len && kv_get(v, "inconclusive"))
			strbuf_addf(&sb, "Too noisy to vouch for this series "
				    "(%s), no Tested-by: sched-bot measured ",
				    series);
		else if (!sb.len)
			strbuf_addf(&sb, "With this series (%s), sched-bot "
				    "measured ", series);
		strbuf_addstr(&sb, f.buf);
	} else if (!jobdir_read(j->dir, "verdict.txt", &f)) {
		char *text = f.buf + (starts_with(f.buf, "Verdict: ") ?
				      strlen("Verdict: ") : 0);
		char *end = strstr(text, ". ");
		size_t i;

		if (end)
			end[1] = '\0';
		for (i = 0; text[i]; i++)
			if (text[i] == '\n')
				text[i] = ' ';
		if (!sb.len && kv_get(v, "inconclusive"))
			strbuf_addf(&sb, "Too noisy to vouch for this series "
				    "(%s), no Tested-by: sched-bot measured ",
				    series);
		else if (!sb.len)
			strbuf_addf(&sb, "With this series (%s), sched-bot "
				    "measured ", series);
		strbuf_addstr(&sb, text);
	}
	strbuf_reset(&f);
	if (sb.len) {
		reply_wrap(sb.buf, 72, &f);
		strbuf_trim(&f);
		kv_set(v, "answer", f.buf);
	}
	kv_release(&sum);
	strbuf_release(&sb);
	strbuf_release(&f);
}

/*
 * The profile of the confirmation (profile.csv, job.profile): the
 * functions whose share of the samples changed most, in the robot's
 * perf-profile form, and what the samples are of.
 */
static void profile_vars(struct reply_job *j, struct kv *v)
{
	struct sample_set set = { 0 };
	struct strbuf sb = STRBUF_INIT, f = STRBUF_INIT;
	char *csv = jobdir_path(j->dir, "profile.csv");
	const char *event;

	if (access(csv, R_OK) || samples_read_file(csv, &set) < 0 ||
	    !profile_block(&set, &sb, &event))
		goto out;
	facts_indent_block(sb.buf, &f);
	kv_set(v, "profile", f.buf);
	strbuf_reset(&sb);
	strbuf_reset(&f);
	strbuf_addf(&sb, "The functions whose share of the samples changed "
		    "most, perf record -e %s%s of a run of each kernel in "
		    "the confirmation, base and patched in %% of the "
		    "samples, the change in points (a function perf report "
		    "did not list counts 0):", event,
		    !strcmp(event, "cpu-clock") ? " (the software clock "
		    "event: the machine has no PMU, as under QEMU TCG)" : "");
	reply_wrap(sb.buf, 72, &f);
	strbuf_trim(&f);
	kv_set(v, "profile_intro", f.buf);
out:
	sample_set_release(&set);
	strbuf_release(&sb);
	strbuf_release(&f);
	free(csv);
}

/*
 * A recheck after merge (jobstate.h): the branch and commit it ran on,
 * and the kernel test robot's trailers for the fix, which the author
 * copies into it: Reported-by: the bot, Closes: the report rechecked.
 * For regzbot, the range the regression came in with.
 */
static void merged_vars(struct reply_job *j, struct kv *v)
{
	char *link;

	kv_set(v, "merged_into", j->s->merged_into);
	kv_setf(v, "merged_commit", "%.12s",
		job_str(j->s->side[JOB_SIDE_HEAD].commit));
	kv_setf(v, "merged_range", "%.12s..%.12s",
		job_str(j->s->side[JOB_SIDE_BASE].commit),
		job_str(j->s->side[JOB_SIDE_HEAD].commit));
	kv_setf(v, "reported_by", "%s <%s>", jo()->bot_name,
		jo()->bot_email);
	if (j->s->report) {
		link = lore_link(j->s->report);
		kv_set(v, "closes", link);
		free(link);
	}
}

/*
 * A recheck goes under the report it rechecks, not under the cover: its
 * In-Reply-To the report, its References the cover's and the cover.
 */
static void thread_under_report(struct reply_job *j, struct reply_thread *t)
{
	char *refs;

	if (!j->s->report)
		return;
	refs = xasprintf("%s%s<%s>", t->references ? t->references : "",
			 t->references && *t->references ? " " : "",
			 t->msgid);
	free(t->references);
	t->references = refs;
	free(t->msgid);
	t->msgid = xstrdup(j->s->report);
}

static int compose(struct reply_job *j)
{
	/* each outcome has its template, mail-<outcome>.md; a recheck
	 * after merge that measured has mail-merged-<outcome>.md */
	int merged = j->s->head && (j->s->outcome == JOB_TESTED ||
				    j->s->outcome == JOB_REGRESSION);
	char *tmpl_name = xasprintf("%s%s", merged ? "merged-" : "",
				    job_outcome_name(j->s->outcome));
	struct reply_thread t;
	struct kv v = { 0 };
	struct strbuf mbox = STRBUF_INIT, tmpl = STRBUF_INIT;
	struct strbuf body = STRBUF_INIT, msg = STRBUF_INIT, sb = STRBUF_INIT;
	char *msgid = NULL, *eml = jobdir_path(j->dir, "reply.eml"), *first;
	char *machine = NULL;
	enum unvouched u;
	int ret = EXIT_FAIL, dest, tested_by = 0;

	/* composed before a crash: keep it, with its Message-ID */
	if (!access(eml, R_OK) && j->s->reply_msgid) {
		free(eml);
		free(tmpl_name);
		return 0;
	}
	if (!j->s->outcome) {
		free(eml);
		error("job %s: no outcome to report ('%s')", j->dir,
		      tmpl_name);
		free(tmpl_name);
		return -1;
	}
	if (jobdir_read(j->dir, "thread.mbox", &mbox) < 0 ||
	    reply_thread_from_mbox(mbox.buf, mbox.len,
				   job_str(j->s->cover_msgid), &t)) {
		error("job %s: cannot find <%s> in thread.mbox", j->dir,
		      job_str(j->s->cover_msgid));
		goto out_nothread;
	}
	if (reply_load_template(tmpl_name, &tmpl) < 0)
		goto out;
	if (merged) {
		merged_vars(j, &v);
		thread_under_report(j, &t);
	}

	reply_quote(&t, jo()->quote_lines, &sb);
	kv_set(&v, "quote", sb.buf);
	strbuf_reset(&sb);
	first = reply_greeting(&t);
	kv_set(&v, "greeting", first);
	free(first);
	kv_setf(&v, "series", "v%d, %d patch%s", j->s->version,
		j->s->nr_patches, j->s->nr_patches != 1 ? "es" : "");
	machine = machine_var(j, &v);
	kernels_facts(j, &v);
	if (job_state_identical(j->s))
		compiled_out_var(j, &v);
	/* where it goes decides its Cc and whether it may vouch */
	dest = mailpolicy_job(j->dir, j->s, &tested_by);
	if (dest < 0)
		goto out;
	u = claims(j, &v, machine, tested_by);
	if (merged && j->s->outcome == JOB_TESTED)
		unchecked_var(&v, u);
	frame_vars(j, &v);
	answer_var(j, &v);
	profile_vars(j, &v);
	set_file_var(j, &v, "tables", "tables.txt", 1);
	set_file_var(j, &v, "plan", "plan.txt", 0);
	/* format.txt, the table format chosen and why, stays in the job */
	set_file_var(j, &v, "verdict", "verdict.txt", 0);
	set_file_var(j, &v, "regressions", "regressions.txt", 0);
	set_file_var(j, &v, "bisect", "bisect.txt", 0);
	set_file_var(j, &v, "earlier", "earlier.txt", 0);
	set_file_var(j, &v, "log", "failure.txt", 0);
	kv_set(&v, "base", j->s->base_desc ? j->s->base_desc :
	       j->s->series_base);
	kv_set(&v, "base_hint", j->s->base_hint);
	/* the base-commit: advice is for a series that names no base */
	if (!j->s->series_base)
		kv_set(&v, "no_stated_base", "1");
	kv_set(&v, "which", j->s->failed_which);
	kv_set(&v, "requested_by", j->s->requested_by);
	reproduce_var(j, &v);
	strbuf_reset(&sb);
	reply_signature(jo()->signature, &sb);
	kv_set(&v, "signature", sb.buf);
	/* the tested template is the only one with a Tested-by line */
	if (reply_expand(tmpl.buf, &v, &body) < 0)
		goto out;
	if (reply_compose_cc(&t, body.buf, dest == MAIL_AUTHOR ? "none" : NULL,
			     &msg, &msgid) < 0)
		goto out;
	job_state_set(&j->s->reply_msgid, msgid);
	if (write_file_atomic(eml, msg.buf, msg.len) < 0) {
		error("cannot write %s", eml);
		goto out;
	}
	ret = 0;
out:
	reply_thread_release(&t);
out_nothread:
	kv_release(&v);
	free(tmpl_name);
	free(machine);
	strbuf_release(&mbox);
	strbuf_release(&tmpl);
	strbuf_release(&body);
	strbuf_release(&msg);
	strbuf_release(&sb);
	free(msgid);
	free(eml);
	return ret;
}

int job_reply_write(const char *dir, struct job_state *js)
{
	struct reply_job j = { dir, js };

	return compose(&j);
}
