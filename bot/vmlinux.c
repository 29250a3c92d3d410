// SPDX-License-Identifier: GPL-2.0
/*
 * vmlinux.c - the digest of a kernel's code and data (vmlinux.h), read
 * with libelf.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <git2.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "vmlinux.h"

/* Symbols whose bytes are the build's identity, not its code. */
static const char *const identity[] = {
	"linux_banner", "linux_proc_banner", "init_uts_ns",
};

struct section {
	size_t index;
	GElf_Shdr shdr;
	const char *name;
	struct strbuf bytes;	/* empty for SHT_NOBITS */
};

static int is_identity(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(identity); i++)
		if (name && !strcmp(name, identity[i]))
			return 1;
	return 0;
}

/* Zero the bytes of the identity symbols of sec[] from the symtab. */
static void blank_identity(Elf *elf, struct section *sec, size_t nr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t k, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = data ? sh.sh_size / sh.sh_entsize : 0;
		for (k = 0; k < n; k++) {
			GElf_Sym sym;
			size_t i;

			if (!gelf_getsym(data, (int)k, &sym) ||
			    !is_identity(elf_strptr(elf, sh.sh_link,
						    sym.st_name)))
				continue;
			for (i = 0; i < nr; i++) {
				struct section *s = &sec[i];
				/* ET_REL: st_value is the offset already */
				GElf_Addr off = sym.st_value -
					(sym.st_value >= s->shdr.sh_addr ?
					 s->shdr.sh_addr : 0);

				if (sym.st_shndx != s->index ||
				    off > s->bytes.len ||
				    sym.st_size > s->bytes.len - off)
					continue;
				memset(s->bytes.buf + off, 0, sym.st_size);
			}
		}
	}
}

/*
 * Whether the kernel loads the section: code and data, not the notes
 * (the build id differs from build to build).
 */
static int loaded(const GElf_Shdr *sh)
{
	return (sh->sh_flags & SHF_ALLOC) && sh->sh_type != SHT_NOTE;
}

char *vmlinux_digest_fd(int fd, const char *path)
{
	struct section *sec = NULL;
	struct strbuf all = STRBUF_INIT;
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx, i, nr = 0, alloc = 0;
	char hex[GIT_OID_HEXSZ + 1], *ret = NULL;
	int text = 0;
	git_oid oid;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		error("libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0) {
		error("%s: not an ELF file", path);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		struct section *s;
		GElf_Shdr sh;
		Elf_Data *data = NULL;

		if (!gelf_getshdr(scn, &sh) || !loaded(&sh))
			continue;
		ALLOC_GROW(sec, nr + 1, alloc);
		s = &sec[nr++];
		s->index = elf_ndxscn(scn);
		s->shdr = sh;
		s->name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!s->name)
			s->name = "";
		text |= sh.sh_type == SHT_PROGBITS && !strcmp(s->name, ".text");
		strbuf_init(&s->bytes, 0);
		if (sh.sh_type == SHT_NOBITS)
			continue;
		while ((data = elf_getdata(scn, data)))
			if (data->d_buf)
				strbuf_add(&s->bytes, data->d_buf,
					   data->d_size);
	}
	if (!text) {
		error("%s: no .text section", path);
		goto out_sec;
	}
	blank_identity(elf, sec, nr);
	for (i = 0; i < nr; i++) {
		strbuf_addf(&all, "%s %llu\n", sec[i].name,
			    (unsigned long long)sec[i].shdr.sh_size);
		strbuf_add(&all, sec[i].bytes.buf, sec[i].bytes.len);
	}
	git_odb_hash(&oid, all.buf, all.len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	ret = xstrdup(hex);
out_sec:
	for (i = 0; i < nr; i++)
		strbuf_release(&sec[i].bytes);
	free(sec);
out:
	strbuf_release(&all);
	if (elf)
		elf_end(elf);
	return ret;
}

char *vmlinux_digest(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *ret;

	if (fd < 0) {
		error("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	ret = vmlinux_digest_fd(fd, path);
	close(fd);
	return ret;
}
