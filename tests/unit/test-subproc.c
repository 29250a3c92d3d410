// SPDX-License-Identifier: GPL-2.0
/*
 * test-subproc.c - what a child prints is read within bounds: a line
 * without end is cut for line() and in the log, runs that share a
 * struct subproc_cut share log_max, stderr apart keeps its head, and
 * each cut is counted; a child that closes stdout and writes on to
 * stderr is read to its end.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "subproc.h"
#include "test.h"
#include "util.h"

static size_t longest;
static int nr_lines;

static void on_line(const char *line, void *data)
{
	size_t n = strlen(line);

	(void)data;
	if (n > longest)
		longest = n;
	nr_lines++;
}

/* A fresh log file: its fd, its path in path (freed by the caller). */
static int new_log(char **path)
{
	char tmpl[] = "/tmp/test-subproc-XXXXXX";
	int fd = mkstemp(tmpl);

	CHECK(fd >= 0);
	*path = xstrdup(tmpl);
	return fd;
}

static void check_log(const char *path, const char *expect, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK(strbuf_read_file(&sb, path) >= 0);
	CHECK_INT(sb.len, len);
	CHECK(sb.len == len && !memcmp(sb.buf, expect, len));
	strbuf_release(&sb);
}

static void test_line_cut(void)
{
	static const char *const argv[] = {
		"sh", "-c",
		"head -c 1000000 /dev/zero | tr '\\0' x; echo; echo next", NULL
	};
	struct subproc_cut cut = { 0 };
	struct subproc p = {
		.argv = argv, .stdin_fd = -1, .line_max = 4096, .cut = &cut,
		.line = on_line,
	};
	struct strbuf expect = STRBUF_INIT;
	char *path;

	p.log_fd = new_log(&path);
	longest = 0;
	nr_lines = 0;
	CHECK_INT(subproc_run(&p), 0);
	CHECK_INT(longest, 4096);
	CHECK_INT(nr_lines, 2);
	CHECK_INT(cut.lines, 1);
	CHECK_INT(cut.read, 1000000 + 1 + 5);
	CHECK_INT(cut.dropped, 0);
	while (expect.len < 4096)
		strbuf_addch(&expect, 'x');
	strbuf_addstr(&expect, "\n[line cut at 4 KB]\nnext\n");
	check_log(path, expect.buf, expect.len);
	CHECK_INT(cut.logged, expect.len);
	close(p.log_fd);
	unlink(path);
	free(path);
	strbuf_release(&expect);
}

/* line() holds no more than SUBPROC_LINE_MAX of a line, logged or not. */
static void test_line_default(void)
{
	static const char *const argv[] = {
		"sh", "-c", "head -c 300000 /dev/zero | tr '\\0' y", NULL
	};
	struct subproc p = {
		.argv = argv, .stdin_fd = -1, .log_fd = -1, .line = on_line,
	};

	longest = 0;
	nr_lines = 0;
	CHECK_INT(subproc_run(&p), 0);
	CHECK_INT(longest, SUBPROC_LINE_MAX);
	CHECK_INT(nr_lines, 1);
}

static void test_shared_budget(void)
{
	static const char *const argv[] = {
		"sh", "-c", "yes abc | head -c 3000", NULL
	};
	static const char note[] =
		"\n[test output cut at 4 KB: the rest is not kept]\n";
	struct subproc_cut cut = { 0 };
	struct subproc p = {
		.argv = argv, .stdin_fd = -1, .log_max = 4096,
		.log_what = "test output", .cut = &cut,
	};
	struct strbuf expect = STRBUF_INIT;
	char *path;
	int i;

	p.log_fd = new_log(&path);
	for (i = 0; i < 3; i++)
		CHECK_INT(subproc_run(&p), 0);
	/* 4096 less the room kept for the note, then the note */
	while (expect.len < 4096 - 128)
		strbuf_addstr(&expect, "abc\n");
	strbuf_setlen(&expect, 4096 - 128);
	strbuf_addstr(&expect, note);
	check_log(path, expect.buf, expect.len);
	CHECK(cut.full);
	CHECK_INT(cut.read, 9000);
	CHECK_INT(cut.dropped, 9000 - (4096 - 128));
	CHECK_INT(cut.logged, expect.len);
	close(p.log_fd);
	unlink(path);
	free(path);
	strbuf_release(&expect);
}

static void test_stderr_head(void)
{
	static const char *const argv[] = {
		"sh", "-c",
		"echo out; exec >&-; head -c 50000 /dev/zero | tr '\\0' e >&2",
		NULL
	};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct subproc_cut cut = { 0 };
	struct subproc p = {
		.argv = argv, .stdin_fd = -1, .log_fd = -1, .capture = &out,
		.capture_err = &err, .capture_err_max = 100, .cut = &cut,
		.timeout = 60,
	};

	CHECK_INT(subproc_run(&p), 0);
	CHECK_STR(out.buf, "out\n");
	CHECK_INT(err.len, 100);
	CHECK_INT(cut.err_dropped, 50000 - 100);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	RUN(test_line_cut);
	RUN(test_line_default);
	RUN(test_shared_budget);
	RUN(test_stderr_head);
	return test_done();
}
