/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lore.h - talking to lore.kernel.org (any public-inbox over HTTP) with
 * libcurl.  The base URL is the config key lore.url (default
 * https://lore.kernel.org); threads come from <base>/all/<msgid>/t.mbox.gz.
 *
 * Every function returns 0 on success or an enum exit_code:
 * EXIT_NOTFOUND (404, unknown message-id or no search hits), EXIT_NETWORK
 * (server down or 5xx after retries), EXIT_FAIL (corrupt or truncated
 * data).  Errors are printed; nothing bad is ever cached.
 */
#ifndef SCHED_BOT_LORE_H
#define SCHED_BOT_LORE_H

#include "util.h"

/*
 * The bare message-id (no <>) from "<id>", "id", "id@host" or any lore
 * URL (…/all/<id>/, …/r/<id>, …/lkml/<id>/T/#u, percent-escaped).
 * NULL when arg holds none.
 */
char *lore_msgid_from_arg(const char *arg);

/* The whole thread as an mboxrd text (gunzipped), cached under
 * $XDG_CACHE_HOME/sched-bot/lore for lore.cacheMaxAge seconds. */
int lore_fetch_thread(const char *msgid, struct strbuf *mbox);

/* One raw message (<base>/all/<msgid>/raw). */
int lore_fetch_raw(const char *msgid, struct strbuf *mail);

/*
 * Search (public-inbox query syntax, e.g. "dfn:kernel/sched/ AND
 * s:PATCH AND rt:2.hours.ago.."), result as mboxrd; with threads set
 * whole threads of the hits (x=m&t=1).  Never cached.
 */
int lore_search(const char *query, int threads, struct strbuf *mbox);

#endif
