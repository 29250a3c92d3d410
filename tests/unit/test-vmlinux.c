// SPDX-License-Identifier: GPL-2.0
/*
 * test-vmlinux.c - the digest of code and data: this test's own ELF
 * binary stands in for a vmlinux.  A copy digests alike; a byte changed
 * in .text, .data or any other loaded section changes it; the build's
 * identity (linux_banner, which this file defines like the kernel does)
 * does not.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "util.h"
#include "vmlinux.h"

/* As init/version-timestamp.c: the "#N" build count and date. */
const char linux_banner[] = "Linux version 6.1.0 (sched-bot) #1 SMP";
/* Some data of this file's own, in .data. */
char test_data[64] = "some data in the .data section";
/* and in a section of its own, as .init.data or .data..percpu are */
__attribute__((section("sched_bot_init"), used))
char test_init[64] = "some data in a section of its own";

static char tmpdir[] = "/tmp/test-vmlinux-XXXXXX";

static char *copy_self(const char *name, const char *find,
		       const char *replace)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", tmpdir, name);

	CHECK(strbuf_read_file(&sb, "/proc/self/exe") > 0);
	if (find) {
		char *hit = memmem(sb.buf, sb.len, find, strlen(find));

		CHECK(hit != NULL);
		if (hit)
			memcpy(hit, replace, strlen(replace));
	}
	CHECK(write_file_atomic(path, sb.buf, sb.len) == 0);
	strbuf_release(&sb);
	return path;
}

static void test_digest(void)
{
	char *b = xstrdup(linux_banner), *t = xstrdup(test_data);
	char *i = xstrdup(test_init);
	char *same, *banner, *data, *init;

	/* found at run time: a literal would be in .rodata too */
	*strchr(b, '#') = '%';
	t[0] = 'S';
	i[0] = 'S';
	same = copy_self("same", NULL, NULL);
	banner = copy_self("banner", linux_banner, b);
	data = copy_self("data", test_data, t);
	init = copy_self("init", test_init, i);
	char *d0 = vmlinux_digest("/proc/self/exe");
	char *d1 = vmlinux_digest(same);
	char *d2 = vmlinux_digest(banner);
	char *d3 = vmlinux_digest(data);
	char *d4 = vmlinux_digest(init);

	CHECK(d0 && strlen(d0) == 40);
	CHECK_STR(d0, d1);
	CHECK_STR(d0, d2);
	CHECK(d0 && d3 && strcmp(d0, d3));
	CHECK(d0 && d4 && strcmp(d0, d4));
	CHECK(d3 && d4 && strcmp(d3, d4));
	free(same);
	free(banner);
	free(data);
	free(init);
	free(d0);
	free(d1);
	free(d2);
	free(d3);
	free(d4);
	free(b);
	free(t);
	free(i);
}

static void test_not_elf(void)
{
	char *path = xasprintf("%s/text", tmpdir);

	CHECK(write_file_atomic(path, "not ELF\n", 8) == 0);
	CHECK(vmlinux_digest(path) == NULL);
	CHECK(vmlinux_digest("/nonexistent/vmlinux") == NULL);
	free(path);
}

int main(void)
{
	TEST_NAME("test-vmlinux");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(test_digest);
	RUN(test_not_elf);
	remove_tree(tmpdir);
	return test_done();
}
