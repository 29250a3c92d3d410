// SPDX-License-Identifier: GPL-2.0
/*
 * lineage.c - versions of a series linked; see lineage.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lineage.h"
#include "series.h"
#include "state.h"
#include "trailer.h"
#include "util.h"

/* A change-id is b4's "YYYYMMDD-slug-hex": short, no spaces. */
#define CHANGE_ID_MAX 128
/* More matching families than this is ambiguous already. */
#define MAX_CANDIDATES 8
/* Addresses recorded as those who may post a later version. */
#define MAX_PEOPLE 64

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

char *lineage_subject_key(const char *subject)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = skip_ws(subject ? subject : "");
	int space = 0;

	for (;;) {
		const char *close;

		close = *p == '[' ? strchr(p, ']') : NULL;
		if (close) {
			p = skip_ws(close + 1);
		} else if (!strncasecmp(p, "re:", 3) ||
			   !strncasecmp(p, "aw:", 3)) {
			p = skip_ws(p + 3);
		} else if (!strncasecmp(p, "fwd:", 4)) {
			p = skip_ws(p + 4);
		} else {
			break;
		}
	}
	for (; *p; p++) {
		if (isspace((unsigned char)*p)) {
			space = 1;
			continue;
		}
		if (space && sb.len)
			strbuf_addch(&sb, ' ');
		space = 0;
		strbuf_addch(&sb, tolower((unsigned char)*p));
	}
	return strbuf_detach(&sb, NULL);
}

/* "change-id: X" at the start of a line of text, X bounded. */
static char *find_change_id(const char *text)
{
	const char *p = text;

	while (p && *p) {
		if (!strncasecmp(p, "change-id:", 10)) {
			const char *v = skip_ws(p + 10);
			size_t n = strcspn(v, " \t\r\n");

			if (n && n <= CHANGE_ID_MAX)
				return xstrndup(v, n);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

char *lineage_change_id(const struct series *s)
{
	const struct patch *first = s->cover ? s->cover :
				    s->nr_patches ? &s->patches[0] : NULL;
	char *id;

	if (!first)
		return NULL;
	/* b4 writes it below the "---", where the diff would be */
	id = find_change_id(first->diff ? first->diff : "");
	if (!id && first->body)
		id = find_change_id(first->body);
	return id;
}

static char *lower(const char *s)
{
	char *l = xstrdup(s ? s : ""), *p;

	for (p = l; *p; p++)
		*p = tolower((unsigned char)*p);
	return l;
}

/* A word of a space-separated list, whole. */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *word && (p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * The author and whom its own patches vouch for (trailer_vouches()):
 * who may post a later version, lower-case, space-separated, each once.
 */
static char *version_people(const struct series *s, const char *author)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, k, n = 1;

	strbuf_addstr(&sb, author);
	for (i = 0; i < s->nr_patches && n < MAX_PEOPLE; i++) {
		const struct patch *p = &s->patches[i];

		for (k = 0; k < p->nr_trailers && n < MAX_PEOPLE; k++) {
			const struct trailer *t = &p->trailers[k];
			char *e;

			/* collected from a reply: anyone's to give */
			if (t->from_msgid || !trailer_vouches(t) ||
			    strchr(t->email, ' '))
				continue;
			e = lower(t->email);
			if (!has_word(sb.buf, e)) {
				strbuf_addf(&sb, " %s", e);
				n++;
			}
			free(e);
		}
	}
	return strbuf_detach(&sb, NULL);
}

struct may_join {
	const char *author;
	int ok;
};

static int check_join(const struct state_version *v, void *data)
{
	struct may_join *m = data;

	if (!strcmp(v->author, m->author) ||
	    (v->people && has_word(v->people, m->author)))
		m->ok = 1;
	return m->ok;
}

/*
 * Whether author may add a version to family: it posted one of its
 * versions, or one of them vouched for it.  1, 0, or -1 on an error.
 */
static int may_join(struct state *st, long long family, const char *author)
{
	struct may_join m = { author, 0 };

	if (state_family_versions(st, family, check_join, &m) < 0)
		return -1;
	return m.ok;
}

struct has_version {
	int version;
	const char *msgid;
	int found;
};

static int check_version(const struct state_version *v, void *data)
{
	struct has_version *h = data;

	if (v->version == h->version && strcmp(v->msgid, h->msgid))
		h->found = 1;
	return 0;
}

/* The candidates of one kind of key: the union of every key's. */
static int candidates(struct state *st, const char *author,
		      const char *kind, char **keys, size_t nr,
		      long long *ids)
{
	int n = 0;
	size_t i;

	for (i = 0; i < nr && n <= MAX_CANDIDATES; i++) {
		long long got[MAX_CANDIDATES + 1];
		int k = state_families_by_key(st, author, kind, keys[i], got,
					      MAX_CANDIDATES + 1), a, b;

		if (k < 0)
			return -1;
		if (k > MAX_CANDIDATES + 1)
			k = MAX_CANDIDATES + 1;
		for (a = 0; a < k; a++) {
			for (b = 0; b < n && ids[b] != got[a]; b++)
				;
			if (b == n && n <= MAX_CANDIDATES)
				ids[n++] = got[a];
		}
	}
	return n;
}

struct link {
	struct state_version v;	/* the row to write; family as linked */
	char **keys;		/* [0] the cover's, or NULL; then patches' */
	size_t nr_keys;
	int resend;
};

/*
 * By author and subject: the one family whose versions share the
 * cover's subject, else a patch's.  v.family stays 0 and v.why says
 * why when there is none or more than one.
 */
static int link_by_subject(struct state *st, struct link *l)
{
	static const char *const kinds[] = { "cover", "patch" };
	long long ids[MAX_CANDIDATES + 1];
	size_t k;
	int n = 0;

	for (k = 0; k < ARRAY_SIZE(kinds) && !n; k++) {
		char **keys = k ? l->keys + 1 : l->keys;
		size_t nr = k ? l->nr_keys - 1 : 1;

		if (!k && !l->keys[0])
			continue;
		n = candidates(st, l->v.author, kinds[k], keys, nr, ids);
		if (n < 0)
			return -1;
		if (n > 1) {
			l->v.why = xasprintf("ambiguous: %s%d series of %s match by %s subject",
					     n > MAX_CANDIDATES ? "over " : "",
					     n > MAX_CANDIDATES ?
					     MAX_CANDIDATES : n,
					     l->v.author, kinds[k]);
			return 0;
		}
		if (n == 1) {
			struct has_version h = { l->v.version, l->v.msgid, 0 };

			if (state_family_versions(st, ids[0], check_version,
						  &h) < 0)
				return -1;
			if (h.found && !l->resend) {
				l->v.why = xasprintf("ambiguous: series %lld by author and %s subject has a v%d already",
						     ids[0], kinds[k],
						     l->v.version);
				return 0;
			}
			l->v.family = ids[0];
			l->v.why = xasprintf("author and %s subject",
					     kinds[k]);
		}
	}
	return 0;
}

static void link_keys(struct link *l, const struct series *s)
{
	size_t i;

	l->nr_keys = s->nr_patches + 1;
	l->keys = xcalloc(l->nr_keys, sizeof(*l->keys));
	if (s->cover)
		l->keys[0] = lineage_subject_key(s->cover->subject);
	for (i = 0; i < s->nr_patches; i++)
		l->keys[i + 1] = lineage_subject_key(s->patches[i].subject);
}

/* The version's row and keys, a new family with it when it needs one. */
static int link_write(struct state *st, struct link *l, int new_family,
		      int with_change_id)
{
	size_t i;

	if (state_begin(st) < 0)
		return -1;
	if (new_family) {
		l->v.family = state_family_new(st, with_change_id ?
					       l->v.change_id : NULL);
		if (l->v.family < 0)
			goto fail;
	}
	if (state_version_add(st, &l->v) < 0)
		goto fail;
	for (i = 0; i < l->nr_keys; i++)
		if (l->keys[i] && *l->keys[i] &&
		    state_version_key_add(st, l->v.msgid, i ? "patch" : "cover",
					  l->keys[i]) < 0)
			goto fail;
	if (state_commit(st) < 0)
		goto fail;
	return 0;
fail:
	state_rollback(st);
	return -1;
}

long long lineage_record(struct state *st, const struct series *s)
{
	const struct patch *first = s->cover ? s->cover :
				    s->nr_patches ? &s->patches[0] : NULL;
	struct state_version old;
	struct link l = { 0 };
	long long ret = -1, taken = 0;
	int new_family = 0, found;
	size_t i;

	if (!first)
		return 0;
	found = state_version_get(st, first->msgid, &old);
	if (found) {
		ret = found < 0 ? -1 : old.family;
		state_version_release(&old);
		return ret;
	}
	l.v.msgid = first->msgid;
	l.v.version = s->version;
	l.v.change_id = lineage_change_id(s);
	l.v.author = lower(s->author_email);
	l.v.people = version_people(s, l.v.author);
	l.v.subject = s->subject;
	l.resend = s->resend;
	link_keys(&l, s);
	if (l.v.change_id) {
		l.v.family = state_family_of_change_id(st, l.v.change_id);
		if (l.v.family < 0)
			goto out;
		/*
		 * A change-id is public: copied into a series of someone
		 * else's, it does not make it a version of this one.
		 */
		if (l.v.family) {
			int ok = may_join(st, l.v.family, l.v.author);

			if (ok < 0)
				goto out;
			if (!ok) {
				taken = l.v.family;
				l.v.family = 0;
			}
		}
		new_family = !l.v.family && !taken;
		if (!taken)
			l.v.why = xstrdup(new_family ?
					  "first with its change-id" :
					  "change-id");
	}
	if (!l.v.change_id || taken) {
		if (link_by_subject(st, &l) < 0)
			goto out;
		if (!l.v.family && !l.v.why) {
			new_family = 1;
			l.v.why = xstrdup("first of its subject and author");
		}
		if (taken) {
			char *why = xasprintf("%s; its change-id is series %lld's, whose authors neither sent nor signed off this one",
					      l.v.why, taken);

			free(l.v.why);
			l.v.why = why;
		}
	}
	if (link_write(st, &l, new_family, !taken) < 0)
		goto out;
	if (l.v.family)
		info("<%s>: v%d of series %lld (%s)", l.v.msgid, l.v.version,
		     l.v.family, l.v.why);
	else
		warning("<%s>: v%d left unlinked: %s", l.v.msgid,
			l.v.version, l.v.why);
	ret = l.v.family;
out:
	for (i = 0; i < l.nr_keys; i++)
		free(l.keys[i]);
	free(l.keys);
	free(l.v.change_id);
	free(l.v.author);
	free(l.v.people);
	free(l.v.why);
	return ret;
}
