// SPDX-License-Identifier: GPL-2.0
/*
 * dkim.c - verify DKIM signatures with libopendkim; see dkim.h.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <opendkim/dkim.h>

#include "dkim.h"
#include "util.h"

int dkim_aligned(const char *d, const char *from_domain)
{
	size_t dl, fl;

	if (!d || !from_domain || !*d || !*from_domain)
		return 0;
	dl = strlen(d);
	fl = strlen(from_domain);
	if (dl == fl)
		return !strcasecmp(d, from_domain);
	/* a parent domain signs for its subdomains, not the reverse */
	return fl > dl && from_domain[fl - dl - 1] == '.' &&
	       !strcasecmp(from_domain + fl - dl, d);
}

const char *dkim_unsigned_header(const char *h, const char *const *need)
{
	size_t i;

	for (i = 0; need && need[i]; i++) {
		size_t nlen = strlen(need[i]);
		const char *p = h;
		int found = 0;

		while (p && *p && !found) {
			const char *end = strchr(p, ':') ?: p + strlen(p);
			const char *b = p, *e = end;

			/* RFC 6376 3.5: FWS may surround each name */
			while (b < e && isspace((unsigned char)*b))
				b++;
			while (e > b && isspace((unsigned char)e[-1]))
				e--;
			if ((size_t)(e - b) == nlen &&
			    !strncasecmp(b, need[i], nlen))
				found = 1;
			p = *end ? end + 1 : end;
		}
		if (!found)
			return need[i];
	}
	return NULL;
}

/* The b= value without its folding whitespace, which verifiers skip. */
static char *sig_b_value(DKIM_SIGINFO *sig)
{
	const char *b = (const char *)dkim_sig_gettagvalue(sig, false,
							   (u_char *)"b");
	char *out, *o;

	if (!b || !*b)
		return NULL;
	out = o = xstrdup(b);
	for (; *b; b++)
		if (!isspace((unsigned char)*b))
			*o++ = *b;
	*o = '\0';
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

static struct dkim_opts opts;

void dkim_configure(const struct dkim_opts *o)
{
	opts = *o;
}

static DKIM_LIB *open_lib(char **why)
{
	const char *keys = opts.key_file;
	DKIM_LIB *lib = dkim_init(NULL, NULL);
	unsigned int flags = DKIM_LIBFLAGS_FIXCRLF;
	unsigned int timeout = 10;

	if (!lib) {
		*why = xstrdup("cannot start the DKIM library");
		return NULL;
	}
	dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_FLAGS, &flags,
		     sizeof(flags));
	/* a key lookup is bounded: one slow DNS server must not hang us */
	dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_TIMEOUT, &timeout,
		     sizeof(timeout));
	if (keys && *keys) {
		dkim_query_t q = DKIM_QUERY_FILE;

		if (dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_QUERYMETHOD,
				 &q, sizeof(q)) != DKIM_STAT_OK ||
		    dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_QUERYINFO,
				 (void *)keys, strlen(keys)) != DKIM_STAT_OK) {
			*why = xstrdup("cannot use dkim.keyFile");
			dkim_close(lib);
			return NULL;
		}
	}
	return lib;
}

/*
 * RFC 8301: rsa-sha1 must not be trusted, whether or not it verifies
 * (forging it is within reach); an unknown algorithm is no better.
 * NULL for rsa-sha256 and ed25519-sha256, else the algorithm's name.
 */
static const char *weak_alg(DKIM_SIGINFO *sig)
{
	dkim_alg_t alg = DKIM_SIGN_UNKNOWN;

	if (dkim_sig_getsignalg(sig, &alg) != DKIM_STAT_OK)
		return "an unknown algorithm";
	if (alg == DKIM_SIGN_RSASHA256 || alg == DKIM_SIGN_ED25519SHA256)
		return NULL;
	return alg == DKIM_SIGN_RSASHA1 ? "rsa-sha1" : "an unknown algorithm";
}

/*
 * The first signature that passes, aligns and signs the headers of
 * need; sets *sig_b for it, or *why otherwise.
 */
static int check_sigs(DKIM *dkim, const char *from_domain,
		      const char *const *need, char **sig_b, char **why)
{
	DKIM_SIGINFO **sigs = NULL;
	int nsigs = 0, i;

	if (dkim_getsiglist(dkim, &sigs, &nsigs) != DKIM_STAT_OK ||
	    !nsigs) {
		*why = xstrdup("no DKIM signature");
		return 0;
	}
	for (i = 0; i < nsigs; i++) {
		const char *d = (const char *)dkim_sig_getdomain(sigs[i]);
		const char *weak = weak_alg(sigs[i]);
		const char *h, *missing;
		char *b;

		if (weak) {
			if (!*why)
				*why = xasprintf("DKIM signature of %s uses %s, refused (RFC 8301: only rsa-sha256 and ed25519)",
						 d ? d : "?", weak);
			continue;
		}
		if (!DKIM_SIG_CHECK(sigs[i])) {
			if (!*why)
				*why = xasprintf("DKIM signature of %s does not verify (%s)",
						 d ? d : "?",
						 dkim_sig_geterrorstr(
						 dkim_sig_geterror(sigs[i])) ?:
						 "bad body hash");
			continue;
		}
		if (dkim_sig_gettagvalue(sigs[i], false, (u_char *)"l")) {
			if (!*why)
				*why = xasprintf("DKIM signature of %s covers only part of the body (l=)",
						 d);
			continue;
		}
		if (!dkim_aligned(d, from_domain)) {
			if (!*why)
				*why = xasprintf("DKIM signature of %s does not align with the From: domain %s",
						 d, from_domain);
			continue;
		}
		/*
		 * A header the signature does not cover can be added or
		 * changed by anyone on the way: a replayed command with
		 * a new Message-ID or References must not verify.
		 */
		h = (const char *)dkim_sig_gettagvalue(sigs[i], false,
						       (u_char *)"h");
		missing = dkim_unsigned_header(h, need);
		if (missing) {
			if (!*why)
				*why = xasprintf("DKIM signature of %s does not sign the %s: header (h=)",
						 d, missing);
			continue;
		}
		b = sig_b_value(sigs[i]);
		if (!b) {
			if (!*why)
				*why = xasprintf("DKIM signature of %s has no b= value",
						 d);
			continue;
		}
		free(*why);
		*why = NULL;
		if (sig_b)
			*sig_b = b;
		else
			free(b);
		return 1;
	}
	return 0;
}

int dkim_check(const char *mail, size_t len, const char *from_domain,
	       const char *const *need, char **sig_b, char **why_out)
{
	DKIM_LIB *lib;
	DKIM *dkim;
	DKIM_STAT st;
	char *why = NULL;
	int ret = -1;

	if (sig_b)
		*sig_b = NULL;
	lib = open_lib(&why);
	if (!lib)
		goto out;
	dkim = dkim_verify(lib, (const u_char *)"sched-bot", NULL, &st);
	if (!dkim) {
		why = xasprintf("DKIM: %s", dkim_getresultstr(st));
		dkim_close(lib);
		goto out;
	}
	ret = 0;
	st = dkim_chunk(dkim, (u_char *)mail, len);
	if (st == DKIM_STAT_OK)
		st = dkim_chunk(dkim, NULL, 0);
	if (st == DKIM_STAT_OK || st == DKIM_STAT_NOSIG) {
		/* eom fails when the chosen signature fails; look at all */
		dkim_eom(dkim, NULL);
		ret = check_sigs(dkim, from_domain, need, sig_b, &why);
	} else if (!why) {
		why = xasprintf("DKIM: %s", dkim_getresultstr(st));
	}
	dkim_free(dkim);
	dkim_close(lib);
out:
	if (why_out)
		*why_out = why ? why : ret ? NULL : xstrdup("no DKIM result");
	else
		free(why);
	return ret;
}
