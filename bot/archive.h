/* SPDX-License-Identifier: GPL-2.0 */
/*
 * archive.h - browse finished jobs: one HTML page per job directory,
 * rendered with cmark from the job's reply (CommonMark that reads as
 * plain text: the tables are indented code blocks, so <pre>), with the
 * job's files a reader repeats it with copied next to it and linked
 * (kernel configs, results.csv, compare.json, the plan, the apply,
 * build and console logs, reproduce.sh) and any SVG plot, a
 * sweep job's instance-scaling curves inline as SVG (plot_svg), and an
 * index.html listing every job, newest first, and the moderators'
 * tally of held reports (moderation.h): released and invalid by target
 * and workloads, the false-alarm rate as people judged it.  With a
 * state, a page per series (series-N.html, N its lineage.h family) lists
 * its versions with their threads and jobs with their pages, and
 * `sched-bot history`'s account (history.h: verdicts, moderation,
 * merges); each job page and the index link to it.  The text of a page
 * quotes strangers: cmark's safe mode drops raw HTML, every link and
 * image of the text is shown as text (its label and <its address>),
 * control characters are '?', and the only links are the bot's own,
 * to its pages, its files and the thread on lore.
 */
#ifndef SCHED_BOT_ARCHIVE_H
#define SCHED_BOT_ARCHIVE_H

struct state;

/*
 * Render every job under jobs_dir into out_dir, the tally from st (NULL:
 * none); returns pages written.
 */
int archive_render(const char *jobs_dir, const char *out_dir,
		   struct state *st);

/*
 * The address of job directory dir's page under base (archive.url),
 * allocated; NULL when base is unset: the reply then links nothing.
 */
char *archive_page_url(const char *base, const char *dir);

#endif
