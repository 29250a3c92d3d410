// SPDX-License-Identifier: GPL-2.0
/*
 * vmlinux.c - the digest of a kernel's code and data (vmlinux.h): the
 * section headers read with libelf, the sections themselves with
 * pread(2) a piece at a time into a streamed SHA-1.
 *
 * Why not elf_getdata(): it reads a section whole into memory, and the
 * vmlinux is the build's, a stranger's, file: 16 sections that each
 * claim the same 2 GiB of a sparse file took the bot to 4 GB.  So the
 * headers are checked first (vmlinux.h: the limits), and no more than
 * a piece of any section is ever in memory.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "vmlinux.h"

/* Symbols whose bytes are the build's identity, not its code. */
static const char *const identity[] = {
	"linux_banner", "linux_proc_banner", "init_uts_ns",
};
#define NAME_MAX_LEN 32		/* longer than any of them, with its NUL */

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the symbol table is read as this machine's: little-endian"
#endif

struct section {
	size_t index;
	GElf_Shdr shdr;
	const char *name;
};

/* Bytes of a loaded section that count as zeroes (an identity symbol). */
struct blank {
	size_t sec;		/* in struct digest's sec[] */
	GElf_Xword off, size;
};

struct digest {
	int fd;
	const char *path;
	struct strbuf *why;
	off_t file_size;
	Elf *elf;
	size_t shnum;
	GElf_Shdr *shdr;	/* every section's header, by index */
	struct section *sec;	/* the loaded ones, in the file's order */
	size_t nr, alloc;
	size_t *loaded;		/* by index: its place in sec[] + 1, or 0 */
	const char **names;	/* by index: its name, or NULL */
	struct blank blanks[VMLINUX_MAX_BLANKS];
	size_t nr_blanks;
	char *piece;		/* VMLINUX_PIECE bytes */
};

/* "PATH: reason" to d->why, or printed: NULL (no digest) for chaining. */
static char *refuse(struct digest *d, const char *fmt, ...) PRINTF(2, 3);
static char *refuse(struct digest *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", d->path);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (d->why) {
		if (d->why->len)
			strbuf_addch(d->why, '\n');
		strbuf_addstr(d->why, sb.buf);
	} else {
		error("%s", sb.buf);
	}
	strbuf_release(&sb);
	return NULL;
}

static const char *sec_name(struct digest *d, size_t i)
{
	const char *n = i < d->shnum ? d->names[i] : NULL;

	return n ? n : "?";
}

static int pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* A section with bytes in the file (not .bss, not empty). */
static int has_bytes(const GElf_Shdr *sh)
{
	return sh->sh_type != SHT_NULL && sh->sh_type != SHT_NOBITS &&
	       sh->sh_size;
}

/*
 * The ELF header, before libelf sees the file: an ELF64 whose section
 * header table lies in the file and holds at most VMLINUX_MAX_SECTIONS
 * entries (libelf sets up each, whatever the count says).
 */
static int check_header(struct digest *d)
{
	Elf64_Ehdr eh;
	Elf64_Shdr zero;
	unsigned long long shnum;

	if (pread_full(d->fd, &eh, sizeof(eh), 0) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		refuse(d, "not a little-endian ELF64 file");
		return -1;
	}
	shnum = eh.e_shnum;
	/* more than SHN_LORESERVE: the count is section 0's sh_size */
	if (!shnum && eh.e_shoff) {
		if (eh.e_shoff > (unsigned long long)d->file_size ||
		    pread_full(d->fd, &zero, sizeof(zero),
			       (off_t)eh.e_shoff)) {
			refuse(d, "its section headers lie outside the file");
			return -1;
		}
		shnum = zero.sh_size;
	}
	if (shnum > VMLINUX_MAX_SECTIONS) {
		refuse(d, "%llu sections, more than %d", shnum,
		       VMLINUX_MAX_SECTIONS);
		return -1;
	}
	if (shnum && (eh.e_shentsize != sizeof(Elf64_Shdr) ||
		      eh.e_shoff > (unsigned long long)d->file_size ||
		      shnum * sizeof(Elf64_Shdr) >
		      (unsigned long long)d->file_size - eh.e_shoff)) {
		refuse(d, "its section headers lie outside the file");
		return -1;
	}
	return 0;
}

static int by_offset(const void *a, const void *b, void *arg)
{
	const GElf_Shdr *sh = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sh[x].sh_offset != sh[y].sh_offset)
		return sh[x].sh_offset < sh[y].sh_offset ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Every section that has bytes lies in the file, and no two share any:
 * each byte is read once, and no more than the file holds.
 */
static int check_sections(struct digest *d)
{
	size_t *order = xcalloc(d->shnum + 1, sizeof(*order)), n = 0, i;
	unsigned long long size = (unsigned long long)d->file_size;
	int ret = 0;

	for (i = 0; i < d->shnum; i++) {
		const GElf_Shdr *sh = &d->shdr[i];

		if (!has_bytes(sh))
			continue;
		if (sh->sh_offset > size || sh->sh_size > size - sh->sh_offset) {
			refuse(d, "section %zu (%.64s) lies outside the file (bytes %llu to %llu of %llu)",
			       i, sec_name(d, i),
			       (unsigned long long)sh->sh_offset,
			       (unsigned long long)sh->sh_offset +
			       sh->sh_size, size);
			ret = -1;
			goto out;
		}
		order[n++] = i;
	}
	qsort_r(order, n, sizeof(*order), by_offset, d->shdr);
	for (i = 1; i < n; i++) {
		const GElf_Shdr *a = &d->shdr[order[i - 1]];
		const GElf_Shdr *b = &d->shdr[order[i]];

		if (a->sh_offset + a->sh_size > b->sh_offset) {
			refuse(d, "sections %zu (%.64s) and %zu (%.64s) overlap in the file",
			       order[i - 1], sec_name(d, order[i - 1]),
			       order[i], sec_name(d, order[i]));
			ret = -1;
			goto out;
		}
	}
out:
	free(order);
	return ret;
}

/*
 * Whether the kernel loads the section: code and data, not the notes
 * (the build id differs from build to build).
 */
static int loaded(const GElf_Shdr *sh)
{
	return (sh->sh_flags & SHF_ALLOC) && sh->sh_type != SHT_NOTE;
}

/*
 * Every section header and name: the table of names is read whole by
 * libelf, so it is checked first (in the file, at most
 * VMLINUX_MAX_NAMES bytes); then check_sections(), and the loaded
 * sections in sec[].
 */
static int read_headers(struct digest *d)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, i;
	const GElf_Shdr *str;

	if (elf_getshdrnum(d->elf, &d->shnum) < 0 ||
	    elf_getshdrstrndx(d->elf, &shstrndx) < 0) {
		refuse(d, "not an ELF file (%s)", elf_errmsg(-1));
		return -1;
	}
	d->shdr = xcalloc(d->shnum + 1, sizeof(*d->shdr));
	d->loaded = xcalloc(d->shnum + 1, sizeof(*d->loaded));
	d->names = xcalloc(d->shnum + 1, sizeof(*d->names));
	while ((scn = elf_nextscn(d->elf, scn))) {
		i = elf_ndxscn(scn);
		if (i >= d->shnum || !gelf_getshdr(scn, &d->shdr[i])) {
			refuse(d, "section %zu: %s", i, elf_errmsg(-1));
			return -1;
		}
	}
	str = shstrndx < d->shnum ? &d->shdr[shstrndx] : NULL;
	if (!str || str->sh_type != SHT_STRTAB ||
	    str->sh_size > VMLINUX_MAX_NAMES ||
	    str->sh_offset > (unsigned long long)d->file_size ||
	    str->sh_size > (unsigned long long)d->file_size - str->sh_offset) {
		refuse(d, "its table of section names is missing, outside the file or larger than %d bytes",
		       VMLINUX_MAX_NAMES);
		return -1;
	}
	for (i = 1; i < d->shnum; i++)
		d->names[i] = elf_strptr(d->elf, shstrndx,
					 d->shdr[i].sh_name);
	if (check_sections(d) < 0)
		return -1;
	for (i = 1; i < d->shnum; i++) {
		struct section *s;

		if (!loaded(&d->shdr[i]))
			continue;
		ALLOC_GROW(d->sec, d->nr + 1, d->alloc);
		s = &d->sec[d->nr++];
		s->index = i;
		s->shdr = d->shdr[i];
		s->name = d->names[i] ? d->names[i] : "";
		d->loaded[i] = d->nr;
	}
	return 0;
}

/* A small window on a string table, for the names of symbols. */
struct names {
	const GElf_Shdr *sh;
	char buf[4096];
	GElf_Xword at, len;	/* the window: bytes at..at+len */
};

/* Whether the name at off of the string table is one of identity[]. */
static int is_identity(struct digest *d, struct names *nm, GElf_Word off)
{
	const char *s;
	size_t i;

	if (off >= nm->sh->sh_size)
		return 0;
	if (off < nm->at || (GElf_Xword)off + NAME_MAX_LEN > nm->at + nm->len) {
		GElf_Xword len = nm->sh->sh_size - off;

		if (len > sizeof(nm->buf))
			len = sizeof(nm->buf);
		if (pread_full(d->fd, nm->buf, len,
			       (off_t)(nm->sh->sh_offset + off)))
			return 0;
		nm->at = off;
		nm->len = len;
	}
	s = nm->buf + (off - nm->at);
	for (i = 0; i < ARRAY_SIZE(identity); i++) {
		size_t n = strlen(identity[i]) + 1;

		if (n <= nm->at + nm->len - off && !memcmp(s, identity[i], n))
			return 1;
	}
	return 0;
}

/* A symbol's bytes in its loaded section, to count as zeroes. */
static int add_blank(struct digest *d, const Elf64_Sym *sym)
{
	size_t k = sym->st_shndx < d->shnum ? d->loaded[sym->st_shndx] : 0;
	const GElf_Shdr *sh;
	GElf_Addr off;

	if (!k || !sym->st_size)
		return 0;
	sh = &d->sec[k - 1].shdr;
	/* ET_REL: st_value is the offset already */
	off = sym->st_value - (sym->st_value >= sh->sh_addr ? sh->sh_addr : 0);
	if (sh->sh_type == SHT_NOBITS || off > sh->sh_size ||
	    sym->st_size > sh->sh_size - off)
		return 0;
	if (d->nr_blanks == VMLINUX_MAX_BLANKS) {
		refuse(d, "more than %d symbols of the build's identity",
		       VMLINUX_MAX_BLANKS);
		return -1;
	}
	d->blanks[d->nr_blanks++] = (struct blank){ k - 1, off, sym->st_size };
	return 0;
}

/*
 * The bytes of the identity symbols (linux_banner, ...), from every
 * symbol table, read a piece at a time (at most VMLINUX_MAX_SYMTAB
 * bytes of each).
 */
static int find_identity(struct digest *d)
{
	size_t i, per = VMLINUX_PIECE / sizeof(Elf64_Sym);

	for (i = 1; i < d->shnum; i++) {
		const GElf_Shdr *sh = &d->shdr[i];
		struct names nm = { .at = 0, .len = 0 };
		GElf_Xword nsym, k, n, s;

		if (sh->sh_type != SHT_SYMTAB ||
		    sh->sh_entsize != sizeof(Elf64_Sym))
			continue;
		if (sh->sh_size > VMLINUX_MAX_SYMTAB) {
			refuse(d, "section %zu (%.64s), a symbol table, is larger than %d MiB",
			       i, sec_name(d, i), VMLINUX_MAX_SYMTAB >> 20);
			return -1;
		}
		if (sh->sh_link >= d->shnum ||
		    d->shdr[sh->sh_link].sh_type != SHT_STRTAB)
			continue;
		nm.sh = &d->shdr[sh->sh_link];
		nsym = sh->sh_size / sizeof(Elf64_Sym);
		for (k = 0; k < nsym; k += n) {
			const Elf64_Sym *sym = (const Elf64_Sym *)d->piece;

			n = nsym - k < per ? nsym - k : per;
			if (pread_full(d->fd, d->piece, n * sizeof(*sym),
				       (off_t)(sh->sh_offset +
					       k * sizeof(*sym)))) {
				refuse(d, "cannot read section %zu: %s", i,
				       strerror(errno ? errno : EIO));
				return -1;
			}
			for (s = 0; s < n; s++)
				if (sym[s].st_size && sym[s].st_shndx &&
				    sym[s].st_shndx < d->shnum &&
				    d->loaded[sym[s].st_shndx] &&
				    is_identity(d, &nm, sym[s].st_name) &&
				    add_blank(d, &sym[s]) < 0)
					return -1;
		}
	}
	return 0;
}

/* The bytes at..at+len of section k, with its blanks zeroed. */
static void zero_blanks(struct digest *d, size_t k, GElf_Xword at,
			GElf_Xword len)
{
	size_t b;

	for (b = 0; b < d->nr_blanks; b++) {
		const struct blank *bl = &d->blanks[b];
		GElf_Xword from, to;

		if (bl->sec != k)
			continue;
		from = bl->off > at ? bl->off : at;
		to = bl->off + bl->size < at + len ? bl->off + bl->size :
		     at + len;
		if (from < to)
			memset(d->piece + (from - at), 0, to - from);
	}
}

/*
 * The digest: git's blob id of every loaded section's "NAME SIZE\n" and
 * bytes, in the file's order (what the digest always was), hashed as
 * it is read.
 */
static char *hash_sections(struct digest *d)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned long long total = 0;
	struct strbuf sb = STRBUF_INIT;
	char *hex = NULL;
	unsigned int mdlen = 0, i;
	size_t k;

	for (k = 0; k < d->nr; k++) {
		const GElf_Shdr *sh = &d->sec[k].shdr;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s %llu\n", d->sec[k].name,
			    (unsigned long long)sh->sh_size);
		total += sb.len + (sh->sh_type == SHT_NOBITS ? 0 : sh->sh_size);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "blob %llu", total);
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) ||
	    !EVP_DigestUpdate(ctx, sb.buf, sb.len + 1))
		goto fail;
	for (k = 0; k < d->nr; k++) {
		const GElf_Shdr *sh = &d->sec[k].shdr;
		GElf_Xword at, len;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s %llu\n", d->sec[k].name,
			    (unsigned long long)sh->sh_size);
		if (!EVP_DigestUpdate(ctx, sb.buf, sb.len))
			goto fail;
		if (sh->sh_type == SHT_NOBITS)
			continue;
		for (at = 0; at < sh->sh_size; at += len) {
			len = sh->sh_size - at < VMLINUX_PIECE ?
			      sh->sh_size - at : VMLINUX_PIECE;
			if (pread_full(d->fd, d->piece, len,
				       (off_t)(sh->sh_offset + at))) {
				refuse(d, "cannot read section %zu (%.64s): %s",
				       d->sec[k].index, d->sec[k].name,
				       strerror(errno ? errno : EIO));
				goto out;
			}
			zero_blanks(d, k, at, len);
			if (!EVP_DigestUpdate(ctx, d->piece, len))
				goto fail;
		}
	}
	if (!EVP_DigestFinal_ex(ctx, md, &mdlen))
		goto fail;
	strbuf_reset(&sb);
	for (i = 0; i < mdlen; i++)
		strbuf_addf(&sb, "%02x", md[i]);
	hex = strbuf_detach(&sb, NULL);
	goto out;
fail:
	refuse(d, "SHA-1 failed");
out:
	EVP_MD_CTX_free(ctx);
	strbuf_release(&sb);
	return hex;
}

char *vmlinux_digest_fd(int fd, const char *path, struct strbuf *why)
{
	struct digest d = { .fd = fd, .path = path, .why = why };
	struct stat st;
	char *ret = NULL;
	size_t k;
	int text = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return refuse(&d, "libelf: %s", elf_errmsg(-1));
	if (fstat(fd, &st) < 0)
		return refuse(&d, "%s", strerror(errno));
	d.file_size = st.st_size;
	if (check_header(&d) < 0)
		return NULL;
	d.elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!d.elf || elf_kind(d.elf) != ELF_K_ELF) {
		refuse(&d, "not an ELF file");
		goto out;
	}
	if (read_headers(&d) < 0)
		goto out;
	for (k = 0; k < d.nr; k++)
		text |= d.sec[k].shdr.sh_type == SHT_PROGBITS &&
			!strcmp(d.sec[k].name, ".text");
	if (!text) {
		refuse(&d, "no .text section");
		goto out;
	}
	d.piece = xmalloc(VMLINUX_PIECE);
	if (find_identity(&d) < 0)
		goto out;
	ret = hash_sections(&d);
out:
	free(d.piece);
	free(d.sec);
	free(d.shdr);
	free(d.loaded);
	free(d.names);
	if (d.elf)
		elf_end(d.elf);
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
	ret = vmlinux_digest_fd(fd, path, NULL);
	close(fd);
	return ret;
}
