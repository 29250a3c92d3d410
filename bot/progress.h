/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - the one status line for a person at a terminal: a short
 * text redrawn in place ("\r", erase the line, the text) while a kernel
 * builds, a QEMU guest boots and runs, or `sched-bot run` works through
 * its runs.  Nothing is ever drawn unless it was asked for and stderr is
 * a terminal, so logs and tests never see it.
 */
#ifndef SCHED_BOT_PROGRESS_H
#define SCHED_BOT_PROGRESS_H

#include "util.h"

struct progress {
	int tty;		/* draw at all */
	int drawn;		/* the line holds something to wipe */
	double start;		/* what the elapsed time counts from */
	double last;		/* when a line was last drawn */
};

/* Start: draw only when want is set and stderr is a terminal. */
void progress_start(struct progress *p, int want);
/* Replace the line with this text, its control characters replaced. */
void progress_show(struct progress *p, const char *fmt, ...) PRINTF(2, 3);
/*
 * A line of a child's output as "[  12s] text" (elapsed time, the line
 * without its leading blanks, cut at 70 columns), at most five a second:
 * make and a serial console print far faster than anyone reads.
 */
void progress_output(struct progress *p, const char *line);
/* Wipe the line, leaving the cursor at its start. */
void progress_done(struct progress *p);

#endif
