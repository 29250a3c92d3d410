/* SPDX-License-Identifier: GPL-2.0 */
/*
 * initramfs.h - a gzip'ed newc cpio archive written by hand (zlib for
 * the compression): the guest's whole root file system, holding the
 * static sched-bench as /init and whatever extra files a run needs.
 * Entries carry mtime 0 and uid/gid 0, so the same inputs give the same
 * bytes.
 */
#ifndef SCHED_BOT_INITRAMFS_H
#define SCHED_BOT_INITRAMFS_H

#include <stddef.h>

#include "util.h"

struct initramfs {
	struct strbuf cpio;	/* uncompressed archive so far */
	unsigned int ino;
	int finished;
};

void initramfs_init(struct initramfs *fs);
void initramfs_release(struct initramfs *fs);
/* Paths are archive paths without the leading slash ("dev/console"). */
void initramfs_add_dir(struct initramfs *fs, const char *path, int perm);
void initramfs_add_file(struct initramfs *fs, const char *path, int perm,
			const void *data, size_t len);
void initramfs_add_symlink(struct initramfs *fs, const char *path,
			   const char *target);
void initramfs_add_chardev(struct initramfs *fs, const char *path, int perm,
			   unsigned int major, unsigned int minor);
/* Add a host file (its permission bits kept); -1 (printed) on error. */
int initramfs_add_host_file(struct initramfs *fs, const char *path,
			    const char *host_path);
/* Append the trailer and write the gzip'ed archive to path atomically. */
int initramfs_write(struct initramfs *fs, const char *path);

/*
 * The standard sched-bot initramfs: dev/console, the mount points,
 * sched-bench as /init, spawn_helper (may be NULL) as /sched-bench-spawn
 * next to it, and extra host files at their own paths (NULL-terminated
 * list, may be NULL: the helper's and the tools' libraries and loader).
 */
int initramfs_build_bench(const char *path, const char *sched_bench,
			  const char *spawn_helper, const char *const *extra);

#endif
