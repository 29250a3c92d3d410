// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "builtin/config-opts.h"
#include "lore.h"
#include "test.h"
#include "util.h"

#define MID "20241114142810.794657-1-juri.lelli@redhat.com"

static void check_mid(const char *arg, const char *want)
{
	char *got = lore_msgid_from_arg(arg);

	if (!want) {
		if (got)
			printf("#   '%s' gave '%s', expected none\n", arg, got);
		CHECK(!got);
	} else {
		if (!got || strcmp(got, want))
			printf("#   for '%s'\n", arg);
		CHECK_STR(got, want);
	}
	free(got);
}

static void test_msgid_plain(void)
{
	check_mid(MID, MID);
	check_mid("<" MID ">", MID);
	check_mid("  <" MID ">\n", MID);
	check_mid("id:" MID, MID);
	check_mid("mid:" MID, MID);
	check_mid("mid:odd%2Fx@y", "odd/x@y");
	/* a bare id keeps its '%' and '+': only URLs are escaped */
	check_mid("odd/id+x%41=y@example.org", "odd/id+x%41=y@example.org");
	check_mid("<odd/id+x%41=y@example.org>", "odd/id+x%41=y@example.org");
	check_mid("no-at-sign-id", "no-at-sign-id");
	/* a "/" in a message-id is not a URL unless the host is lore's */
	check_mid("20240101.abc/def@host.example",
		  "20240101.abc/def@host.example");
	check_mid("<a.b/c@d>", "a.b/c@d");
}

static void test_msgid_urls(void)
{
	check_mid("https://lore.kernel.org/all/" MID "/", MID);
	check_mid("https://lore.kernel.org/all/" MID, MID);
	check_mid("https://lore.kernel.org/r/" MID, MID);
	check_mid("https://lore.kernel.org/lkml/" MID "/T/#u", MID);
	check_mid("https://lore.kernel.org/lkml/" MID "/t/#r", MID);
	check_mid("https://lore.kernel.org/all/" MID "/t.mbox.gz", MID);
	check_mid("https://lore.kernel.org/all/" MID "/raw", MID);
	check_mid("https://lore.kernel.org/cgroups/" MID "/#r", MID);
	check_mid("http://lore.kernel.org/all/" MID "/?q=x", MID);
	check_mid("https://patch.msgid.link/" MID, MID);
	check_mid("https://lkml.kernel.org/r/" MID, MID);
	check_mid("HTTPS://lore.kernel.org/r/" MID, MID);
	check_mid("lore.kernel.org/all/" MID "/", MID);
	check_mid("lore.kernel.org/r/" MID, MID);
	check_mid("patch.msgid.link/" MID, MID);
	check_mid("LORE.kernel.org/all/" MID "/T/", MID);
	check_mid("http://127.0.0.1:8080/all/" MID "/", MID);
	check_mid("https://lore.kernel.org/all/"
		  "20241114142810.794657-1-juri.lelli%40redhat.com/", MID);
	check_mid("https://lore.kernel.org/all/odd%2Fid+x%2541=y@example.org/",
		  "odd/id+x%41=y@example.org");
	/* no '@': the segment after the list name, or after r/ */
	check_mid("https://lore.kernel.org/lkml/abcdef/T/", "abcdef");
	check_mid("https://lore.kernel.org/r/abcdef", "abcdef");
}

static void test_msgid_none(void)
{
	check_mid(NULL, NULL);
	check_mid("", NULL);
	check_mid("   ", NULL);
	check_mid("<>", NULL);
	check_mid("<a b@c>", NULL);
	check_mid("<abc@def", NULL);
	check_mid("a\tb@c", NULL);
	check_mid("https://lore.kernel.org/", NULL);
	check_mid("https://lore.kernel.org", NULL);
	check_mid("https://lore.kernel.org/all/", NULL);
	check_mid("https://lore.kernel.org/lkml/?q=s:sched", NULL);
	check_mid("https://lore.kernel.org/all/%3Cx%3E@y/", NULL);
	check_mid("https://lore.kernel.org/all/a%20b@c/", NULL);
	check_mid("https://lore.kernel.org/all/a%00b@c/", NULL);
}

static void test_quote(void)
{
	char *q = lore_quote_msgid("odd/id+x%41=y@example.org");

	/* urllib.parse.quote_plus(s, safe='@') */
	CHECK_STR(q, "odd%2Fid%2Bx%2541%3Dy@example.org");
	free(q);
	q = lore_quote_msgid(MID);
	CHECK_STR(q, MID);
	free(q);
	q = lore_quote_msgid("a b~c_d\xc3\xa9@e");
	CHECK_STR(q, "a+b~c_d%C3%A9@e");
	free(q);
}

static void gzip_buf(const char *in, size_t len, struct strbuf *out)
{
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	CHECK_INT(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8,
			       Z_DEFAULT_STRATEGY), Z_OK);
	strbuf_grow(out, deflateBound(&zs, len) + 64);
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)len;
	zs.next_out = (Bytef *)out->buf + out->len;
	zs.avail_out = (uInt)(out->alloc - out->len - 1);
	CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
	strbuf_setlen(out, out->alloc - 1 - zs.avail_out);
	deflateEnd(&zs);
}

static void test_gunzip(void)
{
	struct strbuf text = STRBUF_INIT, gz = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *why;
	size_t i, full;

	for (i = 0; i < 5000; i++)
		strbuf_addf(&text, "From mboxrd@z line %zu\n\nbody %zu\n",
			    i, i * 7919);
	gzip_buf(text.buf, text.len, &gz);
	CHECK_INT(gunzip_mem(gz.buf, gz.len, 1 << 30, &out, &why), 0);
	CHECK_INT(out.len, text.len);
	CHECK(!memcmp(out.buf, text.buf, text.len));
	CHECK_INT(lore_mbox_count(out.buf, out.len), 5000);

	/* every truncation is an error, never a short success */
	full = gz.len;
	for (i = 0; i < full; i += 1 + i / 3) {
		strbuf_reset(&out);
		if (gunzip_mem(gz.buf, i, 1 << 30, &out, &why) != EXIT_FAIL)
			printf("#   truncation at %zu accepted\n", i);
		CHECK(why != NULL);
	}
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(gz.buf, full - 1, 1 << 30, &out, &why),
		  EXIT_FAIL);

	/* a flipped byte in the data or the CRC */
	gz.buf[full / 2] ^= 0x55;
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(gz.buf, full, 1 << 30, &out, &why), EXIT_FAIL);
	gz.buf[full / 2] ^= 0x55;
	gz.buf[full - 6] ^= 1;
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(gz.buf, full, 1 << 30, &out, &why), EXIT_FAIL);
	CHECK_STR(why, "corrupt gzip data");
	gz.buf[full - 6] ^= 1;

	/* over the size limit */
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(gz.buf, full, 1000, &out, &why), EXIT_FAIL);

	/* two members; then trailing garbage */
	gzip_buf("From a\n", 7, &gz);
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(gz.buf, gz.len, 1 << 30, &out, &why), 0);
	CHECK_INT(out.len, text.len + 7);
	strbuf_addstr(&gz, "junk");
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(gz.buf, gz.len, 1 << 30, &out, &why), EXIT_FAIL);

	/* not gzip at all, and empty */
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem(text.buf, text.len, 1 << 30, &out, &why),
		  EXIT_FAIL);
	strbuf_reset(&out);
	CHECK_INT(gunzip_mem("", 0, 1 << 30, &out, &why), EXIT_FAIL);

	strbuf_release(&text);
	strbuf_release(&gz);
	strbuf_release(&out);
}

static void test_mbox_count(void)
{
	const char *m = "From a\nx\n>From b\n\nFrom c\nFrom";

	CHECK_INT(lore_mbox_count(m, strlen(m)), 2);
	CHECK_INT(lore_mbox_count("", 0), 0);
}

int main(void)
{
	struct lore_opts lo;

	TEST_NAME("test-lore");
	/* handed down as the tool does at start-up */
	lore_opts_from_config(&lo);
	lore_configure(&lo);
	RUN(test_msgid_plain);
	RUN(test_msgid_urls);
	RUN(test_msgid_none);
	RUN(test_quote);
	RUN(test_gunzip);
	RUN(test_mbox_count);
	return test_done();
}
