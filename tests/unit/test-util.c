// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
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

struct walk_count {
	long pre, post, files, links, errs;
};

static int count_visit(const struct tree_entry *e, void *data)
{
	struct walk_count *c = data;

	if (e->post) {
		c->post++;
		c->errs += e->err != 0;
		return 0;
	}
	c->pre++;
	if (S_ISREG(e->st->st_mode))
		c->files++;
	if (S_ISLNK(e->st->st_mode))
		c->links++;
	return 0;
}

/*
 * A chain deeper than any path (3000 levels of "dd": 9000 bytes), with
 * 26 files beside its first directory (read again after the walk came
 * back up through ".."), a file and a link to / at its bottom: each
 * entry seen once, the link not followed, all of it measured and
 * removed.
 */
static void test_tree_walk_deep(void)
{
	/* a tmpfs if there is one: a disk mounted with discard takes
	 * seconds to remove 3000 directories
	 */
	char shm[] = "/dev/shm/sched-bot-unit.XXXXXX";
	char tmp[] = "/tmp/sched-bot-unit.XXXXXX";
	char *dir = mkdtemp(shm) ? shm : mkdtemp(tmp);
	struct walk_count c = { 0 };
	struct disk_use u = { 0 };
	char name[2] = "a";
	int fd, next, i;

	CHECK(dir != NULL);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	for (i = 0; i < 26; i++) {
		name[0] = 'a' + i;
		close(openat(fd, name, O_WRONLY | O_CREAT, 0644));
	}
	for (i = 0; i < 3000; i++) {
		CHECK(mkdirat(fd, "dd", 0755) == 0);
		next = openat(fd, "dd", O_RDONLY | O_DIRECTORY);
		CHECK(next >= 0);
		close(fd);
		fd = next;
	}
	next = openat(fd, "data", O_WRONLY | O_CREAT, 0644);
	CHECK(write(next, "data", 4) == 4);
	close(next);
	CHECK(symlinkat("/", fd, "root") == 0);
	close(fd);

	CHECK_INT(tree_walk_below(open(dir, O_RDONLY | O_DIRECTORY),
				  count_visit, &c), 0);
	CHECK_INT(c.pre, 3000 + 26 + 2);
	CHECK_INT(c.post, 3000);
	CHECK_INT(c.files, 27);
	CHECK_INT(c.links, 1);
	CHECK_INT(c.errs, 0);
	disk_use_at(AT_FDCWD, dir, &u);
	CHECK_INT(u.unknown, 0);
	CHECK(u.bytes >= 4096);	/* "data", at least; a tmpfs dir is 0 */
	CHECK(remove_tree(dir) == 0);
	CHECK(access(dir, F_OK) < 0);
}

int main(void)
{
	TEST_NAME("test-util");
	RUN(test_strbuf);
	RUN(test_json);
	RUN(test_atomic_write);
	RUN(test_strip_controls);
	RUN(test_tree_walk_deep);
	return test_done();
}
