// SPDX-License-Identifier: GPL-2.0
/*
 * build.c - `sched-bot build`: config = base + fragments, checked; an
 * out-of-tree make of bzImage; artifacts cached by (source, config).
 *
 * Why a persistent checkout per slot instead of a fresh export per
 * commit: make decides what to recompile from mtimes, so a fresh export
 * (every file new) recompiles the whole kernel.  Updating the slot's
 * checkout from the previous commit's tree to the next one rewrites
 * only the files that differ, and a one-line patch to
 * kernel/sched/fair.c then costs seconds, not minutes.  The same holds
 * in reverse (patched, then base again): the file changes back, gets a
 * new mtime and is recompiled, so make is never fooled.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "config.h"
#include "progress.h"
#include "subproc.h"

#define TREE_STAMP ".sched-bot-tree"
#define KBUILD_TIMESTAMP "Thu Jan  1 00:00:00 UTC 1970"

static const char *const default_fragments[] = {
	"sched.config", "qemu.config",
};

static struct build_defaults defaults;
static int configured;

void build_defaults_from_config(struct build_defaults *d)
{
	d->cc = config_get("build.cc");
	d->ccache = config_get_bool("build.ccache");
	d->base_config = config_get("build.baseConfig");
	d->jobs = (int)config_get_int("build.jobs");
	d->fragment_dir = config_get("build.fragmentDir");
	d->cache_dir = config_get("build.cacheDir");
}

void build_configure(const struct build_defaults *d)
{
	defaults = *d;
	configured = 1;
}

/* Unconfigured (a unit test): the configuration as it is now. */
static const struct build_defaults *bd(void)
{
	if (!configured)
		build_defaults_from_config(&defaults);
	return &defaults;
}

static char *hash_hex(const void *data, size_t len)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	return xstrdup(hex);
}

static int git_fail(const char *what)
{
	const git_error *e = git_error_last();

	return error("%s: %s", what, e && e->message ? e->message : "?");
}

char *build_fragment_dir(void)
{
	const char *dir = bd()->fragment_dir;
	char *exe, *cand;
	static const char *const rel[] = {
		"/../kernel/configs", "/../share/sched-bot/kernel/configs",
	};
	size_t i;

	if (dir)
		return xstrdup(dir);
	exe = exe_dir();
	for (i = 0; exe && i < ARRAY_SIZE(rel); i++) {
		cand = xasprintf("%s%s/sched.config", exe, rel[i]);
		if (!access(cand, R_OK)) {
			cand[strlen(cand) - strlen("/sched.config")] = 0;
			free(exe);
			return cand;
		}
		free(cand);
	}
	free(exe);
	return xstrdup("kernel/configs");
}

/* The option name of a config line, or NULL: "CONFIG_X" of both forms. */
static int config_line_key(const char *line, size_t len, const char **key,
			   size_t *klen)
{
	const char *p = line, *end = line + len;

	if (len > 2 && !strncmp(p, "# ", 2) &&
	    len > strlen(" is not set") &&
	    !strncmp(end - strlen(" is not set"), " is not set",
		     strlen(" is not set")))
		p += 2;
	if (strncmp(p, "CONFIG_", 7))
		return 0;
	*key = p;
	while (p < end && *p != '=' && *p != ' ')
		p++;
	*klen = p - *key;
	return *klen > 7;
}

/* Find the line for key in text; returns its start or NULL. */
static const char *find_key(const char *text, const char *key, size_t klen,
			    size_t *line_len)
{
	const char *line = text, *nl, *k;
	size_t kl;

	for (; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		if (config_line_key(line, nl - line, &k, &kl) && kl == klen &&
		    !strncmp(k, key, klen)) {
			*line_len = nl - line;
			return line;
		}
		if (!*nl)
			break;
	}
	return NULL;
}

void build_merge_config(struct strbuf *config, const char *fragment)
{
	const char *line = fragment, *nl, *key, *old;
	size_t klen, olen;

	for (; *line; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		if (!config_line_key(line, nl - line, &key, &klen))
			continue;
		old = find_key(config->buf, key, klen, &olen);
		if (old) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add(&sb, config->buf, old - config->buf);
			strbuf_addstr(&sb, old[olen] ? old + olen + 1 : "");
			strbuf_release(config);
			*config = sb;
		}
		/* At the end, as merge_config.sh does: kconfig lets the last
		 * line of a choice (SLUB after tinyconfig's SLOB) win. */
		if (config->len && config->buf[config->len - 1] != '\n')
			strbuf_addch(config, '\n');
		strbuf_add(config, line, nl - line);
		strbuf_addch(config, '\n');
	}
}

int build_check_config(const char *config, const char *fragment,
		       const char *name)
{
	const char *line = fragment, *nl, *key, *got;
	size_t klen, glen;
	int bad = 0;

	for (; *line; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		if (!config_line_key(line, nl - line, &key, &klen))
			continue;
		got = find_key(config, key, klen, &glen);
		if (got && glen == (size_t)(nl - line) &&
		    !strncmp(got, line, glen))
			continue;
		/* "not set" is satisfied by the option being absent. */
		if (!got && line[0] == '#')
			continue;
		error("%.*s requested by %s but the config has %s%.*s "
		      "(a dependency is missing or it is not valid here)",
		      (int)(nl - line), line, name, got ? "" : "nothing",
		      got ? (int)glen : 0, got ? got : "");
		bad = 1;
	}
	return bad ? -1 : 0;
}

static int is_error_line(const char *line, size_t len)
{
	static const char *const pats[] = {
		": error: ", ": fatal error: ", "undefined reference to",
		": Error ", "multiple definition of",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pats); i++)
		if (memmem(line, len, pats[i], strlen(pats[i])))
			return !memmem(line, len, "make[", 5) &&
				!starts_with(line, "make:");
	return 0;
}

int build_first_errors(const char *log, size_t len, int max,
		       struct strbuf *out)
{
	const char *line = log, *end = log + len, *nl;
	const char *tail[20];
	int nr = 0, ntail = 0, i;

	while (line < end) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		if (nr < max && is_error_line(line, nl - line)) {
			strbuf_add(out, line, nl - line);
			strbuf_addch(out, '\n');
			nr++;
		}
		tail[ntail++ % 20] = line;
		line = nl + 1;
	}
	if (nr)
		return nr;
	/* No compiler error: the end of the log says what went wrong. */
	for (i = ntail > 20 ? ntail - 20 : 0; i < ntail; i++) {
		const char *s = tail[i % 20];
		const char *e = memchr(s, '\n', end - s);

		strbuf_add(out, s, (e ? e : end) - s);
		strbuf_addch(out, '\n');
	}
	return 0;
}

/* --src: a hash over every file's path, size and mtime. */
static struct strbuf *src_list;
static int src_walk(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_F || flag == FTW_SL)
		strbuf_addf(src_list, "%s %lld %lld.%09ld\n", path,
			    (long long)st->st_size, (long long)st->st_mtim.tv_sec,
			    st->st_mtim.tv_nsec);
	return 0;
}

static char *src_id(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *h, *id;

	src_list = &sb;
	if (nftw(dir, src_walk, 64, FTW_PHYS) < 0) {
		strbuf_release(&sb);
		error("cannot read %s: %s", dir, strerror(errno));
		return NULL;
	}
	h = hash_hex(sb.buf, sb.len);
	id = xasprintf("src-%.16s", h);
	free(h);
	strbuf_release(&sb);
	return id;
}

static int write_blob(git_repository *repo, const char *dir, const char *path,
		      const git_oid *oid, git_filemode_t mode)
{
	char *full = xasprintf("%s/%s", dir, path), *slash;
	git_blob *blob = NULL;
	int fd, ret = -1;
	const char *data;
	size_t len;

	if (mode == GIT_FILEMODE_COMMIT) {	/* a submodule: nothing */
		free(full);
		return 0;
	}
	if (git_blob_lookup(&blob, repo, oid) < 0) {
		git_fail(path);
		goto out;
	}
	data = git_blob_rawcontent(blob);
	len = git_blob_rawsize(blob);
	slash = strrchr(full, '/');
	*slash = 0;
	mkdir_p(full, 0755);
	*slash = '/';
	/* Unlink first: never write through a hard link or a symlink. */
	if (unlink(full) < 0 && errno != ENOENT && errno != EISDIR) {
		error("cannot replace %s: %s", full, strerror(errno));
		goto out;
	}
	if (errno == EISDIR)
		remove_tree(full);
	if (mode == GIT_FILEMODE_LINK) {
		char *target = xstrndup(data, len);

		ret = symlink(target, full);
		free(target);
		if (ret < 0)
			error("cannot create %s: %s", full, strerror(errno));
		goto out;
	}
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		error("cannot write %s: %s", full, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	ret = close(fd);
out:
	git_blob_free(blob);
	free(full);
	return ret;
}

struct walk_ctx {
	git_repository *repo;
	const char *dir;
	size_t files;
	int err;
};

static int tree_walk_cb(const char *root, const git_tree_entry *e, void *d)
{
	struct walk_ctx *c = d;
	char *path;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return 0;
	path = xasprintf("%s%s", root, git_tree_entry_name(e));
	if (write_blob(c->repo, c->dir, path, git_tree_entry_id(e),
		       git_tree_entry_filemode(e)) < 0)
		c->err = -1;
	c->files++;
	free(path);
	return c->err;
}

static int diff_cb(const git_diff_delta *d, float progress, void *data)
{
	struct walk_ctx *c = data;
	char *full;

	(void)progress;
	if (d->status == GIT_DELTA_DELETED ||
	    d->status == GIT_DELTA_TYPECHANGE) {
		full = xasprintf("%s/%s", c->dir, d->old_file.path);
		if (unlink(full) < 0 && errno != ENOENT)
			c->err = error("cannot remove %s: %s", full,
				       strerror(errno));
		free(full);
		if (d->status == GIT_DELTA_DELETED)
			return c->err;
	}
	if (write_blob(c->repo, c->dir, d->new_file.path, &d->new_file.id,
		       d->new_file.mode) < 0)
		c->err = -1;
	c->files++;
	return c->err;
}

/*
 * Make dir hold the files of tree: incrementally from the tree named in
 * its stamp when that tree is in repo, else from scratch.
 */
static int sync_tree(git_repository *repo, git_tree *tree, const char *dir)
{
	char *stamp = xasprintf("%s/" TREE_STAMP, dir);
	struct strbuf old = STRBUF_INIT;
	struct walk_ctx c = { .repo = repo, .dir = dir };
	char hex[GIT_OID_HEXSZ + 1];
	git_tree *old_tree = NULL;
	git_diff *diff = NULL;
	git_oid old_oid;
	int ret = -1;

	git_oid_tostr(hex, sizeof(hex), git_tree_id(tree));
	if (strbuf_read_file(&old, stamp) > 0) {
		strbuf_trim(&old);
		if (!git_oid_fromstr(&old_oid, old.buf))
			git_tree_lookup(&old_tree, repo, &old_oid);
	}
	if (old_tree && !git_oid_cmp(&old_oid, git_tree_id(tree))) {
		ret = 0;
		goto out;
	}
	/* A sync killed half way must not be trusted next time. */
	unlink(stamp);
	if (old_tree) {
		if (git_diff_tree_to_tree(&diff, repo, old_tree, tree, NULL) < 0) {
			git_fail("diff");
			goto out;
		}
		git_diff_foreach(diff, diff_cb, NULL, NULL, NULL, &c);
		debug("checkout: %zu files changed", c.files);
	} else {
		info("checking out %s into %s", hex, dir);
		remove_tree(dir);
		if (mkdir_p(dir, 0755) < 0) {
			error("cannot create %s: %s", dir, strerror(errno));
			goto out;
		}
		git_tree_walk(tree, GIT_TREEWALK_PRE, tree_walk_cb, &c);
	}
	if (c.err)
		goto out;
	strbuf_reset(&old);
	strbuf_addf(&old, "%s\n", hex);
	ret = write_file_atomic(stamp, old.buf, old.len);
out:
	git_diff_free(diff);
	git_tree_free(old_tree);
	strbuf_release(&old);
	free(stamp);
	return ret;
}

static int open_tree(const char *path, const char *rev, git_repository **repo,
		     git_tree **tree)
{
	git_object *obj = NULL;
	int ret;

	if (git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0)
		return git_fail(path);
	if (git_revparse_single(&obj, *repo, rev) < 0)
		return git_fail(rev);
	ret = git_object_peel((git_object **)tree, obj, GIT_OBJECT_TREE);
	git_object_free(obj);
	return ret < 0 ? git_fail(rev) : 0;
}

static const char *fragment_path(const char *f, const char *dir, char **buf)
{
	*buf = NULL;
	if (strchr(f, '/') || !access(f, R_OK))
		return f;
	*buf = xasprintf("%s/%s", dir, f);
	return *buf;
}

struct job {
	const struct build_opts *o;
	struct build_result *r;
	char *cache_dir, *slot, *srcdir, *objdir, *art;
	const char *base;		/* make target or file */
	int base_is_target;
	struct strbuf frags;		/* all fragment text */
	char **frag_names;
	char **frag_text;
	size_t nr_frags;
	int jobs;
	int log_fd;
	double start;
	struct progress progress;
};

static char *env_kv(const char *k, const char *v)
{
	return xasprintf("%s=%s", k, v);
}

static void make_line(const char *line, void *data)
{
	struct job *j = data;

	progress_output(&j->progress, line);
}

static int run_make(struct job *j, const char *const *targets, int quiet,
		    struct strbuf *capture)
{
	const char *argv[16];
	char *alloc[8] = { 0 };
	const char *env[12];
	int n = 0, na = 0, ne = 0, ret, use_ccache;
	const char *cc = bd()->cc;
	struct subproc p = { .stdin_fd = -1 };

	use_ccache = bd()->ccache;
	if (use_ccache < 0)
		use_ccache = subproc_have("ccache");
	argv[n++] = "make";
	argv[n++] = alloc[na++] = xasprintf("-j%d", j->jobs);
	argv[n++] = "-C";
	argv[n++] = j->srcdir;
	argv[n++] = alloc[na++] = xasprintf("O=%s", j->objdir);
	if (use_ccache)
		argv[n++] = alloc[na++] = xasprintf("CC=ccache %s", cc);
	else
		argv[n++] = alloc[na++] = xasprintf("CC=%s", cc);
	if (quiet)
		argv[n++] = "-s";
	while (*targets)
		argv[n++] = *targets++;
	argv[n] = NULL;
	env[ne++] = alloc[na++] = env_kv("KBUILD_BUILD_TIMESTAMP",
					  KBUILD_TIMESTAMP);
	env[ne++] = "KBUILD_BUILD_USER=sched-bot";
	env[ne++] = "KBUILD_BUILD_HOST=sched-bot";
	/* A make above us (make check) must not make the kernel build
	 * silent or hand it a jobserver it does not own. */
	env[ne++] = "MAKEFLAGS";
	env[ne++] = "MFLAGS";
	env[ne++] = "MAKELEVEL";
	env[ne++] = "MAKEOVERRIDES";
	/* ccache hits across slots: paths relative below the cache. */
	if (use_ccache && !getenv("CCACHE_BASEDIR"))
		env[ne++] = alloc[na++] = env_kv("CCACHE_BASEDIR",
						  j->cache_dir);
	env[ne] = NULL;
	p.argv = argv;
	p.env = env;
	p.log_fd = capture ? -1 : j->log_fd;
	p.capture = capture;
	p.split_stderr = capture != NULL;
	p.line = capture ? NULL : make_line;
	p.data = j;
	ret = subproc_run(&p);
	progress_done(&j->progress);
	while (na)
		free(alloc[--na]);
	return ret;
}

static int read_fragments(struct job *j)
{
	const struct build_opts *o = j->o;
	char *dir = build_fragment_dir(), *buf;
	size_t i, nr = o->fragments ? o->nr_fragments
				    : ARRAY_SIZE(default_fragments);
	int ret = 0;

	j->frag_names = xcalloc(nr, sizeof(char *));
	j->frag_text = xcalloc(nr, sizeof(char *));
	for (i = 0; i < nr; i++) {
		const char *f = o->fragments ? o->fragments[i]
					     : default_fragments[i];
		const char *path = fragment_path(f, dir, &buf);
		struct strbuf sb = STRBUF_INIT;

		if (strbuf_read_file(&sb, path) < 0) {
			ret = error("cannot read fragment %s: %s", path,
				    strerror(errno));
			strbuf_release(&sb);
			free(buf);
			break;
		}
		j->frag_names[i] = xstrdup(path);
		j->frag_text[i] = strbuf_detach(&sb, NULL);
		j->nr_frags = i + 1;
		/* Name and text, not the path: the same fragment anywhere
		 * is the same config. */
		strbuf_addf(&j->frags, "fragment %s\n%s\n",
			    strrchr(f, '/') ? strrchr(f, '/') + 1 : f,
			    j->frag_text[i]);
		free(buf);
	}
	free(dir);
	return ret;
}

/* The config hash: base (a make target's name or a file's text) + frags. */
static int config_inputs(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	const char *b = j->o->base_config;

	if (!b)
		b = bd()->base_config;
	j->base = b;
	j->base_is_target = !strchr(b, '/') && ends_with(b, "config") &&
		access(b, R_OK);
	if (j->base_is_target) {
		strbuf_addf(&sb, "target %s\n", b);
	} else if (strbuf_read_file(&sb, b) < 0) {
		strbuf_release(&sb);
		return error("cannot read config %s: %s", b, strerror(errno));
	}
	if (read_fragments(j) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	strbuf_addstr(&sb, j->frags.buf);
	j->r->config_hash = hash_hex(sb.buf, sb.len);
	j->r->config_hash[16] = 0;
	strbuf_release(&sb);
	return 0;
}

static int make_config(struct job *j)
{
	char *dot = xasprintf("%s/.config", j->objdir);
	const char *targets[2] = { NULL, NULL };
	struct strbuf cfg = STRBUF_INIT;
	size_t i;
	int ret = -1;

	if (j->base_is_target) {
		targets[0] = j->base;
		if (run_make(j, targets, 0, NULL)) {
			error("make %s failed (see %s)", j->base, j->r->log);
			goto out;
		}
		if (strbuf_read_file(&cfg, dot) < 0) {
			error("make %s wrote no .config", j->base);
			goto out;
		}
	} else if (strbuf_read_file(&cfg, j->base) < 0) {
		error("cannot read %s: %s", j->base, strerror(errno));
		goto out;
	}
	for (i = 0; i < j->nr_frags; i++)
		build_merge_config(&cfg, j->frag_text[i]);
	if (write_file_atomic(dot, cfg.buf, cfg.len) < 0) {
		error("cannot write %s: %s", dot, strerror(errno));
		goto out;
	}
	targets[0] = "olddefconfig";
	if (run_make(j, targets, 0, NULL)) {
		error("make olddefconfig failed (see %s)", j->r->log);
		goto out;
	}
	strbuf_reset(&cfg);
	if (strbuf_read_file(&cfg, dot) < 0) {
		error("cannot read %s: %s", dot, strerror(errno));
		goto out;
	}
	ret = 0;
	for (i = 0; i < j->nr_frags; i++)
		if (build_check_config(cfg.buf, j->frag_text[i],
				       j->frag_names[i]) < 0)
			ret = -1;
out:
	strbuf_release(&cfg);
	free(dot);
	return ret;
}

static int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, from) < 0) {
		strbuf_release(&sb);
		return error("cannot read %s: %s", from, strerror(errno));
	}
	ret = write_file_atomic(to, sb.buf, sb.len);
	if (ret < 0)
		error("cannot write %s: %s", to, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/* Copy a finished build from its O= dir into the artifact directory. */
static int store_artifacts(struct job *j)
{
	char *tmp = xasprintf("%s.tmp.%d", j->art, (int)getpid());
	char *from[3], *to[3];
	int ret = 0, i;

	remove_tree(tmp);
	if (mkdir_p(tmp, 0755) < 0) {
		free(tmp);
		return error("cannot create %s: %s", j->art, strerror(errno));
	}
	from[0] = xasprintf("%s/arch/x86/boot/bzImage", j->objdir);
	from[1] = xasprintf("%s/.config", j->objdir);
	from[2] = xasprintf("%s/build.log", j->slot);
	to[0] = xasprintf("%s/bzImage", tmp);
	to[1] = xasprintf("%s/config", tmp);
	to[2] = xasprintf("%s/build.log", tmp);
	for (i = 0; i < 3; i++) {
		if (!ret && copy_file(from[i], to[i]) < 0)
			ret = -1;
		free(from[i]);
		free(to[i]);
	}
	if (!ret) {
		char *rel = xasprintf("%s/release", tmp);

		ret = write_file_atomic(rel, j->r->release,
					strlen(j->r->release));
		free(rel);
	}
	if (!ret) {
		remove_tree(j->art);
		if (rename(tmp, j->art) < 0)
			ret = error("cannot rename %s: %s", tmp,
				    strerror(errno));
	}
	if (ret)
		remove_tree(tmp);
	free(tmp);
	return ret;
}

static void set_paths_from_art(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	char *rel = xasprintf("%s/release", j->art);

	j->r->kernel = xasprintf("%s/bzImage", j->art);
	j->r->config = xasprintf("%s/config", j->art);
	free(j->r->log);
	j->r->log = xasprintf("%s/build.log", j->art);
	if (strbuf_read_file(&sb, rel) >= 0) {
		strbuf_trim(&sb);
		free(j->r->release);
		j->r->release = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	free(rel);
}

static int copy_out(struct job *j)
{
	const char *names[] = { "bzImage", "config", "build.log" };
	const char *src[3] = { j->r->kernel, j->r->config, j->r->log };
	char *to;
	size_t i;
	int ret = 0;

	if (mkdir_p(j->o->outdir, 0755) < 0)
		return error("cannot create %s: %s", j->o->outdir,
			     strerror(errno));
	for (i = 0; i < 3 && !ret; i++) {
		if (!src[i] || access(src[i], R_OK))
			continue;
		to = xasprintf("%s/%s", j->o->outdir, names[i]);
		ret = copy_file(src[i], to);
		free(to);
	}
	if (!ret && j->r->release) {
		to = xasprintf("%s/release", j->o->outdir);
		write_file_atomic(to, j->r->release, strlen(j->r->release));
		free(to);
	}
	if (!ret && j->r->kernel) {
		free(j->r->kernel);
		j->r->kernel = xasprintf("%s/bzImage", j->o->outdir);
	}
	return ret;
}

/* Where base (source origin) and config meet: one O= dir. */
static int setup_slot(struct job *j, const char *origin)
{
	char real[PATH_MAX], *key, *h;

	if (!realpath(origin, real))
		return error("%s: %s", origin, strerror(errno));
	key = xasprintf("%s\n%s", real, j->r->config_hash);
	h = hash_hex(key, strlen(key));
	j->slot = xasprintf("%s/slot-%.16s", j->cache_dir, h);
	free(h);
	free(key);
	j->objdir = xasprintf("%s/obj", j->slot);
	if (mkdir_p(j->objdir, 0755) < 0)
		return error("cannot create %s: %s", j->objdir,
			     strerror(errno));
	return 0;
}

static int lock_slot(struct job *j)
{
	char *path = xasprintf("%s/lock", j->slot);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	free(path);
	if (fd < 0)
		return error("cannot lock %s: %s", j->slot, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		info("waiting for another build in %s", j->slot);
		flock(fd, LOCK_EX);
	}
	return fd;
}

/*
 * Compiler messages name files as make reached them ("../src/kernel/
 * sched/fair.c" or an absolute path): report them relative to the tree,
 * as the patch names them.
 */
static char *tree_relative(struct strbuf *errors, const char *srcdir)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line = errors->buf, *nl, *p;
	char *abs = xasprintf("%s/", srcdir);

	for (; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		p = line;
		if (starts_with(p, abs))
			p += strlen(abs);
		else if (starts_with(p, "../src/"))
			p += strlen("../src/");
		strbuf_add(&sb, p, nl - p);
		strbuf_addch(&sb, '\n');
		if (!*nl)
			break;
	}
	free(abs);
	strbuf_release(errors);
	return strbuf_detach(&sb, NULL);
}

static int do_build(struct job *j)
{
	const struct build_opts *o = j->o;
	struct build_result *r = j->r;
	git_repository *repo = NULL;
	git_tree *tree = NULL;
	struct strbuf out = STRBUF_INIT;
	const char *targets[2] = { "bzImage", NULL };
	const char *kr[2] = { "kernelrelease", NULL };
	char *logpath;
	int lock = -1, ret = -1, rc;

	if (config_inputs(j) < 0)
		return -1;
	if (o->tree) {
		char hex[GIT_OID_HEXSZ + 1];

		if (open_tree(o->tree, o->rev ? o->rev : "HEAD", &repo,
			      &tree) < 0)
			goto out;
		git_oid_tostr(hex, sizeof(hex), git_tree_id(tree));
		r->source_id = xstrdup(hex);
		if (setup_slot(j, o->tree) < 0)
			goto out;
		j->srcdir = xasprintf("%s/src", j->slot);
	} else {
		struct stat st;

		if (stat(o->src, &st) < 0 || !S_ISDIR(st.st_mode)) {
			error("%s is not a directory", o->src);
			goto out;
		}
		j->srcdir = realpath(o->src, NULL);
		r->source_id = src_id(j->srcdir);
		if (!r->source_id || setup_slot(j, o->src) < 0)
			goto out;
	}
	r->objdir = xstrdup(j->objdir);
	j->art = xasprintf("%s/art-%.16s-%s", j->cache_dir, r->source_id,
			   r->config_hash);
	logpath = xasprintf("%s/bzImage", j->art);
	if (!access(logpath, R_OK)) {
		free(logpath);
		r->cached = 1;
		set_paths_from_art(j);
		info("cached build %s", j->art);
		ret = 0;
		goto out;
	}
	free(logpath);
	lock = lock_slot(j);
	if (lock < 0)
		goto out;
	if (tree && sync_tree(repo, tree, j->srcdir) < 0)
		goto out;
	r->log = xasprintf("%s/build.log", j->slot);
	j->log_fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			 0644);
	if (j->log_fd < 0) {
		error("cannot write %s: %s", r->log, strerror(errno));
		goto out;
	}
	if (make_config(j) < 0)
		goto out;
	info("building %s (%s) in %s with -j%d", r->source_id,
	     r->config_hash, j->objdir, j->jobs);
	rc = run_make(j, targets, 0, NULL);
	if (rc) {
		struct strbuf log = STRBUF_INIT;

		r->failed = 1;
		strbuf_read_file(&log, r->log);
		build_first_errors(log.buf, log.len, 10, &out);
		r->errors = tree_relative(&out, j->srcdir);
		strbuf_release(&log);
		/* Keep the log where the next build will not overwrite it. */
		if (o->outdir)
			copy_out(j);
		ret = 1;
		goto out;
	}
	if (run_make(j, kr, 1, &out)) {
		error("make kernelrelease failed");
		goto out;
	}
	strbuf_trim(&out);
	r->release = strbuf_detach(&out, NULL);
	if (store_artifacts(j) < 0)
		goto out;
	set_paths_from_art(j);
	ret = 0;
out:
	if (j->log_fd >= 0)
		close(j->log_fd);
	j->log_fd = -1;
	if (lock >= 0)
		close(lock);
	git_tree_free(tree);
	git_repository_free(repo);
	strbuf_release(&out);
	return ret;
}

int build_kernel(const struct build_opts *o, struct build_result *r)
{
	struct job j = { .o = o, .r = r, .log_fd = -1,
			 .frags = STRBUF_INIT };
	const char *dir;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!o->src == !o->tree)
		return error("give either a source directory or a tree");
	git_libgit2_init();
	j.start = now_monotonic();
	/* Status lines are for a person at a terminal, never for a log. */
	progress_start(&j.progress, o->progress);
	j.jobs = o->jobs > 0 ? o->jobs : bd()->jobs;
	dir = bd()->cache_dir;
	j.cache_dir = dir && *dir ? xstrdup(dir) : cache_path("builds");
	if (mkdir_p(j.cache_dir, 0755) < 0) {
		ret = error("cannot create %s: %s", j.cache_dir,
			    strerror(errno));
		goto out;
	}
	ret = do_build(&j);
	if (ret == 0 && o->outdir && copy_out(&j) < 0)
		ret = -1;
out:
	r->seconds = now_monotonic() - j.start;
	for (i = 0; i < j.nr_frags; i++) {
		free(j.frag_names[i]);
		free(j.frag_text[i]);
	}
	free(j.frag_names);
	free(j.frag_text);
	strbuf_release(&j.frags);
	free(j.cache_dir);
	free(j.slot);
	free(j.srcdir);
	free(j.objdir);
	free(j.art);
	git_libgit2_shutdown();
	return ret;
}

void build_result_release(struct build_result *r)
{
	free(r->kernel);
	free(r->config);
	free(r->log);
	free(r->release);
	free(r->source_id);
	free(r->config_hash);
	free(r->objdir);
	free(r->errors);
	memset(r, 0, sizeof(*r));
}
