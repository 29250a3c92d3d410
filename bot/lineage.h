/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineage.h - the versions of one series linked, as b4 and Patchwork
 * link revisions: by b4's "change-id:" when the cover letter (else
 * patch 1) carries one, else by the author's address and the
 * normalised subject, the cover letter's first, then the patches'.
 *
 * A mis-link is worse than none: a later job would compare a series
 * with another's results.  So a version is left unlinked, and the
 * reason logged and recorded, when more than one series matches, or
 * when the one that matches holds that version number already (two
 * v1s of one subject are two series, unless one is a RESEND).  A
 * version with a change-id that no earlier version carries starts a
 * series of its own: it is never linked by subject.  A change-id is
 * public, so it links a version only when its author sent a version
 * of that series or is vouched for by one (the Signed-off-by and
 * Co-developed-by of its own patches, state_version.people); anyone
 * else's version is linked by its own author and subject, as if it
 * had none.
 */
#ifndef SCHED_BOT_LINEAGE_H
#define SCHED_BOT_LINEAGE_H

struct series;
struct state;

/*
 * A subject as versions of a series share it: without Re:/Fwd: and
 * [...] prefixes ([PATCH v2 1/3], RESEND, RFC, a tree's name), lower
 * case, runs of white space as one space.  Caller frees.
 */
char *lineage_subject_key(const char *subject);

/* b4's change-id: of the cover letter, else of patch 1; or NULL. */
char *lineage_change_id(const struct series *s);

/*
 * Record the version s in st (once: a version seen before keeps its
 * link) and link it to the earlier versions of its series.  Returns
 * the series' family id, 0 when the version is left unlinked, -1 on
 * an error of the state.
 */
long long lineage_record(struct state *st, const struct series *s);

#endif
