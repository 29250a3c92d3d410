// SPDX-License-Identifier: GPL-2.0
/*
 * initramfs.c - newc cpio ("070701" headers: thirteen 8-digit hex
 * fields, the name, NUL, padding to 4 bytes, the data, padding to 4),
 * compressed as one gzip member, which CONFIG_RD_GZIP unpacks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "target/initramfs.h"

void initramfs_init(struct initramfs *fs)
{
	strbuf_init(&fs->cpio, 1 << 20);
	fs->ino = 1;
	fs->finished = 0;
}

void initramfs_release(struct initramfs *fs)
{
	strbuf_release(&fs->cpio);
}

static void pad4(struct strbuf *sb)
{
	while (sb->len % 4)
		strbuf_addch(sb, 0);
}

static void entry(struct initramfs *fs, const char *name, unsigned int mode,
		  const void *data, size_t len, unsigned int rmaj,
		  unsigned int rmin)
{
	strbuf_addf(&fs->cpio,
		    "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		    fs->ino++, mode, 0, 0, S_ISDIR(mode) ? 2 : 1, 0,
		    (unsigned int)len, 0, 0, rmaj, rmin,
		    (unsigned int)strlen(name) + 1, 0);
	strbuf_add(&fs->cpio, name, strlen(name) + 1);
	pad4(&fs->cpio);
	if (len)
		strbuf_add(&fs->cpio, data, len);
	pad4(&fs->cpio);
}

void initramfs_add_dir(struct initramfs *fs, const char *path, int perm)
{
	entry(fs, path, S_IFDIR | (perm & 07777), NULL, 0, 0, 0);
}

void initramfs_add_file(struct initramfs *fs, const char *path, int perm,
			const void *data, size_t len)
{
	entry(fs, path, S_IFREG | (perm & 07777), data, len, 0, 0);
}

void initramfs_add_symlink(struct initramfs *fs, const char *path,
			   const char *target)
{
	entry(fs, path, S_IFLNK | 0777, target, strlen(target), 0, 0);
}

void initramfs_add_chardev(struct initramfs *fs, const char *path, int perm,
			   unsigned int major, unsigned int minor)
{
	entry(fs, path, S_IFCHR | (perm & 07777), NULL, 0, major, minor);
}

int initramfs_add_host_file(struct initramfs *fs, const char *path,
			    const char *host_path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	if (stat(host_path, &st) < 0 || strbuf_read_file(&sb, host_path) < 0) {
		strbuf_release(&sb);
		return error("cannot read %s: %s", host_path, strerror(errno));
	}
	initramfs_add_file(fs, path, st.st_mode & 0777, sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

int initramfs_write(struct initramfs *fs, const char *path)
{
	struct strbuf gz = STRBUF_INIT;
	z_stream z;
	int ret;

	if (!fs->finished) {
		entry(fs, "TRAILER!!!", 0, NULL, 0, 0, 0);
		fs->finished = 1;
	}
	memset(&z, 0, sizeof(z));
	/* windowBits 15 + 16: a gzip wrapper, as the kernel expects. */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return error("zlib: cannot initialise deflate");
	strbuf_grow(&gz, deflateBound(&z, fs->cpio.len));
	z.next_in = (Bytef *)fs->cpio.buf;
	z.avail_in = fs->cpio.len;
	z.next_out = (Bytef *)gz.buf;
	z.avail_out = gz.alloc - 1;
	ret = deflate(&z, Z_FINISH);
	if (ret != Z_STREAM_END) {
		deflateEnd(&z);
		strbuf_release(&gz);
		return error("zlib: deflate failed (%d)", ret);
	}
	strbuf_setlen(&gz, z.total_out);
	deflateEnd(&z);
	ret = write_file_atomic(path, gz.buf, gz.len);
	if (ret < 0)
		error("cannot write %s: %s", path, strerror(errno));
	strbuf_release(&gz);
	return ret;
}

/* Each directory once, however many files share it. */
static void add_dir_once(struct initramfs *fs, struct strbuf *seen,
			 const char *dir)
{
	const char *p = seen->buf;
	size_t n = strlen(dir);

	for (; (p = strstr(p, dir)); p++)
		if ((p == seen->buf || p[-1] == '\n') && p[n] == '\n')
			return;
	strbuf_addf(seen, "%s\n", dir);
	initramfs_add_dir(fs, dir, 0755);
}

int initramfs_build_bench(const char *path, const char *sched_bench,
			  const char *spawn_helper, const char *const *extra)
{
	static const char *const dirs[] = {
		"dev", "proc", "sys", "tmp", "bin", "usr", "usr/bin",
		"usr/lib", "lib", "lib64",
	};
	struct strbuf seen = STRBUF_INIT;
	struct initramfs fs;
	size_t i;
	int ret = -1;

	initramfs_init(&fs);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		add_dir_once(&fs, &seen, dirs[i]);
	/* The kernel opens /dev/console for init's stdio before devtmpfs
	 * is mounted: the node must be in the archive.
	 */
	initramfs_add_chardev(&fs, "dev/console", 0600, 5, 1);
	if (initramfs_add_host_file(&fs, "init", sched_bench) < 0)
		goto out;
	/* Where sched-bench looks for it: in its own directory. */
	if (spawn_helper &&
	    initramfs_add_host_file(&fs, "sched-bench-spawn", spawn_helper) < 0)
		goto out;
	for (i = 0; extra && extra[i]; i++) {
		const char *p = extra[i];
		char *parent, *slash;

		while (*p == '/')
			p++;
		/* Make the parents first, as cpio -d would. */
		parent = xstrdup(p);
		for (slash = strchr(parent, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			*slash = 0;
			add_dir_once(&fs, &seen, parent);
			*slash = '/';
		}
		free(parent);
		/* A symlink on the host (/lib64/ld-linux-x86-64.so.2) is its
		 * target's bytes here: the path is what programs open.
		 */
		if (initramfs_add_host_file(&fs, p, extra[i]) < 0)
			goto out;
	}
	ret = initramfs_write(&fs, path);
out:
	strbuf_release(&seen);
	initramfs_release(&fs);
	return ret;
}
