// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - git-config files through libgit2's config API.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <git2.h>

#include "config.h"
#include "util.h"

static git_config *cfg;
static char *cfg_path;

struct override {
	char *key;
	char *value;
};
static unsigned generation;
static struct override *overrides;
static size_t nr_overrides, alloc_overrides;

/* Values handed out by config_get() live until config_free(). */
static char **strings;
static size_t nr_strings, alloc_strings;

static const char *keep_string(char *s)
{
	ALLOC_GROW(strings, nr_strings, alloc_strings);
	strings[nr_strings++] = s;
	return s;
}

static char *default_path(void)
{
	const char *env = getenv("SCHED_BOT_CONFIG");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		return xstrdup(env);
	if (xdg && *xdg == '/')
		return xasprintf("%s/sched-bot/config", xdg);
	return xasprintf("%s/.config/sched-bot/config",
			 home && *home ? home : "/tmp");
}

int config_load(const char *path)
{
	int explicit = path != NULL;

	git_libgit2_init();
	config_free();
	cfg_path = path ? xstrdup(path) : default_path();
	if (access(cfg_path, F_OK) < 0) {
		if (explicit)
			return error("config file %s: %s", cfg_path,
				     strerror(errno));
		return 0;
	}
	if (git_config_open_ondisk(&cfg, cfg_path) < 0) {
		const git_error *e = git_error_last();

		return error("cannot read config %s: %s", cfg_path,
			     e ? e->message : "unknown error");
	}
	generation++;
	return 0;
}

void config_free(void)
{
	size_t i;

	generation++;
	if (cfg)
		git_config_free(cfg);
	cfg = NULL;
	free(cfg_path);
	cfg_path = NULL;
	for (i = 0; i < nr_strings; i++)
		free(strings[i]);
	nr_strings = 0;
}

unsigned config_generation(void)
{
	return generation;
}

const char *config_path(void)
{
	return cfg_path;
}

void config_set_override(const char *key, const char *value)
{
	size_t i;

	generation++;
	for (i = 0; i < nr_overrides; i++) {
		if (!strcasecmp(overrides[i].key, key)) {
			free(overrides[i].value);
			overrides[i].value = xstrdup(value);
			return;
		}
	}
	ALLOC_GROW(overrides, nr_overrides, alloc_overrides);
	overrides[nr_overrides].key = xstrdup(key);
	overrides[nr_overrides].value = xstrdup(value);
	nr_overrides++;
}

const char *config_get(const char *key, const char *def)
{
	git_buf buf = { 0 };
	size_t i;

	for (i = 0; i < nr_overrides; i++)
		if (!strcasecmp(overrides[i].key, key))
			return overrides[i].value;
	if (!cfg)
		return def;
	if (git_config_get_string_buf(&buf, cfg, key) < 0)
		return def;
	const char *ret = keep_string(xstrdup(buf.ptr));

	git_buf_dispose(&buf);
	return ret;
}

long config_get_int(const char *key, long def)
{
	const char *v = config_get(key, NULL);
	char *end;
	long n;

	if (!v)
		return def;
	errno = 0;
	n = strtol(v, &end, 0);
	if (errno || end == v) {
		warning("config %s = '%s' is not a number, using %ld",
			key, v, def);
		return def;
	}
	switch (*end) {
	case 'k': case 'K':
		n *= 1024;
		break;
	case 'm': case 'M':
		n *= 1024 * 1024;
		break;
	case 'g': case 'G':
		n *= 1024L * 1024 * 1024;
		break;
	}
	return n;
}

int config_get_bool(const char *key, int def)
{
	const char *v = config_get(key, NULL);

	if (!v)
		return def;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on") || !strcmp(v, "1") || !*v)
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off") || !strcmp(v, "0"))
		return 0;
	warning("config %s = '%s' is not a boolean, using %s", key, v,
		def ? "true" : "false");
	return def;
}

int config_get_all(const char *key,
		   int (*fn)(const char *value, void *data), void *data)
{
	git_config_iterator *it;
	git_config_entry *e;
	size_t i;
	int ret = 0;

	for (i = 0; i < nr_overrides; i++)
		if (!strcasecmp(overrides[i].key, key))
			return fn(overrides[i].value, data);
	if (!cfg)
		return 0;
	if (git_config_multivar_iterator_new(&it, cfg, key, NULL) < 0)
		return 0;
	while (!ret && !git_config_next(&e, it))
		ret = fn(e->value, data);
	git_config_iterator_free(it);
	return ret;
}

static int is_secret(const char *key)
{
	return strstr(key, "password") || strstr(key, "token") ||
	       strstr(key, "secret");
}

/*
 * Print key=value with secrets masked: whole values of secret keys, and
 * the "user:password@" part of any URL (lore.url may carry one).
 */
static void print_entry(const char *key, const char *value)
{
	const char *scheme, *at, *slash;

	if (is_secret(key)) {
		printf("%s=<hidden>\n", key);
		return;
	}
	scheme = strstr(value, "://");
	if (scheme) {
		at = strchr(scheme + 3, '@');
		slash = strchr(scheme + 3, '/');
		if (at && (!slash || at < slash)) {
			printf("%s=%.*s<hidden>%s\n", key,
			       (int)(scheme + 3 - value), value, at);
			return;
		}
	}
	printf("%s=%s\n", key, value);
}

int config_list(void)
{
	git_config_iterator *it;
	git_config_entry *e;
	size_t i;

	for (i = 0; i < nr_overrides; i++)
		print_entry(overrides[i].key, overrides[i].value);
	if (!cfg)
		return 0;
	if (git_config_iterator_new(&it, cfg) < 0)
		return error("cannot list config %s", cfg_path);
	while (!git_config_next(&e, it))
		print_entry(e->name, e->value);
	git_config_iterator_free(it);
	return 0;
}
