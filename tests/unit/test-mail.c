// SPDX-License-Identifier: GPL-2.0
/*
 * test-mail.c - mbox splitting, MIME/header decoding, trailers, subjects
 * and series selection, on the real mail in tests/data/intake.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin/config-opts.h"
#include "config.h"
#include "lore.h"
#include "mail.h"
#include "mbox.h"
#include "series.h"
#include "test.h"
#include "trailer.h"
#include "util.h"

#define DATA "tests/data/intake/"

static char *slurp(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0) {
		printf("#   cannot read %s\n", path);
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, len);
}

/* Parse the only message in a file. */
static int parse_file(const char *path, struct mail *m)
{
	size_t len;
	char *raw = slurp(path, &len);
	struct mbox mb;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (!raw)
		return -1;
	if (mbox_split(raw, len, &mb) == 1)
		ret = mail_parse(mb.msgs[0].data, mb.msgs[0].len, m);
	mbox_release(&mb);
	free(raw);
	return ret;
}

static void test_mboxrd_unquote(void)
{
	const char *text =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"Message-ID: <a@x>\nSubject: one\n\n"
		">From the start\n>>From twice\nFrom: not a separator\n"
		">From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"
		"\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\r\n"
		"Message-ID: <b@x>\r\nSubject: two\r\n\r\nbody\r\n\r\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"Message-ID: <a@x>\nSubject: one again\n\nduplicate\n";
	struct mbox mb;

	CHECK_INT(mbox_split(text, strlen(text), &mb), 2);
	CHECK_INT(mb.nr_dups, 1);
	CHECK_STR(mb.msgs[0].msgid, "a@x");
	/* One '>' goes; the pasted format-patch line stays in the body. */
	CHECK(strstr(mb.msgs[0].data, "\n\nFrom the start\n>From twice\n"));
	CHECK(strstr(mb.msgs[0].data, "\nFrom 1234567890abcdef1234567890abcdef12345678 Mon Sep 17"));
	CHECK_STR(mb.msgs[1].msgid, "b@x");
	/* CRLF is folded to LF. */
	CHECK(!strchr(mb.msgs[1].data, '\r'));
	mbox_release(&mb);
	/* every copy, each known by its digest too */
	CHECK_INT(mbox_split_each(text, strlen(text), &mb), 3);
	CHECK_INT(mb.nr_dups, 0);
	CHECK_STR(mb.msgs[2].msgid, "a@x");
	CHECK(strstr(mb.msgs[2].data, "duplicate"));
	{
		char *d0 = mbox_digest(mb.msgs[0].data, mb.msgs[0].len);
		char *d2 = mbox_digest(mb.msgs[2].data, mb.msgs[2].len);
		char *again = mbox_digest(mb.msgs[0].data, mb.msgs[0].len);

		CHECK_INT(strlen(d0), 40);
		CHECK(strcmp(d0, d2) != 0);
		CHECK_STR(again, d0);
		free(d0);
		free(d2);
		free(again);
	}
	mbox_release(&mb);
}

static void test_mboxo_pasted_from(void)
{
	const char *text =
		"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
		"From: A <a@x>\nSubject: [PATCH] a\n\n"
		"To reproduce, apply the mail that starts with\n\n"
		"From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
		"which is pasted here.\n\n"
		"From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001\n"
		"From: B <b@x>\nSubject: [PATCH] b\n\nbody\n";
	struct mbox mb;

	CHECK_INT(mbox_split(text, strlen(text), &mb), 2);
	CHECK(mb.nr == 2 && strstr(mb.msgs[0].data, "pasted here"));
	mbox_release(&mb);
}

static void test_msgid_map(void)
{
	struct msgid_map m = { 0 };
	char *ids[3000];
	size_t i, v;
	int ok = 1;

	for (i = 0; i < 3000; i++) {
		ids[i] = xasprintf("%zu-x@example.org", i);
		msgid_map_put(&m, ids[i], i);
	}
	msgid_map_put(&m, ids[7], 9);
	CHECK_INT(m.nr, 3000);
	for (i = 0; i < 3000; i++)
		ok &= msgid_map_get(&m, ids[i], &v) && v == (i == 7 ? 9 : i);
	CHECK(ok);
	CHECK(!msgid_map_get(&m, "nope@example.org", &v));
	msgid_map_release(&m);
	for (i = 0; i < 3000; i++)
		free(ids[i]);
}

static void test_git_samples(void)
{
	size_t len;
	char *raw = slurp(DATA "git-t5100/sample.mbox", &len);
	struct mbox mb;

	if (!raw) {
		CHECK(0);
		return;
	}
	/* `git mailsplit` finds 18 messages in git's own sample. */
	CHECK_INT(mbox_split(raw, len, &mb), 18);
	mbox_release(&mb);
	free(raw);

	raw = slurp(DATA "git-t5100/sample.mboxrd", &len);
	CHECK_INT(mbox_split(raw, len, &mb), 2);
	if (mb.nr == 2) {
		CHECK(strstr(mb.msgs[0].data, "\n\nFrom the beginning, mbox"));
		CHECK(strstr(mb.msgs[0].data, "\n>From escaped\n"));
		CHECK(strstr(mb.msgs[0].data, "\nFrom not mangled"));
		CHECK(strstr(mb.msgs[1].data, "\n >From unchanged\n"));
		CHECK(strstr(mb.msgs[1].data, "intended:\n>From\n"));
	}
	mbox_release(&mb);
	free(raw);
}

static void test_rfc2047(void)
{
	char *s;

	s = mail_decode_header("=?ISO8859-1?Q?Olle_J=E4rnefors?=");
	CHECK_STR(s, "Olle J\xc3\xa4rnefors");
	free(s);
	s = mail_decode_header("=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=");
	CHECK_STR(s, "ab");
	free(s);
	s = mail_decode_header("=?UTF-8?B?6LW15bCP5by6?= <x@y>");
	CHECK(starts_with(s, "\xe8\xb5\xb5"));
	free(s);
	/* Raw Latin-1 in a header becomes UTF-8, never invalid bytes. */
	s = mail_decode_header("J\xe4rn");
	CHECK_STR(s, "J\xc3\xa4rn");
	free(s);
	/* Broken encoded words stay as they are. */
	s = mail_decode_header("=?bogus?Q?x");
	CHECK_STR(s, "=?bogus?Q?x");
	free(s);
}

static void test_charsets(void)
{
	struct mail m;

	CHECK_INT(parse_file(DATA "single/base64-gb2312-patch.eml", &m), 0);
	CHECK_STR(m.from_name, "\xe8\xb5\xb5\xe5\xb0\x8f\xe5\xbc\xba");
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/gbk-8bit-reply.eml", &m), 0);
	/* "在 2025/10/14 16:15, Ming Lei 写道:" from GBK */
	CHECK(strstr(m.body, "\xe5\x9c\xa8 2025/10/14 16:15, Ming Lei "
			     "\xe5\x86\x99\xe9\x81\x93"));
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/qp-iso2022jp-reply-with-trailer.eml",
			     &m), 0);
	CHECK(strstr(m.body, "\nTested-by: Jun'ichi Nomura <junichi.nomura@nec.com>"));
	CHECK(strstr(m.from_name, "\xe9\x87\x8e\xe6\x9d\x91"));	/* 野村 */
	mail_release(&m);

	/* Lying or unknown charsets: best effort, valid text, no error. */
	CHECK_INT(parse_file(DATA "single/charset-y-malformed-patch.eml", &m), 0);
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);
	CHECK_INT(parse_file(DATA "single/qp-charset-true-malformed-patch.eml",
			     &m), 0);
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);
}

static void test_qp_base64(void)
{
	struct mail m;

	CHECK_INT(parse_file(DATA "single/qp-utf8-patch-with-trailers.eml", &m), 0);
	CHECK(!strstr(m.body, "=3D"));
	CHECK(!strstr(m.body, "=\n"));
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/base64-utf8-patch-with-trailer.eml",
			     &m), 0);
	CHECK(strstr(m.body, "Signed-off-by: "));
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/qp-windows1252-patch.eml", &m), 0);
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);
}

static void test_attachments_signed(void)
{
	struct mail m;

	CHECK_INT(parse_file(DATA "single/multipart-mixed-reply-xpatch-base64-attachment.eml",
			     &m), 0);
	CHECK(m.has_patch_attachment);
	CHECK(strstr(m.body, "diff --git"));
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/multipart-mixed-reply-xdiff-attachment-with-trailer.eml",
			     &m), 0);
	CHECK(m.has_patch_attachment);
	mail_release(&m);

	/* A C reproducer attached as octet-stream is no patch. */
	CHECK_INT(parse_file(DATA "single/multipart-mixed-qp-body-octetstream-attachment.eml",
			     &m), 0);
	CHECK(!m.has_patch_attachment);
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/multipart-signed-mixed-reply-with-reviewed-by.eml",
			     &m), 0);
	CHECK(strstr(m.body, "\nReviewed-by: Harry Yoo (Oracle) <harry@kernel.org>"));
	CHECK(!strstr(m.body, "BEGIN PGP SIGNATURE"));
	mail_release(&m);

	CHECK_INT(parse_file(DATA "single/patch-body-contains-gtFrom-line.eml",
			     &m), 0);
	CHECK(strstr(m.body, "\n>From user's standpoint"));
	mail_release(&m);
}

static void test_hostile(void)
{
	struct mail_limits ml;
	static const char nul[] = "Subject: a\0b\nMessage-ID: <n@x>\n\nbo\0dy\n";
	struct strbuf big = STRBUF_INIT;
	struct mail m;
	int i;

	CHECK_INT(mail_parse(nul, sizeof(nul) - 1, &m), 0);
	CHECK(m.body && !strstr(m.body, "bo\ndy"));
	mail_release(&m);

	/* A 1 MB header and 2000 nested multiparts: no crash. */
	strbuf_addstr(&big, "Message-ID: <big@x>\nSubject: ");
	for (i = 0; i < 100000; i++)
		strbuf_addstr(&big, "xxxxxxxxx ");
	strbuf_addstr(&big, "\nContent-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 0; i < 2000; i++)
		strbuf_addf(&big, "--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n",
			    i, i + 1);
	CHECK_INT(mail_parse(big.buf, big.len, &m), 0);
	CHECK_STR(m.msgid, "big@x");
	mail_release(&m);
	strbuf_release(&big);

	/* 60000 nested multiparts would overflow libetpan's stack. */
	strbuf_addstr(&big, "Message-ID: <deep@x>\nSubject: deep\n"
		      "Content-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 0; i < 60000; i++)
		strbuf_addf(&big, "--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n",
			    i, i + 1);
	CHECK_INT(mail_parse(big.buf, big.len, &m), 0);
	CHECK_STR(m.msgid, "deep@x");
	CHECK_STR(m.subject, "deep");
	mail_release(&m);
	strbuf_release(&big);

	CHECK(mail_parse("", 0, &m) == -1 || (mail_release(&m), 1));

	/*
	 * Parts nested behind folded, commented Content-Types, few enough
	 * to parse in-process, too deep for the tree check's limit.
	 */
	strbuf_addstr(&big, "Message-ID: <fold@x>\nSubject: fold\n"
		      "Content-Type:\n multipart/mixed (c);\n boundary=x0y\n\n");
	for (i = 0; i < 60; i++)
		strbuf_addf(&big, "--x%dy\nContent-Type: multipart/mixed (%d);"
			    "\n\tboundary=x%dy\n\n\n", i, i, i + 1);
	CHECK_INT(mail_parse(big.buf, big.len, &m), 0);
	CHECK(!m.poison);
	mail_release(&m);
	mail_limits_from_config(&ml);
	ml.max_depth = 10;
	mail_configure(&ml);
	CHECK_INT(mail_parse(big.buf, big.len, &m), 0);
	ml.max_depth = 32;
	mail_configure(&ml);
	CHECK(m.poison && strstr(m.poison, "mail.maxDepth"));
	CHECK_STR(m.msgid, "fold@x");
	CHECK_STR(m.subject, "fold");
	mail_release(&m);
	strbuf_release(&big);

	/* A big plain mail goes through the child and comes back whole. */
	strbuf_addstr(&big, "Message-ID: <long@x>\nSubject: =?utf-8?q?l=C3=A4ng?=\n"
		      "From: \"A U\" <a@x.org>\nReferences: <r1@x> <r2@x>\n"
		      "In-Reply-To: <r2@x>\nDate: Mon, 1 Sep 2025 10:00:00 +0200\n"
		      "\n");
	for (i = 0; i < 40000; i++)
		strbuf_addstr(&big, "a line of text\n");
	CHECK_INT(mail_parse(big.buf, big.len, &m), 0);
	CHECK(!m.poison);
	CHECK_STR(m.msgid, "long@x");
	CHECK_STR(m.subject, "l\xc3\xa4ng");
	CHECK_STR(m.from_name, "A U");
	CHECK_STR(m.from_email, "a@x.org");
	CHECK_STR(m.in_reply_to, "r2@x");
	CHECK_INT(m.nr_refs, 2);
	CHECK_STR(m.refs[1], "r2@x");
	CHECK_INT(m.tz_offset, 120);
	CHECK_INT(strlen(m.body), 40000 * 15);
	mail_release(&m);
	strbuf_release(&big);
}

static void test_trailer_parse(void)
{
	struct trailer t;

	CHECK_INT(trailer_parse("tested-BY: K Prateek Nayak <kprateek.nayak@amd.com>",
				52, &t), 1);
	CHECK_STR(t.tag, "Tested-by");
	CHECK_STR(t.name, "K Prateek Nayak");
	CHECK_STR(t.email, "kprateek.nayak@amd.com");
	CHECK(trailer_from_matches(&t, "K Prateek Nayak", "kprateek.nayak@amd.com"));
	CHECK(trailer_from_matches(&t, "Someone", "KPrateek.Nayak@AMD.com"));
	CHECK(trailer_from_matches(&t, "k prateek nayak", "other@x.org"));
	CHECK(!trailer_from_matches(&t, "Other", "other@amd.com"));
	trailer_release(&t);

	CHECK_INT(trailer_parse("> Tested-by: A <a@b.c>", 21, &t), 0);
	CHECK_INT(trailer_parse("Hello: world and more", 21, &t), 1);
	CHECK(!trailer_is_person(&t));
	trailer_release(&t);
	CHECK_INT(trailer_parse("On Mon, x wrote:", 16, &t), 0);

	CHECK_INT(trailer_parse("Reviewed-by: \"Doe, J\" <j+lkml@x.intel.com> # v2",
				47, &t), 1);
	CHECK_STR(t.name, "Doe, J");
	CHECK_STR(t.email, "j+lkml@x.intel.com");
	/* +extension and one sub-domain level are the same person (b4). */
	CHECK(trailer_from_matches(&t, "", "j@intel.com"));
	trailer_release(&t);

	CHECK_INT(trailer_parse("Acked-by: a@b.org", 17, &t), 1);
	CHECK_STR(t.name, "");
	CHECK_STR(t.email, "a@b.org");
	trailer_release(&t);
}

/* The lines apply's commits and am's mbox share. */
static void test_trailer_lines(void)
{
	static const char *const lines[] = {
		"Signed-off-by: A U Thor <a@x.org>",
		"Tested-by: Bare <bare@x.org>",
		"Reported-by: c@x.org",
		"Suggested-by: No Address",
		"Fixes: 0123456789ab (\"sched: x\")",
	};
	struct trailer t[ARRAY_SIZE(lines)];
	struct strbuf sb = STRBUF_INIT;
	struct lore_opts lo;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++)
		CHECK_INT(trailer_parse(lines[i], strlen(lines[i]), &t[i]), 1);
	/* as written in the patch: kept byte for byte */
	t[0].raw = xstrdup("Signed-off-by:   A U Thor <a@x.org>");
	config_set_override("lore.url", "https://lore.example.org");
	/* handed down as the tool does at start-up */
	lore_opts_from_config(&lo);
	lore_configure(&lo);
	trailer_add_lines(&sb, t, ARRAY_SIZE(lines), "m@x");
	CHECK_STR(sb.buf, "Signed-off-by:   A U Thor <a@x.org>\n"
		  "Tested-by: Bare <bare@x.org>\n"
		  "Reported-by: <c@x.org>\n"
		  "Suggested-by: No Address\n"
		  "Fixes: 0123456789ab (\"sched: x\")\n"
		  "Link: https://lore.example.org/all/m@x/\n");
	/* no message-id, no Link: */
	strbuf_reset(&sb);
	trailer_add_lines(&sb, t + 3, 1, "");
	CHECK_STR(sb.buf, "Suggested-by: No Address\n");
	strbuf_reset(&sb);
	trailer_add_lines(&sb, t, 0, NULL);
	CHECK_STR(sb.buf, "");
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		trailer_release(&t[i]);
	strbuf_release(&sb);
	config_free();
}

static void test_subjects(void)
{
	struct subject_info si;

	subject_parse("Re: [PATCH net-next v2 1/3] sched: foo", &si);
	CHECK(si.reply && si.patch && !si.rfc);
	CHECK_INT(si.version, 2);
	CHECK_INT(si.index, 1);
	CHECK_INT(si.total, 3);
	CHECK_STR(si.prefix, "PATCH net-next v2 1/3");
	CHECK_STR(si.subject, "sched: foo");
	subject_release(&si);

	subject_parse("[RFC][PATCH RESEND v6 0/2] x", &si);
	CHECK(si.rfc && si.resend && si.patch && !si.reply);
	CHECK_INT(si.version, 6);
	CHECK_INT(si.index, 0);
	CHECK_INT(si.total, 2);
	subject_release(&si);

	subject_parse("[net,v2,3/2] y", &si);
	CHECK_INT(si.version, 2);
	CHECK_INT(si.index, 3);
	CHECK_INT(si.total, 2);
	subject_release(&si);

	subject_parse("[PATCHv3] z", &si);
	CHECK(si.patch);
	CHECK_INT(si.version, 3);
	CHECK_STR(si.subject, "z");
	subject_release(&si);

	subject_parse("[PATCH", &si);
	CHECK_STR(si.subject, "[PATCH");
	subject_release(&si);
}

static int series_file(const char *path, int version, struct series *s)
{
	size_t len;
	char *raw = slurp(path, &len);
	int ret;

	if (!raw)
		return -1;
	ret = series_from_mbox(raw, len, version, NULL, s);
	free(raw);
	return ret;
}

static int count_tag(const struct patch *p, const char *tag, const char *email)
{
	size_t i;
	int n = 0;

	for (i = 0; i < p->nr_trailers; i++)
		n += !strcmp(p->trailers[i].tag, tag) &&
		     !strcasecmp(p->trailers[i].email, email);
	return n;
}

static void test_base(void)
{
	struct series s;

	CHECK_INT(series_file(DATA "short-task-wakeup-v3-complete.mbox", 0, &s), 0);
	CHECK_STR(s.base.ref, "v6.1-rc6");
	CHECK(!s.base.commit);
	series_release(&s);

	CHECK_INT(series_file(DATA "cgroups/sched-dl-suspend-v4.mbox", 0, &s), 0);
	CHECK_STR(s.base.commit, "0fed89a961ea851945d23cc35beb59d6e56c0964");
	CHECK_STR(s.base.source, "base-commit");
	series_release(&s);

	/* Prose: "tip:sched/core at commit 238437d88cea", "based on v6.13". */
	{
		const char *t =
			"From: A <a@x>\nSubject: [PATCH 0/1] s\nMessage-ID: <c@x>\n\n"
			"This series is on top of tip:sched/core at commit\n"
			"238437d88cea (\"x\").\n"
			"Also: sched/core at 238437d88cea if you like.\n";
		const char *t2 =
			"From: A <a@x>\nSubject: [PATCH] s\nMessage-ID: <d@x>\n\n"
			"Hello, this is based on v6.13.\n\nSigned-off-by: A <a@x>\n"
			"---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";

		CHECK_INT(series_from_mbox(t, strlen(t), 0, NULL, &s), 0);
		CHECK_STR(s.base.ref, "tip/sched/core");
		series_release(&s);
		CHECK_INT(series_from_mbox(t2, strlen(t2), 0, NULL, &s), 0);
		CHECK_STR(s.base.ref, "v6.13");
		CHECK_STR(s.base.source, "patch text");
		series_release(&s);
	}
}

/* To:/Cc: of the cover (else patch 1): addresses, lower-case, bounded. */
static void test_to_cc(void)
{
	struct strbuf m = STRBUF_INIT;
	struct series s;
	int i;

	CHECK_INT(series_file(DATA "short-task-wakeup-v3-complete.mbox", 0,
			      &s), 0);
	CHECK(s.nr_to_cc > 0);
	for (i = 0; i < (int)s.nr_to_cc; i++)
		if (!strcmp(s.to_cc[i], "linux-kernel@vger.kernel.org"))
			break;
	CHECK(i < (int)s.nr_to_cc);
	series_release(&s);

	strbuf_addstr(&m, "From: A <a@x>\nSubject: [PATCH] s\n"
		      "Message-ID: <e@x>\n"
		      "To: \"Doe, Jane\" <Jane@Example.ORG>, b@y (Bee),\n"
		      " undisclosed-recipients:;,\n"
		      " lists: netdev@vger.kernel.org;\n"
		      "Cc: jane@example.org, not an address, <@x>");
	for (i = 0; i < 3000; i++)
		strbuf_addf(&m, ",\n c%d@example.com", i);
	strbuf_addstr(&m, "\n\nx\n---\ndiff --git a/x b/x\n--- a/x\n"
		      "+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	CHECK_INT(series_from_mbox(m.buf, m.len, 0, NULL, &s), 0);
	CHECK_INT(s.nr_to_cc, SERIES_MAX_ADDRESSES);
	if (s.nr_to_cc >= 4) {
		CHECK_STR(s.to_cc[0], "jane@example.org");
		CHECK_STR(s.to_cc[1], "b@y");
		CHECK_STR(s.to_cc[2], "netdev@vger.kernel.org");
		CHECK_STR(s.to_cc[3], "c0@example.com");
	}
	series_release(&s);
	strbuf_release(&m);
}

static void test_series_rules(void)
{
	struct series s;
	size_t i;

	/* rootdomain v2: 3/2 joins the series, cover trailers fan out. */
	CHECK_INT(series_file(DATA "cgroups/sched-dl-rootdomain-hotplug-v2.mbox",
			      0, &s), 0);
	CHECK_INT(s.version, 2);
	CHECK_INT(s.nr_patches, 3);
	CHECK_INT(s.total, 3);
	CHECK_INT(s.nr_missing, 0);
	for (i = 0; i < s.nr_patches; i++) {
		CHECK_INT(count_tag(&s.patches[i], "Tested-by", "longman@redhat.com"), 1);
		CHECK_INT(count_tag(&s.patches[i], "Reviewed-by", "pauld@redhat.com"), 1);
		CHECK_INT(count_tag(&s.patches[i], "Signed-off-by", "juri.lelli@redhat.com"), 1);
	}
	series_release(&s);

	/* The revert: Vincent's Reviewed-by sits mid-quote; quoted ones do not count. */
	CHECK_INT(series_file(DATA "lkml/revert-sched_move_task/thread-with-tip-bot.mbox",
			      0, &s), 0);
	CHECK_INT(s.nr_patches, 1);
	CHECK_INT(count_tag(&s.patches[0], "Reviewed-by", "vincent.guittot@linaro.org"), 1);
	series_release(&s);

	/* place-deadline: v2 sent in reply to v1; v1's replies stay with v1. */
	CHECK_INT(series_file(DATA "lkml/place-deadline-initial/thread-partial.mbox",
			      0, &s), 0);
	CHECK_INT(s.version, 2);
	CHECK_INT(s.nr_versions, 2);
	CHECK_INT(count_tag(&s.patches[0], "Tested-by", "kprateek.nayak@amd.com"), 1);
	series_release(&s);
	CHECK_INT(series_file(DATA "lkml/place-deadline-initial/thread-partial.mbox",
			      1, &s), 0);
	CHECK_INT(s.version, 1);
	CHECK_INT(count_tag(&s.patches[0], "Tested-by", "kprateek.nayak@amd.com"), 0);
	series_release(&s);
	CHECK_INT(series_file(DATA "lkml/place-deadline-initial/thread-partial.mbox",
			      7, &s), -1);

	/* Missing 2/2. */
	CHECK_INT(series_file(DATA "short-task-wakeup-v3-partial.mbox", 0, &s), 0);
	CHECK_INT(s.nr_missing, 1);
	CHECK_INT(s.missing[0], 2);
	CHECK(s.cover != NULL);
	series_release(&s);
}

/* Every message of every mail file in the corpus parses. */
static int is_mail_file(const char *name)
{
	return ends_with(name, ".mbox") || ends_with(name, ".eml") ||
	       ends_with(name, ".patch") || ends_with(name, "mboxrd") ||
	       ends_with(name, "-mbox") || ends_with(name, ".mbox.template");
}

static void walk_dir(const char *dir, size_t *files, size_t *msgs,
		     size_t *bad)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			walk_dir(path, files, msgs, bad);
		} else if (is_mail_file(de->d_name)) {
			size_t len, i;
			char *raw = slurp(path, &len);
			struct mbox mb;

			(*files)++;
			mbox_split(raw ? raw : "", raw ? len : 0, &mb);
			for (i = 0; i < mb.nr; i++) {
				struct mail m;
				char *hdr = mbox_header(mb.msgs[i].data,
							mb.msgs[i].len,
							"Message-ID");

				(*msgs)++;
				if (mail_parse(mb.msgs[i].data, mb.msgs[i].len,
					       &m)) {
					printf("#   %s: message %zu does not parse\n",
					       path, i);
					(*bad)++;
					free(hdr);
					continue;
				}
				if (hdr && strchr(hdr, '@') && !m.msgid) {
					printf("#   %s: message %zu lost its Message-ID\n",
					       path, i);
					(*bad)++;
				}
				free(hdr);
				mail_release(&m);
			}
			mbox_release(&mb);
			free(raw);
		}
		free(path);
	}
	closedir(d);
}

static void test_corpus_parses(void)
{
	size_t files = 0, msgs = 0, bad = 0;

	walk_dir("tests/data/intake", &files, &msgs, &bad);
	printf("#   %zu files, %zu messages\n", files, msgs);
	CHECK(files > 150);
	CHECK(msgs > 500);
	CHECK_INT(bad, 0);
}

/*
 * A quoted-printable body cut after "=" and one character, in a buffer
 * exactly as long as the mail (no NUL after it): libetpan reads past such
 * an escape, so mail_parse() must not hand it the caller's buffer
 * (ASan in `make check SANITIZE=1` sees the difference).
 */
static void test_qp_cut_escape_unterminated(void)
{
	static const char text[] =
		"From: A <a@example.org>\nMessage-ID: <c@x>\n"
		"Subject: x\nContent-Transfer-Encoding: quoted-printable\n"
		"\nbody =C3=A9\n=\xcd";
	size_t len = sizeof(text) - 1;
	char *exact = xmalloc(len);
	struct mail m;

	memcpy(exact, text, len);
	CHECK_INT(mail_parse(exact, len, &m), 0);
	CHECK_STR(m.msgid, "c@x");
	CHECK(m.body && strstr(m.body, "body \xc3\xa9"));
	mail_release(&m);
	free(exact);
}


/* One splitter serves the reply's recipients and the series' lists. */
static void test_split_addresses(void)
{
	struct mail_addr *a;
	size_t nr;

	nr = mail_split_addresses("\"Doe, J.\" <J@X.org>, b@y.org (Bee, B),"
				  " lkml: c@z.org, d@w.org;, nope, @x, "
				  "\"q\\\"u, o\" <q@t.org>", 0, &a);
	CHECK_INT(nr, 5);
	CHECK_STR(a[0].text, "\"Doe, J.\" <J@X.org>");
	CHECK_STR(a[0].email, "j@x.org");
	CHECK_STR(a[1].email, "b@y.org");
	CHECK_STR(a[2].email, "c@z.org");
	CHECK_STR(a[3].email, "d@w.org");
	CHECK_STR(a[4].email, "q@t.org");
	mail_free_addresses(a, nr);
	CHECK_INT(mail_split_addresses("a@b.c, d@e.f, g@h.i", 2, &a), 2);
	mail_free_addresses(a, 2);
	CHECK_INT(mail_split_addresses(NULL, 0, &a), 0);
	CHECK(!a);
}
int main(void)
{
	TEST_NAME("test-mail");
	RUN(test_qp_cut_escape_unterminated);
	RUN(test_mboxrd_unquote);
	RUN(test_mboxo_pasted_from);
	RUN(test_git_samples);
	RUN(test_msgid_map);
	RUN(test_rfc2047);
	RUN(test_charsets);
	RUN(test_qp_base64);
	RUN(test_attachments_signed);
	RUN(test_hostile);
	RUN(test_trailer_parse);
	RUN(test_trailer_lines);
	RUN(test_subjects);
	RUN(test_base);
	RUN(test_to_cc);
	RUN(test_split_addresses);
	RUN(test_series_rules);
	RUN(test_corpus_parses);
	return test_done();
}
