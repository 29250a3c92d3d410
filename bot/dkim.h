/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dkim.h - who really sent a mail: a DKIM signature (RFC 6376) that
 * verifies and whose signing domain (d=) aligns with the From: domain
 * (the same domain or a parent of it, as DMARC's relaxed alignment).
 * OpenDKIM's library does the verifying.  Signatures with a body length
 * (l=) do not count: text can be appended after the signed part.  Nor
 * do rsa-sha1 ones (RFC 8301): only rsa-sha256 and ed25519-sha256.
 *
 * Keys come from DNS, or, with dkim.keyFile set, from a text file of
 * "<selector>._domainkey.<domain> <TXT record>" lines (OpenDKIM's file
 * query method, meant for tests and offline checks, never production).
 */
#ifndef SCHED_BOT_DKIM_H
#define SCHED_BOT_DKIM_H

#include <stddef.h>

/* Filled by the tool at start-up. */
struct dkim_opts {
	/* dkim.keyFile: keys from this file rather than DNS (tests) */
	const char *key_file;
};
void dkim_configure(const struct dkim_opts *o);

/*
 * 1 when a signature of mail verifies, aligns with from_domain and
 * signs every header named in need (a NULL-terminated list, or NULL for
 * none: its h= tag must list each), 0 when none does (*why, when not
 * NULL, says why; caller frees), -1 when the verifier cannot run.  On
 * 1, *sig_b (when not NULL) is the b= value of the signature that
 * counted, folding whitespace removed, so that one signature can be
 * recognised in another copy of the mail; caller frees.  Never fails on
 * hostile input.
 */
int dkim_check(const char *mail, size_t len, const char *from_domain,
	       const char *const *need, char **sig_b, char **why);

/*
 * The first header of need (NULL-terminated) that the h= tag value h
 * (colon-separated names, folding whitespace allowed) does not list,
 * compared without case; NULL when h lists them all.
 */
const char *dkim_unsigned_header(const char *h, const char *const *need);

/* Is domain d (a signer) aligned with the From: domain? */
int dkim_aligned(const char *d, const char *from_domain);

#endif
