// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ssh-answer.c - what an ssh machine answers the bot's question of
 * which boot it is in (uname -r, its boot id, /proc/cmdline): any bytes,
 * never a crash, and what is taken of them is printable and bounded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target/common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *s, size_t max)
{
	const char *p;

	if (strlen(s) > max)
		abort();
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *release, *id, *cmdline;

	if (target_ssh_boot_answer((const char *)data, size, &release, &id,
				   &cmdline) < 0) {
		if (release || id || cmdline)
			abort();
		return 0;
	}
	check(release, SSH_RELEASE_MAX);
	check(id, SSH_RELEASE_MAX);
	check(cmdline, SSH_CMDLINE_MAX);
	free(release);
	free(id);
	free(cmdline);
	return 0;
}
