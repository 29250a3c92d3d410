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
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	size_t i;

	if (!p->tty)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/*
	 * The text quotes make and the guest's console: no escape of
	 * theirs reaches the terminal (OSC 52 sets the clipboard, OSC 0
	 * the title, ESC [2J clears the screen), and no line break
	 * leaves a line that the next "\r" cannot wipe.
	 */
	strbuf_setlen(&sb, strip_controls(sb.buf, sb.len));
	for (i = 0; i < sb.len; i++)
		if (sb.buf[i] == '\n' || sb.buf[i] == '\t')
			sb.buf[i] = ' ';
	fputs("\r\033[K", stderr);
	fwrite(sb.buf, 1, sb.len, stderr);
	fflush(stderr);
	strbuf_release(&sb);
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
