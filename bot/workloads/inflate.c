// SPDX-License-Identifier: GPL-2.0
/*
 * inflate.c - a small gzip decoder for /proc/config.gz.  sched-bench is
 * static and libc-only (it must run as /init of a bare initramfs), so it
 * cannot link zlib; /proc/config.gz is read once per run and is ~30 KB,
 * so a plain bit-at-a-time decoder in the manner of zlib's puff.c is
 * enough.  Returns -1 on any malformed input, never reads out of bounds.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAXBITS 15

struct inf {
	const unsigned char *in;
	size_t inlen, incnt;
	unsigned int bitbuf, bitcnt;
	unsigned char *out;
	size_t outlen, outcnt;
	int err;
};

struct huff {
	short count[MAXBITS + 1];
	short symbol[288];
};

static unsigned int bits(struct inf *s, unsigned int need)
{
	unsigned long val = s->bitbuf;

	while (s->bitcnt < need) {
		if (s->incnt >= s->inlen) {
			s->err = 1;
			return 0;
		}
		val |= (unsigned long)s->in[s->incnt++] << s->bitcnt;
		s->bitcnt += 8;
	}
	s->bitbuf = (unsigned int)(val >> need);
	s->bitcnt -= need;
	return (unsigned int)(val & ((1UL << need) - 1));
}

static int put(struct inf *s, unsigned char c)
{
	if (s->outcnt == s->outlen) {
		size_t n = s->outlen ? 2 * s->outlen : 65536;
		unsigned char *p;

		if (n > (64u << 20))	/* a config is never this big */
			return -1;
		p = realloc(s->out, n);
		if (!p)
			return -1;
		s->out = p;
		s->outlen = n;
	}
	s->out[s->outcnt++] = c;
	return 0;
}

static int stored(struct inf *s)
{
	unsigned int len;

	s->bitbuf = 0;
	s->bitcnt = 0;
	if (s->incnt + 4 > s->inlen)
		return -1;
	len = s->in[s->incnt] | (s->in[s->incnt + 1] << 8);
	if ((s->in[s->incnt + 2] ^ 0xff) != (len & 0xff) ||
	    (s->in[s->incnt + 3] ^ 0xff) != (len >> 8))
		return -1;
	s->incnt += 4;
	if (s->incnt + len > s->inlen)
		return -1;
	while (len--)
		if (put(s, s->in[s->incnt++]))
			return -1;
	return 0;
}

static int decode(struct inf *s, const struct huff *h)
{
	int code = 0, first = 0, index = 0, len, count;

	for (len = 1; len <= MAXBITS; len++) {
		code |= bits(s, 1);
		if (s->err)
			return -1;
		count = h->count[len];
		if (code - count < first)
			return h->symbol[index + (code - first)];
		index += count;
		first += count;
		first <<= 1;
		code <<= 1;
	}
	return -1;
}

/* Build a canonical Huffman table; -1 if over-subscribed. */
static int construct(struct huff *h, const short *length, int n)
{
	short offs[MAXBITS + 1];
	int sym, len, left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (sym = 0; sym < n; sym++)
		h->count[length[sym]]++;
	if (h->count[0] == n)
		return 0;
	for (len = 1; len <= MAXBITS; len++) {
		left <<= 1;
		left -= h->count[len];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (len = 1; len < MAXBITS; len++)
		offs[len + 1] = offs[len] + h->count[len];
	for (sym = 0; sym < n; sym++)
		if (length[sym])
			h->symbol[offs[length[sym]]++] = (short)sym;
	return 0;
}

static const short lbase[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const short lext[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const short dbase[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
	8193, 12289, 16385, 24577 };
static const short dext[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

static int codes(struct inf *s, const struct huff *lencode,
		 const struct huff *distcode)
{
	int sym;

	for (;;) {
		unsigned int len, dist;

		sym = decode(s, lencode);
		if (sym < 0)
			return -1;
		if (sym < 256) {
			if (put(s, (unsigned char)sym))
				return -1;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29)
			return -1;
		len = lbase[sym] + bits(s, lext[sym]);
		sym = decode(s, distcode);
		if (sym < 0 || sym >= 30)
			return -1;
		dist = dbase[sym] + bits(s, dext[sym]);
		if (s->err || dist > s->outcnt)
			return -1;
		while (len--)
			if (put(s, s->out[s->outcnt - dist]))
				return -1;
	}
}

static int fixed(struct inf *s)
{
	static struct huff lencode, distcode;
	static int built;
	short lengths[288];
	int sym;

	if (!built) {
		for (sym = 0; sym < 144; sym++)
			lengths[sym] = 8;
		for (; sym < 256; sym++)
			lengths[sym] = 9;
		for (; sym < 280; sym++)
			lengths[sym] = 7;
		for (; sym < 288; sym++)
			lengths[sym] = 8;
		construct(&lencode, lengths, 288);
		for (sym = 0; sym < 30; sym++)
			lengths[sym] = 5;
		construct(&distcode, lengths, 30);
		built = 1;
	}
	return codes(s, &lencode, &distcode);
}

static int dynamic(struct inf *s)
{
	static const short order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1,
		15 };
	struct huff lencode, distcode;
	short lengths[320];
	int nlen, ndist, ncode, index;

	nlen = bits(s, 5) + 257;
	ndist = bits(s, 5) + 1;
	ncode = bits(s, 4) + 4;
	if (s->err || nlen > 286 || ndist > 30)
		return -1;
	memset(lengths, 0, sizeof(lengths));
	for (index = 0; index < ncode; index++)
		lengths[order[index]] = (short)bits(s, 3);
	if (s->err || construct(&lencode, lengths, 19))
		return -1;
	index = 0;
	while (index < nlen + ndist) {
		int sym = decode(s, &lencode), len = 0, rep;

		if (sym < 0)
			return -1;
		if (sym < 16) {
			lengths[index++] = (short)sym;
			continue;
		}
		if (sym == 16) {
			if (!index)
				return -1;
			len = lengths[index - 1];
			rep = 3 + bits(s, 2);
		} else if (sym == 17) {
			rep = 3 + bits(s, 3);
		} else {
			rep = 11 + bits(s, 7);
		}
		if (s->err || index + rep > nlen + ndist)
			return -1;
		while (rep--)
			lengths[index++] = (short)len;
	}
	if (!lengths[256])
		return -1;
	if (construct(&lencode, lengths, nlen) ||
	    construct(&distcode, lengths + nlen, ndist))
		return -1;
	return codes(s, &lencode, &distcode);
}

int bench_gunzip(const unsigned char *in, size_t len, char **out,
		 size_t *outlen)
{
	struct inf s = { .in = in, .inlen = len };
	size_t p = 10;
	int last, type, rc = 0;

	*out = NULL;
	*outlen = 0;
	if (len < 18 || in[0] != 0x1f || in[1] != 0x8b || in[2] != 8)
		return -1;
	if (in[3] & 4) {			/* FEXTRA */
		if (p + 2 > len)
			return -1;
		p += 2 + (in[p] | (in[p + 1] << 8));
	}
	if (in[3] & 8)				/* FNAME */
		while (p < len && in[p++])
			;
	if (in[3] & 16)				/* FCOMMENT */
		while (p < len && in[p++])
			;
	if (in[3] & 2)				/* FHCRC */
		p += 2;
	if (p >= len)
		return -1;
	s.incnt = p;
	do {
		last = bits(&s, 1);
		type = bits(&s, 2);
		if (s.err)
			rc = -1;
		else if (type == 0)
			rc = stored(&s);
		else if (type == 1)
			rc = fixed(&s);
		else if (type == 2)
			rc = dynamic(&s);
		else
			rc = -1;
	} while (!rc && !last);
	if (rc || s.err || put(&s, '\0')) {
		free(s.out);
		return -1;
	}
	*out = (char *)s.out;
	*outlen = s.outcnt - 1;
	return 0;
}
