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
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "secret.h"

/*
 * One form of one secret: the value as configured, reversed, or a piece
 * of its base64 encoding.  kind and form name it in a refusal, which
 * never shows the value.
 */
struct pattern {
	char *v;
	size_t len;
	const char *kind;
	const char *form;
};

static char **added;		/* secret_add()ed */
static size_t nr_added, alloc_added;
static char *taken_env;		/* secret_take_env()'s, freed never */
static struct pattern *known;	/* every form of every secret, longest first */
static size_t nr_known, alloc_known;
/* Copies of secret_configure()'s. */
static char *cfg_password, *cfg_password_file, *cfg_lore_url, *cfg_smtp_url;
static char *known_env;		/* the variable's value when loaded */
static int loaded;

#define KIND_ENV "the SMTP password ($" SECRET_SMTP_ENV ")"
#define KIND_FILE "the SMTP password (smtp.passwordFile)"
#define FORM_PLAIN "as it is"
#define FORM_REVERSED "reversed"
#define FORM_BASE64 "base64-encoded"

static void opt_set(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? xstrdup(v) : NULL;
}

void secret_configure(const struct secret_opts *o)
{
	opt_set(&cfg_password, o->smtp_password);
	opt_set(&cfg_password_file, o->smtp_password_file);
	opt_set(&cfg_lore_url, o->lore_url);
	opt_set(&cfg_smtp_url, o->smtp_url);
	loaded = 0;
}

static int env_changed(void)
{
	const char *v = getenv(SECRET_SMTP_ENV);

	return !v != !known_env || (v && strcmp(v, known_env));
}

static void pattern_add(const char *v, size_t len, const char *kind,
			const char *form)
{
	size_t i;

	if (len < SECRET_MIN_LEN)
		return;
	for (i = 0; i < nr_known; i++)
		if (known[i].len == len && !memcmp(known[i].v, v, len))
			return;
	ALLOC_GROW(known, nr_known, alloc_known);
	known[nr_known].v = xstrndup(v, len);
	known[nr_known].len = len;
	known[nr_known].kind = kind;
	known[nr_known].form = form;
	nr_known++;
}

/*
 * The secret as is, reversed, and base64-encoded: alone (with its
 * padding) and inside a longer text, where it starts at any of the
 * three offsets of a base64 group.  At offset k the characters that
 * depend on the secret's bits alone run from ceil(8k/6) to
 * floor(8(k+len)/6); those before and after mix in the text around it.
 */
static void known_add(const char *v, size_t len, const char *kind)
{
	struct strbuf sb = STRBUF_INIT, enc = STRBUF_INIT;
	size_t i, k;

	if (len < SECRET_MIN_LEN)
		return;
	pattern_add(v, len, kind, FORM_PLAIN);
	for (i = len; i > 0; i--)
		strbuf_addch(&sb, v[i - 1]);
	pattern_add(sb.buf, sb.len, kind, FORM_REVERSED);
	strbuf_reset(&sb);
	strbuf_add_base64(&sb, v, len);
	pattern_add(sb.buf, sb.len, kind, FORM_BASE64);
	for (k = 0; k < 3; k++) {
		size_t start = (8 * k + 5) / 6, end = 8 * (k + len) / 6;

		/* any k bytes before it: only the pieces after them count */
		strbuf_reset(&sb);
		strbuf_add(&sb, "\0\0", k);
		strbuf_add(&sb, v, len);
		strbuf_reset(&enc);
		strbuf_add_base64(&enc, sb.buf, sb.len);
		pattern_add(enc.buf + start, end - start, kind, FORM_BASE64);
	}
	strbuf_release(&enc);
	strbuf_release(&sb);
}

static void add_decoded(const char *s, size_t len, const char *kind)
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
	known_add(sb.buf, sb.len, kind);
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

static void add_url(const char *url, const char *kind)
{
	const char *ui, *colon;
	size_t len;

	if (!url)
		return;
	ui = url_userinfo(url, &len);
	if (!ui)
		return;
	known_add(ui, len, kind);
	add_decoded(ui, len, kind);
	colon = memchr(ui, ':', len);
	if (colon) {
		known_add(colon + 1, ui + len - colon - 1, kind);
		add_decoded(colon + 1, ui + len - colon - 1, kind);
	}
}

static int by_length(const void *a, const void *b)
{
	size_t la = ((const struct pattern *)a)->len;
	size_t lb = ((const struct pattern *)b)->len;

	return la < lb ? 1 : la > lb ? -1 : 0;
}

static void known_clear(void)
{
	size_t i;

	for (i = 0; i < nr_known; i++)
		free(known[i].v);
	nr_known = 0;
}

static void load(void)
{
	const char *v;
	size_t i;

	if (loaded && !env_changed())
		return;
	known_clear();
	if (taken_env)
		known_add(taken_env, strlen(taken_env), KIND_ENV);
	for (i = 0; i < nr_added; i++)
		known_add(added[i], strlen(added[i]), "a secret");
	v = cfg_password;
	if (v)
		known_add(v, strlen(v), "the SMTP password (smtp.password)");
	/* a library user that did not take it out of the environment */
	v = getenv(SECRET_SMTP_ENV);
	free(known_env);
	known_env = v ? xstrdup(v) : NULL;
	if (v)
		known_add(v, strlen(v), KIND_ENV);
	v = cfg_password_file;
	if (v && *v) {
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_file(&sb, v) >= 0) {
			/* the first line is the password (see smtp.c); the
			 * whole file too, in case it is more than that
			 */
			known_add(sb.buf, strcspn(sb.buf, "\r\n"), KIND_FILE);
			strbuf_trim(&sb);
			known_add(sb.buf, sb.len, KIND_FILE);
		}
		strbuf_release(&sb);
	}
	add_url(cfg_lore_url, "the userinfo of lore.url");
	add_url(cfg_smtp_url, "the userinfo of smtp.url");
	if (nr_known)
		qsort(known, nr_known, sizeof(*known), by_length);
	loaded = 1;
}

const char *secret_take_env(void)
{
	const char *v = getenv(SECRET_SMTP_ENV);

	if (v && !taken_env)
		taken_env = xstrdup(v);
	unsetenv(SECRET_SMTP_ENV);
	loaded = 0;
	return taken_env && *taken_env ? taken_env : NULL;
}

const char *secret_env_password(void)
{
	const char *v = getenv(SECRET_SMTP_ENV);

	if (taken_env && *taken_env)
		return taken_env;
	return v && *v ? v : NULL;
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
	known_clear();
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
		size_t len = known[i].len;
		const char *p = sb->buf, *end = sb->buf + sb->len, *hit;

		if (!memmem(p, end - p, known[i].v, len))
			continue;
		strbuf_reset(&out);
		while ((hit = memmem(p, end - p, known[i].v, len))) {
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

int secret_scrub_fd(int in, int out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, keep = 0;
	int n = 0, err;

	load();
	/* what of a piece's end may begin a secret the next one ends */
	for (i = 0; i < nr_known; i++)
		if (known[i].len > keep + 1)
			keep = known[i].len - 1;
	for (;;) {
		ssize_t got;

		strbuf_grow(&sb, SECRET_SCRUB_PIECE);
		got = read(in, sb.buf + sb.len, SECRET_SCRUB_PIECE);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		strbuf_setlen(&sb, sb.len + (size_t)got);
		n += secret_scrub(&sb);
		if (!got || sb.len > keep) {
			size_t w = got ? sb.len - keep : sb.len;

			if (write_in_full(out, sb.buf, w) < 0)
				goto fail;
			memmove(sb.buf, sb.buf + w, sb.len - w);
			strbuf_setlen(&sb, sb.len - w);
		}
		if (!got)
			break;
	}
	strbuf_release(&sb);
	return n;
fail:
	err = errno;
	strbuf_release(&sb);
	errno = err;
	return -1;
}

static int fill_scrubbed(int fd, void *data)
{
	return secret_scrub_fd(*(int *)data, fd) < 0 ? -1 : 0;
}

int secret_write_fd(const char *path, int in)
{
	return write_file_atomic_with(path, fill_scrubbed, &in);
}

int secret_copy_file(const char *from, const char *to)
{
	int fd = open(from, O_RDONLY | O_NOCTTY | O_CLOEXEC), ret, err;

	if (fd < 0)
		return -1;
	ret = secret_write_fd(to, fd);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

int secret_contains(const char *s)
{
	size_t i;

	load();
	for (i = 0; i < nr_known; i++)
		if (strstr(s, known[i].v))
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

/* ---- looking for a secret in text (the mail check is mail.c's) ---- */

static int found(const struct pattern *hit, struct strbuf *why)
{
	if (hit && why)
		strbuf_addf(why, "%s, %s", hit->kind, hit->form);
	return hit != NULL;
}

int secret_find(const char *s, size_t len, struct strbuf *why)
{
	size_t i;

	load();
	for (i = 0; i < nr_known; i++)
		if (memmem(s, len, known[i].v, known[i].len))
			return found(&known[i], why);
	return 0;
}

int secret_find_base64(const char *s, size_t len, struct strbuf *why)
{
	struct strbuf flat = STRBUF_INIT;
	const struct pattern *hit = NULL;
	size_t i;

	load();
	if (!nr_known)
		return 0;
	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			strbuf_addch(&flat, s[i]);
	for (i = 0; i < nr_known && !hit; i++)
		if (!strcmp(known[i].form, FORM_BASE64) &&
		    memmem(flat.buf, flat.len, known[i].v, known[i].len))
			hit = &known[i];
	strbuf_release(&flat);
	return found(hit, why);
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

	ui = url_userinfo(url, &len);
	if (!ui)
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
