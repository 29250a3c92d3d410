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
 * Configuration: the lore.* keys (`sched-bot config --keys` shows them
 * and their defaults), read once into struct lore_opts.  lore.url may
 * hold "user:password@" for a private mirror: it is handed to libcurl
 * and never printed.  A cached thread is fresh for lore.cacheMaxAge and
 * pruned when older than that and an hour.
 */
#ifndef SCHED_BOT_LORE_H
#define SCHED_BOT_LORE_H

#include "util.h"

/* The lore.* settings; strings must outlive their use. */
struct lore_opts {
	const char *url;		/* lore.url */
	long cache_max_age;		/* lore.cacheMaxAge, s; 0: off */
	long max_size;			/* lore.maxSize, MiB */
	long retries;			/* lore.retries */
	long retry_delay;		/* lore.retryDelay, ms */
	long timeout;			/* lore.timeout, s; 0: none */
	long connect_timeout;		/* lore.connectTimeout, seconds */
	const char *cainfo;		/* lore.caInfo */
};

/*
 * Use o from now on: the tool does so once at start-up
 * (builtin/config-opts.c fills it); a call that needs lore.* before it
 * is a bug.
 */
void lore_configure(const struct lore_opts *o);

/*
 * The bare message-id (no <>) from "<id>", "id", "id@host" or any lore
 * URL (…/all/<id>/, …/r/<id>, …/lkml/<id>/T/#u, percent-escaped).
 * NULL when arg holds none.
 */
char *lore_msgid_from_arg(const char *arg);

/* The whole thread as an mboxrd text (gunzipped), cached under
 * $XDG_CACHE_HOME/sched-bot/lore for lore.cacheMaxAge seconds.
 */
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
 * kept).
 */
char *lore_quote_msgid(const char *msgid);

/* The link of a message, for Link: trailers: "<lore.url>/all/<msgid>/". */
char *lore_link(const char *msgid);

/* Skip the cache when reading (it is still refreshed): fetch --no-cache. */
void lore_cache_bypass(int bypass);

struct stat;
/*
 * Each entry of the lore cache in dir (cache_path("lore")): the regular
 * files of its own names (t-*, raw-*), never through a link.  fn gets
 * dir's descriptor, the entry's name and its lstat.  The one place
 * that knows what the cache holds, for its expiry and for gc.
 */
void lore_cache_each(const char *dir,
		     void (*fn)(int dfd, const char *name,
				const struct stat *st, void *data),
		     void *data);

/* Number of messages in an mboxrd text ("From " lines). */
size_t lore_mbox_count(const char *mbox, size_t len);


#endif
