// SPDX-License-Identifier: GPL-2.0
/*
 * slotfile.c - open and read what untrusted code wrote, through no
 * link and with a bound (slotfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "slotfile.h"

#define OPEN_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

int slot_dir_open(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		error("cannot open %s: %s", path, strerror(errno));
	return fd;
}

/* Absolute, empty, or with a ".." component: not beneath anything. */
static int leaves_dir(const char *rel)
{
	const char *c = rel, *e;

	if (!*rel || *rel == '/')
		return 1;
	for (; *c; c = *e ? e + 1 : e) {
		e = strchrnul(c, '/');
		if (e - c == 2 && c[0] == '.' && c[1] == '.')
			return 1;
	}
	return 0;
}

/* No openat2 (before 5.6, or a seccomp filter): each component alone. */
static int open_nofollow_walk(int dirfd, const char *rel)
{
	char *copy = xstrdup(rel), *c = copy, *slash;
	int fd = dirfd, next, err;

	for (;;) {
		slash = strchr(c, '/');
		if (slash)
			*slash = '\0';
		if (!*c || !strcmp(c, ".")) {
			next = fd == dirfd ? dup(fd) : fd;
		} else {
			struct stat st;

			next = openat(fd, c, slash ? O_PATH | O_DIRECTORY |
					  O_NOFOLLOW | O_CLOEXEC :
					  OPEN_FLAGS | O_NOFOLLOW);
			err = errno;
			/* O_DIRECTORY on a link: ENOTDIR */
			if (next < 0 && err == ENOTDIR &&
			    !fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) &&
			    S_ISLNK(st.st_mode))
				err = ELOOP;
			if (fd != dirfd)
				close(fd);
			errno = err;
		}
		if (next < 0 || !slash)
			break;
		fd = next;
		c = slash + 1;
	}
	err = errno;
	free(copy);
	errno = err;
	return next;
}

int slot_no_openat2;

static int open_beneath(int dirfd, const char *rel)
{
	int no_openat2 = slot_no_openat2;
	struct open_how how = {
		.flags = OPEN_FLAGS,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (!no_openat2) {
		do {
			fd = syscall(SYS_openat2, dirfd, rel, &how,
				     sizeof(how));
		} while (fd < 0 && (errno == EINTR || errno == EAGAIN));
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return (int)fd;
		slot_no_openat2 = 1;
	}
	return open_nofollow_walk(dirfd, rel);
}

static const char *file_type(mode_t m)
{
	if (S_ISLNK(m))
		return "a symlink";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "of an unknown type";
}

static void human(struct strbuf *sb, size_t n)
{
	if (n >= (1u << 30) && !(n % (1u << 30)))
		strbuf_addf(sb, "%zu GiB", n >> 30);
	else if (n >= (1u << 20) && !(n % (1u << 20)))
		strbuf_addf(sb, "%zu MiB", n >> 20);
	else if (n >= 1024 && !(n % 1024))
		strbuf_addf(sb, "%zu KiB", n >> 10);
	else
		strbuf_addf(sb, "%zu bytes", n);
}

/* "NAME: reason" to why, or printed; errno is err afterwards. */
static int refuse(struct strbuf *why, int err, const char *name,
		  const char *fmt, const char *arg, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s: ", name);
	strbuf_addf(&sb, fmt, arg);
	if (err == EFBIG)
		human(&sb, max);
	if (why) {
		if (why->len)
			strbuf_addch(why, '\n');
		strbuf_addstr(why, sb.buf);
	} else {
		error("%s", sb.buf);
	}
	strbuf_release(&sb);
	errno = err;
	return -1;
}

int slot_open(int dirfd, const char *rel, const char *name, size_t max,
	      struct strbuf *why)
{
	struct stat st;
	int fd, err;

	if (leaves_dir(rel))
		return refuse(why, EXDEV, name, "%s", "a path outside its directory",
			      0);
	fd = open_beneath(dirfd, rel);
	if (fd < 0) {
		err = errno;
		if (err == ELOOP) {
			/* which one: the file itself, or on its way */
			if (!fstatat(dirfd, rel, &st, AT_SYMLINK_NOFOLLOW) &&
			    S_ISLNK(st.st_mode))
				return refuse(why, ELOOP, name, "%s",
					      "not a regular file (a symlink)",
					      0);
			return refuse(why, ELOOP, name, "%s", "a symlink on its path",
				      0);
		}
		if (err == EXDEV)
			return refuse(why, EXDEV, name, "%s", "a path outside its directory",
				      0);
		if (err == ENXIO)	/* a socket */
			return refuse(why, EINVAL, name, "%s",
				      "not a regular file (a socket)", 0);
		return refuse(why, err, name, "%s", strerror(err), 0);
	}
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		return refuse(why, err, name, "%s", strerror(err), 0);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(why, EINVAL, name, "not a regular file (%s)",
			      file_type(st.st_mode), 0);
	}
	if (max && (unsigned long long)st.st_size > max) {
		close(fd);
		return refuse(why, EFBIG, name, "%s", "larger than ", max);
	}
	return fd;
}

ssize_t slot_read(int dirfd, const char *rel, const char *name, size_t max,
		  struct strbuf *sb, struct strbuf *why)
{
	size_t old = sb->len, got = 0;
	int fd = slot_open(dirfd, rel, name, max, why), err;

	if (fd < 0)
		return -1;
	for (;;) {
		size_t room;
		ssize_t n;

		strbuf_grow(sb, 8192);
		room = sb->alloc - sb->len - 1;
		/* one byte past max says it grew */
		if (max && room > max - got + 1)
			room = max - got + 1;
		n = read(fd, sb->buf + sb->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			close(fd);
			strbuf_setlen(sb, old);
			return refuse(why, err, name, "%s", strerror(err), 0);
		}
		if (!n)
			break;
		got += (size_t)n;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (max && got > max) {
			close(fd);
			strbuf_setlen(sb, old);
			return refuse(why, EFBIG, name, "%s", "larger than ",
				      max);
		}
	}
	close(fd);
	return (ssize_t)got;
}

ssize_t slot_read_path(const char *dir, const char *rel, const char *name,
		       size_t max, struct strbuf *sb, struct strbuf *why)
{
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;
	int err;

	if (dfd < 0) {
		err = errno;
		return refuse(why, err, name, "%s", strerror(err), 0);
	}
	n = slot_read(dfd, rel, name, max, sb, why);
	err = errno;
	close(dfd);
	errno = err;
	return n;
}
