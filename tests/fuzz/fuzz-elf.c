// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-elf.c - the vmlinux digest's ELF reader (vmlinux.h) on arbitrary
 * bytes: a stranger's build links the vmlinux, so whatever its headers
 * say (sections outside the file, overlapping, counts and sizes out of
 * range), a digest or a reason, never a crash, a leak or a read past
 * the file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "vmlinux.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT;
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
	char *d;

	if (fd < 0)
		return 0;
	if (!write_in_full(fd, data, size)) {
		d = vmlinux_digest_fd(fd, "fuzz", &why);
		free(d);
	}
	strbuf_release(&why);
	close(fd);
	return 0;
}
