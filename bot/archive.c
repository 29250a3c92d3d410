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
#include "jobstate.h"
#include "mbox.h"
#include "plot.h"
#include "reply.h"
#include "samples.h"
#include "secret.h"
#include "status.h"
#include "util.h"

struct page {
	char *name;		/* the job directory's name */
	char *subject;
	char *outcome;
	char *stage;
	long long mtime;
};

static const char style[] =
"<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;"
"padding:0 1em}pre{background:#f6f6f6;padding:.5em;overflow-x:auto}"
"table{border-collapse:collapse}td,th{padding:.2em .8em;"
"border-bottom:1px solid #ddd;text-align:left}"
".regression{color:#b00}.tested{color:#070}</style>\n";

static int copy_file(const char *src, const char *dst)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (strbuf_read_file(&sb, src) >= 0)
		ret = secret_write_file(dst, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

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

static int render_job(const char *jobs_dir, const char *name,
		      const char *out_dir, struct page *pg)
{
	static const char *const raw[] = {
		"results.csv", "compare.json", "series.json", "reply.eml",
		"plot.svg",
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
	for (i = 0; i < ARRAY_SIZE(raw); i++) {
		char *src = xasprintf("%s/%s", dir, raw[i]);
		char *dst = xasprintf("%s/%s", sub, raw[i]);

		if (!copy_file(src, dst)) {
			strbuf_addstr(&html, "<li><a href=\"");
			strbuf_add_escaped_html(&html, name);
			strbuf_addf(&html, "/%s\">%s</a></li>\n", raw[i],
				    raw[i]);
		}
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
	/*
	 * The report quotes strangers' mail: raw HTML and javascript:,
	 * vbscript:, file: and data: links are dropped (CMARK_OPT_SAFE,
	 * the default since cmark 0.29, said so it stays so), and
	 * CMARK_OPT_UNSAFE is never set.
	 */
	rendered = cmark_markdown_to_html(md.buf, md.len, CMARK_OPT_DEFAULT |
					  CMARK_OPT_SAFE);
	strbuf_addstr(&html, rendered ? rendered : "");
	strbuf_addstr(&html, "</body></html>\n");
	path = xasprintf("%s/%s.html", out_dir, name);
	ret = secret_write_file(path, html.buf, html.len);
	if (ret < 0)
		error("cannot write %s: %s", path, strerror(errno));
	free(path);
out:
	free(rendered);
	free(dir);
	free(sub);
	job_state_release(&js);
	strbuf_release(&md);
	strbuf_release(&html);
	return ret;
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
		if (!render_job(jobs_dir, de->d_name, out_dir, &pages[nr]))
			nr++;
		else {
			free(pages[nr].name);
			free(pages[nr].subject);
			free(pages[nr].outcome);
			free(pages[nr].stage);
		}
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
		free(pages[i].name);
		free(pages[i].subject);
		free(pages[i].outcome);
		free(pages[i].stage);
	}
	strbuf_addstr(&idx, "</table>\n");
	add_tally(st, &idx);
	strbuf_addstr(&idx, "</body></html>\n");
	free(pages);
	path = xasprintf("%s/index.html", out_dir);
	ret = secret_write_file(path, idx.buf, idx.len);
	free(path);
	strbuf_release(&idx);
	return ret < 0 ? -1 : (int)nr;
}
