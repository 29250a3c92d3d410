// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-mailcmd.c - a mail from the internet, as the bot reads it: the
 * command parser, the reply's view of the message (headers, RFC 2047,
 * QP, base64), the quote and a composed reply.  None may crash or leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "config.h"
#include "mailcmd.h"
#include "reply.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy: any read past the end is caught */
	char *mail = malloc(size ? size : 1);
	struct mailcmd_result r;
	struct reply_thread t;
	static int configured;
	struct mailcmd_opts mo;
	struct reply_opts ro;

	if (!configured) {
		config_set_override("bot.email", "bot@example.org");
		config_set_override("bot.allow", "@example.org");
		/* handed down as the tool does at start-up */
		mailcmd_opts_from_config(&mo);
		mailcmd_configure(&mo);
		reply_opts_from_config(&ro);
		reply_configure(&ro);
		verbosity = -1;
		configured = 1;
	}
	memcpy(mail, data, size);
	mailcmd_parse(mail, size, &r);
	mailcmd_release(&r);
	if (!reply_thread_from_mail(mail, size, &t)) {
		struct strbuf q = STRBUF_INIT, out = STRBUF_INIT;
		char *from = NULL, **rcpts = NULL;
		int n;

		reply_quote(&t, 4, &q);
		if (!reply_compose(&t, q.buf, &out, NULL)) {
			n = reply_envelope(out.buf, out.len, &from, &rcpts);
			if (n > 0) {
				reply_free_addresses(rcpts, n);
				free(from);
			}
		}
		strbuf_release(&q);
		strbuf_release(&out);
		reply_thread_release(&t);
	}
	free(mail);
	return 0;
}
