// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/am.c - `sched-bot am`: the series as an mbox `git am` applies, each
 * patch with the trailers collected from the thread and a Link: to lore,
 * like `b4 am -t -l`.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "mbox.h"
#include "series.h"
#include "trailer.h"
#include "util.h"

static const char *mbox, *outpath;
static int revision, no_link;

static const char *const am_synopsis[] = {
	"am <msgid|lore URL> -o OUT [--revision N] [--no-link]",
	"am --mbox FILE -o OUT [--revision N] [--no-link]",
	NULL
};

static const struct option_spec am_options[] = {
	OPT_STRING('o', "output", &outpath, "OUT",
		   "the mbox to write ('-' for stdout); required"),
	OPT_STRING('m', "mbox", &mbox, "FILE",
		   "read the thread from FILE instead of lore"),
	OPT_INTEGER(0, "revision", &revision, "N", 1, INT_MAX,
		    "pick revision N instead of the newest (b4's -v N)"),
	OPT_FLAG(0, "no-link", &no_link, "do not add Link: trailers"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc am_doc = {
	.name = "am",
	.summary = "write the series as an mbox for git am, with trailers",
	.synopsis = am_synopsis,
	.text =
"Writes the series (newest revision unless --revision N) as an mbox for\n"
"git am: every patch carries its own trailers, those collected from\n"
"replies and the cover letter, and 'Link: <lore.url>/all/<msgid>/'.  An\n"
"incomplete series is an error (exit 1) naming what is missing.",
	.options = am_options,
};

/* The commit message lines; a line git would take for a separator is quoted. */
static void add_text(struct strbuf *out, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (mbox_is_from_line(p, l))
			strbuf_addch(out, '>');
		strbuf_add(out, p, l);
		strbuf_addch(out, '\n');
		p += l + (nl != NULL);
	}
}

/* One patch as an mbox message. */
static void add_patch(struct strbuf *out, const struct series *s,
		      const struct patch *p, int link)
{
	struct strbuf tr = STRBUF_INIT;

	strbuf_addstr(out, "From git@z Thu Jan  1 00:00:00 1970\n");
	strbuf_addf(out, "From: %s <%s>\n", p->author_name, p->author_email);
	if (*p->date)
		strbuf_addf(out, "Date: %s\n", p->date);
	strbuf_addf(out, "Subject: [%sPATCH", s->rfc ? "RFC " : "");
	if (s->version > 1)
		strbuf_addf(out, " v%d", s->version);
	if (p->total > 1 || s->total > 1)
		strbuf_addf(out, " %d/%d", p->index,
			    p->total ? p->total : s->total);
	strbuf_addf(out, "] %s\n", p->subject);
	strbuf_addf(out, "Message-Id: <%s>\n", p->msgid);
	/* git mailinfo reads 8-bit headers and body in this charset. */
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");
	add_text(out, p->body);
	if (p->nr_trailers || link) {
		if (*p->body)
			strbuf_addch(out, '\n');
		trailer_add_lines(&tr, p->trailers, p->nr_trailers,
				  link ? p->msgid : NULL);
		add_text(out, tr.buf);
		strbuf_release(&tr);
	}
	if (*p->diff) {
		/* git format-patch always separates the notes with "---". */
		if (!starts_with(p->diff, "---"))
			strbuf_addstr(out, "---\n");
		strbuf_addstr(out, p->diff);
		if (out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
	}
	strbuf_addch(out, '\n');
}

int cmd_am(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct series s;
	int ret;
	size_t i;

	argc = parse_options(argc, argv, &am_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc > 1)
		return options_error(&am_doc, "too many arguments");
	if (!argc == !mbox)
		return options_error(&am_doc,
				     "give a message-id or --mbox FILE");
	if (!outpath)
		return options_error(&am_doc, "-o OUT is required");
	if (mbox && need_file(mbox))
		return EXIT_NOTFOUND;
	ret = series_load(argc ? argv[0] : NULL, mbox, revision, &s);
	if (ret)
		return ret;
	if (s.nr_missing) {
		struct strbuf miss = STRBUF_INIT;

		for (i = 0; i < s.nr_missing; i++)
			strbuf_addf(&miss, "%s%d/%d", i ? ", " : "",
				    s.missing[i], s.total);
		error("v%d of '%s' is incomplete: missing %s; nothing written",
		      s.version, s.subject, miss.buf);
		strbuf_release(&miss);
		series_release(&s);
		return EXIT_FAIL;
	}
	for (i = 0; i < s.nr_patches; i++) {
		if (!*s.patches[i].diff) {
			error("%d/%d (%s) carries no diff; nothing written",
			      s.patches[i].index, s.total, s.patches[i].msgid);
			series_release(&s);
			return EXIT_FAIL;
		}
		add_patch(&out, &s, &s.patches[i], !no_link);
	}
	if (!strcmp(outpath, "-")) {
		fwrite(out.buf, 1, out.len, stdout);
		ret = EXIT_OK;
	} else if (write_file_atomic(outpath, out.buf, out.len)) {
		error("cannot write %s", outpath);
		ret = EXIT_FAIL;
	} else {
		info("wrote %zu patch%s of v%d '%s' to %s", s.nr_patches,
		     s.nr_patches == 1 ? "" : "es", s.version, s.subject,
		     outpath);
		ret = EXIT_OK;
	}
	strbuf_release(&out);
	series_release(&s);
	return ret;
}
