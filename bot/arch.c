// SPDX-License-Identifier: GPL-2.0
/*
 * arch.c - the architecture table of arch.h.
 */
#include <elf.h>
#include <string.h>
#include <sys/utsname.h>

#include "arch.h"
#include "util.h"

const struct arch arch_table[] = {
	{ .name = "x86_64", .machine = "x86_64", .karch = "x86",
	  .cross = "x86_64-linux-gnu-",
	  .image = "bzImage", .image_path = "arch/x86/boot/bzImage",
	  .elf_machine = EM_X86_64, .elf_name = "x86-64",
	  .qemu = "qemu-system-x86_64", .console = "ttyS0",
	  .qemu_fragment = "qemu.config", .progs_dir = "" },
	/*
	 * Image, not Image.gz or an EFI_ZBOOT vmlinuz: kexec_file_load
	 * and QEMU's -kernel take it as it is.  pauth-impdef: with plain
	 * "max" TCG spends up to half its time in pointer authentication.
	 */
	{ .name = "arm64", .machine = "aarch64", .karch = "arm64",
	  .cross = "aarch64-linux-gnu-",
	  .image = "Image", .image_path = "arch/arm64/boot/Image",
	  .elf_machine = EM_AARCH64, .elf_name = "AArch64",
	  .qemu = "qemu-system-aarch64",
	  .qemu_machine = "virt,gic-version=3",
	  .qemu_cpu = "max,pauth-impdef=on", .console = "ttyAMA0",
	  .qemu_fragment = "qemu-arm64.config", .progs_dir = "arm64/" },
};

const size_t arch_table_nr = ARRAY_SIZE(arch_table);

const struct arch *arch_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < arch_table_nr; i++)
		if (!strcmp(name, arch_table[i].name) ||
		    !strcmp(name, arch_table[i].machine))
			return &arch_table[i];
	return NULL;
}

const struct arch *arch_host(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return NULL;
	return arch_find(u.machine);
}

const char *arch_cross(const struct arch *a)
{
	return a == arch_host() ? "" : a->cross;
}

int arch_image_ok(const struct arch *a, const unsigned char *head,
		  size_t n, const char **why)
{
	if (a->elf_machine == EM_AARCH64) {
		/* arm64's booting.txt: the magic, little-endian, at 56 */
		*why = "no \"ARM\\x64\" at 0x38";
		return n >= 0x3c && !memcmp(head + 0x38, "ARM\x64", 4);
	}
	/* x86's boot protocol: the setup header's signature */
	*why = "no \"HdrS\" at 0x202";
	return n >= 0x206 && !memcmp(head + 0x202, "HdrS", 4);
}
