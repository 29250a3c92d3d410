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
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "vmlinux.h"

static const char *const compared[] = { ".text", ".rodata", ".data" };

/* Symbols whose bytes are the build's identity, not its code. */
static const char *const identity[] = {
	"linux_banner", "linux_proc_banner", "init_uts_ns",
};

struct section {
	size_t index;
	GElf_Shdr shdr;
	struct strbuf bytes;
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

char *vmlinux_digest(const char *path)
{
	struct section sec[ARRAY_SIZE(compared)];
	struct strbuf all = STRBUF_INIT;
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx, i, nr = 0;
	char hex[GIT_OID_HEXSZ + 1], *ret = NULL;
	git_oid oid;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		error("libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0) {
		error("%s: not an ELF file", path);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn)) && nr < ARRAY_SIZE(sec)) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		for (i = 0; i < ARRAY_SIZE(compared); i++)
			if (name && !strcmp(name, compared[i]))
				break;
		if (i == ARRAY_SIZE(compared))
			continue;
		sec[nr].index = elf_ndxscn(scn);
		sec[nr].shdr = sh;
		strbuf_init(&sec[nr].bytes, 0);
		data = NULL;
		while ((data = elf_getdata(scn, data)))
			if (data->d_buf)
				strbuf_add(&sec[nr].bytes, data->d_buf,
					   data->d_size);
		nr++;
	}
	for (i = 0; i < nr; i++)
		if (!strcmp(elf_strptr(elf, shstrndx, sec[i].shdr.sh_name),
			    ".text"))
			break;
	if (i == nr) {
		error("%s: no .text section", path);
		goto out_sec;
	}
	blank_identity(elf, sec, nr);
	/* in the order of compared[], whatever the file's order */
	for (i = 0; i < ARRAY_SIZE(compared); i++) {
		size_t k;

		for (k = 0; k < nr; k++) {
			const char *name = elf_strptr(elf, shstrndx,
						      sec[k].shdr.sh_name);

			if (strcmp(name, compared[i]))
				continue;
			strbuf_addf(&all, "%s %zu\n", name, sec[k].bytes.len);
			strbuf_add(&all, sec[k].bytes.buf, sec[k].bytes.len);
		}
	}
	git_odb_hash(&oid, all.buf, all.len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	ret = xstrdup(hex);
out_sec:
	for (i = 0; i < nr; i++)
		strbuf_release(&sec[i].bytes);
out:
	strbuf_release(&all);
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
