// SPDX-License-Identifier: GPL-2.0
/*
 * mailpolicy.c - where a job's reply goes, and whether it may carry a
 * Tested-by; see mailpolicy.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "align.h"
#include "facts.h"
#include "jobdir.h"
#include "mailpolicy.h"
#include "moderation.h"
#include "samples.h"
#include "target/target.h"
#include "util.h"

static struct mailpolicy_opts opts;
static int configured;

void mailpolicy_configure(const struct mailpolicy_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, an emulated result would go where nobody chose: a bug. */
static const struct mailpolicy_opts *po(void)
{
	if (!configured)
		die("BUG: mail policy used before mailpolicy_configure()");
	return &opts;
}

static const char *const dest_names[] = {
	[MAIL_LIST] = "list",
	[MAIL_MODERATORS] = "moderators",
	[MAIL_OUTBOX] = "outbox",
	[MAIL_AUTHOR] = "author",
};

const char *mail_dest_name(enum mail_dest d)
{
	return (size_t)d < ARRAY_SIZE(dest_names) ? dest_names[d] : "";
}

int mail_dest_from_name(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(dest_names); i++)
		if (!strcmp(name, dest_names[i]))
			return (int)i;
	return -1;
}

/* Any machine column of results.csv, or machine.txt, of QEMU TCG. */
static int job_emulated(const char *dir)
{
	struct sample_set set = { 0 };
	struct strbuf sb = STRBUF_INIT;
	char *csv = jobdir_path(dir, "results.csv");
	size_t i;
	int emulated = 0;

	if (!access(csv, R_OK) && !samples_read_file(csv, &set))
		for (i = 0; i < set.nr && !emulated; i++)
			emulated = facts_machine_emulated(set.v[i].machine);
	if (!emulated && !jobdir_read(dir, "machine.txt", &sb))
		emulated = facts_machine_emulated(sb.buf);
	sample_set_release(&set);
	strbuf_release(&sb);
	free(csv);
	return emulated;
}

/*
 * Whether the job's targets vouch: its one target, or every target of a
 * job on several (job.target "q2,q4"): a Tested-by stands for each
 * machine the reply has rows of.
 */
static int targets_vouch(const char *list)
{
	const char *p = list;
	int any = 0;

	while (p && *p) {
		size_t n = strcspn(p, ",");
		char *name = xstrndup(p, n);
		struct strbuf sb = STRBUF_INIT;
		int ok;

		strbuf_addstr(&sb, name);
		strbuf_trim(&sb);
		ok = !sb.len || target_vouches(sb.buf);
		any |= sb.len > 0;
		free(name);
		strbuf_release(&sb);
		if (!ok)
			return 0;
		p += n + (p[n] == ',');
	}
	return any;
}

void mailpolicy_facts(const char *dir, const struct job_state *js,
		      struct mail_facts *f)
{
	struct strbuf sb = STRBUF_INIT;
	char *verdict = NULL;

	memset(f, 0, sizeof(*f));
	f->outcome = js->outcome;
	f->target = js->target;
	f->fit = js->target && targets_vouch(js->target);
	f->identical = job_state_identical(js);
	f->layout_only = js->aligned == ALIGN_NOT_SEEN;
	f->align_failed = js->aligned == ALIGN_FAILED;
	/*
	 * a boot failure is the patched kernel's where the base ran
	 * (blocks.c); a build failure says which side
	 */
	f->failed_patched = js->outcome == JOB_BOOT_FAILED ?
			    !job_same(js->failed_which, "base") :
			    job_same(js->failed_which, "patched");
	f->base_named = js->base_named;
	f->base_desc = js->base_desc;
	f->same_as = js->same_as;
	if (job_outcome_failed(js->outcome) || js->outcome == JOB_DUPLICATE)
		return;
	if (!jobdir_read(dir, "compare.json", &sb))
		verdict = facts_verdict(sb.buf);
	strbuf_reset(&sb);
	/* a job from before compare.json: its verdict's words */
	if (!verdict && !jobdir_read(dir, "verdict.txt", &sb) &&
	    strstr(sb.buf, "noisy"))
		verdict = xstrdup("noisy");
	f->noisy = verdict && !strcmp(verdict, "noisy");
	f->emulated = job_emulated(dir);
	free(verdict);
	strbuf_release(&sb);
}

static void why(struct mail_decision *d, enum mail_dest dest,
		const char *fmt, ...) PRINTF(3, 4);
static void why(struct mail_decision *d, enum mail_dest dest,
		const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(d->why);
	d->why = strbuf_detach(&sb, NULL);
	d->dest = dest;
}

/* Someone should look before the list: the moderators, else nobody. */
static enum mail_dest to_moderators(void)
{
	return po()->nr_moderators ? MAIL_MODERATORS : MAIL_OUTBOX;
}

/* A failure: the list when the patch is at fault on a named base. */
static void decide_failure(const struct mail_facts *f,
			   struct mail_decision *d)
{
	if (f->outcome == JOB_APPLY_FAILED && !f->base_named)
		why(d, MAIL_OUTBOX, "an apply failure on %s, a base the series did not name", f->base_desc ? f->base_desc :
		    "the bot's default tree");
	else if (f->outcome != JOB_APPLY_FAILED && !f->failed_patched)
		why(d, MAIL_OUTBOX, "the base kernel failed too: not the patch's fault");
}

/* A measured job: where its verdict goes, whether it vouches. */
static int decide_measured(const struct mail_facts *f,
			   struct mail_decision *d)
{
	const char *e = po()->emulated ? po()->emulated : "outbox";

	if (f->identical) {
		why(d, MAIL_OUTBOX, "identical binaries: nothing was measured");
	} else if (f->emulated) {
		if (!strcmp(e, "outbox"))
			why(d, MAIL_OUTBOX, "emulated (QEMU TCG): its numbers say nothing of the kernel (reply.emulated = outbox)");
		else if (!strcmp(e, "author"))
			why(d, MAIL_AUTHOR, "emulated (QEMU TCG): to the author only (reply.emulated = author)");
		else if (strcmp(e, "list"))
			return error("reply.emulated must be outbox, author or list, not '%s'", e);
	} else if (f->noisy) {
		why(d, MAIL_OUTBOX, "too noisy to call: nothing to vouch for");
	} else if (f->layout_only) {
		why(d, MAIL_OUTBOX, "a regression only in one code layout (the alignment control did not see it)");
	} else if (!f->fit) {
		why(d, to_moderators(), "target %s is not fit to vouch (target.%s.vouch)", f->target ? f->target : "?",
		    f->target ? f->target : "NAME");
	} else if (f->outcome == JOB_REGRESSION && f->align_failed) {
		why(d, to_moderators(), "a regression the alignment control could not check (an aligned kernel did not build)");
	} else {
		d->tested_by = 1;
	}
	return 0;
}

int mailpolicy_decide(const struct mail_facts *f, struct mail_decision *d)
{
	int held;

	memset(d, 0, sizeof(*d));
	d->dest = MAIL_LIST;
	if (f->outcome == JOB_DUPLICATE)
		why(d, MAIL_OUTBOX, "a duplicate: its patches were tested as %s", f->same_as ? f->same_as : "an earlier job");
	else if (job_outcome_failed(f->outcome))
		decide_failure(f, d);
	else if (decide_measured(f, d) < 0)
		return -1;
	if (d->dest != MAIL_LIST)
		return 0;
	/* what the list would get, bot.moderation may hold first */
	held = moderation_holds(job_outcome_name(f->outcome));
	if (held < 0)
		return -1;
	if (held)
		why(d, MAIL_MODERATORS, "bot.moderation holds a %s",
		    job_outcome_name(f->outcome));
	return 0;
}

void mail_decision_release(struct mail_decision *d)
{
	free(d->why);
	d->why = NULL;
}

int mailpolicy_job(const char *dir, struct job_state *js, int *tested_by)
{
	struct mail_facts f;
	struct mail_decision d;
	int ret;

	mailpolicy_facts(dir, js, &f);
	ret = mailpolicy_decide(&f, &d);
	if (!ret) {
		job_state_set(&js->mail, mail_dest_name(d.dest));
		job_state_set(&js->mail_why, d.why);
		if (tested_by)
			*tested_by = d.tested_by;
		ret = d.dest;
	}
	mail_decision_release(&d);
	return ret;
}
