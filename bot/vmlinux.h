/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmlinux.h - what of a built kernel runs: a digest of the code and
 * data of its vmlinux, so that a series changing only comments or
 * documentation is known to change nothing before a single boot.
 *
 * The digest covers every section the kernel loads (SHF_ALLOC), in the
 * file's order, each with its name and size, and the contents of those
 * that have contents: .text and .rodata, but also .init.text (an
 * __init function such as sched_init), .data..percpu, the alternatives
 * and the exception, ORC and bug tables.  Not the notes (the build id),
 * symbol tables, debug information or .comment.  The bytes of the
 * symbols that carry the build's own identity (linux_banner,
 * linux_proc_banner, init_uts_ns: the "#N" build count of the O=
 * directory, the timestamp) count as zeroes, so two builds of the same
 * code in turn in one directory digest alike.  A comment that adds or
 * removes lines does change the digest: __LINE__ is in the bug table
 * and in the WARN messages.
 */
#ifndef SCHED_BOT_VMLINUX_H
#define SCHED_BOT_VMLINUX_H

#include "util.h"

/*
 * The vmlinux is the build's file, a stranger's choice: the digest
 * reads none whose headers break these, and no more than a piece of
 * any section at once.  Refused: a section that lies outside the file
 * or shares bytes with another (each byte is read once), more than
 * VMLINUX_MAX_SECTIONS sections, a table of section names larger than
 * VMLINUX_MAX_NAMES or a symbol table larger than VMLINUX_MAX_SYMTAB
 * (a vmlinux of allyesconfig has about 40 MiB), more than
 * VMLINUX_MAX_BLANKS identity symbols (a kernel has 3).
 */
#define VMLINUX_MAX_SECTIONS	8192
#define VMLINUX_MAX_NAMES	(1 << 20)
#define VMLINUX_MAX_SYMTAB	(256 << 20)
#define VMLINUX_MAX_BLANKS	64
#define VMLINUX_PIECE		((size_t)1 << 20)

/*
 * The digest of the ELF file path as 40 hex digits (SHA-1), or NULL
 * after printing why (not ELF, no .text, refused as above).  Caller
 * frees.
 */
char *vmlinux_digest(const char *path);
/*
 * The same of an open fd (left open), named name: how the build reads
 * the vmlinux an untrusted make linked (slotfile.h).  Why there is
 * none goes to why ("NAME: sections 1 (.text) and 2 (.data) overlap in
 * the file"), or is printed when why is NULL.
 */
char *vmlinux_digest_fd(int fd, const char *name, struct strbuf *why);

#endif
