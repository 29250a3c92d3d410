// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/series.c - `sched-bot series`: what a thread holds, the way b4
 * sees it (revision, cover, patches, missing ones, trailers, base).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "config.h"
#include "lore.h"
#include "series.h"
#include "util.h"

static const char *mbox;
static int as_json, revision;

static const char *const series_synopsis[] = {
	"series <msgid|lore URL> [--json] [--revision N]",
	"series --mbox FILE [--json] [--revision N]",
	NULL
};

static const struct option_spec series_options[] = {
	OPT_STRING('m', "mbox", &mbox, "FILE",
		   "read the thread from FILE (mbox, mboxrd or one .eml)"),
	OPT_FLAG(0, "json", &as_json, "machine-readable output"),
	OPT_INTEGER(0, "revision", &revision, "N", 1, INT_MAX,
		    "pick revision N instead of the newest (b4's -v N)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc series_doc = {
	.name = "series",
	.summary = "show the patch series selected from a thread",
	.synopsis = series_synopsis,
	.text =
"Reads a thread (from lore, or an mbox file) and prints the series in it:\n"
"the newest revision unless --revision N, its cover letter, patches n/m in\n"
"order, missing ones, the trailers collected from replies (only when the\n"
"reply's From is the trailer's person; cover-letter trailers count for\n"
"every patch) and the base the author named (base-commit:, or text such\n"
"as \"The baseline is v6.1-rc6\"). When the newest revision resends only\n"
"some patches, the others come from the previous one, as b4 does.",
	.options = series_options,
	.notes =
"Exit codes: 1 no series or no such revision, 3 unknown message-id or\n"
"an unreadable --mbox file, 4 lore unreachable.",
};

static void print_json(const struct series *s)
{
	struct strbuf out = STRBUF_INIT;

	series_json(s, &out);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

static void print_prefix(const struct series *s, int index, int total)
{
	print_clean("[%s%sPATCH%s", s->rfc ? "RFC " : "",
	       s->resend ? "RESEND " : "",
	       s->version > 1 ? "" : "");
	if (s->version > 1)
		print_clean(" v%d", s->version);
	if (total > 1 || index == 0)
		print_clean(" %d/%d", index, total);
	print_clean("]");
}

/* b4's terse style: the patches, new trailers with '+', then totals. */
static void print_human(const struct series *s)
{
	size_t i, k, m = 0;

	print_clean("---\n");
	if (s->cover) {
		print_clean("  ");
		print_prefix(s, 0, s->cover->total);
		print_clean(" %s\n", s->cover->subject);
		for (k = 0; k < s->cover->nr_trailers; k++) {
			char *t = trailer_format(&s->cover->trailers[k]);

			print_clean("    + %s (for every patch)\n", t);
			free(t);
		}
	}
	/* the patches are sorted by index: one walk, not one per index */
	i = 0;
	for (int n = 1; n <= s->total; n++) {
		const struct patch *p = NULL;

		while (i < s->nr_patches && s->patches[i].index < n)
			i++;
		if (i < s->nr_patches && s->patches[i].index == n)
			p = &s->patches[i];
		if (!p) {
			print_clean("  ERROR: missing [%d/%d]!\n", n, s->total);
			continue;
		}
		print_clean("  ");
		print_prefix(s, n, p->total ? p->total : s->total);
		print_clean(" %s", p->subject);
		if (p->version != s->version)
			print_clean(" (from v%d, not resent)", p->version);
		print_clean("\n");
		if (!*p->diff)
			print_clean("    (no diff in this message)\n");
		for (k = 0; k < p->nr_trailers; k++) {
			const struct trailer *t = &p->trailers[k];
			char *f;

			if (!t->from_msgid)
				continue;
			f = trailer_format(t);
			print_clean("    + %s\n", f);
			free(f);
		}
	}
	print_clean("---\n");
	print_clean("Total patches: %zu", s->nr_patches);
	if (s->nr_missing) {
		print_clean(" (missing:");
		for (i = 0; i < s->nr_missing; i++)
			print_clean(" %d/%d", s->missing[i], s->total);
		print_clean(")");
	}
	print_clean("\n");
	print_clean("Author: %s <%s>\n", s->author_name, s->author_email);
	printf("Versions seen:");
	for (i = 0; i < s->nr_versions; i++)
		printf(" v%d%s", s->versions[i],
		       s->versions[i] == s->version ? "*" : "");
	printf("\n");
	if (s->base.commit || s->base.ref)
		printf("Base: %s%s%s (from %s)\n",
		       s->base.ref ? s->base.ref : "",
		       s->base.ref && s->base.commit ? " at " : "",
		       s->base.commit ? s->base.commit : "", s->base.source);
	else
		printf("Base: not named\n");
	for (i = 0; i < s->nr_patches; i++)
		m += s->patches[i].nr_trailers;
	if (s->cover) {
		char *l = lore_link(s->cover->msgid);

		printf("Link: %s\n", l);
		free(l);
	} else if (s->nr_patches) {
		char *l = lore_link(s->patches[0].msgid);

		printf("Link: %s\n", l);
		free(l);
	}
}

int cmd_series(int argc, char **argv)
{
	struct series s;
	int ret;

	argc = parse_options(argc, argv, &series_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc > 1)
		return options_error(&series_doc, "too many arguments");
	if (!argc == !mbox)
		return options_error(&series_doc,
				     "give a message-id or --mbox FILE");
	if (mbox && need_file(mbox))
		return EXIT_NOTFOUND;
	ret = series_load(argc ? argv[0] : NULL, mbox, revision, &s);
	if (ret)
		return ret;
	if (as_json)
		print_json(&s);
	else
		print_human(&s);
	series_release(&s);
	return EXIT_OK;
}
