// SPDX-License-Identifier: GPL-2.0
/*
 * test-slotfile.c - the door to what a build wrote: a regular file
 * reads, a link at the end or on the way, "..", an absolute path, a
 * FIFO, /dev/zero and a file past its bound are refused with the
 * reason, at once; with openat2 and with the O_NOFOLLOW walk.  And
 * write_file_atomic() writes through no link planted where its
 * temporary file used to go.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slotfile.h"
#include "test.h"
#include "util.h"

static char tmpdir[] = "/tmp/test-slotfile-XXXXXX";
static int dfd = -1;

static char *at(const char *rel)
{
	return xasprintf("%s/%s", tmpdir, rel);
}

static void put(const char *rel, const char *text)
{
	char *p = at(rel);

	CHECK(write_file_atomic(p, text, strlen(text)) == 0);
	free(p);
}

static void link_at(const char *target, const char *rel)
{
	char *p = at(rel);

	CHECK(symlink(target, p) == 0);
	free(p);
}

/* Read rel (bound max): -1 and the reason in why, or the bytes. */
static ssize_t rd(const char *rel, size_t max, struct strbuf *sb,
		  struct strbuf *why)
{
	strbuf_reset(sb);
	strbuf_reset(why);
	return slot_read(dfd, rel, rel, max, sb, why);
}

static void setup(void)
{
	char *p;

	CHECK(mkdtemp(tmpdir) != NULL);
	p = at("sub");
	CHECK(mkdir(p, 0755) == 0);
	free(p);
	put("outside", "secret\n");
	p = at("slot");
	CHECK(mkdir(p, 0755) == 0);
	free(p);
	p = at("slot/arch");
	CHECK(mkdir(p, 0755) == 0);
	free(p);
	put("slot/.config", "CONFIG_A=y\n");
	put("slot/arch/bzImage", "kernel\n");
	put("slot/big", "0123456789");
	link_at("../outside", "slot/link");
	link_at("arch", "slot/dirlink");
	link_at("/dev/zero", "slot/zero");
	p = at("slot/fifo");
	CHECK(mkfifo(p, 0644) == 0);
	free(p);
	p = at("slot");
	dfd = slot_dir_open(p);
	CHECK(dfd >= 0);
	free(p);
}

static void test_door(void)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;

	CHECK_INT(rd(".config", 4096, &sb, &why), 11);
	CHECK_STR(sb.buf, "CONFIG_A=y\n");
	CHECK_INT(rd("arch/bzImage", 0, &sb, &why), 7);
	CHECK_STR(sb.buf, "kernel\n");
	/* exactly at the bound is fine, one past it is not */
	CHECK_INT(rd("big", 10, &sb, &why), 10);
	CHECK_INT(rd("big", 9, &sb, &why), -1);
	CHECK_INT(errno, EFBIG);
	CHECK_STR(why.buf, "big: larger than 9 bytes");
	CHECK_INT(sb.len, 0);

	CHECK_INT(rd("link", 0, &sb, &why), -1);
	CHECK_INT(errno, ELOOP);
	CHECK_STR(why.buf, "link: not a regular file (a symlink)");
	CHECK_INT(rd("dirlink/bzImage", 0, &sb, &why), -1);
	CHECK_INT(errno, ELOOP);
	CHECK_STR(why.buf, "dirlink/bzImage: a symlink on its path");
	CHECK_INT(rd("zero", 0, &sb, &why), -1);
	CHECK_STR(why.buf, "zero: not a regular file (a symlink)");
	CHECK_INT(rd("../outside", 0, &sb, &why), -1);
	CHECK_INT(errno, EXDEV);
	CHECK_STR(why.buf, "../outside: a path outside its directory");
	CHECK_INT(rd("arch/../../outside", 0, &sb, &why), -1);
	CHECK_INT(errno, EXDEV);
	CHECK_INT(rd("/etc/passwd", 0, &sb, &why), -1);
	CHECK_INT(errno, EXDEV);
	/* opens at once (O_NONBLOCK), then refused */
	CHECK_INT(rd("fifo", 0, &sb, &why), -1);
	CHECK_INT(errno, EINVAL);
	CHECK_STR(why.buf, "fifo: not a regular file (a FIFO)");
	CHECK_INT(rd("arch", 0, &sb, &why), -1);
	CHECK_STR(why.buf, "arch: not a regular file (a directory)");
	CHECK_INT(rd("missing", 0, &sb, &why), -1);
	CHECK_INT(errno, ENOENT);
	CHECK(strstr(why.buf, "missing: ") == why.buf);
	CHECK(strstr(sb.buf, "secret") == NULL);
	strbuf_release(&sb);
	strbuf_release(&why);
}

/* The same without openat2, as on a kernel before 5.6. */
static void test_walk(void)
{
	int saved = slot_no_openat2;

	slot_no_openat2 = 1;
	test_door();
	slot_no_openat2 = saved;
}

/* /dev/zero itself, as the directory's file: refused, not read. */
static void test_device(void)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int dev = slot_dir_open("/dev");

	CHECK(dev >= 0);
	CHECK_INT(slot_read(dev, "zero", "/dev/zero", 0, &sb, &why), -1);
	CHECK_STR(why.buf, "/dev/zero: not a regular file (a character "
		  "device)");
	CHECK_INT(sb.len, 0);
	close(dev);
	strbuf_release(&sb);
	strbuf_release(&why);
}

/* A link named like the temporary file of old: written through, never. */
static void test_atomic_write(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *dot = at("slot/.config"), *tmp, *victim = at("outside");
	char name[64];
	struct stat st;

	snprintf(name, sizeof(name), "slot/.config.tmp.%ld", (long)getpid());
	link_at("../outside", name);
	CHECK(write_file_atomic(dot, "CONFIG_B=y\n", 11) == 0);
	CHECK(strbuf_read_file(&sb, victim) == 7);
	CHECK_STR(sb.buf, "secret\n");
	strbuf_reset(&sb);
	CHECK(strbuf_read_file(&sb, dot) == 11);
	CHECK_STR(sb.buf, "CONFIG_B=y\n");
	/* the mode of open(2) with 0644 and the umask */
	CHECK(stat(dot, &st) == 0);
	CHECK_INT(st.st_mode & 0777, 0644 & ~022);
	tmp = at(name);
	CHECK(lstat(tmp, &st) == 0 && S_ISLNK(st.st_mode));
	free(tmp);
	free(dot);
	free(victim);
	strbuf_release(&sb);
}

int main(void)
{
	TEST_NAME("test-slotfile");
	umask(022);
	setup();
	RUN(test_door);
	RUN(test_walk);
	RUN(test_device);
	RUN(test_atomic_write);
	if (dfd >= 0)
		close(dfd);
	remove_tree(tmpdir);
	return test_done();
}
