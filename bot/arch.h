/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch.h - the architectures whose kernels sched-bot builds, boots and
 * measures: one entry each, and the only place that names one.  A
 * build, a target and the programs shipped to it take their words from
 * here (the kernel's ARCH and image, the cross compiler, QEMU's binary,
 * machine and console, the ELF machine of vmlinux and of the target
 * programs), so that nothing else in the code says "x86".
 */
#ifndef ARCH_H
#define ARCH_H

#include <stddef.h>

struct arch {
	const char *name;	/* target.NAME.arch: "x86_64", "arm64" */
	const char *machine;	/* what `uname -m` says on it */
	const char *karch;	/* the kernel's ARCH= */
	const char *cross;	/* CROSS_COMPILE= from another host */
	const char *image;	/* the make target of the kernel image */
	const char *image_path;	/* that image, relative to O= */
	unsigned short elf_machine;	/* e_machine of its ELF files */
	const char *elf_name;	/* that machine, as readelf names it */
	const char *qemu;	/* the emulator */
	/* QEMU's options for the machine and CPU; NULL: its defaults */
	const char *qemu_machine, *qemu_cpu;
	const char *console;	/* the guest's serial console */
	const char *qemu_fragment;	/* kernel/configs/ file for QEMU */
	/* where its target programs are built, below the build dir */
	const char *progs_dir;
};

/* Every architecture sched-bot knows, x86_64 first (the default). */
extern const struct arch arch_table[];
extern const size_t arch_table_nr;

/*
 * The entry of name: its own name or what uname -m says ("aarch64"
 * is arm64); NULL for one sched-bot does not know.
 */
const struct arch *arch_find(const char *name);
/* The architecture of the machine the bot runs on; NULL if unknown. */
const struct arch *arch_host(void);
/* The CROSS_COMPILE= prefix for a build on this host: "" if native. */
const char *arch_cross(const struct arch *a);
/*
 * Whether the first n bytes of a file are a kernel image of a's kind
 * (x86's bzImage: "HdrS" at 0x202; arm64's Image: "ARM\x64" at 0x38).
 * 1 yes, 0 no, with *why saying what was looked for.
 */
int arch_image_ok(const struct arch *a, const unsigned char *head,
		  size_t n, const char **why);
/* The bytes arch_image_ok reads. */
#define ARCH_IMAGE_HEAD 0x206

#endif
