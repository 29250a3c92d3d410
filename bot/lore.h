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
 *
 * Configuration (git-config keys, all optional):
 *   lore.url             base URL (default https://lore.kernel.org); a
 *                        private mirror may take "user:password@" in it,
 *                        which is handed to libcurl and never printed
 *   lore.cacheMaxAge     seconds a cached thread stays fresh (600; 0: off)
 *                        (older entries are pruned after an hour)
 *   lore.retries         retries after a 5xx, timeout or refused
 *                        connection (3)
 *   lore.retryDelay      first retry delay in ms, doubled each time (500)
 *   lore.timeout         seconds one request may take, retries and
 *                        their waits included (120)
 *   lore.connectTimeout  seconds to connect (10)
 *   lore.maxSize         largest mbox accepted, in MiB, after gunzip (256)
 *   lore.caInfo          CA bundle for an HTTPS lore with its own CA
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
 * Whether lore has a message (did our reply reach the list?): 0 when it
 * does, EXIT_NOTFOUND, silently, when it does not, else as above.
 */
int lore_check_message(const char *msgid);

/*
 * Search (public-inbox query syntax, e.g. "dfn:kernel/sched/ AND
 * s:PATCH AND rt:2.hours.ago.."), result as mboxrd; with threads set
 * whole threads of the hits (x=m&t=1).  Never cached.
 */
int lore_search(const char *query, int threads, struct strbuf *mbox);

/*
 * An Atom feed of the newest messages in /all/: of a search when query
 * is given (?q=...&x=A), else new.atom.  Never cached.
 */
int lore_atom(const char *query, struct strbuf *atom);

/* The message-id escaped for a URL path, as b4 does (quote_plus, '@'
 * kept). */
char *lore_quote_msgid(const char *msgid);

/* The link of a message, for Link: trailers: "<lore.url>/all/<msgid>/". */
char *lore_link(const char *msgid);

/* Skip the cache when reading (it is still refreshed): fetch --no-cache. */
void lore_cache_bypass(int bypass);

/* Number of messages in an mboxrd text ("From " lines). */
size_t lore_mbox_count(const char *mbox, size_t len);

/*
 * gunzip in into out (all members of a multi-member file).  A truncated
 * or corrupt stream, or an output over max bytes, is an error: returns
 * EXIT_FAIL with the reason in *why (static text).
 */
int lore_gunzip(const void *in, size_t len, size_t max,
		struct strbuf *out, const char **why);

#endif
