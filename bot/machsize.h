/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machsize.h - the size of the machine a sentence of a thread says it
 * measured on: its CPUs and its memory, as a reporter writes them
 * ("a m6g.xlarge AWS EC2 instance with 4 vCPUs and 16 GiB RAM") or as
 * the kernel's command line cut a larger box to them ("mem=16G
 * maxcpus=4 nr_cpus=4"), so that a target can be cut down to the
 * reporter's machine (plan.h, target.NAME.matchReporter).
 *
 * What counts, case aside (N a whole number, no sign, no decimals):
 *
 *   CPUs     maxcpus=N, nr_cpus=N (the smaller, when both); else the
 *            first "N vCPUs", "N CPUs", "N-CPU", "N logical CPUs"
 *            ("virtual", "online", "physical", "hardware" too), else
 *            the first "N cores" ("N-core").  A bare CPU or core count
 *            counts only in a sentence about a machine (machine, box,
 *            server, system, instance, VM, guest, host, board, laptop,
 *            desktop, workstation, platform) or one that states its
 *            memory; a vCPU count or a kernel word always does.
 *            "N CPU cycles" (time, usage, load, hours, seconds) is no
 *            size, and a sentence that counts a part ("112 CPUs per LLC
 *            domain": per LLC, socket, node, die, cluster, domain, core)
 *            states no machine's CPUs but by kernel words.
 *            1 <= N <= MACHSIZE_CPUS_MAX.
 *   memory   mem=N[KMGT] (bytes without a suffix); else "N GiB RAM",
 *            "N GB of memory" (GiB GB G MiB MB M TiB TB T; RAM, memory,
 *            mem, DRAM), or a size right after the CPU count with at
 *            most "and", "with" or "plus" and punctuation between ("4
 *            vCPUs and 16 GiB").  GB is read as GiB, as machines are
 *            sold.  Between MACHSIZE_MEM_MIN_MB and MACHSIZE_MEM_MAX_MB.
 *
 * Only the first MACHSIZE_TEXT_MAX bytes are read, in one pass: any
 * text is parsed in bounded time and memory, nothing allocated.
 */
#ifndef SCHED_BOT_MACHSIZE_H
#define SCHED_BOT_MACHSIZE_H

#include <stddef.h>

#define MACHSIZE_TEXT_MAX 2048
#define MACHSIZE_CPUS_MAX 4096
#define MACHSIZE_MEM_MIN_MB 64ULL
#define MACHSIZE_MEM_MAX_MB (64ULL << 20)	/* 64 TiB */

struct machsize {
	int cpus;			/* 0: no CPU count stated */
	unsigned long long mem_mb;	/* 0: no memory stated */
	/* the memory as mem= takes it: "16G", "512M"; "" with none */
	char mem_word[24];
};

/*
 * The size text states into m: 1 when it states the CPUs (the memory
 * may be stated or not), 0 when it does not (m->cpus 0; a memory
 * stated without CPUs is still filled in).
 */
int machsize_parse(const char *text, size_t len, struct machsize *m);

/*
 * A cheap test of a line (lowercase) before it is parsed: 1 when it
 * could state CPUs (a digit and "cpu" or "core").
 */
int machsize_hint(const char *lc);

#endif
