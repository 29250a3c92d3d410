// SPDX-License-Identifier: GPL-2.0
/*
 * test-vmlinux.c - the digest of code and data: this test's own ELF
 * binary stands in for a vmlinux.  A copy digests alike; a byte changed
 * in .text, .data or any other loaded section changes it; the build's
 * identity (linux_banner, which this file defines like the kernel does)
 * does not.  Made-up files: the digest is git's blob id of the sections
 * as it always was, and sections that overlap or leave the file are
 * refused with the reason.
 */
#include <elf.h>
#include <fcntl.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * An ELF64 file of size bytes (sparse) whose section 2 is .text and
 * the others .data, each PROGBITS | ALLOC at sec[i][0], sec[i][1] long.
 */
static char *make_elf(const char *name, off_t size,
		      const unsigned long long (*sec)[2], size_t nr)
{
	static const char names[] = "\0.shstrtab\0.text\0.data";
	char *path = xasprintf("%s/%s", tmpdir, name);
	Elf64_Ehdr eh = { .e_type = ET_EXEC, .e_machine = EM_X86_64,
			  .e_version = EV_CURRENT, .e_shoff = 128,
			  .e_ehsize = sizeof(eh),
			  .e_shentsize = sizeof(Elf64_Shdr),
			  .e_shnum = nr + 2, .e_shstrndx = 1 };
	Elf64_Shdr sh[8] = { { 0 } };
	size_t i;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_STRTAB,
			      .sh_offset = 64, .sh_size = sizeof(names) };
	for (i = 0; i < nr && i + 2 < ARRAY_SIZE(sh); i++)
		sh[i + 2] = (Elf64_Shdr){ .sh_name = i ? 17 : 11,
			.sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
			.sh_offset = sec[i][0], .sh_size = sec[i][1] };
	CHECK(fd >= 0);
	CHECK(pwrite(fd, &eh, sizeof(eh), 0) == sizeof(eh));
	CHECK(pwrite(fd, names, sizeof(names), 64) == sizeof(names));
	CHECK(pwrite(fd, sh, (nr + 2) * sizeof(sh[0]), 128) ==
	      (ssize_t)((nr + 2) * sizeof(sh[0])));
	CHECK(ftruncate(fd, size) == 0);
	close(fd);
	return path;
}

/* vmlinux_digest_fd() of path: the digest, or NULL and why. */
static char *digest_why(const char *path, struct strbuf *why)
{
	int fd = open(path, O_RDONLY);
	char *d;

	CHECK(fd >= 0);
	strbuf_reset(why);
	d = vmlinux_digest_fd(fd, "V", why);
	close(fd);
	return d;
}

static void test_sections(void)
{
	static const unsigned long long fine[][2] = {
		{ 4096, 4096 }, { 8192, 4096 },
	}, overlap[][2] = {
		{ 4096, 8192 }, { 8192, 4096 },
	}, outside[][2] = {
		{ 4096, 4096 }, { 8192, 1ULL << 30 },
	}, wrap[][2] = {
		{ 4096, 4096 }, { 8192, ~0ULL - 4095 },
	};
	struct strbuf why = STRBUF_INIT, blob = STRBUF_INIT;
	char *p, *d, hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	p = make_elf("fine", 65536, fine, 2);
	d = digest_why(p, &why);
	/* git's blob id of each "NAME SIZE\n" and its (zero) bytes */
	strbuf_addstr(&blob, ".text 4096\n");
	strbuf_grow(&blob, 4096);
	memset(blob.buf + blob.len, 0, 4096);
	strbuf_setlen(&blob, blob.len + 4096);
	strbuf_addstr(&blob, ".data 4096\n");
	strbuf_grow(&blob, 4096);
	memset(blob.buf + blob.len, 0, 4096);
	strbuf_setlen(&blob, blob.len + 4096);
	git_odb_hash(&oid, blob.buf, blob.len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	CHECK_STR(d, hex);
	CHECK_STR(why.buf, "");
	free(d);
	free(p);

	p = make_elf("overlap", 65536, overlap, 2);
	CHECK(digest_why(p, &why) == NULL);
	CHECK_STR(why.buf, "V: sections 2 (.text) and 3 (.data) overlap in the file");
	free(p);

	p = make_elf("outside", 65536, outside, 2);
	CHECK(digest_why(p, &why) == NULL);
	CHECK_STR(why.buf, "V: section 3 (.data) lies outside the file (bytes 8192 to 1073750016 of 65536)");
	free(p);

	p = make_elf("wrap", 65536, wrap, 2);
	CHECK(digest_why(p, &why) == NULL);
	CHECK(starts_with(why.buf, "V: section 3 (.data) lies outside the file"));
	free(p);
	strbuf_release(&why);
	strbuf_release(&blob);
}

int main(void)
{
	TEST_NAME("test-vmlinux");
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(test_digest);
	RUN(test_not_elf);
	RUN(test_sections);
	remove_tree(tmpdir);
	return test_done();
}
