// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>

#include "json.h"
#include "test.h"
#include "util.h"

static void test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STR(sb.buf, "");
	strbuf_addstr(&sb, "  hello");
	strbuf_addf(&sb, " %d ", 42);
	strbuf_trim(&sb);
	CHECK_STR(sb.buf, "hello 42");
	CHECK_INT(sb.len, 8);
	strbuf_release(&sb);
	CHECK_INT(sb.len, 0);
}

static void test_json(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb, 0);
	json_object_begin(&j, NULL);
	json_string(&j, "s", "a\"b\n\x01");
	json_array_begin(&j, "a");
	json_int(&j, NULL, 1);
	json_null(&j, NULL);
	json_array_end(&j);
	json_object_end(&j);
	CHECK_STR(sb.buf, "{\"s\":\"a\\\"b\\n\\u0001\",\"a\":[1,null]}");
	strbuf_release(&sb);
}

static void test_atomic_write(void)
{
	char dir[] = "/tmp/sched-bot-unit.XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	char *path;

	CHECK(mkdtemp(dir) != NULL);
	path = xasprintf("%s/a/b/c", dir);
	CHECK(mkdir_p(path, 0755) == 0);
	free(path);
	path = xasprintf("%s/a/file", dir);
	CHECK(write_file_atomic(path, "data", 4) == 0);
	CHECK(strbuf_read_file(&sb, path) == 4);
	CHECK_STR(sb.buf, "data");
	CHECK(remove_tree(dir) == 0);
	CHECK(access(dir, F_OK) < 0);
	strbuf_release(&sb);
	free(path);
}

static void test_strip_controls(void)
{
	char s[] = "a\033]0;title\007b\033[2Jc\r\nd\te\x7f"
		   "f\xc2\x9b" "1mg\x9bh\xc3\xa4\xe2\x82\xac\xf0\x9f\x98\x80";
	char t[] = "\xc2";
	size_t n = strip_controls(s, strlen(s));

	CHECK_STR(s, "a?]0;title?b?[2Jc?\nd\te?f?1mg?h\xc3\xa4\xe2\x82\xac"
		  "\xf0\x9f\x98\x80");
	CHECK_INT(n, strlen(s));
	/* A cut sequence at the end is no control: kept. */
	CHECK_INT(strip_controls(t, 1), 1);
	CHECK_STR(t, "\xc2");
}

int main(void)
{
	TEST_NAME("test-util");
	RUN(test_strbuf);
	RUN(test_json);
	RUN(test_atomic_write);
	RUN(test_strip_controls);
	return test_done();
}
