// SPDX-License-Identifier: GPL-2.0
/*
 * test-machsize.c - the size of a machine a sentence states: the
 * reporters' words and the maintainer's kernel words from the seeds'
 * threads, the counts that are no size, bounds and hostile bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "machsize.h"
#include "test.h"

static int parse(const char *s, struct machsize *m)
{
	return machsize_parse(s, strlen(s), m);
}

/* Seed 001's commit message, seed 000's report: one line each. */
static void test_reporters_words(void)
{
	struct machsize m;

	CHECK_INT(parse("autogroup\") on a m6g.xlarge AWS EC2 instance with 4 vCPUs and 16 GiB RAM", &m), 1);
	CHECK_INT(m.cpus, 4);
	CHECK_INT(m.mem_mb, 16384);
	CHECK_STR(m.mem_word, "16G");
	CHECK_INT(parse("I used m6g.xlarge AWS EC2 Instance with 4 vCPUs and 16 GiB RAM for ARM64 and m6a.xlarge with also 4 vCPUs and 16 GiB RAM for x86_64.", &m), 1);
	CHECK_INT(m.cpus, 4);
	CHECK_INT(m.mem_mb, 16384);
	/* the words: the memory right after the CPUs, no "RAM" */
	CHECK_INT(parse("4 vCPUs and 16 GiB", &m), 1);
	CHECK_INT(m.mem_mb, 16384);
	CHECK_INT(parse("4 CPUs, 16GB", &m), 1);
	CHECK_INT(m.mem_mb, 16384);
}

/* The maintainer's cut of a larger box, across the mail's line break. */
static void test_kernel_words(void)
{
	struct machsize m;

	CHECK_INT(parse("'./Run -c 4 spawn' on AWS instance (m7gd.16xlarge) with v6.13, 'mem=16G\nmaxcpus=4 nr_cpus=4' and Ubuntu '22.04.5 LTS':", &m), 1);
	CHECK_INT(m.cpus, 4);
	CHECK_INT(m.mem_mb, 16384);
	CHECK_STR(m.mem_word, "16G");
	/* the smaller of the two; a kernel word needs no machine word */
	CHECK_INT(parse("booted with maxcpus=8 nr_cpus=4", &m), 1);
	CHECK_INT(m.cpus, 4);
	CHECK_INT(m.mem_mb, 0);
	CHECK_STR(m.mem_word, "");
	/* kernel words win over prose */
	CHECK_INT(parse("a 64-CPU server booted with maxcpus=2", &m), 1);
	CHECK_INT(m.cpus, 2);
	CHECK_INT(parse("mem=512M nr_cpus=2", &m), 1);
	CHECK_INT(m.mem_mb, 512);
	CHECK_STR(m.mem_word, "512M");
	CHECK_INT(parse("mem=2097152k nr_cpus=2", &m), 1);
	CHECK_INT(m.mem_mb, 2048);
	CHECK_STR(m.mem_word, "2G");
	CHECK_INT(parse("mem=2T maxcpus=2", &m), 1);
	CHECK_INT(m.mem_mb, 2ULL << 20);
	CHECK_INT(parse("mem=17179869184 maxcpus=2", &m), 1);
	CHECK_INT(m.mem_mb, 16384);
	/* past 64 TiB, or past what 64 bits hold: no memory */
	CHECK_INT(parse("mem=1P maxcpus=2", &m), 1);
	CHECK_INT(m.mem_mb, 0);
	CHECK_INT(parse("mem=9999999999P maxcpus=2", &m), 1);
	CHECK_INT(m.mem_mb, 0);
	/* mem= in bytes below the least memory, a word inside another */
	CHECK_INT(parse("mem=16 maxcpus=1", &m), 1);
	CHECK_INT(m.mem_mb, 0);
	CHECK_INT(parse("CONFIG_NR_CPUS=8 on this server", &m), 0);
	CHECK_INT(parse("xmaxcpus=4 on the box", &m), 0);
	CHECK_INT(parse("maxcpus=4x on the box", &m), 0);
}

static void test_prose_counts(void)
{
	struct machsize m;

	CHECK_INT(parse("a 64-CPU server", &m), 1);
	CHECK_INT(m.cpus, 64);
	CHECK_INT(parse("On a machine with 112 CPUs (2 sockets)", &m), 1);
	CHECK_INT(m.cpus, 112);
	CHECK_INT(parse("My box has 8 logical CPUs and 32 GB of memory", &m), 1);
	CHECK_INT(m.cpus, 8);
	CHECK_INT(m.mem_mb, 32768);
	CHECK_INT(parse("the system: 16 cores, 32 hardware threads", &m), 1);
	CHECK_INT(m.cpus, 32);
	CHECK_INT(parse("a 16-core workstation", &m), 1);
	CHECK_INT(m.cpus, 16);
	CHECK_INT(parse("on a 4cpus vm with 8gb ram", &m), 1);
	CHECK_INT(m.cpus, 4);
	CHECK_INT(m.mem_mb, 8192);
	CHECK_INT(parse("2 TB of RAM and 448 cores on the host", &m), 1);
	CHECK_INT(m.cpus, 448);
	CHECK_INT(m.mem_mb, 2ULL << 20);
	CHECK_STR(m.mem_word, "2048G");
}

/* Counts of CPUs that say nothing of the machine measured on. */
static void test_not_a_size(void)
{
	struct machsize m;

	/* no machine and no memory in the sentence */
	CHECK_INT(parse("the regression shows with 4 CPUs busy", &m), 0);
	CHECK_INT(parse("the 8 cores of the LLC", &m), 0);
	CHECK_INT(parse("the machine spent 8 CPU cycles there", &m), 0);
	CHECK_INT(parse("on the host, 30 CPU seconds", &m), 0);
	CHECK_INT(parse("CPU 4 of the machine", &m), 0);
	CHECK_INT(parse("the machine has 0 CPUs", &m), 0);
	CHECK_INT(parse("the machine has 5000 CPUs", &m), 0);
	CHECK_INT(parse("the machine has 99999999999999 CPUs", &m), 0);
	CHECK_INT(parse("the machine has 2,048 CPUs", &m), 0);
	CHECK_INT(parse("the machine has 1.5 CPUs", &m), 0);
	CHECK_INT(parse("v6.13 CPUs on the machine", &m), 0);
	/* seed 004's platform: the CPUs of one LLC, not of the machine */
	CHECK_INT(parse("The test platform has 112 CPUs per LLC domain. The will-it-scale launches", &m), 0);
	CHECK_INT(parse("The baseline is v6.1-rc6. The test platform has 56 Cores(112 CPUs) per\nLLC domain", &m), 0);
	CHECK_INT(parse("a server of 2 sockets, 64 cores per socket, booted with maxcpus=8", &m), 1);
	CHECK_INT(m.cpus, 8);
	/* memory without CPUs: said, but no size to cut by */
	CHECK_INT(parse("the host has 64 GB RAM", &m), 0);
	CHECK_INT(m.mem_mb, 65536);
	/* a size no machine has, a decimal, a size not of memory */
	CHECK_INT(parse("a box with 4 CPUs and 1.5 GB RAM", &m), 1);
	CHECK_INT(m.mem_mb, 0);
	CHECK_INT(parse("a box with 4 CPUs and 16 MB RAM", &m), 1);
	CHECK_INT(m.mem_mb, 0);
	CHECK_INT(parse("a box with 4 CPUs, the file is 16 GB", &m), 1);
	CHECK_INT(m.mem_mb, 0);
	CHECK_INT(parse("a box with 4 CPUs and a disk of 16 GB", &m), 1);
	CHECK_INT(m.mem_mb, 0);
}

/* Bounded: only the first MACHSIZE_TEXT_MAX bytes; NULs are blanks. */
static void test_bounds(void)
{
	struct machsize m;
	size_t n = MACHSIZE_TEXT_MAX + 64;
	char *big = malloc(n + 1);
	const char nul[] = "a box\0with 4 vCPUs";

	memset(big, 'x', n);
	big[n] = '\0';
	memcpy(big + MACHSIZE_TEXT_MAX - 4, " 4 vCPUs", 8);
	CHECK_INT(machsize_parse(big, n, &m), 0);
	memcpy(big + MACHSIZE_TEXT_MAX - 20, " 4 vCPUs ", 9);
	CHECK_INT(machsize_parse(big, n, &m), 1);
	free(big);
	CHECK_INT(machsize_parse(nul, sizeof(nul) - 1, &m), 1);
	CHECK_INT(m.cpus, 4);
	CHECK_INT(machsize_parse(NULL, 12, &m), 0);
	CHECK_INT(machsize_parse("", 0, &m), 0);
	CHECK_INT(parse("9999999999999999999999 vCPUs mem=99999999999999999999G", &m), 0);
	CHECK_INT(m.mem_mb, 0);
}

static void test_hint(void)
{
	CHECK(machsize_hint("with 4 vcpus and 16 gib ram"));
	CHECK(machsize_hint("maxcpus=4 nr_cpus=4' and ubuntu"));
	CHECK(machsize_hint("a 16-core box"));
	CHECK(!machsize_hint("'mem=16g"));
	CHECK(!machsize_hint("the cpu is busy"));
	CHECK(!machsize_hint("4 threads"));
}

int main(void)
{
	RUN(test_reporters_words);
	RUN(test_kernel_words);
	RUN(test_prose_counts);
	RUN(test_not_a_size);
	RUN(test_bounds);
	RUN(test_hint);
	return test_done();
}
