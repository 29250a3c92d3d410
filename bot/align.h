/* SPDX-License-Identifier: GPL-2.0 */
/*
 * align.h - the alignment control of a confirmed regression.  Many
 * "strange" performance changes come from where the code and data
 * landed, not from what the patch does (the kernel test robot learned
 * it and filters them before it reports).  So before a regression is
 * reported, the base and patched kernels are built again with their
 * functions aligned (compare.alignmentControl: KCFLAGS, by default
 * -falign-functions=64, and CONFIG_DEBUG_FORCE_FUNCTION_ALIGNMENT_64B
 * where the tree has that option) and run in a fresh round of blocks
 * (align.csv) under the job's plan: every workload of the job, the
 * KPIs that regressed in the confirmation the ones that decide.  The
 * regression is "also seen" when one of them regresses again, else
 * "not seen with forced alignment": likely code layout, not the patch,
 * and then no regression is reported.
 *
 * What it costs: two more kernel builds (their own build slots, since
 * the flags are part of the config hash: built from scratch the first
 * time, incrementally after) and one more round of blocks.
 */
#ifndef SCHED_BOT_ALIGN_H
#define SCHED_BOT_ALIGN_H

#include "blocks.h"

/* job_state.aligned */
enum align_result {
	ALIGN_NOT_RUN,		/* no control (off, or no regression) */
	ALIGN_SEEN,		/* the regression survived it */
	ALIGN_NOT_SEEN,		/* it vanished: likely code layout */
	ALIGN_FAILED,		/* an aligned kernel did not build */
};

/* Whether flags (compare.alignmentControl) ask for a control at all. */
int align_enabled(const char *flags);

/*
 * Run the control of b's confirmed regression (confirm: the round that
 * confirmed it) with flags, judging align.csv into out, and set
 * b->js->aligned.  Returns 0, or an exit code (the job can be resumed).
 */
int align_control(struct job_blocks *b, const char *flags,
		  const struct blocks_round *confirm, struct blocks_round *out);

/*
 * What the reply says of it, after the job's tables and verdict:
 * the round's tables, and the sentence ("also seen with functions
 * aligned to 64 bytes", "not seen with forced alignment: likely code
 * layout, not the patch"); a "control:" line for summary.txt.
 */
void align_report(const struct job_blocks *b, const char *flags,
		  const struct blocks_round *r, struct strbuf *tables,
		  struct strbuf *verdict, struct strbuf *summary);

#endif
