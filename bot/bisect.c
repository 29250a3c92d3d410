// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c - the first patch of a series that shows a confirmed
 * regression (see bisect.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "build.h"
#include "jobdir.h"
#include "series.h"
#include "tree.h"
#include "util.h"

/* A bisection under way: the job's directory and state, the story. */
struct bisect {
	const char *dir;
	struct job_state *js;
	struct job_blocks *blocks;
	char *tree;
	int stopped;		/* a prefix did not build: no patch named */
	struct strbuf out;	/* bisect.txt */
};

/* The steps of the bisection tried so far, from their files. */
static void bisect_steps(struct bisect *b)
{
	int k, n = b->js->nr_patches;

	for (k = 1; k < n; k++) {
		char *name = xasprintf("bisect-%d.csv", k);
		char *same = xasprintf("bisect-%d.identical", k);
		struct strbuf sb = STRBUF_INIT;
		struct blocks_round rt;

		blocks_round_init(&rt);
		if (!jobdir_read(b->dir, same, &sb))
			strbuf_addf(&b->out, "- base + %d of %d patches: the base's code and data, not run\n",
				    k, n);
		else if (!blocks_judge(b->blocks, name, &rt))
			strbuf_addf(&b->out, "- base + %d of %d patches: %s (%zu blocks)\n",
				    k, n, verdict_name(rt.v),
				    rt.blocks);
		blocks_round_release(&rt);
		free(name);
		free(same);
		strbuf_release(&sb);
	}
}

/* base + mid has the base's code and data: nothing to run. */
static int bisect_identical(struct bisect *b, int mid, const char *stem,
			    const char *digest)
{
	char *same = xasprintf("%s.identical", stem);
	int ret = 0;

	info("base + %d patches: the base's code and data", mid);
	if (jobdir_write(b->dir, same, digest, strlen(digest)) < 0)
		ret = EXIT_FAIL;
	free(same);
	b->js->bisect_lo = mid;
	b->blocks->save(b->blocks->ctx);
	return ret;
}

/*
 * One step: build base + mid, run it against the base, move lo or hi.
 * Returns 0 (stopped set when the bisection stops there, said in
 * bisect.txt), or an exit code.
 */
static int bisect_step(struct bisect *b, int mid)
{
	struct job_state *js = b->js;
	const char *base_digest = js->side[JOB_SIDE_BASE].digest;
	int n = js->nr_patches, ret;
	char *stem = xasprintf("bisect-%d", mid);
	char *name = xasprintf("%s.csv", stem);
	char *rev = xasprintf("%s~%d", js->side[JOB_SIDE_HEAD].commit ?
			      js->side[JOB_SIDE_HEAD].commit : "", n - mid);
	char *label = xasprintf("base+%d", mid);
	char *kdir = xasprintf("k%d", mid);
	struct build_opts bo = { 0 };
	struct build_result br;
	struct blocks_pair pk;
	struct blocks_round rt;

	memset(&br, 0, sizeof(br));
	blocks_round_init(&rt);
	bo.tree = b->tree;
	bo.base_config = js->base_config;
	bo.fragment_list = js->fragments;
	bo.rev = rev;
	bo.progress = verbosity >= 0;
	info("bisecting: building base + %d of %d patches", mid, n);
	ret = build_kernel(&bo, &br);
	if (ret) {
		strbuf_addf(&b->out, "The bisection stopped: base + %d of %d patches %s.\n",
			    mid, n, ret == 1 ?
			    "did not build" : "could not be built");
		b->stopped = 1;
		ret = 0;
		goto out;
	}
	if (br.digest && base_digest && !strcmp(br.digest, base_digest)) {
		ret = bisect_identical(b, mid, stem, br.digest);
		goto out;
	}
	blocks_pair_of_job(b->blocks, &pk);
	pk.kernel[1] = br.kernel;
	pk.release[1] = br.release;
	pk.label[1] = label;
	pk.dir[1] = kdir;
	ret = blocks_run(b->blocks, stem, 10 + mid, &pk);
	if (ret == -2)
		ret = EXIT_FAIL;
	if (ret || blocks_judge(b->blocks, name, &rt) < 0) {
		ret = ret ? ret : EXIT_FAIL;
		goto out;
	}
	if (rt.v == VERDICT_REGRESSION)
		js->bisect_hi = mid;
	else
		js->bisect_lo = mid;
	b->blocks->save(b->blocks->ctx);
out:
	blocks_round_release(&rt);
	build_result_release(&br);
	free(stem);
	free(name);
	free(rev);
	free(label);
	free(kdir);
	return ret;
}

/* The patch found, and what base + it shows against the base. */
static void bisect_found(struct bisect *b, const struct series *s,
			 const char *head_regs)
{
	int k = b->js->bisect_hi, n = b->js->nr_patches;
	const char *subject = NULL;
	struct strbuf regs = STRBUF_INIT;

	if (s && k >= 1 && (size_t)k <= s->nr_patches)
		subject = s->patches[k - 1].subject;
	strbuf_addf(&b->out, "The first patch that shows the change is %d/%d:\n\n"
		    "    [PATCH %d/%d] %s\n\n", k, n, k, n,
		    subject ? subject : "(subject unknown)");
	if (k < n) {
		char *name = xasprintf("bisect-%d.csv", k);
		struct blocks_round rt;

		blocks_round_init(&rt);
		if (!blocks_judge(b->blocks, name, &rt))
			strbuf_add(&regs, rt.regs.buf, rt.regs.len);
		blocks_round_release(&rt);
		free(name);
	} else {
		strbuf_addstr(&regs, head_regs);
	}
	strbuf_addf(&b->out, "With base + %d patches against the base:\n\n"
		    "%s\n", k, regs.buf);
	strbuf_release(&regs);
}

int bisect_series(struct job_blocks *blocks, const char *head_regs)
{
	struct job_state *js = blocks->js;
	const char *dir = blocks->dir;
	struct bisect b = { dir, js, blocks, NULL, 0, STRBUF_INIT };
	struct series s;
	int n = js->nr_patches, have_series, ret = 0;

	b.tree = tree_default_path();
	have_series = !jobdir_series(dir, js->msgid, &s);
	if (!js->bisect_hi) {
		js->bisect_lo = 0;
		js->bisect_hi = n;
		blocks->save(blocks->ctx);
	}
	while (!ret && !b.stopped && js->bisect_hi - js->bisect_lo > 1)
		ret = bisect_step(&b, js->bisect_lo +
				  (js->bisect_hi - js->bisect_lo) / 2);
	if (ret)
		goto out;
	if (!b.stopped)
		bisect_found(&b, have_series ? &s : NULL, head_regs);
	strbuf_addstr(&b.out, "Each prefix of the series (base + k patches) was built and run\n"
		      "against the base in interleaved blocks, under the same rule:\n\n");
	bisect_steps(&b);
	strbuf_addf(&b.out, "- base + %d of %d patches: regression (confirmed)\n",
		    n, n);
	ret = jobdir_write(dir, "bisect.txt", b.out.buf, b.out.len) < 0 ?
	      EXIT_FAIL : 0;
out:
	if (have_series)
		series_release(&s);
	free(b.tree);
	strbuf_release(&b.out);
	return ret;
}
