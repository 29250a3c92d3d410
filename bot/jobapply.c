// SPDX-License-Identifier: GPL-2.0
/*
 * jobapply.c - the two ways a job's apply stage differs from applying
 * the series on its base: a command's diff on top of the series, and
 * the recheck of a merged series, where nothing is applied.
 */
#include <stdlib.h>
#include <string.h>

#include "dkim.h"
#include "jobapply.h"
#include "jobdir.h"
#include "mailcmd.h"
#include "mbox.h"
#include "series.h"
#include "tree.h"
#include "util.h"

/*
 * The command mail among the thread's: the one mail with that
 * Message-ID, or, when lore holds several (anyone can send a copy with
 * another diff), the one whose DKIM signature verifies for the domain
 * of the command's sender, as the command's did.  *copies counts them.
 */
static const struct mbox_msg *command_mail(const struct mbox *mb,
					   const char *id, const char *sender,
					   size_t *copies)
{
	const struct mbox_msg *one = NULL, *signed_one = NULL;
	const char *at = sender ? strrchr(sender, '@') : NULL;
	size_t i;

	*copies = 0;
	for (i = 0; i < mb->nr; i++) {
		const struct mbox_msg *m = &mb->msgs[i];
		char *copy;
		size_t len;

		if (!m->msgid || strcmp(m->msgid, id))
			continue;
		++*copies;
		one = m;
		if (signed_one || !at)
			continue;
		copy = xstrndup(m->data, m->len);
		len = mailcmd_drop_archive_msgid(copy, strlen(copy));
		if (dkim_check(copy, len, at + 1, NULL, NULL, NULL) == 1)
			signed_one = m;
		free(copy);
	}
	return *copies == 1 ? one : signed_one;
}

/*
 * A "#sched-bot test" command that carries a diff (a reviewer's "can
 * you rerun with:"): the diff, taken the way `git am` takes a mail,
 * goes on top of the series as one more commit, as syzbot's "#syz
 * test" takes a patch, so the patched kernel is the series plus it.
 * A command mail without a diff changes nothing.  Returns 0, 1 when
 * the diff did not apply (ar->fail says why), -1 on an error.
 */
int job_apply_on_top(const char *dir, struct job_state *s,
		     git_repository *repo, struct apply_result *ar)
{
	struct strbuf text = STRBUF_INIT;
	struct mbox mb = { 0 };
	struct series one;
	struct apply_result top;
	const struct mbox_msg *cmd = NULL;
	const char *id = s->on_top, *b;
	char *branch = NULL;
	size_t copies;
	int ret = 0, have_one = 0;

	memset(&top, 0, sizeof(top));
	if (jobdir_read(dir, "thread.mbox", &text) < 0) {
		strbuf_release(&text);
		return error("job %s has no thread.mbox", dir);
	}
	mbox_split_each(text.buf, text.len, &mb);
	cmd = command_mail(&mb, id, s->requested_by, &copies);
	if (!cmd && copies) {
		warning("<%s>, the command, is one of %zu mails with that Message-ID and none of them is signed by its sender's domain: the series is tested as it is",
			id, copies);
		goto out;
	}
	if (!cmd) {
		warning("<%s>, the command, is not in the thread: the series is tested as it is",
			id);
		goto out;
	}
	/* no diff: the series alone */
	if (!strstr(cmd->data, "\ndiff --git a/") ||
	    series_from_mbox(cmd->data, cmd->len, 0, id, &one))
		goto out;
	have_one = 1;
	if (!one.nr_patches)
		goto out;
	git_oid_cpy(&top.base, &ar->head);
	b = ar->branch && starts_with(ar->branch, "refs/heads/") ?
	    ar->branch + strlen("refs/heads/") : "sched-bot/series";
	branch = xasprintf("%s-on-top", b);
	if (apply_patches(repo, one.patches, one.nr_patches, branch,
			  APPLY_3WAY, &top) < 0) {
		struct apply_failure f = ar->fail;

		ar->fail = top.fail;
		top.fail = f;	/* released with top */
		ar->fail.index = ar->fail.total = s->nr_patches + 1;
		free(ar->fail.subject);
		ar->fail.subject = xasprintf("the diff of <%s>, on top", id);
		ret = 1;
		goto out;
	}
	info("applied the diff of <%s> on top of the series", id);
	git_oid_cpy(&ar->head, &top.head);
	ar->nr_applied += top.nr_applied;
	ar->nr_3way += top.nr_3way;
	free(ar->branch);
	ar->branch = top.branch;
	top.branch = NULL;
	s->on_top_applied = 1;
out:
	free(branch);
	apply_result_release(&top);
	if (have_one)
		series_release(&one);
	mbox_release(&mb);
	strbuf_release(&text);
	return ret;
}

/*
 * A recheck after merge: both sides are commits of the named tree as it
 * merged the series, nothing is applied, and the patch-ids are not
 * looked up (they are the rechecked job's: it would be a duplicate).
 */
int job_apply_merged(const char *dir, struct job_state *s,
		     git_repository *repo)
{
	struct strbuf log = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], *desc;
	git_oid base, head;

	if (!s->base || tree_resolve(repo, s->base, &base) < 0 ||
	    tree_resolve(repo, s->head, &head) < 0)
		return error("job %s: the merged commits %s..%s are not in the tree",
			     dir, job_str(s->base),
			     s->head);
	git_oid_tostr(hex, sizeof(hex), &base);
	job_state_set(&s->side[JOB_SIDE_BASE].commit, hex);
	desc = xasprintf("%s, the parent of the series' first commit there",
			 job_str(s->merged_into));
	job_state_set(&s->base_desc, desc);
	free(desc);
	git_oid_tostr(hex, sizeof(hex), &head);
	job_state_set(&s->side[JOB_SIDE_HEAD].commit, hex);
	strbuf_addf(&log, "base %s %s\nhead %s (the series as merged into %s)\n",
		    job_str(s->side[JOB_SIDE_BASE].commit),
		    s->base_desc, hex, job_str(s->merged_into));
	jobdir_write(dir, "apply.log", log.buf, log.len);
	strbuf_release(&log);
	s->stage = JOB_BUILD;
	return 0;
}
