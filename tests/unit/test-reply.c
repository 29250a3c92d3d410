// SPDX-License-Identifier: GPL-2.0
/*
 * test-reply.c - composing the reply: templates, wrapping, threading
 * headers, Cc trimming, encodings, the Tested-by line.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "config.h"
#include "mail.h"
#include "mbox.h"
#include "reply.h"
#include "templates.h"
#include "test.h"
#include "util.h"

static const char *data_file(const char *name)
{
	static char path[4096];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/data/bot/%s",
		 top ? top : ".", name);
	return path;
}

/* As the tool does at start-up. */
static void configure(void)
{
	struct tmpl_dirs td;
	struct reply_opts ro;

	tmpl_dirs_from_config(&td);
	tmpl_configure(&td);
	reply_opts_from_config(&ro);
	reply_configure(&ro);
}

/* An override as the tool would hand it down: read at the top again. */
static void set(const char *key, const char *value)
{
	config_set_override(key, value);
	configure();
}

static void test_expand(void)
{
	struct kv v = { 0 };
	struct strbuf out = STRBUF_INIT;

	kv_set(&v, "name", "Chen Yu");
	kv_set(&v, "empty", "");
	CHECK_INT(reply_expand("Hello {{name}}, {{missing}}!\n"
			       "{{#if name}}\nyes\n{{else}}\nno\n{{/if}}\n"
			       "{{#if empty}}\nE\n{{else}}\nnot E\n{{/if}}\n",
			       &v, &out), 0);
	CHECK_STR(out.buf, "Hello Chen Yu, !\nyes\nnot E\n");
	strbuf_reset(&out);
	CHECK(reply_expand("{{#if name}}x", &v, &out) < 0);
	strbuf_reset(&out);
	CHECK(reply_expand("{{/if}}", &v, &out) < 0);
	strbuf_reset(&out);
	CHECK(reply_expand("{{name", &v, &out) < 0);
	strbuf_release(&out);
	kv_release(&v);
}

static void test_wrap(void)
{
	struct strbuf out = STRBUF_INIT;
	const char *p;
	char *line;

	reply_wrap("This is a long line of prose that must be wrapped at "
		   "seventy-two columns because mail readers expect it.\n"
		   "    an indented code line that is much longer than "
		   "seventy-two columns stays as it is\n"
		   "> a quoted line stays too, however long it is, yes "
		   "indeed, really long\n"
		   "- a list item that is long enough to be wrapped onto a "
		   "second line under its text\n", 72, &out);
	for (p = out.buf; *p;) {
		size_t len = strcspn(p, "\n");

		line = strndup(p, len);
		if (line[0] != ' ' && line[0] != '>')
			CHECK(len <= 72);
		free(line);
		p += len + (p[len] == '\n');
	}
	CHECK(strstr(out.buf, "This is a long line of prose that must be "
		     "wrapped at seventy-two columns\nbecause") != NULL);
	CHECK(strstr(out.buf, "    an indented code line that is much longer "
		     "than seventy-two columns stays as it is\n") != NULL);
	/* a paragraph with a long line is refilled as a whole */
	{
		struct strbuf para = STRBUF_INIT;

		reply_wrap("one two three four five six seven eight nine ten "
			   "eleven twelve thirteen fourteen\nfifteen.\n"
			   "\nshort\nlines stay\n", 72, &para);
		CHECK(strstr(para.buf, "\nfifteen.\n") == NULL);
		CHECK(strstr(para.buf, " fifteen.\n\nshort\nlines stay\n"));
		strbuf_release(&para);
	}
	CHECK(strstr(out.buf, "\n  second line") != NULL ||
	      strstr(out.buf, "\n  under") != NULL ||
	      strstr(out.buf, "\n  its") != NULL);
	strbuf_release(&out);
}

/* "name = value" is one unit: no line ends before "=" nor starts at it. */
static void test_wrap_name_value(void)
{
	struct strbuf out = STRBUF_INIT;

	reply_wrap("- spawn lps: -12.4% (higher is better; Welch p = 0.0004, "
		   "Mann-Whitney p = 0.008)\n", 72, &out);
	CHECK_STR(out.buf, "- spawn lps: -12.4% (higher is better; Welch "
		  "p = 0.0004,\n  Mann-Whitney p = 0.008)\n");
	strbuf_reset(&out);
	/* at any width the break falls between units; a symbol of one or
	 * two letters takes the word before it along ("Welch p") */
	reply_wrap("a bb ccc n = 5 and df = 8.5 and x", 12, &out);
	CHECK_STR(out.buf, "a bb\nccc n = 5\nand df = 8.5\nand x\n");
	strbuf_release(&out);
}

static int load_thread(struct reply_thread *t)
{
	struct strbuf mbox = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&mbox, data_file("../intake/short-task-wakeup-v3-partial.mbox")) < 0)
		return -1;
	ret = reply_thread_from_mbox(mbox.buf, mbox.len,
				     "cover.1669862147.git.yu.c.chen@intel.com",
				     t);
	strbuf_release(&mbox);
	return ret;
}

static void test_thread(void)
{
	struct reply_thread t;
	struct strbuf mbox = STRBUF_INIT, q = STRBUF_INIT;

	CHECK_INT(load_thread(&t), 0);
	CHECK_STR(t.subject, "[PATCH v3 0/2] sched/fair: Choose the CPU where "
		  "short task is running during wake up");
	CHECK_STR(t.author_name, "Chen Yu");
	CHECK(strstr(t.cc, "linux-kernel@vger.kernel.org") != NULL);
	reply_quote(&t, 3, &q);
	CHECK(starts_with(q.buf, "On Thu,  1 Dec 2022 16:43:46 +0800, "
			  "Chen Yu wrote:\n> The main purpose"));
	CHECK(strstr(q.buf, "> [...]\n") != NULL);
	CHECK(strstr(q.buf, "inhibits") == NULL);
	reply_thread_release(&t);

	CHECK(strbuf_read_file(&mbox,
			       data_file("../intake/short-task-wakeup-v3-partial.mbox")) > 0);
	CHECK_INT(reply_thread_from_mbox(mbox.buf, mbox.len, "nope@x", &t),
		  EXIT_NOTFOUND);
	strbuf_release(&mbox);
	strbuf_release(&q);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_compose(void)
{
	struct reply_thread t;
	struct strbuf out = STRBUF_INIT;
	char *msgid = NULL, *from = NULL, **rcpts = NULL, *h;
	const char *p;
	int n, i;

	set("bot.name", "Sched Bot");
	set("bot.email", "bot@sched-bot.example.org");
	set("reply.cc", "all");
	CHECK_INT(load_thread(&t), 0);
	CHECK_INT(reply_compose(&t, "Hello Chen Yu,\n\nAll good.\n\n"
				"Tested-by: Sched Bot "
				"<bot@sched-bot.example.org>\n",
				&out, &msgid), 0);
	CHECK(starts_with(out.buf, "From: Sched Bot "
			  "<bot@sched-bot.example.org>\n"));
	CHECK(strstr(out.buf, "\nTo: Chen Yu <yu.c.chen@intel.com>\n") != NULL);
	h = mbox_header(out.buf, out.len, "Subject");
	CHECK_STR(h, "Re: [PATCH v3 0/2] sched/fair: Choose the CPU where "
		  "short task is running during wake up");
	free(h);
	CHECK(strstr(out.buf, "\nIn-Reply-To: "
		     "<cover.1669862147.git.yu.c.chen@intel.com>\n") != NULL);
	CHECK(strstr(out.buf, "\nReferences: "
		     "<cover.1669862147.git.yu.c.chen@intel.com>\n") != NULL);
	CHECK(strstr(out.buf, "\nContent-Type: text/plain; charset=utf-8\n"));
	CHECK(strstr(out.buf, "\nContent-Transfer-Encoding: 8bit\n"));
	CHECK(msgid && strstr(msgid, "@sched-bot.example.org"));
	CHECK(msgid && strlen(msgid) > 15 && msgid[14] == '.');
	h = mbox_header(out.buf, out.len, "Message-ID");
	CHECK(h && msgid && strstr(h, msgid));
	free(h);
	/* the author is To, not Cc; the list is Cc; no header line > 78 */
	h = mbox_header(out.buf, out.len, "Cc");
	CHECK(h && strstr(h, "linux-kernel@vger.kernel.org"));
	CHECK(h && strstr(h, "peterz@infradead.org"));
	CHECK(h && !strstr(h, "<yu.c.chen@intel.com>"));
	free(h);
	for (p = out.buf; *p && *p != '\n';) {
		size_t len = strcspn(p, "\n");

		CHECK(len <= 78);
		p += len + 1;
	}
	CHECK(strstr(out.buf, "\n\nHello Chen Yu,\n") != NULL);
	CHECK_INT(count(out.buf, "\nTested-by: Sched Bot "
			"<bot@sched-bot.example.org>\n"), 1);
	n = reply_envelope(out.buf, out.len, &from, &rcpts);
	CHECK(n > 10);
	CHECK_STR(from, "bot@sched-bot.example.org");
	for (i = 0; i < n; i++)
		CHECK(strcmp(rcpts[i], "bot@sched-bot.example.org"));
	CHECK_STR(rcpts[0], "yu.c.chen@intel.com");
	reply_free_addresses(rcpts, n);
	free(from);
	free(msgid);

	/* lists only */
	set("reply.cc", "lists");
	strbuf_reset(&out);
	CHECK_INT(reply_compose(&t, "x\n", &out, NULL), 0);
	/* the list first, then the people of the series' trailers */
	h = mbox_header(out.buf, out.len, "Cc");
	CHECK(h && starts_with(h, "linux-kernel@vger.kernel.org, "));
	CHECK(h && strstr(h, "<tim.c.chen@intel.com>"));
	CHECK(h && strstr(h, "<vincent.guittot@linaro.org>"));
	CHECK(h && !strstr(h, "peterz@infradead.org"));
	CHECK(h && !strstr(h, "https:"));
	free(h);
	/* at most reply.maxRecipients, the author and the list kept */
	set("reply.maxRecipients", "2");
	strbuf_reset(&out);
	CHECK_INT(reply_compose(&t, "x\n", &out, NULL), 0);
	h = mbox_header(out.buf, out.len, "Cc");
	CHECK_STR(h, "linux-kernel@vger.kernel.org");
	free(h);
	set("reply.cc", "all");
	strbuf_reset(&out);
	CHECK_INT(reply_compose(&t, "x\n", &out, NULL), 0);
	n = reply_envelope(out.buf, out.len, &from, &rcpts);
	CHECK_INT(n, 2);
	CHECK_STR(rcpts[0], "yu.c.chen@intel.com");
	CHECK_STR(rcpts[1], "linux-kernel@vger.kernel.org");
	reply_free_addresses(rcpts, n);
	free(from);
	set("reply.maxRecipients", "20");
	set("reply.cc", "lists");
	set("reply.cc", "none");
	strbuf_reset(&out);
	CHECK_INT(reply_compose(&t, "x\n", &out, NULL), 0);
	CHECK(mbox_header(out.buf, out.len, "Cc") == NULL);
	set("reply.cc", "bogus");
	strbuf_reset(&out);
	CHECK(reply_compose(&t, "x\n", &out, NULL) < 0);
	set("reply.cc", "all");
	reply_thread_release(&t);
	strbuf_release(&out);
}

static void test_encodings(void)
{
	struct reply_thread t;
	struct strbuf out = STRBUF_INIT, body = STRBUF_INIT;
	const char *mail =
		"From: =?UTF-8?B?SsO2cmcgUsO2ZGVs?= <joro@example.org>\n"
		"Subject: =?utf-8?q?=5BPATCH=5D_sched=3A_f=C3=BCr?= x\n"
		"Message-ID: <a@b>\n"
		"References: <r1@b>\n  <r2@b>\n"
		"Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"Caf=C3=A9 =\nsoft\n";
	int i;

	set("bot.name", "Bot Ümlaut");
	set("bot.email", "bot@example.org");
	CHECK_INT(reply_thread_from_mail(mail, strlen(mail), &t), 0);
	CHECK_STR(t.author_name, "Jörg Rödel");
	CHECK_STR(t.subject, "[PATCH] sched: für x");
	CHECK_STR(t.body, "Café soft\n");
	for (i = 0; i < 1200; i++)
		strbuf_addch(&body, 'x');
	strbuf_addstr(&body, "\nTested-by: Bot Ümlaut <bot@example.org>\n");
	CHECK_INT(reply_compose(&t, body.buf, &out, NULL), 0);
	CHECK(strstr(out.buf, "\nSubject: =?UTF-8?B?") != NULL);
	CHECK(starts_with(out.buf, "From: =?UTF-8?B?"));
	CHECK(strstr(out.buf, "\nReferences: <r1@b>\n <r2@b>\n <a@b>\n"));
	CHECK(strstr(out.buf, "Content-Transfer-Encoding: quoted-printable"));
	CHECK(strstr(out.buf, "Tested-by: Bot =C3=9Cmlaut <bot@example.org>"));
	{
		const char *p = out.buf;

		while (*p) {
			size_t len = strcspn(p, "\n");

			CHECK(len <= 998);
			p += len + (p[len] == '\n');
		}
	}
	reply_thread_release(&t);
	strbuf_release(&out);
	strbuf_release(&body);
	/* invalid UTF-8 (a run of continuation bytes) still terminates */
	{
		char bad[120];

		strbuf_reset(&out);
		bad[0] = (char)0xc3;
		memset(bad + 1, 0x80, sizeof(bad) - 2);
		bad[sizeof(bad) - 1] = '\0';
		reply_encode_header(bad, &out);
		CHECK(starts_with(out.buf, "=?UTF-8?B?"));
		CHECK(out.len > 150);
		strbuf_release(&out);
	}
	/* hostile: no Message-ID, garbage */
	CHECK(reply_thread_from_mail("garbage", 7, &t) < 0);
	CHECK(reply_thread_from_mail("", 0, &t) < 0);
}

/* A control character but \n and \t anywhere in s. */
static int has_controls(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t') ||
		    *s == 0x7f)
			return 1;
	return 0;
}

/*
 * A thread whose headers carry escapes raw and as RFC 2047 words, one
 * of them a line break that would start a Bcc: of the reply, and whose
 * body, long enough for quoted-printable, carries ESC and "<CR>.<CR>".
 */
static void test_hostile(void)
{
	struct reply_thread t;
	struct strbuf mail = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	char *from = NULL, **rcpts = NULL, *h, *dec;
	int n, i;

	strbuf_addstr(&mail,
		"From: Chen\033]0;owned\007 Yu <yu@example.org>\n"
		"Cc: =?UTF-8?B?TWFsG101MjtjO2NIZHUHbG9yeQ==?= "
		"<mallory@evil.example>, Plain Name <p@example.org>,\n"
		" =?UTF-8?X?Mal=1B?= <m2@evil.example>\n"
		"Subject: =?utf-8?q?=5BPATCH=5D_x=0ABcc:_victim@evil.example"
		"=1B]0;t=07?=\n"
		"Message-ID: <a@b>\n"
		"Date: Mon, 1 Jan 2024 00:00:00 +0000\n\nbody\n");
	set("bot.name", "Sched Bot");
	set("bot.email", "bot@example.org");
	set("reply.cc", "all");
	CHECK_INT(reply_thread_from_mail(mail.buf, mail.len, &t), 0);
	strbuf_addstr(&body, "a\033[2Jb\r.\r\n");
	for (i = 0; i < 1200; i++)
		strbuf_addch(&body, 'x');
	strbuf_addch(&body, '\n');
	CHECK_INT(reply_compose(&t, body.buf, &out, NULL), 0);
	CHECK(!has_controls(out.buf));
	CHECK(strstr(out.buf, "Content-Transfer-Encoding: quoted-printable"));
	CHECK(strstr(out.buf, "\n\na?[2Jb?.?\n"));
	h = strstr(out.buf, "\n\n");
	CHECK(h && !strstr(h, "=1B") && !strstr(h, "=0D"));
	CHECK(mbox_header(out.buf, out.len, "Bcc") == NULL);
	h = mbox_header(out.buf, out.len, "Subject");
	dec = h ? mail_decode_header(h) : NULL;
	CHECK(dec && !strchr(dec, '\n') && !has_controls(dec));
	CHECK(dec && strstr(dec, "Bcc: victim@evil.example"));
	free(dec);
	free(h);
	h = mbox_header(out.buf, out.len, "To");
	CHECK_STR(h, "\"Chen?]0;owned? Yu\" <yu@example.org>");
	free(h);
	h = mbox_header(out.buf, out.len, "Cc");
	CHECK(h && starts_with(h, "\"Mal?]52;c;cHdu?lory\" "
			       "<mallory@evil.example>, "));
	CHECK(h && strstr(h, "Plain Name <p@example.org>,"));
	/* a word that does not decode is left out, not repeated */
	CHECK(h && ends_with(h, ",\tm2@evil.example") && !strstr(h, "=?"));
	free(h);
	n = reply_envelope(out.buf, out.len, &from, &rcpts);
	CHECK_INT(n, 4);
	for (i = 0; i < n; i++)
		CHECK(strcmp(rcpts[i], "victim@evil.example"));
	reply_free_addresses(rcpts, n > 0 ? n : 0);
	free(from);
	reply_thread_release(&t);
	strbuf_release(&mail);
	strbuf_release(&body);
	strbuf_release(&out);
}

/* The name the author signs with, else the From: name whole. */
static void test_greeting(void)
{
	static const char *const cases[][3] = {
		{ "K Prateek Nayak", "Hi,\n\nNumbers below.\n\nThanks,\n"
		  "Prateek\n", "Prateek" },
		{ "K Prateek Nayak", "Hi,\n\nNumbers below.\n", "K Prateek Nayak" },
		{ "Chen Yu", "Text.\n\nthanks,\nChenyu\n---\n", "Chenyu" },
		{ "Chen Yu", "Thanks,\nthis is a sentence, not a name.\n",
		  "Chen Yu" },
		{ "Chen Yu", "Text.\n---\nRegards,\nSomeone\n", "Chen Yu" },
		{ "dev@kernel.example", "Text.\n", "all" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct reply_thread t = { 0 };
		char *g;

		t.author_name = (char *)cases[i][0];
		t.body = (char *)cases[i][1];
		g = reply_greeting(&t);
		CHECK_STR(g, cases[i][2]);
		free(g);
	}
}

static void test_templates(void)
{
	static const char *const names[] = {
		"tested", "regression", "apply-failed", "build-failed",
		"boot-failed",
		"command-error", "command-quota",
	};
	struct kv v = { 0 };
	size_t i;

	kv_set(&v, "tested_by", "Sched Bot <bot@example.org>");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct strbuf t = STRBUF_INIT, out = STRBUF_INIT;

		CHECK_INT(reply_load_template(names[i], &t), 0);
		CHECK_INT(reply_expand(t.buf, &v, &out), 0);
		if (!strcmp(names[i], "tested"))
			CHECK(strstr(out.buf, "\nTested-by: Sched Bot "
				     "<bot@example.org>\n") != NULL);
		else
			CHECK(strstr(out.buf, "Tested-by") == NULL);
		strbuf_release(&t);
		strbuf_release(&out);
	}
	kv_release(&v);
}

int main(void)
{
	TEST_NAME("test-reply");
	configure();
	RUN(test_expand);
	RUN(test_wrap);
	RUN(test_wrap_name_value);
	RUN(test_thread);
	RUN(test_compose);
	RUN(test_encodings);
	RUN(test_hostile);
	RUN(test_templates);
	RUN(test_greeting);
	config_free();
	return test_done();
}
