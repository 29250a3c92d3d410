/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobreply.h - compose the reply of a job that came to an outcome: the
 * template mail-<outcome>.md expanded with what the job directory
 * holds (the quote of the thread, the kernels, the machine, the
 * commands, the tables and verdict, the bisection, the failure's log,
 * the line to reproduce it) and the claims the numbers can carry (a
 * Tested-by only where the mail policy allows one, mailpolicy.h, and
 * under a real bot.email: facts.h), as a mail threaded under the cover
 * letter (reply.h) with the Cc the policy gives it, into
 * dir/reply.eml; the policy's decision is kept in js (mail=).
 */
#ifndef SCHED_BOT_JOBREPLY_H
#define SCHED_BOT_JOBREPLY_H

#include "jobstate.h"

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct jobreply_opts {
	const char *tree_remote;	/* tree.remote: the tree named */
	const char *tree_tarball;	/* tree.tarball: else its file */
	int tree_path_set;		/* tree.path set: no tarball then */
	const char *build_cc;		/* build.cc: no version kept */
	const char *base_config;	/* build.baseConfig */
	const char *bot_name;		/* bot.name */
	const char *bot_email;		/* bot.email */
	int quote_lines;		/* reply.quoteLines */
	const char *signature;		/* reply.signature */
	const char *archive_url;	/* archive.url: the job's page */
};

/* Before any reply: job_reply_write() before it is a bug. */
void jobreply_configure(const struct jobreply_opts *o);

/*
 * Write dir/reply.eml for the job js describes and set js->reply_msgid
 * to its Message-ID.  A reply already composed (before a crash: the
 * file there, js->reply_msgid set) is kept as it is.  Returns 0, or -1
 * or EXIT_FAIL with an error printed (no outcome, no thread, no
 * template).
 */
int job_reply_write(const char *dir, struct job_state *js);

/*
 * Why the numbers of the job in dir (its state js) cannot vouch for
 * its kernel, in a few words ("identical binaries, nothing measured",
 * "measured under emulation (TCG)", "too noisy to call", "a regression
 * of one code layout only"): its reply then carries no Tested-by.  NULL
 * when they can (bot.email aside).  Needs no jobreply_configure().
 */
const char *job_reply_unvouched(const char *dir, struct job_state *js);

#endif
