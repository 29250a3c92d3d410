// SPDX-License-Identifier: GPL-2.0
/*
 * smtp.c - SMTP submission through libcurl.
 */
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "mail.h"
#include "reply.h"
#include "secret.h"
#include "smtp.h"
#include "util.h"

struct upload {
	const char *data;
	size_t len;
	size_t pos;
};

static size_t read_cb(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct upload *u = arg;
	size_t n = size * nmemb;

	if (n > u->len - u->pos)
		n = u->len - u->pos;
	memcpy(buf, u->data + u->pos, n);
	u->pos += n;
	return n;
}

/*
 * SMTP wants CRLF; our files have LF.  A CR that ends no line is sent
 * as '?': SMTP allows CR only in CRLF (RFC 5321 2.3.8), and servers
 * that take a bare CR for a line end also take "<CR>.<CR><LF>" for the
 * end of the data, which libcurl's dot-stuffing ("<CR><LF>." doubled)
 * does not see.
 */
static void to_crlf(const char *msg, size_t len, struct strbuf *out)
{
	size_t i;

	strbuf_grow(out, len + len / 40);
	for (i = 0; i < len; i++) {
		if (msg[i] == '\r' && (i + 1 == len || msg[i + 1] != '\n')) {
			strbuf_addch(out, '?');
			continue;
		}
		if (msg[i] == '\n' && (i == 0 || msg[i - 1] != '\r'))
			strbuf_addch(out, '\r');
		strbuf_addch(out, msg[i]);
	}
}

static struct smtp_opts opts;
static int configured;

void smtp_configure(const struct smtp_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Nothing is sent with settings nobody gave. */
static const struct smtp_opts *so(void)
{
	if (!configured)
		die("BUG: smtp used before smtp_configure()");
	return &opts;
}

/* The password, from a file or the environment; never logged. */
static char *smtp_password(const struct smtp_opts *o)
{
	const char *file = o->password_file;
	const char *env = o->env_password;
	const char *cfg = o->password;

	if (file && *file) {
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_file(&sb, file) < 0) {
			strbuf_release(&sb);
			error("cannot read smtp.passwordFile %s", file);
			return NULL;
		}
		/* one line; the newline an editor adds is not part of it */
		sb.len = strcspn(sb.buf, "\r\n");
		sb.buf[sb.len] = '\0';
		return strbuf_detach(&sb, NULL);
	}
	if (env && *env)
		return xstrdup(env);
	if (cfg && *cfg)
		return xstrdup(cfg);
	return NULL;
}

/* The last gate: no secret leaves in any form (secret.h). */
static int carries_secret(const char *msg, size_t len)
{
	struct strbuf why = STRBUF_INIT;
	int bad = mail_check_secrets(msg, len, &why);

	if (bad)
		error("smtp: the mail is not sent: it carries %s", why.buf);
	strbuf_release(&why);
	return bad;
}

int smtp_send(const char *msg, size_t len)
{
	const struct smtp_opts *o = so();
	const char *url = o->url;
	const char *user = o->user;
	const char *tls = o->tls;
	const char *ca = o->cafile;
	long timeout = o->timeout;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *rcpt_list = NULL;
	struct strbuf data = STRBUF_INIT;
	char *from = NULL, **rcpts = NULL, *password = NULL, *mail_from;
	char *shown;
	struct upload up;
	long code = 0;
	int nr, i, ret = EXIT_FAIL;
	CURLcode rc;
	CURL *curl;

	if (carries_secret(msg, len))
		return EXIT_FAIL;
	nr = reply_envelope(msg, len, &from, &rcpts);
	if (nr < 0)
		return EXIT_FAIL;
	if (!starts_with(url, "smtp://") && !starts_with(url, "smtps://")) {
		error("smtp.url must start with smtp:// or smtps://");
		goto out;
	}
	if (user && *user) {
		password = smtp_password(o);
		if (!password) {
			error("smtp.user is set but no password (smtp.passwordFile or SCHED_BOT_SMTP_PASSWORD)");
			goto out;
		}
	}
	if (!tls || !*tls)
		tls = password && starts_with(url, "smtp://") ? "starttls" :
		      "try";
	curl = curl_easy_init();
	if (!curl) {
		error("curl_easy_init failed");
		goto out;
	}
	for (i = 0; i < nr; i++) {
		char *r = xasprintf("<%s>", rcpts[i]);

		rcpt_list = curl_slist_append(rcpt_list, r);
		free(r);
	}
	mail_from = xasprintf("<%s>", o->from && *o->from ? o->from :
			      from);
	to_crlf(msg, len, &data);
	up.data = data.buf;
	up.len = data.len;
	up.pos = 0;
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, mail_from);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt_list);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(curl, CURLOPT_READDATA, &up);
	curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)up.len);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	if (!strcmp(tls, "starttls"))
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	else if (!strcmp(tls, "try"))
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
	if (ca && *ca)
		curl_easy_setopt(curl, CURLOPT_CAINFO, ca);
	if (password) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, password);
	}
	rc = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
	/* printed without its userinfo (smtp://user:pw@host is valid) */
	shown = secret_url_public(url);
	if (rc == CURLE_OK) {
		debug("smtp: %s accepted the mail for %d recipient(s)",
		      shown, nr);
		ret = 0;
	} else {
		error("smtp: sending to %s failed: %s (server said %ld)",
		      shown, *errbuf ? errbuf : curl_easy_strerror(rc), code);
		ret = code >= 500 && code < 600 ? EXIT_FAIL : EXIT_NETWORK;
	}
	free(shown);
	curl_slist_free_all(rcpt_list);
	curl_easy_cleanup(curl);
	free(mail_from);
out:
	if (password) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
	strbuf_release(&data);
	free(from);
	reply_free_addresses(rcpts, nr > 0 ? nr : 0);
	return ret;
}
