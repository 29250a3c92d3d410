/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slotfile.h - the one door through which the bot reads a file that
 * untrusted code wrote or could have replaced: a build slot's O=
 * directory and checkout, a guest's scratch directory.
 *
 * Everything in such a directory is the stranger's choice: a symlink
 * to /etc/shadow or to the bot's password file, a FIFO that blocks
 * open(2) forever, a link to /dev/zero, a file of 100 GB.  So a file
 * there is opened relative to the directory's descriptor and never
 * through a link, at no component of its path (openat2(2) with
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS; on a
 * kernel without openat2, O_NOFOLLOW at every component), absolute
 * paths and ".." refused, with O_NONBLOCK | O_NOCTTY | O_CLOEXEC (a
 * FIFO or device opens at once and is then refused), checked to be a
 * regular file by fstat(2), and read with a bound the caller gives.
 *
 * Errors name the file as the caller does ("O/.config") and say why:
 * "O/.config: not a regular file (a symlink)", "O/vmlinux: larger
 * than 2 GiB".
 */
#ifndef SCHED_BOT_SLOTFILE_H
#define SCHED_BOT_SLOTFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "util.h"

/*
 * A directory descriptor for slot_open() (O_PATH, not following a link
 * at path's end), or -1 after printing why.  The caller closes it.
 */
int slot_dir_open(const char *path);

/*
 * Open rel beneath dirfd for reading: a regular file of at most max
 * bytes (0: no bound), reached through no link.  Returns the fd, or -1
 * with errno set and "NAME: reason" appended to why (printed with
 * error() when why is NULL).  errno is ENOENT when the file (or a
 * directory on its way) does not exist, ELOOP for a link, EFBIG when it
 * is too large, EINVAL when it is no regular file, EXDEV for a path
 * that leaves dirfd.
 */
int slot_open(int dirfd, const char *rel, const char *name, size_t max,
	      struct strbuf *why);

/*
 * The whole of such a file appended to sb, at most max bytes (it may
 * not grow past them while read either).  Returns the bytes read, or -1
 * as slot_open() does.
 */
ssize_t slot_read(int dirfd, const char *rel, const char *name, size_t max,
		  struct strbuf *sb, struct strbuf *why);

/* slot_read() of dir/rel, dir opened for the purpose. */
ssize_t slot_read_path(const char *dir, const char *rel, const char *name,
		       size_t max, struct strbuf *sb, struct strbuf *why);

/* Set: walk with O_NOFOLLOW as without openat2 (set by itself on ENOSYS;
 * the unit test sets it to try that path).
 */
extern int slot_no_openat2;

#endif
