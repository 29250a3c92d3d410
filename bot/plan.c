// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - from a thread to the workloads that test it (see plan.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lore.h"
#include "machsize.h"
#include "mail.h"
#include "mbox.h"
#include "plan.h"
#include "run.h"
#include "series.h"
#include "subproc.h"
#include "target/target.h"
#include "workload.h"

#define TEXT_LINE_MAX 512
#define PHRASE_MAX 96
#define SWEEP_MAX 16

/* What a line of prose can say. */
enum ev_kind {
	EV_CS1,			/* will-it-scale context_switch1 */
	EV_CS1_THREADS,		/* ... its threads variant */
	EV_UNPINNED,		/* "No task is bound to any CPU" */
	EV_PINNED,		/* "bound to", "pinned", taskset */
	EV_INSTANCES,		/* "1, 8, 16 ... 112 instances" */
	EV_CPUS,		/* "112 CPUs" */
	EV_SPAWN,		/* ./Run -c N spawn */
	EV_AUTOGROUP,
	EV_CGROUP,
	EV_HACKBENCH,
	EV_PERF_PIPE,
	EV_PERF_MESSAGING,
	EV_SCHBENCH,
	EV_NR
};

/* What a diff can touch. */
/* DIFF_GROUP: autogroup, cgroup, task-group code (a part of DIFF_FORK) */
enum diff_kind { DIFF_WAKE, DIFF_FORK, DIFF_GROUP, DIFF_LB, DIFF_NR };

struct evidence {
	int found;
	char *where;		/* "Author, patch 2/2" */
	char *msgid;		/* of the message it is in */
	char *phrase;		/* the line, trimmed */
	int num;		/* a number the line gives, 0 if none */
};

/* Benchmarks the bot has no runner for. */
static const char *const foreign[] = {
	"netperf", "tbench", "dbench", "stream", "sysbench", "uperf",
	"specjbb", "ycsb", "kernbench", "pgbench", "lmbench",
};

#define NR_FOREIGN ARRAY_SIZE(foreign)

struct scan {
	struct evidence ev[EV_NR];
	struct evidence diff[DIFF_NR];
	struct evidence foreign[ARRAY_SIZE(foreign)];
	int hb_modes;		/* bits: process-pipe, ..., as named */
	/* the first sentence stating the machine measured on (machsize.h) */
	struct evidence size;
	struct machsize said;
	int size_tries;
};

static const char *const hb_mode_names[] = {
	"process-pipe", "process-sockets", "threads-pipe", "threads-sockets",
};

/* The mode the hackbench workload runs (-P, sockets: workload.c). */
#define HB_RUN_MODE 1

/* Where the message is named: who, which mail, and the prose around. */
struct msgctx {
	const char *where;
	const char *msgid;
	const char *body;	/* the message's body, NULL for a diff line */
	const char *line;	/* the line noted, in body */
	const char *line_end;
};

#define SENTENCES_MAX 400

/* A sentence ends at . ? ! before a blank, a newline or the end. */
static int sentence_end(const char *p, const char *end)
{
	return (*p == '.' || *p == '?' || *p == '!') &&
	       (p + 1 >= end || isspace((unsigned char)p[1]));
}

/* The end of the paragraph's text before p: a blank (or "> ") line. */
static int blank_before(const char *body, const char *p)
{
	const char *q = p - 1;

	if (q < body || *q != '\n')
		return 0;
	while (q > body && (q[-1] == '>' || q[-1] == ' '))
		q--;
	return q == body || q[-1] == '\n';
}

/*
 * The whole sentences the noted line is part of, from the start of the
 * one it starts in to the end of the one it ends in, the quote marks
 * and line breaks of the mail made spaces: a quote is never cut
 * mid-sentence.  NULL when they are longer than SENTENCES_MAX (the line
 * alone is quoted then) or when there is no prose around (a diff).
 */
static char *whole_sentences(const struct msgctx *mc)
{
	const char *b = mc->line, *e = mc->line_end, *end;
	struct strbuf sb = STRBUF_INIT;
	int space = 0;

	if (!mc->body || !b)
		return NULL;
	end = mc->body + strlen(mc->body);
	while (b > mc->body && !blank_before(mc->body, b) &&
	       !sentence_end(b - 1, end) &&
	       !(b - 1 > mc->body && sentence_end(b - 2, end) &&
		 isspace((unsigned char)b[-1])))
		b--;
	while (e < end && !sentence_end(e > mc->line ? e - 1 : e, end) &&
	       !(*e == '\n' && (e + 1 >= end || e[1] == '\n')))
		e++;
	if (e > b && e - b > SENTENCES_MAX)
		return NULL;
	for (; b < e; b++) {
		if (*b == '\n') {
			space = 1;
			while (b + 1 < e && (b[1] == '>' || b[1] == ' '))
				b++;
			continue;
		}
		if (isspace((unsigned char)*b)) {
			space = 1;
			continue;
		}
		if (space && sb.len)
			strbuf_addch(&sb, ' ');
		space = 0;
		strbuf_addch(&sb, *b);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static void note(struct evidence *e, const struct msgctx *mc,
		 const char *line, int num)
{
	size_t n = strlen(line);

	if (e->found)
		return;
	e->found = 1;
	e->where = xstrdup(mc->where);
	e->msgid = xstrdup(mc->msgid);
	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	while (n && isspace((unsigned char)*line)) {
		line++;
		n--;
	}
	e->phrase = whole_sentences(mc);
	if (e->phrase)
		;
	else if (n > PHRASE_MAX)
		e->phrase = xasprintf("%.*s...", PHRASE_MAX, line);
	else
		e->phrase = xstrndup(line, n);
	e->num = num;
}

static void evidence_release(struct evidence *e)
{
	free(e->where);
	free(e->msgid);
	free(e->phrase);
	memset(e, 0, sizeof(*e));
}

static int is_word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Where word is in lc (lowercase) as a whole word, else NULL. */
static const char *find_word(const char *lc, const char *word)
{
	size_t n = strlen(word);
	const char *p = lc;

	while ((p = strstr(p, word))) {
		if ((p == lc || !is_word_char((unsigned char)p[-1])) &&
		    !is_word_char((unsigned char)p[n]))
			return p;
		p += n;
	}
	return NULL;
}

/* The largest number in s, 0 if none. */
static int max_number(const char *s)
{
	int best = 0;

	while (*s) {
		if (isdigit((unsigned char)*s)) {
			long v = strtol(s, (char **)&s, 10);

			if (v > best && v < 1000000)
				best = (int)v;
		} else {
			s++;
		}
	}
	return best;
}

/* N of "N cpus" in lc, 0 if none. */
static int cpus_number(const char *lc)
{
	const char *p = lc;

	while ((p = strstr(p, "cpus"))) {
		const char *q = p;

		while (q > lc && q[-1] == ' ')
			q--;
		if (q > lc && isdigit((unsigned char)q[-1])) {
			while (q > lc && isdigit((unsigned char)q[-1]))
				q--;
			return atoi(q);
		}
		p += 4;
	}
	return 0;
}

/*
 * The sentences a line is in are looked at for a machine's size at most
 * this often in a thread: each look walks its paragraph, and a thread of
 * perf output has many lines with a digit and "cpu".
 */
#define SIZE_TRIES 256

/* The first sentence that states the CPUs of a machine (machsize.h). */
static void scan_size(struct scan *sc, const struct msgctx *mc,
		      const char *line, const char *lc)
{
	struct machsize m;
	char *s;

	if (sc->size.found || sc->size_tries >= SIZE_TRIES ||
	    !machsize_hint(lc))
		return;
	sc->size_tries++;
	s = whole_sentences(mc);
	if (machsize_parse(s ? s : line, strlen(s ? s : line), &m)) {
		note(&sc->size, mc, line, m.cpus);
		sc->said = m;
	}
	free(s);
}

static void scan_prose(struct scan *sc, const struct msgctx *where,
		       const char *line,
		       const char *lc)
{
	const char *p;
	size_t i;

	scan_size(sc, where, line, lc);

	if (strstr(lc, "context_switch1")) {
		note(&sc->ev[EV_CS1], where, line, 0);
		if (strstr(lc, "context_switch1_threads") ||
		    strstr(lc, "per_thread_ops"))
			note(&sc->ev[EV_CS1_THREADS], where, line, 0);
	}
	if (strstr(lc, "no task is bound") || strstr(lc, "not bound to") ||
	    find_word(lc, "unbound") || strstr(lc, "without affinity") ||
	    strstr(lc, "no affinity") || find_word(lc, "unpinned") ||
	    strstr(lc, "not pinned"))
		note(&sc->ev[EV_UNPINNED], where, line, 0);
	else if (strstr(lc, "bound to cpu") || find_word(lc, "pinned") ||
		 find_word(lc, "taskset"))
		note(&sc->ev[EV_PINNED], where, line, 0);
	if (find_word(lc, "instances") && max_number(lc) > 1)
		note(&sc->ev[EV_INSTANCES], where, line, max_number(lc));
	if (cpus_number(lc) > 1)
		note(&sc->ev[EV_CPUS], where, line, cpus_number(lc));
	if (find_word(lc, "spawn") && (strstr(lc, "./run") ||
				       strstr(lc, "unixbench") ||
				       strstr(lc, "-c "))) {
		long c = 0;

		p = strstr(lc, "-c ");
		if (p)
			c = strtol(p + 3, NULL, 10);
		note(&sc->ev[EV_SPAWN], where, line,
		     c > 0 && c < 100000 ? (int)c : 0);
	}
	if (strstr(lc, "autogroup"))
		note(&sc->ev[EV_AUTOGROUP], where, line, 0);
	if (find_word(lc, "cgroup") || strstr(lc, "cgroup.procs") ||
	    strstr(lc, "session scope"))
		note(&sc->ev[EV_CGROUP], where, line, 0);
	if (find_word(lc, "hackbench"))
		note(&sc->ev[EV_HACKBENCH], where, line, 0);
	for (i = 0; i < ARRAY_SIZE(hb_mode_names); i++)
		if (strstr(lc, hb_mode_names[i]))
			sc->hb_modes |= 1 << i;
	if (strstr(lc, "sched pipe"))
		note(&sc->ev[EV_PERF_PIPE], where, line, 0);
	if (strstr(lc, "sched messaging"))
		note(&sc->ev[EV_PERF_MESSAGING], where, line, 0);
	if (find_word(lc, "schbench"))
		note(&sc->ev[EV_SCHBENCH], where, line, 0);
	for (i = 0; i < NR_FOREIGN; i++) {
		p = find_word(lc, foreign[i]);
		/* "stream" is a word too: only a short title line */
		if (p && (strcmp(foreign[i], "stream") || strlen(lc) <= 24))
			note(&sc->foreign[i], where, line, 0);
	}
}

/* The code a hunk line or header names, for the diff rules. */
static void scan_diff_line(struct scan *sc, const struct msgctx *where,
			   const char *file, const char *line, const char *lc)
{
	static const char *const wake[] = {
		"select_idle_", "wake_affine", "wake_wide", "select_task_rq",
		"try_to_wake_up", "ttwu_", "wakeup_preempt",
	};
	static const char *const fork[] = {
		"sched_move_task", "sched_fork", "sched_cgroup_fork",
		"wake_up_new_task", "sched_post_fork", "cpu_cgroup_",
		"sched_change_group", "autogroup", "sched_get_task_group",
		"sched_release_group", "sched_online_group",
	};
	static const char *const group[] = {
		"sched_move_task", "sched_cgroup_fork", "cpu_cgroup_",
		"sched_change_group", "autogroup", "sched_get_task_group",
		"sched_release_group", "sched_online_group", "task_group",
	};
	static const char *const lb[] = {
		"load_balance", "find_busiest_", "newidle_balance",
		"sched_balance_", "rebalance_domains", "nohz_balance",
		"update_sd_lb", "calculate_imbalance", "detach_tasks",
	};
	struct msgctx mc = *where;
	char *w;
	size_t i;

	if (!(*line == '+' || *line == '-' || starts_with(line, "@@")) ||
	    starts_with(line, "+++") || starts_with(line, "---"))
		return;
	w = xasprintf("%s, %s", file, where->where);
	mc.where = w;
	for (i = 0; i < ARRAY_SIZE(wake); i++)
		if (strstr(lc, wake[i]) && strstr(file, "kernel/sched/"))
			note(&sc->diff[DIFF_WAKE], &mc, line, 0);
	for (i = 0; i < ARRAY_SIZE(fork); i++)
		if (strstr(lc, fork[i]))
			note(&sc->diff[DIFF_FORK], &mc, line, 0);
	for (i = 0; i < ARRAY_SIZE(group); i++)
		if (strstr(lc, group[i]))
			note(&sc->diff[DIFF_GROUP], &mc, line, 0);
	if (starts_with(file, "kernel/sched/autogroup.") ||
	    starts_with(file, "kernel/cgroup/"))
		note(&sc->diff[DIFF_GROUP], &mc, line, 0);
	if (!strcmp(file, "kernel/fork.c") || !strcmp(file, "kernel/exit.c") ||
	    starts_with(file, "kernel/sched/autogroup.") ||
	    starts_with(file, "kernel/cgroup/"))
		note(&sc->diff[DIFF_FORK], &mc, line, 0);
	for (i = 0; i < ARRAY_SIZE(lb); i++)
		if (strstr(lc, lb[i]) && strstr(file, "kernel/sched/"))
			note(&sc->diff[DIFF_LB], &mc, line, 0);
	free(w);
}

static void scan_mail(struct scan *sc, const struct mail *m)
{
	const char *p = m->body ? m->body : "";
	struct subject_info si;
	struct msgctx mc;
	char *where, *what, *file = xstrdup("");
	char lc[TEXT_LINE_MAX + 1];
	int diff_depth = -1;

	subject_parse(m->subject, &si);
	if (si.patch && !si.reply && si.index == 0 && si.total > 0)
		what = xstrdup("the cover letter");
	else if (si.patch && !si.reply && si.total > 0)
		what = xasprintf("patch %d/%d", si.index, si.total);
	else if (si.patch && !si.reply)
		what = xstrdup("the patch");
	else
		what = xstrdup("a reply");
	subject_release(&si);
	where = xasprintf("%s, %s", *m->from_name ? m->from_name :
			  m->from_email, what);
	memset(&mc, 0, sizeof(mc));
	mc.where = where;
	mc.msgid = m->msgid ? m->msgid : "";
	free(what);
	while (*p) {
		size_t n = strcspn(p, "\n"), k, len;
		const char *line = p;
		char *text;
		int depth = 0;

		p += n + (p[n] == '\n');
		/* the quote prefix: "> ", ">>", "> > " */
		while (n && (*line == '>' || (*line == ' ' && depth &&
					      n > 1 && line[1] == '>'))) {
			if (*line == '>')
				depth++;
			line++;
			n--;
		}
		if (depth && n && *line == ' ') {
			line++;
			n--;
		}
		len = n < TEXT_LINE_MAX ? n : TEXT_LINE_MAX;
		text = xstrndup(line, len);
		for (k = 0; k < len; k++)
			lc[k] = (char)tolower((unsigned char)text[k]);
		lc[len] = 0;
		if (diff_depth >= 0 && depth < diff_depth)
			diff_depth = -1;
		if (starts_with(text, "diff --git ")) {
			const char *b = strstr(text, " b/");

			diff_depth = depth;
			free(file);
			file = xstrdup(b ? b + 3 : "");
		} else if (diff_depth >= 0) {
			/* code is not prose; the sender's own diff counts */
			mc.body = NULL;
			if (!depth)
				scan_diff_line(sc, &mc, file, text, lc);
		} else {
			mc.body = m->body;
			mc.line = line;
			mc.line_end = line + n;
			scan_prose(sc, &mc, text, lc);
		}
		free(text);
	}
	free(file);
	free(where);
}

/* ---- the plan ---- */

static struct plan_item *add_item(struct plan *p, const char *workload)
{
	struct plan_item *it;

	ALLOC_GROW(p->items, p->nr, p->alloc);
	it = &p->items[p->nr++];
	memset(it, 0, sizeof(*it));
	it->workload = workload_find(workload)->name;
	return it;
}

static void add_skip(struct plan *p, const char *name, const char *why)
{
	ALLOC_GROW(p->skips, p->nr_skips, p->alloc_skips);
	p->skips[p->nr_skips].name = xstrdup(name);
	p->skips[p->nr_skips].why = xstrdup(why);
	p->nr_skips++;
}

static int has_item(const struct plan *p, const char *workload)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->items[i].workload, workload))
			return 1;
	return 0;
}

/* The number of msgid in the plan's list of messages, added if new. */
static size_t ref_of(struct plan *p, const char *msgid)
{
	size_t i;

	for (i = 0; i < p->nr_refs; i++)
		if (!strcmp(p->refs[i], msgid))
			return i + 1;
	ALLOC_GROW(p->refs, p->nr_refs, p->alloc_refs);
	p->refs[p->nr_refs++] = xstrdup(msgid);
	return p->nr_refs;
}

/* "\"phrase\" (Chen Yu, patch 2/2 [1])" and a newline. */
static void cite(struct plan *p, struct strbuf *sb, const char *intro,
		 const struct evidence *e)
{
	strbuf_addf(sb, "%s\"%s\" (%s [%zu])\n", intro, e->phrase, e->where,
		    ref_of(p, e->msgid));
}

static void why_line(struct plan *p, struct strbuf *why,
		     const struct evidence *e)
{
	if (e->found)
		cite(p, why, "", e);
}

static int seconds_of(const struct plan_opts *o)
{
	return o->seconds > 0 ? o->seconds : 5;
}

static void set_bench_cmd(struct plan_item *it, const struct plan_opts *o)
{
	it->cmdline = xasprintf("sched-bench %s -t %d%s%s", it->workload,
				seconds_of(o), *it->args ? " " : "",
				it->args);
}

static void sort_unique(int *v, int *n, int upper)
{
	int i, j, x, k = 0;

	for (i = 1; i < *n; i++)	/* insertion sort, tiny */
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	for (i = 0; i < *n; i++)
		if (v[i] >= 1 && v[i] <= upper && (!k || v[i] != v[k - 1]))
			v[k++] = v[i];
	*n = k;
}

/*
 * The instance counts: with the target's layout known, 1, one LLC, one
 * node, one socket, all CPUs and twice that (the points where a new
 * level of the machine fills up); else 1, 2, 4, ... with cpus/2 and
 * cpus.  Up to upper, "1,2,4".
 */
static char *sweep_list(const struct plan_opts *o, int upper)
{
	int v[SWEEP_MAX * 2], n = 0, i, x, cpus = o->cpus;
	struct strbuf sb = STRBUF_INIT;

	if (o->llc > 0) {
		v[n++] = 1;
		v[n++] = o->llc;
		v[n++] = o->node;
		v[n++] = o->socket;
		v[n++] = cpus;
		v[n++] = 2 * cpus;
	} else {
		for (x = 1; x < upper && n < SWEEP_MAX; x *= 2)
			v[n++] = x;
		if (cpus / 2 > 1)
			v[n++] = cpus / 2;
		v[n++] = cpus;
	}
	v[n++] = upper;
	sort_unique(v, &n, upper);
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%d", sb.len ? "," : "", v[i]);
	return strbuf_detach(&sb, NULL);
}

/* Why those counts: the layout's levels, "one LLC (4 CPUs), ...". */
static void sweep_why(const struct plan_opts *o, struct strbuf *why)
{
	if (o->llc <= 0)
		return;
	strbuf_addf(why, "points: 1, one LLC (%d CPUs), one NUMA node (%d), one socket (%d), all %d CPUs and twice that, each where a level of the target's layout fills up\n",
		    o->llc,
		    o->node, o->socket, o->cpus);
}

static void plan_pingpong(struct plan *p, const struct plan_opts *o,
			  const struct scan *sc, int unpinned_by_diff)
{
	const struct evidence *inst = &sc->ev[EV_INSTANCES];
	int threads = sc->ev[EV_CS1_THREADS].found;
	int unpinned = sc->ev[EV_UNPINNED].found ||
		       (!sc->ev[EV_PINNED].found && unpinned_by_diff);
	/* unpinned for the diff's sake: each pair started on two CPUs, so
	 * that a change to where wake-ups go moves them (or not)
	 */
	int apart = unpinned && !sc->ev[EV_UNPINNED].found;
	/* past every CPU busy, where wake-up placement decides */
	int wide = inst->found || p->basis == PLAN_DIFF;
	int upper = wide ? 2 * o->cpus : o->cpus;
	struct plan_item *it = add_item(p, "pingpong");
	struct strbuf why = STRBUF_INIT;
	char *sweep = sweep_list(o, upper < 4096 ? upper : 4096);

	it->args = xasprintf("%s%s --sweep %s", apart ? "--apart" :
			     unpinned ? "--no-pin" : "--pin",
			     threads ? " --threads" : "", sweep);
	set_bench_cmd(it, o);
	it->summary = xasprintf("will-it-scale context_switch1: pairs of %s over a pipe, %s, %s instances",
				threads ? "threads" : "processes",
				apart ? "unpinned, started apart" :
				unpinned ? "unpinned" : "pinned", sweep);
	if (apart)
		it->placement = xasprintf("no task bound to a CPU, but the two tasks of each pair started on two CPUs (--apart): where the scheduler's wake-ups place them, on any of the %d CPUs, is what is measured",
					  o->cpus);
	else if (unpinned)
		it->placement = xasprintf("no task bound to a CPU (--no-pin): the scheduler places both tasks of each pair on any of the %d CPUs",
					  o->cpus);
	else
		it->placement = xstrdup("both tasks of each pair bound to one CPU (--pin), as will-it-scale binds them");
	why_line(p, &why, &sc->ev[EV_CS1]);
	why_line(p, &why, &sc->ev[EV_CS1_THREADS]);
	why_line(p, &why, unpinned ? &sc->ev[EV_UNPINNED] : &sc->ev[EV_PINNED]);
	if (unpinned && !sc->ev[EV_UNPINNED].found)
		cite(p, &why, "unpinned, each pair started on two CPUs: the diff changes wake-up placement, ",
		     &sc->diff[DIFF_WAKE]);
	if (inst->found) {
		why_line(p, &why, inst);
		strbuf_addf(&why, "instances: up to %d", inst->num);
		if (sc->ev[EV_CPUS].found)
			strbuf_addf(&why, " on %d CPUs", sc->ev[EV_CPUS].num);
		strbuf_addf(&why, " there; here 1 to 2x the target's %d CPUs\n",
			    o->cpus);
	} else if (wide) {
		strbuf_addf(&why, "instances: 1 to 2x the target's %d CPUs, past the point where every CPU has a task\n",
			    o->cpus);
	} else {
		strbuf_addf(&why, "instances: 1 to the target's %d CPUs\n",
			    o->cpus);
	}
	sweep_why(o, &why);
	it->why = strbuf_detach(&why, NULL);
	free(sweep);
}

/* Where spawn's cells run: with the off cell, or without it (budget). */
static char *cells_placement(const struct plan_opts *o, int off)
{
	return xasprintf("%d copies, unbound, on all %d CPUs, in %s cells of the autogroup x cgroup matrix, each row of the tables naming its cell: autogroup on with each copy in its own session (--setsid: its own autogroup)%s a new cpu cgroup (--cgroup new: the task-group paths)%s",
			 o->cpus, o->cpus, off ? "three" : "two",
			 off ? "," : " and", off ? ", and autogroup off for contrast" : "; not the off cell (the run budget)");
}

/*
 * job.spawnGap where it is not UnixBench's 3 s (spawn's --gap), and
 * job.warmup where it is not will-it-scale's 6 (pingpong's --warmup):
 * after each cell's options and on each command line, so that what the
 * reply says ran is what ran.
 */
static void add_job_option(struct plan_item *it, const char *opt,
			   const char *val)
{
	struct strbuf a = STRBUF_INIT, c = STRBUF_INIT;
	const char *s;

	if (!val)
		return;
	for (s = it->args; *s; s++) {
		if (*s == '|')
			strbuf_addf(&a, " %s %s", opt, val);
		strbuf_addch(&a, *s);
	}
	strbuf_addf(&a, "%s%s %s", a.len ? " " : "", opt, val);
	for (s = it->cmdline; *s; s++) {
		if (*s == '\n')
			strbuf_addf(&c, " %s %s", opt, val);
		strbuf_addch(&c, *s);
	}
	strbuf_addf(&c, " %s %s", opt, val);
	free(it->args);
	free(it->cmdline);
	it->args = strbuf_detach(&a, NULL);
	it->cmdline = strbuf_detach(&c, NULL);
}

static void plan_spawn(struct plan *p, const struct plan_opts *o,
		       const struct scan *sc, const struct evidence *diff)
{
	const struct evidence *sp = &sc->ev[EV_SPAWN];
	struct plan_item *it = add_item(p, "spawn");
	struct strbuf why = STRBUF_INIT;
	int matrix = sc->ev[EV_AUTOGROUP].found || sc->ev[EV_CGROUP].found ||
		     (diff && diff == &sc->diff[DIFF_FORK]);
	/* autogroup, cgroup or task-group code: run it where it is active */
	int cells = (sc->ev[EV_AUTOGROUP].found || sc->ev[EV_CGROUP].found ||
		     sc->diff[DIFF_GROUP].found) && !o->as_booted;

	it->args = xasprintf("-c %d", o->cpus);
	set_bench_cmd(it, o);
	if (cells) {
		/* the cells where the changed code runs, then the off cell */
		free(it->args);
		free(it->cmdline);
		it->args = xasprintf("-c %d --autogroup on --setsid|-c %d --cgroup new|-c %d --autogroup off",
				     o->cpus, o->cpus, o->cpus);
		it->cmdline = xasprintf("sched-bench spawn -t %d -c %d --autogroup on --setsid\n"
					"    sched-bench spawn -t %d -c %d --cgroup new\n"
					"    sched-bench spawn -t %d -c %d --autogroup off",
					seconds_of(o),
					o->cpus, seconds_of(o), o->cpus,
					seconds_of(o), o->cpus);
	}
	it->summary = xasprintf("UnixBench spawn: %d copies forking and reaping, N = the target's CPUs",
				o->cpus);
	if (cells)
		it->placement = cells_placement(o, 1);
	else
		it->placement =
		xasprintf("%d copies, unbound, on all %d CPUs; each run in its own session (its own autogroup when autogroup is on), autogroup and cgroup as booted%s",
				  o->cpus, o->cpus, matrix ?
				  ": the cell of the autogroup x cgroup matrix this run is, recorded under Machine (sched:)" : "");
	why_line(p, &why, sp);
	if (sp->found && sp->num > 0)
		strbuf_addf(&why, "copies: -c %d there; here -c %d, the target's CPUs\n",
			    sp->num, o->cpus);
	if (diff)
		cite(p, &why, "the diff: ", diff);
	why_line(p, &why, &sc->ev[EV_AUTOGROUP]);
	why_line(p, &why, &sc->ev[EV_CGROUP]);
	if (cells)
		strbuf_addstr(&why, "cells: the diff or the thread is about autogroup, cgroup or task-group code, which is idle with autogroup off in the root cgroup (as a guest boots): spawn runs with autogroup enabled, and in a new cpu cgroup\n");
	else if (matrix && o->as_booted)
		strbuf_addstr(&why, "cells: the target runs as the machine is (local): the cell it is in is recorded\n");
	it->why = strbuf_detach(&why, NULL);
}

/* A tool workload, or a skip when the target cannot run it. */
static void plan_tool(struct plan *p, const struct plan_opts *o,
		      const char *name, const char *summary,
		      const struct evidence *e, const char *extra_why)
{
	const struct workload *w = workload_find(name);
	struct plan_item *it;
	struct strbuf why = STRBUF_INIT;
	char **argv, **a, *params = NULL;

	if (o->have_tool && !o->have_tool(w->prog)) {
		char *s = xasprintf("%s is not installed on this host (package %s)",
				    w->prog, w->package);

		add_skip(p, name, s);
		free(s);
		return;
	}
	it = add_item(p, name);
	argv = run_tool_argv(name, w->prog, seconds_of(o), &params);
	for (a = argv; *a; a++)
		strbuf_addf(&why, "%s%s", a == argv ? "" : " ", *a);
	it->cmdline = strbuf_detach(&why, NULL);
	run_argv_free(argv);
	it->args = xstrdup("");
	it->summary = xasprintf("%s (%s)", summary, params);
	free(params);
	it->placement = xstrdup("unbound: the scheduler places every task");
	if (e)
		why_line(p, &why, e);
	if (extra_why)
		strbuf_addstr(&why, extra_why);
	it->why = strbuf_detach(&why, NULL);
}

static void plan_hackbench(struct plan *p, const struct plan_opts *o,
			   const struct scan *sc, const struct evidence *diff)
{
	struct strbuf extra = STRBUF_INIT;
	size_t i;

	if (diff)
		cite(p, &extra, "the diff: ", diff);
	/* the workload has one mode: name the ones the thread had besides */
	if (sc->hb_modes & ~(1 << HB_RUN_MODE)) {
		int n = 0, left = sc->hb_modes & ~(1 << HB_RUN_MODE);

		strbuf_addf(&extra, "hackbench runs in %s mode only; the thread also measured",
			    hb_mode_names[HB_RUN_MODE]);
		for (i = 0; i < ARRAY_SIZE(hb_mode_names); i++) {
			if (!(left & (1 << i)))
				continue;
			left &= ~(1 << i);
			strbuf_addf(&extra, "%s %s", !n++ ? "" : left ?
				    "," : " and", hb_mode_names[i]);
		}
		strbuf_addch(&extra, '\n');
	}
	plan_tool(p, o, "hackbench", "groups of senders and receivers",
		  sc->ev[EV_HACKBENCH].found ? &sc->ev[EV_HACKBENCH] : NULL,
		  extra.len ? extra.buf : NULL);
	strbuf_release(&extra);
}

static void plan_build(struct plan *p, const struct plan_opts *o,
		       const struct scan *sc)
{
	const struct evidence *d = sc->diff;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (sc->ev[EV_CS1].found)
		plan_pingpong(p, o, sc, d[DIFF_WAKE].found);
	if (sc->ev[EV_SPAWN].found)
		plan_spawn(p, o, sc, NULL);
	if (sc->ev[EV_HACKBENCH].found)
		plan_hackbench(p, o, sc, NULL);
	if (sc->ev[EV_PERF_PIPE].found)
		plan_tool(p, o, "perf-pipe", "perf bench sched pipe",
			  &sc->ev[EV_PERF_PIPE], NULL);
	if (sc->ev[EV_PERF_MESSAGING].found)
		plan_tool(p, o, "perf-messaging", "perf bench sched messaging",
			  &sc->ev[EV_PERF_MESSAGING], NULL);
	if (sc->ev[EV_SCHBENCH].found)
		plan_tool(p, o, "schbench", "schbench", &sc->ev[EV_SCHBENCH],
			  NULL);
	for (i = 0; i < NR_FOREIGN; i++) {
		if (!sc->foreign[i].found)
			continue;
		cite(p, &sb, "", &sc->foreign[i]);
		strbuf_setlen(&sb, sb.len - 1);
		strbuf_addstr(&sb, ": sched-bot has no runner for it");
		add_skip(p, foreign[i], sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_release(&sb);
	if (p->nr) {
		p->basis = PLAN_THREAD;
		return;
	}
	p->basis = PLAN_DIFF;
	if (d[DIFF_WAKE].found) {
		plan_pingpong(p, o, sc, 1);
		plan_hackbench(p, o, sc, &d[DIFF_WAKE]);
	}
	if (d[DIFF_FORK].found && !has_item(p, "spawn"))
		plan_spawn(p, o, sc, &d[DIFF_FORK]);
	if (d[DIFF_LB].found) {
		if (!has_item(p, "hackbench"))
			plan_hackbench(p, o, sc, &d[DIFF_LB]);
		if (!has_item(p, "spawn"))
			plan_spawn(p, o, sc, &d[DIFF_LB]);
	}
	if (p->nr)
		return;
	p->basis = PLAN_DEFAULT;
	for (i = 0; i < workload_table_nr; i++) {
		const struct workload *w = &workload_table[i];
		struct plan_item *it;

		if (!(w->sets & WORKLOAD_DEFAULT))
			continue;
		if (w->runner != WORKLOAD_SCHED_BENCH) {
			plan_tool(p, o, w->name, w->help, NULL, NULL);
			continue;
		}
		it = add_item(p, w->name);
		it->args = xstrdup("");
		set_bench_cmd(it, o);
		it->summary = xstrdup(w->help);
		it->placement = xstrdup("sched-bench's defaults");
		it->why = xstrdup("neither the thread nor the diff names a workload: the default set\n");
	}
}

/* One run's seconds as the plan reckons them: its -t, pingpong's
 * warm-up (6 s) and the set-up around it.
 */
#define RUN_OVERHEAD 10

/* The runs one boot makes of an item: each sweep point of each cell. */
static int runs_of(const struct plan_item *it)
{
	const char *s = strstr(it->args, "--sweep "), *p;
	int points = 1, cells = 1;

	for (p = s ? s + 8 : ""; *p && *p != ' '; p++)
		points += *p == ',';
	for (p = it->args; *p; p++)
		cells += *p == '|';
	return points * cells;
}

/*
 * Every run of a boot counts against the time a boot's runs may take
 * (o->budget): the sweep points, the tools and the cells alike.  Past
 * it, spawn's off cell, there for contrast only, is dropped first and
 * the plan says so; a plan still past it says that too.
 */
static void fit_budget(struct plan *p, const struct plan_opts *o)
{
	int per = seconds_of(o) + RUN_OVERHEAD, runs = 0;
	struct plan_item *spawn = NULL;
	char *cut, *nl, *why;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		runs += runs_of(&p->items[i]);
		if (!strcmp(p->items[i].workload, "spawn") &&
		    strstr(p->items[i].args, "|-c") &&
		    ends_with(p->items[i].args, "--autogroup off"))
			spawn = &p->items[i];
	}
	p->budget = o->budget;
	p->boot_seconds = runs * per;
	if (o->budget <= 0 || p->boot_seconds <= o->budget || !spawn)
		return;
	/* the off cell is the last of the args and of the command lines */
	*strrchr(spawn->args, '|') = '\0';
	for (cut = spawn->cmdline; (nl = strstr(cut + 1, "\n    ")); cut = nl)
		;
	*cut = '\0';
	free(spawn->placement);
	spawn->placement = cells_placement(o, 0);
	why = xasprintf("%sbudget: the off cell is left out: with it one boot's %d runs take ~%d s, past the %d s a boot's runs may take (the target's timeout)\n",
			spawn->why,
			runs, p->boot_seconds, o->budget);
	free(spawn->why);
	spawn->why = why;
	p->boot_seconds -= per;
}

/* ---- the reporter's size ---- */

/* "16 GiB", "1024 MB" (a guest's .mem is in MB) */
static char *mem_text(unsigned long long mb)
{
	if (mb % 1024 || mb < 4096)
		return xasprintf("%llu MB", mb);
	return xasprintf("%llu GiB", mb / 1024);
}

/*
 * What the target is cut to (o->cpus and its layout with it), before
 * the workloads are scaled to its CPUs: only down, never up, and not
 * the local target, which runs as the machine is.
 */
static void cut_decide(struct plan *p, struct plan_opts *o,
		       const struct scan *sc)
{
	struct plan_cut *c = &p->cut;
	struct strbuf w = STRBUF_INIT;

	c->asked = o->match_reporter;
	if (!c->asked || !sc->size.found)
		return;
	c->said_cpus = sc->said.cpus;
	c->said_mem_mb = sc->said.mem_mb;
	c->target_cpus = o->cpus;
	if (o->as_booted)
		return;
	if (c->said_cpus < o->cpus) {
		c->cpus = c->said_cpus;
		strbuf_addf(&w, "maxcpus=%d nr_cpus=%d", c->cpus, c->cpus);
	}
	if (c->said_mem_mb && c->said_mem_mb < o->mem_mb) {
		c->mem_mb = c->said_mem_mb;
		strbuf_addf(&w, "%smem=%s", w.len ? " " : "",
			    sc->said.mem_word);
	}
	if (w.len)
		c->words = strbuf_detach(&w, NULL);
	strbuf_release(&w);
	if (!c->cpus)
		return;
	/* the first CPUs stay (maxcpus= brings up the lowest numbers) */
	o->cpus = c->cpus;
	if (o->llc > o->cpus)
		o->llc = o->cpus;
	if (o->node > o->cpus)
		o->node = o->cpus;
	if (o->socket > o->cpus)
		o->socket = o->cpus;
}

/* The cut's quote, its reasons and the reply's sentence. */
static void cut_render(struct plan *p, const struct plan_opts *o,
		       const struct scan *sc)
{
	struct plan_cut *c = &p->cut;
	struct strbuf why = STRBUF_INIT, said = STRBUF_INIT;
	struct strbuf s = STRBUF_INIT;
	char *there, *here;

	if (!c->asked)
		return;
	if (!sc->size.found) {
		c->why = xstrdup("the thread states no machine it measured on (no count of its CPUs): the target runs as it is\n");
		return;
	}
	cite(p, &said, "", &sc->size);
	strbuf_setlen(&said, said.len - 1);
	c->said = strbuf_detach(&said, NULL);
	if (o->as_booted) {
		c->why = xstrdup("the target runs as the machine is (local): nothing is cut\n");
		return;
	}
	if (c->cpus)
		strbuf_addf(&why, "CPUs: %d there, %d here: maxcpus=%d nr_cpus=%d, and the workloads are scaled to %d\n",
			    c->said_cpus, c->target_cpus, c->cpus, c->cpus,
			    c->cpus);
	else if (c->said_cpus > c->target_cpus)
		strbuf_addf(&why, "CPUs: %d there, %d here: not applied, a target is cut down, never up\n",
			    c->said_cpus,
			    c->target_cpus);
	else
		strbuf_addf(&why, "CPUs: %d there and here: nothing to cut\n",
			    c->said_cpus);
	there = c->said_mem_mb ? mem_text(c->said_mem_mb) : NULL;
	here = o->mem_mb ? mem_text(o->mem_mb) : NULL;
	if (!there)
		;
	else if (c->mem_mb)
		strbuf_addf(&why, "memory: %s there, %s here: mem=%s\n",
			    there, here, sc->said.mem_word);
	else if (!here)
		strbuf_addf(&why, "memory: %s there, the target's not known: not applied\n",
			    there);
	else if (c->said_mem_mb > o->mem_mb)
		strbuf_addf(&why, "memory: %s there, %s here: not applied, a target is cut down, never up\n",
			    there,
			    here);
	else
		strbuf_addf(&why, "memory: %s there and here: nothing to cut\n",
			    there);
	c->why = strbuf_detach(&why, NULL);
	if (c->cpus && c->mem_mb)
		strbuf_addf(&s, "cut to the reporter's %d CPU%s and %s (%s)",
			    c->cpus, c->cpus == 1 ? "" : "s", there, c->words);
	else if (c->cpus)
		strbuf_addf(&s, "cut to the reporter's %d CPU%s (%s)",
			    c->cpus, c->cpus == 1 ? "" : "s", c->words);
	else if (c->mem_mb)
		strbuf_addf(&s, "cut to the reporter's %s (%s)", there,
			    c->words);
	if (s.len && there && !c->mem_mb && c->said_mem_mb != o->mem_mb)
		strbuf_addf(&s, "; the reporter's %s not applied, %s",
			    there, here ? "the target has less" :
			    "the target's not known");
	if (s.len && !c->cpus && c->said_cpus > c->target_cpus)
		strbuf_addf(&s, "; the reporter's %d CPUs not applied, the target has %d",
			    c->said_cpus,
			    c->target_cpus);
	if (s.len)
		c->sentence = strbuf_detach(&s, NULL);
	strbuf_release(&s);
	free(there);
	free(here);
}

void plan_from_mbox(const char *text, size_t len, const struct plan_opts *o,
		    struct plan *p)
{
	struct plan_opts opts = *o;
	struct scan sc;
	struct mbox mb = { 0 };
	size_t i;

	memset(p, 0, sizeof(*p));
	memset(&sc, 0, sizeof(sc));
	if (opts.cpus < 1)
		opts.cpus = 1;
	mbox_split(text, len, &mb);
	for (i = 0; i < mb.nr; i++) {
		struct mail m;

		if (mail_parse(mb.msgs[i].data, mb.msgs[i].len, &m) < 0)
			continue;
		scan_mail(&sc, &m);
		mail_release(&m);
	}
	mbox_release(&mb);
	cut_decide(p, &opts, &sc);
	p->cpus = opts.cpus;
	p->llc = opts.llc;
	p->node = opts.node;
	p->socket = opts.socket;
	p->measured = opts.measured;
	plan_build(p, &opts, &sc);
	cut_render(p, &opts, &sc);
	fit_budget(p, &opts);
	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->items[i].workload, "spawn"))
			add_job_option(&p->items[i], "--gap", opts.spawn_gap);
		else if (!strcmp(p->items[i].workload, "pingpong"))
			add_job_option(&p->items[i], "--warmup", opts.warmup);
	for (i = 0; i < EV_NR; i++)
		evidence_release(&sc.ev[i]);
	for (i = 0; i < DIFF_NR; i++)
		evidence_release(&sc.diff[i]);
	for (i = 0; i < NR_FOREIGN; i++)
		evidence_release(&sc.foreign[i]);
	evidence_release(&sc.size);
}

int plan_from_file(const char *path, const struct plan_opts *o,
		   struct plan *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return error("cannot read %s: %s", path, strerror(errno));
	}
	plan_from_mbox(sb.buf, sb.len, o, p);
	strbuf_release(&sb);
	return 0;
}

void plan_release(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->items[i].args);
		free(p->items[i].cmdline);
		free(p->items[i].placement);
		free(p->items[i].summary);
		free(p->items[i].why);
	}
	for (i = 0; i < p->nr_skips; i++) {
		free(p->skips[i].name);
		free(p->skips[i].why);
	}
	for (i = 0; i < p->nr_refs; i++)
		free(p->refs[i]);
	free(p->items);
	free(p->skips);
	free(p->refs);
	free(p->cut.words);
	free(p->cut.said);
	free(p->cut.why);
	free(p->cut.sentence);
	memset(p, 0, sizeof(*p));
}

int plan_target_cpus(const char *target, int *assumed)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), smp, mem;
	int a = 0, set = target_shape(target, &smp, &mem);

	if (target_is(target, TARGET_SHAPED) || set)
		n = smp;
	else if (!target_is(target, TARGET_HERE))
		a = 1;
	if (assumed)
		*assumed = a;
	return n > 0 && n < 4096 ? (int)n : 1;
}

int plan_host_has_tool(const char *prog)
{
	char *path = subproc_find(prog);

	free(path);
	return path != NULL;
}

char *plan_workloads(const struct plan *p)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < p->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", p->items[i].workload);
	return strbuf_detach(&sb, NULL);
}

int plan_list_has(const char *list, const char *name, size_t n)
{
	const char *at = n ? list : NULL;

	while (at && *at) {
		if (!strncmp(at, name, n) && (at[n] == ',' || !at[n]))
			return 1;
		at = strchr(at, ',');
		if (at)
			at++;
	}
	return 0;
}

void plan_run_first(struct plan *p, const char *first, int version)
{
	struct plan_item *v;
	size_t i, n = 0;
	int pass;

	if (!first || !*first || !p->nr)
		return;
	v = xcalloc(p->nr, sizeof(*v));
	/* a stable partition: those first, then the rest, each in order */
	for (pass = 1; pass >= 0; pass--)
		for (i = 0; i < p->nr; i++) {
			struct plan_item *it = &p->items[i];
			size_t len = strlen(it->workload);
			char *why;

			if (plan_list_has(first, it->workload, len) != pass)
				continue;
			if (pass) {
				why = xasprintf("%s; run first: v%d regressed it",
						it->why, version);
				free(it->why);
				it->why = why;
			}
			v[n++] = *it;
		}
	memcpy(p->items, v, p->nr * sizeof(*v));
	free(v);
}

char *plan_order_first(const char *workloads, const char *first)
{
	struct strbuf sb = STRBUF_INIT;
	char *tok, *save = NULL;
	int pass;

	for (pass = 1; pass >= 0; pass--) {
		char *copy = xstrdup(workloads);

		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (plan_list_has(first, tok, strlen(tok)) == pass)
				strbuf_addf(&sb, "%s%s", sb.len ? "," : "",
					    tok);
		free(copy);
	}
	return strbuf_detach(&sb, NULL);
}

char *plan_init_args(const struct plan *p)
{
	struct strbuf sb = STRBUF_INIT;
	const char *a;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (!*p->items[i].args)
			continue;
		strbuf_addf(&sb, "%s%s=", sb.len ? " " : "",
			    p->items[i].workload);
		for (a = p->items[i].args; *a; a++)
			strbuf_addch(&sb, *a == ' ' ? ',' : *a == ',' ? ':' :
				     *a == '|' ? '+' : *a);
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * The reply's width (reply.c wraps the mail at 72): the plan goes into the
 * mail as plan.txt has it, so it is wrapped once, here, and no line of it
 * is wrapped again (which left "pipe,\n  unpinned" stubs).
 */
#define WRAP 72

/*
 * text's lines, the first after head, every other line after as many
 * blanks as indent, each wrapped at blanks to WRAP columns (a longer
 * word stays whole).
 */
static void add_wrapped(struct strbuf *out, const char *head, size_t indent,
			const char *text)
{
	const char *p = text, *h = head + strspn(head, "\n");
	size_t first = strlen(h) > indent ? strlen(h) : indent;
	int n = 0;

	while (*p) {
		const char *end = p + strcspn(p, "\n");

		while (p < end) {
			size_t at = n ? indent : first;
			size_t room = at + 20 < WRAP ? WRAP - at : 20;
			size_t k = end - p;

			if (k > room) {
				/* the last blank that fits, else the first */
				for (k = room; k && p[k] != ' '; k--)
					;
				/* no blank to break at: the whole word */
				if (!k)
					for (k = room; p + k < end &&
					     p[k] != ' '; k++)
						;
			}
			if (n++)
				strbuf_addf(out, "%*s", (int)indent, "");
			else
				strbuf_addstr(out, head);
			strbuf_addf(out, "%.*s\n", (int)k, p);
			p += k;
			while (p < end && *p == ' ')
				p++;
		}
		p = end + (*end == '\n');
	}
}

void plan_text(const struct plan *p, struct strbuf *out)
{
	static const char *const basis[] = {
		[PLAN_THREAD] = "the benchmarks the thread reports",
		[PLAN_DIFF] = "what the diff touches (the thread names no benchmark sched-bot runs)",
		[PLAN_DEFAULT] = "the default set (neither the thread nor the diff chose)",
	};
	size_t i;

	char *layout = p->llc > 0 && p->node > 0 && p->socket > 0 ?
		xasprintf(" (%d socket%s, %d NUMA node%s, LLCs of %d)",
			  p->cpus / p->socket, p->cpus / p->socket == 1 ? "" : "s",
			  p->cpus / p->node, p->cpus / p->node == 1 ? "" : "s",
			  p->llc) : xstrdup("");
	const char *from = p->measured ? ", as the machine reports them" : "";
	char *cut = p->cut.cpus ?
		xasprintf(", the target's %d cut down (below)",
			  p->cut.target_cpus) : xstrdup("");
	char *head = xasprintf("Workloads chosen from %s, for the %s %d CPU%s%s%s%s:",
			       basis[p->basis],
			       p->cut.cpus ? "reporter's" : "target's", p->cpus,
			       p->cpus == 1 ? "" : "s", layout, from, cut);

	free(cut);
	free(layout);

	add_wrapped(out, "", 0, head);
	free(head);
	for (i = 0; i < p->nr; i++) {
		const struct plan_item *it = &p->items[i];
		char *name = xasprintf("\n- %s: ", it->workload);

		add_wrapped(out, name, 2, it->summary);
		strbuf_addf(out, "    %s\n", it->cmdline);
		add_wrapped(out, "  where: ", 9, it->placement);
		add_wrapped(out, "  why:   ", 9, it->why);
		free(name);
	}
	if (p->cut.asked) {
		char *h = xasprintf("The reporter's machine (matchReporter): %s",
				    p->cut.words ? p->cut.words : "not cut");

		strbuf_addch(out, '\n');
		add_wrapped(out, "", 0, h);
		free(h);
		if (p->cut.said)
			add_wrapped(out, "  said:  ", 9, p->cut.said);
		add_wrapped(out, "  why:   ", 9, p->cut.why);
	}
	if (p->budget > 0 && p->boot_seconds > p->budget) {
		char *over = xasprintf("One boot's runs take ~%d s as reckoned (-t + 10 s a run), past the %d s they may take: raise the target's timeout or lower job.seconds.",
				       p->boot_seconds,
				       p->budget);

		strbuf_addch(out, '\n');
		add_wrapped(out, "", 0, over);
		free(over);
	}
	if (p->nr_skips)
		strbuf_addstr(out, "\nNot run:\n");
	for (i = 0; i < p->nr_skips; i++) {
		char *line = xasprintf("%s: %s", p->skips[i].name,
				       p->skips[i].why);

		add_wrapped(out, "- ", 2, line);
		free(line);
	}
	if (p->nr_refs)
		strbuf_addch(out, '\n');
	/* a reference a reader follows: the message on lore */
	for (i = 0; i < p->nr_refs; i++) {
		char *link = lore_link(p->refs[i]);

		strbuf_addf(out, "[%zu] %s\n", i + 1, link);
		free(link);
	}
}

void plan_target_layout(const char *target, struct plan_opts *o)
{
	struct target_topo t;

	/* the local target is this machine as it is: no cells */
	o->as_booted = target_is(target, TARGET_HERE);
	if (!target_topology(target, &t) || t.cpus != o->cpus)
		return;
	o->socket = (int)(t.cpus / t.sockets);
	o->node = (int)(t.cpus / t.nodes);
	o->llc = (int)t.llc;
}

int plan_facts_layout(const char *facts, struct plan_opts *o)
{
	struct target_topo t;
	int whole = target_topology_of(facts, &t);

	if (t.cpus < 1)
		return 0;
	o->cpus = (int)t.cpus;
	o->measured = 1;
	o->llc = o->node = o->socket = 0;
	if (whole) {
		o->socket = (int)(t.cpus / t.sockets);
		o->node = (int)(t.cpus / t.nodes);
		o->llc = (int)t.llc;
	}
	return 1;
}

int plan_target_budget(const char *target)
{
	long t = target_run_budget(target);

	return t > 0 && t < 1000000 ? (int)t : 0;
}

void plan_target_match(const char *target, const char *facts,
		       struct plan_opts *o)
{
	long smp, mem;
	int set = target_shape(target, &smp, &mem);

	o->match_reporter = target_match_reporter(target);
	o->mem_mb = 0;
	if (target_is(target, TARGET_SHAPED) || set)
		o->mem_mb = mem > 0 ? (unsigned long long)mem : 0;
	else if (facts)
		o->mem_mb = target_facts_mem_mb(facts);
}
