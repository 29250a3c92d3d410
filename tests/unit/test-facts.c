// SPDX-License-Identifier: GPL-2.0
/*
 * test-facts.c - the facts a reply states in the words it uses: shell
 * quoting of the reproduce line, the .config options named, the code
 * blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "test.h"
#include "util.h"

static void check_quote(const char *s, enum facts_quote how,
			const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	facts_shell_quote(s, how, &sb);
	CHECK_STR(sb.buf, want);
	strbuf_release(&sb);
}

static void test_shell_quote(void)
{
	check_quote("a@b.org", FACTS_QUOTE_ALWAYS, "'a@b.org'");
	check_quote("a@b.org", FACTS_QUOTE_IF_NEEDED, "a@b.org");
	check_quote("spawn,pingpong", FACTS_QUOTE_IF_NEEDED, "spawn,pingpong");
	check_quote("v6.1 rc6", FACTS_QUOTE_IF_NEEDED, "'v6.1 rc6'");
	check_quote("", FACTS_QUOTE_IF_NEEDED, "''");
	/* a hostile message-id cannot break out of its quotes */
	check_quote("x'; rm -rf ~; '", FACTS_QUOTE_IF_NEEDED,
		    "'x'\\''; rm -rf ~; '\\'''");
	check_quote("$(id)", FACTS_QUOTE_ALWAYS, "'$(id)'");
}

static void test_config(void)
{
	static const char cfg[] = "#\n# Automatically generated\n#\n"
		"CONFIG_SMP=y\nCONFIG_NR_CPUS=64\n"
		"# CONFIG_PREEMPT is not set\nCONFIG_HZ=250\n"
		"CONFIG_SCHED_AUTOGROUP=y\nCONFIG_NUMA=y\n";
	struct strbuf sb = STRBUF_INIT;

	facts_config_highlights(cfg, &sb);
	CHECK_STR(sb.buf, "CONFIG_SMP=y CONFIG_NR_CPUS=64 CONFIG_HZ=250 "
		  "CONFIG_SCHED_AUTOGROUP=y");
	strbuf_reset(&sb);
	facts_config_options(cfg, &sb);
	CHECK_STR(sb.buf, "CONFIG_SCHED_AUTOGROUP=y CONFIG_HZ=250 "
		  "CONFIG_NUMA=y CONFIG_SMP=y CONFIG_NR_CPUS=64");
	strbuf_reset(&sb);
	facts_config_highlights("", &sb);
	CHECK_STR(sb.buf, "");
	strbuf_release(&sb);
}

static void test_indent_block(void)
{
	struct strbuf sb = STRBUF_INIT;

	facts_indent_block("a\n\nb\n\n", &sb);
	CHECK_STR(sb.buf, "    a\n\n    b");
	strbuf_release(&sb);
}

static void env_from_file(const char *name, struct kv *env)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/machine/%s", getenv("DATA") ?
			       getenv("DATA") : "tests/data", name);

	CHECK(strbuf_read_file(&sb, path) > 0);
	facts_env_parse(sb.buf, env);
	strbuf_release(&sb);
	free(path);
}

/* The item's lines as one: wrapping is not what is checked. */
static void flatten(struct strbuf *sb)
{
	size_t i, o = 0;

	for (i = 0; i < sb->len; i++) {
		if (sb->buf[i] == '\n') {
			sb->buf[o++] = ' ';
			while (sb->buf[i + 1] == ' ')
				i++;
		} else {
			sb->buf[o++] = sb->buf[i];
		}
	}
	strbuf_setlen(sb, o);
}

/* The record a 2 x 2C/4T QEMU guest with 2 nodes printed. */
static void test_topology(void)
{
	struct kv env = KV_INIT;
	struct strbuf sb = STRBUF_INIT;

	env_from_file("qemu-2s-2c-2t-2nodes.env", &env);
	facts_topology(&env, &sb);
	CHECK_STR(sb.buf, "2 x 2C/4T Common KVM processor, 2 NUMA nodes, "
		  "2 LLCs of 4 CPUs, SMT on");
	strbuf_reset(&sb);
	facts_machine(&env, "box", "qemu-tcg-smp8", &sb);
	flatten(&sb);
	CHECK(strstr(sb.buf, "node 0: CPUs 0-3, 511 MB; node 1: CPUs 4-7, "));
	CHECK(strstr(sb.buf, "1 per socket (NPS1)"));
	CHECK(strstr(sb.buf, "SRAT"));
	CHECK(strstr(sb.buf, "cpufreq driver none, governor unknown, boost "
		     "unknown"));
	kv_release(&env);
	strbuf_reset(&sb);
	/* what an old record (or a hostile one) leaves out is unknown */
	facts_env_parse("env,nr_cpus,4\nenv,sockets,-3\nenv,llc_cpus,0-x\n"
			"env,smt_active,0\n", &env);
	facts_topology(&env, &sb);
	CHECK_STR(sb.buf, "4 CPUs unknown CPU, NUMA nodes unknown, SMT off");
	kv_release(&env);
	strbuf_reset(&sb);
	/* unequal LLCs are listed */
	facts_env_parse("env,sockets,1\nenv,cores_per_socket,6\n"
			"env,threads_per_core,1\nenv,cpu_model,X\n"
			"env,numa_nodes,1\nenv,llc_cpus,0-3 4-5\n", &env);
	facts_topology(&env, &sb);
	CHECK_STR(sb.buf, "1 x 6C/6T X, 1 NUMA node, 2 LLCs (CPUs 0-3 4-5), "
		  "SMT unknown");
	kv_release(&env);
	strbuf_release(&sb);
}

/*
 * The reply's config line on a machine's own config: what the bot
 * changed, by name and new value, what olddefconfig changed beside it,
 * the options that follow the compiler counted apart, bounded, and
 * nothing of a hostile build's bytes but text.  A job's list before
 * its lines were tagged: the compiler's by name.
 */
static void test_config_changes(void)
{
	static const char chg[] =
		"CONFIG_CC_VERSION_TEXT: \"gcc 12\" -> \"gcc 13\"\n"
		"CONFIG_GCC_VERSION: 120200 -> 130200\n"
		"CONFIG_IKCONFIG: n -> y\nCONFIG_IKCONFIG_PROC: n -> y\n"
		"CONFIG_SCHEDSTATS: n -> y\nCONFIG_X86_X32: y -> n\n";
	static const char tagged[] =
		"CONFIG_GCC_VERSION: 120200 -> 130200 (toolchain)\n"
		"CONFIG_IKCONFIG: n -> y\n"
		"CONFIG_NEW_IN_TREE: n -> y (olddefconfig)\n"
		"CONFIG_SCHEDSTATS: n -> y\n"
		"CONFIG_SCHED_INFO: n -> y (olddefconfig)\n";
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "the machine's own (6.1.0-18-amd64)");
	facts_config_changes(chg, 12, &sb);
	CHECK_STR(sb.buf, "the machine's own (6.1.0-18-amd64) + IKCONFIG=y, "
		  "IKCONFIG_PROC=y, SCHEDSTATS=y, X86_X32=n; toolchain: 2 "
		  "options follow the compiler (config-changes.txt)");
	strbuf_reset(&sb);
	facts_config_changes(chg, 2, &sb);
	CHECK_STR(sb.buf, " + IKCONFIG=y, IKCONFIG_PROC=y, and 2 more "
		  "(config-changes.txt); toolchain: 2 options follow the "
		  "compiler (config-changes.txt)");
	strbuf_reset(&sb);
	facts_config_changes(chg, 0, &sb);
	CHECK_STR(sb.buf, " + and 4 more (config-changes.txt); toolchain: 2 "
		  "options follow the compiler (config-changes.txt)");
	strbuf_reset(&sb);
	facts_config_changes(tagged, 12, &sb);
	CHECK_STR(sb.buf, " + IKCONFIG=y, SCHEDSTATS=y; olddefconfig: "
		  "NEW_IN_TREE=y, SCHED_INFO=y; toolchain: 1 option follows "
		  "the compiler (config-changes.txt)");
	strbuf_reset(&sb);
	facts_config_changes("CONFIG_SCHED_INFO: n -> y (olddefconfig)\n"
			     "CONFIG_GCC_VERSION: 1 -> 2 (toolchain)\n", 12, &sb);
	CHECK_STR(sb.buf, " + olddefconfig: SCHED_INFO=y; toolchain: 1 "
		  "option follows the compiler (config-changes.txt)");
	strbuf_reset(&sb);
	facts_config_changes("CONFIG_GCC_VERSION: 1 -> 2 (toolchain)\n"
			     "CONFIG_AS_VERSION: 1 -> 2 (toolchain)\n", 12, &sb);
	CHECK_STR(sb.buf, ", unchanged; toolchain: 2 options follow the "
		  "compiler (config-changes.txt)");
	strbuf_reset(&sb);
	facts_config_changes("", 12, &sb);
	CHECK_STR(sb.buf, ", unchanged");
	strbuf_reset(&sb);
	facts_config_changes("CONFIG_EVIL: n -> \"\x1b[2Jhi\"\nnot a change\n",
			     12, &sb);
	CHECK_STR(sb.buf, " + EVIL=\"?[2Jhi\"");
	strbuf_reset(&sb);
	facts_fragments("sched.config qemu.config", &sb);
	facts_fragments(NULL, &sb);
	facts_fragments(" machine.config,kexec.config ", &sb);
	CHECK_STR(sb.buf, " + sched.config + qemu.config + sched.config + "
		  "qemu.config + machine.config + kexec.config");
	strbuf_release(&sb);
}

int main(void)
{
	TEST_NAME("test-facts");
	RUN(test_shell_quote);
	RUN(test_config);
	RUN(test_config_changes);
	RUN(test_indent_block);
	RUN(test_topology);
	return test_done();
}
