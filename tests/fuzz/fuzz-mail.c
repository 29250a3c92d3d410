// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-mail.c - MIME and header decoding (libetpan) on arbitrary bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail m;
	char *s;

	if (!mail_parse((const char *)data, size, &m)) {
		/* What we hand on is NUL-free text. */
		if (!m.body || !m.subject || !m.from_name || !m.from_email)
			__builtin_trap();
		mail_release(&m);
	}
	s = xstrndup((const char *)data, size);
	free(mail_decode_header(s));
	free(s);
	s = mail_to_utf8((const char *)data, size, "iso-2022-jp");
	free(s);
	return 0;
}
