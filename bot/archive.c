// SPDX-License-Identifier: GPL-2.0
/*
 * archive.c - job directories to static HTML (see archive.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmark.h>

#include "archive.h"
#include "lore.h"
#include "compare.h"
#include "history.h"
#include "jobstate.h"
#include "mbox.h"
#include "plot.h"
#include "reply.h"
#include "samples.h"
#include "secret.h"
#include "state.h"
#include "status.h"
#include "util.h"

struct page {
	char *name;		/* the job directory's name */
	char *subject;
	char *outcome;
	char *stage;
	long long mtime;
	long long family;	/* its series in the state's lineage, 0: none */
	int version;
	char *msgid;		/* the version's, for its series page */
};

static const char style[] =
"<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;"
"padding:0 1em}pre{background:#f6f6f6;padding:.5em;overflow-x:auto}"
"table{border-collapse:collapse}td,th{padding:.2em .8em;"
"border-bottom:1px solid #ddd;text-align:left}"
".regression{color:#b00}.tested{color:#070}</style>\n";

/* The body of a mail (after the header), for rendering. */
static const char *mail_body(const char *msg)
{
	const char *p = strstr(msg, "\n\n");

	return p ? p + 2 : msg;
}

/*
 * The instance-scaling curves of a job that got as far as the compare
 * stage (compare.json written), recomputed from its results.csv as the
 * job did, inline as SVG.  Nothing for a job without a sweep.
 */
static void add_sweep_svg(const char *dir, struct strbuf *html)
{
	char *json = xasprintf("%s/compare.json", dir);
	char *csv = xasprintf("%s/results.csv", dir);
	struct sample_set set = { 0 };
	struct compare_opts co;
	struct compare_result cr;
	struct strbuf svg = STRBUF_INIT;

	if (access(json, R_OK) || access(csv, R_OK) ||
	    samples_read_file(csv, &set) < 0)
		goto out;
	compare_opts_init(&co);
	memset(&cr, 0, sizeof(cr));
	if (compare_run(&set, &co, &cr) < 0)
		goto out;
	if (plot_svg(&cr, &svg) > 0)
		strbuf_addf(html, "<h2>Scaling</h2>\n<div class=\"plots\">\n"
			    "%s</div>\n", svg.buf);
	compare_result_release(&cr);
out:
	sample_set_release(&set);
	strbuf_release(&svg);
	free(json);
	free(csv);
}

/*
 * The page's text: the reply, the report, as its CommonMark body; else
 * "No reply yet." and the tables as a code block.
 */
static void page_markdown(const char *dir, struct strbuf *md)
{
	struct strbuf reply = STRBUF_INIT;
	char *path;

	path = xasprintf("%s/reply.eml", dir);
	if (strbuf_read_file(&reply, path) >= 0) {
		char *cte = mbox_header(reply.buf, reply.len,
					 "Content-Transfer-Encoding");

		if (cte && !strcasecmp(cte, "quoted-printable")) {
			strbuf_addstr(md, "    (quoted-printable reply: see "
				      "reply.eml)\n");
		} else {
			strbuf_addstr(md, mail_body(reply.buf));
		}
		free(cte);
	} else {
		char *t = xasprintf("%s/tables.txt", dir);
		struct strbuf tb = STRBUF_INIT;

		strbuf_addstr(md, "No reply yet.\n\n");
		if (strbuf_read_file(&tb, t) >= 0) {
			const char *p = tb.buf;

			while (*p) {
				size_t n = strcspn(p, "\n");

				strbuf_addstr(md, "    ");
				strbuf_add(md, p, n);
				strbuf_addch(md, '\n');
				p += n + (p[n] == '\n');
			}
		}
		strbuf_release(&tb);
		free(t);
	}
	free(path);
	strbuf_release(&reply);
}

/*
 * A link or an image of the mail's CommonMark as text: its label, then
 * where it pointed in <>, unless the label says it already (an
 * autolink).  Every link of the rendered text comes from the text a
 * job quoted (the thread, the build's log, the guest's console): the
 * bot's own links are written around it, to its own files.
 */
static void link_to_text(cmark_node *link)
{
	const char *url = cmark_node_get_url(link);
	cmark_node *child = cmark_node_first_child(link), *text;
	const char *label = child && !cmark_node_next(child) &&
		cmark_node_get_type(child) == CMARK_NODE_TEXT ?
		cmark_node_get_literal(child) : NULL;
	int said = label && url && (!strcmp(label, url) ||
		   (starts_with(url, "mailto:") && !strcmp(label, url + 7)));

	if (url && *url && !said) {
		char *s = xasprintf(" <%s>", url);

		text = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(text, s);
		cmark_node_append_child(link, text);
		free(s);
	}
	while ((child = cmark_node_first_child(link)))
		cmark_node_insert_before(link, child);
	cmark_node_free(link);
}

/*
 * The page's text as HTML: raw HTML dropped (CMARK_OPT_SAFE, the
 * default since cmark 0.29, said so it stays so; CMARK_OPT_UNSAFE is
 * never set), and no link or image at all (link_to_text()): a
 * stranger's https: link is as live as a javascript: one, and an
 * image loads from where they chose when the page is read.
 */
static char *render_text(const char *md, size_t len)
{
	cmark_node *doc = cmark_parse_document(md, len, CMARK_OPT_DEFAULT);
	cmark_node **links = NULL;
	size_t nr = 0, alloc = 0, i;
	cmark_event_type ev;
	cmark_iter *it;
	char *html;

	if (!doc)
		return NULL;
	/* collected first: the iterator forbids changes behind it */
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);

		if (ev == CMARK_EVENT_EXIT &&
		    (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)) {
			ALLOC_GROW(links, nr, alloc);
			links[nr++] = n;
		}
	}
	cmark_iter_free(it);
	/* innermost first (an image inside a link), as they exited */
	for (i = 0; i < nr; i++)
		link_to_text(links[i]);
	free(links);
	html = cmark_render_html(doc, CMARK_OPT_DEFAULT | CMARK_OPT_SAFE);
	cmark_node_free(doc);
	return html;
}

/* OUT_DIR/NAME.html, with the bot's own mode (secret_write_file). */
static int write_page(const char *out_dir, const char *name,
		      const struct strbuf *html)
{
	char *path = xasprintf("%s/%s.html", out_dir, name);
	int ret = secret_write_file(path, html->buf, html->len);

	if (ret < 0)
		error("cannot write %s: %s", path, strerror(errno));
	free(path);
	return ret;
}

static void page_release(struct page *pg)
{
	free(pg->name);
	free(pg->subject);
	free(pg->outcome);
	free(pg->stage);
	free(pg->msgid);
}

static int render_job(const char *jobs_dir, const char *name,
		      const char *out_dir, struct state *st, struct page *pg)
{
	/* what a reader repeats the job with, and its reply */
	static const char *const raw[] = {
		"reproduce.sh", "config-base", "config-patched",
		"config-changes.txt",
		"results.csv", "compare.json", "plan.txt", "series.json",
		"apply.log", "build-base.log", "build-head.log",
		"run-1-base/console.log", "run-1-head/console.log",
		"failure.txt",
		"reply.eml", "plot.svg",
	};
	char *dir = xasprintf("%s/%s", jobs_dir, name);
	char *sub = xasprintf("%s/%s", out_dir, name);
	struct strbuf md = STRBUF_INIT, html = STRBUF_INIT;
	struct job_state js;
	char *path, *rendered = NULL, *link;
	const char *msgid;
	size_t i;
	struct stat stt;
	int ret = -1;

	job_state_init(&js);
	path = xasprintf("%s/state", dir);
	if (job_state_read(&js, path) || stat(path, &stt) < 0) {
		free(path);
		goto out;
	}
	free(path);
	pg->name = xstrdup(name);
	pg->subject = xstrdup(js.subject ? js.subject : "");
	pg->outcome = xstrdup(job_outcome_name(js.outcome));
	pg->stage = xstrdup(job_stage_name(js.stage));
	pg->mtime = (long long)stt.st_mtime;
	msgid = js.cover_msgid ? js.cover_msgid :
		js.msgid ? js.msgid : "";
	pg->msgid = xstrdup(msgid);
	if (st && js.cover_msgid) {
		struct state_version v;

		if (state_version_get(st, js.cover_msgid, &v) > 0) {
			pg->family = v.family;
			pg->version = v.version;
			state_version_release(&v);
		}
	}
	if (mkdir_p(sub, 0755) < 0)
		goto out;

	strbuf_addstr(&html, "<!DOCTYPE html>\n<html><head><meta charset="
		      "\"utf-8\"><title>");
	strbuf_add_escaped_html(&html, *pg->subject ? pg->subject : name);
	strbuf_addf(&html, "</title>\n%s</head><body>\n<p><a href=\""
		    "index.html\">all jobs</a></p>\n<h1>", style);
	strbuf_add_escaped_html(&html, *pg->subject ? pg->subject : name);
	strbuf_addstr(&html, "</h1>\n<ul>\n<li>thread: <a href=\"");
	/* lore_link(): lore.url without the user:password@ it may hold */
	link = lore_link(msgid);
	strbuf_add_escaped_html(&html, link);
	free(link);
	strbuf_addstr(&html, "\">&lt;");
	strbuf_add_escaped_html(&html, msgid);
	strbuf_addstr(&html, "&gt;</a></li>\n<li>outcome: <span class=\"");
	strbuf_add_escaped_html(&html, pg->outcome);
	strbuf_addstr(&html, "\">");
	strbuf_add_escaped_html(&html, *pg->outcome ? pg->outcome : "(none yet)");
	strbuf_addstr(&html, "</span>, stage ");
	strbuf_add_escaped_html(&html, pg->stage);
	strbuf_addstr(&html, "</li>\n");
	if (pg->family)
		strbuf_addf(&html, "<li>series: <a href=\"series-%lld.html\">"
			    "series %lld</a>, v%d</li>\n", pg->family,
			    pg->family, pg->version);
	for (i = 0; i < ARRAY_SIZE(raw); i++) {
		char *src = xasprintf("%s/%s", dir, raw[i]);
		/* a run's console: run-1-head-console.log, one directory */
		char *flat = xstrdup(raw[i]), *c;
		char *dst;

		for (c = flat; (c = strchr(c, '/'));)
			*c = '-';
		dst = xasprintf("%s/%s", sub, flat);
		if (!secret_copy_file(src, dst)) {
			strbuf_addstr(&html, "<li><a href=\"");
			strbuf_add_escaped_html(&html, name);
			strbuf_addf(&html, "/%s\">%s</a></li>\n", flat,
				    raw[i]);
		}
		free(flat);
		free(src);
		free(dst);
	}
	strbuf_addstr(&html, "</ul>\n");
	path = xasprintf("%s/plot.svg", dir);
	if (!access(path, R_OK)) {
		strbuf_addstr(&html, "<p><img src=\"");
		strbuf_add_escaped_html(&html, name);
		strbuf_addstr(&html, "/plot.svg\" alt=\"scaling plot\"></p>\n");
	}
	free(path);
	add_sweep_svg(dir, &html);

	page_markdown(dir, &md);
	/* The report quotes strangers' mail: see render_text(). */
	strbuf_setlen(&md, strip_controls(md.buf, md.len));
	rendered = render_text(md.buf, md.len);
	strbuf_addstr(&html, rendered ? rendered : "");
	strbuf_addstr(&html, "</body></html>\n");
	ret = write_page(out_dir, name, &html);
out:
	free(rendered);
	free(dir);
	free(sub);
	job_state_release(&js);
	strbuf_release(&md);
	strbuf_release(&html);
	return ret;
}

char *archive_page_url(const char *base, const char *dir)
{
	const char *name = strrchr(dir, '/');
	size_t n;

	if (!base || !*base)
		return NULL;
	name = name ? name + 1 : dir;
	n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	return xasprintf("%.*s/%s.html", (int)n, base, name);
}

/* ---- a page per series ---- */

struct series_walk {
	struct state *st;
	struct strbuf *html;
	const struct page *pages;
	size_t nr;
};

static const struct page *page_named(const struct series_walk *w,
				     const char *name)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		if (!strcmp(w->pages[i].name, name))
			return &w->pages[i];
	return NULL;
}

/* A job of a version, linked to its page when this archive has one. */
static int series_job(const struct state_job *row, void *data)
{
	struct series_walk *w = data;
	const char *base = row->job_dir ? strrchr(row->job_dir, '/') : NULL;

	base = base ? base + 1 : row->job_dir;
	strbuf_addstr(w->html, "<li>");
	if (base && page_named(w, base)) {
		strbuf_addstr(w->html, "<a href=\"");
		strbuf_add_escaped_html(w->html, base);
		strbuf_addf(w->html, ".html\">job %lld</a>", row->id);
	} else {
		strbuf_addf(w->html, "job %lld", row->id);
	}
	strbuf_addstr(w->html, ": <span class=\"");
	strbuf_add_escaped_html(w->html, row->outcome ? row->outcome : "");
	strbuf_addstr(w->html, "\">");
	strbuf_add_escaped_html(w->html, row->outcome ? row->outcome :
				"pending");
	strbuf_addstr(w->html, "</span></li>\n");
	return 0;
}

/* A version: its thread on lore, its jobs. */
static int series_version(const struct state_version *v, void *data)
{
	struct series_walk *w = data;
	char *link = lore_link(v->msgid);
	int ret;

	strbuf_addf(w->html, "<li>v%d <a href=\"", v->version);
	strbuf_add_escaped_html(w->html, link);
	strbuf_addstr(w->html, "\">&lt;");
	strbuf_add_escaped_html(w->html, v->msgid);
	strbuf_addstr(w->html, "&gt;</a> ");
	strbuf_add_escaped_html(w->html, v->subject ? v->subject : "");
	strbuf_addstr(w->html, "\n<ul>\n");
	ret = state_version_jobs(w->st, v->msgid, series_job, w);
	strbuf_addstr(w->html, "</ul></li>\n");
	free(link);
	return ret;
}
/*
 * series-N.html: the versions of series N, each linked to its thread,
 * its jobs to their pages, and `sched-bot history`'s account of it all
 * (verdicts, the moderators' decisions, the merges).  pg is a job of
 * the series; a job page of the same name wins.
 */
static int render_series(struct state *st, const char *out_dir,
			 const struct page *pg, const struct page *pages,
			 size_t nr)
{
	struct series_walk w = { st, NULL, pages, nr };
	struct strbuf html = STRBUF_INIT, text = STRBUF_INIT;
	char *name = xasprintf("series-%lld", pg->family);
	int ret = -1;

	if (page_named(&w, name)) {
		warning("archive: a job is named %s: no page for its series",
			name);
		goto out;
	}
	w.html = &html;
	strbuf_addf(&html, "<!DOCTYPE html>\n<html><head><meta charset="
		    "\"utf-8\"><title>series %lld</title>\n%s</head><body>\n"
		    "<p><a href=\"index.html\">all jobs</a></p>\n<h1>Series "
		    "%lld: ", pg->family, style, pg->family);
	strbuf_add_escaped_html(&html, pg->subject);
	strbuf_addstr(&html, "</h1>\n<h2>Versions</h2>\n<ul>\n");
	if (state_family_versions(st, pg->family, series_version, &w) < 0)
		goto out;
	strbuf_addstr(&html, "</ul>\n<h2>History</h2>\n<pre>");
	if (history_format(st, pg->msgid, &text) < 0)
		goto out;
	strbuf_add_escaped_html(&html, text.buf);
	strbuf_addstr(&html, "</pre>\n</body></html>\n");
	ret = write_page(out_dir, name, &html);
out:
	free(name);
	strbuf_release(&html);
	strbuf_release(&text);
	return ret;
}

/* The series of the pages, each once, in the index; their own pages. */
static void add_series(struct state *st, const char *out_dir,
		       const struct page *pages, size_t nr,
		       struct strbuf *idx)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < nr; i++) {
		if (!pages[i].family)
			continue;
		for (j = 0; j < i; j++)
			if (pages[j].family == pages[i].family)
				break;
		if (j < i || render_series(st, out_dir, &pages[i], pages,
					   nr) < 0)
			continue;
		if (!any++)
			strbuf_addstr(idx, "<h2>Series</h2>\n<ul>\n");
		strbuf_addf(idx, "<li><a href=\"series-%lld.html\">series "
			    "%lld</a>: ", pages[i].family, pages[i].family);
		strbuf_add_escaped_html(idx, pages[i].subject);
		strbuf_addstr(idx, "</li>\n");
	}
	if (any)
		strbuf_addstr(idx, "</ul>\n");
}

static int by_mtime(const void *a, const void *b)
{
	const struct page *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void add_cell(struct strbuf *html, const char *v)
{
	strbuf_addstr(html, "<td>");
	strbuf_add_escaped_html(html, v);
	strbuf_addstr(html, "</td>");
}

/* The moderators' tally: what became of the reports held for them. */
static void add_tally(struct state *st, struct strbuf *html)
{
	struct status s = { 0 };
	size_t i;

	if (!st || status_moderation_collect(st, &s) < 0 ||
	    !s.nr_moderation) {
		status_release(&s);
		return;
	}
	strbuf_addstr(html, "<h2>Moderation</h2>\n<table>\n<tr><th>target"
		      "</th><th>workloads</th><th>released</th><th>invalid"
		      "</th><th>held</th><th>expired</th><th>judged false"
		      "</th></tr>\n");
	for (i = 0; i < s.nr_moderation; i++) {
		const struct status_moderation *m = &s.moderation[i];
		long judged = m->released + m->invalid;

		strbuf_addstr(html, "<tr>");
		add_cell(html, m->target);
		add_cell(html, *m->workloads ? m->workloads : "(default)");
		strbuf_addf(html, "<td>%ld</td><td>%ld</td><td>%ld</td>"
			    "<td>%ld</td>", m->released, m->invalid, m->held,
			    m->expired);
		if (judged)
			strbuf_addf(html, "<td>%ld%%</td></tr>\n",
				    m->invalid * 100 / judged);
		else
			strbuf_addstr(html, "<td>-</td></tr>\n");
	}
	strbuf_addstr(html, "</table>\n");
	status_release(&s);
}

int archive_render(const char *jobs_dir, const char *out_dir,
		   struct state *st)
{
	struct page *pages = NULL;
	size_t nr = 0, alloc = 0, i;
	struct strbuf idx = STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(jobs_dir);
	char *path;
	int ret;

	if (!d)
		return error("cannot read %s: %s", jobs_dir, strerror(errno));
	if (mkdir_p(out_dir, 0755) < 0) {
		closedir(d);
		return error("cannot create %s: %s", out_dir,
			     strerror(errno));
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(pages, nr, alloc);
		memset(&pages[nr], 0, sizeof(pages[nr]));
		if (!render_job(jobs_dir, de->d_name, out_dir, st,
				&pages[nr]))
			nr++;
		else
			page_release(&pages[nr]);
	}
	closedir(d);
	if (nr)
		qsort(pages, nr, sizeof(*pages), by_mtime);
	strbuf_addf(&idx, "<!DOCTYPE html>\n<html><head><meta charset="
		    "\"utf-8\"><title>sched-bot jobs</title>\n%s</head>"
		    "<body>\n<h1>sched-bot jobs</h1>\n<table>\n<tr><th>job"
		    "</th><th>series</th><th>outcome</th><th>stage</th></tr>\n",
		    style);
	for (i = 0; i < nr; i++) {
		strbuf_addstr(&idx, "<tr><td><a href=\"");
		strbuf_add_escaped_html(&idx, pages[i].name);
		strbuf_addstr(&idx, ".html\">");
		strbuf_add_escaped_html(&idx, pages[i].name);
		strbuf_addstr(&idx, "</a></td><td>");
		strbuf_add_escaped_html(&idx, pages[i].subject);
		strbuf_addstr(&idx, "</td><td class=\"");
		strbuf_add_escaped_html(&idx, pages[i].outcome);
		strbuf_addstr(&idx, "\">");
		strbuf_add_escaped_html(&idx, pages[i].outcome);
		strbuf_addstr(&idx, "</td><td>");
		strbuf_add_escaped_html(&idx, pages[i].stage);
		strbuf_addstr(&idx, "</td></tr>\n");
	}
	strbuf_addstr(&idx, "</table>\n");
	if (st)
		add_series(st, out_dir, pages, nr, &idx);
	for (i = 0; i < nr; i++)
		page_release(&pages[i]);
	add_tally(st, &idx);
	strbuf_addstr(&idx, "</body></html>\n");
	free(pages);
	path = xasprintf("%s/index.html", out_dir);
	ret = secret_write_file(path, idx.buf, idx.len);
	free(path);
	strbuf_release(&idx);
	return ret < 0 ? -1 : (int)nr;
}
