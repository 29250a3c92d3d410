// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - git-config files through libgit2's config API, with the
 * defaults of config-keys.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <git2.h>

#include "config-keys.h"
#include "config.h"
#include "util.h"

static git_config *cfg;
static char *cfg_path;

static void warn_unknown_keys(void);
static int nr_unknown;		/* keys the file sets that the table lacks */

struct override {
	char *key;
	char *value;
};
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
		return error("cannot read config %s: %s", cfg_path,
			     git_error_text());
	}
	warn_unknown_keys();
	return 0;
}

void config_free(void)
{
	size_t i;

	if (cfg)
		git_config_free(cfg);
	cfg = NULL;
	free(cfg_path);
	cfg_path = NULL;
	nr_unknown = 0;
	for (i = 0; i < nr_strings; i++)
		free(strings[i]);
	nr_strings = 0;
}

const char *config_path(void)
{
	return cfg_path;
}

void config_set_override(const char *key, const char *value)
{
	size_t i;

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

static const char *override_of(const char *key)
{
	size_t i;

	for (i = 0; i < nr_overrides; i++)
		if (!strcasecmp(overrides[i].key, key))
			return overrides[i].value;
	return NULL;
}

const char *config_get_set(const char *key)
{
	const char *o = override_of(key);
	git_buf buf = { 0 };
	const char *ret;

	if (o)
		return o;
	if (!cfg || git_config_get_string_buf(&buf, cfg, key) < 0)
		return NULL;
	ret = keep_string(xstrdup(buf.ptr));
	git_buf_dispose(&buf);
	return ret;
}

/* Code asking for a key the table does not have, or as another type. */
static void __attribute__((noreturn)) bug(const char *key, const char *why)
{
	fprintf(stderr, "BUG: config key '%s' %s\n", key, why);
	abort();
}

static const struct config_key *key_of(const char *key, int type)
{
	const struct config_key *k = config_key_find(key);

	if (!k)
		bug(key, "is not in bot/config-keys.c");
	if (type >= 0 && (int)k->type != type)
		bug(key, "is not read as its type in bot/config-keys.c");
	return k;
}

const char *config_get(const char *key)
{
	const struct config_key *k = key_of(key, -1);
	const char *v = config_get_set(key);

	return v ? v : k->def;
}

int config_is_set(const char *key)
{
	key_of(key, -1);
	return config_get_set(key) != NULL;
}

static int parse_int(const char *v, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 0);
	if (errno || end == v)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		n *= 1024;
		end++;
		break;
	case 'm': case 'M':
		n *= 1024 * 1024;
		end++;
		break;
	case 'g': case 'G':
		n *= 1024L * 1024 * 1024;
		end++;
		break;
	}
	*out = n;
	return 0;
}

int config_parse_int(const char *v, long *out)
{
	return parse_int(v, out);
}

/* The default of a typed key, which the tests check parses. */
static long default_int(const struct config_key *k)
{
	long n = 0;

	if (k->def)
		parse_int(k->def, &n);
	return n;
}

long config_get_int(const char *key)
{
	const struct config_key *k = key_of(key, CONFIG_INT);
	const char *v = config_get_set(key);
	long n;

	if (!v)
		return default_int(k);
	if (parse_int(v, &n) < 0) {
		warning("config %s = '%s' is not a number, using %ld",
			key, v, default_int(k));
		return default_int(k);
	}
	return n;
}

long config_get_int_or(const char *key, long def)
{
	const struct config_key *k = key_of(key, CONFIG_INT);
	const char *v = config_get_set(key);
	long n;

	if (k->def)
		bug(key, "has a default in bot/config-keys.c");
	if (!v)
		return def;
	if (parse_int(v, &n) < 0) {
		warning("config %s = '%s' is not a number, using %ld",
			key, v, def);
		return def;
	}
	return n;
}

long config_get_int_range(const char *key, long min, long max)
{
	long n = config_get_int(key);
	long def = default_int(config_key_find(key));

	if (n < min || n > max) {
		warning("config %s = %ld is not in %ld..%ld, using %ld", key,
			n, min, max, def);
		return def;
	}
	return n;
}

static int parse_bool(const char *v)
{
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on") || !strcmp(v, "1") || !*v)
		return 1;
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off") || !strcmp(v, "0"))
		return 0;
	return -1;
}

int config_get_bool(const char *key)
{
	const struct config_key *k = key_of(key, CONFIG_BOOL);
	const char *v = config_get_set(key);
	int def = k->def ? parse_bool(k->def) : -1;
	int b;

	if (!v)
		return def;
	b = parse_bool(v);
	if (b < 0) {
		warning("config %s = '%s' is not a boolean, using %s", key, v,
			k->def ? k->def : "the default");
		return def;
	}
	return b;
}

static int parse_number(const char *v, double *out)
{
	char *end;
	double d;

	d = strtod(v, &end);
	while (*end == ' ' || *end == '%')
		end++;
	if (end == v || *end || !isfinite(d) || d < 0)
		return -1;
	*out = d;
	return 0;
}

double config_get_number(const char *key)
{
	const struct config_key *k = key_of(key, CONFIG_NUMBER);
	const char *v = config_get_set(key);
	double d, def = 0;

	if (k->def)
		parse_number(k->def, &def);
	if (!v)
		return def;
	if (parse_number(v, &d) < 0) {
		warning("config %s = '%s' is not a number, using %g", key, v,
			def);
		return def;
	}
	return d;
}

int config_get_all(const char *key,
		   int (*fn)(const char *value, void *data), void *data)
{
	const struct config_key *k = key_of(key, CONFIG_MULTI);
	const char *o = override_of(key);
	git_config_iterator *it;
	git_config_entry *e;
	int ret = 0, seen = 0;

	if (o)
		return fn(o, data);
	if (cfg && !git_config_multivar_iterator_new(&it, cfg, key, NULL)) {
		while (!ret && !git_config_next(&e, it)) {
			seen = 1;
			ret = fn(e->value, data);
		}
		git_config_iterator_free(it);
	}
	if (!seen && k->def)
		ret = fn(k->def, data);
	return ret;
}

const struct bot_identity *bot_identity(void)
{
	static struct bot_identity id;

	id.name = config_get("bot.name");
	id.email = config_get("bot.email");
	return &id;
}

/* ---- listing ---- */

static int is_secret(const char *key)
{
	const struct config_key *k = config_key_find(key);

	if (k)
		return k->secret;
	/* a key we do not know: judge by its name */
	return strcasestr(key, "password") || strcasestr(key, "token") ||
	       strcasestr(key, "secret");
}

/*
 * A value as it may be shown: a secret key's whole value hidden, and
 * the "user:password@" of any URL (lore.url may carry one); the
 * password may hold an '@', so the last one before the path counts.
 */
static void add_masked(struct strbuf *sb, const char *key, const char *value)
{
	const char *scheme, *auth, *at;
	size_t len;

	if (is_secret(key)) {
		strbuf_addstr(sb, "<hidden>");
		return;
	}
	scheme = strstr(value, "://");
	if (scheme) {
		auth = scheme + 3;
		len = strcspn(auth, "/?#");
		at = memrchr(auth, '@', len);
		if (at) {
			strbuf_add(sb, value, (size_t)(auth - value));
			strbuf_addstr(sb, "<hidden>");
			strbuf_addstr(sb, at);
			return;
		}
	}
	strbuf_addstr(sb, value);
}

static void print_entry(const char *key, const char *value,
			const char *source)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, key);
	if (value) {
		strbuf_addch(&sb, '=');
		add_masked(&sb, key, value);
	}
	if (source)
		strbuf_addf(&sb, "\t%s", source);
	puts(sb.buf);
	strbuf_release(&sb);
}

static char *display_name(const struct config_key *k, const char *key);

/* One key set, as the table spells it (git gives it lower case). */
static void print_set(const char *key, const char *value)
{
	char *name = display_name(config_key_find(key), key);

	print_entry(name, value, NULL);
	free(name);
}

int config_list(void)
{
	git_config_iterator *it;
	git_config_entry *e;
	size_t i;

	for (i = 0; i < nr_overrides; i++)
		print_set(overrides[i].key, overrides[i].value);
	if (!cfg)
		return 0;
	if (git_config_iterator_new(&it, cfg) < 0)
		return error("cannot list config %s", cfg_path);
	while (!git_config_next(&e, it))
		print_set(e->name, e->value);
	git_config_iterator_free(it);
	return 0;
}

/* "file" or "file (default: 3)" */
static char *source_of(const char *where, const struct config_key *k)
{
	if (!k)
		return xasprintf("%s (unknown key)", where);
	if (!k->def)
		return xstrdup(where);
	return xasprintf("%s (default: %s)", where, k->def);
}

/* key as the table spells it: "lore.cacheMaxAge", "target.qemu.smp" */
static char *display_name(const struct config_key *k, const char *key)
{
	const char *star;
	size_t pre, suf, len = strlen(key);

	if (!k)
		return xstrdup(key);
	star = strstr(k->name, ".*.");
	if (!star)
		return xstrdup(k->name);
	pre = (size_t)(star - k->name) + 1;
	suf = strlen(star + 2);
	return xasprintf("%.*s%.*s%s", (int)pre, k->name,
			 (int)(len - pre - suf), key + pre, star + 2);
}

/* Every value set for entries matching k (NULL: matching no entry). */
static int list_set(const struct config_key *k)
{
	git_config_iterator *it;
	git_config_entry *e;
	size_t i;
	int n = 0;
	char *name, *src;

	for (i = 0; i < nr_overrides; i++) {
		const struct config_key *o = config_key_find(overrides[i].key);

		if (o != k)
			continue;
		name = display_name(k, overrides[i].key);
		src = source_of("override", k);
		print_entry(name, overrides[i].value, src);
		free(name);
		free(src);
		n++;
	}
	if (!cfg || git_config_iterator_new(&it, cfg) < 0)
		return n;
	while (!git_config_next(&e, it)) {
		if (config_key_find(e->name) != k ||
		    (k && override_of(e->name)))
			continue;
		name = display_name(k, e->name);
		src = source_of("file", k);
		print_entry(name, e->value, src);
		free(name);
		free(src);
		n++;
	}
	git_config_iterator_free(it);
	return n;
}

int config_list_all(void)
{
	size_t i;

	for (i = 0; i < config_nr_keys; i++) {
		const struct config_key *k = &config_keys[i];
		int wild = strstr(k->name, ".*.") != NULL;

		/* a key set shows where; target.*.x shows its default too */
		if (list_set(k) && !wild)
			continue;
		if (k->def)
			print_entry(k->name, k->def, "default");
		else
			print_entry(k->name, NULL, "unset");
	}
	list_set(NULL);
	return 0;
}

void config_list_keys(void)
{
	size_t i;

	for (i = 0; i < config_nr_keys; i++) {
		const struct config_key *k = &config_keys[i];

		printf("%s (%s%s%s%s)\n    %s\n", k->name,
		       config_type_name(k->type), k->def ? ", default " : "",
		       k->def ? k->def : "", k->secret ? ", secret" : "",
		       k->help);
	}
}

/* The names of [section "NAME"] blocks, each once, file order first. */
static int seen_name(char **names, size_t nr, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return 1;
	return 0;
}

static void add_subsection(char ***names, size_t *nr, size_t *alloc,
			   const char *key, const char *section)
{
	size_t slen = strlen(section);
	const char *name, *dot;

	if (strncasecmp(key, section, slen) || key[slen] != '.')
		return;
	name = key + slen + 1;
	dot = strrchr(name, '.');
	if (!dot || dot == name || seen_name(*names, *nr, name, dot - name))
		return;
	ALLOC_GROW(*names, *nr, *alloc);
	(*names)[(*nr)++] = xstrndup(name, dot - name);
}

int config_subsections(const char *section,
		       int (*fn)(const char *name, void *data), void *data)
{
	git_config_iterator *it;
	git_config_entry *e;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	if (cfg && !git_config_iterator_new(&it, cfg)) {
		while (!git_config_next(&e, it))
			add_subsection(&names, &nr, &alloc, e->name, section);
		git_config_iterator_free(it);
	}
	for (i = 0; i < nr_overrides; i++)
		add_subsection(&names, &nr, &alloc, overrides[i].key, section);
	for (i = 0; i < nr; i++) {
		if (!ret)
			ret = fn(names[i], data);
		free(names[i]);
	}
	free(names);
	return ret;
}

int config_parse_bool(const char *v)
{
	return parse_bool(v);
}

int config_parse_number(const char *v, double *out)
{
	return parse_number(v, out);
}

/* ---- keys the table does not know, values that are not their type ---- */

/* git's levenshtein() with unit costs, ignoring case: keys are short. */
static size_t key_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, d;

	row = xcalloc(lb + 1, sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best;

			best = diag + (tolower((unsigned char)a[i - 1]) !=
				       tolower((unsigned char)b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/*
 * The table's key nearest to an unknown one, spelt as the user would
 * write it: target.box.smpp gives "target.box.smp" (the subsection is
 * the user's, not part of the distance), bot.moderaton
 * "bot.moderation".  *dist is how many letters differ.
 */
static char *nearest_key(const char *key, size_t *dist)
{
	const char *first = strchr(key, '.'), *last = strrchr(key, '.');
	const char *star;
	const struct config_key *best = NULL;
	size_t i, d, best_d = (size_t)-1;
	char *flat = NULL;

	/* "section.name" of a "section.sub.name" key, for the wild keys */
	if (first && last != first)
		flat = xasprintf("%.*s%s", (int)(first - key), key, last);
	for (i = 0; i < config_nr_keys; i++) {
		const char *name = config_keys[i].name;
		const char *wild = strstr(name, ".*.");

		if (wild && flat) {
			char *kflat = xasprintf("%.*s%s", (int)(wild - name),
						name, wild + 2);

			d = key_distance(flat, kflat);
			free(kflat);
		} else {
			d = key_distance(key, name);
		}
		if (d < best_d) {
			best_d = d;
			best = &config_keys[i];
		}
	}
	free(flat);
	*dist = best_d;
	if (!best)
		return NULL;
	star = strstr(best->name, ".*.");
	if (star && first && last != first)
		return xasprintf("%.*s%.*s%s", (int)(star - best->name) + 1,
				 best->name, (int)(last - first - 1), first + 1,
				 star + 2);
	return xstrdup(best->name);
}

/* Each key the file sets that the table does not know: a warning. */
static void warn_unknown_keys(void)
{
	git_config_iterator *it;
	git_config_entry *e;

	nr_unknown = 0;
	if (!cfg || git_config_iterator_new(&it, cfg) < 0)
		return;
	while (!git_config_next(&e, it)) {
		size_t dist;
		char *near;

		if (config_key_find(e->name))
			continue;
		nr_unknown++;
		near = nearest_key(e->name, &dist);
		/* a close name is a typo; a far one only a pointer */
		if (near && dist <= 1 + strlen(e->name) / 4)
			warning("config %s: unknown key '%s' is ignored; did you mean '%s'?",
				cfg_path, e->name, near);
		else if (near)
			warning("config %s: unknown key '%s' is ignored (the nearest known key is '%s'; 'sched-bot config --keys' lists them)",
				cfg_path, e->name, near);
		free(near);
	}
	git_config_iterator_free(it);
}

int config_nr_unknown(void)
{
	return nr_unknown;
}

/* Whether v reads as a value of k's type, as the getters read it. */
static const char *bad_value(const struct config_key *k, const char *v)
{
	long n;
	double d;

	switch (k->type) {
	case CONFIG_INT:
		return parse_int(v, &n) < 0 ? "a whole number" : NULL;
	case CONFIG_BOOL:
		return parse_bool(v) < 0 ? "a boolean (true or false)" : NULL;
	case CONFIG_NUMBER:
		return parse_number(v, &d) < 0 ?
		       "a non-negative number" : NULL;
	default:
		return NULL;
	}
}

int config_check_values(void)
{
	git_config_iterator *it;
	git_config_entry *e;
	int bad = 0;

	if (!cfg || git_config_iterator_new(&it, cfg) < 0)
		return 0;
	while (!git_config_next(&e, it)) {
		const struct config_key *k = config_key_find(e->name);
		const char *want = k ? bad_value(k, e->value) : NULL;
		char *name;

		if (!want)
			continue;
		bad++;
		name = display_name(k, e->name);
		/* never the value of a secret (no secret key is typed) */
		warning("config %s: %s = '%s' is not %s", cfg_path, name,
			k->secret ? "<hidden>" : e->value, want);
		free(name);
	}
	git_config_iterator_free(it);
	return bad;
}
