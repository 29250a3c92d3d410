// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - the kernel tree: import of a linux-source tarball into a bare
 * repository, revision lookup and export of a revision to a directory.
 *
 * The import streams the tarball through `xz -dc` and parses tar itself,
 * writing each file straight into the object database: nothing is
 * extracted to disk, and no .gitignore is consulted (Debian's ends with a
 * block ignoring everything but debian/, so `git add` would skip the
 * whole tree; the tarball is the tree, whatever it ignores).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "subproc.h"
#include "tree.h"
#include "util.h"

#define TAR_BLOCK 512

int tree_git_error(const char *msg)
{
	return error("%s: %s", msg, git_error_text());
}

static struct tree_opts tree_opts;
static int configured;

void tree_configure(const struct tree_opts *o)
{
	tree_opts = *o;
	configured = 1;
}

/* Unconfigured, a job would pick a tree nobody named: a bug. */
static const struct tree_opts *to(void)
{
	if (!configured)
		die("BUG: tree used before tree_configure()");
	return &tree_opts;
}

char *tree_default_path(void)
{
	const char *p = to()->path;

	if (p && *p)
		return xstrdup(p);
	return data_path("linux.git");
}

struct tar_entry {
	char *path;
	git_oid oid;
	unsigned int mode;
	size_t seq;		/* order in the archive: later wins */
};

struct importer {
	git_odb *odb;
	struct tar_entry *ents;
	size_t nr, alloc;
	int version[3];
	char extra[16];
	long long max_mtime;
};

/* Spawn the decompressor; returns a FILE reading the plain tar. */
static FILE *open_tarball(const char *tarball, pid_t *pid)
{
	const char *prog = NULL;
	char **env;
	int fds[2];
	FILE *f;

	*pid = -1;
	if (ends_with(tarball, ".xz"))
		prog = "xz";
	else if (ends_with(tarball, ".gz") || ends_with(tarball, ".tgz"))
		prog = "gzip";
	if (access(tarball, R_OK) < 0) {
		error("cannot read %s: %s", tarball, strerror(errno));
		return NULL;
	}
	if (!prog) {
		f = fopen(tarball, "rb");
		if (!f)
			error("cannot open %s: %s", tarball, strerror(errno));
		return f;
	}
	if (pipe(fds) < 0) {
		error("pipe: %s", strerror(errno));
		return NULL;
	}
	/* the environment every child gets (subproc.h), made before fork */
	env = subproc_env(NULL);
	*pid = fork();
	if (*pid < 0) {
		error("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(env);
		return NULL;
	}
	if (!*pid) {
		const char *argv[] = { prog, "-dc", "--", tarball, NULL };

		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvpe(prog, (char *const *)argv, env);
		_exit(127);
	}
	free(env);
	close(fds[1]);
	f = fdopen(fds[0], "rb");
	if (!f)
		close(fds[0]);
	return f;
}

static int close_tarball(FILE *f, pid_t pid)
{
	int status = 0;
	char buf[4096];

	/* Drain so the decompressor does not die of SIGPIPE. */
	while (pid > 0 && fread(buf, 1, sizeof(buf), f) > 0)
		;
	fclose(f);
	if (pid <= 0)
		return 0;
	if (waitpid(pid, &status, 0) < 0)
		return error("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return error("decompressor failed (status %d)", status);
	return 0;
}

/* Octal (or GNU base-256) number of a tar header field. */
static long long tar_number(const unsigned char *p, size_t n)
{
	long long v = 0;
	size_t i;

	if (p[0] & 0x80) {
		for (i = 1; i < n; i++)
			v = (v << 8) | p[i];
		return v;
	}
	for (i = 0; i < n && (p[i] == ' ' || p[i] == '\0'); i++)
		;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (p[i] - '0');
	return v;
}

static int read_data(FILE *f, struct strbuf *sb, long long size)
{
	long long padded = (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;

	if (size < 0 || size > (1LL << 34))
		return error("tar: bad member size %lld", size);
	strbuf_reset(sb);
	strbuf_grow(sb, padded);
	if (fread(sb->buf, 1, padded, f) != (size_t)padded)
		return error("tar: truncated archive");
	strbuf_setlen(sb, size);
	return 0;
}

/* Value of key in a pax extended header ("len key=value\n" records). */
static char *pax_value(const struct strbuf *sb, const char *key)
{
	const char *p = sb->buf, *end = sb->buf + sb->len;
	size_t klen = strlen(key);

	while (p < end) {
		char *sp;
		long len = strtol(p, &sp, 10);

		if (len <= 0 || p + len > end || *sp != ' ')
			return NULL;
		sp++;
		if (!strncmp(sp, key, klen) && sp[klen] == '=')
			return xstrndup(sp + klen + 1,
					p + len - 1 - (sp + klen + 1));
		p += len;
	}
	return NULL;
}

/* Drop the leading "linux-source-6.1/"; refuse what is no tree path. */
static const char *tree_relative(const char *path)
{
	const char *p = strchr(path, '/');
	const char *c;

	if (!p || !p[1])
		return NULL;
	p++;
	for (c = p; *c; ) {
		size_t n = strcspn(c, "/");

		if ((n == 2 && !strncmp(c, "..", 2)) ||
		    (n == 4 && !strncmp(c, ".git", 4)) || n == 0)
			return NULL;
		c += n;
		if (*c == '/')
			c++;
	}
	return p;
}

static void parse_makefile(struct importer *im, const char *buf, size_t len)
{
	static const char *const keys[] = { "VERSION", "PATCHLEVEL",
					    "SUBLEVEL" };
	const char *p = buf, *end = buf + len;
	size_t i;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t k = strlen(keys[i]);

			if (n > k + 2 && !strncmp(p, keys[i], k) &&
			    !strncmp(p + k, " = ", 3))
				im->version[i] = atoi(p + k + 3);
		}
		if (n > 15 && !strncmp(p, "EXTRAVERSION = ", 15) && n - 15 <
		    sizeof(im->extra)) {
			memcpy(im->extra, p + 15, n - 15);
			im->extra[n - 15] = '\0';
		}
		if (!strncmp(p, "# *DOCUMENTATION*", 17))
			break;
		p += n + 1;
	}
}

static int add_entry(struct importer *im, const char *path,
		     const git_oid *oid, unsigned int mode)
{
	struct tar_entry *e;

	ALLOC_GROW(im->ents, im->nr, im->alloc);
	e = &im->ents[im->nr];
	e->path = xstrdup(path);
	git_oid_cpy(&e->oid, oid);
	e->mode = mode;
	e->seq = im->nr++;
	return 0;
}

static int hardlink_target(struct importer *im, const char *target,
			   git_oid *oid, unsigned int *mode)
{
	size_t i = im->nr;

	while (i--) {
		if (!strcmp(im->ents[i].path, target)) {
			git_oid_cpy(oid, &im->ents[i].oid);
			*mode = im->ents[i].mode;
			return 0;
		}
	}
	return error("tar: hard link to unknown %s", target);
}

static int read_tar(struct importer *im, FILE *f)
{
	unsigned char h[TAR_BLOCK];
	struct strbuf data = STRBUF_INIT;
	char *longname = NULL, *longlink = NULL;
	int zero_blocks = 0, ret = -1;

	for (;;) {
		char name[257], link[101];
		const char *rel, *path, *target;
		long long size, mtime;
		unsigned int mode;
		git_oid oid;
		int type;

		if (fread(h, 1, TAR_BLOCK, f) != TAR_BLOCK) {
			if (zero_blocks)
				break;	/* some tars end after one */
			error("tar: truncated archive");
			goto out;
		}
		if (!h[0]) {
			if (++zero_blocks == 2)
				break;
			continue;
		}
		zero_blocks = 0;
		size = tar_number(h + 124, 12);
		mtime = tar_number(h + 136, 12);
		mode = tar_number(h + 100, 8);
		type = h[156];
		name[0] = '\0';
		if (!memcmp(h + 257, "ustar\0", 6) && h[345]) {
			/* POSIX ustar: prefix "/" name. */
			snprintf(name, sizeof(name), "%.155s/%.100s",
				 (char *)h + 345, (char *)h);
		} else {
			snprintf(name, sizeof(name), "%.100s", (char *)h);
		}
		snprintf(link, sizeof(link), "%.100s", (char *)h + 157);
		if (type == 'L' || type == 'K' || type == 'x' || type == 'g') {
			if (read_data(f, &data, size) < 0)
				goto out;
			if (type == 'L') {
				free(longname);
				longname = xstrndup(data.buf, data.len);
			} else if (type == 'K') {
				free(longlink);
				longlink = xstrndup(data.buf, data.len);
			} else if (type == 'x') {
				char *v = pax_value(&data, "path");

				if (v) {
					free(longname);
					longname = v;
				}
				v = pax_value(&data, "linkpath");
				if (v) {
					free(longlink);
					longlink = v;
				}
			}
			continue;
		}
		path = longname ? longname : name;
		target = longlink ? longlink : link;
		if (mtime > im->max_mtime)
			im->max_mtime = mtime;
		rel = tree_relative(path);
		if (type == '0' || type == '\0' || type == '7') {
			if (read_data(f, &data, size) < 0)
				goto out;
			if (!rel)
				goto next;
			if (git_odb_write(&oid, im->odb, data.buf, data.len,
					  GIT_OBJECT_BLOB) < 0) {
				tree_git_error("writing a blob");
				goto out;
			}
			if (!strcmp(rel, "Makefile"))
				parse_makefile(im, data.buf, data.len);
			add_entry(im, rel, &oid, (mode & 0111) ?
				  GIT_FILEMODE_BLOB_EXECUTABLE :
				  GIT_FILEMODE_BLOB);
		} else if (type == '2' && rel) {
			if (git_odb_write(&oid, im->odb, target, strlen(target),
					  GIT_OBJECT_BLOB) < 0) {
				tree_git_error("writing a symlink");
				goto out;
			}
			add_entry(im, rel, &oid, GIT_FILEMODE_LINK);
		} else if (type == '1' && rel) {
			const char *trel = tree_relative(target);

			if (!trel || hardlink_target(im, trel, &oid, &mode) < 0)
				goto out;
			add_entry(im, rel, &oid, mode);
		} else if (type != '5') {
			/* Devices, fifos: no place in a source tree. */
			if (size && read_data(f, &data, size) < 0)
				goto out;
			if (rel)
				warning("tar: skipping %s (type %c)", rel,
					type);
		}
next:
		free(longname);
		free(longlink);
		longname = longlink = NULL;
	}
	ret = 0;
out:
	free(longname);
	free(longlink);
	strbuf_release(&data);
	return ret;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct tar_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Entries lo..hi (sorted by path, so each directory is contiguous) all
 * start with the same prefix of plen bytes: write their tree.
 */
static int build_tree(git_repository *repo, struct tar_entry *ents,
		      size_t lo, size_t hi, size_t plen, git_oid *out)
{
	git_treebuilder *tb;
	size_t i = lo;
	int ret = -1;

	if (git_treebuilder_new(&tb, repo, NULL) < 0)
		return tree_git_error("treebuilder");
	while (i < hi) {
		const char *name = ents[i].path + plen;
		const char *slash = strchr(name, '/');
		size_t j, n;
		git_oid sub;
		char *dir;

		if (!slash) {
			/* Duplicates: the last one in the archive wins. */
			if (i + 1 < hi && !strcmp(ents[i + 1].path,
						  ents[i].path)) {
				i++;
				continue;
			}
			if (git_treebuilder_insert(NULL, tb, name,
						   &ents[i].oid,
						   ents[i].mode) < 0) {
				tree_git_error(ents[i].path);
				goto out;
			}
			i++;
			continue;
		}
		n = slash - name + 1;
		for (j = i + 1; j < hi; j++)
			if (strncmp(ents[j].path + plen, name, n))
				break;
		if (build_tree(repo, ents, i, j, plen + n, &sub) < 0)
			goto out;
		dir = xstrndup(name, n - 1);
		if (git_treebuilder_insert(NULL, tb, dir, &sub,
					   GIT_FILEMODE_TREE) < 0) {
			free(dir);
			tree_git_error(ents[i].path);
			goto out;
		}
		free(dir);
		i = j;
	}
	if (git_treebuilder_write(out, tb) < 0) {
		tree_git_error("writing a tree");
		goto out;
	}
	ret = 0;
out:
	git_treebuilder_free(tb);
	return ret;
}

static int has_debian_tag(git_repository *repo, git_oid *commit)
{
	git_reference *ref;

	if (git_reference_lookup(&ref, repo,
				 "refs/tags/" TREE_DEBIAN_TAG) < 0)
		return 0;
	git_oid_cpy(commit, git_reference_target(ref));
	git_reference_free(ref);
	return 1;
}

static void fill_cached(git_repository *repo, struct tree_import *res)
{
	git_oid oid;
	git_strarray tags = { 0 };
	size_t i;

	res->cached = 1;
	if (has_debian_tag(repo, &oid))
		git_oid_tostr(res->commit, sizeof(res->commit), &oid);
	if (git_tag_list_match(&tags, "v*", repo) < 0)
		return;
	for (i = 0; i < tags.count; i++)
		if (strlen(tags.strings[i]) < sizeof(res->version))
			snprintf(res->version, sizeof(res->version), "%s",
				 tags.strings[i] + 1);
	git_strarray_dispose(&tags);
}

static int write_commit(git_repository *repo, struct importer *im,
			const git_oid *tree_oid, const char *tarball,
			struct tree_import *res)
{
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_reference *ref = NULL;
	char *msg, *tag;
	const char *base = strrchr(tarball, '/');
	git_oid commit;
	int ret = -1;

	base = base ? base + 1 : tarball;
	snprintf(res->version, sizeof(res->version), "%d.%d.%d%s",
		 im->version[0], im->version[1], im->version[2], im->extra);
	/* A fixed identity and the newest mtime: the same tarball gives
	 * the same commit everywhere.
	 */
	if (git_signature_new(&sig, "sched-bot", "sched-bot@localhost",
			      im->max_mtime, 0) < 0 ||
	    git_tree_lookup(&tree, repo, tree_oid) < 0) {
		tree_git_error("import commit");
		goto out;
	}
	msg = xasprintf("Import %s (Linux %s)\n\n"
			"All %zu files of the tarball, as shipped: this is the distribution's\n"
			"kernel source with its patches, not upstream v%s.\n",
			base, res->version,
			im->nr, res->version);
	ret = git_commit_create(&commit, repo, NULL, sig, sig, NULL, msg,
				tree, 0, NULL);
	free(msg);
	if (ret < 0) {
		tree_git_error("import commit");
		goto out;
	}
	ret = -1;
	git_oid_tostr(res->commit, sizeof(res->commit), &commit);
	tag = xasprintf("refs/tags/v%s", res->version);
	if (git_reference_create(&ref, repo, tag, &commit, 1, NULL) < 0) {
		free(tag);
		tree_git_error("tagging the import");
		goto out;
	}
	free(tag);
	git_reference_free(ref);
	if (git_reference_create(&ref, repo, "refs/heads/" TREE_DEBIAN_BRANCH,
				 &commit, 1, NULL) < 0) {
		tree_git_error("branch of the import");
		goto out;
	}
	git_reference_free(ref);
	if (git_repository_set_head(repo, "refs/heads/" TREE_DEBIAN_BRANCH)
	    < 0) {
		tree_git_error("HEAD of the import");
		goto out;
	}
	/* Last: its presence says the import is complete. */
	if (git_reference_create(&ref, repo, "refs/tags/" TREE_DEBIAN_TAG,
				 &commit, 1, NULL) < 0) {
		tree_git_error("tagging the import");
		goto out;
	}
	git_reference_free(ref);
	ret = 0;
out:
	git_tree_free(tree);
	git_signature_free(sig);
	return ret;
}

/* 1 when path already holds a repository (res filled), else 0. */
static int open_cached(const char *path, struct tree_import *res)
{
	git_repository *repo;

	if (git_repository_open_bare(&repo, path) &&
	    git_repository_open(&repo, path))
		return 0;
	fill_cached(repo, res);
	git_repository_free(repo);
	return 1;
}

/*
 * One import per path at a time: the test cache is shared by every
 * checkout on the machine, and two imports would only double the work.
 * The lock is flock's (lock_file()), so it dies with its holder; the
 * file holds the holder's pid, for people, and is removed by the
 * holder while it still holds it.  A pid found in it when the lock is
 * taken is that of an import that was killed.  The fd, or -1.
 */
static int take_lock(const char *lock)
{
	struct strbuf sb = STRBUF_INIT;
	char *waiting;
	int fd;

	strbuf_read_file(&sb, lock);
	waiting = xasprintf("waiting for the import running as pid %ld",
			    atol(sb.buf));
	fd = lock_file(lock, waiting, 3600);
	free(waiting);
	if (fd < 0)
		goto out;
	strbuf_reset(&sb);
	if (strbuf_read_fd(&sb, fd) > 0)
		warning("taking over the stale lock %s", lock);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, sb.buf, sb.len, 0) < 0) {
		error("cannot write %s: %s", lock, strerror(errno));
		unlink(lock);
		close(fd);
		fd = -1;
	}
out:
	strbuf_release(&sb);
	return fd;
}

/* Temporary repositories of imports that were killed. */
static void remove_stale_tmp(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : path;
	char *prefix = xasprintf("%s.tmp.", base);
	struct dirent *de;
	DIR *d;

	if (slash)
		*slash = '\0';
	d = opendir(slash ? (*dir ? dir : "/") : ".");
	while (d && (de = readdir(d))) {
		char *p;

		if (!starts_with(de->d_name, prefix))
			continue;
		p = slash ? xasprintf("%s/%s", dir, de->d_name) :
			xstrdup(de->d_name);
		warning("removing %s, left by an interrupted import", p);
		remove_tree(p);
		free(p);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(dir);
}

static int import_new(const char *path, const char *tarball,
		      struct tree_import *res);

int tree_import_tarball(const char *path, const char *tarball,
			struct tree_import *res)
{
	char *lock;
	char *parent, *slash;
	int ret, fd;

	memset(res, 0, sizeof(*res));
	git_libgit2_init();
	if (open_cached(path, res)) {
		git_libgit2_shutdown();
		return 0;
	}
	/* The default, under $XDG_DATA_HOME, need not exist yet. */
	parent = xstrdup(path);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		if (mkdir_p(parent, 0755) < 0) {
			error("cannot create %s: %s", parent, strerror(errno));
			free(parent);
			git_libgit2_shutdown();
			return -1;
		}
	}
	free(parent);
	lock = xasprintf("%s.lock", path);
	fd = take_lock(lock);
	ret = fd < 0 ? -1 : 0;
	if (fd >= 0) {
		/* The import we waited for may have made it. */
		if (!open_cached(path, res)) {
			remove_stale_tmp(path);
			ret = import_new(path, tarball, res);
		}
		unlink(lock);
		close(fd);
	}
	free(lock);
	git_libgit2_shutdown();
	return ret;
}

static int import_new(const char *path, const char *tarball,
		      struct tree_import *res)
{
	struct importer im = { 0 };
	git_repository *repo = NULL;
	double t0 = now_monotonic();
	char *tmp = NULL;
	git_oid tree_oid;
	FILE *f = NULL;
	pid_t pid = -1;
	size_t i;
	int ret = -1;

	tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	remove_tree(tmp);
	if (mkdir_p(tmp, 0777) < 0) {
		error("cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (git_repository_init(&repo, tmp, 1) < 0 ||
	    git_repository_odb(&im.odb, repo) < 0) {
		tree_git_error(tmp);
		goto out;
	}
	f = open_tarball(tarball, &pid);
	if (!f)
		goto out;
	ret = read_tar(&im, f);
	if (close_tarball(f, pid) < 0)
		ret = -1;
	if (ret < 0)
		goto out;
	ret = -1;
	if (!im.nr) {
		error("%s: no files", tarball);
		goto out;
	}
	if (!im.version[0])
		warning("%s: no kernel version in its Makefile", tarball);
	qsort(im.ents, im.nr, sizeof(*im.ents), cmp_entry);
	if (build_tree(repo, im.ents, 0, im.nr, 0, &tree_oid) < 0 ||
	    write_commit(repo, &im, &tree_oid, tarball, res) < 0)
		goto out;
	res->files = im.nr;
	git_odb_free(im.odb);
	im.odb = NULL;
	git_repository_free(repo);
	repo = NULL;
	if (rename(tmp, path) < 0) {
		/* Another import finished first: use it. */
		if (!git_repository_open_bare(&repo, path)) {
			remove_tree(tmp);
			fill_cached(repo, res);
			ret = 0;
			goto out;
		}
		error("cannot rename %s to %s: %s", tmp, path,
		      strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (ret < 0 && tmp)
		remove_tree(tmp);
	res->seconds = now_monotonic() - t0;
	for (i = 0; i < im.nr; i++)
		free(im.ents[i].path);
	free(im.ents);
	git_odb_free(im.odb);
	git_repository_free(repo);
	free(tmp);
	return ret;
}

int tree_open(git_repository **repo, const char *path)
{
	git_libgit2_init();
	if (git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		git_libgit2_shutdown();
		*repo = NULL;
		error("%s is not a kernel tree (run `sched-bot tree init`)",
		      path);
		return -1;
	}
	/* libgit2 stays initialised while the repository is open. */
	return 0;
}

int tree_resolve(git_repository *repo, const char *rev, git_oid *commit)
{
	git_object *obj, *peeled;
	int ret;

	if (git_revparse_single(&obj, repo, rev) < 0)
		return -1;
	ret = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (ret < 0)
		return -1;
	git_oid_cpy(commit, git_object_id(peeled));
	git_object_free(peeled);
	return 0;
}

int tree_file_has(git_repository *repo, const char *rev, const char *path,
		  const char *needle, size_t max)
{
	git_object *obj = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	git_oid oid;
	int ret = -1;

	if (tree_resolve(repo, rev, &oid) < 0 ||
	    git_object_lookup(&obj, repo, &oid, GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&tree, (git_commit *)obj) < 0)
		goto out;
	ret = 0;
	if (git_tree_entry_bypath(&e, tree, path) < 0 ||
	    git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
		goto out;
	/* a posted tree's file: looked at up to max bytes, never more */
	ret = memmem(git_blob_rawcontent(blob),
		     git_blob_rawsize(blob) < max ? git_blob_rawsize(blob) : max,
		     needle, strlen(needle)) != NULL;
out:
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_object_free(obj);
	return ret;
}

struct export {
	git_repository *repo;
	const char *dir;
	struct strbuf path;
	size_t files;
};

static int safe_name(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") &&
		strcasecmp(name, ".git") && !strchr(name, '/');
}

static int write_blob(struct export *ex, const git_tree_entry *e)
{
	git_filemode_t mode = git_tree_entry_filemode(e);
	const char *p = ex->path.buf;
	git_blob *blob;
	const char *data;
	size_t len;
	int fd, ret = -1;

	if (git_blob_lookup(&blob, ex->repo, git_tree_entry_id(e)) < 0)
		return tree_git_error(p);
	data = git_blob_rawcontent(blob);
	len = git_blob_rawsize(blob);
	if (mode == GIT_FILEMODE_LINK) {
		char *target = xstrndup(data, len);

		ret = symlink(target, p);
		if (ret < 0)
			error("symlink %s: %s", p, strerror(errno));
		free(target);
		goto out;
	}
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0777 : 0666);
	if (fd < 0) {
		error("cannot create %s: %s", p, strerror(errno));
		goto out;
	}
	if (write_in_full(fd, data, len) < 0) {
		error("writing %s: %s", p, strerror(errno));
		close(fd);
		goto out;
	}
	if (close(fd) < 0) {
		error("writing %s: %s", p, strerror(errno));
		goto out;
	}
	ex->files++;
	ret = 0;
out:
	git_blob_free(blob);
	return ret;
}

static int export_cb(const char *root, const git_tree_entry *e, void *data)
{
	struct export *ex = data;
	const char *name = git_tree_entry_name(e);

	if (!safe_name(name)) {
		error("refusing tree entry '%s%s'", root, name);
		return -1;
	}
	strbuf_reset(&ex->path);
	strbuf_addf(&ex->path, "%s/%s%s", ex->dir, root, name);
	switch (git_tree_entry_type(e)) {
	case GIT_OBJECT_TREE:
		if (mkdir(ex->path.buf, 0777) < 0) {
			error("mkdir %s: %s", ex->path.buf, strerror(errno));
			return -1;
		}
		return 0;
	case GIT_OBJECT_BLOB:
		return write_blob(ex, e) < 0 ? -1 : 0;
	default:
		return 1;	/* submodules: skip */
	}
}

int tree_export(git_repository *repo, const char *rev, const char *dir)
{
	struct export ex = { .repo = repo, .dir = dir, .path = STRBUF_INIT };
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid oid;
	int ret = -1;

	if (tree_resolve(repo, rev, &oid) < 0)
		return error("%s: no such revision in the tree", rev);
	if (mkdir_p(dir, 0777) < 0)
		return error("cannot create %s: %s", dir, strerror(errno));
	if (rmdir(dir) < 0 || mkdir(dir, 0777) < 0)
		return error("%s: must be an empty directory", dir);
	if (git_commit_lookup(&commit, repo, &oid) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		tree_git_error(rev);
		goto out;
	}
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, export_cb, &ex) < 0) {
		error("export of %s to %s failed", rev, dir);
		goto out;
	}
	debug("exported %zu files of %s to %s", ex.files, rev, dir);
	ret = 0;
out:
	strbuf_release(&ex.path);
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}

int tree_fetch(git_repository *repo, const char *url)
{
	git_remote *remote = NULL;
	git_fetch_options opts;
	char *refspec = "+refs/heads/*:refs/remotes/origin/*";
	char *tagspec = "+refs/tags/*:refs/tags/*";
	char *specs[] = { refspec, tagspec };
	git_strarray refspecs = { specs, 2 };
	int ret;

	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	if (git_remote_create_anonymous(&remote, repo, url) < 0)
		return tree_git_error(url);
	ret = git_remote_fetch(remote, &refspecs, &opts, "sched-bot fetch");
	if (ret < 0)
		tree_git_error(url);
	git_remote_free(remote);
	return ret < 0 ? -1 : 0;
}

/* ---- named trees --------------------------------------------------- */

/* Copies of n words. */
static char **copy_words(char *const *w, size_t n)
{
	char **out = n ? xcalloc(n, sizeof(*out)) : NULL;
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = xstrdup(w[i]);
	return out;
}

void tree_remotes_load(struct tree_remotes *t)
{
	const struct tree_remotes *c = to()->remotes;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (!c || !c->nr)
		return;
	t->v = xcalloc(c->nr, sizeof(*t->v));
	for (i = 0; i < c->nr; i++) {
		const struct tree_remote *f = &c->v[i];
		struct tree_remote *r = &t->v[i];

		r->name = xstrdup(f->name);
		r->url = xstrdup(f->url);
		r->branches = copy_words(f->branches, f->nr_branches);
		r->nr_branches = f->nr_branches;
		r->lists = copy_words(f->lists, f->nr_lists);
		r->nr_lists = f->nr_lists;
		r->paths = copy_words(f->paths, f->nr_paths);
		r->nr_paths = f->nr_paths;
	}
	t->nr = c->nr;
}

static void free_words(char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

void tree_remotes_release(struct tree_remotes *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->v[i].name);
		free(t->v[i].url);
		free_words(t->v[i].branches, t->v[i].nr_branches);
		free_words(t->v[i].lists, t->v[i].nr_lists);
		free_words(t->v[i].paths, t->v[i].nr_paths);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const struct tree_remote *tree_remote_find(const struct tree_remotes *t,
					   const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

int tree_remote_has_path(const struct tree_remote *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nr_paths; i++)
		if (starts_with(path, r->paths[i]))
			return 1;
	return 0;
}

size_t tree_remote_refs(git_repository *repo, const struct tree_remote *r,
			char ***refs)
{
	git_reference_iterator *it;
	git_reference *ref;
	size_t nr = 0, alloc = 0, i;
	char *glob;

	*refs = NULL;
	for (i = 0; i < r->nr_branches; i++) {
		char *name = xasprintf("refs/remotes/%s/%s", r->name,
				       r->branches[i]);
		git_oid oid;

		if (git_reference_name_to_id(&oid, repo, name) < 0) {
			free(name);
			continue;
		}
		ALLOC_GROW(*refs, nr, alloc);
		(*refs)[nr++] = name;
	}
	if (r->nr_branches)
		return nr;
	glob = xasprintf("refs/remotes/%s/*", r->name);
	if (!git_reference_iterator_glob_new(&it, repo, glob)) {
		while (!git_reference_next(&ref, it)) {
			ALLOC_GROW(*refs, nr, alloc);
			(*refs)[nr++] = xstrdup(git_reference_name(ref));
			git_reference_free(ref);
		}
		git_reference_iterator_free(it);
	}
	free(glob);
	return nr;
}

struct fetch_ctx {
	const char *name;
	double deadline;	/* monotonic, 0: none */
	struct progress p;
};

static int past_deadline(struct fetch_ctx *c)
{
	if (c->deadline && now_monotonic() > c->deadline) {
		git_error_set_str(GIT_ERROR_NET, "the fetch timed out");
		return 1;
	}
	return 0;
}

static int transfer_cb(const git_indexer_progress *st, void *payload)
{
	struct fetch_ctx *c = payload;

	if (past_deadline(c))
		return -1;
	if (st->total_objects)
		progress_show(&c->p, "fetching %s: %u/%u objects, %zu KiB",
			      c->name, st->received_objects,
			      st->total_objects, st->received_bytes >> 10);
	return 0;
}

static int sideband_cb(const char *str, int len, void *payload)
{
	struct fetch_ctx *c = payload;

	(void)str;
	(void)len;
	return past_deadline(c) ? -1 : 0;
}

/*
 * The remote NAME of the repository, pointing at url, for a person's
 * `git fetch NAME` too; the fetch itself goes through an anonymous
 * remote with the refspecs spelled out and no url.*.insteadOf, because
 * that lookup (in git_remote_lookup() and git_remote_create()) leaks a
 * regex match in libgit2 1.5.
 */
static int open_remote(git_repository *repo, const struct tree_remote *r,
		       git_remote **remote)
{
	char *key_url = xasprintf("remote.%s.url", r->name);
	char *key_fetch = xasprintf("remote.%s.fetch", r->name);
	char *spec = xasprintf("+refs/heads/*:refs/remotes/%s/*", r->name);
	git_remote_create_options co;
	git_config *cfg = NULL;
	int ret = -1;

	git_remote_create_options_init(&co, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	/* No url.*.insteadOf: its lookup is where the leak is. */
	co.repository = repo;
	co.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF |
		   GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC;
	if (git_repository_config(&cfg, repo) < 0 ||
	    git_config_set_string(cfg, key_url, r->url) < 0 ||
	    git_config_set_string(cfg, key_fetch, spec) < 0 ||
	    git_remote_create_with_opts(remote, r->url, &co) < 0) {
		tree_git_error(r->name);
		goto out;
	}
	ret = 0;
out:
	git_config_free(cfg);
	free(key_url);
	free(key_fetch);
	free(spec);
	return ret;
}

/* In the child: the fetch itself.  Exit 0, 1 (error said) or 2 (late). */
static int fetch_child(const struct tree_remote *r, git_remote *remote,
		       struct fetch_ctx *c)
{
	git_fetch_options fo;
	git_strarray specs = { 0 };
	size_t i;
	int ret;

	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.callbacks.transfer_progress = transfer_cb;
	fo.callbacks.sideband_progress = sideband_cb;
	fo.callbacks.payload = c;
	specs.strings = xcalloc(r->nr_branches + 2, sizeof(char *));
	for (i = 0; i < r->nr_branches; i++)
		specs.strings[specs.count++] = xasprintf(
			"+refs/heads/%s:refs/remotes/%s/%s", r->branches[i],
			r->name, r->branches[i]);
	if (!r->nr_branches)
		specs.strings[specs.count++] = xasprintf(
			"+refs/heads/*:refs/remotes/%s/*", r->name);
	specs.strings[specs.count++] = xstrdup("+refs/tags/*:refs/tags/*");
	ret = git_remote_fetch(remote, &specs, &fo, "sched-bot fetch");
	progress_done(&c->p);
	for (i = 0; i < specs.count; i++)
		free(specs.strings[i]);
	free(specs.strings);
	if (ret < 0) {
		if (c->deadline && now_monotonic() > c->deadline)
			return 2;
		error("fetch of tree %s from %s failed: %s", r->name, r->url,
		      git_error_text());
		return 1;
	}
	return 0;
}

/* A temporary file of a pack being received: libgit2's or git's. */
static int is_temp_pack(const char *name)
{
	return starts_with(name, "pack_git") ||
	       starts_with(name, "tmp_pack_") ||
	       starts_with(name, "tmp_idx_") ||
	       (starts_with(name, "pack-") && ends_with(name, ".lock"));
}

/*
 * A fetch killed at its deadline (or one that failed) leaves the pack
 * it was receiving (libgit2's objects/pack/pack_git2_XXXXXX): remove
 * the temporary packs of objects/pack and objects/incoming written
 * since the fetch began, and any a day old (a run killed before it
 * could clean up).  Another process's pack in flight is touched only
 * if it began during this fetch: cron and jobs fetch a tree one at a
 * time.
 */
static void remove_temp_packs(git_repository *repo, time_t since)
{
	static const char *const dirs[] = { "pack", "incoming" };
	git_buf objects = GIT_BUF_INIT;
	time_t stale = time(NULL) - 86400;
	size_t i;

	if (git_repository_item_path(&objects, repo,
				     GIT_REPOSITORY_ITEM_OBJECTS) < 0)
		return;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *dir = xasprintf("%s%s%s", objects.ptr,
				      ends_with(objects.ptr, "/") ? "" : "/",
				      dirs[i]);
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char *p;
			struct stat st;

			if (!is_temp_pack(de->d_name))
				continue;
			p = xasprintf("%s/%s", dir, de->d_name);
			if (!lstat(p, &st) && S_ISREG(st.st_mode) &&
			    (st.st_mtime >= since || st.st_mtime < stale)) {
				if (unlink(p) < 0)
					warning("cannot remove %s: %s", p,
						strerror(errno));
				else
					info("removed the temporary pack %s",
					     p);
			}
			free(p);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	git_buf_dispose(&objects);
}

int tree_fetch_remote(git_repository *repo, const struct tree_remote *r,
		      const struct tree_fetch_opts *o)
{
	struct fetch_ctx c = { .name = r->name };
	git_remote *remote = NULL;
	double t0 = now_monotonic();
	time_t began = time(NULL);
	int timeout = o ? o->timeout : 0, status = 0, killed = 0;
	git_config *cfg;
	char *key;
	pid_t pid;

	if (open_remote(repo, r, &remote) < 0)
		return -1;
	if (timeout > 0)
		c.deadline = t0 + timeout;
	info("fetching tree %s from %s", r->name, r->url);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		git_remote_free(remote);
		return error("fork: %s", strerror(errno));
	}
	if (!pid) {
		progress_start(&c.p, o && o->progress);
		_exit(fetch_child(r, remote, &c));
	}
	git_remote_free(remote);
	/* A transfer that never calls back is stopped here. */
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return error("waitpid: %s", strerror(errno));
		if (c.deadline && now_monotonic() > c.deadline + 1 &&
		    !killed) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		usleep(20000);
	}
	if (killed || !WIFEXITED(status) || WEXITSTATUS(status))
		remove_temp_packs(repo, began);
	if (killed || (WIFEXITED(status) && WEXITSTATUS(status) == 2))
		return error("fetch of tree %s from %s timed out after %d s (tree.fetchTimeout): the remote %s",
			     r->name,
			     r->url, timeout, killed ? "did not answer (a connection or a transfer that hung)" :
			     "was too slow");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -1;	/* said by the child */
	if (!git_repository_config(&cfg, repo)) {
		key = xasprintf("sched-bot.%s.lastfetch", r->name);
		git_config_set_int64(cfg, key, time(NULL));
		free(key);
		git_config_free(cfg);
	}
	info("fetched tree %s in %.1f s", r->name, now_monotonic() - t0);
	return 0;
}

long long tree_last_fetch(git_repository *repo, const char *name)
{
	git_config *cfg, *snap;
	int64_t v = 0;
	char *key;

	if (git_repository_config(&cfg, repo) < 0)
		return 0;
	if (!git_config_snapshot(&snap, cfg)) {
		key = xasprintf("sched-bot.%s.lastfetch", name);
		if (git_config_get_int64(&v, snap, key) < 0)
			v = 0;
		free(key);
		git_config_free(snap);
	}
	git_config_free(cfg);
	return v;
}

/* Whether commit is head or within depth commits below it. */
static int within(git_repository *repo, const git_oid *head,
		  const git_oid *commit, int depth)
{
	git_revwalk *walk;
	git_oid oid;
	int n = 0, found = 0;

	if (git_oid_equal(head, commit))
		return 1;
	if (git_revwalk_new(&walk, repo) < 0)
		return 0;
	git_revwalk_sorting(walk, GIT_SORT_TIME);
	if (!git_revwalk_push(walk, head))
		while (!found && n++ < depth && !git_revwalk_next(&oid, walk))
			found = git_oid_equal(&oid, commit);
	git_revwalk_free(walk);
	return found;
}

int tree_branch_of(git_repository *repo, const struct tree_remotes *t,
		   const git_oid *commit, int depth, char **tree,
		   char **branch)
{
	size_t i, j, nr;
	int pass, ret = -1;

	/* Heads first (cheap), then history. */
	for (pass = 0; pass < 2 && ret < 0; pass++) {
		for (i = 0; i < t->nr && ret < 0; i++) {
			char **refs;

			nr = tree_remote_refs(repo, &t->v[i], &refs);
			for (j = 0; j < nr; j++) {
				git_oid head;
				size_t plen = strlen("refs/remotes/") +
					strlen(t->v[i].name) + 1;

				if (ret < 0 &&
				    !git_reference_name_to_id(&head, repo,
							      refs[j]) &&
				    within(repo, &head, commit,
					   pass ? depth : 0)) {
					*tree = xstrdup(t->v[i].name);
					*branch = xstrdup(refs[j] + plen);
					ret = 0;
				}
				free(refs[j]);
			}
			free(refs);
		}
	}
	return ret;
}

char *tree_describe(git_repository *repo, const char *where,
		    const git_oid *commit)
{
	char hex[13];
	git_commit *c;
	char *ret;

	git_oid_tostr(hex, sizeof(hex), commit);
	if (git_commit_lookup(&c, repo, commit) < 0)
		return xasprintf("%s %s", where, hex);
	ret = xasprintf("%s %s (%s)", where, hex,
			git_commit_summary(c) ? git_commit_summary(c) : "");
	git_commit_free(c);
	return ret;
}
