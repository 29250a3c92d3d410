// SPDX-License-Identifier: GPL-2.0
/*
 * test-build.c - config merging and checking, and compiler-error
 * extraction from build logs.
 */
#include <string.h>

#include "build.h"
#include "test.h"
#include "util.h"

static void test_merge(void)
{
	struct strbuf cfg = STRBUF_INIT;

	strbuf_addstr(&cfg, "CONFIG_A=y\n# CONFIG_SMP is not set\n"
		      "CONFIG_NR_CPUS=1\nCONFIG_SMP_X=y\n");
	build_merge_config(&cfg, "# comment\nCONFIG_SMP=y\nCONFIG_NR_CPUS=8\n"
			   "# CONFIG_A is not set\nCONFIG_NEW=\"x y\"\n\n");
	CHECK_STR(cfg.buf, "CONFIG_SMP_X=y\nCONFIG_SMP=y\nCONFIG_NR_CPUS=8\n"
		  "# CONFIG_A is not set\nCONFIG_NEW=\"x y\"\n");
	strbuf_release(&cfg);
}

static void test_check(void)
{
	const char *cfg = "CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n"
			  "# CONFIG_SLOB is not set\n";

	CHECK_INT(build_check_config(cfg, "CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n",
				     "f"), 0);
	CHECK_INT(build_check_config(cfg, "# CONFIG_SLOB is not set\n"
				     "# CONFIG_GONE is not set\n", "f"), 0);
	/* Dropped by olddefconfig, or a different value: an error. */
	CHECK_INT(build_check_config(cfg, "CONFIG_PCI=y\n", "f"), -1);
	CHECK_INT(build_check_config(cfg, "CONFIG_NR_CPUS=4\n", "f"), -1);
	CHECK_INT(build_check_config(cfg, "# CONFIG_SMP is not set\n", "f"),
		  -1);
	/* A prefix of another option's name is not that option. */
	CHECK_INT(build_check_config(cfg, "CONFIG_SM=y\n", "f"), -1);
}

static void test_errors(void)
{
	const char log[] =
		"  CC      kernel/sched/core.o\n"
		"kernel/sched/fair.c: In function 'foo':\n"
		"kernel/sched/fair.c:123:9: error: 'x' undeclared\n"
		"kernel/sched/fair.c:124:2: warning: unused\n"
		"make[3]: *** [scripts/Makefile.build:250: kernel/sched/fair.o] "
		"Error 1\n"
		"kernel/sched/fair.c:130:1: error: expected ';'\n";
	struct strbuf sb = STRBUF_INIT;

	CHECK_INT(build_first_errors(log, strlen(log), 10, &sb), 2);
	CHECK_STR(sb.buf, "kernel/sched/fair.c:123:9: error: 'x' undeclared\n"
		  "kernel/sched/fair.c:130:1: error: expected ';'\n");
	strbuf_reset(&sb);
	CHECK_INT(build_first_errors(log, strlen(log), 1, &sb), 1);
	strbuf_reset(&sb);
	CHECK_INT(build_first_errors("a\nb\nkilled\n", 11, 10, &sb), 0);
	CHECK_STR(sb.buf, "a\nb\nkilled\n");
	strbuf_reset(&sb);
	CHECK_INT(build_first_errors("ld: vmlinux.o: undefined reference to "
				     "`bar'\n", 45, 10, &sb), 1);
	strbuf_release(&sb);
}

int main(void)
{
	RUN(test_merge);
	RUN(test_check);
	RUN(test_errors);
	return test_done();
}
