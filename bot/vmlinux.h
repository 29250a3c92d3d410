/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmlinux.h - what of a built kernel runs: a digest of the code and
 * data of its vmlinux, so that a series changing only comments or
 * documentation is known to change nothing before a single boot.
 *
 * The digest covers the contents of the sections .text, .rodata and
 * .data (SHT_PROGBITS, in that order, each with its name and size), not
 * the notes (the build id), symbol tables or debug information.  The
 * bytes of the symbols that carry the build's own identity
 * (linux_banner, linux_proc_banner, init_uts_ns: the "#N" build count
 * of the O= directory, the timestamp) count as zeroes, so two builds
 * of the same code in turn in one directory digest alike.
 */
#ifndef SCHED_BOT_VMLINUX_H
#define SCHED_BOT_VMLINUX_H

/*
 * The digest of the ELF file path as 40 hex digits (SHA-1), or NULL
 * after printing why (not ELF, no .text).  Caller frees.
 */
char *vmlinux_digest(const char *path);

#endif
