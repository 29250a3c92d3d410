// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - from a thread to the series in it, with b4's rules: the
 * newest revision (or the one asked for), patches in order, what is
 * missing, trailers from replies whose sender is the trailer's person,
 * cover-letter trailers for every patch, and the base the author named.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "lore.h"
#include "mail.h"
#include "mbox.h"
#include "series.h"
#include "trailer.h"
#include "util.h"

enum kind {
	K_REPLY,
	K_COVER,
	K_PATCH,
	K_OTHER,	/* a cover or patch of someone else's series */
};

struct tmsg {
	struct mail m;
	struct subject_info si;
	enum kind kind;
	int parsed;
	int promoted;		/* no [PATCH]: a mail with a diff */
	const char *raw;	/* the message as received (the split mbox) */
	size_t raw_len;
	size_t chosen_at;	/* 1 + its place in chosen[], 0: not chosen */
};

struct thread {
	struct tmsg *msgs;
	size_t nr;
	struct msgid_map ids;	/* Message-ID to index in msgs */
};

/* A cover or patch of the series asked for. */
static int of_series(const struct tmsg *tm)
{
	return tm->kind == K_COVER || tm->kind == K_PATCH;
}

/* ---- subjects ---------------------------------------------------- */

static int parse_uint(const char *s, size_t n, int *out)
{
	long v = 0;
	size_t i;

	if (!n || n > 6)
		return 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	*out = (int)v;
	return 1;
}

/* One word inside [...]: PATCH, RFC, RESEND, vN, n/m or anything else. */
static void subject_word(struct subject_info *si, const char *w, size_t n)
{
	const char *slash = memchr(w, '/', n);
	int a, b;

	if (n >= 5 && !strncasecmp(w, "PATCH", 5)) {
		si->patch = 1;
		w += 5;
		n -= 5;
		if (!n)
			return;
	}
	if (n == 3 && !strncasecmp(w, "RFC", 3)) {
		si->rfc = 1;
		si->patch = 1;
	} else if (n == 6 && !strncasecmp(w, "RESEND", 6)) {
		si->resend = 1;
	} else if (n >= 2 && (w[0] == 'v' || w[0] == 'V') &&
		   parse_uint(w + 1, n - 1, &a) && a > 0) {
		si->version = a;
	} else if (slash && parse_uint(w, slash - w, &a) &&
		   parse_uint(slash + 1, n - (slash - w) - 1, &b) && b > 0) {
		si->index = a;
		si->total = b;
	}
}

void subject_parse(const char *raw, struct subject_info *si)
{
	struct strbuf prefix = STRBUF_INIT;
	const char *p = raw ? raw : "", *q;

	memset(si, 0, sizeof(*si));
	si->version = 1;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		q = skip_prefix_ci(p, "re:");
		if (!q)
			q = skip_prefix_ci(p, "aw:");
		if (!q)
			q = skip_prefix_ci(p, "fwd:");
		if (!q)
			q = skip_prefix_ci(p, "fw:");
		if (q) {
			si->reply = 1;
			p = q;
			continue;
		}
		if (*p != '[')
			break;
		q = strchr(p, ']');
		if (!q)
			break;
		/* Words split on blanks and commas: "[net,v2,1/2]" too. */
		for (const char *w = p + 1; w < q;) {
			const char *e = w;

			while (e < q && !isspace((unsigned char)*e) && *e != ',')
				e++;
			if (e > w) {
				subject_word(si, w, e - w);
				if (prefix.len)
					strbuf_addch(&prefix, ' ');
				strbuf_add(&prefix, w, e - w);
			}
			w = e + 1;
		}
		p = q + 1;
	}
	si->prefix = strbuf_detach(&prefix, NULL);
	si->subject = xstrdup(p);
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, si->subject);
		strbuf_trim(&sb);
		free(si->subject);
		si->subject = strbuf_detach(&sb, NULL);
	}
}

void subject_release(struct subject_info *si)
{
	free(si->prefix);
	free(si->subject);
	memset(si, 0, sizeof(*si));
}

/* ---- bodies ------------------------------------------------------ */

static size_t line_len(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? (size_t)(nl - p) : strlen(p);
}

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* Where the diff part starts: "---", "diff --git", "Index: ", "--- a". */
static const char *find_diff(const char *body)
{
	const char *p;

	for (p = body; *p; p = next_line(p)) {
		size_t l = line_len(p);

		if ((l == 3 && !strncmp(p, "---", 3)) ||
		    (l == 4 && !strncmp(p, "--- ", 4)))
			return p;
		if (starts_with(p, "diff --git ") || starts_with(p, "Index: "))
			return p;
		if (starts_with(p, "--- ") && starts_with(next_line(p), "+++ "))
			return p;
	}
	return NULL;
}

static int has_diff(const char *body)
{
	const char *p;

	for (p = body; *p; p = next_line(p))
		/* b4's DIFF_RE: a git diff, a unified diff or a binary patch. */
		if (starts_with(p, "diff --git ") ||
		    starts_with(p, "GIT binary patch") ||
		    (starts_with(p, "--- ") && starts_with(next_line(p), "+++ ")))
			return 1;
	return 0;
}

static int has_trailer(const struct trailer *list, size_t nr,
		       const struct trailer *t)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (trailer_same(&list[i], t))
			return 1;
	return 0;
}

static void add_trailer(struct patch *p, size_t *alloc, const struct trailer *t)
{
	if (has_trailer(p->trailers, p->nr_trailers, t))
		return;
	ALLOC_GROW(p->trailers, p->nr_trailers, *alloc);
	trailer_copy(&p->trailers[p->nr_trailers++], t);
}

/*
 * Fill body, diff and the patch's own trailers (its last paragraph when
 * every line there is a trailer), and an in-body From: if any.
 */
static void split_patch(struct patch *p, const char *body, size_t *talloc)
{
	const char *d = find_diff(body), *msg = body, *para, *q;
	struct strbuf sb = STRBUF_INIT;
	size_t mlen;
	int all_trailers = 1, any = 0;

	/* git format-patch puts "From: author" first when someone else sends. */
	while (starts_with(msg, "From: ") || starts_with(msg, "Date: ") ||
	       starts_with(msg, "Subject: ")) {
		if (starts_with(msg, "From: ")) {
			char *v = xstrndup(msg + 6, line_len(msg) - 6);
			char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;

			if (lt && gt) {
				free(p->author_email);
				free(p->author_name);
				p->author_email = xstrndup(lt + 1, gt - lt - 1);
				*lt = 0;
				p->author_name = mail_decode_header(v);
				strbuf_addstr(&sb, p->author_name);
				strbuf_trim(&sb);
				free(p->author_name);
				p->author_name = strbuf_detach(&sb, NULL);
			}
			free(v);
		}
		msg = next_line(msg);
		if (*msg == '\n') {
			msg++;
			break;
		}
	}
	p->diff = xstrdup(d ? d : "");
	mlen = d ? (size_t)(d - msg) : strlen(msg);
	if (d && d < msg)
		mlen = 0;
	strbuf_add(&sb, msg, mlen);
	/* Trim trailing blank lines (and blanks at line ends there). */
	while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
		sb.len--;
	sb.buf[sb.len] = 0;
	/* The last paragraph. */
	para = sb.buf;
	for (q = sb.buf; *q; q = next_line(q))
		if (line_len(q) == 0 && q[1])
			para = q + 1;
	for (q = para; *q; q = next_line(q)) {
		struct trailer t;
		size_t l = line_len(q);

		if (!l)
			continue;
		if (trailer_parse(q, l, &t)) {
			any = 1;
			trailer_release(&t);
		} else if (q[0] != '[' && q[0] != ' ' && q[0] != '\t' &&
			   q[0] != '(') {
			all_trailers = 0;
			break;
		}
	}
	if (any && all_trailers) {
		for (q = para; *q; q = next_line(q)) {
			struct trailer t;
			size_t l = line_len(q);

			if (!l || !trailer_parse(q, l, &t)) {
				/* "[ upstream note ]": keep it as written. */
				if (l) {
					memset(&t, 0, sizeof(t));
					t.tag = xstrdup("");
					t.name = xstrndup(q, l);
					t.email = xstrdup("");
					t.raw = xstrndup(q, l);
					ALLOC_GROW(p->trailers, p->nr_trailers,
						   *talloc);
					p->trailers[p->nr_trailers++] = t;
				}
				continue;
			}
			t.raw = xstrndup(q, l);
			ALLOC_GROW(p->trailers, p->nr_trailers, *talloc);
			p->trailers[p->nr_trailers++] = t;
		}
		strbuf_setlen(&sb, para - sb.buf);
		while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
			sb.len--;
		sb.buf[sb.len] = 0;
	}
	if (sb.len)
		strbuf_addch(&sb, '\n');
	p->body = strbuf_detach(&sb, NULL);
}

/* ---- the thread ---------------------------------------------------- */

static struct tmsg *find_msg(struct thread *t, const char *id)
{
	size_t i;

	return msgid_map_get(&t->ids, id, &i) ? &t->msgs[i] : NULL;
}

/*
 * The patch or cover a reply belongs to: up the In-Reply-To chain
 * through replies we have, else the nearest References entry that is a
 * patch.  NULL when it hangs under nothing we know.
 */
static struct tmsg *reply_target(struct thread *t, struct tmsg *r)
{
	struct tmsg *cur = r, *parent;
	size_t i;
	int depth;

	for (depth = 0; depth < 256; depth++) {
		parent = find_msg(t, cur->m.in_reply_to);
		if (!parent && cur->m.nr_refs)
			parent = find_msg(t, cur->m.refs[cur->m.nr_refs - 1]);
		if (!parent || parent == r)
			break;
		if (parent->kind != K_REPLY)
			return parent;
		cur = parent;
	}
	for (i = r->m.nr_refs; i > 0; i--) {
		parent = find_msg(t, r->m.refs[i - 1]);
		if (parent && parent->kind != K_REPLY)
			return parent;
	}
	return NULL;
}

static const char *const bad_followup_tags[] = {
	"from", "author", "cc", "to", "phone", "email", "subject", "date",
};

static const char *const nonperson_tags[] = {
	"fixes", "link", "buglink", "obsoleted-by", "change-id",
	"base-commit",
};

static int in_list(const char *tag, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(tag, list[i]))
			return 1;
	return 0;
}

/* Trailers a reply gives (b4's follow-up rules), appended to out. */
static void reply_trailers(const struct tmsg *r, struct trailer **out,
			   size_t *nr, size_t *alloc)
{
	const char *p;

	for (p = r->m.body; *p; p = next_line(p)) {
		size_t l = line_len(p);
		struct trailer t;

		/* Nothing below the signature marker counts. */
		if (l == 3 && !strncmp(p, "-- ", 3))
			break;
		if (!trailer_parse(p, l, &t))
			continue;
		if (in_list(t.tag, bad_followup_tags,
			    ARRAY_SIZE(bad_followup_tags)) ||
		    (!trailer_is_person(&t) &&
		     !in_list(t.tag, nonperson_tags,
			      ARRAY_SIZE(nonperson_tags))) ||
		    strstr(t.name, "http://") || strstr(t.name, "https://") ||
		    !trailer_from_matches(&t, r->m.from_name,
					  r->m.from_email)) {
			trailer_release(&t);
			continue;
		}
		t.from_msgid = xstrdup(r->m.msgid ? r->m.msgid : "");
		ALLOC_GROW(*out, *nr, *alloc);
		(*out)[(*nr)++] = t;
	}
}

/*
 * tip-bot's "[tip: sched/core] subject" notifications: a header block
 * (Commit-ID, Author, ...), the subject again, then the commit as
 * merged.  The commit's author is the Author: line, not tip-bot.
 * Returns the body as git am would want it ("From: author" first), or
 * NULL when body is no such notification.
 */
static char *tip_bot_body(const char *body, char **subject)
{
	const char *p = body, *author = NULL, *subj;
	struct strbuf sb = STRBUF_INIT;

	if (!starts_with(p, "The following commit has been merged into "))
		return NULL;
	for (p = next_line(p); *p == '\n'; p++)
		;
	while (*p && *p != '\n') {
		if (starts_with(p, "Author:")) {
			author = p + 7;
			while (*author == ' ' || *author == '\t')
				author++;
		}
		p = next_line(p);
	}
	while (*p == '\n')
		p++;
	subj = p;
	while (*p && *p != '\n')
		p = next_line(p);
	if (!*p || !author)
		return NULL;
	*subject = xstrndup(subj, p - subj - 1);
	for (char *c = *subject; *c; c++)
		if (*c == '\n')
			*c = ' ';
	strbuf_addf(&sb, "From: %.*s\n\n", (int)line_len(author), author);
	strbuf_addstr(&sb, p + 1);
	return strbuf_detach(&sb, NULL);
}

/*
 * A diff inline in a reply ("can you rerun with:"): the prose is the
 * message, without what it quotes and the "On ..., X wrote:" line.
 */
static char *reply_body(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *d = find_diff(text);
	char *body;

	for (p = text; *p; p = next_line(p)) {
		size_t l = line_len(p);

		if (d && p >= d) {
			strbuf_addstr(&sb, p);
			break;
		}
		if (*p == '>' || (l > 6 && !strncmp(p + l - 6, "wrote:", 6)))
			continue;
		strbuf_add(&sb, p, l);
		strbuf_addch(&sb, '\n');
	}
	/* No blank lines first: the message starts at the first word. */
	for (p = sb.buf; *p == '\n'; p++)
		;
	body = xstrdup(p);
	strbuf_release(&sb);
	return body;
}

static void fill_patch(struct patch *p, const struct tmsg *tm, size_t *talloc)
{
	char *subject = NULL, *body;

	memset(p, 0, sizeof(*p));
	p->index = tm->si.index;
	p->total = tm->si.total;
	p->version = tm->si.version;
	p->msgid = xstrdup(tm->m.msgid ? tm->m.msgid : "");
	p->raw_subject = xstrdup(tm->m.subject);
	p->subject = xstrdup(tm->si.subject);
	p->author_name = xstrdup(tm->m.from_name);
	p->author_email = xstrdup(tm->m.from_email);
	p->date = xstrdup(tm->m.date);
	p->timestamp = tm->m.timestamp;
	p->tz_offset = tm->m.tz_offset;
	if (tm->kind == K_COVER) {
		p->body = xstrdup(tm->m.body);
		p->diff = xstrdup("");
		return;
	}
	body = tip_bot_body(tm->m.body, &subject);
	if (body) {
		free(p->subject);
		p->subject = subject;
	} else if (tm->promoted && tm->m.in_reply_to) {
		body = reply_body(tm->m.body);
	}
	split_patch(p, body ? body : tm->m.body, talloc);
	free(body);
}

/*
 * No [PATCH] mail at all: the mail asked for, else the first, that
 * carries a diff is one patch, the way git am takes any mail.
 */
static void promote_diff(struct thread *t, const char *msgid)
{
	struct tmsg *pick = NULL;
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->msgs[i].kind != K_REPLY)
			return;
	for (i = 0; i < t->nr; i++) {
		struct tmsg *tm = &t->msgs[i];

		if (!has_diff(tm->m.body))
			continue;
		if (msgid && tm->m.msgid && !strcmp(tm->m.msgid, msgid)) {
			pick = tm;
			break;
		}
		if (!pick)
			pick = tm;
	}
	if (!pick)
		return;
	pick->kind = K_PATCH;
	pick->promoted = 1;
	pick->si.index = 1;
	pick->si.total = 1;
}

/* ---- base ---------------------------------------------------------- */

static int is_hex_word(const char *s, size_t n)
{
	size_t i;

	if (n < 7 || n > 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return 1;
}

static size_t word_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	return n;
}

static int find_base_commit(const char *text, struct series *s)
{
	const char *p;

	for (p = text; *p; p = next_line(p)) {
		const char *v;
		size_t n;

		if (!starts_with(p, "base-commit:"))
			continue;
		v = p + 12;
		while (*v == ' ' || *v == '\t')
			v++;
		n = word_len(v);
		if (!is_hex_word(v, n))
			continue;
		s->base.commit = xstrndup(v, n);
		s->base.source = xstrdup("base-commit");
		return 1;
	}
	return 0;
}

/* "v6.1-rc6", "v6.13", "v6.6.10": a kernel tag at s, its length or 0. */
static size_t tag_len(const char *s)
{
	size_t n = 1;

	if (s[0] != 'v' || !isdigit((unsigned char)s[1]))
		return 0;
	while (isdigit((unsigned char)s[n]))
		n++;
	if (s[n] != '.' || !isdigit((unsigned char)s[n + 1]))
		return 0;
	n++;
	while (isdigit((unsigned char)s[n]) ||
	       (s[n] == '.' && isdigit((unsigned char)s[n + 1])))
		n++;
	if (!strncmp(s + n, "-rc", 3) && isdigit((unsigned char)s[n + 3])) {
		n += 3;
		while (isdigit((unsigned char)s[n]))
			n++;
	}
	return n;
}

static const char *const base_words[] = {
	"baseline is", "based on", "based against", "on top of",
	"rebased to", "rebased onto", "rebased on", "applies to",
	"applies on", "against",
};

/* Free text as sched authors write it, one unquoted line at a time. */
static int find_base_text(const char *text, const char *source,
			  struct series *s)
{
	const char *p;

	for (p = text; *p; p = next_line(p)) {
		size_t l = line_len(p), i, k;
		char *line, *lower, *at = NULL;

		if (*p == '>' || l > 400)
			continue;
		if (starts_with(p, "diff --git "))
			break;
		line = xstrndup(p, l);
		lower = xstrdup(line);
		for (i = 0; lower[i]; i++)
			lower[i] = tolower((unsigned char)lower[i]);
		for (k = 0; k < ARRAY_SIZE(base_words) && !at; k++)
			at = strstr(lower, base_words[k]);
		if (!at) {
			free(line);
			free(lower);
			continue;
		}
		/* A ref (tag or tree:branch) and a commit after the words. */
		for (i = at - lower; line[i]; i++) {
			size_t n;

			if (i && !isspace((unsigned char)line[i - 1]) &&
			    line[i - 1] != '(' && line[i - 1] != '\'' &&
			    line[i - 1] != '"')
				continue;
			n = tag_len(line + i);
			if (n && !s->base.ref) {
				s->base.ref = xstrndup(line + i, n);
				i += n - 1;
				continue;
			}
			n = word_len(line + i);
			while (n && strchr(".,;:)'\"", line[i + n - 1]))
				n--;
			if (!s->base.commit && is_hex_word(line + i, n) &&
			    n >= 12) {
				s->base.commit = xstrndup(line + i, n);
				i += n - 1;
				continue;
			}
			if (!s->base.ref && n > 4 && memchr(line + i, '/', n) &&
			    !memchr(line + i, '@', n) &&
			    !strstr(line + i, "://") &&
			    (!strncmp(line + i, "tip:", 4) ||
			     !strncmp(line + i, "tip/", 4) ||
			     memchr(line + i, ':', n) ||
			     !strncmp(line + i, "sched/", 6) ||
			     strstr(lower + i, "linux-next") ||
			     strstr(lower + i, "next/"))) {
				char *r = xstrndup(line + i, n), *c;

				/* "tip:sched/core" is the branch tip/sched/core. */
				c = strchr(r, ':');
				if (c)
					*c = '/';
				s->base.ref = r;
				i += n - 1;
			}
		}
		free(line);
		free(lower);
		if (s->base.ref || s->base.commit) {
			s->base.source = xstrdup(source);
			return 1;
		}
	}
	return 0;
}

static void find_base(struct series *s)
{
	size_t i;

	if (s->cover && find_base_commit(s->cover->body, s))
		return;
	for (i = 0; i < s->nr_patches; i++)
		if (find_base_commit(s->patches[i].diff, s) ||
		    find_base_commit(s->patches[i].body, s))
			return;
	if (s->cover && find_base_text(s->cover->body, "cover text", s))
		return;
	for (i = 0; i < s->nr_patches; i++)
		if (find_base_text(s->patches[i].body, "patch text", s))
			return;
}

/* ---- selection ----------------------------------------------------- */

static void classify(struct tmsg *tm)
{
	int diff = has_diff(tm->m.body);

	subject_parse(tm->m.subject, &tm->si);
	tm->kind = K_REPLY;
	if (tm->si.reply)
		return;
	if (tm->si.index == 0 && tm->si.total > 0 && tm->si.patch) {
		tm->kind = K_COVER;
	} else if (diff && (tm->si.patch || !tm->m.in_reply_to)) {
		tm->kind = K_PATCH;
		if (!tm->si.index) {
			tm->si.index = 1;
			tm->si.total = 1;
		}
	}
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_patch(const void *a, const void *b)
{
	return ((const struct patch *)a)->index -
	       ((const struct patch *)b)->index;
}

/* The largest n of n/m in the thread: at most 6 digits (parse_uint). */
static int max_index(const struct thread *t)
{
	int max = 1;
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->msgs[i].si.index > max)
			max = t->msgs[i].si.index;
	return max;
}

/*
 * tm as the patch of its n/m unless one was taken already (the first
 * sent wins): one look-up in taken, not a walk of every patch chosen.
 */
static void take(struct tmsg *tm, struct series *s, struct tmsg **chosen,
		 unsigned char *taken)
{
	if (taken[tm->si.index])
		return;
	taken[tm->si.index] = 1;
	chosen[s->nr_patches++] = tm;
	tm->chosen_at = s->nr_patches;
}

/*
 * A partial re-roll (b4): v3 of only some patches, sent into the v2
 * thread.  The patches it did not resend, and the cover, come from the
 * newest older revision with the same n/m.
 */
static void backfill(struct thread *t, int version, struct series *s,
		     struct tmsg **chosen, struct tmsg **cover,
		     unsigned char *taken)
{
	size_t i, k;

	/* the revisions the thread has, newest first: not every number */
	for (k = s->nr_versions; k-- > 0;) {
		int v = s->versions[k];

		if (v >= version)
			continue;
		for (i = 0; i < t->nr; i++) {
			struct tmsg *tm = &t->msgs[i];

			if (!of_series(tm) || tm->si.version != v ||
			    tm->si.total != s->total)
				continue;
			if (tm->kind == K_COVER) {
				if (!*cover)
					*cover = tm;
				continue;
			}
			take(tm, s, chosen, taken);
		}
	}
}

static int is_chosen(const struct tmsg *tm, const struct tmsg *cover)
{
	return tm == cover || tm->chosen_at;
}

/* ---- the addresses a series was sent to ------------------------- */

/*
 * The addresses of a To:/Cc: value, added to s->to_cc (each once)
 * until it holds SERIES_MAX_ADDRESSES.
 */
static void add_addresses(struct series *s, size_t *alloc, const char *v)
{
	struct mail_addr *a;
	size_t nr, i, j;

	/* no limit on the split: duplicates do not count against the cap */
	nr = mail_split_addresses(v, 0, &a);
	for (i = 0; i < nr && s->nr_to_cc < SERIES_MAX_ADDRESSES; i++) {
		for (j = 0; j < s->nr_to_cc; j++)
			if (!strcmp(s->to_cc[j], a[i].email))
				break;
		if (j < s->nr_to_cc)
			continue;
		ALLOC_GROW(s->to_cc, s->nr_to_cc, *alloc);
		s->to_cc[s->nr_to_cc++] = a[i].email;
		a[i].email = NULL;
	}
	mail_free_addresses(a, nr);
}

static void find_to_cc(struct series *s, const char *raw, size_t len)
{
	static const char *const fields[] = { "To", "Cc" };
	size_t i, alloc = 0;

	for (i = 0; raw && i < ARRAY_SIZE(fields); i++) {
		char *v = mbox_header(raw, len, fields[i]);

		add_addresses(s, &alloc, v);
		free(v);
	}
}

static void thread_release(struct thread *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		if (t->msgs[i].parsed) {
			mail_release(&t->msgs[i].m);
			subject_release(&t->msgs[i].si);
		}
	}
	free(t->msgs);
	msgid_map_release(&t->ids);
}

/* Parses the messages of the mbox into the thread, indexed by Message-ID. */
static void thread_parse(struct thread *t, const struct mbox *mb,
			 struct series *s)
{
	size_t i;

	t->msgs = xcalloc(mb->nr ? mb->nr : 1, sizeof(*t->msgs));
	for (i = 0; i < mb->nr; i++) {
		struct tmsg *tm = &t->msgs[t->nr];

		if (mail_parse(mb->msgs[i].data, mb->msgs[i].len, &tm->m))
			continue;
		tm->parsed = 1;
		tm->raw = mb->msgs[i].data;
		tm->raw_len = mb->msgs[i].len;
		classify(tm);
		tblfmt_add(&s->formats, &tm->m);
		if (tm->m.msgid)
			msgid_map_put(&t->ids, tm->m.msgid, t->nr);
		t->nr++;
	}
	tblfmt_finish(&s->formats);
}

/*
 * The top of the chain m hangs under, through the mails we have
 * (In-Reply-To, else the last References entry): m itself when it
 * hangs under nothing here.
 */
static struct tmsg *thread_root(struct thread *t, struct tmsg *m)
{
	struct tmsg *cur = m, *parent;
	int depth;

	for (depth = 0; depth < 256; depth++) {
		parent = find_msg(t, cur->m.in_reply_to);
		if (!parent && cur->m.nr_refs)
			parent = find_msg(t, cur->m.refs[cur->m.nr_refs - 1]);
		if (!parent || parent == m)
			break;
		cur = parent;
	}
	return cur;
}

/*
 * public-inbox threads mails of one subject that carry no References
 * together, so two authors' series of the same subject can come as one
 * thread.  The series asked for is the asked mail's: what hangs under
 * its root, or comes from its author (a later version posted afresh).
 * Another author's mails under another root are not patches of it:
 * they become replies that hang under nothing of the series.
 */
static void keep_asked(struct thread *t, const char *msgid)
{
	struct tmsg *asked = msgid ? find_msg(t, msgid) : NULL, *root;
	size_t i;

	if (!asked)
		return;
	root = thread_root(t, asked);
	for (i = 0; i < t->nr; i++) {
		struct tmsg *tm = &t->msgs[i];

		if (tm->kind == K_REPLY || thread_root(t, tm) == root ||
		    !strcasecmp(tm->m.from_email, asked->m.from_email))
			continue;
		tm->kind = K_REPLY;
	}
}

/* Addresses, each once, compared without case. */
struct people {
	const char **v;
	size_t nr, alloc;
};

static const char *addr_of(const struct tmsg *tm)
{
	return tm->m.from_email ? tm->m.from_email : "";
}

static int people_has(const struct people *p, const char *email)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcasecmp(p->v[i], email))
			return 1;
	return 0;
}

static void people_add(struct people *p, const char *email)
{
	if (!*email || people_has(p, email))
		return;
	ALLOC_GROW(p->v, p->nr, p->alloc);
	p->v[p->nr++] = email;
}

/*
 * The Signed-off-by and Co-developed-by of one mail, written by its
 * sender above the diff.  The trailers' strings are kept in *keep,
 * which the caller releases with the people.
 */
static void add_vouched(struct people *p, const struct tmsg *tm,
			struct trailer **keep, size_t *nr, size_t *alloc)
{
	const char *end = find_diff(tm->m.body), *l;

	for (l = tm->m.body; *l && (!end || l < end); l = next_line(l)) {
		struct trailer t;

		if (!trailer_parse(l, line_len(l), &t))
			continue;
		if (!trailer_vouches(&t) || *nr >= 64) {
			trailer_release(&t);
			continue;
		}
		ALLOC_GROW(*keep, *nr, *alloc);
		(*keep)[(*nr)++] = t;
		people_add(p, t.email);
	}
}

/*
 * Whose series the thread's is: the sender of the root of the asked
 * mail's thread when that is a cover or patch, else of its first cover
 * or patch of the lowest revision (the first in the thread when none
 * was asked for).
 */
static struct tmsg *series_owner(struct thread *t, const char *msgid)
{
	struct tmsg *asked = msgid ? find_msg(t, msgid) : NULL;
	struct tmsg *root, *first = NULL;
	size_t i;

	for (i = 0; !asked && i < t->nr; i++)
		if (of_series(&t->msgs[i]))
			asked = &t->msgs[i];
	if (!asked)
		return NULL;
	root = thread_root(t, asked);
	if (of_series(root))
		return root;
	for (i = 0; i < t->nr; i++) {
		struct tmsg *tm = &t->msgs[i];

		if (of_series(tm) && thread_root(t, tm) == root &&
		    (!first || tm->si.version < first->si.version))
			first = tm;
	}
	return first ? first : asked;
}

/*
 * Anyone can post a "[PATCH v2]" into someone's thread; taken as the
 * newest revision it would be tested, and answered, as the author's.
 * A version is of the series only when its sender is the series'
 * author or someone the author's own mails vouch for (Signed-off-by,
 * Co-developed-by: a co-author, a maintainer who sends it on).  Asked
 * for a mail of someone else, the series is that sender's alone, with
 * nothing of the author's: a series of its own, its own lineage.
 * Another's covers and patches are neither patches of it nor replies
 * whose trailers count.
 */
static void keep_vouched(struct thread *t, const char *msgid)
{
	struct tmsg *owner = series_owner(t, msgid);
	struct tmsg *asked = msgid ? find_msg(t, msgid) : NULL;
	struct people p = { 0 };
	struct trailer *keep = NULL;
	size_t i, nr = 0, alloc = 0;

	/* no sender to tell the series' mails by */
	if (!owner || !*addr_of(owner))
		return;
	people_add(&p, addr_of(owner));
	for (i = 0; i < t->nr; i++)
		if (of_series(&t->msgs[i]) &&
		    !strcasecmp(addr_of(&t->msgs[i]), addr_of(owner)))
			add_vouched(&p, &t->msgs[i], &keep, &nr, &alloc);
	/* the author's to say: what the other's own mails claim is not */
	if (asked && of_series(asked) && !people_has(&p, addr_of(asked))) {
		p.nr = 0;
		people_add(&p, addr_of(asked));
	}
	for (i = 0; i < t->nr; i++) {
		struct tmsg *tm = &t->msgs[i];

		if (!of_series(tm) || people_has(&p, addr_of(tm)))
			continue;
		debug("<%s>: a %s of %s, not of this series",
		      tm->m.msgid ? tm->m.msgid : "?",
		      tm->kind == K_COVER ? "cover" : "patch", addr_of(tm));
		tm->kind = K_OTHER;
	}
	for (i = 0; i < nr; i++)
		trailer_release(&keep[i]);
	free(keep);
	free(p.v);
}

/*
 * Lists every revision seen in s->versions (sorted) and picks the one
 * asked for, or the newest when *version is 0.  -1 (said) when the
 * thread has no patches or not that revision.
 */
static int pick_version(const struct thread *t, struct series *s,
			int *version)
{
	size_t i, j, valloc = 0;
	int newest = 0, found = 0;

	for (i = 0; i < t->nr; i++) {
		int v = t->msgs[i].si.version, seen = 0;

		if (!of_series(&t->msgs[i]))
			continue;
		for (j = 0; j < s->nr_versions; j++)
			seen |= s->versions[j] == v;
		if (!seen) {
			ALLOC_GROW(s->versions, s->nr_versions, valloc);
			s->versions[s->nr_versions++] = v;
		}
		if (v > newest)
			newest = v;
	}
	if (!s->nr_versions) {
		error("no patches in the thread (%zu messages)", t->nr);
		return -1;
	}
	qsort(s->versions, s->nr_versions, sizeof(int), cmp_int);
	if (!*version) {
		*version = newest;
		return 0;
	}
	for (j = 0; j < s->nr_versions; j++)
		found |= s->versions[j] == *version;
	if (!found) {
		error("no v%d in the thread (newest is v%d)", *version, newest);
		return -1;
	}
	return 0;
}

/* The cover and one mail per index of that revision (the first sent wins). */
static void choose_patches(struct thread *t, int version, struct series *s,
			   struct tmsg **chosen, struct tmsg **cover,
			   unsigned char *taken)
{
	size_t i;
	int maxindex = 0;

	for (i = 0; i < t->nr; i++) {
		struct tmsg *tm = &t->msgs[i];

		if (!of_series(tm) || tm->si.version != version)
			continue;
		if (tm->kind == K_COVER) {
			if (!*cover)
				*cover = tm;
			if (tm->si.total > s->total)
				s->total = tm->si.total;
			continue;
		}
		if (tm->si.total > s->total)
			s->total = tm->si.total;
		if (tm->si.index > maxindex)
			maxindex = tm->si.index;
		take(tm, s, chosen, taken);
	}
	/* "[PATCH v2 3/2]" extends the series, as b4 does. */
	if (maxindex > s->total)
		s->total = maxindex;
}

/*
 * The chosen mails as s->patches and s->cover; returns, per patch, the
 * allocated size of its trailer array.
 */
static size_t *fill_patches(struct series *s, struct tmsg *const *chosen,
			    const struct tmsg *cover)
{
	size_t j, *talloc;

	s->patches = xcalloc(s->nr_patches ? s->nr_patches : 1,
			     sizeof(*s->patches));
	talloc = xcalloc(s->nr_patches ? s->nr_patches : 1, sizeof(*talloc));
	for (j = 0; j < s->nr_patches; j++)
		fill_patch(&s->patches[j], chosen[j], &talloc[j]);
	if (cover) {
		size_t dummy = 0;

		s->cover = xcalloc(1, sizeof(*s->cover));
		fill_patch(s->cover, cover, &dummy);
	}
	return talloc;
}

/*
 * Trailers from replies, each to the patch it hangs under; those given
 * to the cover letter go to every patch, and to the cover.
 */
static void hang_trailers(struct thread *t, struct series *s,
			  const struct tmsg *cover, size_t *talloc)
{
	struct trailer *cover_tr = NULL;
	size_t i, j, cover_nr = 0, cover_alloc = 0;

	for (i = 0; i < t->nr; i++) {
		struct tmsg *r = &t->msgs[i], *target;
		struct trailer *tr = NULL;
		size_t nr = 0, alloc = 0, k;

		if (r->kind != K_REPLY)
			continue;
		target = reply_target(t, r);
		if (!target || !is_chosen(target, cover))
			continue;
		reply_trailers(r, &tr, &nr, &alloc);
		for (k = 0; k < nr; k++) {
			if (target == cover && !has_trailer(cover_tr, cover_nr,
							    &tr[k])) {
				ALLOC_GROW(cover_tr, cover_nr, cover_alloc);
				trailer_copy(&cover_tr[cover_nr++], &tr[k]);
			}
			if (target->chosen_at)
				add_trailer(&s->patches[target->chosen_at - 1],
					    &talloc[target->chosen_at - 1],
					    &tr[k]);
			trailer_release(&tr[k]);
		}
		free(tr);
	}
	for (j = 0; j < s->nr_patches; j++)
		for (i = 0; i < cover_nr; i++)
			add_trailer(&s->patches[j], &talloc[j], &cover_tr[i]);
	if (s->cover) {
		s->cover->trailers = cover_tr;
		s->cover->nr_trailers = cover_nr;
		cover_tr = NULL;
		cover_nr = 0;
	}
	for (i = 0; i < cover_nr; i++)
		trailer_release(&cover_tr[i]);
	free(cover_tr);
}

/*
 * The indexes from 1 to s->total that no patch has: one walk of the
 * patches, sorted by index.
 */
static void find_missing(struct series *s)
{
	size_t j = 0, alloc = 0;

	for (int n = 1; n <= s->total; n++) {
		while (j < s->nr_patches && s->patches[j].index < n)
			j++;
		if (j < s->nr_patches && s->patches[j].index == n)
			continue;
		ALLOC_GROW(s->missing, s->nr_missing, alloc);
		s->missing[s->nr_missing++] = n;
	}
}

/*
 * Subject, prefix, author, RFC and RESEND of the series: those of the
 * cover, else of its first patch.
 */
static void series_identity(struct series *s, struct tmsg *const *chosen,
			    const struct tmsg *cover)
{
	const struct tmsg *first = cover;
	size_t j;

	if (!first)
		for (j = 0; j < s->nr_patches; j++)
			if (!first || chosen[j]->si.index < first->si.index)
				first = chosen[j];
	s->subject = xstrdup(first ? first->si.subject : "");
	s->prefix = xstrdup(first ? first->si.prefix : "");
	if (first && first->promoted && s->nr_patches) {
		/* tip-bot sends for the commit's author */
		s->author_name = xstrdup(s->patches[0].author_name);
		s->author_email = xstrdup(s->patches[0].author_email);
		free(s->subject);
		s->subject = xstrdup(s->patches[0].subject);
	} else {
		s->author_name = xstrdup(first ? first->m.from_name : "");
		s->author_email = xstrdup(first ? first->m.from_email : "");
	}
	for (j = 0; j < s->nr_patches; j++) {
		s->rfc |= chosen[j]->si.rfc;
		s->resend |= chosen[j]->si.resend;
	}
	if (cover) {
		s->rfc |= cover->si.rfc;
		s->resend |= cover->si.resend;
	}
}

/* To: and Cc: of the cover, else of patch 1, else of the first chosen. */
static void find_recipients(struct series *s, struct tmsg *const *chosen,
			    const struct tmsg *cover)
{
	const struct tmsg *to = cover;
	size_t j;

	for (j = 0; !to && j < s->nr_patches; j++)
		if (chosen[j]->si.index <= 1)
			to = chosen[j];
	if (!to && s->nr_patches)
		to = chosen[0];
	if (to)
		find_to_cc(s, to->raw, to->raw_len);
}

int series_from_mbox(const char *text, size_t len, int version,
		     const char *thread_msgid, struct series *s)
{
	struct mbox mb;
	struct thread t = { 0 };
	struct tmsg *cover = NULL, **chosen = NULL;
	size_t *talloc = NULL;
	unsigned char *taken = NULL;
	int asked = version, ret = -1;

	memset(s, 0, sizeof(*s));
	mbox_split(text, len, &mb);
	thread_parse(&t, &mb, s);
	keep_asked(&t, thread_msgid);
	keep_vouched(&t, thread_msgid);
	promote_diff(&t, thread_msgid);
	if (pick_version(&t, s, &version))
		goto out;
	s->version = version;

	chosen = xcalloc(t.nr + 1, sizeof(*chosen));
	taken = xcalloc(max_index(&t) + 1, 1);
	choose_patches(&t, version, s, chosen, &cover, taken);
	if (!asked)
		backfill(&t, version, s, chosen, &cover, taken);
	talloc = fill_patches(s, chosen, cover);
	hang_trailers(&t, s, cover, talloc);

	qsort(s->patches, s->nr_patches, sizeof(*s->patches), cmp_patch);
	find_missing(s);
	series_identity(s, chosen, cover);
	s->thread_msgid = thread_msgid ? xstrdup(thread_msgid) : NULL;
	find_recipients(s, chosen, cover);
	find_base(s);
	ret = 0;
out:
	free(talloc);
	free(chosen);
	free(taken);
	thread_release(&t);
	mbox_release(&mb);
	if (ret)
		series_release(s);
	return ret;
}

static void patch_release(struct patch *p)
{
	size_t i;

	free(p->msgid);
	free(p->raw_subject);
	free(p->subject);
	free(p->author_name);
	free(p->author_email);
	free(p->date);
	free(p->body);
	free(p->diff);
	for (i = 0; i < p->nr_trailers; i++)
		trailer_release(&p->trailers[i]);
	free(p->trailers);
}

void series_release(struct series *s)
{
	size_t i;

	free(s->subject);
	free(s->prefix);
	free(s->author_name);
	free(s->author_email);
	free(s->thread_msgid);
	if (s->cover) {
		patch_release(s->cover);
		free(s->cover);
	}
	for (i = 0; i < s->nr_patches; i++)
		patch_release(&s->patches[i]);
	free(s->patches);
	free(s->missing);
	free(s->base.commit);
	free(s->base.ref);
	free(s->base.source);
	free(s->versions);
	for (i = 0; i < s->nr_to_cc; i++)
		free(s->to_cc[i]);
	free(s->to_cc);
	tblfmt_release(&s->formats);
	memset(s, 0, sizeof(*s));
}

char *series_slug(const struct series *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int dash = 0;

	for (p = s->subject ? s->subject : ""; *p && sb.len < 40; p++) {
		if (isalnum((unsigned char)*p)) {
			if (dash && sb.len)
				strbuf_addch(&sb, '-');
			strbuf_addch(&sb, tolower((unsigned char)*p));
			dash = 0;
		} else {
			dash = 1;
		}
	}
	while (sb.len && sb.buf[sb.len - 1] == '-')
		strbuf_setlen(&sb, sb.len - 1);
	if (!sb.len)
		strbuf_addstr(&sb, "series");
	return strbuf_detach(&sb, NULL);
}

/* The one place a command line's series is read: lore or a file. */
int series_load(const char *arg, const char *mbox_path, int version,
		struct series *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *msgid = NULL;
	int ret;

	if (mbox_path) {
		if (strbuf_read_file(&sb, mbox_path) < 0) {
			ret = errno == ENOENT ? EXIT_NOTFOUND : EXIT_FAIL;
			error("cannot read %s: %s", mbox_path, strerror(errno));
			strbuf_release(&sb);
			return ret;
		}
	} else {
		msgid = lore_msgid_from_arg(arg);
		if (!msgid) {
			error("'%s' is no message-id or lore URL", arg);
			return EXIT_USAGE;
		}
		ret = lore_fetch_thread(msgid, &sb);
		if (ret) {
			free(msgid);
			strbuf_release(&sb);
			return ret;
		}
	}
	ret = series_from_mbox(sb.buf, sb.len, version, msgid, s) ?
	      EXIT_FAIL : EXIT_OK;
	free(msgid);
	strbuf_release(&sb);
	return ret;
}

/* ---- JSON: `series --json` and the job's series.json ---- */

static void json_trailers(struct json *j, const struct patch *p)
{
	size_t i;

	json_array_begin(j, "trailers");
	for (i = 0; i < p->nr_trailers; i++) {
		const struct trailer *t = &p->trailers[i];

		if (!*t->tag)
			continue;
		json_object_begin(j, NULL);
		json_string(j, "tag", t->tag);
		json_string(j, "name", t->name);
		json_string(j, "email", t->email);
		json_string(j, "from_msgid", t->from_msgid);
		json_object_end(j);
	}
	json_array_end(j);
}

void series_to_json(const struct series *s, struct json *j, const char *key)
{
	size_t i;

	json_object_begin(j, key);
	json_string(j, "subject", s->subject);
	json_int(j, "version", s->version);
	json_bool(j, "rfc", s->rfc);
	json_bool(j, "resend", s->resend);
	json_string(j, "prefix", s->prefix);
	json_string(j, "thread_msgid", s->thread_msgid);
	json_person(j, "author", s->author_name, s->author_email);
	if (s->cover) {
		json_object_begin(j, "cover");
		json_string(j, "msgid", s->cover->msgid);
		json_string(j, "subject", s->cover->subject);
		json_trailers(j, s->cover);
		json_object_end(j);
	} else {
		json_null(j, "cover");
	}
	json_int(j, "total", s->total);
	json_array_begin(j, "patches");
	for (i = 0; i < s->nr_patches; i++) {
		const struct patch *p = &s->patches[i];

		json_object_begin(j, NULL);
		json_int(j, "index", p->index);
		json_int(j, "version", p->version);
		json_string(j, "msgid", p->msgid);
		json_string(j, "subject", p->subject);
		json_person(j, "author", p->author_name, p->author_email);
		json_string(j, "date", p->date);
		json_bool(j, "has_diff", *p->diff != 0);
		json_trailers(j, p);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "missing");
	for (i = 0; i < s->nr_missing; i++)
		json_int(j, NULL, s->missing[i]);
	json_array_end(j);
	json_object_begin(j, "base");
	json_string(j, "commit", s->base.commit);
	json_string(j, "ref", s->base.ref);
	json_string(j, "source", s->base.source);
	json_object_end(j);
	json_array_begin(j, "versions");
	for (i = 0; i < s->nr_versions; i++)
		json_int(j, NULL, s->versions[i]);
	json_array_end(j);
	/* the lists it was sent to, which choose the trees tried for its base */
	json_array_begin(j, "sent_to");
	for (i = 0; i < s->nr_to_cc; i++)
		json_string(j, NULL, s->to_cc[i]);
	json_array_end(j);
	tblfmt_json(j, &s->formats);
	json_object_end(j);
}

void series_json(const struct series *s, struct strbuf *out)
{
	struct json j;

	json_init(&j, out, 1);
	series_to_json(s, &j, NULL);
	if (!out->len || out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
}
