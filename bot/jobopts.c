// SPDX-License-Identifier: GPL-2.0
/*
 * jobopts.c - a job's options against its stored state (jobopts.h).
 */
#include <stdio.h>
#include <string.h>

#include "jobopts.h"
#include "util.h"

static const char *given(const char *v)
{
	return v && *v ? v : NULL;
}

/*
 * Whether the thread named (a message-id, an mbox) is another one than
 * the stored job's.  The cover's message-id names the job as well as
 * the one it was started with.
 */
int jobopts_other_thread(const struct job_state *s, const char *msgid,
			 const char *mbox)
{
	if (msgid && !job_same(msgid, s->msgid) && !job_same(msgid, s->cover_msgid))
		return 1;
	return mbox && !job_same(mbox, s->mbox);
}

/* One option of a job to resume: 1 (and the message) if it differs. */
static int differs(const char *dir, const char *opt, const char *stored,
		   const char *want)
{
	if (!want || job_same(stored, want))
		return 0;
	if (stored)
		error("job %s was started with %s %s; run with %s %s, or --restart to start it over with %s %s",
		      dir, opt,
		      stored, opt, stored, opt, want);
	else
		error("job %s was started without %s; run without %s, or --restart to start it over with %s %s",
		      dir, opt, opt,
		      opt, want);
	return 1;
}

/* The options given against the stored ones: how many differ. */
int jobopts_differ(const char *dir, const struct job_state *s,
		   const struct job_opts *o, const char *mbox)
{
	char stored[16], want[16];
	int n = 0;

	if (o->msgid && jobopts_other_thread(s, o->msgid, NULL)) {
		const char *mine = s->msgid ? s->msgid : s->cover_msgid;

		error("job %s belongs to <%s>, not <%s>; give no message-id to resume it, or --restart to start it over for <%s>",
		      dir, mine ? mine : "?", o->msgid, o->msgid);
		n++;
	}
	n += differs(dir, "--mbox", s->mbox, mbox);
	n += differs(dir, "--target", s->target, given(o->target));
	n += differs(dir, "--workloads", s->workloads,
		     given(o->workloads));
	snprintf(stored, sizeof(stored), "%d", s->runs);
	snprintf(want, sizeof(want), "%d", o->runs);
	n += differs(dir, "--runs", s->runs ? stored : NULL,
		     o->runs > 0 ? want : NULL);
	n += differs(dir, "--base", s->base, given(o->base));
	n += differs(dir, "--on-top", s->on_top, given(o->on_top));
	return n;
}

/*
 * A new job's options: the thread as chosen, the others as given, else
 * as old had them (a restart), else the configured defaults.
 */
void jobopts_start(struct job_state *s, const char *msgid, const char *mbox,
		   const struct job_opts *o, const struct job_state *old,
		   const struct job_defaults *d)
{
	job_state_set(&s->msgid, msgid);
	job_state_set(&s->mbox, mbox);
	job_state_set(&s->target, given(o->target) ? o->target :
		      old->target ? old->target :
		      d->target);
	job_state_set(&s->workloads, given(o->workloads) ? o->workloads :
		      old->workloads ? old->workloads :
		      d->workloads);
	s->runs = o->runs > 0 ? o->runs : old->runs > 0 ? old->runs :
		  d->runs;
	/* --runs N is a fixed design; without it the runs are adaptive */
	s->runs_fixed = o->runs > 0 ? 1 : old->runs_fixed;
	job_state_set(&s->base, given(o->base) ? o->base : old->base);
	job_state_set(&s->requested_by, given(o->requested_by) ?
		      o->requested_by : old->requested_by);
	job_state_set(&s->on_top, given(o->on_top) ? o->on_top :
		      old->on_top);
	job_state_set(&s->head, given(o->head) ? o->head : old->head);
	job_state_set(&s->merged_into, given(o->merged_into) ?
		      o->merged_into : old->merged_into);
	job_state_set(&s->report, given(o->report) ? o->report : old->report);
}
