// SPDX-License-Identifier: GPL-2.0
/*
 * test-arch.c - the architecture table: each entry found by its name
 * and by what uname -m says on it, the kernel image each kind is told
 * by (a bzImage's "HdrS", an arm64 Image's "ARM\x64"), and a cross
 * prefix only for another architecture than the host's.
 */
#include <elf.h>
#include <string.h>

#include "arch.h"
#include "test.h"

static void test_find(void)
{
	const struct arch *x = arch_find("x86_64"), *a = arch_find("arm64");

	CHECK(x && a && x != a);
	CHECK(x == &arch_table[0]);
	CHECK(arch_find("aarch64") == a);
	CHECK(arch_find("sparc64") == NULL);
	CHECK(arch_find("") == NULL);
	CHECK(arch_find(NULL) == NULL);
	CHECK_STR(x->karch, "x86");
	CHECK_STR(a->karch, "arm64");
	CHECK_STR(a->image_path, "arch/arm64/boot/Image");
	CHECK_INT(a->elf_machine, EM_AARCH64);
	CHECK_INT(x->elf_machine, EM_X86_64);
	CHECK_STR(a->console, "ttyAMA0");
}

static void test_image(void)
{
	unsigned char head[ARCH_IMAGE_HEAD] = { 0 };
	const struct arch *x = arch_find("x86_64"), *a = arch_find("arm64");
	const char *why = NULL;

	CHECK(!arch_image_ok(x, head, sizeof(head), &why));
	CHECK(why && strstr(why, "HdrS"));
	CHECK(!arch_image_ok(a, head, sizeof(head), &why));
	CHECK(why && strstr(why, "0x38"));
	memcpy(head + 0x202, "HdrS", 4);
	CHECK(arch_image_ok(x, head, sizeof(head), &why));
	CHECK(!arch_image_ok(a, head, sizeof(head), &why));
	/* short reads are never an image */
	CHECK(!arch_image_ok(x, head, 0x205, &why));
	memcpy(head + 0x38, "ARM\x64", 4);
	CHECK(arch_image_ok(a, head, sizeof(head), &why));
	CHECK(!arch_image_ok(a, head, 0x3b, &why));
}

static void test_cross(void)
{
	const struct arch *h = arch_host();
	size_t i;

	CHECK(h != NULL);
	CHECK_STR(arch_cross(h), "");
	for (i = 0; i < arch_table_nr; i++)
		if (&arch_table[i] != h)
			CHECK(*arch_cross(&arch_table[i]));
}

int main(void)
{
	TEST_NAME("test-arch");
	RUN(test_find);
	RUN(test_image);
	RUN(test_cross);
	return test_done();
}
