// SPDX-License-Identifier: GPL-2.0
/*
 * test-build.c - config merging and checking, and compiler-error
 * extraction from build logs.
 */
#include <stdlib.h>
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

	CHECK_INT(build_first_errors(log, strlen(log), 10, NULL, &sb), 2);
	CHECK_STR(sb.buf, "kernel/sched/fair.c:123:9: error: 'x' undeclared\n"
		  "kernel/sched/fair.c:130:1: error: expected ';'\n");
	strbuf_reset(&sb);
	CHECK_INT(build_first_errors(log, strlen(log), 1, NULL, &sb), 1);
	strbuf_reset(&sb);
	/* No diagnostic: nothing of the log, which the build wrote. */
	CHECK_INT(build_first_errors("a\nb\nkilled\n", 11, 10, NULL, &sb), 0);
	CHECK_STR(sb.buf, "");
	strbuf_reset(&sb);
	CHECK_INT(build_first_errors("ld: vmlinux.o: undefined reference to "
				     "`bar'\n", 45, 10, NULL, &sb), 1);
	CHECK_STR(sb.buf, "ld: undefined reference to `bar'\n");
	strbuf_release(&sb);
}

/* What a hostile build prints must not pass as a diagnostic. */
static void test_errors_hostile(void)
{
	char dir[] = "/tmp/test-build.XXXXXX";
	struct strbuf sb = STRBUF_INIT, log = STRBUF_INIT;
	char *f;

	CHECK(mkdtemp(dir) != NULL);
	f = xasprintf("%s/kernel", dir);
	mkdir_p(f, 0755);
	free(f);
	f = xasprintf("%s/kernel/fair.c", dir);
	CHECK_INT(write_file_atomic(f, "x\n", 2), 0);
	strbuf_addf(&log,
		    "/root/.ssh/id_rsa:1:1: error: -----BEGIN KEY\n"
		    "../../etc/passwd:1:1: error: root:x:0:0\n"
		    "kernel/./fair.c:1:1: error: dot\n"
		    "kernel/nothere.c:1:1: error: no such file\n"
		    "SMTP_PASSWORD=hunter2\n"
		    "%s/kernel/fair.c:7:3: error: \033[2Jcleared "
		    "\xe2\x80\x98x\xe2\x80\x99\n"
		    "../src/kernel/fair.c:9: fatal error: %0300d\n",
		    dir, 0);
	CHECK_INT(build_first_errors(log.buf, log.len, 10, dir, &sb), 2);
	CHECK(!strstr(sb.buf, "id_rsa") && !strstr(sb.buf, "passwd") &&
	      !strstr(sb.buf, "hunter2") && !strstr(sb.buf, "nothere") &&
	      !strchr(sb.buf, '\033'));
	CHECK(!strncmp(sb.buf, "kernel/fair.c:7:3: error: ?[2Jcleared 'x'\n"
		       "kernel/fair.c:9: fatal error: 000", 67));
	CHECK(strstr(sb.buf, " [...]\n") != NULL);
	CHECK(sb.len < 300);
	/* a bounded number */
	strbuf_reset(&log);
	strbuf_reset(&sb);
	for (int i = 0; i < 100; i++)
		strbuf_addf(&log, "kernel/fair.c:%d:1: error: e\n", i + 1);
	CHECK_INT(build_first_errors(log.buf, log.len, 10, dir, &sb), 10);
	remove_tree(dir);
	free(f);
	strbuf_release(&sb);
	strbuf_release(&log);
}

/*
 * What a config changes of its base: by name, "n" for not set and for
 * absent, the last line of a name the one that counts.
 */
static void test_changes(void)
{
	struct strbuf sb = STRBUF_INIT;

	build_config_changes("CONFIG_A=y\n# CONFIG_B is not set\n"
			     "CONFIG_NR_CPUS=64\nCONFIG_S=\"x\"\n"
			     "CONFIG_GONE=y\nCONFIG_D=y\nCONFIG_D=m\n"
			     "CONFIG_SMP=y\n# a comment\n",
			     "#\n# generated\n#\nCONFIG_A=y\nCONFIG_B=y\n"
			     "CONFIG_NR_CPUS=64\nCONFIG_S=\"y z\"\n"
			     "# CONFIG_NEWN is not set\nCONFIG_NEWY=m\n"
			     "CONFIG_D=m\nCONFIG_SMP=y\nCONFIG_SMP_X=y\n",
			     &sb);
	CHECK_STR(sb.buf, "CONFIG_B: n -> y\nCONFIG_GONE: y -> n\n"
		  "CONFIG_NEWY: n -> m\nCONFIG_S: \"x\" -> \"y z\"\n"
		  "CONFIG_SMP_X: n -> y\n");
	/* the same text, or none on both sides: nothing */
	strbuf_reset(&sb);
	build_config_changes("CONFIG_A=y\n", "CONFIG_A=y\n", &sb);
	build_config_changes("", "# CONFIG_A is not set\n", &sb);
	CHECK_STR(sb.buf, "");
	strbuf_release(&sb);
}

/*
 * The same said apart: what the fragments changed (base vs merged) as
 * it is, what follows the toolchain and what olddefconfig changed
 * beside them tagged; the toolchain's options by name.
 */
static void test_changes_by(void)
{
	static const char base[] =
		"CONFIG_CC_VERSION_TEXT=\"gcc 12\"\nCONFIG_GCC_VERSION=120200\n"
		"CONFIG_AS_AVX512=y\nCONFIG_NR_CPUS=64\n"
		"# CONFIG_SCHEDSTATS is not set\n# CONFIG_IKCONFIG is not set\n";
	static const char merged[] =
		"CONFIG_CC_VERSION_TEXT=\"gcc 12\"\nCONFIG_GCC_VERSION=120200\n"
		"CONFIG_AS_AVX512=y\nCONFIG_NR_CPUS=64\n"
		"CONFIG_SCHEDSTATS=y\nCONFIG_IKCONFIG=y\nCONFIG_NR_CPUS=64\n";
	static const char final[] =
		"CONFIG_CC_VERSION_TEXT=\"gcc 13\"\nCONFIG_GCC_VERSION=130200\n"
		"CONFIG_NR_CPUS=64\nCONFIG_SCHEDSTATS=y\nCONFIG_SCHED_INFO=y\n"
		"CONFIG_IKCONFIG=y\n";
	struct strbuf sb = STRBUF_INIT;

	build_config_changes_by(base, merged, final, &sb);
	CHECK_STR(sb.buf,
		  "CONFIG_AS_AVX512: y -> n (toolchain)\n"
		  "CONFIG_CC_VERSION_TEXT: \"gcc 12\" -> \"gcc 13\" (toolchain)\n"
		  "CONFIG_GCC_VERSION: 120200 -> 130200 (toolchain)\n"
		  "CONFIG_IKCONFIG: n -> y\n"
		  "CONFIG_SCHEDSTATS: n -> y\n"
		  "CONFIG_SCHED_INFO: n -> y (olddefconfig)\n");
	strbuf_release(&sb);
	CHECK(build_config_follows_toolchain("CONFIG_PAHOLE_VERSION", 21));
	CHECK(build_config_follows_toolchain("CC_HAS_IBT", 10));
	CHECK(build_config_follows_toolchain("LD_ORPHAN_WARN", 14));
	CHECK(!build_config_follows_toolchain("CONFIG_LD_DEAD_CODE_DATA_ELIMINATION", 36));
	CHECK(!build_config_follows_toolchain("CONFIG_SCHEDSTATS", 17));
	CHECK(!build_config_follows_toolchain("CONFIG_CC_OPTIMIZE_FOR_SIZE", 27));
}

int main(void)
{
	RUN(test_merge);
	RUN(test_check);
	RUN(test_changes);
	RUN(test_changes_by);
	RUN(test_errors);
	RUN(test_errors_hostile);
	return test_done();
}
