// SPDX-License-Identifier: GPL-2.0
/*
 * test-secret.c - every configured secret is found and removed: config
 * values, the password file, the environment, URL userinfo (plain and
 * percent-encoded); children's environments and printed URLs.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/config-opts.h"
#include "config.h"
#include "mail.h"
#include "secret.h"
#include "smtp.h"
#include "subproc.h"
#include "test.h"
#include "util.h"

static char *scrubbed(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, s);
	secret_scrub(&sb);
	return strbuf_detach(&sb, NULL);
}

#define CHECK_SCRUB(in, out) do {					\
		char *s_ = scrubbed(in);				\
		CHECK_STR(s_, out);					\
		free(s_);						\
	} while (0)

/* The configured secrets handed down, as the tool does at start-up. */
static void reconfigure(void)
{
	struct secret_opts o;

	secret_opts_from_config(&o);
	secret_configure(&o);
}

static void test_config_values(void)
{
	char file[] = "/tmp/test-secret.XXXXXX";
	int fd = mkstemp(file);

	CHECK(fd >= 0);
	CHECK(write(fd, "filepass99\n", 11) == 11);
	close(fd);
	config_set_override("smtp.password", "cfgpass42");
	config_set_override("smtp.passwordFile", file);
	config_set_override("lore.url",
			    "https://bob:l%40rePW@lore.example/all/");
	config_set_override("smtp.url", "smtps://mailer:smtpPW77@mx:465");
	reconfigure();
	setenv(SECRET_SMTP_ENV, "envpass1234", 1);

	CHECK_SCRUB("a cfgpass42 b", "a <hidden> b");
	CHECK_SCRUB("filepass99filepass99", "<hidden><hidden>");
	CHECK_SCRUB("x=envpass1234", "x=<hidden>");
	/* userinfo whole, the password alone, and decoded */
	CHECK_SCRUB("https://bob:l%40rePW@lore.example/",
		    "https://<hidden>@lore.example/");
	CHECK_SCRUB("pw l@rePW and l%40rePW", "pw <hidden> and <hidden>");
	CHECK_SCRUB("smtpPW77", "<hidden>");
	CHECK_SCRUB("nothing secret here", "nothing secret here");
	CHECK(secret_contains("..cfgpass42.."));
	CHECK(!secret_contains("cfgpass4"));

	/* a changed config is picked up once handed down */
	config_set_override("smtp.password", "newpass5678");
	CHECK_SCRUB("cfgpass42 newpass5678", "<hidden> newpass5678");
	reconfigure();
	CHECK_SCRUB("cfgpass42 newpass5678", "cfgpass42 <hidden>");
	/* too short to filter without garbling every text */
	config_set_override("smtp.password", "ab");
	reconfigure();
	CHECK_SCRUB("ab cab", "ab cab");

	unlink(file);
	unsetenv(SECRET_SMTP_ENV);
}

static void test_added(void)
{
	secret_add("added-secret");
	CHECK_SCRUB("[added-secret]", "[<hidden>]");
	secret_reset();
	CHECK_SCRUB("[added-secret]", "[added-secret]");
}

static void test_env(void)
{
	CHECK(secret_env_entry(SECRET_SMTP_ENV "=anything"));
	CHECK(secret_env_entry(SECRET_SMTP_ENV));
	CHECK(secret_env_entry("SOME_TOKEN=xx smtpPW77 yy"));
	CHECK(!secret_env_entry("HOME=/root"));
	CHECK(!secret_env_entry(SECRET_SMTP_ENV "X=1"));
}

/* No child sees a secret, whatever it is called or how it got there. */
static void test_child_env(void)
{
	const char *argv[] = { "env", NULL };
	const char *env[] = { "GIVEN=smtpPW77", "PLAIN=ok", NULL };
	struct strbuf out = STRBUF_INIT;
	struct subproc p = {
		.argv = argv, .env = env, .stdin_fd = -1, .log_fd = -1,
		.capture = &out,
	};

	setenv(SECRET_SMTP_ENV, "envpass1234", 1);
	setenv("INNOCENT_NAME", "x-envpass1234-y", 1);
	CHECK_INT(subproc_run(&p), 0);
	CHECK(strstr(out.buf, "PLAIN=ok\n") != NULL);
	CHECK(!strstr(out.buf, "envpass1234"));
	CHECK(!strstr(out.buf, "smtpPW77"));
	CHECK(!strstr(out.buf, SECRET_SMTP_ENV));
	CHECK(!strstr(out.buf, "INNOCENT_NAME"));
	unsetenv(SECRET_SMTP_ENV);
	unsetenv("INNOCENT_NAME");
	strbuf_release(&out);
}

/* The tool takes the password out of its environment, and keeps it. */
static void test_take_env(void)
{
	struct smtp_opts o;

	setenv(SECRET_SMTP_ENV, "takenPW-1234", 1);
	CHECK_STR(secret_take_env(), "takenPW-1234");
	CHECK(!getenv(SECRET_SMTP_ENV));
	CHECK_STR(secret_env_password(), "takenPW-1234");
	smtp_opts_from_config(&o);
	CHECK_STR(o.env_password, "takenPW-1234");
	CHECK_SCRUB("[takenPW-1234]", "[<hidden>]");
}

static void check_mail(const char *mail, const char *why)
{
	struct strbuf sb = STRBUF_INIT;
	int found = mail_check_secrets(mail, strlen(mail), &sb);

	CHECK_INT(found, why != NULL);
	if (why)
		CHECK_STR(sb.buf, why);
	strbuf_release(&sb);
}

/* Reversed, base64 alone and at each offset inside a longer text. */
static void test_forms(void)
{
	const char *kind = "the SMTP password ($" SECRET_SMTP_ENV ")";
	char why[200];

	/* takenPW-1234 reversed; base64 of it, of "x" + it, "xy" + it,
	 * "xyz" + it, each with a byte after it */
	CHECK_SCRUB("a 4321-WPnekat b", "a <hidden> b");
	CHECK_SCRUB("dGFrZW5QVy0xMjM0", "<hidden>");
	CHECK_SCRUB("eHRha2VuUFctMTIzNCE=", "eH<hidden>CE=");
	CHECK_SCRUB("eHl0YWtlblBXLTEyMzQh", "eHl<hidden>Qh");
	CHECK_SCRUB("eHl6dGFrZW5QVy0xMjM0IQ==", "eHl6<hidden>IQ==");
	CHECK_SCRUB("nothing here", "nothing here");

	check_mail("Subject: hi\n\nnothing secret\n", NULL);
	snprintf(why, sizeof(why), "%s, as it is", kind);
	check_mail("Subject: hi\n\nit is takenPW-1234\n", why);
	snprintf(why, sizeof(why), "%s, reversed", kind);
	/* an encoded word, and one split in two */
	check_mail("Subject: =?UTF-8?B?NDMyMS1XUG5la2F0?=\n\nx\n", why);
	check_mail("Subject: =?UTF-8?B?NDMy?=\n =?UTF-8?Q?1-WPnekat?=\n\nx\n",
		   why);
	/* quoted-printable soft line break in the middle */
	check_mail("Subject: hi\n\n4321-WP=\nnekat\n", why);
	snprintf(why, sizeof(why), "%s, base64-encoded", kind);
	/* base64 folded over two lines */
	check_mail("Subject: hi\n\neHl0YWtlbl\nBXLTEyMzQh\n", why);
	secret_reset();
}

static void test_url(void)
{
	char *u = secret_url_public("smtps://user:pw@mx.example:465/x@y");

	CHECK_STR(u, "smtps://mx.example:465/x@y");
	free(u);
	u = secret_url_public("smtp://127.0.0.1:25");
	CHECK_STR(u, "smtp://127.0.0.1:25");
	free(u);
	u = secret_url_public("https://a:b@c@lore.example/");
	CHECK_STR(u, "https://lore.example/");
	free(u);
}

/*
 * A stream scrubbed a piece at a time: a secret across two pieces is
 * found as well as one inside a piece, and the rest comes out as it went
 * in.
 */
static void test_stream(void)
{
	struct strbuf in = STRBUF_INIT, expect = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	static const char secret[] = "stream-secret-77";
	char path[] = "/tmp/test-secret-XXXXXX", *to;
	size_t at[] = { 10, SECRET_SCRUB_PIECE - 5, 2 * SECRET_SCRUB_PIECE - 1,
			2 * SECRET_SCRUB_PIECE + 100 }, i, k = 0;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	secret_add(secret);
	for (i = 0; i < ARRAY_SIZE(at); i++) {
		for (; in.len < at[i]; k++) {
			strbuf_addch(&in, 'a' + k % 26);
			strbuf_addch(&expect, 'a' + k % 26);
		}
		strbuf_addstr(&in, secret);
		strbuf_addstr(&expect, SECRET_MASK);
	}
	strbuf_addstr(&in, "end\n");
	strbuf_addstr(&expect, "end\n");
	CHECK(write_in_full(fd, in.buf, in.len) == 0);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	to = xasprintf("%s.out", path);
	CHECK(secret_write_fd(to, fd) == 0);
	CHECK(strbuf_read_file(&out, to) >= 0);
	CHECK_INT(out.len, expect.len);
	CHECK(out.len == expect.len && !memcmp(out.buf, expect.buf, out.len));
	secret_reset();
	close(fd);
	unlink(path);
	unlink(to);
	free(to);
	strbuf_release(&in);
	strbuf_release(&expect);
	strbuf_release(&out);
}

int main(void)
{
	RUN(test_config_values);
	RUN(test_added);
	RUN(test_env);
	RUN(test_child_env);
	RUN(test_take_env);
	RUN(test_forms);
	RUN(test_url);
	RUN(test_stream);
	return test_done();
}
