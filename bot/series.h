/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - from a thread (an mbox) to the patch series in it, the way
 * b4 selects one: newest revision (or the one asked for), cover letter,
 * patches in order, missing ones, trailers collected from replies, base.
 *
 * All strings are UTF-8, owned by the series, freed by series_release().
 */
#ifndef SCHED_BOT_SERIES_H
#define SCHED_BOT_SERIES_H

#include <stddef.h>

#include "util.h"

#include "tblfmt.h"
#include "trailer.h"

struct patch {
	int index;		/* n of n/m; 0 for the cover letter */
	int total;		/* m */
	int version;		/* its revision: older than the series' when
				 * a partial re-roll left it unchanged
				 */
	char *msgid;		/* bare message-id */
	char *raw_subject;	/* the Subject: header, decoded */
	char *subject;		/* without the [PATCH ...] prefix */
	char *author_name;	/* From:, or an in-body From: */
	char *author_email;
	char *date;		/* Date: as sent (RFC 5322) */
	long long timestamp;	/* Date: as seconds since the epoch */
	int tz_offset;		/* minutes east of UTC */
	char *body;		/* commit message after the subject, without
				 * the trailers below, up to "---"
				 */
	char *diff;		/* from the first "diff --git"/"---" line on,
				 * "" when the mail carries no diff
				 */
	struct trailer *trailers;	/* in the mail and collected */
	size_t nr_trailers;
};

struct series {
	char *subject;		/* cover subject, else patch 1's, no prefix */
	int version;		/* 1 when no vN */
	int rfc;
	int resend;
	char *prefix;		/* "PATCH net-next v2" as found */
	char *author_name;
	char *author_email;
	char *thread_msgid;	/* the message-id the thread was asked by */
	struct patch *cover;	/* NULL when there is none */
	struct patch *patches;	/* in order; missing ones are absent */
	size_t nr_patches;
	int total;		/* m of n/m */
	int *missing;		/* indexes 1..total not found */
	size_t nr_missing;
	struct {
		char *commit;	/* full or abbreviated hash, or NULL */
		char *ref;	/* "v6.1-rc6", "tip/sched/core", or NULL */
		char *source;	/* "base-commit", "cover text", ... or NULL */
	} base;
	int *versions;		/* every revision seen in the thread */
	size_t nr_versions;
	struct tblfmt_scan formats;	/* the result tables posted in it */
	/*
	 * The To: and Cc: addresses of the cover letter (else of the first
	 * patch), lower-case, in header order, each once: the lists the
	 * series was sent to, for choosing the trees that may hold its
	 * base.  At most SERIES_MAX_ADDRESSES of them, each at most
	 * MAIL_ADDRESS_MAX bytes (hostile mail has thousands of Cc).
	 */
	char **to_cc;
	size_t nr_to_cc;
};

#define SERIES_MAX_ADDRESSES 256

/*
 * Select a series from an mboxrd text.  version 0 means the newest.
 * thread_msgid (may be NULL) is the message the user named.  Only the
 * covers and patches its author sent, or someone the author's own mails
 * vouch for (trailer_vouches()), are of the series: a "[PATCH v2]" that
 * someone else posted in the thread is not its newest version; asked
 * for by its Message-ID, it is a series of its own.  Returns 0, or -1
 * with an error printed (no patches, version not present, ...).
 */
int series_from_mbox(const char *mbox, size_t len, int version,
		     const char *thread_msgid, struct series *s);
void series_release(struct series *s);

/*
 * A Subject: line read the way b4 reads it: "Re: [RFC PATCH net-next v2
 * 1/3] sched: foo" gives reply 1, patch 1, rfc 1, version 2, 1 of 3,
 * prefix "RFC PATCH net-next v2 1/3", subject "sched: foo".
 */
struct subject_info {
	int reply;		/* Re:/Aw:/Fwd: in front */
	int patch;		/* PATCH or RFC in a [...] prefix */
	int rfc, resend;
	int version;		/* 1 when no vN */
	int index, total;	/* 0/0 when no n/m */
	char *prefix;		/* the bracketed words, space-joined */
	char *subject;		/* the rest */
};

void subject_parse(const char *raw, struct subject_info *si);
void subject_release(struct subject_info *si);

/*
 * The series named on a command line: a message-id (or lore URL),
 * fetched with lore_fetch_thread(), or an mbox file.  Returns an enum
 * exit_code (EXIT_OK, EXIT_NOTFOUND, EXIT_NETWORK, EXIT_FAIL) with an
 * error printed.
 */
int series_load(const char *arg, const char *mbox_path, int version,
		struct series *s);

/*
 * The series as JSON, the one schema of `series --json` and of a job's
 * series.json: an object (named key, or NULL at the top or in an array)
 * with subject, version, rfc, resend, prefix, thread_msgid, author
 * {name, email}, cover {msgid, subject, trailers} or null, total,
 * patches [{index, version, msgid, subject, author, date, has_diff,
 * trailers [{tag, name, email, from_msgid}]}], missing [n], base
 * {commit, ref, source}, versions [n].  Absent strings are null.
 */
struct json;
void series_to_json(const struct series *s, struct json *j, const char *key);
/* The same, pretty-printed on its own, ending in a newline. */
void series_json(const struct series *s, struct strbuf *out);

/* A slug for branch names: "sched-fair-choose-the-cpu-where-short". */
char *series_slug(const struct series *s);

#endif
