// SPDX-License-Identifier: GPL-2.0
/*
 * trailer.c - parse, compare and write commit-message trailers.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lore.h"
#include "trailer.h"
#include "util.h"

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	/* A quoted display name: "Doe, John" <...>. */
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	}
	return xstrndup(s, n);
}

/* Find an e-mail address in v: "<a@b>" first, else a bare "a@b.c". */
static int find_email(const char *v, size_t n, size_t *start, size_t *end)
{
	const char *lt = memchr(v, '<', n), *gt, *at;
	size_t i, j;

	if (lt) {
		gt = memchr(lt, '>', v + n - lt);
		at = gt ? memchr(lt, '@', gt - lt) : NULL;
		if (gt && at) {
			*start = lt - v;
			*end = gt - v + 1;
			return 1;
		}
	}
	at = memchr(v, '@', n);
	if (!at)
		return 0;
	i = at - v;
	j = i;
	while (i > 0 && !isspace((unsigned char)v[i - 1]) && v[i - 1] != '<' &&
	       v[i - 1] != '(')
		i--;
	while (j < n && !isspace((unsigned char)v[j]) && v[j] != '>' &&
	       v[j] != ')')
		j++;
	if (i == (size_t)(at - v) || j == (size_t)(at - v) + 1 ||
	    !memchr(at, '.', j - (at - v)))
		return 0;
	*start = i;
	*end = j;
	return 1;
}

int trailer_parse(const char *line, size_t len, struct trailer *t)
{
	size_t i = 0, tag_start, tag_end, vstart, es, ee;
	const char *v;
	size_t vn;
	char *p;

	memset(t, 0, sizeof(*t));
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		len--;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	tag_start = i;
	/* b4: a word character, then no blanks up to the colon. */
	if (i >= len || !(isalnum((unsigned char)line[i]) || line[i] == '_'))
		return 0;
	while (i < len && line[i] != ':' && !isspace((unsigned char)line[i]))
		i++;
	if (i >= len || line[i] != ':' || i - tag_start < 2)
		return 0;
	tag_end = i;
	for (size_t k = tag_start; k < tag_end; k++)
		if (!(isalnum((unsigned char)line[k]) || line[k] == '-' ||
		      line[k] == '_'))
			return 0;
	i++;
	if (i >= len || !isspace((unsigned char)line[i]))
		return 0;
	while (i < len && isspace((unsigned char)line[i]))
		i++;
	if (i >= len)
		return 0;
	vstart = i;
	v = line + vstart;
	vn = len - vstart;
	/* "Tested-by: A <a@b> # on arm64": extra info is not the person. */
	for (size_t k = vn; k > 1; k--)
		if (v[k - 1] == '#' && isspace((unsigned char)v[k - 2]) &&
		    memchr(v, '@', k - 1)) {
			vn = k - 2;
			break;
		}
	t->tag = xstrndup(line + tag_start, tag_end - tag_start);
	for (p = t->tag; *p; p++)
		*p = p == t->tag ? toupper((unsigned char)*p) :
				   tolower((unsigned char)*p);
	if (find_email(v, vn, &es, &ee)) {
		size_t a = es, b = ee;

		if (v[a] == '<') {
			a++;
			b--;
		}
		t->email = xstrndup(v + a, b - a);
		/* Outlook: "<a@b.c<mailto:a@b.c>>" */
		p = strchr(t->email, '<');
		if (p)
			*p = 0;
		t->name = trim_dup(v, es);
		if (!*t->name && ee < vn) {
			/* "a@b.c (Name)" */
			free(t->name);
			t->name = trim_dup(v + ee, vn - ee);
			if (t->name[0] == '(') {
				size_t n = strlen(t->name);

				memmove(t->name, t->name + 1, n);
				if (n > 1 && t->name[n - 2] == ')')
					t->name[n - 2] = 0;
			}
		}
	} else {
		t->email = xstrdup("");
		t->name = trim_dup(v, vn);
	}
	return 1;
}

int trailer_is_person(const struct trailer *t)
{
	return t->email && *t->email;
}

int trailer_vouches(const struct trailer *t)
{
	return trailer_is_person(t) &&
	       (!strcasecmp(t->tag, "Signed-off-by") ||
		!strcasecmp(t->tag, "Co-developed-by"));
}

/* Lower-case copy of an address without a "+extension" local part. */
static char *addr_key(const char *email)
{
	char *s = xstrdup(email), *p, *plus, *at;

	for (p = s; *p; p++)
		*p = tolower((unsigned char)*p);
	plus = strchr(s, '+');
	at = strchr(s, '@');
	if (plus && at && plus < at)
		memmove(plus, at, strlen(at) + 1);
	return s;
}

static int count_dots(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '.';
	return n;
}

static int email_eq(const char *a, const char *b)
{
	char *ka, *kb, *da, *db;
	int ret = 0;

	if (!*a || !*b)
		return 0;
	ka = addr_key(a);
	kb = addr_key(b);
	da = strchr(ka, '@');
	db = strchr(kb, '@');
	if (!strcmp(ka, kb)) {
		ret = 1;
	} else if (da && db && da - ka == db - kb &&
		   !strncmp(ka, kb, da - ka)) {
		/* foo@linux.intel.com and foo@intel.com are one person. */
		size_t la = strlen(da + 1), lb = strlen(db + 1);
		const char *lng = la > lb ? da + 1 : db + 1;
		const char *sht = la > lb ? db + 1 : da + 1;
		size_t ll = strlen(lng), ls = strlen(sht);

		if (abs(count_dots(lng) - count_dots(sht)) == 1 && ll > ls &&
		    lng[ll - ls - 1] == '.' && !strcmp(lng + ll - ls, sht))
			ret = 1;
	}
	free(ka);
	free(kb);
	return ret;
}

/*
 * b4: From: "Jain, Ayush" gives "Ayush Jain" when every comma-separated
 * part of the From name is in the trailer name.
 */
static int comma_name_match(const char *tname, const char *from)
{
	char *copy, *part, *save = NULL;
	int ok = 1;

	if (!strchr(from, ','))
		return 0;
	copy = xstrdup(from);
	for (part = strtok_r(copy, ",", &save); part;
	     part = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*part))
			part++;
		for (size_t n = strlen(part);
		     n && isspace((unsigned char)part[n - 1]); n--)
			part[n - 1] = 0;
		if (*part && !strcasestr(tname, part))
			ok = 0;
	}
	free(copy);
	return ok;
}

int trailer_from_matches(const struct trailer *t, const char *from_name,
			 const char *from_email)
{
	if (!trailer_is_person(t))
		return 1;
	if (email_eq(t->email, from_email))
		return 1;
	if (!*t->name || !from_name || !*from_name)
		return 0;
	if (!strcasecmp(t->name, from_name))
		return 1;
	return comma_name_match(t->name, from_name);
}

int trailer_same(const struct trailer *a, const struct trailer *b)
{
	if (strcasecmp(a->tag, b->tag))
		return 0;
	/* b4 compares the whole value: a new name for an address is news. */
	return !strcasecmp(a->name, b->name) && !strcasecmp(a->email, b->email);
}

void trailer_copy(struct trailer *dst, const struct trailer *src)
{
	dst->tag = xstrdup(src->tag);
	dst->name = xstrdup(src->name);
	dst->email = xstrdup(src->email);
	dst->from_msgid = src->from_msgid ? xstrdup(src->from_msgid) : NULL;
	dst->raw = src->raw ? xstrdup(src->raw) : NULL;
}

void trailer_release(struct trailer *t)
{
	free(t->tag);
	free(t->name);
	free(t->email);
	free(t->from_msgid);
	free(t->raw);
	memset(t, 0, sizeof(*t));
}

char *trailer_format(const struct trailer *t)
{
	if (!trailer_is_person(t))
		return xasprintf("%s: %s", t->tag, t->name);
	if (!*t->name)
		return xasprintf("%s: <%s>", t->tag, t->email);
	if (!*t->email)
		return xasprintf("%s: %s", t->tag, t->name);
	return xasprintf("%s: %s <%s>", t->tag, t->name, t->email);
}

void trailer_add_lines(struct strbuf *out, const struct trailer *t,
		       size_t nr, const char *link_msgid)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		char *f;

		if (t[i].raw && *t[i].raw) {
			strbuf_addf(out, "%s\n", t[i].raw);
			continue;
		}
		f = trailer_format(&t[i]);
		strbuf_addf(out, "%s\n", f);
		free(f);
	}
	if (link_msgid && *link_msgid) {
		char *url = lore_link(link_msgid);

		strbuf_addf(out, "Link: %s\n", url);
		free(url);
	}
}
