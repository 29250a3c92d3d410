// SPDX-License-Identifier: GPL-2.0
/*
 * test-config.c - the key table: defaults that parse as their type,
 * keys found by name and wildcard, the getters taking their defaults
 * from it, and a key the table does not know being a bug.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "builtin/config-opts.h"
#include "config-keys.h"
#include "config.h"
#include "lore.h"
#include "outbox.h"
#include "smtp.h"
#include "target/common.h"
#include "test.h"
#include "tree.h"
#include "util.h"

static void test_defaults_parse(void)
{
	size_t i;

	CHECK(config_nr_keys > 50);
	for (i = 0; i < config_nr_keys; i++) {
		const struct config_key *k = &config_keys[i];
		char *end;

		CHECK(k->help && *k->help);
		CHECK(config_key_find(k->name) == k);
		if (k->secret)
			CHECK(!k->def);
		if (!k->def)
			continue;
		switch (k->type) {
		case CONFIG_INT:
			strtol(k->def, &end, 10);
			if (*end || end == k->def)
				printf("#   %s: '%s' is no int\n", k->name,
				       k->def);
			CHECK(!*end && end != k->def);
			break;
		case CONFIG_BOOL:
			CHECK(!strcmp(k->def, "true") ||
			      !strcmp(k->def, "false"));
			break;
		case CONFIG_NUMBER:
			strtod(k->def, &end);
			CHECK(!*end && end != k->def);
			break;
		default:
			break;
		}
	}
}

static void test_find(void)
{
	const struct config_key *k = config_key_find("target.qemu.smp");

	CHECK(k && !strcmp(k->name, "target.*.smp"));
	CHECK(config_key_find("target.a.b.smp") == k);
	CHECK(config_key_find("TARGET.x.SMP") == k);
	CHECK(!config_key_find("target.smp"));
	CHECK(config_key_find("target..smp") == k);
	CHECK(!config_key_find("lore.nosuch"));
	k = config_key_find("lore.cachemaxage");
	CHECK(k && !strcmp(k->name, "lore.cacheMaxAge"));
}

/* The defaults the code cannot see from the table without this test. */
static void test_defaults_elsewhere(void)
{
	CHECK_STR(config_get("tree.tarball"), TREE_DEBIAN_TARBALL);
	CHECK(strstr(config_get("reply.signature"), SCHED_BOT_VERSION));
}

static void test_getters(void)
{
	CHECK_STR(config_get("lore.url"), "https://lore.kernel.org");
	CHECK(!config_is_set("lore.url"));
	CHECK_INT(config_get_int("lore.retries"), 3);
	CHECK_INT(config_get_bool("smtp.send"), 0);
	CHECK_INT(config_get_bool("outbox.checkLore"), 1);
	/* no default: the code decides */
	CHECK_INT(config_get_bool("build.ccache"), -1);
	CHECK(!config_get("smtp.user"));
	CHECK_INT(config_get_int_or("target.qemu.timeout", 42), 42);
	CHECK_NEAR(config_get_number("compare.alpha"), 0.01, 1e-12);

	config_set_override("lore.connectTimeout", "2k");
	CHECK(config_is_set("lore.connectTimeout"));
	CHECK_INT(config_get_int("lore.connectTimeout"), 2048);
	config_set_override("lore.retryDelay", "soon");
	CHECK_INT(config_get_int("lore.retryDelay"), 500);
	config_set_override("lore.maxSize", "-1");
	CHECK_INT(config_get_int_range("lore.maxSize", 1, 65536), 256);
	config_set_override("compare.noisyPct", "5%");
	CHECK_NEAR(config_get_number("compare.noisyPct"), 5, 1e-12);
	config_set_override("target.box.timeout", "9");
	CHECK_INT(config_get_int_or("target.box.timeout", 42), 9);
	CHECK_INT(config_get_int_or("target.qemu.timeout", 42), 42);
}

static int collect(const char *value, void *data)
{
	strbuf_addf(data, "[%s]", value);
	return 0;
}

static void test_multi(void)
{
	struct strbuf sb = STRBUF_INIT;

	config_get_all("cron.query", collect, &sb);
	CHECK_STR(sb.buf, "[dfn:kernel/sched/ AND s:PATCH AND rt:<since>..]");
	strbuf_reset(&sb);
	config_get_all("bot.allow", collect, &sb);
	CHECK_STR(sb.buf, "");
	config_set_override("cron.commandQuery", "q");
	strbuf_reset(&sb);
	config_get_all("cron.commandQuery", collect, &sb);
	CHECK_STR(sb.buf, "[q]");
	strbuf_release(&sb);
}

static void test_identity(void)
{
	CHECK_STR(bot_identity()->name, "sched-bot");
	CHECK_STR(bot_identity()->email, "sched-bot@localhost");
	config_set_override("bot.email", "bot@example.org");
	CHECK_STR(bot_identity()->email, "bot@example.org");
}

/* The options structs are filled from the table and the file. */
static void test_opts(void)
{
	struct lore_opts lo;
	struct smtp_opts so;
	struct outbox_opts oo;
	struct build_defaults bd;

	config_set_override("lore.retries", "7");
	lore_opts_from_config(&lo);
	CHECK_INT(lo.retries, 7);
	CHECK_INT(lo.cache_max_age, 600);
	CHECK_INT(lo.max_size, 256);
	CHECK_INT(lo.connect_timeout, 2048);
	CHECK(!lo.cainfo);
	smtp_opts_from_config(&so);
	CHECK_STR(so.url, "smtp://127.0.0.1:25");
	CHECK_INT(so.timeout, 60);
	CHECK(!so.from && !so.tls && !so.password);
	outbox_opts_from_config(&oo);
	CHECK_INT(oo.max_per_hour, 20);
	CHECK_INT(oo.max_per_day, 100);
	CHECK_INT(oo.max_per_thread, 3);
	CHECK_INT(oo.check_lore, 1);
	build_defaults_from_config(&bd);
	CHECK_STR(bd.cc, "gcc");
	CHECK_STR(bd.base_config, "tinyconfig");
	CHECK_INT(bd.jobs, 2);
	CHECK_INT(bd.ccache, -1);
	CHECK(!bd.cache_dir && !bd.fragment_dir);
}

/* Whether fn, run in a child, aborts (a BUG). */
static int aborts(void (*fn)(void))
{
	int status, null;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void unknown_key(void)
{
	config_get("lore.nosuchKey");
}

static void wrong_type(void)
{
	config_get_int("lore.url");
}

static void unknown_target_key(void)
{
	target_cfg("qemu", "nosuch", NULL);
}

static void wrong_target_default(void)
{
	target_cfg_int("qemu", "smp", 3);
}

static void default_for_tabled_key(void)
{
	config_get_int_or("lore.retries", 4);
}

static void right_target_default(void)
{
	target_cfg_int("qemu", "smp", 2);
	target_cfg("box", "port", "22");
	target_cfg("box", "host", NULL);
	target_cfg_int("box", "timeout", 600);
}

static void test_bugs(void)
{
	CHECK(aborts(unknown_key));
	CHECK(aborts(wrong_type));
	CHECK(aborts(unknown_target_key));
	CHECK(aborts(wrong_target_default));
	CHECK(aborts(default_for_tabled_key));
	CHECK(!aborts(right_target_default));
}

int main(void)
{
	TEST_NAME("test-config");
	RUN(test_defaults_parse);
	RUN(test_find);
	RUN(test_defaults_elsewhere);
	RUN(test_getters);
	RUN(test_multi);
	RUN(test_identity);
	RUN(test_opts);
	RUN(test_bugs);
	config_free();
	return test_done();
}
