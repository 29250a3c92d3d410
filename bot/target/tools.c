// SPDX-License-Identifier: GPL-2.0
/*
 * target/tools.c - a dynamically linked tool and what comes with it.
 *
 * The libraries are ldd's answer: the dynamic loader's own search (the
 * program's RUNPATH, ld.so.cache, the multiarch directories), which no
 * reimplementation would match.  The loader is the path the kernel
 * opens, read from the program's PT_INTERP.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "run.h"
#include "subproc.h"
#include "target/tools.h"

void target_words_add(struct target_words *w, const char *s)
{
	ALLOC_GROW(w->v, w->nr + 1, w->alloc);
	w->v[w->nr++] = xstrdup(s);
	w->v[w->nr] = NULL;
}

void target_words_add_unique(struct target_words *w, const char *s)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		if (!strcmp(w->v[i], s))
			return;
	target_words_add(w, s);
}

void target_words_release(struct target_words *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

static int is_elf(const char *path)
{
	unsigned char m[SELFMAG];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = read(fd, m, SELFMAG) == SELFMAG && !memcmp(m, ELFMAG, SELFMAG);
	close(fd);
	return ok;
}

/* perf_6.1 from the wrapper's directory or linux-tools, the version of
 * the running kernel first, else the newest.
 */
static char *versioned(const char *prog)
{
	static const char *const pats[] = {
		"/usr/bin/%s_*", "/usr/lib/linux-tools*/%s",
	};
	struct utsname u;
	char *pat, *found = NULL, want[32] = "";
	int major, minor;
	size_t i, k;
	glob_t g;

	/* "6.1.0-18-amd64" -> "_6.1" */
	if (!uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2)
		snprintf(want, sizeof(want), "_%d.%d", major, minor);
	for (i = 0; i < ARRAY_SIZE(pats) && !found; i++) {
		pat = xasprintf(pats[i], prog);
		if (!glob(pat, 0, NULL, &g)) {
			for (k = g.gl_pathc; k-- > 0 && !found;)
				if (*want && ends_with(g.gl_pathv[k], want) &&
				    is_elf(g.gl_pathv[k]))
					found = xstrdup(g.gl_pathv[k]);
			/* glob sorts: the last is the newest by name. */
			for (k = g.gl_pathc; k-- > 0 && !found;)
				if (is_elf(g.gl_pathv[k]))
					found = xstrdup(g.gl_pathv[k]);
			globfree(&g);
		}
		free(pat);
	}
	return found;
}

char *target_tool_host_path(const char *prog)
{
	char *path = subproc_find(prog), *real;

	if (path && is_elf(path))
		return path;
	real = versioned(prog);
	free(path);
	return real;
}

char *target_spawn_helper(const char *sched_bench)
{
	const char *slash = strrchr(sched_bench, '/');
	char *path;

	path = slash ? xasprintf("%.*s/sched-bench-spawn",
				 (int)(slash - sched_bench), sched_bench) :
		       xstrdup("sched-bench-spawn");
	if (access(path, X_OK) || !is_elf(path)) {
		free(path);
		return NULL;
	}
	return path;
}

char *target_elf_interp(const char *path)
{
	unsigned char *buf = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *interp = NULL;
	size_t i, off, sz, phoff, phnum, phentsize;
	int is64;

	if (strbuf_read_file(&sb, path) < 0)
		return NULL;
	buf = (unsigned char *)sb.buf;
	if (sb.len < sizeof(Elf32_Ehdr) || memcmp(buf, ELFMAG, SELFMAG))
		goto out;
	is64 = buf[EI_CLASS] == ELFCLASS64;
	if (is64 && sb.len < sizeof(Elf64_Ehdr))
		goto out;
	/* The header fields, read through memcpy: the buffer has no
	 * alignment to speak of.  Same-endian ELF only, as ldd.
	 */
	if (is64) {
		Elf64_Ehdr eh;

		memcpy(&eh, buf, sizeof(eh));
		phoff = eh.e_phoff;
		phnum = eh.e_phnum;
		phentsize = eh.e_phentsize;
	} else {
		Elf32_Ehdr eh;

		memcpy(&eh, buf, sizeof(eh));
		phoff = eh.e_phoff;
		phnum = eh.e_phnum;
		phentsize = eh.e_phentsize;
	}
	if (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		goto out;
	for (i = 0; i < phnum; i++) {
		size_t at = phoff + i * phentsize;
		unsigned int type;

		if (at > sb.len || sb.len - at < phentsize)
			break;
		if (is64) {
			Elf64_Phdr ph;

			memcpy(&ph, buf + at, sizeof(ph));
			type = ph.p_type;
			off = ph.p_offset;
			sz = ph.p_filesz;
		} else {
			Elf32_Phdr ph;

			memcpy(&ph, buf + at, sizeof(ph));
			type = ph.p_type;
			off = ph.p_offset;
			sz = ph.p_filesz;
		}
		if (type != PT_INTERP)
			continue;
		if (off < sb.len && sz > 1 && sz <= sb.len - off &&
		    buf[off] == '/')
			interp = xstrndup((char *)buf + off, sz);
		break;
	}
out:
	strbuf_release(&sb);
	return interp;
}

/* "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and
 * "\t/lib64/ld-linux-x86-64.so.2 (0x...)": the path, or NULL.
 */
static int ldd_line(const char *line, char **path, char **missing)
{
	const char *p = line, *arrow = strstr(line, " => "), *end;

	*path = *missing = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (arrow) {
		if (starts_with(arrow + 4, "not found")) {
			*missing = xstrndup(p, arrow - p);
			return -1;
		}
		p = arrow + 4;
	}
	if (*p != '/')
		return 0;	/* linux-vdso.so.1, "statically linked" */
	end = strstr(p, " (");
	*path = end ? xstrndup(p, end - p) : xstrdup(p);
	return 0;
}

int target_tool_files(const char *host_path, struct target_words *files,
		      char **interp)
{
	const char *argv[] = { "ldd", host_path, NULL };
	struct strbuf out = STRBUF_INIT;
	char *line, *save, *path, *missing, *in;
	int rc, ret = 0;

	if (interp)
		*interp = NULL;
	if (access(host_path, R_OK))
		return error("cannot read %s: %s", host_path, strerror(errno));
	target_words_add_unique(files, host_path);
	in = target_elf_interp(host_path);
	if (!in) {
		/* Static (or a script ldd cannot help with): alone. */
		return 0;
	}
	if (!subproc_have("ldd")) {
		free(in);
		return error("ldd is not installed (package libc-bin): cannot find the libraries of %s",
			     host_path);
	}
	rc = subproc_capture(argv, &out);
	if (rc) {
		error("ldd %s failed (%d): %.200s", host_path, rc, out.buf);
		ret = -1;
		goto out;
	}
	for (line = strtok_r(out.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (ldd_line(line, &path, &missing) < 0) {
			ret = error("%s needs %s, which is not installed",
				    host_path, missing);
			free(missing);
			continue;
		}
		if (path && strcmp(path, in))
			target_words_add_unique(files, path);
		free(path);
	}
	/* The loader last, by the name the kernel looks it up under. */
	target_words_add_unique(files, in);
out:
	strbuf_release(&out);
	if (interp && !ret)
		*interp = in;
	else
		free(in);
	return ret;
}
