// SPDX-License-Identifier: GPL-2.0
/*
 * mailcmd.c - find and check "#sched-bot" command lines in a mail.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "mailcmd.h"
#include "mbox.h"
#include "reply.h"
#include "util.h"
#include "workload.h"

struct allow_check {
	const char *email;
	int ok;
};

static int allow_cb(const char *value, void *data)
{
	struct allow_check *c = data;
	size_t vl = strlen(value), el = strlen(c->email);

	if (!strcasecmp(value, c->email))
		c->ok = 1;
	else if (value[0] == '@' && el > vl &&
		 !strcasecmp(c->email + el - vl, value))
		c->ok = 1;
	return 0;
}

int mailcmd_allowed(const char *email)
{
	struct allow_check c = { email, 0 };

	config_get_all("bot.allow", allow_cb, &c);
	return c.ok;
}

static int addressed_to_bot(const char *mail, size_t len)
{
	const char *bot = bot_identity()->email;
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
	const char *known = config_get("bot.knownWorkloads") ?:
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

/* One command line after "#sched-bot"; returns NULL or an error text. */
static char *parse_args(const char *args, struct mailcmd *cmd)
{
	long max_runs = config_get_int("bot.maxRuns");
	struct strbuf wl = STRBUF_INIT;
	const char *p = args;
	char *err = NULL;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "test", 4) || (p[4] && p[4] != ' ' && p[4] != '\t'))
		return xasprintf("unknown command '%.40s' (only 'test')", p);
	p += 4;
	cmd->runs = 0;
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

void mailcmd_parse(const char *mail, size_t len, struct mailcmd_result *r)
{
	struct reply_thread t;
	char **from = NULL, *refs, *irt;
	size_t nfrom = 0;
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
	nfrom = reply_parse_addresses(t.from, &from);
	r->sender = nfrom ? xstrdup(from[0]) : xstrdup("");
	reply_free_addresses(from, nfrom);
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
	if (!lines)
		return;
	if (!addressed_to_bot(mail, len)) {
		free(r->why);
		r->why = xstrdup("not addressed to the bot");
		r->status = MAILCMD_IGNORED;
	} else if (!mailcmd_allowed(r->sender)) {
		free(r->why);
		r->why = xasprintf("sender %s is not in bot.allow", r->sender);
		r->status = MAILCMD_IGNORED;
	} else if (!r->target) {
		free(r->why);
		r->why = xstrdup("the mail answers no thread "
				 "(no In-Reply-To or References)");
		r->status = MAILCMD_ERROR;
	} else if (r->why) {
		r->status = MAILCMD_ERROR;
	} else {
		r->status = MAILCMD_OK;
	}
	if (r->status != MAILCMD_OK) {
		int i;

		for (i = 0; i < r->nr; i++)
			free(r->cmds[i].workloads);
		r->nr = 0;
	}
}

void mailcmd_release(struct mailcmd_result *r)
{
	int i;

	for (i = 0; i < r->nr; i++)
		free(r->cmds[i].workloads);
	free(r->sender);
	free(r->msgid);
	free(r->target);
	free(r->why);
	memset(r, 0, sizeof(*r));
}
