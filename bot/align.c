// SPDX-License-Identifier: GPL-2.0
/*
 * align.c - the alignment control of a confirmed regression (see
 * align.h).
 */
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "build.h"
#include "reply.h"
#include "tree.h"
#include "util.h"

/* The option of kernels from 6.2 on that aligns every function to 64. */
#define ALIGN_KCONFIG "DEBUG_FORCE_FUNCTION_ALIGNMENT_64B"
/* how much of a posted tree's Kconfig file is looked at */
#define ALIGN_MAX_KCONFIG ((size_t)1 << 20)

int align_enabled(const char *flags)
{
	return flags && *flags && strcmp(flags, "off") &&
	       strcmp(flags, "false") && strcmp(flags, "none");
}

/* CONFIG_DEBUG_FORCE_FUNCTION_ALIGNMENT_64B=y when rev's tree has it. */
static const char *align_config(const char *tree, const char *rev)
{
	static const char *const files[] = { "lib/Kconfig.debug",
					     "arch/Kconfig" };
	git_repository *repo = NULL;
	size_t i;
	int has = 0;

	if (tree_open(&repo, tree) < 0)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(files) && has <= 0; i++)
		has = tree_file_has(repo, rev, files[i],
				    "config " ALIGN_KCONFIG "\n",
				    ALIGN_MAX_KCONFIG);
	git_repository_free(repo);
	return has > 0 ? "CONFIG_" ALIGN_KCONFIG "=y\n" : NULL;
}

/* Both kernels again, aligned; 0, 1 when one did not build, or -1. */
static int align_build(struct job_blocks *b, const char *flags,
		       struct build_result br[2])
{
	static const char *const sides[] = { "base", "patched" };
	char *tp = tree_default_path();
	int i, rc = 0;

	for (i = 0; i < 2 && !rc; i++) {
		struct build_opts bo = { 0 };
		const char *rev = b->js->side[i].commit;

		bo.tree = tp;
		bo.rev = rev ? rev : "";
		/* the job's config, the alignment flags the one difference */
		bo.base_config = b->js->base_config;
		bo.fragment_list = b->js->fragments;
		bo.progress = verbosity >= 0;
		bo.kcflags = flags;
		bo.extra_config = align_config(tp, bo.rev);
		bo.extra_name = "the alignment control";
		bo.trusted = i == 0;	/* the base: the tree's own */
		info("the alignment control: building the %s kernel with KCFLAGS=%s%s",
		     sides[i], flags, bo.extra_config ?
		     " and CONFIG_" ALIGN_KCONFIG "=y" : "");
		rc = build_kernel(&bo, &br[i]);
	}
	free(tp);
	return rc;
}

/* Whether a KPI of the confirmation regresses in the control too. */
static int survives(const struct blocks_round *confirm,
		    const struct blocks_round *r)
{
	const char *p = confirm->kpis.buf;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *q = r->kpis.buf;

		for (; *q; q += strcspn(q, "\n") + 1)
			if (strcspn(q, "\n") == n && !strncmp(p, q, n))
				return 1;
		p += n + (p[n] == '\n');
	}
	return 0;
}

int align_control(struct job_blocks *b, const char *flags,
		  const struct blocks_round *confirm, struct blocks_round *out)
{
	struct build_result br[2];
	struct blocks_pair pk;
	int rc;

	memset(br, 0, sizeof(br));
	rc = align_build(b, flags, br);
	if (rc) {
		/* the report goes on without it, and says so */
		b->js->aligned = ALIGN_FAILED;
		rc = rc > 0 ? 0 : EXIT_FAIL;
		goto out;
	}
	blocks_pair_of_job(b, &pk);
	pk.kernel[0] = br[0].kernel;
	pk.kernel[1] = br[1].kernel;
	pk.release[0] = br[0].release;
	pk.release[1] = br[1].release;
	pk.dir[0] = "align-base";
	pk.dir[1] = "align-head";
	rc = blocks_run(b, "align", 3, &pk);
	if (rc == -2)
		rc = EXIT_FAIL;
	if (!rc && blocks_judge(b, "align.csv", out) < 0)
		rc = EXIT_FAIL;
	if (!rc)
		b->js->aligned = survives(confirm, out) ? ALIGN_SEEN :
				 ALIGN_NOT_SEEN;
out:
	build_result_release(&br[0]);
	build_result_release(&br[1]);
	return rc;
}

/* "functions aligned to 64 bytes", or "KCFLAGS=<flags>" for others. */
static void align_words(const char *flags, struct strbuf *out)
{
	const char *p = strstr(flags, "-falign-functions=");
	int n;

	if (p && sscanf(p + strlen("-falign-functions="), "%d", &n) == 1 &&
	    n > 0)
		strbuf_addf(out, "functions aligned to %d bytes", n);
	else
		strbuf_addf(out, "the kernels built with KCFLAGS=%s", flags);
}

void align_report(const struct job_blocks *b, const char *flags,
		  const struct blocks_round *r, struct strbuf *tables,
		  struct strbuf *verdict, struct strbuf *summary)
{
	struct strbuf w = STRBUF_INIT, s = STRBUF_INIT;
	int seen = b->js->aligned == ALIGN_SEEN;

	align_words(flags, &w);
	if (b->js->aligned == ALIGN_FAILED) {
		strbuf_addstr(&s, "\nThe alignment control could not be run: an aligned kernel did not build.\n");
		strbuf_addstr(summary, "control: not run, an aligned kernel did not build\n");
	} else if (seen || b->js->aligned == ALIGN_NOT_SEEN) {
		strbuf_addf(tables, "\nThe alignment control, base and patched built again with\n"
			    "KCFLAGS=%s, a fresh round of %zu blocks:\n\n",
			    flags, r->blocks);
		strbuf_add(tables, r->tables.buf, r->tables.len);
	}
	if (seen) {
		strbuf_addf(&s, "\nThe alignment control (a fresh round of %zu blocks):\n"
			    "%s\n"
			    "The regression is also seen with %s.\n",
			    r->blocks, r->verdict.buf, w.buf);
		strbuf_addf(summary, "control: also seen with %s\n", w.buf);
	} else if (b->js->aligned == ALIGN_NOT_SEEN) {
		strbuf_reset(verdict);
		strbuf_addf(&s, "The runs found a regression and a fresh round confirmed it, but it is not seen with forced alignment (%s, a fresh round of %zu blocks): likely code layout, not the patch.  No regression is reported.\n\n"
			    "The alignment control:\n"
			    "%s", w.buf, r->blocks, r->verdict.buf);
	}
	reply_wrap(s.buf, 72, verdict);
	strbuf_release(&w);
	strbuf_release(&s);
}
