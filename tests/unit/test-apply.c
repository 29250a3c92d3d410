// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of apply.c and tree.c on small repositories made with real
 * git.  The patches come from a minimal mbox reader below (test only:
 * the real one is series_from_mbox()), so these tests do not depend on
 * the intake code.
 */
#include <ctype.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "builtin/config-opts.h"
#include "test.h"
#include "tree.h"
#include "util.h"

static char *data_dir;
static char *trash;

static int sh(const char *fmt, ...) PRINTF(1, 2);
static int sh(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	int rc;

	strbuf_addf(&cmd, "cd '%s' && (", trash);
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	strbuf_addstr(&cmd, ") >>sh.log 2>&1");
	rc = system(cmd.buf);
	strbuf_release(&cmd);
	return rc;
}

/* The stdout of a shell command, trimmed. */
static char *sh_out(const char *fmt, ...) PRINTF(1, 2);
static char *sh_out(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;
	FILE *p;
	char buf[4096];
	size_t n;

	strbuf_addf(&cmd, "cd '%s' && ", trash);
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	p = popen(cmd.buf, "r");
	while (p && (n = fread(buf, 1, sizeof(buf), p)) > 0)
		strbuf_add(&out, buf, n);
	if (p)
		pclose(p);
	strbuf_release(&cmd);
	strbuf_trim(&out);
	return strbuf_detach(&out, NULL);
}

/* --- a minimal git format-patch mbox reader, for these tests only --- */

static void parse_from(struct patch *p, const char *v)
{
	const char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (!lt || !gt) {
		p->author_name = xstrdup("");
		p->author_email = xstrdup(v);
		return;
	}
	p->author_name = xstrndup(v, lt - v);
	while (*p->author_name && p->author_name[strlen(p->author_name) - 1]
	       == ' ')
		p->author_name[strlen(p->author_name) - 1] = '\0';
	p->author_email = xstrndup(lt + 1, gt - lt - 1);
}

static void parse_date(struct patch *p, const char *v)
{
	struct tm tm = { 0 };
	const char *end = strptime(v, "%a, %d %b %Y %H:%M:%S", &tm);
	int off = 0;

	p->date = xstrdup(v);
	if (!end)
		return;
	if (sscanf(end, " %d", &off) == 1)
		p->tz_offset = (off / 100) * 60 + (off % 100);
	p->timestamp = timegm(&tm) - p->tz_offset * 60;
}

static int is_trailer(const char *line)
{
	const char *c = line;

	while (*c && (isalnum((unsigned char)*c) || *c == '-'))
		c++;
	return c > line && c[0] == ':' && c[1] == ' ';
}

static void add_trailer(struct patch *p, const char *line)
{
	const char *colon = strchr(line, ':');
	const char *v = colon + 2;
	const char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	struct trailer *t;

	p->trailers = xrealloc(p->trailers, (p->nr_trailers + 1) *
			       sizeof(*p->trailers));
	t = &p->trailers[p->nr_trailers++];
	memset(t, 0, sizeof(*t));
	t->tag = xstrndup(line, colon - line);
	if (lt && gt) {
		t->name = xstrndup(v, lt - v - (lt > v && lt[-1] == ' '));
		t->email = xstrndup(lt + 1, gt - lt - 1);
	} else {
		t->name = xstrdup(v);
		t->email = xstrdup("");
	}
}

/* One message (headers + body), From_ line removed, >From unquoted. */
static void parse_message(struct patch *p, char *msg)
{
	struct strbuf body = STRBUF_INIT, diff = STRBUF_INIT;
	char *line, *save = NULL;
	int in_diff = 0, after_dashes = 0;
	char **lines = NULL;
	size_t nr = 0, alloc = 0, i, end;

	memset(p, 0, sizeof(*p));
	for (line = strtok_r(msg, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* Empty lines arrive as "\x02" (see read_mbox). */
		ALLOC_GROW(lines, nr, alloc);
		lines[nr++] = line;
	}
	for (i = 0; i < nr; i++) {
		line = lines[i];
		if (starts_with(line, "From: "))
			parse_from(p, line + 6);
		else if (starts_with(line, "Date: "))
			parse_date(p, line + 6);
		else if (starts_with(line, "Subject: ")) {
			const char *s = line + 9, *rb = strchr(s, ']');

			if (sscanf(s, "[PATCH %d/%d]", &p->index, &p->total)
			    < 2)
				p->index = p->total = 1;
			p->subject = xstrdup(rb ? rb + 2 : s);
		} else if (!strcmp(line, "\x01"))
			break;	/* end of headers, marked by the caller */
	}
	for (i++; i < nr; i++) {
		line = lines[i];
		if (starts_with(line, "diff --git "))
			in_diff = 1;
		if (in_diff) {
			if (!strcmp(line, "-- "))
				break;
			strbuf_addstr(&diff, strcmp(line, "\x02") ? line : "");
			strbuf_addch(&diff, '\n');
			continue;
		}
		if (!strcmp(line, "---"))
			after_dashes = 1;
		if (!after_dashes) {
			strbuf_addstr(&body, strcmp(line, "\x02") ? line : "");
			strbuf_addch(&body, '\n');
		}
	}
	/* Trailers: the last paragraph of the body, if all trailers. */
	strbuf_trim(&body);
	end = body.len;
	{
		char *start = body.buf;
		char *blank = strstr(body.buf, "\n\n");

		while (blank) {
			start = blank + 2;
			blank = strstr(start, "\n\n");
		}
		if (start != body.buf || is_trailer(body.buf)) {
			char *copy = xstrdup(start), *l, *s2 = NULL;
			int all = 1;

			for (l = strtok_r(copy, "\n", &s2); l;
			     l = strtok_r(NULL, "\n", &s2))
				all &= is_trailer(l);
			free(copy);
			if (all) {
				copy = xstrdup(start);
				for (l = strtok_r(copy, "\n", &s2); l;
				     l = strtok_r(NULL, "\n", &s2))
					add_trailer(p, l);
				free(copy);
				end = start - body.buf;
			}
		}
	}
	strbuf_setlen(&body, end);
	strbuf_trim(&body);
	p->body = strbuf_detach(&body, NULL);
	p->diff = strbuf_detach(&diff, NULL);
	free(lines);
}

static void free_patches(struct patch *ps, size_t n, int array)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < ps[i].nr_trailers; k++) {
			free(ps[i].trailers[k].tag);
			free(ps[i].trailers[k].name);
			free(ps[i].trailers[k].email);
		}
		free(ps[i].trailers);
		free(ps[i].author_name);
		free(ps[i].author_email);
		free(ps[i].date);
		free(ps[i].subject);
		free(ps[i].body);
		free(ps[i].diff);
	}
	if (array)
		free(ps);
}

/*
 * Read an mbox of git format-patch mails into patches (cover letters,
 * i.e. index 0, are skipped).  Empty lines become "\x02" so strtok_r
 * keeps them; the first empty line after headers becomes "\x01".
 */
static size_t read_mbox(const char *path, struct patch **out)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	struct patch *ps = NULL;
	size_t nr = 0;
	char *line, *next;
	int headers = 0;

	CHECK(strbuf_read_file(&sb, path) >= 0);
	for (line = sb.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (starts_with(line, "From ") && (line == sb.buf ||
						   headers == 2)) {
			if (msg.len) {
				ps = xrealloc(ps, (nr + 1) * sizeof(*ps));
				parse_message(&ps[nr], msg.buf);
				if (ps[nr].index)
					nr++;
				else
					free_patches(&ps[nr], 1, 0);
			}
			strbuf_reset(&msg);
			headers = 1;
			continue;
		}
		if (headers == 1 && !*line) {
			strbuf_addstr(&msg, "\x01\n");
			headers = 2;
			continue;
		}
		if (!*line) {
			strbuf_addstr(&msg, "\x02\n");
			continue;
		}
		if (line[0] == '>' && starts_with(line + strspn(line, ">"),
						  "From "))
			line++;
		strbuf_addstr(&msg, line);
		strbuf_addch(&msg, '\n');
	}
	if (msg.len) {
		ps = xrealloc(ps, (nr + 1) * sizeof(*ps));
		parse_message(&ps[nr], msg.buf);
		if (ps[nr].index)
			nr++;
		else
			free_patches(&ps[nr], 1, 0);
	}
	strbuf_release(&msg);
	strbuf_release(&sb);
	*out = ps;
	return nr;
}

/* A patch with just a diff (and a subject). */
static struct patch diff_patch(const char *diff)
{
	struct patch p = { 0 };

	p.index = p.total = 1;
	p.subject = (char *)"test patch";
	p.author_name = (char *)"A U Thor";
	p.author_email = (char *)"author@example.com";
	p.timestamp = 1700000000;
	p.diff = (char *)diff;
	return p;
}

static git_repository *open_repo(const char *name)
{
	git_repository *repo = NULL;
	char *path = xasprintf("%s/%s", trash, name);

	CHECK(tree_open(&repo, path) == 0);
	free(path);
	return repo;
}

/* Apply diff onto rev of repo; returns apply_patches()'s result. */
static int try_diff(git_repository *repo, const char *rev, const char *diff,
		    struct apply_result *r)
{
	struct patch p = diff_patch(diff);

	memset(r, 0, sizeof(*r));
	if (tree_resolve(repo, rev, &r->base) < 0)
		return -2;
	return apply_patches(repo, &p, 1, "sched-bot/test", 1, r);
}

/* ----------------------------------------------------------------- */

/* The b4 sample series, as git am would commit it. */
static void test_b4_series_equals_git_am(void)
{
	struct series s = { 0 };
	struct apply_opts o = { 0 };
	struct apply_result r = { 0 };
	struct patch *ps;
	git_repository *repo;
	size_t n;
	char *mine, *theirs;
	char head[GIT_OID_HEXSZ + 1];

	mine = xasprintf("%s/shazam-git1-just-series.mbox", data_dir);
	n = read_mbox(mine, &ps);
	free(mine);
	CHECK_INT(n, 4);
	CHECK(!sh("git clone -q --bare '%s/../intake/b4/gitdir.bundle' b4.git",
		  data_dir));
	repo = open_repo("b4.git");
	if (!repo)
		return;
	s.subject = (char *)"This is a cover for test series 1";
	s.version = 1;
	s.patches = ps;
	s.nr_patches = n;
	s.total = 4;
	s.base.commit = (char *)"f435c12df7c0ecf20ab8937859e63cddffacabb4";
	CHECK_INT(apply_series(repo, &s, &o, &r), 0);
	CHECK_INT(r.nr_applied, 4);
	CHECK_INT(r.nr_3way, 0);
	CHECK(strstr(r.base_desc, "base-commit") != NULL);
	CHECK_STR(r.branch,
		  "refs/heads/sched-bot/this-is-a-cover-for-test-series-1-v1");
	git_oid_tostr(head, sizeof(head), &r.head);

	/* The same mails through git am (the cover letter skipped). */
	CHECK(!sh("git clone -q b4.git am && cd am && "
		  "git checkout -q f435c12df7c0 && "
		  "awk '/^From mboxrd@git/{n++} n>1' '%s/"
		  "shazam-git1-just-series.mbox' >../series.mbox && "
		  "git -c user.name=x -c user.email=x@y am -q ../series.mbox",
		  data_dir));
	mine = sh_out("cd b4.git && git log --format='%%T %%an <%%ae> %%ad"
		      "%%n%%B' f435c12df7c0..%s", head);
	theirs = sh_out("cd am && git log --format='%%T %%an <%%ae> %%ad"
			"%%n%%B' f435c12df7c0..HEAD");
	CHECK_STR(mine, theirs);
	CHECK(strstr(mine, "Signed-off-by:") != NULL);
	free(mine);
	free(theirs);
	mine = sh_out("cd b4.git && git log -1 --format='%%cn <%%ce>' %s",
		      head);
	CHECK_STR(mine, "sched-bot <sched-bot@localhost>");
	free(mine);
	apply_result_release(&r);
	git_repository_free(repo);
	free_patches(ps, n, 1);
}

/* A small repository: file "f" with lines 1..40, then more history. */
static void make_small_repo(void)
{
	CHECK(!sh("git init -q small && cd small && "
		  "git config user.name T && git config user.email t@t && "
		  "seq 1 40 >f && printf 'x\\n' >g && "
		  "ln -s /tmp link && mkdir d && echo d >d/h && "
		  "git add . && git commit -q -m A && git tag A && "
		  /* B: ten lines on top, so hunks of A move by +10 */
		  "(seq 101 110; seq 1 40) >f && git commit -q -am B && "
		  "git tag B && "
		  /* C: line 15 changed, next to the context of a patch */
		  "git checkout -q A && sed -i 's/^15$/fifteen/' f && "
		  "git commit -q -am C && git tag C && "
		  /* P: the patch, made on A: line 18 changed */
		  "git checkout -q A && sed -i 's/^18$/eighteen/' f && "
		  "git diff >../p18.diff && git checkout -q f && "
		  /* Q: changes line 15 differently: conflicts with C */
		  "sed -i 's/^15$/FIFTEEN/' f && git diff >../p15.diff && "
		  "git checkout -q f && git checkout -q A"));
}

static char *read_trash(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", trash, name);

	CHECK(strbuf_read_file(&sb, path) >= 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

static void test_offsets_and_3way(void)
{
	git_repository *repo;
	struct apply_result r;
	char *p18 = read_trash("p18.diff"), *p15 = read_trash("p15.diff");
	char *out;

	repo = open_repo("small");
	if (!repo)
		return;
	/* The hunk moved by 10 lines: applied strictly, like git apply. */
	CHECK_INT(try_diff(repo, "B", p18, &r), 0);
	CHECK_INT(r.nr_3way, 0);
	apply_result_release(&r);
	out = sh_out("cd small && git show sched-bot/test:f | sed -n 28p");
	CHECK_STR(out, "eighteen");
	free(out);

	/* Context line 15 changed: strict fails, the 3-way merge works. */
	CHECK_INT(try_diff(repo, "C", p18, &r), 0);
	CHECK_INT(r.nr_3way, 1);
	apply_result_release(&r);
	out = sh_out("cd small && git show sched-bot/test:f | "
		     "sed -n '15p;18p' | tr '\\n' ' '");
	CHECK_STR(out, "fifteen eighteen");
	free(out);

	/* Same line changed both ways: a conflict, reported. */
	CHECK_INT(try_diff(repo, "C", p15, &r), -1);
	CHECK_STR(r.fail.file, "f");
	CHECK_INT(r.fail.hunk, 1);
	CHECK(r.fail.hunk_header && starts_with(r.fail.hunk_header, "@@ -"));
	CHECK(r.fail.three_way && strstr(r.fail.three_way, "conflicts in f"));
	CHECK_INT(r.fail.index, 1);
	CHECK_STR(r.fail.subject, "test patch");
	apply_result_release(&r);
	git_repository_free(repo);
	free(p18);
	free(p15);
}

static const char unknown_blob_diff[] =
"diff --git a/f b/f\n"
"index 1234567..89abcde 100644\n"
"--- a/f\n"
"+++ b/f\n"
"@@ -1,3 +1,3 @@\n"
" no\n"
"-such\n"
"+other\n"
" context\n";

static void test_failure_report(void)
{
	git_repository *repo = open_repo("small");
	struct apply_result r;

	if (!repo)
		return;
	CHECK_INT(try_diff(repo, "A", unknown_blob_diff, &r), -1);
	CHECK_STR(r.fail.file, "f");
	CHECK_INT(r.fail.hunk, 1);
	CHECK(r.fail.reason && strstr(r.fail.reason, "hunk 1"));
	CHECK(r.fail.three_way &&
	      strstr(r.fail.three_way, "1234567 of f is not in this tree"));
	apply_result_release(&r);
	git_repository_free(repo);
}

struct hostile {
	const char *what;
	const char *diff;
	const char *expect;	/* in the failure reason */
};

static const struct hostile hostile[] = {
	{ "dotdot",
	  "diff --git a/../evil b/../evil\nnew file mode 100644\n"
	  "index 0000000..e69de29\n--- /dev/null\n+++ b/../evil\n"
	  "@@ -0,0 +1 @@\n+evil\n", "'..'" },
	{ "absolute",
	  "diff --git a//tmp/evil b//tmp/evil\nnew file mode 100644\n"
	  "--- /dev/null\n+++ b//tmp/evil\n@@ -0,0 +1 @@\n+evil\n",
	  "absolute" },
	{ "dotgit",
	  "diff --git a/.git/config b/.git/config\nnew file mode 100644\n"
	  "--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+evil\n",
	  ".git" },
	{ "dotgit-case",
	  "diff --git a/d/.GIT/hooks b/d/.GIT/hooks\nnew file mode 100644\n"
	  "--- /dev/null\n+++ b/d/.GIT/hooks\n@@ -0,0 +1 @@\n+evil\n",
	  ".git" },
	{ "symlink",
	  "diff --git a/link/evil b/link/evil\nnew file mode 100644\n"
	  "--- /dev/null\n+++ b/link/evil\n@@ -0,0 +1 @@\n+evil\n",
	  "symbolic link" },
	{ "symlink-made-by-the-patch",
	  "diff --git a/esc b/esc\nnew file mode 120000\n"
	  "--- /dev/null\n+++ b/esc\n@@ -0,0 +1 @@\n+/etc\n"
	  "\\ No newline at end of file\n"
	  "diff --git a/esc/passwd b/esc/passwd\nnew file mode 100644\n"
	  "--- /dev/null\n+++ b/esc/passwd\n@@ -0,0 +1 @@\n+evil\n",
	  "symbolic link the patch creates" },
	{ "repeated-rename-header",
	  "diff --git a/f b/g\nsimilarity index 80%\nrename from f\n"
	  "rename to g\nrename from f\n", "given twice" },
	{ "binary-without-data",
	  "diff --git a/g b/g\nindex 587be6b..e69de29 100644\n"
	  "Binary files a/g and b/g differ\n", "binary" },
};

static void test_hostile(void)
{
	git_repository *repo = open_repo("small");
	struct apply_result r;
	size_t i;

	if (!repo)
		return;
	CHECK(!sh("cd small && git branch -D sched-bot/test"));
	for (i = 0; i < ARRAY_SIZE(hostile); i++) {
		int rc = try_diff(repo, "A", hostile[i].diff, &r);

		if (rc != -1 || !r.fail.reason ||
		    !strstr(r.fail.reason, hostile[i].expect)) {
			printf("#   %s: rc %d, reason %s\n", hostile[i].what,
			       rc, r.fail.reason ? r.fail.reason : "(none)");
			CHECK(0);
		}
		CHECK(r.branch == NULL);
		apply_result_release(&r);
	}
	/* Nothing written anywhere: no file, no branch. */
	CHECK(!sh("test ! -e evil && test ! -e small/evil && "
		  "test ! -e small/link/evil && test ! -e /tmp/evil"));
	CHECK(sh("cd small && git rev-parse -q --verify sched-bot/test "
		 "2>/dev/null | grep -q ."));
	git_repository_free(repo);
}

/* Renames, mode changes, new and deleted files, complete binaries. */
static void test_file_operations(void)
{
	git_repository *repo;
	struct apply_result r;
	char *diff, *want, *got;

	CHECK(!sh("cd small && git checkout -q A && "
		  "git mv g g2 && chmod +x d/h && git rm -q f && "
		  "echo new >n && printf '\\001\\002\\000bin' >b.bin && "
		  "git add -A && git diff --cached --binary -M >../ops.diff &&"
		  " git commit -q -m ops && git tag OPS && git checkout -q A"));
	diff = read_trash("ops.diff");
	CHECK(strstr(diff, "rename from g") != NULL);
	CHECK(strstr(diff, "GIT binary patch") != NULL);
	repo = open_repo("small");
	if (!repo)
		return;
	CHECK_INT(try_diff(repo, "A", diff, &r), 0);
	apply_result_release(&r);
	want = sh_out("cd small && git rev-parse OPS^{tree}");
	got = sh_out("cd small && git rev-parse sched-bot/test^{tree}");
	CHECK_STR(got, want);
	free(want);
	free(got);
	git_repository_free(repo);
	free(diff);
}

static void test_base_resolution(void)
{
	git_repository *repo = open_repo("small");
	struct series s = { 0 };
	struct apply_opts o = { 0 };
	struct apply_result r = { 0 };
	char hex[GIT_OID_HEXSZ + 1];
	char *want;

	if (!repo)
		return;
	CHECK(!sh("cd small && git tag v6.1.5 B && git tag v6.2 C"));
	/* --base wins */
	o.base = "C";
	s.base.commit = (char *)"0000000000000000000000000000000000000001";
	CHECK_INT(apply_resolve_base(repo, &s, &o, &r), 0);
	CHECK(strstr(r.base_desc, "--base") != NULL);
	/* a base-commit the tree lacks: the free-text base, nearest tag */
	o.base = NULL;
	s.base.ref = (char *)"v6.1-rc6";
	CHECK_INT(apply_resolve_base(repo, &s, &o, &r), 0);
	git_oid_tostr(hex, sizeof(hex), &r.base);
	want = sh_out("cd small && git rev-parse B");
	CHECK_STR(hex, want);
	free(want);
	CHECK(r.base_warning && strstr(r.base_warning, "v6.1-rc6"));
	CHECK(strstr(r.base_desc, "v6.1.5") != NULL);
	/* a known base-commit */
	want = sh_out("cd small && git rev-parse C");
	s.base.commit = want;
	CHECK_INT(apply_resolve_base(repo, &s, &o, &r), 0);
	git_oid_tostr(hex, sizeof(hex), &r.base);
	CHECK_STR(hex, want);
	CHECK(r.base_warning == NULL);
	free(want);
	/* nothing known: the default (HEAD = A), with a warning */
	s.base.commit = (char *)"0123456789abcdef";
	s.base.ref = NULL;
	CHECK_INT(apply_resolve_base(repo, &s, &o, &r), 0);
	CHECK(strstr(r.base_desc, "default") != NULL);
	CHECK(r.base_warning && strstr(r.base_warning, "0123456789ab"));
	o.base = "no-such-ref";
	CHECK_INT(apply_resolve_base(repo, &s, &o, &r), -1);
	apply_result_release(&r);
	git_repository_free(repo);
}

static void test_export(void)
{
	git_repository *repo = open_repo("small");
	char *out;

	if (!repo)
		return;
	{
		char *dir = xasprintf("%s/export", trash);

		CHECK_INT(tree_export(repo, "OPS", dir), 0);
		CHECK_INT(tree_export(repo, "OPS", dir), -1); /* not empty */
		free(dir);
	}
	out = sh_out("cd export && cat n && test -x d/h && echo x && "
		     "test ! -e f && test ! -e .git && cat g2 && "
		     "readlink link");
	CHECK_STR(out, "new\nx\nx\n/tmp");
	free(out);
	git_repository_free(repo);
}

int main(int argc, char **argv)
{
	char *top = xstrdup(argv[0]);
	char tmpl[] = "/tmp/sched-bot-test-apply.XXXXXX";
	struct tree_opts to;
	struct apply_defaults ad;

	(void)argc;
	TEST_NAME("test-apply");
	/* build/tests/unit/test-apply -> the repository's tests/data */
	data_dir = xasprintf("%s/../../../tests/data/apply",
			     dirname(top));
	free(top);
	top = realpath(data_dir, NULL);
	free(data_dir);
	data_dir = top ? top : xstrdup("tests/data/apply");
	top = NULL;
	trash = xstrdup(mkdtemp(tmpl));
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("HOME", trash, 1);
	setenv("TZ", "UTC", 1);
	git_libgit2_init();
	/* handed down as the tool does at start-up */
	tree_opts_from_config(&to);
	tree_configure(&to);
	apply_defaults_from_config(&ad);
	apply_configure(&ad);
	RUN(test_b4_series_equals_git_am);
	make_small_repo();
	RUN(test_offsets_and_3way);
	RUN(test_failure_report);
	RUN(test_hostile);
	RUN(test_file_operations);
	RUN(test_base_resolution);
	RUN(test_export);
	git_libgit2_shutdown();
	if (!test_fail && !getenv("KEEP_TRASH"))
		remove_tree(trash);
	else
		printf("# trash kept: %s\n", trash);
	free(trash);
	free(data_dir);
	free(top);
	return test_done();
}
