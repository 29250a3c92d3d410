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

int main(void)
{
	TEST_NAME("test-facts");
	RUN(test_shell_quote);
	RUN(test_config);
	RUN(test_indent_block);
	return test_done();
}
