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

/*
 * The digest of the ELF file path as 40 hex digits (SHA-1), or NULL
 * after printing why (not ELF, no .text).  Caller frees.
 */
char *vmlinux_digest(const char *path);
/*
 * The same of an open fd (left open), named name in errors: how the
 * build reads the vmlinux an untrusted make linked (slotfile.h).
 */
char *vmlinux_digest_fd(int fd, const char *name);

#endif
