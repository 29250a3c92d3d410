// SPDX-License-Identifier: GPL-2.0
/*
 * test-progress.c - the status line: drawn on a terminal (a pty here)
 * only when asked for, never into a pipe, and wiped when done.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "progress.h"
#include "test.h"

/* Run fn with stderr on fd, and return what arrived on rfd. */
static char *capture(int fd, int rfd, void (*fn)(void))
{
	struct strbuf sb = STRBUF_INIT;
	int saved = dup(2);
	char buf[512];
	struct pollfd p = { .fd = rfd, .events = POLLIN };

	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	while (poll(&p, 1, 100) > 0) {
		ssize_t n = read(rfd, buf, sizeof(buf));

		if (n <= 0)
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	return strbuf_detach(&sb, NULL);
}

static void draw(void)
{
	struct progress p;

	progress_start(&p, 1);
	progress_show(&p, "run %d/%d: %s ...", 1, 3, "spawn");
	progress_done(&p);
	/* a line of output: elapsed time, no leading blanks, 70 columns */
	progress_start(&p, 1);
	progress_output(&p, "   CC      kernel/sched/fair.o and a long tail "
			"that goes on past seventy columns of text");
	progress_done(&p);
	/* nothing drawn, nothing to wipe */
	progress_done(&p);
}

/*
 * What make and a guest's console print is a stranger's: OSC 52 (the
 * clipboard), OSC 0 (the title), clear screen, a CR that moves back
 * over the line, a C1 CSI as UTF-8, a tab and a line break.
 */
static void draw_hostile(void)
{
	struct progress p;

	progress_start(&p, 1);
	progress_output(&p, "\033]52;c;cHdu\007\033]0;owned\007\033[2J"
			"evil\rmake\xc2\x9b[31m\tline\nnext");
	progress_done(&p);
	progress_start(&p, 1);
	progress_show(&p, "fetching %s", "\033]0;title\007x");
	progress_done(&p);
}

static void draw_unwanted(void)
{
	struct progress p;

	progress_start(&p, 0);
	progress_show(&p, "hidden");
	progress_output(&p, "hidden too");
	progress_done(&p);
}

static void test_terminal(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY), s;
	struct termios t;
	char *out;

	CHECK(m >= 0);
	if (m < 0)
		return;
	CHECK_INT(grantpt(m), 0);
	CHECK_INT(unlockpt(m), 0);
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	CHECK(s >= 0);
	if (s < 0) {
		close(m);
		return;
	}
	tcgetattr(s, &t);
	cfmakeraw(&t);
	tcsetattr(s, TCSANOW, &t);
	out = capture(s, m, draw);
	CHECK(starts_with(out, "\r\033[Krun 1/3: spawn ...\r\033[K\r\033[K["));
	/* the elapsed seconds are "[%4.0fs]": whatever the clock says */
	CHECK(strlen(out) > 35 && out[35] == 's');
	CHECK_STR(out + 35, "s] CC      kernel/sched/fair.o and a long tail "
		  "that goes on past seventy \r\033[K");
	free(out);
	out = capture(s, m, draw_unwanted);
	CHECK_STR(out, "");
	free(out);
	/* only the line's own "\r ESC[K": the rest shown as '?' */
	out = capture(s, m, draw_hostile);
	CHECK(starts_with(out, "\r\033[K["));
	CHECK_STR(strstr(out, "s] "), "s] ?]52;c;cHdu??]0;owned??[2Jevil?make"
		  "?[31m line next\r\033[K\r\033[Kfetching ?]0;title?x"
		  "\r\033[K");
	free(out);
	close(s);
	close(m);
}

static void test_pipe(void)
{
	int fd[2];
	char *out;

	CHECK_INT(pipe(fd), 0);
	out = capture(fd[1], fd[0], draw);
	CHECK_STR(out, "");
	free(out);
	close(fd[0]);
	close(fd[1]);
}

int main(void)
{
	TEST_NAME("test-progress");
	RUN(test_terminal);
	RUN(test_pipe);
	return test_done();
}
