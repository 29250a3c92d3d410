/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reply.h - the bot's answer on the thread: an RFC 5322 message, UTF-8
 * plain text wrapped at 72 columns, threaded under the cover letter (or
 * patch 1), its body rendered from templates/mail-<name>.md.
 *
 * The templates are CommonMark that reads as plain text, in the template
 * language of templates.h (the one the report tables use): {{var}} and
 * {{#if var}}...{{else}}...{{/if}} are all a mail needs.
 */
#ifndef SCHED_BOT_REPLY_H
#define SCHED_BOT_REPLY_H

#include <stddef.h>

#include "kv.h"
#include "util.h"

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct reply_opts {
	const char *bot_name;		/* bot.name: From: */
	const char *bot_email;		/* bot.email: From:, Message-ID */
	const char *cc;			/* reply.cc: all, lists, none */
	long max_recipients;		/* reply.maxRecipients, 0: none */
	const char *const *lists;	/* reply.list: more list addresses */
	size_t nr_lists;
	const char *template_dir;	/* reply.templateDir, or NULL */
	const char *contact;		/* bot.contact, or NULL */
};

/* Before any reply: a reply composed or a template read first is a bug. */
void reply_configure(const struct reply_opts *o);

/* Expand tmpl over v into out (tmpl_expand_kv); -1 with an error on a
 * malformed template (an unbalanced {{#if}}, a "{{" without "}}").
 */
int reply_expand(const char *tmpl, const struct kv *v,
		 struct strbuf *out);

/*
 * Read templates/mail-<name>.md, found as tmpl_path() says, with
 * reply.templateDir first.
 */
int reply_load_template(const char *name, struct strbuf *out);

/*
 * The signature below "-- ": reply.signature, then who runs the bot
 * (bot.contact) and where a wrong report is answered, when it is set.
 */
void reply_signature(const char *signature, struct strbuf *out);

/* Word-wrap prose lines at width; code blocks, tables, quotes kept. */
void reply_wrap(const char *text, int width, struct strbuf *out);

/* What the reply answers: taken from the cover (or patch 1) mail. */
struct reply_thread {
	char *msgid;		/* bare message-id of the cover / patch 1 */
	char *references;	/* its References: header, raw, or NULL */
	char *subject;		/* its Subject:, decoded UTF-8 */
	char *from;		/* its From:, raw (the series author) */
	char *to;		/* its To:, raw, or NULL */
	char *cc;		/* its Cc:, raw, or NULL */
	char *date;		/* its Date:, raw */
	char *author_name;	/* decoded display name, for "On ... wrote" */
	char *body;		/* its text body, QP/base64 decoded */
	/*
	 * The people of the series' trailers ("<a@b>, <c@d>"), from the
	 * thread mbox (reply_thread_from_mbox), or NULL.
	 */
	char *trailers;
};

/*
 * Find the message msgid in an mboxrd text and fill t from it.
 * Returns 0, EXIT_NOTFOUND when it is not there.
 */
int reply_thread_from_mbox(const char *mbox, size_t len, const char *msgid,
			   struct reply_thread *t);
/* The same from a single raw message. */
int reply_thread_from_mail(const char *mail, size_t len,
			   struct reply_thread *t);
void reply_thread_release(struct reply_thread *t);

/*
 * Whom "Hello NAME," greets: the name the author signs the mail with
 * ("Thanks,\nPrateek"), else the From: display name as written (all of
 * it: "Chen Yu", not "Chen"; "K Prateek Nayak", never "K"), or "all"
 * when the mail gives none.
 */
char *reply_greeting(const struct reply_thread *t);

/* "On <date>, <name> wrote:" and the first lines of the body quoted. */
void reply_quote(const struct reply_thread *t, int max_lines,
		 struct strbuf *out);

/* A fresh <YYYYMMDDHHMMSS.<hex>@domain> without the angle brackets. */
char *reply_new_msgid(const char *domain);
/* RFC 5322 date of t, in the local zone. */
char *reply_date(long long t);

/* Encode a header value as RFC 2047 words when it is not plain ASCII. */
void reply_encode_header(const char *value, struct strbuf *out);

/*
 * Every bare address (lowercase) in an address-list header value, for
 * the SMTP envelope and the Cc trimming.  Returns the count.
 */
size_t reply_parse_addresses(const char *list, char ***addrs);
void reply_free_addresses(char **addrs, size_t nr);

/*
 * The whole message.  Identity from bot.name/bot.email, Cc trimming from
 * reply.cc: all (every To and Cc of the mail answered, lists first),
 * lists (the author, the lists among To/Cc, the people of the
 * trailers) or none (the author); at most reply.maxRecipients in all,
 * the author first, then the lists.
 * msgid_out (may be NULL) receives the generated Message-ID; body is
 * the rendered text (wrapped here).
 */
int reply_compose(const struct reply_thread *t, const char *body,
		  struct strbuf *out, char **msgid_out);
/*
 * The same with the Cc of mode cc ("none": to the author alone); NULL:
 * reply.cc's.
 */
int reply_compose_cc(const struct reply_thread *t, const char *body,
		     const char *cc, struct strbuf *out, char **msgid_out);
/* The same under a Message-ID chosen by the caller (bare, no <>). */
int reply_compose_as(const struct reply_thread *t, const char *body,
		     const char *msgid, struct strbuf *out);

/*
 * The envelope of a composed message: the From: address and every To:
 * and Cc: recipient.  Returns the number of recipients or -1.
 */
int reply_envelope(const char *msg, size_t len, char **from,
		   char ***rcpts);

#endif
