// SPDX-License-Identifier: GPL-2.0
/*
 * mailcmd.c - find and check "#sched-bot" command lines in a mail.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <libetpan/libetpan.h>

#include "dkim.h"
#include "mail.h"
#include "mailcmd.h"
#include "mbox.h"
#include "reply.h"
#include "state.h"
#include "util.h"
#include "workload.h"

static struct mailcmd_opts opts;
static int configured;

void mailcmd_configure(const struct mailcmd_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, no one would be allowed and nothing addressed: a bug. */
static const struct mailcmd_opts *mo(void)
{
	if (!configured)
		die("BUG: mailcmd used before mailcmd_configure()");
	return &opts;
}

/* atext of RFC 5322, without the dot */
static int is_atext(int c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+/=?^_`{|}~-", c));
}

/*
 * A plain addr-spec: a dot-atom local part (no quoted strings, no
 * comments), one '@', a domain of letters, digits and hyphens in dotted
 * labels.  libetpan is lenient in what it calls an addr-spec
 * ("a@b@c" is one); this is the strict check on its result.
 */
static int plain_addr_spec(const char *a)
{
	const char *at = strchr(a, '@'), *p;
	size_t label = 0;

	if (!at || at == a || strchr(at + 1, '@') || !at[1])
		return 0;
	for (p = a; p < at; p++)
		if (!(is_atext((unsigned char)*p) ||
		      (*p == '.' && p > a && p[-1] != '.' && p[1] != '@')))
			return 0;
	for (p = at + 1; *p; p++) {
		if (*p == '.') {
			if (!label || p[-1] == '-' || !p[1])
				return 0;
			label = 0;
		} else if (isalnum((unsigned char)*p) ||
			   (*p == '-' && label)) {
			label++;
		} else {
			return 0;
		}
	}
	return p[-1] != '-' && strchr(at, '.') != NULL;
}

char *mailcmd_parse_from(const char *value, char **domain, char **why)
{
	struct mailimf_mailbox_list *mbl = NULL;
	struct mailimf_mailbox *mb;
	size_t idx = 0, len = value ? strlen(value) : 0;
	char *addr, *c;

	*domain = NULL;
	*why = NULL;
	if (!len ||
	    mailimf_mailbox_list_parse(value, len, &idx, &mbl) !=
	    MAILIMF_NO_ERROR) {
		*why = xstrdup("the From: header does not parse");
		return NULL;
	}
	/* a trailing comment, "addr (Name)", is fine; anything else not */
	if (idx < len)
		mailimf_cfws_parse(value, len, &idx);
	while (idx < len && strchr(" \t\r\n", value[idx]))
		idx++;
	if (idx != len || clist_count(mbl->mb_list) != 1) {
		*why = xstrdup("the From: header must name one mailbox");
		mailimf_mailbox_list_free(mbl);
		return NULL;
	}
	mb = clist_content(clist_begin(mbl->mb_list));
	if (!mb->mb_addr_spec || !plain_addr_spec(mb->mb_addr_spec)) {
		*why = xasprintf("the From: address '%.60s' is not a plain "
				 "address", mb->mb_addr_spec ?
				 mb->mb_addr_spec : "");
		mailimf_mailbox_list_free(mbl);
		return NULL;
	}
	addr = xstrdup(mb->mb_addr_spec);
	mailimf_mailbox_list_free(mbl);
	for (c = addr; *c; c++)
		*c = tolower((unsigned char)*c);
	*domain = xstrdup(strchr(addr, '@') + 1);
	return addr;
}

/*
 * The headers a command is read from.  DKIM signs the last copy of a
 * header (RFC 6376 5.4.2) while the bot reads the first, so a second
 * copy of any of them is how a signed command gets a new thread.
 */
static const char *const single_headers[] = {
	"From", "Message-ID", "In-Reply-To", "References", "Subject", "Date",
	NULL
};

/* What the DKIM signature of a command must sign (its h= tag). */
static const char *const signed_headers[] = {
	"From", "Message-ID", "In-Reply-To", "References", "Date", NULL
};

const char *mailcmd_doubled_header(const char *mail, size_t len, int *count)
{
	const char *end = mail + len;
	int seen[ARRAY_SIZE(single_headers)] = { 0 };
	size_t i;

	for (const char *p = mail; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *colon = memchr(p, ':', n), *e;

		if (!n || (n == 1 && *p == '\r'))
			break;
		/* a name, then perhaps blanks (RFC 5322 4.5.3), a colon */
		if (colon && *p != ' ' && *p != '\t') {
			for (e = colon; e > p && (e[-1] == ' ' ||
						   e[-1] == '\t'); e--)
				;
			for (i = 0; single_headers[i]; i++)
				if ((size_t)(e - p) ==
				    strlen(single_headers[i]) &&
				    !strncasecmp(p, single_headers[i], e - p))
					seen[i]++;
		}
		p += n + 1;
	}
	for (i = 0; single_headers[i]; i++)
		if (seen[i] > 1) {
			if (count)
				*count = seen[i];
			return single_headers[i];
		}
	return NULL;
}

/* public-inbox's own Message-ID value: "<YYYYmmddHHMMSS.DIGEST@z>". */
static int archive_msgid(const char *v, const char *end)
{
	const char *p = v;
	int i;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p >= end || *p++ != '<')
		return 0;
	for (i = 0; i < 14; i++, p++)
		if (p >= end || !isdigit((unsigned char)*p))
			return 0;
	if (p >= end || *p++ != '.')
		return 0;
	for (i = 0; p < end && (isalnum((unsigned char)*p) || *p == '-' ||
				*p == '_'); p++)
		i++;
	if (!i || end - p < 3 || memcmp(p, "@z>", 3))
		return 0;
	for (p += 3; p < end; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

size_t mailcmd_drop_archive_msgid(char *mail, size_t len)
{
	const char *end = mail + len, *p = mail;
	char *at[3] = { NULL };
	size_t span[3] = { 0 };
	int n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end, *colon, *e;

		if (*p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n'))
			break;
		/* a header's continuation lines are its own */
		while (next < end && (*next == ' ' || *next == '\t')) {
			nl = memchr(next, '\n', end - next);
			next = nl ? nl + 1 : end;
		}
		colon = memchr(p, ':', next - p);
		if (colon) {
			for (e = colon; e > p && (e[-1] == ' ' ||
						   e[-1] == '\t'); e--)
				;
			if (e - p == 10 && !strncasecmp(p, "Message-ID", 10) &&
			    n < 3) {
				at[n] = (char *)p;
				span[n++] = next - p;
			}
		}
		p = next;
	}
	if (n != 2 || !archive_msgid(strchr(at[1], ':') + 1,
				     at[1] + span[1]))
		return len;
	memmove(at[1], at[1] + span[1], end - (at[1] + span[1]));
	len -= span[1];
	mail[len] = '\0';
	return len;
}

/* The sender of a raw mail: exactly one From: header, one mailbox. */
static char *mailcmd_sender(const char *mail, size_t len, char **domain,
			    char **why)
{
	const char *p = mail, *end = mail + len;
	char *h, *addr;
	int froms = 0;

	*domain = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!n || (n == 1 && *p == '\r'))
			break;
		if (n > 5 && !strncasecmp(p, "From:", 5))
			froms++;
		p += n + 1;
	}
	if (froms != 1) {
		*why = xasprintf("%d From: headers", froms);
		return NULL;
	}
	h = mbox_header(mail, len, "From");
	addr = mailcmd_parse_from(h, domain, why);
	free(h);
	return addr;
}

/* One bot.allow rule: an address, or @domain. */
static int allow_match(const char *rule, const char *email,
		       const char *domain)
{
	if (rule[0] == '@')
		return domain && !strcasecmp(rule + 1, domain);
	return !strcasecmp(rule, email);
}

static int on_list(const char *const *rules, size_t nr, const char *email)
{
	char *domain = NULL, *why = NULL, *addr;
	size_t i;
	int ok = 0;

	/* the bare address as mailcmd_parse_from() checked it */
	addr = mailcmd_parse_from(email, &domain, &why);
	free(why);
	if (!addr)
		return 0;
	for (i = 0; i < nr && !ok; i++)
		ok = allow_match(rules[i], addr, domain);
	free(addr);
	free(domain);
	return ok;
}

int mailcmd_allowed(const char *email)
{
	return on_list(mo()->allow, mo()->nr_allow, email);
}

int mailcmd_moderator(const char *email)
{
	return on_list(mo()->moderators, mo()->nr_moderators, email);
}

/*
 * The thread root of the bot's mail that this one answers: its
 * In-Reply-To first, then each References: entry, newest first; that
 * mail's Message-ID in *answered.
 */
static char *answered_bot_mail(struct state *st, const char *mail,
			       size_t len, char **answered)
{
	static const char *const fields[] = { "In-Reply-To", "References" };
	char *thread = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields) && !thread; i++) {
		char *h = mbox_header(mail, len, fields[i]);
		char **ids = NULL;
		size_t nr = 0, alloc = 0;
		const char *p = h;

		while (p && (p = strchr(p, '<'))) {
			const char *gt = strchr(p, '>');

			if (!gt)
				break;
			ALLOC_GROW(ids, nr, alloc);
			ids[nr++] = xstrndup(p + 1, gt - p - 1);
			p = gt + 1;
		}
		while (nr) {
			char *id = ids[--nr];

			if (!thread && *id) {
				thread = state_mail_thread(st, id);
				if (thread) {
					*answered = id;
					continue;
				}
			}
			free(id);
		}
		free(ids);
		free(h);
	}
	return thread;
}

/* A signed Date: of the last week, not of tomorrow: NULL, or why not. */
static char *stale_date(const char *mail, size_t len)
{
	char *date = mbox_header(mail, len, "Date");
	long long ts, now = (long long)time(NULL);
	char *why = NULL;

	if (!date || mail_parse_date(date, &ts) < 0)
		why = xstrdup("its Date: header does not parse");
	else if (ts < now - MAILCMD_MAX_AGE)
		why = xasprintf("its signed Date: is more than %d days old",
				MAILCMD_MAX_AGE / 86400);
	else if (ts > now + MAILCMD_MAX_AHEAD)
		why = xstrdup("its signed Date: is more than a day ahead");
	free(date);
	return why;
}

void mailcmd_authenticate(struct state *st, const char *mail, size_t len,
			  struct mailcmd_result *r)
{
	char *thread, *why = NULL, *sig = NULL, *owner;
	int i, ret, seen;

	if (r->status != MAILCMD_OK && r->status != MAILCMD_ERROR)
		return;
	thread = answered_bot_mail(st, mail, len, &r->answered);
	if (!thread || !*thread) {
		free(r->why);
		r->why = xstrdup("it answers no mail of the bot");
		goto ignore;
	}
	ret = dkim_check(mail, len, r->domain, signed_headers, &sig, &why);
	if (ret != 1) {
		free(r->why);
		r->why = xasprintf("no DKIM signature of %s that verifies: %s",
				   r->domain, why ? why : "?");
		free(why);
		goto ignore;
	}
	free(why);
	why = stale_date(mail, len);
	if (why) {
		free(r->why);
		r->why = why;
		goto ignore;
	}
	/* one signature, one command: lore keeps every signed mail */
	seen = state_command_sig_msgid(st, sig, &owner);
	if (seen < 0 || (seen && strcmp(owner, r->msgid))) {
		free(r->why);
		r->why = seen < 0 ?
			xstrdup("the state database cannot say whether its "
				"DKIM signature authenticated a command "
				"already") :
			xasprintf("its DKIM signature authenticated <%.80s> "
				  "already (a replay)", owner);
		free(owner);
		goto ignore;
	}
	free(owner);
	r->sig = sig;
	/* what it may test: the thread of the bot's mail, nothing else */
	free(r->target);
	r->target = thread;
	r->authenticated = 1;
	return;
ignore:
	free(thread);
	free(sig);
	r->status = MAILCMD_IGNORED;
	for (i = 0; i < r->nr; i++) {
		free(r->cmds[i].workloads);
		free(r->cmds[i].reason);
	}
	r->nr = 0;
}

static int addressed_to_bot(const char *mail, size_t len)
{
	const char *bot = mo()->bot_email;
	static const char *const fields[] = { "To", "Cc" };
	size_t i, j;
	int found = 0;

	for (i = 0; i < ARRAY_SIZE(fields) && !found; i++) {
		char *h = mbox_header(mail, len, fields[i]), **a;
		size_t n = reply_parse_addresses(h, &a);

		for (j = 0; j < n; j++)
			if (!strcasecmp(a[j], bot))
				found = 1;
		reply_free_addresses(a, n);
		free(h);
	}
	return found;
}

static int known_workload(const char *name, size_t len)
{
	const char *known = mo()->known_workloads ?:
			    workload_names(WORKLOAD_MAIL);
	const char *p = known;

	while (*p) {
		size_t n = strcspn(p, ", ");

		if (n == len && !strncmp(p, name, len))
			return 1;
		p += n;
		p += strspn(p, ", ");
	}
	return 0;
}

/* A verb of the line, as a word of its own: what follows it, or NULL. */
static const char *verb(const char *p, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(p, word, n) || (p[n] && p[n] != ' ' && p[n] != '\t'))
		return NULL;
	return p + n;
}

/*
 * The moderator's reason, as printable ASCII words; it is recorded and
 * shown by status, so it is bounded and nothing in it is markup.
 */
static char *parse_reason(const char *p, struct mailcmd *cmd)
{
	const char *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == p)
		return xstrdup("invalid needs a reason: '#sched-bot invalid "
			       "<reason>'");
	if (e - p > MAILCMD_MAX_REASON)
		return xasprintf("the reason is longer than %d characters",
				 MAILCMD_MAX_REASON);
	for (const char *c = p; c < e; c++)
		if (*c == '\t' || (unsigned char)*c < 32 ||
		    (unsigned char)*c > 126)
			return xstrdup("the reason must be plain ASCII text");
	cmd->reason = xstrndup(p, e - p);
	return NULL;
}

/* One command line after "#sched-bot"; returns NULL or an error text. */
static char *parse_args(const char *args, struct mailcmd *cmd)
{
	long max_runs = mo()->max_runs;
	struct strbuf wl = STRBUF_INIT;
	const char *p = args, *rest;
	char *err = NULL;

	while (*p == ' ' || *p == '\t')
		p++;
	memset(cmd, 0, sizeof(*cmd));
	if ((rest = verb(p, "release"))) {
		cmd->verb = MAILCMD_RELEASE;
		rest += strspn(rest, " \t");
		if (*rest)
			return xstrdup("release takes no argument");
		return NULL;
	}
	if ((rest = verb(p, "invalid"))) {
		cmd->verb = MAILCMD_INVALID;
		return parse_reason(rest, cmd);
	}
	if (!verb(p, "test"))
		return xasprintf("unknown command '%.40s' (test, release or "
				 "invalid)", p);
	p += 4;
	for (;;) {
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " \t");
		if (!strncmp(p, "runs=", 5)) {
			char *end;
			long v = strtol(p + 5, &end, 10);

			if (end != p + n || end == p + 5 || v < 1 ||
			    v > max_runs) {
				err = xasprintf("runs must be 1..%ld, not "
						"'%.*s'", max_runs,
						(int)(n > 40 ? 40 : n), p + 5);
				goto out;
			}
			cmd->runs = (int)v;
		} else {
			const char *w = p, *end = p + n;

			while (w < end) {
				size_t wn = strcspn(w, ",");

				if (wn > (size_t)(end - w))
					wn = end - w;
				if (!wn || !known_workload(w, wn)) {
					int shown = wn > 40 ? 40 : (int)wn;

					err = xasprintf("unknown workload "
							"'%.*s'", shown, w);
					goto out;
				}
				if (wl.len)
					strbuf_addch(&wl, ',');
				strbuf_add(&wl, w, wn);
				w += wn + 1;
			}
		}
		p += n;
	}
	cmd->workloads = strbuf_detach(&wl, NULL);
	return NULL;
out:
	strbuf_release(&wl);
	return err;
}

static char *first_msgid(const char *h)
{
	const char *lt = h ? strchr(h, '<') : NULL, *gt;

	if (!lt)
		return NULL;
	gt = strchr(lt, '>');
	if (!gt || gt == lt + 1)
		return NULL;
	return xstrndup(lt + 1, gt - lt - 1);
}

/*
 * What a mail with command lines counts as: who sent it, to whom, and
 * whether its lines can run; r->why says why not.
 */
static enum mailcmd_status sender_status(const char *mail, size_t len,
					 struct mailcmd_result *r,
					 const char *from_why, int lines)
{
	enum mailcmd_status status;
	const char *doubled;
	int copies = 0;
	char *why;

	doubled = mailcmd_doubled_header(mail, len, &copies);
	if (doubled) {
		why = xasprintf("%d %s: headers (one copy of each, signed, "
				"or nothing counts)", copies, doubled);
		status = MAILCMD_IGNORED;
	} else if (!addressed_to_bot(mail, len)) {
		why = xstrdup("not addressed to the bot");
		status = MAILCMD_IGNORED;
	} else if (from_why) {
		why = xstrdup(from_why);
		status = MAILCMD_IGNORED;
	} else if (r->moderating && !mailcmd_moderator(r->sender)) {
		why = xasprintf("sender %s is not in bot.moderators",
				r->sender);
		status = MAILCMD_IGNORED;
	} else if (!r->moderating && !mailcmd_allowed(r->sender)) {
		why = xasprintf("sender %s is not in bot.allow", r->sender);
		status = MAILCMD_IGNORED;
	} else if (r->moderating && lines > 1) {
		why = xstrdup("a release or invalid command comes alone in "
			      "its mail");
		status = MAILCMD_ERROR;
	} else if (!r->target) {
		why = xstrdup("the mail answers no thread "
			      "(no In-Reply-To or References)");
		status = MAILCMD_ERROR;
	} else if (r->why) {
		return MAILCMD_ERROR;
	} else {
		return MAILCMD_OK;
	}
	free(r->why);
	r->why = why;
	return status;
}

void mailcmd_parse(const char *mail, size_t len, struct mailcmd_result *r)
{
	struct reply_thread t;
	char *refs, *irt, *from_why = NULL;
	const char *p;
	int lines = 0;

	memset(r, 0, sizeof(*r));
	r->status = MAILCMD_NONE;
	if (reply_thread_from_mail(mail, len, &t) < 0) {
		r->status = MAILCMD_IGNORED;
		r->why = xstrdup("no Message-ID");
		return;
	}
	r->msgid = xstrdup(t.msgid);
	r->sender = mailcmd_sender(mail, len, &r->domain, &from_why);
	if (!r->sender)
		r->sender = xstrdup("");
	refs = mbox_header(mail, len, "References");
	irt = mbox_header(mail, len, "In-Reply-To");
	r->target = first_msgid(refs);
	if (!r->target)
		r->target = first_msgid(irt);
	free(refs);
	free(irt);

	for (p = t.body; p && *p;) {
		size_t n = strcspn(p, "\n");
		const char *l = p;

		while (l < p + n && (*l == ' ' || *l == '\t'))
			l++;
		if (!strncmp(l, "#sched-bot", 10) &&
		    (l[10] == ' ' || l[10] == '\t' || l[10] == '\n' ||
		     l[10] == '\r' || !l[10])) {
			char *line = xstrndup(l + 10, p + n - l - 10), *err;
			size_t ll = strlen(line);

			if (ll && line[ll - 1] == '\r')
				line[ll - 1] = '\0';
			lines++;
			if (lines > MAILCMD_MAX) {
				free(line);
				if (!r->why)
					r->why = xasprintf("more than %d "
							   "commands in one "
							   "mail", MAILCMD_MAX);
				p += n + (p[n] == '\n');
				continue;
			}
			err = parse_args(line, &r->cmds[r->nr]);
			free(line);
			if (r->cmds[r->nr].verb != MAILCMD_TEST)
				r->moderating = 1;
			if (err && !r->why)
				r->why = err;
			else if (err)
				free(err);
			else
				r->nr++;
		}
		p += n + (p[n] == '\n');
	}
	reply_thread_release(&t);
	if (!lines) {
		free(from_why);
		return;
	}
	r->status = sender_status(mail, len, r, from_why, lines);
	free(from_why);
	if (r->status != MAILCMD_OK) {
		int i;

		for (i = 0; i < r->nr; i++) {
			free(r->cmds[i].workloads);
			free(r->cmds[i].reason);
		}
		r->nr = 0;
	}
}

void mailcmd_release(struct mailcmd_result *r)
{
	int i;

	for (i = 0; i < r->nr; i++) {
		free(r->cmds[i].workloads);
		free(r->cmds[i].reason);
	}
	free(r->sender);
	free(r->answered);
	free(r->domain);
	free(r->msgid);
	free(r->target);
	free(r->why);
	free(r->sig);
	memset(r, 0, sizeof(*r));
}
