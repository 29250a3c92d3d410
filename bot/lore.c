// SPDX-License-Identifier: GPL-2.0
/*
 * lore.c - fetch threads, messages and search results from lore (any
 * public-inbox over HTTP) with libcurl, gunzip them with zlib, and keep
 * fetched threads in a small cache.
 *
 * Lore is a shared public service: we identify ourselves, back off
 * exponentially when it is busy, and cache what we fetched so that a bot
 * polling every few minutes asks for each thread once.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <zlib.h>

#include "lore.h"
#include "version.h"

static int cache_bypass;
static struct lore_opts opts;
static int configured;

void lore_configure(const struct lore_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, lore.url would be unknown: a call before is a bug. */
static const struct lore_opts *lo(void)
{
	if (!configured)
		die("BUG: lore used before lore_configure()");
	return &opts;
}

void lore_cache_bypass(int bypass)
{
	cache_bypass = bypass;
}

/* ---- message-ids ---- */

/* Percent-decoding of one URL path segment ('+' stays '+' in paths). */
static char *percent_decode(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		int hi = -1, lo = -1;

		if (s[i] == '%' && i + 2 < len) {
			hi = hexval((unsigned char)s[i + 1]);
			lo = hexval((unsigned char)s[i + 2]);
		}
		if (hi >= 0 && lo >= 0) {
			/* %00 would cut the id short: make it invalid */
			out[n] = (char)(hi << 4 | lo);
			if (!out[n])
				out[n] = 1;
			n++;
			i += 2;
			continue;
		}
		out[n++] = s[i];
	}
	out[n] = '\0';
	return out;
}

/* A message-id we are willing to put in a URL and a file name. */
static int valid_msgid(const char *id)
{
	const unsigned char *p = (const unsigned char *)id;

	if (!*p || strlen(id) > 998)
		return 0;
	for (; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '<' || *p == '>')
			return 0;
	return 1;
}

static char *checked(char *id)
{
	if (id && valid_msgid(id))
		return id;
	free(id);
	return NULL;
}

/*
 * Lore URL paths: /r/<id>, /<list>/<id>/..., /all/<id>/T/#u,
 * patch.msgid.link/<id>, lkml.kernel.org/r/<id>.  The message-id is the
 * first segment holding an '@'; failing that, the one after /r/ or after
 * the list name (ids without '@' are rare but exist).
 */
static char *msgid_from_path(const char *path)
{
	const char *segs[64];
	size_t lens[64];
	size_t nr = 0, i;
	const char *p = path, *end;

	end = p + strcspn(p, "?#");
	while (p < end && nr < ARRAY_SIZE(segs)) {
		const char *s;

		while (p < end && *p == '/')
			p++;
		if (p >= end)
			break;
		s = p;
		while (p < end && *p != '/')
			p++;
		segs[nr] = s;
		lens[nr++] = (size_t)(p - s);
	}
	for (i = 0; i < nr; i++) {
		char *seg = percent_decode(segs[i], lens[i]);

		if (strchr(seg, '@'))
			return checked(seg);
		free(seg);
	}
	/* "/lkml/" alone is a list, not a message-id */
	if (nr >= 2)
		return checked(percent_decode(segs[1], lens[1]));
	return NULL;
}

/*
 * "lore.kernel.org/r/x@y" without a scheme.  A message-id may hold '/'
 * too ("a.b/c@d"), so only the hosts of lore links, and that of
 * lore.url, count as a URL.
 */
static const char *schemeless_url_path(const char *s)
{
	static const char *const hosts[] = {
		"lore.kernel.org", "lkml.kernel.org", "patch.msgid.link",
		"msgid.link",
	};
	const char *slash = strchr(s, '/');
	const char *url, *h;
	size_t len, i;

	if (!slash || slash == s)
		return NULL;
	len = (size_t)(slash - s);
	for (i = 0; i < ARRAY_SIZE(hosts); i++)
		if (strlen(hosts[i]) == len && !strncasecmp(s, hosts[i], len))
			return slash;
	url = lo()->url;
	h = strstr(url, "://");
	h = h ? h + 3 : url;
	if (!strncasecmp(h, s, len) && (h[len] == '/' || !h[len]))
		return slash;
	return NULL;
}

char *lore_msgid_from_arg(const char *arg)
{
	const char *s, *e, *p;
	char *id;

	if (!arg)
		return NULL;
	s = arg;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s == e)
		return NULL;

	p = strstr(s, "://");
	if (p && p < e && (size_t)(p - s) <= 8) {
		char *url = xstrndup(s, (size_t)(e - s));
		const char *path = strchr(url + (p - s) + 3, '/');

		id = path ? msgid_from_path(path) : NULL;
		free(url);
		return id;
	}
	p = skip_prefix_ci(s, "mid:");
	if (!p)
		p = skip_prefix_ci(s, "id:");
	if (p) {
		/* RFC 2392 mid: URLs are percent-escaped; notmuch's id: not */
		int mid = tolower((unsigned char)*s) == 'm';

		s = p;
		if (*s == '<' && e > s + 1 && e[-1] == '>') {
			s++;
			e--;
		}
		id = mid ? percent_decode(s, (size_t)(e - s)) :
			   xstrndup(s, (size_t)(e - s));
		return checked(id);
	}
	if (*s == '<') {
		if (e[-1] != '>' || e - s < 3)
			return NULL;
		return checked(xstrndup(s + 1, (size_t)(e - s - 2)));
	}
	if (!memchr(s, '@', (size_t)(e - s)) ||
	    memchr(s, '/', (size_t)(e - s))) {
		char *tmp = xstrndup(s, (size_t)(e - s));
		const char *path = schemeless_url_path(tmp);

		if (path && (!strchr(tmp, '@') ||
			     strchr(tmp, '@') > path)) {
			id = msgid_from_path(path);
			free(tmp);
			return id;
		}
		return checked(tmp);
	}
	return checked(xstrndup(s, (size_t)(e - s)));
}

/* Python's quote_plus(s, safe='@'): what b4 puts in lore URLs. */
static char *quote_plus(const char *s, const char *safe)
{
	static const char hex[] = "0123456789ABCDEF";
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if ((*p < 0x80 && isalnum(*p)) || strchr("_.-~", *p) ||
		    (safe && *p && strchr(safe, *p))) {
			strbuf_addch(&sb, *p);
		} else if (*p == ' ') {
			strbuf_addch(&sb, '+');
		} else {
			strbuf_addch(&sb, '%');
			strbuf_addch(&sb, hex[*p >> 4]);
			strbuf_addch(&sb, hex[*p & 15]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

char *lore_quote_msgid(const char *msgid)
{
	return quote_plus(msgid, "@");
}

/*
 * lore.url without a trailing '/' and without any "user:password@": a
 * private mirror's credentials go to libcurl apart (*userpwd, decoded),
 * so that no URL we print or cache by ever holds them.
 */
static char *lore_base_auth(char **userpwd)
{
	char *base = xstrdup(lo()->url);
	char *host = strstr(base, "://");
	size_t len;

	if (userpwd)
		*userpwd = NULL;
	if (host) {
		char *end = host + 3 + strcspn(host + 3, "/?#");
		char *at = memrchr(host + 3, '@', (size_t)(end - host - 3));

		if (at) {
			if (userpwd)
				*userpwd = percent_decode(host + 3,
						(size_t)(at - host - 3));
			memmove(host + 3, at + 1, strlen(at + 1) + 1);
		}
	}
	len = strlen(base);
	while (len && base[len - 1] == '/')
		base[--len] = '\0';
	return base;
}

static char *lore_base(void)
{
	return lore_base_auth(NULL);
}

char *lore_link(const char *msgid)
{
	char *base = lore_base();
	char *url = xasprintf("%s/all/%s/", base, msgid ? msgid : "");

	free(base);
	return url;
}

size_t lore_mbox_count(const char *mbox, size_t len)
{
	const char *p = mbox, *end = mbox + len;
	size_t n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if ((size_t)(end - p) >= 5 && !memcmp(p, "From ", 5))
			n++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

/* ---- HTTP ---- */

static int transient_curl_error(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static size_t max_size(void)
{
	return (size_t)lo()->max_size << 20;
}

/*
 * A curl handle for one GET or empty-body POST of url, writing into *b
 * and its errors into errbuf; credentials in *userpwd (to be wiped by
 * the caller).  NULL (said) when libcurl cannot start.
 */
static CURL *http_setup(const char *url, int post, struct capped_body *b,
			char *errbuf, char **userpwd)
{
	const struct lore_opts *o = lo();
	long ctimeout = o->connect_timeout;
	const char *cainfo = o->cainfo;
	CURL *curl;
	char *base;

	curl = curl_easy_init();
	if (!curl) {
		error("lore: cannot initialise libcurl");
		return NULL;
	}
	curl_easy_setopt(curl, CURLOPT_URL, url);
	/* credentials only for URLs under lore.url (ours all are) */
	base = lore_base_auth(userpwd);
	if (*userpwd && starts_with(url, base))
		curl_easy_setopt(curl, CURLOPT_USERPWD, *userpwd);
	free(base);
	curl_easy_setopt(curl, CURLOPT_USERAGENT,
			 "sched-bot/" SCHED_BOT_VERSION);
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, capped_body_write);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (ctimeout > 0)
		curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, ctimeout);
	/* a private lore mirror may use its own CA */
	if (cainfo && *cainfo)
		curl_easy_setopt(curl, CURLOPT_CAINFO, cainfo);
	/* a stalled server is a timeout, not a hang */
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
	if (post) {
		curl_easy_setopt(curl, CURLOPT_POST, 1L);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, 0L);
	}
	return curl;
}

/*
 * Waits before retry number attempt: delay doubled per retry, at least
 * what Retry-After asked.  -1 when that wait would pass the deadline.
 */
static int http_backoff(long attempt, long retries, long delay,
			curl_off_t retry_after, double deadline)
{
	int shift = attempt - 1 > 16 ? 16 : (int)attempt - 1;
	long ms = delay << shift;

	/* a busy lore says how long to stay away */
	if (retry_after > 86400)
		retry_after = 86400;
	if (retry_after * 1000 > ms)
		ms = (long)retry_after * 1000;
	if (now_monotonic() + ms / 1e3 >= deadline) {
		debug("lore: no time left for a retry");
		return -1;
	}
	debug("lore: retry %ld of %ld in %ld ms", attempt, retries, ms);
	sleep_ms(ms);
	return 0;
}

/*
 * One request within what is left of the deadline; the HTTP code in
 * *code and the Retry-After in *retry_after (0 when none).
 */
static CURLcode http_attempt(CURL *curl, struct strbuf *body, double deadline,
			     char *errbuf, long *code, curl_off_t *retry_after)
{
	double left = deadline - now_monotonic();
	CURLcode c;

	if (left < 1e-3)
		left = 1e-3;
	if (left < 1e8)
		curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(left * 1e3));
	strbuf_reset(body);
	errbuf[0] = '\0';
	*code = 0;
	c = curl_easy_perform(curl);
	if (c == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
#if LIBCURL_VERSION_NUM >= 0x074200
	*retry_after = 0;
	if (c == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, retry_after);
#endif
	return c;
}

/* What http_verdict says when an attempt's outcome is not final. */
enum {
	HTTP_RETRY = -1,	/* transient: worth another attempt */
	HTTP_GIVE_UP = -2,	/* a network failure retries won't fix */
};

/* The exit code an attempt ends the fetch with, or HTTP_RETRY/GIVE_UP. */
static int http_verdict(CURLcode c, long code, const struct capped_body *b,
			const char *url, const char *what, const char *errbuf)
{
	if (b->too_big) {
		error("lore: %s is larger than lore.maxSize (%zu MiB)",
		      url, b->max >> 20);
		return EXIT_FAIL;
	}
	if (c == CURLE_OK && code >= 200 && code < 300)
		return EXIT_OK;
	if (c == CURLE_OK && (code == 404 || code == 410))
		return EXIT_NOTFOUND;
	if (c == CURLE_OK && code < 500 && code != 429) {
		error("lore: %s answered HTTP %ld for %s", url, code, what);
		return EXIT_FAIL;
	}
	if (c != CURLE_OK && !transient_curl_error(c))
		return HTTP_GIVE_UP;
	if (c == CURLE_OK)
		debug("lore: %s: HTTP %ld", url, code);
	else
		debug("lore: %s: %s", url,
		      errbuf[0] ? errbuf : curl_easy_strerror(c));
	return HTTP_RETRY;
}

/*
 * One GET or empty-body POST, retried with exponential backoff while
 * the failure looks transient (5xx, 429, timeout, refused connection),
 * waiting at least what a Retry-After header asks.
 * The body of a 2xx answer ends in *body; other codes are reported
 * here with what the user should check.
 */
static int http_fetch(const char *url, int post, const char *what,
		      struct strbuf *body)
{
	const struct lore_opts *o = lo();
	long retries = o->retries;
	long delay = o->retry_delay;
	long timeout = o->timeout;
	char errbuf[CURL_ERROR_SIZE];
	struct capped_body b = { body, max_size(), 0 };
	CURL *curl;
	char *userpwd = NULL;
	long attempt, tries = 0, code = 0;
	curl_off_t retry_after = 0;
	double deadline;
	CURLcode c = CURLE_OK;
	int ret = EXIT_NETWORK;

	if (!skip_prefix_ci(url, "http://") &&
	    !skip_prefix_ci(url, "https://")) {
		error("lore: lore.url must be an http:// or https:// URL");
		return EXIT_USAGE;
	}
	if (retries < 0)
		retries = 0;
	if (delay < 0)
		delay = 0;
	if (delay > 60000)
		delay = 60000;
	/* lore.timeout bounds the whole request, retries and waits included */
	deadline = now_monotonic() + (timeout > 0 ? (double)timeout : 1e9);
	curl = http_setup(url, post, &b, errbuf, &userpwd);
	if (!curl)
		return EXIT_FAIL;

	for (attempt = 0; attempt <= retries; attempt++) {
		if (attempt && http_backoff(attempt, retries, delay,
					    retry_after, deadline))
			break;
		c = http_attempt(curl, body, deadline, errbuf, &code,
				 &retry_after);
		tries++;
		ret = http_verdict(c, code, &b, url, what, errbuf);
		if (ret >= 0)
			goto out;
		if (ret == HTTP_GIVE_UP)
			break;
	}
	if (c == CURLE_OK)
		error("lore: %s answered HTTP %ld after %ld attempt(s); "
		      "lore may be overloaded, try again later", url, code,
		      tries);
	else
		error("lore: cannot fetch %s: %s (after %ld attempt%s); check lore.url and the network",
		      url,
		      errbuf[0] ? errbuf : curl_easy_strerror(c),
		      tries, tries > 1 ? "s" : "");
	ret = EXIT_NETWORK;
out:
	curl_easy_cleanup(curl);
	if (userpwd) {
		explicit_bzero(userpwd, strlen(userpwd));
		free(userpwd);
	}
	if (ret)
		strbuf_reset(body);
	return ret;
}

/* Fetch a gzip'd mbox and gunzip it; a plain mbox is taken as is. */
static int fetch_mbox_gz(const char *url, int post, const char *what,
			 struct strbuf *mbox)
{
	struct strbuf gz = STRBUF_INIT;
	const char *why;
	int ret;

	ret = http_fetch(url, post, what, &gz);
	if (ret)
		goto out;
	if (gz.len >= 2 && (unsigned char)gz.buf[0] == 0x1f &&
	    (unsigned char)gz.buf[1] == 0x8b) {
		ret = gunzip_mem(gz.buf, gz.len, max_size(), mbox, &why);
		if (ret)
			error("lore: %s: %s%s; nothing cached, try again", url,
			      why, mbox->len > max_size() ?
			      " (lore.maxSize)" : "");
	} else if (starts_with(gz.buf, "From ")) {
		strbuf_add(mbox, gz.buf, gz.len);
	} else {
		error("lore: %s is neither gzip nor an mbox; is lore.url a public-inbox?",
		      url);
		ret = EXIT_FAIL;
	}
	if (!ret && mbox->len && !starts_with(mbox->buf, "From ")) {
		error("lore: %s did not give an mbox", url);
		ret = EXIT_FAIL;
	}
out:
	if (ret)
		strbuf_reset(mbox);
	strbuf_release(&gz);
	return ret;
}

/* ---- cache ---- */

/*
 * One file per message-id: the escaped id cannot hold '/', and a hash
 * keeps very long ids within NAME_MAX.
 */
static char *cache_file(const char *kind, const char *msgid)
{
	char *dir = cache_path("lore");
	char *q = lore_quote_msgid(msgid);
	char *base = lore_base();
	char *path;
	uLong crc = crc32(0L, Z_NULL, 0);

	/* the same id on two servers is two entries */
	crc = crc32(crc, (const Bytef *)base, (uInt)strlen(base));
	crc = crc32(crc, (const Bytef *)msgid, (uInt)strlen(msgid));
	if (strlen(q) > 180)
		q[180] = '\0';
	path = xasprintf("%s/%s-%s-%08lx", dir, kind, q, (unsigned long)crc);
	free(base);
	free(q);
	free(dir);
	return path;
}

static long cache_max_age(void)
{
	return lo()->cache_max_age;
}

static int cache_read(const char *path, int mbox, struct strbuf *out)
{
	long max_age = cache_max_age();
	struct stat st;

	if (max_age <= 0 || cache_bypass)
		return -1;
	if (stat(path, &st) < 0)
		return -1;
	if (time(NULL) - st.st_mtime >= max_age)
		return -1;
	if (strbuf_read_file(out, path) < 0) {
		strbuf_reset(out);
		return -1;
	}
	if (!out->len || (mbox && !starts_with(out->buf, "From "))) {
		/* written by something else: do not trust it */
		strbuf_reset(out);
		return -1;
	}
	debug("lore: from cache %s", path);
	return 0;
}

void lore_cache_each(const char *dir,
		     void (*fn)(int dfd, const char *name,
				const struct stat *st, void *data),
		     void *data)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (!starts_with(de->d_name, "t-") &&
		    !starts_with(de->d_name, "raw-"))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		fn(dirfd(d), de->d_name, &st, data);
	}
	closedir(d);
}

struct prune {
	const char *dir;
	time_t now;
	long max_age;
};

static void prune_one(int dfd, const char *name, const struct stat *st,
		      void *data)
{
	struct prune *p = data;

	if (p->now - st->st_mtime > p->max_age &&
	    unlinkat(dfd, name, 0) == 0)
		debug("lore: pruned %s/%s", p->dir, name);
}

/*
 * A bot fetches new threads all day: drop entries that can no longer be
 * served (older than the max age, an hour at least, for leftovers of
 * interrupted writes), so the cache does not grow without bound.  Only
 * our own file names are touched.
 */
static void cache_prune(const char *dir, long max_age)
{
	struct prune p = {
		.dir = dir, .now = time(NULL),
		.max_age = max_age < 3600 ? 3600 : max_age,
	};

	lore_cache_each(dir, prune_one, &p);
}

static void cache_write(const char *path, const struct strbuf *data)
{
	char *dir;

	if (cache_max_age() <= 0)
		return;
	dir = cache_path("lore");
	if (mkdir_p(dir, 0755) < 0 ||
	    write_file_atomic(path, data->buf, data->len) < 0)
		warning("lore: cannot write cache %s: %s", path,
			strerror(errno));
	else
		cache_prune(dir, cache_max_age());
	free(dir);
}

/* ---- the public calls ---- */

static int fetch_cached(const char *kind, const char *msgid,
			const char *suffix, int gz, int quiet,
			struct strbuf *out)
{
	char *file, *url, *base, *q;
	int ret;

	if (!valid_msgid(msgid)) {
		/* never echo it: it may hold terminal escapes */
		error("lore: not a message-id (empty, too long, or holding spaces, <> or control characters)");
		return EXIT_USAGE;
	}
	file = cache_file(kind, msgid);
	strbuf_reset(out);
	if (!cache_read(file, gz, out)) {
		free(file);
		return EXIT_OK;
	}
	base = lore_base();
	q = lore_quote_msgid(msgid);
	url = xasprintf("%s/all/%s/%s", base, q, suffix);
	debug("lore: GET %s", url);
	if (gz)
		ret = fetch_mbox_gz(url, 0, "a thread", out);
	else
		ret = http_fetch(url, 0, "a message", out);
	if (ret == EXIT_NOTFOUND && !quiet)
		error("lore: no message <%s> at %s (HTTP 404); check the message-id",
		      msgid, base);
	if (!ret && !out->len) {
		error("lore: %s is empty", url);
		ret = EXIT_FAIL;
	}
	if (!ret)
		cache_write(file, out);
	free(url);
	free(q);
	free(base);
	free(file);
	return ret;
}

int lore_fetch_thread(const char *msgid, struct strbuf *mbox)
{
	return fetch_cached("t", msgid, "t.mbox.gz", 1, 0, mbox);
}

int lore_fetch_raw(const char *msgid, struct strbuf *mail)
{
	struct strbuf raw = STRBUF_INIT;
	int ret;

	ret = fetch_cached("raw", msgid, "raw", 0, 0, &raw);
	strbuf_reset(mail);
	if (!ret)
		strbuf_add(mail, raw.buf, raw.len);
	strbuf_release(&raw);
	return ret;
}

static char *search_url(const char *query, const char *x, int threads)
{
	char *base = lore_base();
	char *q = quote_plus(query, NULL);
	char *url = xasprintf("%s/all/?q=%s&x=%s%s", base, q, x,
			      threads ? "&t=1" : "");

	free(q);
	free(base);
	return url;
}

int lore_search(const char *query, int threads, struct strbuf *mbox)
{
	char *url;
	int ret;

	strbuf_reset(mbox);
	if (!query || !*query) {
		error("lore: empty search query");
		return EXIT_USAGE;
	}
	url = search_url(query, "m", threads);
	debug("lore: POST %s", url);
	ret = fetch_mbox_gz(url, 1, "a search", mbox);
	if (ret == EXIT_NOTFOUND)
		info("lore: no messages match '%s'", query);
	free(url);
	return ret;
}

int lore_atom(const char *query, struct strbuf *atom)
{
	char *url, *base;
	int ret;

	strbuf_reset(atom);
	if (query && *query) {
		url = search_url(query, "A", 0);
	} else {
		base = lore_base();
		url = xasprintf("%s/all/new.atom", base);
		free(base);
	}
	debug("lore: GET %s", url);
	ret = http_fetch(url, 0, "a feed", atom);
	if (ret == EXIT_NOTFOUND)
		info("lore: no messages match '%s'", query ? query : "");
	if (!ret && !strstr(atom->buf, "<feed")) {
		error("lore: %s is not an Atom feed", url);
		strbuf_reset(atom);
		ret = EXIT_FAIL;
	}
	free(url);
	return ret;
}

int lore_check_message(const char *msgid)
{
	struct strbuf raw = STRBUF_INIT;
	int ret;

	ret = fetch_cached("raw", msgid, "raw", 0, 1, &raw);
	strbuf_release(&raw);
	return ret;
}
