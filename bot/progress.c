// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the status line of progress.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "progress.h"

#define MIN_INTERVAL 0.2	/* seconds between two output lines */

void progress_start(struct progress *p, int want)
{
	p->tty = want && isatty(2);
	p->drawn = 0;
	p->start = now_monotonic();
	p->last = 0;
}

void progress_show(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->tty)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	p->drawn = 1;
}

void progress_output(struct progress *p, const char *line)
{
	double t;

	if (!p->tty)
		return;
	t = now_monotonic();
	if (p->drawn && t - p->last < MIN_INTERVAL)
		return;
	p->last = t;
	while (*line == ' ' || *line == '\t')
		line++;
	progress_show(p, "[%4.0fs] %.70s", t - p->start, line);
}

void progress_done(struct progress *p)
{
	if (!p->tty || !p->drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->drawn = 0;
}
