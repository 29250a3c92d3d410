// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - error reporting, allocation, strbuf and file helpers.
 */
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <zlib.h>

#include "util.h"

const char *progname = "sched-bot";
int verbosity;
char strbuf_empty[1];

void (*report_filter)(struct strbuf *line);

size_t strip_controls(char *buf, size_t len)
{
	unsigned char *p = (unsigned char *)buf;
	size_t i = 0, o = 0;

	while (i < len) {
		unsigned char c = p[i];
		size_t n = 0, k;

		if (c < 0x80) {
			p[o++] = (c < 0x20 && c != '\n' && c != '\t') ||
				 c == 0x7f ? '?' : c;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3;
		for (k = 1; n && k <= n; k++)
			if (i + k >= len || (p[i + k] & 0xc0) != 0x80)
				n = 0;
		if (!n) {
			/* A stray C1 byte is CSI & co. to an 8-bit terminal. */
			p[o++] = c <= 0x9f ? '?' : c;
			i++;
		} else if (c == 0xc2 && p[i + 1] <= 0x9f) {
			p[o++] = '?';	/* U+0080-U+009F: C1 controls */
			i += 2;
		} else {
			for (k = 0; k <= n; k++)
				p[o++] = p[i++];
		}
	}
	if (o < len)
		buf[o] = '\0';
	return o;
}

size_t utf8_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

void print_clean(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_setlen(&sb, strip_controls(sb.buf, sb.len));
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

/* One line, filtered, written at once. */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	static int depth;

	/* out of memory while reporting: print as is, unfiltered */
	if (depth) {
		if (prefix)
			fprintf(stderr, "%s: %s", progname, prefix);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		return;
	}
	depth++;
	if (prefix)
		strbuf_addf(&sb, "%s: %s", progname, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	if (report_filter)
		report_filter(&sb);
	/* Subjects and names from mail: no escape reaches the terminal. */
	strbuf_setlen(&sb, strip_controls(sb.buf, sb.len));
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
	depth--;
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 0)
		return;
	va_start(ap, fmt);
	vreport(NULL, fmt, ap);
	va_end(ap);
}

void debug(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	vreport("debug: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(EXIT_FAIL);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die("%s: %s", msg, strerror(err));
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory reallocating %zu bytes", n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *ret;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	ret = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return ret;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int fresh = !sb->alloc;

	if (sb->len + extra + 1 <= sb->alloc)
		return;
	if (sb->len + extra + 1 < sb->len)
		die("strbuf size overflow");
	sb->alloc = (sb->len + extra + 1) * 3 / 2 + 16;
	sb->buf = xrealloc(fresh ? NULL : sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

size_t capped_body_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct capped_body *b = arg;
	size_t n = size * nmemb;

	if (b->sb->len + n > b->max) {
		b->too_big = 1;
		return 0;
	}
	strbuf_add(b->sb, data, n);
	return n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("vsnprintf failed");
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (len)
			die("strbuf_setlen beyond empty buffer");
		return;
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_trim(struct strbuf *sb)
{
	size_t start = 0, end = sb->len;

	while (end > 0 && strchr(" \t\r\n", sb->buf[end - 1]))
		end--;
	while (start < end && strchr(" \t\r\n", sb->buf[start]))
		start++;
	if (!sb->alloc)
		return;
	memmove(sb->buf, sb->buf + start, end - start);
	strbuf_setlen(sb, end - start);
}

ssize_t strbuf_read_fd(struct strbuf *sb, int fd)
{
	size_t old = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			strbuf_setlen(sb, old);
			return -1;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	return (ssize_t)(sb->len - old);
}

ssize_t strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = strbuf_read_fd(sb, fd);
	err = errno;
	close(fd);
	errno = err;
	return n;
}

int write_in_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n) {
			/* nothing written and no error: call it a full disk */
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * A fresh temporary next to path: O_EXCL | O_NOFOLLOW, a random name,
 * so that nothing planted beforehand (a symlink named like it, in a
 * directory someone else can write) redirects the write.  Mode 0644
 * less the umask, as open(2) gives.
 */
static int open_temp(const char *path, char **tmp)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[12];
	char name[sizeof(rnd) + 1];
	int tries, fd;
	size_t i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -1;
		for (i = 0; i < sizeof(rnd); i++)
			name[i] = chars[rnd[i] % (sizeof(chars) - 1)];
		name[sizeof(rnd)] = '\0';
		*tmp = xasprintf("%s.tmp.%s", path, name);
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		free(*tmp);
		*tmp = NULL;
	}
	return -1;
}

int write_file_atomic_with(const char *path,
			   int (*fill)(int fd, void *data), void *data)
{
	char *tmp = NULL;
	int fd, err;

	fd = open_temp(path, &tmp);
	if (fd < 0)
		goto fail;
	if (fill(fd, data) < 0)
		goto fail_close;
	if (fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		goto fail_close;
	}
	if (rename(tmp, path) < 0)
		goto fail_unlink;
	free(tmp);
	return 0;

fail_close:
	err = errno;
	if (fd >= 0)
		close(fd);
	errno = err;
fail_unlink:
	err = errno;
	unlink(tmp);
	errno = err;
fail:
	err = errno;
	free(tmp);
	disk_full_note(path, err);
	errno = err;
	return -1;
}

struct mem_data {
	const void *data;
	size_t len;
};

static int fill_mem(int fd, void *data)
{
	struct mem_data *m = data;

	return write_in_full(fd, m->data, m->len);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct mem_data m = { data, len };

	return write_file_atomic_with(path, fill_mem, &m);
}

int copy_fd(int in, int out)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (write_in_full(out, buf, (size_t)n) < 0)
			return -1;
	}
}

static int fill_fd(int fd, void *data)
{
	return copy_fd(*(int *)data, fd);
}

int write_file_atomic_fd(const char *path, int in)
{
	return write_file_atomic_with(path, fill_fd, &in);
}

/* one process, one job at a time: the last full disk is enough */
static char *disk_full;

void disk_full_note(const char *path, int err)
{
	if (err != ENOSPC && err != EDQUOT)
		return;
	free(disk_full);
	disk_full = xstrdup(path);
}

const char *disk_full_path(void)
{
	return disk_full;
}

void disk_full_clear(void)
{
	free(disk_full);
	disk_full = NULL;
}

int mkdir_p(const char *path, int mode)
{
	char *p = xstrdup(path);
	char *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
			ret = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

/*
 * The tree walk: iterative, so no depth is too deep for the stack, and
 * by descriptor, so no path is too long and no link is followed.  Each
 * level holds its directory open while it is among the WALK_OPEN
 * deepest; a shallower one is closed, its place kept (telldir()), and
 * found again on the way up through the ".." of the level below it,
 * which must be the very directory (device and inode) left: a tree moved
 * under the walk ends it (ESTALE) rather than send it elsewhere.  What a
 * level costs beyond that is its name and a few words.
 */
#define WALK_OPEN 16

struct walk_level {
	DIR *dir;		/* NULL: closed, found again through ".." */
	long pos;		/* telldir() when it was closed */
	dev_t dev;
	ino_t ino;
	size_t name;		/* its name's offset in walk.names */
};

struct walk {
	struct walk_level *lv;
	size_t nr, alloc;
	size_t first_open;	/* levels below it are closed */
	struct strbuf names;	/* each level's name, NUL-terminated */
};

static int walk_open(int dfd, const char *name)
{
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
}

/* fd (taken) as the deepest level, name its name: 0, or -1 (errno). */
static int walk_push(struct walk *w, int fd, const char *name)
{
	struct walk_level *l;
	struct stat st;
	DIR *d;

	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	/* never the deepest (name may be its entry): WALK_OPEN > 1 */
	if (w->nr - w->first_open >= WALK_OPEN) {
		l = &w->lv[w->first_open++];
		l->pos = telldir(l->dir);
		closedir(l->dir);
		l->dir = NULL;
	}
	ALLOC_GROW(w->lv, w->nr, w->alloc);
	l = &w->lv[w->nr++];
	l->dir = d;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->name = w->names.len;
	strbuf_add(&w->names, name, strlen(name) + 1);
	return 0;
}

/* Back from the deepest level to its parent, opened again if closed. */
static int walk_pop(struct walk *w)
{
	struct walk_level *l = &w->lv[w->nr - 1], *p = l - 1;
	struct stat st;
	int fd;

	if (!p->dir) {
		fd = walk_open(dirfd(l->dir), "..");
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) < 0 || st.st_dev != p->dev ||
		    st.st_ino != p->ino) {
			close(fd);
			errno = ESTALE;
			return -1;
		}
		p->dir = fdopendir(fd);
		if (!p->dir) {
			close(fd);
			return -1;
		}
		seekdir(p->dir, p->pos);
		w->first_open = w->nr - 2;
	}
	closedir(l->dir);
	l->dir = NULL;
	w->nr--;
	return 0;
}

/* A directory entry could not be entered: e->err, and maybe again. */
static int walk_refused(struct tree_entry *e, tree_visit_fn visit,
			void *data, int *fd)
{
	int rc;

	e->post = 1;
	e->err = errno;
	rc = visit(e, data);
	if (rc != TREE_RETRY)
		return rc;
	*fd = walk_open(e->dfd, e->name);
	if (*fd >= 0 || errno == ENOENT)
		return 0;
	e->err = errno;
	e->retry = 1;
	rc = visit(e, data);
	return rc == TREE_RETRY ? 0 : rc;
}

int tree_walk_below(int dfd, tree_visit_fn visit, void *data)
{
	struct walk w = { .names = STRBUF_INIT };
	struct tree_entry e;
	struct dirent *de;
	struct stat st;
	int ret = 0, rc, fd;
	size_t i;

	if (walk_push(&w, dfd, "") < 0) {
		strbuf_release(&w.names);
		return -1;
	}
	while (w.nr && !ret) {
		struct walk_level *l = &w.lv[w.nr - 1];
		size_t name = l->name;

		errno = 0;
		de = readdir(l->dir);
		if (!de) {
			memset(&e, 0, sizeof(e));
			e.err = errno;
			if (w.nr == 1)
				break;
			if (walk_pop(&w) < 0) {
				ret = -1;
				break;
			}
			e.dfd = dirfd(w.lv[w.nr - 1].dir);
			e.name = w.names.buf + name;
			e.post = 1;
			e.depth = w.nr;
			rc = visit(&e, data);
			strbuf_setlen(&w.names, name);
			if (rc < 0)
				ret = rc;
			continue;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* gone since readdir: a build removes its temporary files */
		if (fstatat(dirfd(l->dir), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		memset(&e, 0, sizeof(e));
		e.dfd = dirfd(l->dir);
		e.name = de->d_name;
		e.st = &st;
		e.depth = w.nr;
		rc = visit(&e, data);
		if (rc < 0) {
			ret = rc;
			break;
		}
		if (!S_ISDIR(st.st_mode) || rc == TREE_SKIP)
			continue;
		fd = walk_open(e.dfd, e.name);
		if (fd < 0 && errno != ENOENT) {
			e.st = NULL;
			rc = walk_refused(&e, visit, data, &fd);
			if (rc < 0) {
				if (fd >= 0)
					close(fd);
				ret = rc;
				break;
			}
		}
		if (fd >= 0 && walk_push(&w, fd, de->d_name) < 0)
			ret = -1;
	}
	for (i = w.first_open; i < w.nr; i++)
		if (w.lv[i].dir)
			closedir(w.lv[i].dir);
	free(w.lv);
	strbuf_release(&w.names);
	return ret;
}

static int disk_use_visit(const struct tree_entry *e, void *data)
{
	struct disk_use *u = data;

	if (e->post) {
		/* a directory that could not be read is not measured */
		if (e->err && e->err != ENOENT)
			u->unknown = 1;
		return 0;
	}
	u->bytes += (unsigned long long)e->st->st_blocks * 512;
	/* the entry and its children date it: a dir's own mtime lags */
	if (e->depth <= 1 && e->st->st_mtime > u->newest)
		u->newest = e->st->st_mtime;
	return 0;
}

void disk_use_below(int dfd, struct disk_use *u)
{
	if (tree_walk_below(dfd, disk_use_visit, u) < 0)
		u->unknown = 1;
}

void disk_use_at(int at, const char *name, struct disk_use *u)
{
	struct stat st;
	int fd;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	u->bytes += (unsigned long long)st.st_blocks * 512;
	if (st.st_mtime > u->newest)
		u->newest = st.st_mtime;
	if (!S_ISDIR(st.st_mode))
		return;
	fd = walk_open(at, name);
	if (fd < 0) {
		if (errno != ENOENT)
			u->unknown = 1;
		return;
	}
	disk_use_below(fd, u);
}

struct remove_walk {
	int err;		/* the first failure's errno, or 0 */
	unsigned long removed;
};

static void remove_failed(struct remove_walk *r)
{
	if (errno != ENOENT && !r->err)
		r->err = errno;
}

static int remove_visit(const struct tree_entry *e, void *data)
{
	struct remove_walk *r = data;

	if (!e->post) {
		if (S_ISDIR(e->st->st_mode))
			return 0;
		if (unlinkat(e->dfd, e->name, 0) < 0)
			remove_failed(r);
		else
			r->removed++;
		return 0;
	}
	if (e->err && !e->retry && (e->err == EACCES || e->err == EPERM) &&
	    !fchmodat(e->dfd, e->name, 0700, AT_SYMLINK_NOFOLLOW))
		return TREE_RETRY;	/* ours, made unreadable: readable */
	if (unlinkat(e->dfd, e->name, AT_REMOVEDIR) < 0)
		remove_failed(r);
	else
		r->removed++;
	return 0;
}

int remove_tree(const char *path)
{
	struct remove_walk r;
	struct stat st;
	int fd, pass;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	/*
	 * Another pass while one removes something: a directory read
	 * again from its kept place may skip an entry where the file
	 * system renumbers what is left after a removal.
	 */
	for (pass = 0; ; pass++) {
		memset(&r, 0, sizeof(r));
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			  O_CLOEXEC);
		if (fd < 0 && (errno == EACCES || errno == EPERM) &&
		    !chmod(path, 0700))
			fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				  O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (tree_walk_below(fd, remove_visit, &r) < 0 && !r.err)
			r.err = errno ? errno : EIO;
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (!r.err)
			r.err = errno;
		if (!r.removed || pass >= 8) {
			errno = r.err;
			return -1;
		}
	}
}

int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

const char *skip_prefix_ci(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncasecmp(s, prefix, n) ? NULL : s + n;
}

int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

const char *git_error_text(void)
{
	const git_error *e = git_error_last();

	return e && e->message && *e->message ? e->message :
		"unknown libgit2 error";
}

static char *xdg_path(const char *env, const char *fallback,
		      const char *sub)
{
	const char *base = getenv(env);
	const char *home = getenv("HOME");

	if (base && *base == '/')
		return xasprintf("%s/sched-bot%s%s", base, sub ? "/" : "",
				 sub ? sub : "");
	if (!home || !*home)
		home = "/tmp";
	return xasprintf("%s/%s/sched-bot%s%s", home, fallback,
			 sub ? "/" : "", sub ? sub : "");
}

char *cache_path(const char *sub)
{
	return xdg_path("XDG_CACHE_HOME", ".cache", sub);
}

char *data_path(const char *sub)
{
	return xdg_path("XDG_DATA_HOME", ".local/share", sub);
}

double now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *exe_dir(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

char *xstrndup_trim(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

int lock_file(const char *path, const char *waiting, long timeout)
{
	struct stat st, now;
	long waited = 0;
	int fd;

	for (;;) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			  0644);
		if (fd < 0)
			return error("cannot open %s: %s", path,
				     strerror(errno));
		while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EWOULDBLOCK)
				goto fail;
			if (!waited++ && waiting)
				info("%s", waiting);
			if (!timeout) {
				while (flock(fd, LOCK_EX) < 0)
					if (errno != EINTR)
						goto fail;
				break;
			}
			if (waited > timeout) {
				error("gave up waiting for %s", path);
				close(fd);
				return -1;
			}
			sleep(1);
		}
		/* the holder may have removed the file as it let go */
		if (fstat(fd, &st) < 0)
			goto fail;
		if (stat(path, &now) < 0) {
			if (errno != ENOENT)
				goto fail;
		} else if (now.st_dev == st.st_dev &&
			   now.st_ino == st.st_ino) {
			return fd;
		}
		close(fd);
	}
fail:
	error("cannot lock %s: %s", path, strerror(errno));
	close(fd);
	return -1;
}

int lock_file_wait(const char *path)
{
	return lock_file(path, NULL, 0);
}

void strbuf_add_escaped_html(struct strbuf *sb, const char *s)
{
	size_t start = sb->len;

	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			strbuf_addch(sb, *s);
		}
	}
	/* XML forbids them, and a page read with cat shows them raw */
	strbuf_setlen(sb, start + strip_controls(sb->buf + start,
						 sb->len - start));
}

void strbuf_add_size(struct strbuf *sb, unsigned long long n)
{
	if (n >= (1ULL << 20) && !(n % (1ULL << 20)))
		strbuf_addf(sb, "%llu MB", n >> 20);
	else if (n >= 1024 && !(n % 1024))
		strbuf_addf(sb, "%llu KB", n >> 10);
	else
		strbuf_addf(sb, "%llu bytes", n);
}

void strbuf_add_base64(struct strbuf *sb, const void *data, size_t len)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = data;
	size_t i;

	for (i = 0; i < len; i += 3) {
		unsigned int v = s[i] << 16;

		if (i + 1 < len)
			v |= s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		strbuf_addch(sb, tab[(v >> 18) & 63]);
		strbuf_addch(sb, tab[(v >> 12) & 63]);
		strbuf_addch(sb, i + 1 < len ? tab[(v >> 6) & 63] : '=');
		strbuf_addch(sb, i + 2 < len ? tab[v & 63] : '=');
	}
}

/* ---- gzip ---- */

int gunzip_mem(const void *in, size_t len, size_t max, struct strbuf *out,
	       const char **why)
{
	z_stream zs;
	int ret = EXIT_FAIL, zret;

	*why = NULL;
	memset(&zs, 0, sizeof(zs));
	/* 15 + 16: gzip only, never raw zlib or deflate. */
	if (inflateInit2(&zs, 15 + 16) != Z_OK) {
		*why = "zlib cannot initialise";
		return EXIT_FAIL;
	}
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)len;
	if (len > UINT_MAX) {
		*why = "compressed data too large";
		goto out;
	}
	for (;;) {
		strbuf_grow(out, 64 * 1024);
		zs.next_out = (Bytef *)out->buf + out->len;
		zs.avail_out = (uInt)(out->alloc - out->len - 1);
		zret = inflate(&zs, Z_NO_FLUSH);
		strbuf_setlen(out, out->alloc - 1 - zs.avail_out);
		if (out->len > max) {
			*why = "uncompressed data over its size limit";
			goto out;
		}
		if (zret == Z_STREAM_END) {
			/* gzip allows several members back to back */
			if (!zs.avail_in)
				break;
			if (inflateReset(&zs) != Z_OK) {
				*why = "zlib cannot reset";
				goto out;
			}
			continue;
		}
		if (zret == Z_BUF_ERROR && !zs.avail_in) {
			*why = "truncated gzip data";
			goto out;
		}
		if (zret == Z_DATA_ERROR) {
			*why = "corrupt gzip data";
			goto out;
		}
		if (zret == Z_MEM_ERROR) {
			*why = "out of memory in zlib";
			goto out;
		}
		if (zret != Z_OK && zret != Z_BUF_ERROR) {
			*why = "gzip error";
			goto out;
		}
		if (zret == Z_OK && !zs.avail_in && zs.avail_out) {
			*why = "truncated gzip data";
			goto out;
		}
	}
	ret = EXIT_OK;
out:
	inflateEnd(&zs);
	return ret;
}

/* ---- file systems ---- */

char *mount_point_of(const char *path)
{
	char *p = xstrdup(path), *slash;
	struct stat st, up;

	while (stat(p, &st) < 0) {
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			return p;
		*slash = '\0';
	}
	for (;;) {
		slash = strrchr(p, '/');
		if (!slash)
			break;
		if (slash == p) {
			if (stat("/", &up) == 0 && up.st_dev != st.st_dev)
				break;
			p[1] = '\0';
			break;
		}
		*slash = '\0';
		if (stat(p, &up) < 0 || up.st_dev != st.st_dev) {
			*slash = '/';
			break;
		}
	}
	return p;
}

int mkdir_parent(const char *path, int mode)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ret = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		ret = mkdir_p(dir, mode);
	}
	free(dir);
	return ret;
}
