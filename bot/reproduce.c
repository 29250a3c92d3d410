// SPDX-License-Identifier: GPL-2.0
/*
 * reproduce.c - the reply's "How to reproduce" and reproduce.sh (see
 * reproduce.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts.h"
#include "jobdir.h"
#include "reply.h"
#include "reproduce.h"
#include "samples.h"
#include "workload.h"

/*
 * The length of the unit of a command line at p: a word ("<your
 * machine>" is one), and an option with its argument ("--base <sha>"),
 * so that a broken line starts at an option, never inside a word.
 */
static size_t unit_len(const char *p)
{
	size_t n = *p == '<' ? strcspn(p, ">") + 1 : strcspn(p, " ");
	const char *next = p + n;

	if (*p != '-' || *next != ' ' || next[1] == '-' || !next[1])
		return n;
	next++;
	return n + 1 + (*next == '<' ? strcspn(next, ">") + 1 :
			strcspn(next, " "));
}

/* A command as an indented block, broken at 72 columns with "\". */
static void command_block(const char *cmd, const char *indent,
			  struct strbuf *out)
{
	const char *p = cmd;
	size_t ind = strlen(indent), col = ind;

	strbuf_addstr(out, indent);
	while (*p) {
		size_t n = unit_len(p);

		if (col > ind && col + 1 + n > 70) {
			strbuf_addf(out, " \\\n%s    ", indent);
			col = ind + 4;
		} else if (col > ind) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, n);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	strbuf_addch(out, '\n');
}

static int measured(const struct job_state *s)
{
	return !job_outcome_failed(s->outcome) &&
	       s->outcome != JOB_DUPLICATE && !job_state_identical(s);
}

/* The side a build failure broke: the patched one unless it said base. */
static const struct job_side *failed_side(const struct job_state *s)
{
	if (s->failed_which && !strcmp(s->failed_which, "base"))
		return &s->side[JOB_SIDE_BASE];
	return &s->side[JOB_SIDE_HEAD];
}

/* "sched-bot test '<msgid>' --base <sha> --target T --workloads W". */
static void test_line(const struct reproduce_job *r, const char *target,
		      struct strbuf *out)
{
	const struct job_state *s = r->s;
	const char *base = s->side[JOB_SIDE_BASE].commit;

	/* a hostile message-id cannot break out of its quotes */
	strbuf_addstr(out, "sched-bot test ");
	facts_shell_quote(s->msgid ? s->msgid : job_str(s->cover_msgid),
			  FACTS_QUOTE_ALWAYS, out);
	/* a recheck ran the tree's commits: its base is the parent there */
	if (base) {
		strbuf_addstr(out, " --base ");
		facts_shell_quote(base, FACTS_QUOTE_IF_NEEDED, out);
	} else if (s->base) {
		strbuf_addstr(out, " --base ");
		facts_shell_quote(s->base, FACTS_QUOTE_IF_NEEDED, out);
	}
	strbuf_addf(out, " --target %s", target);
	if (s->workloads) {
		strbuf_addstr(out, " --workloads ");
		facts_shell_quote(s->workloads, FACTS_QUOTE_IF_NEEDED, out);
	}
	/* the job's design: adaptive unless --runs fixed it */
	if (s->runs_fixed)
		strbuf_addf(out, " --runs %d", s->runs);
}

/* The make lines of a build failure's kernel. */
static void make_lines(const struct reproduce_job *r, const char *indent,
		       struct strbuf *out)
{
	const struct job_side *side = failed_side(r->s);

	strbuf_addf(out, "%sgit checkout %.12s\n", indent,
		    job_str(side->commit));
	strbuf_addf(out, "%smake CC=%s olddefconfig\n", indent, r->cc);
	strbuf_addf(out, "%smake -j\"$(nproc)\" CC=%s bzImage\n", indent,
		    r->cc);
}

/*
 * The copies of a workload's rows: the first word of their params
 * ("pairs=1 mode=processes ..."), their values joined: "pairs=1,2,4".
 */
static void add_copies(struct strbuf *copies, const char *params)
{
	size_t n = strcspn(params, " "), k = strcspn(params, "=");
	char *key, *have;

	if (k >= n)
		return;
	if (!copies->len) {
		strbuf_add(copies, params, n);
		return;
	}
	if (strncmp(copies->buf, params, k + 1))
		return;
	key = xasprintf(",%.*s,", (int)(n - k - 1), params + k + 1);
	have = xasprintf(",%s,", copies->buf + k + 1);
	if (!strstr(have, key))
		strbuf_add(copies, key, strlen(key) - 1);
	free(have);
	free(key);
}

/* What a workload's rows say of its cell, "" when they say nothing. */
static void cell_of(const struct sample_set *set, const char *workload,
		    struct strbuf *out)
{
	struct strbuf copies = STRBUF_INIT;
	const struct sample *first = NULL;
	size_t i;

	for (i = 0; i < set->nr; i++) {
		const struct sample *s = &set->v[i];

		if (strcmp(s->workload, workload))
			continue;
		if (!first)
			first = s;
		if (s->params && *s->params)
			add_copies(&copies, s->params);
	}
	if (!first)
		goto out;
	if (first->autogroup_config && !strcmp(first->autogroup_config, "n"))
		strbuf_addstr(out, "no autogroup");
	else if (first->autogroup_enabled && *first->autogroup_enabled)
		strbuf_addf(out, "autogroup %s",
			    !strcmp(first->autogroup_enabled, "1") ? "on" :
			    "off");
	if (first->cgroup && *first->cgroup)
		strbuf_addf(out, "%scgroup %s", out->len ? ", " : "",
			    first->cgroup);
	if (first->placement && *first->placement) {
		const char *p = first->placement;

		strbuf_addf(out, "%s%s", out->len ? ", " : "",
			    !strcmp(p, "free") ? "unpinned" :
			    !strcmp(p, "apart") ? "pairs apart" : p);
	}
	if (copies.len)
		strbuf_addf(out, "%s%s", out->len ? ", " : "", copies.buf);
out:
	strbuf_release(&copies);
}

/* The workload a command line of commands.txt ran, or NULL. */
static const char *workload_of(const char *cmd)
{
	size_t i;

	if (starts_with(cmd, "sched-bench ")) {
		const char *w = cmd + strlen("sched-bench ");
		const struct workload *wl = workload_find_n(w,
							strcspn(w, " "));

		return wl ? wl->name : NULL;
	}
	for (i = 0; i < workload_table_nr; i++) {
		const struct workload *wl = &workload_table[i];
		size_t n = wl->tool_args ? strcspn(wl->tool_args, "%") : 0;

		if (wl->runner == WORKLOAD_SCHED_BENCH ||
		    !starts_with(cmd, wl->prog) ||
		    cmd[strlen(wl->prog)] != ' ')
			continue;
		/* perf runs two workloads: its words tell them apart */
		if (!n || !strncmp(cmd + strlen(wl->prog) + 1,
				   wl->tool_args, n))
			return wl->name;
	}
	return NULL;
}

/*
 * Each command the kernels ran (run-1-head/commands.txt), after a
 * comment with its cell from results.csv; 0 when there is none.
 */
static int ran_commands(const struct reproduce_job *r, const char *indent,
		    struct strbuf *out)
{
	struct sample_set set = { 0 };
	struct strbuf sb = STRBUF_INIT, cell = STRBUF_INIT;
	char *csv = jobdir_path(r->dir, "results.csv");
	const char *p;
	int nr = 0;

	if (jobdir_read(r->dir, "run-1-head/commands.txt", &sb) < 0)
		goto out;
	if (!access(csv, R_OK))
		samples_read_file(csv, &set);
	for (p = sb.buf; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		const char *w = workload_of(line);

		if (*line) {
			strbuf_reset(&cell);
			if (w)
				cell_of(&set, w, &cell);
			if (cell.len)
				strbuf_addf(out, "%s# %s\n", indent, cell.buf);
			command_block(line, indent, out);
			nr++;
		}
		free(line);
		p += n + (p[n] == '\n');
	}
out:
	sample_set_release(&set);
	strbuf_release(&sb);
	strbuf_release(&cell);
	free(csv);
	return nr;
}

/* "The base is v6.1, commit 0123456789ab, of <tree>." */
static void base_sentence(const struct reproduce_job *r, struct strbuf *out)
{
	const struct job_state *s = r->s;
	const char *c = s->side[JOB_SIDE_BASE].commit;

	if (!c)
		return;
	strbuf_addstr(out, "The base is ");
	if (s->base_desc)
		strbuf_addf(out, "%s, ", s->base_desc);
	strbuf_addf(out, "commit %.12s", c);
	if (r->tree && *r->tree)
		strbuf_addf(out, " of %s", r->tree);
	strbuf_addstr(out, ".");
}

/*
 * The kernel words of the reporter's size the job's boots had (cut.txt's
 * first line: plan.h), allocated, or NULL: a reader who runs the
 * commands on a larger machine boots it with them too.
 */
static char *cut_words(const struct reproduce_job *r)
{
	struct strbuf sb = STRBUF_INIT;
	char *w = NULL;

	if (!jobdir_read(r->dir, "cut.txt", &sb) && sb.len)
		w = xstrndup(sb.buf, strcspn(sb.buf, "\n"));
	strbuf_release(&sb);
	return w;
}

void reproduce_block(const struct reproduce_job *r, struct strbuf *out)
{
	const struct job_state *s = r->s;
	struct strbuf prose = STRBUF_INIT, line = STRBUF_INIT;

	base_sentence(r, &prose);
	if (s->outcome == JOB_BUILD_FAILED) {
		const struct job_side *side = failed_side(s);

		strbuf_addf(&prose, " The %s kernel is commit %.12s; its config: %s",
			    side == &s->side[JOB_SIDE_BASE] ? "base" :
			    "patched", job_str(side->commit), s->config_origin ?
			    s->config_origin : r->base_config);
		facts_fragments(s->fragments, &prose);
		strbuf_addstr(&prose, ", then:");
		reply_wrap(prose.buf, 72, out);
		strbuf_trim(out);
		strbuf_addstr(out, "\n\n");
		make_lines(r, "    ", out);
	} else {
		strbuf_addstr(&prose, prose.len ? " On a machine of yours:" :
			      "On a machine of yours:");
		reply_wrap(prose.buf, 72, out);
		strbuf_trim(out);
		strbuf_addstr(out, "\n\n");
		test_line(r, "<your machine>", &line);
		command_block(line.buf, "    ", out);
		if (measured(s)) {
			struct strbuf cmds = STRBUF_INIT;
			char *cut = cut_words(r);

			if (ran_commands(r, "    ", &cmds) && cut) {
				char *say = xasprintf("Each kernel ran, booted with %s (the reporter's size), in this cell:",
						      cut);

				strbuf_addch(out, '\n');
				reply_wrap(say, 72, out);
				strbuf_addf(out, "\n%s", cmds.buf);
				free(say);
			} else if (cmds.len) {
				strbuf_addf(out, "\nEach kernel ran, in this cell:\n\n%s", cmds.buf);
			}
			strbuf_release(&cmds);
			free(cut);
		}
	}
	if (r->page)
		strbuf_addf(out, "\nThe job's configs, results, logs and reproduce.sh:\n%s\n", r->page);
	strbuf_trim(out);
	strbuf_release(&prose);
	strbuf_release(&line);
}

int reproduce_script_write(const struct reproduce_job *r)
{
	const struct job_state *s = r->s;
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, "#!/bin/sh\n# sched-bot's job on ");
	if (s->subject)
		strbuf_addf(&sb, "\"%s\" ", s->subject);
	strbuf_addf(&sb, "(v%d, %d patch%s): how to run it again.\n",
		    s->version, s->nr_patches, s->nr_patches != 1 ? "es" : "");
	strbuf_addstr(&sb, "# ");
	base_sentence(r, &sb);
	strbuf_addstr(&sb, "\nset -e\n");
	if (s->outcome == JOB_BUILD_FAILED) {
		strbuf_addstr(&sb, "# in a clone of the tree, its config (config-patched, config-base) as .config\n");
		make_lines(r, "", &sb);
		goto write;
	}
	strbuf_addstr(&sb, "# sh reproduce.sh TARGET: the job, with sched-bot on a target of its config\n");
	if (measured(s)) {
		char *cut = cut_words(r);

		strbuf_addstr(&sb, "# sh reproduce.sh --bench: on a booted kernel, what each kernel ran\n");
		if (cut)
			strbuf_addf(&sb, "# (the kernels were booted with %s, the reporter's size)\n",
				    cut);
		free(cut);
	}
	strbuf_addstr(&sb, "case ${1:?usage: sh reproduce.sh TARGET");
	strbuf_addstr(&sb, measured(s) ? " | --bench} in\n--bench)\n" :
		      "} in\n");
	if (measured(s)) {
		ran_commands(r, "\t", &sb);
		strbuf_addstr(&sb, "\t;;\n");
	}
	strbuf_addstr(&sb, "*)\n\texec ");
	test_line(r, "\"$1\"", &line);
	strbuf_addf(&sb, "%s\n\t;;\nesac\n", line.buf);
write:
	ret = jobdir_write(r->dir, "reproduce.sh", sb.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&line);
	return ret < 0 ? -1 : 0;
}
