/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trailer.h - commit-message trailers ("Tested-by: Name <mail>"), parsed
 * the way b4 reads them from patches and from replies.
 */
#ifndef SCHED_BOT_TRAILER_H
#define SCHED_BOT_TRAILER_H

#include <stddef.h>

#include "util.h"

struct trailer {
	char *tag;		/* "Tested-by", as written (canonical case) */
	char *name;		/* may be "" for a bare address */
	char *email;		/* "" for a trailer that names no person */
	char *from_msgid;	/* the mail it came from (NULL: in the patch) */
	char *raw;		/* the line as written in the patch, or NULL */
};

/*
 * Parse one line ("Key: value", leading blanks allowed, quoted "> "
 * lines never match).  Returns 1 and fills t (tag in canonical case:
 * "tested-BY" -> "Tested-by"; for a person, name and email; otherwise
 * name holds the value and email is ""), or 0 when the line is no
 * trailer.  from_msgid is left NULL.
 */
int trailer_parse(const char *line, size_t len, struct trailer *t);

/* A tag whose value is a person: "...-by", "Cc", "Suggested-by" ... */
int trailer_is_person(const struct trailer *t);

/*
 * A Signed-off-by or Co-developed-by naming an address: in a patch, the
 * author vouches for that person, who may post a later version of the
 * series (series.h, lineage.h).
 */
int trailer_vouches(const struct trailer *t);

/*
 * Whether a reply's From (name, email) may give this trailer (b4's
 * rule): same address (case, +ext and one sub-domain level aside) or the
 * same name.
 */
int trailer_from_matches(const struct trailer *t, const char *from_name,
			 const char *from_email);

/* Same tag, name and address (case aside): one of them is redundant. */
int trailer_same(const struct trailer *a, const struct trailer *b);

void trailer_copy(struct trailer *dst, const struct trailer *src);
void trailer_release(struct trailer *t);

/*
 * "Tag: Name <email>", "Tag: <email>" for a bare address, "Tag: Name"
 * for a person without one, "Tag: value" otherwise; in a new string.
 */
char *trailer_format(const struct trailer *t);

/*
 * The trailer lines of a commit message, each ending in a newline: every
 * trailer as the patch wrote it (raw), else as trailer_format() writes
 * it, then "Link: <lore.url>/all/<msgid>/" when link_msgid is neither
 * NULL nor empty.  The commits `apply` makes and the mbox `am` writes
 * carry the same lines, so git am of the one gives the other.
 */
void trailer_add_lines(struct strbuf *out, const struct trailer *t,
		       size_t nr, const char *link_msgid);

#endif
