// SPDX-License-Identifier: GPL-2.0
/*
 * secret.c - the configured secrets and the filter that removes them.
 *
 * Why a filter as well as care at each print: a secret reaches text by
 * routes nobody planned (a URL in a libcurl error, a config line echoed
 * by a failing command, a value a build printed), and the filter at the
 * few exits (logs, excerpts, mail) catches them all.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "secret.h"

static char **added;		/* secret_add()ed */
static size_t nr_added, alloc_added;
static char **known;		/* added + the config's, longest first */
static size_t nr_known, alloc_known;
static unsigned known_gen;
static char *known_env;		/* the variable's value when loaded */
static int loaded;

static int env_changed(void)
{
	const char *v = getenv(SECRET_SMTP_ENV);

	return !v != !known_env || (v && strcmp(v, known_env));
}

static void known_add(const char *v, size_t len)
{
	size_t i;

	if (len < SECRET_MIN_LEN)
		return;
	for (i = 0; i < nr_known; i++)
		if (strlen(known[i]) == len && !memcmp(known[i], v, len))
			return;
	ALLOC_GROW(known, nr_known, alloc_known);
	known[nr_known++] = xstrndup(v, len);
}

static int hexval(int c)
{
	if (isdigit(c))
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void add_decoded(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len &&
		    hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
			strbuf_addch(&sb, hexval(s[i + 1]) * 16 +
				     hexval(s[i + 2]));
			i += 2;
		} else {
			strbuf_addch(&sb, s[i]);
		}
	}
	known_add(sb.buf, sb.len);
	strbuf_release(&sb);
}

/* The userinfo of scheme://user:password@host/...: both parts. */
static const char *url_userinfo(const char *url, size_t *len)
{
	const char *s = strstr(url, "://"), *end, *at;

	if (!s)
		return NULL;
	s += 3;
	end = s + strcspn(s, "/?#");
	at = memrchr(s, '@', end - s);
	if (!at)
		return NULL;
	*len = at - s;
	return s;
}

static void add_url(const char *url)
{
	const char *ui, *colon;
	size_t len;

	if (!url || !(ui = url_userinfo(url, &len)))
		return;
	known_add(ui, len);
	add_decoded(ui, len);
	colon = memchr(ui, ':', len);
	if (colon) {
		known_add(colon + 1, ui + len - colon - 1);
		add_decoded(colon + 1, ui + len - colon - 1);
	}
}

static int by_length(const void *a, const void *b)
{
	size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

static void load(void)
{
	const char *v;
	size_t i;

	if (loaded && known_gen == config_generation() && !env_changed())
		return;
	for (i = 0; i < nr_known; i++)
		free(known[i]);
	nr_known = 0;
	for (i = 0; i < nr_added; i++)
		known_add(added[i], strlen(added[i]));
	v = config_get("smtp.password");
	if (v)
		known_add(v, strlen(v));
	v = getenv(SECRET_SMTP_ENV);
	free(known_env);
	known_env = v ? xstrdup(v) : NULL;
	if (v)
		known_add(v, strlen(v));
	v = config_get("smtp.passwordFile");
	if (v && *v) {
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_file(&sb, v) >= 0) {
			/* the first line is the password (see smtp.c); the
			 * whole file too, in case it is more than that */
			known_add(sb.buf, strcspn(sb.buf, "\r\n"));
			strbuf_trim(&sb);
			known_add(sb.buf, sb.len);
		}
		strbuf_release(&sb);
	}
	add_url(config_get("lore.url"));
	add_url(config_get("smtp.url"));
	if (nr_known)
		qsort(known, nr_known, sizeof(*known), by_length);
	known_gen = config_generation();
	loaded = 1;
}

void secret_add(const char *value)
{
	ALLOC_GROW(added, nr_added, alloc_added);
	added[nr_added++] = xstrdup(value);
	loaded = 0;
}

void secret_reset(void)
{
	size_t i;

	for (i = 0; i < nr_added; i++)
		free(added[i]);
	nr_added = 0;
	for (i = 0; i < nr_known; i++)
		free(known[i]);
	nr_known = 0;
	free(known_env);
	known_env = NULL;
	loaded = 0;
}

int secret_scrub(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;
	int n = 0;

	load();
	for (i = 0; i < nr_known; i++) {
		size_t len = strlen(known[i]);
		const char *p = sb->buf, *end = sb->buf + sb->len, *hit;

		if (!memmem(p, end - p, known[i], len))
			continue;
		strbuf_reset(&out);
		while ((hit = memmem(p, end - p, known[i], len))) {
			strbuf_add(&out, p, hit - p);
			strbuf_addstr(&out, SECRET_MASK);
			p = hit + len;
			n++;
		}
		strbuf_add(&out, p, end - p);
		strbuf_reset(sb);
		strbuf_add(sb, out.buf, out.len);
	}
	strbuf_release(&out);
	return n;
}

int secret_contains(const char *s)
{
	size_t i;

	load();
	for (i = 0; i < nr_known; i++)
		if (strstr(s, known[i]))
			return 1;
	return 0;
}

int secret_env_entry(const char *entry)
{
	const char *eq = strchr(entry, '=');
	size_t n = strlen(SECRET_SMTP_ENV);

	if (!strncmp(entry, SECRET_SMTP_ENV, n) &&
	    (entry[n] == '=' || !entry[n]))
		return 1;
	return eq && secret_contains(eq + 1);
}

static void log_filter(struct strbuf *line)
{
	static int busy;

	/* collecting the secrets may itself report; no recursion */
	if (busy)
		return;
	busy = 1;
	secret_scrub(line);
	busy = 0;
}

void secret_filter_logs(void)
{
	report_filter = log_filter;
}

char *secret_url_public(const char *url)
{
	const char *ui;
	size_t len;

	if (!(ui = url_userinfo(url, &len)))
		return xstrdup(url);
	return xasprintf("%.*s%s", (int)(ui - url), url, ui + len + 1);
}

int secret_write_file(const char *path, const void *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int ret, err;

	strbuf_add(&sb, data, len);
	secret_scrub(&sb);
	ret = write_file_atomic(path, sb.buf, sb.len);
	err = errno;
	strbuf_release(&sb);
	errno = err;
	return ret;
}

int secret_scrub_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0, err = 0;

	if (strbuf_read_file(&sb, path) < 0) {
		ret = errno == ENOENT ? 0 : -1;
		err = errno;
	} else if (secret_scrub(&sb)) {
		ret = write_file_atomic(path, sb.buf, sb.len);
		err = errno;
	}
	strbuf_release(&sb);
	errno = err;
	return ret;
}
