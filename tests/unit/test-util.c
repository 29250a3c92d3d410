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

int main(void)
{
	TEST_NAME("test-util");
	RUN(test_strbuf);
	RUN(test_json);
	RUN(test_atomic_write);
	return test_done();
}
