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
#include <ctype.h>
#include <elf.h>
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
#include <sys/statvfs.h>
#include <unistd.h>

#include <git2/sys/repository.h>

#include "arch.h"
#include "build.h"
#include "slotfile.h"
#include "progress.h"
#include "sandbox.h"
#include "secret.h"
#include "subproc.h"
#include "tree.h"
#include "vmlinux.h"

#define KBUILD_TIMESTAMP "Thu Jan  1 00:00:00 UTC 1970"

static struct build_defaults defaults;
static int configured;

void build_configure(const struct build_defaults *d)
{
	defaults = *d;
	configured = 1;
}

/* Unconfigured, a build would not know its compiler, bounds nor sandbox. */
static const struct build_defaults *bd(void)
{
	if (!configured)
		die("BUG: build used before build_configure()");
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
		 * line of a choice (SLUB after tinyconfig's SLOB) win.
		 */
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
		error("%.*s requested by %s but the config has %s%.*s (a dependency is missing or it is not valid here)",
		      (int)(nl - line), line, name, got ? "" : "nothing",
		      got ? (int)glen : 0, got ? got : "");
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* One option of a .config text: its name and its value, both in it. */
struct config_opt {
	const char *key, *val;
	size_t klen, vlen;
};

static int config_opt_cmp(const struct config_opt *x,
			  const struct config_opt *y)
{
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->key, y->key, n);

	return c ? c : (x->klen > y->klen) - (x->klen < y->klen);
}

/* By name, then by place in the text: the last line of a name last. */
static int config_opt_sort(const void *a, const void *b)
{
	const struct config_opt *x = a, *y = b;
	int c = config_opt_cmp(x, y);

	return c ? c : (x->key > y->key) - (x->key < y->key);
}

/*
 * The options of text, sorted by name: a config has thousands, and
 * two of them are compared by a merge, not by a search per option.
 * "is not set" reads as "n".  A name given twice keeps its last line,
 * as kconfig does.
 */
static size_t config_opts(const char *text, struct config_opt **out)
{
	struct config_opt *v = NULL;
	size_t nr = 0, alloc = 0, i, n;
	const char *line, *nl, *key;
	size_t klen;

	for (line = text; *line; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		if (!config_line_key(line, nl - line, &key, &klen))
			continue;
		ALLOC_GROW(v, nr, alloc);
		v[nr].key = key;
		v[nr].klen = klen;
		if (line[0] == '#') {
			v[nr].val = "n";
			v[nr].vlen = 1;
		} else {
			v[nr].val = key + klen + (key[klen] == '=');
			v[nr].vlen = nl - v[nr].val;
		}
		nr++;
	}
	if (nr)
		qsort(v, nr, sizeof(*v), config_opt_sort);
	for (i = n = 0; i < nr; i++) {
		if (n && !config_opt_cmp(&v[n - 1], &v[i]))
			n--;
		v[n++] = v[i];
	}
	*out = v;
	return n;
}

void build_config_changes(const char *base, const char *config,
			  struct strbuf *out)
{
	static const struct config_opt none = { NULL, "n", 0, 1 };
	struct config_opt *a, *b;
	size_t na = config_opts(base, &a), nb = config_opts(config, &b);
	size_t i = 0, k = 0;

	while (i < na || k < nb) {
		int c = i == na ? 1 : k == nb ? -1 :
			config_opt_cmp(&a[i], &b[k]);
		const struct config_opt *o = c <= 0 ? &a[i] : &none;
		const struct config_opt *n = c >= 0 ? &b[k] : &none;
		const struct config_opt *name = c <= 0 ? o : n;

		if (o->vlen != n->vlen || memcmp(o->val, n->val, o->vlen))
			strbuf_addf(out, "%.*s: %.*s -> %.*s\n",
				    (int)name->klen, name->key,
				    (int)o->vlen, o->val, (int)n->vlen,
				    n->val);
		if (c <= 0)
			i++;
		if (c >= 0)
			k++;
	}
	free(a);
	free(b);
}

int build_config_follows_toolchain(const char *name, size_t len)
{
	static const char *const prefix[] = {
		"CC_IS_", "CC_HAS_", "CC_HAVE_", "CC_CAN_", "CC_NO_", "AS_",
		"LD_IS_", "LD_HAS_", "LD_CAN_", "TOOLS_SUPPORT_", "TOOLCHAIN_",
		"RUSTC_", "RUST_IS_", "BINDGEN_", "PAHOLE_", "GCC_PLUGIN",
	};
	static const char *const suffix[] = { "_VERSION", "_VERSION_TEXT" };
	static const char *const whole[] = {
		"LD_ORPHAN_WARN", "GCC_ASM_GOTO_OUTPUT_WORKAROUND",
	};
	size_t i, n;

	if (len > 7 && !strncmp(name, "CONFIG_", 7)) {
		name += 7;
		len -= 7;
	}
	for (i = 0; i < ARRAY_SIZE(prefix); i++)
		if (len > strlen(prefix[i]) &&
		    !strncmp(name, prefix[i], strlen(prefix[i])))
			return 1;
	for (i = 0; i < ARRAY_SIZE(suffix); i++) {
		n = strlen(suffix[i]);
		if (len > n && !strncmp(name + len - n, suffix[i], n))
			return 1;
	}
	for (i = 0; i < ARRAY_SIZE(whole); i++)
		if (len == strlen(whole[i]) && !strncmp(name, whole[i], len))
			return 1;
	return 0;
}

/* Is the option of line ("CONFIG_X: ...") one of changes' lines' too? */
static int changed_in(const char *changes, const char *line, size_t klen)
{
	const char *p;

	for (p = changes; *p; p += strcspn(p, "\n"), p += *p == '\n')
		if (!strncmp(p, line, klen) && p[klen] == ':')
			return 1;
	return 0;
}

void build_config_changes_by(const char *base, const char *merged,
			     const char *config, struct strbuf *out)
{
	struct strbuf all = STRBUF_INIT, bot = STRBUF_INIT;
	const char *p;

	build_config_changes(base, config, &all);
	build_config_changes(base, merged, &bot);
	for (p = all.buf; *p;) {
		size_t n = strcspn(p, "\n"), k = strcspn(p, ":\n");
		const char *tag = "";

		if (changed_in(bot.buf, p, k))
			;
		else if (build_config_follows_toolchain(p, k))
			tag = BUILD_CHANGE_TOOLCHAIN;
		else
			tag = BUILD_CHANGE_OLDDEFCONFIG;
		strbuf_addf(out, "%.*s%s\n", (int)n, p, tag);
		p += n + (p[n] == '\n');
	}
	strbuf_release(&all);
	strbuf_release(&bot);
}

int build_base_is_target(const char *base)
{
	const char *b = base ? base : bd()->base_config;

	return !strchr(b, '/') && ends_with(b, "config") && access(b, R_OK);
}

/*
 * A path as a compiler names a tree file: relative, plain characters,
 * no "." or ".." component, and (with srcdir) a regular file there.
 */
static int tree_path(const char *p, size_t len, const char *srcdir)
{
	const char *c, *e, *end = p + len;
	struct stat st;
	char *full;
	int ok;

	if (!len || len > 200 || *p == '/')
		return 0;
	for (c = p; c < end; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_./+-,", *c))
			return 0;
	for (c = p; c < end; c = e + 1) {
		e = memchr(c, '/', end - c);
		if (!e)
			e = end;
		if (e == c || (e - c == 1 && c[0] == '.') ||
		    (e - c == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
	}
	if (end[-1] == '/')
		return 0;
	if (!srcdir)
		return 1;
	full = xasprintf("%s/%.*s", srcdir, (int)len, p);
	ok = !lstat(full, &st) && S_ISREG(st.st_mode);
	free(full);
	return ok;
}

/* Message text for mail: ASCII, no control characters, bounded. */
static void add_clean(struct strbuf *out, const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && n < 160; i++, n++) {
		unsigned char c = s[i];

		/* gcc's quotes in a UTF-8 locale */
		if (c == 0xe2 && i + 2 < len &&
		    (unsigned char)s[i + 1] == 0x80 &&
		    ((unsigned char)s[i + 2] == 0x98 ||
		     (unsigned char)s[i + 2] == 0x99)) {
			strbuf_addch(out, '\'');
			i += 2;
		} else if (c >= 0x20 && c < 0x7f) {
			strbuf_addch(out, c);
		} else if (c == '\t') {
			strbuf_addch(out, ' ');
		} else {
			strbuf_addch(out, '?');
		}
	}
	if (i < len)
		strbuf_addstr(out, " [...]");
}

/*
 * Compiler messages name files as make reached them ("../src/kernel/
 * sched/fair.c" or an absolute path): the tree-relative part.
 */
static const char *skip_tree_prefix(const char *line, const char *srcdir)
{
	size_t n = srcdir ? strlen(srcdir) : 0;

	if (n && !strncmp(line, srcdir, n) && line[n] == '/')
		return line + n + 1;
	if (starts_with(line, "../src/"))
		return line + strlen("../src/");
	if (starts_with(line, "./"))
		return line + 2;
	return line;
}

/* "PATH:LINE[:COL]: [fatal ]error: MSG" on a tree path, rewritten. */
static int diagnostic(const char *line, size_t len, const char *srcdir,
		      struct strbuf *out)
{
	const char *p = skip_tree_prefix(line, srcdir), *end = line + len;
	const char *colon = memchr(p, ':', end - p), *q, *msg;
	size_t plen;

	if (!colon)
		return 0;
	plen = colon - p;
	q = colon + 1;
	if (q >= end || !isdigit((unsigned char)*q))
		return 0;
	while (q < end && (isdigit((unsigned char)*q) || *q == ':'))
		q++;
	if (q[-1] != ':' || q >= end || *q != ' ')
		return 0;
	msg = q + 1;
	if ((size_t)(end - msg) > 7 && !strncmp(msg, "error: ", 7))
		msg += 7;
	else if ((size_t)(end - msg) > 13 && !strncmp(msg, "fatal error: ", 13))
		msg += 13;
	else
		return 0;
	if (!tree_path(p, plen, srcdir))
		return 0;
	strbuf_add(out, p, q - p);
	strbuf_addch(out, ' ');
	strbuf_add(out, q + 1, msg - q - 1);
	add_clean(out, msg, end - msg);
	strbuf_addch(out, '\n');
	return 1;
}

/* "...undefined reference to `sym'": the linker's, as "ld: ..." */
static int link_error(const char *line, size_t len, struct strbuf *out)
{
	static const char pat[] = "undefined reference to `";
	const char *hit = memmem(line, len, pat, strlen(pat)), *sym, *e;

	if (!hit)
		return 0;
	sym = hit + strlen(pat);
	for (e = sym; e < line + len && (isalnum((unsigned char)*e) ||
					  *e == '_' || *e == '.'); e++)
		;
	if (e == sym || e >= line + len || *e != '\'' || e - sym > 120)
		return 0;
	strbuf_addf(out, "ld: undefined reference to `%.*s'\n",
		    (int)(e - sym), sym);
	return 1;
}

int build_first_errors(const char *log, size_t len, int max,
		       const char *srcdir, struct strbuf *out)
{
	const char *line = log, *end = log + len, *nl;
	int nr = 0;

	while (line < end && nr < max) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		if (diagnostic(line, nl - line, srcdir, out) ||
		    link_error(line, nl - line, out))
			nr++;
		line = nl + 1;
	}
	return nr;
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

/*
 * Whatever the tree in dir holds that its index does not (a file an
 * earlier build or a person changed, added or removed): its path, or
 * NULL when dir is exactly tree.  Caller frees.
 */
static char *tree_difference(git_repository *repo, git_tree *tree,
			     git_index *idx)
{
	git_diff_options o;
	git_diff *diff = NULL;
	char *what = NULL;

	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_INCLUDE_IGNORED |
		  GIT_DIFF_RECURSE_UNTRACKED_DIRS |
		  GIT_DIFF_RECURSE_IGNORED_DIRS | GIT_DIFF_INCLUDE_TYPECHANGE;
	(void)idx;	/* the repository's, set by sync_tree() */
	if (git_diff_tree_to_workdir_with_index(&diff, repo, tree, &o) < 0) {
		tree_git_error("diff");
		return xstrdup("(cannot compare)");
	}
	if (git_diff_num_deltas(diff))
		what = xstrdup(git_diff_get_delta(diff, 0)->new_file.path);
	git_diff_free(diff);
	return what;
}

static int checkout(git_repository *repo, git_tree *tree, git_index *idx,
		    int seeded)
{
	git_checkout_options co;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE |
			       GIT_CHECKOUT_REMOVE_UNTRACKED |
			       GIT_CHECKOUT_REMOVE_IGNORED;
	co.baseline_index = idx;
	if (git_checkout_tree(repo, (git_object *)tree, &co) < 0)
		return tree_git_error("checkout");
	/* Entries seeded from a tree have no stat data: get it once, so
	 * that later checks are stat-only.  (The checkout records it for
	 * the files it writes.)
	 */
	if (seeded && git_index_update_all(idx, NULL, NULL, NULL) < 0)
		return tree_git_error("index");
	if (git_index_write(idx) < 0)
		return tree_git_error("index");
	return 0;
}

/*
 * The stamp the older design kept in the tree (the tree id it holds):
 * written after the check, so that an older sched-bot sharing this
 * cache updates the tree incrementally instead of from scratch.  The
 * next checkout removes it with every other file of no commit.
 */
static int write_old_stamp(git_tree *tree, const char *path)
{
	char hex[GIT_OID_HEXSZ + 2];

	git_oid_tostr(hex, sizeof(hex) - 1, git_tree_id(tree));
	strcat(hex, "\n");
	if (write_file_atomic(path, hex, strlen(hex)) < 0)
		return error("cannot write %s: %s", path, strerror(errno));
	return 0;
}

/*
 * Make dir hold exactly the files of tree, and check that it does.
 *
 * The slot keeps a git index (slot/index) of its checkout, so libgit2
 * rewrites only the files that differ (untouched files keep their
 * mtimes and make recompiles only what a patch changed) and removes
 * anything that is in no commit: a file a build left, one planted by
 * hand.  Then the directory is compared with the commit once more;
 * when anything still differs it is checked out from scratch.
 */
static int sync_tree(git_repository *repo, git_tree *tree, const char *slot,
		     const char *dir)
{
	char *index_path = xasprintf("%s/index", slot);
	char *old_stamp = xasprintf("%s/.sched-bot-tree", dir);
	git_index *idx = NULL;
	char *diff = NULL;
	int ret = -1, attempt, seeded;
	double t0 = now_monotonic();

	for (attempt = 0; attempt < 2; attempt++) {
		if (attempt) {
			warning("%s differs from its commit (%s): checking it out from scratch",
				dir, diff);
			free(diff);
			diff = NULL;
			git_repository_set_index(repo, NULL);
			git_index_free(idx);
			idx = NULL;
			unlink(index_path);
			remove_tree(dir);
		}
		if (mkdir_p(dir, 0755) < 0) {
			error("cannot create %s: %s", dir, strerror(errno));
			goto out;
		}
		if (git_repository_set_workdir(repo, dir, 0) < 0 ||
		    git_index_open(&idx, index_path) < 0 ||
		    git_repository_set_index(repo, idx) < 0) {
			tree_git_error(dir);
			goto out;
		}
		/* a checkout of the older design: its stamp names the tree
		 * it holds, the index then saves rewriting it all
		 */
		seeded = 0;
		if (!git_index_entrycount(idx)) {
			struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
			git_tree *old = NULL;
			git_oid oid;

			/* the checkout is the tree's: a link or a FIFO there */
			if (slot_read_path(dir, ".sched-bot-tree", old_stamp,
					   BUILD_MAX_STAMP, &sb, &why) > 0) {
				strbuf_trim(&sb);
				if (!git_oid_fromstr(&oid, sb.buf) &&
				    !git_tree_lookup(&old, repo, &oid))
					seeded = !git_index_read_tree(idx,
								      old);
			}
			git_tree_free(old);
			strbuf_release(&sb);
			strbuf_release(&why);
		}
		if (checkout(repo, tree, idx, seeded) < 0)
			goto out;
		diff = tree_difference(repo, tree, idx);
		if (!diff) {
			debug("checkout: %s is its commit (%.1f s)", dir,
			      now_monotonic() - t0);
			ret = write_old_stamp(tree, old_stamp);
			goto out;
		}
	}
	error("%s still differs from its commit after a fresh checkout (%s)",
	      dir, diff);
out:
	git_repository_set_index(repo, NULL);
	git_index_free(idx);
	free(diff);
	free(old_stamp);
	free(index_path);
	return ret;
}

static int open_tree(const char *path, const char *rev, git_repository **repo,
		     git_tree **tree)
{
	git_object *obj = NULL;
	int ret;

	if (git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0)
		return tree_git_error(path);
	if (git_revparse_single(&obj, *repo, rev) < 0)
		return tree_git_error(rev);
	ret = git_object_peel((git_object **)tree, obj, GIT_OBJECT_TREE);
	git_object_free(obj);
	return ret < 0 ? tree_git_error(rev) : 0;
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
	const struct arch *arch;	/* o->arch, or x86_64 */
	const char *cross;		/* CROSS_COMPILE=; "": native */
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
	double deadline;		/* build.timeout; 0: none */
	int timed_out;			/* or stopped at a limit: */
	char *stopped;			/* which; NULL: build.timeout */
	int sandboxed;			/* build.sandbox */
	char *ccache_dir;		/* NULL: no ccache */
	int ccache_rw;			/* 1: it may write ccache (trusted) */
	unsigned long long disk_base;	/* what they held: sandbox.h */
	int objfd;			/* O=, for slotfile.h; -1: not open */
	int slotfd;			/* the slot (build.log), likewise */
	/* why the build's output was refused (slotfile.h): mailable */
	struct strbuf refused;
	/* what the make steps' output cost, against build.maxLog */
	struct subproc_cut cut;
	/* bytes the last make query printed (BUILD_MAX_ANSWER) */
	unsigned long long answer_bytes;
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

static int run_in_slot(struct job *j, const char *const *argv,
		       const char *const *env, struct strbuf *capture,
		       const char *ro_file);

static int run_make(struct job *j, const char *const *targets, int quiet,
		    struct strbuf *capture)
{
	const char *argv[16];
	char *alloc[8] = { 0 };
	const char *env[16];
	int n = 0, na = 0, ne = 0, ret;
	const char *cc = bd()->cc;
	char *cross_cc = NULL;

	argv[n++] = "make";
	argv[n++] = alloc[na++] = xasprintf("-j%d", j->jobs);
	argv[n++] = "-C";
	argv[n++] = j->srcdir;
	argv[n++] = alloc[na++] = xasprintf("O=%s", j->objdir);
	if (*j->cross) {
		/* the kernel's own words for another architecture */
		argv[n++] = alloc[na++] = xasprintf("ARCH=%s", j->arch->karch);
		argv[n++] = alloc[na++] = xasprintf("CROSS_COMPILE=%s",
						     j->cross);
		cc = cross_cc = xasprintf("%sgcc", j->cross);
	}
	if (j->ccache_dir)
		argv[n++] = alloc[na++] = xasprintf("CC=ccache %s", cc);
	else
		argv[n++] = alloc[na++] = xasprintf("CC=%s", cc);
	if (j->o->kcflags && *j->o->kcflags)
		argv[n++] = alloc[na++] = xasprintf("KCFLAGS=%s",
						     j->o->kcflags);
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
	 * silent or hand it a jobserver it does not own (the sandbox's
	 * environment has none of them anyway).
	 */
	env[ne++] = "MAKEFLAGS";
	env[ne++] = "MFLAGS";
	env[ne++] = "MAKELEVEL";
	env[ne++] = "MAKEOVERRIDES";
	if (j->ccache_dir) {
		env[ne++] = alloc[na++] = env_kv("CCACHE_DIR", j->ccache_dir);
		/* read-only: hits only, nothing of this build kept, and
		 * ccache's own files on the sandbox's /tmp
		 */
		if (!j->ccache_rw) {
			env[ne++] = "CCACHE_READONLY=1";
			env[ne++] = "CCACHE_NOSTATS=1";
			env[ne++] = "CCACHE_TEMPDIR=/tmp/ccache";
		}
		/* ccache hits across slots: paths relative below the
		 * cache.
		 */
		if (!getenv("CCACHE_BASEDIR"))
			env[ne++] = alloc[na++] = env_kv("CCACHE_BASEDIR",
							  j->cache_dir);
	}
	env[ne] = NULL;
	ret = run_in_slot(j, argv, env, capture, NULL);
	while (na)
		free(alloc[--na]);
	free(cross_cc);
	return ret;
}

/*
 * A make query's stderr (BUILD_MAX_ANSWER of it read), said on ours
 * as the build's text: its first line, cut and with every control
 * character replaced, after the bot's own words.  A forged "sched-bot:
 * info:" line or a terminal escape in it reaches no one.
 */
static void say_query_stderr(const char *const *argv, const struct strbuf *err,
			     const struct subproc_cut *cut)
{
	const char *what = argv[0];
	size_t i, n = strcspn(err->buf, "\n");
	char line[121];

	if (!err->len)
		return;
	for (i = 1; argv[i]; i++)
		what = argv[i];	/* the target, last */
	if (n > sizeof(line) - 1)
		n = sizeof(line) - 1;
	memcpy(line, err->buf, n);
	line[strip_controls(line, n)] = '\0';
	for (i = 0; line[i]; i++)
		if (line[i] == '\t')
			line[i] = ' ';
	warning("make %s wrote %llu bytes to stderr; its first line: \"%s\"%s",
		what, (unsigned long long)err->len + cut->err_dropped, line,
		n < strcspn(err->buf, "\n") || err->buf[n] ? " [...]" : "");
}

/*
 * argv in the build's sandbox (or unconfined, build.sandbox = false),
 * its output to the log (build.maxLog for the build in all, each line
 * at most BUILD_MAX_LINE) or, for a query, to capture: at most
 * BUILD_MAX_ANSWER bytes of an answer, a longer one emptied
 * (j->answer_bytes says how long), its stderr said by
 * say_query_stderr().  ro_file, when set, bound in read-only.
 */
static int run_in_slot(struct job *j, const char *const *argv,
		       const char *const *env, struct strbuf *capture,
		       const char *ro_file)
{
	struct subproc p = { .stdin_fd = -1 };
	struct sandbox_dir dirs[4];
	struct sandbox sb = { .dirs = dirs };
	struct subproc_cut qcut = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret;

	p.argv = argv;
	p.env = env;
	if (capture) {
		p.log_fd = -1;
		p.capture = capture;
		p.capture_max = BUILD_MAX_ANSWER;
		p.capture_err = &err;
		p.capture_err_max = BUILD_MAX_ANSWER;
		p.cut = &qcut;
	} else {
		p.log_fd = j->log_fd;
		p.log_max = (size_t)bd()->max_log;
		p.log_what = "build output";
		p.line_max = BUILD_MAX_LINE;
		p.cut = &j->cut;
		p.line = make_line;
	}
	p.data = j;
	if (j->deadline) {
		p.timeout = j->deadline - now_monotonic();
		if (p.timeout <= 0)
			p.timeout = 0.001;
	}
	if (j->sandboxed) {
		/* the tree read-only, its objects writable, and ccache
		 * when the build is trusted (build_opts.trusted)
		 */
		dirs[sb.nr_dirs++] = (struct sandbox_dir){ j->srcdir, 0 };
		dirs[sb.nr_dirs++] = (struct sandbox_dir){ j->objdir, 1 };
		if (j->ccache_dir)
			dirs[sb.nr_dirs++] =
				(struct sandbox_dir){ j->ccache_dir,
						      j->ccache_rw };
		if (ro_file)
			dirs[sb.nr_dirs++] = (struct sandbox_dir){ ro_file, 0 };
		sb.env = env;
		sb.max_disk = (unsigned long long)bd()->max_disk;
		sb.max_disk_key = "build.maxDisk";
		sb.disk_base = j->disk_base;
		ret = sandbox_run(&sb, &p);
	} else {
		ret = subproc_run(&p);
	}
	if (ret == SUBPROC_TIMEOUT)
		j->timed_out = 1;
	if (SANDBOX_STOPPED(ret)) {
		j->timed_out = 1;
		free(j->stopped);
		j->stopped = sandbox_over(&sb, ret);
	}
	if (capture) {
		j->answer_bytes = qcut.read;
		if (qcut.read > BUILD_MAX_ANSWER)
			strbuf_reset(capture);
		say_query_stderr(argv, &err, &qcut);
	}
	strbuf_release(&err);
	progress_done(&j->progress);
	return ret;
}

/*
 * The fragments o names, as words: its array, else its list (blank- or
 * comma-separated), else BUILD_FRAGMENTS.  Into *words (allocated, the
 * words too); returns how many.
 */
static size_t fragment_words(const struct build_opts *o, char ***words)
{
	const char *p = o->fragment_list ? o->fragment_list : BUILD_FRAGMENTS;
	size_t nr = 0, alloc = 0, n;
	char **v = NULL;

	if (o->fragments) {
		v = xcalloc(o->nr_fragments + 1, sizeof(*v));
		for (nr = 0; nr < o->nr_fragments; nr++)
			v[nr] = xstrdup(o->fragments[nr]);
		*words = v;
		return nr;
	}
	for (;;) {
		p += strspn(p, " \t\n,");
		n = strcspn(p, " \t\n,");
		if (!n)
			break;
		ALLOC_GROW(v, nr, alloc);
		v[nr++] = xstrndup(p, n);
		p += n;
	}
	*words = v;
	return nr;
}

static int read_fragments(struct job *j)
{
	const struct build_opts *o = j->o;
	char *dir = build_fragment_dir(), *buf, **words;
	size_t i, nr = fragment_words(o, &words);
	int ret = 0;

	j->frag_names = xcalloc(nr + 1, sizeof(char *));
	j->frag_text = xcalloc(nr + 1, sizeof(char *));
	for (i = 0; i < nr; i++) {
		const char *f = words[i];
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
		 * is the same config.
		 */
		strbuf_addf(&j->frags, "fragment %s\n%s\n",
			    strrchr(f, '/') ? strrchr(f, '/') + 1 : f,
			    j->frag_text[i]);
		free(buf);
	}
	if (!ret && o->extra_config && *o->extra_config) {
		j->frag_names[nr] = xstrdup(o->extra_name ? o->extra_name :
					    "extra config");
		j->frag_text[nr] = xstrdup(o->extra_config);
		j->nr_frags = nr + 1;
		strbuf_addf(&j->frags, "extra\n%s\n", o->extra_config);
	}
	free(dir);
	for (i = 0; i < nr; i++)
		free(words[i]);
	free(words);
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
	j->base_is_target = build_base_is_target(b);
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
	if (j->o->kcflags && *j->o->kcflags)
		strbuf_addf(&sb, "KCFLAGS %s\n", j->o->kcflags);
	/* x86_64's builds keep the hashes they had before arch.h */
	if (j->arch != &arch_table[0])
		strbuf_addf(&sb, "ARCH %s\n", j->arch->name);
	j->r->config_hash = hash_hex(sb.buf, sb.len);
	j->r->config_hash[16] = 0;
	strbuf_release(&sb);
	return 0;
}

/*
 * O/.config, through the door: 0, or 1 (the build's output refused,
 * j->refused says why) or -1 (no such file: msg).
 */
static int read_dot_config(struct job *j, struct strbuf *cfg,
			   const char *msg)
{
	strbuf_reset(cfg);
	if (slot_read(j->objfd, ".config", "O/.config", BUILD_MAX_CONFIG, cfg,
		      &j->refused) >= 0)
		return 0;
	if (errno != ENOENT)
		return 1;
	strbuf_reset(&j->refused);
	return error("%s", msg);
}

/*
 * The config: the base (a make target run in O=, or a file), the
 * fragments merged onto it in the slot's config.in (the bot's own
 * file, never one in O=), put in place as O/.config by a `cp` in the
 * sandbox, then olddefconfig.  Returns 0, 1 when the build's output
 * was refused (a build failure) or -1.
 */
static int make_config(struct job *j)
{
	char *in = xasprintf("%s/config.in", j->slot);
	char *dot = xasprintf("%s/.config", j->objdir);
	const char *targets[2] = { NULL, NULL };
	const char *cp[] = { "cp", "--remove-destination", "--", in, dot,
			     NULL };
	const char *env[] = { NULL };
	struct strbuf cfg = STRBUF_INIT;
	size_t i;
	int ret = -1, rc;

	if (j->base_is_target) {
		targets[0] = j->base;
		if (run_make(j, targets, 0, NULL)) {
			error("make %s failed (see %s)", j->base, j->r->log);
			goto out;
		}
		char *msg = xasprintf("make %s wrote no .config", j->base);

		rc = read_dot_config(j, &cfg, msg);
		free(msg);
		if (rc) {
			ret = rc;
			goto out;
		}
	} else if (strbuf_read_file(&cfg, j->base) < 0) {
		error("cannot read %s: %s", j->base, strerror(errno));
		goto out;
	}
	for (i = 0; i < j->nr_frags; i++)
		build_merge_config(&cfg, j->frag_text[i]);
	if (write_file_atomic(in, cfg.buf, cfg.len) < 0) {
		error("cannot write %s: %s", in, strerror(errno));
		goto out;
	}
	rc = run_in_slot(j, cp, env, NULL, in);
	if (rc) {
		if (rc > 0 && !j->timed_out)
			strbuf_addstr(&j->refused, "O/.config: the merged config could not be put in place");
		ret = rc < 0 && !j->timed_out ? -1 : 1;
		goto out;
	}
	targets[0] = "olddefconfig";
	if (run_make(j, targets, 0, NULL)) {
		error("make olddefconfig failed (see %s)", j->r->log);
		goto out;
	}
	rc = read_dot_config(j, &cfg, "make olddefconfig left no .config");
	if (rc) {
		ret = rc;
		goto out;
	}
	ret = 0;
	for (i = 0; i < j->nr_frags; i++)
		if (build_check_config(cfg.buf, j->frag_text[i],
				       j->frag_names[i]) < 0)
			ret = -1;
	if (!ret && j->o->dry_run)
		j->r->config_text = strbuf_detach(&cfg, NULL);
out:
	strbuf_release(&cfg);
	free(dot);
	free(in);
	return ret;
}

/* A file of the bot's own (an artifact), streamed: a log may be long. */
static int copy_file(const char *from, const char *to)
{
	int fd = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0)
		return error("cannot read %s: %s", from, strerror(errno));
	ret = write_file_atomic_fd(to, fd);
	if (ret < 0)
		error("cannot write %s: %s", to, strerror(errno));
	close(fd);
	return ret;
}

/*
 * The digest of the vmlinux this build just linked (vmlinux.h), taken
 * while the build's sandbox is gone and the slot still locked, kept
 * as "digest" next to the bzImage: empty when the build left no
 * vmlinux to read, or one the bot will not read (a link, too large,
 * not an ELF64 of EM_X86_64, sections outside the file or sharing
 * bytes: vmlinux.h): the binaries are then not compared, the kernels
 * measured, never skipped.  The build wrote that vmlinux, so the
 * digest says what the build claims, not what the bzImage holds
 * (contrib/security.md, "What the sandbox does not protect"); but it is
 * never read again from an O= directory that later builds may have
 * written.
 */
static int store_digest(struct job *j, const char *dir)
{
	char *to = xasprintf("%s/digest", dir);
	struct strbuf why = STRBUF_INIT;
	Elf64_Ehdr eh;
	char *d = NULL;
	int fd, ret;

	fd = slot_open(j->objfd, "vmlinux", "O/vmlinux", BUILD_MAX_VMLINUX,
		       &why);
	/* a tree whose make links no vmlinux (not a kernel) has none */
	if (fd < 0 && errno != ENOENT)
		warning("%s: no digest taken", why.buf);
	if (fd >= 0 && (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
			memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
			eh.e_ident[EI_CLASS] != ELFCLASS64 ||
			eh.e_machine != j->arch->elf_machine))
		warning("O/vmlinux: not an ELF64 %s file: no digest taken",
			j->arch->elf_name);
	else if (fd >= 0)
		d = vmlinux_digest_fd(fd, "O/vmlinux", &why);
	if (fd >= 0 && !d && why.len)
		warning("%s: no digest taken, could not compare binaries",
			why.buf);
	if (fd >= 0)
		close(fd);
	ret = write_file_atomic(to, d ? d : "", d ? strlen(d) : 0);
	if (ret < 0)
		error("cannot write %s: %s", to, strerror(errno));
	strbuf_release(&why);
	free(d);
	free(to);
	return ret;
}

static size_t max_log(void)
{
	long long m = bd()->max_log;

	return m > 0 ? (size_t)m : 0;
}

/* write_file_atomic_with()'s fill: at most max bytes of fd, else EFBIG. */
struct bounded_copy {
	int fd;
	size_t max;
};

static int fill_bounded(int out, void *data)
{
	struct bounded_copy *c = data;
	size_t done = 0;
	char buf[65536];

	for (;;) {
		ssize_t n = read(c->fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		done += (size_t)n;
		if (c->max && done > c->max) {
			errno = EFBIG;
			return -1;
		}
		if (write_in_full(out, buf, (size_t)n) < 0)
			return -1;
	}
}

/*
 * Copy a finished build from its O= dir into the artifact directory,
 * each file read through the door and streamed (a log may be
 * build.maxLog long), never read whole.  Returns 0, 1 when the build's
 * output was refused (j->refused) or -1.
 */
static int store_artifacts(struct job *j)
{
	char *tmp = xasprintf("%s.tmp.%d", j->art, (int)getpid());
	char *image_name = xasprintf("O/%s", j->arch->image_path);
	const struct {
		int slot;		/* 1: the slot's own, else O= */
		const char *rel, *name, *to;
		size_t max;
	} files[] = {
		{ 0, j->arch->image_path, image_name, j->arch->image,
		  BUILD_MAX_KERNEL },
		{ 0, ".config", "O/.config", "config", BUILD_MAX_CONFIG },
		{ 1, "build.log", "build.log", "build.log", 0 },
	};
	int ret = 0;
	size_t i;

	remove_tree(tmp);
	if (mkdir_p(tmp, 0755) < 0) {
		free(tmp);
		free(image_name);
		return error("cannot create %s: %s", j->art, strerror(errno));
	}
	for (i = 0; !ret && i < ARRAY_SIZE(files); i++) {
		struct bounded_copy c = {
			.max = files[i].slot ? max_log() : files[i].max,
		};
		unsigned char hdr[ARCH_IMAGE_HEAD];
		const char *why;
		char *to;

		c.fd = slot_open(files[i].slot ? j->slotfd : j->objfd,
				 files[i].rel, files[i].name, c.max,
				 files[i].slot ? NULL : &j->refused);
		if (c.fd < 0) {
			ret = files[i].slot ? -1 : 1;
			break;
		}
		if (!i && (pread(c.fd, hdr, sizeof(hdr), 0) != sizeof(hdr) ||
			   !arch_image_ok(j->arch, hdr, sizeof(hdr), &why))) {
			strbuf_addf(&j->refused, "%s: not %s %s (%s)",
				    files[i].name,
				    j->arch->image[0] == 'I' ? "an" : "a",
				    j->arch->image, why);
			close(c.fd);
			ret = 1;
			break;
		}
		to = xasprintf("%s/%s", tmp, files[i].to);
		if (write_file_atomic_with(to, fill_bounded, &c) < 0) {
			if (errno == EFBIG && !files[i].slot) {
				strbuf_addf(&j->refused, "%s: grew while read",
					    files[i].name);
				ret = 1;
			} else {
				ret = error("cannot write %s: %s", to,
					    strerror(errno));
			}
		}
		close(c.fd);
		free(to);
	}
	if (!ret) {
		char *rel = xasprintf("%s/release", tmp);

		ret = write_file_atomic(rel, j->r->release,
					strlen(j->r->release));
		free(rel);
	}
	if (!ret)
		ret = store_digest(j, tmp);
	if (!ret) {
		remove_tree(j->art);
		if (rename(tmp, j->art) < 0)
			ret = error("cannot rename %s: %s", tmp,
				    strerror(errno));
	}
	if (ret)
		remove_tree(tmp);
	free(tmp);
	free(image_name);
	return ret;
}

static void set_paths_from_art(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	char *rel = xasprintf("%s/release", j->art);
	char *dig;

	j->r->kernel = xasprintf("%s/%s", j->art, j->arch->image);
	j->r->config = xasprintf("%s/config", j->art);
	free(j->r->log);
	j->r->log = xasprintf("%s/build.log", j->art);
	free(j->r->digest);
	j->r->digest = NULL;
	dig = xasprintf("%s/digest", j->art);
	if (strbuf_read_file(&sb, dig) >= 0) {
		strbuf_trim(&sb);
		if (sb.len == GIT_OID_HEXSZ)
			j->r->digest = xstrdup(sb.buf);
	}
	strbuf_reset(&sb);
	free(dig);
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
	const char *const names[] = { j->arch->image, "config", "build.log" };
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
		j->r->kernel = xasprintf("%s/%s", j->o->outdir,
					  j->arch->image);
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
	char *waiting = xasprintf("waiting for another build in %s", j->slot);
	int fd = lock_file(path, waiting, 0);

	free(waiting);
	free(path);
	return fd;
}

/*
 * What of the build's output was not kept (j->cut), said once its make
 * steps are done: the log says it where it was cut, this says it to
 * whoever runs the bot (the job's log).
 */
static void say_cut(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;

	if (j->cut.full) {
		strbuf_add_size(&sb, max_log());
		warning("build output cut at %s (build.maxLog, all make steps together): %llu bytes more not kept",
			sb.buf, j->cut.dropped);
	}
	if (j->cut.lines) {
		strbuf_reset(&sb);
		strbuf_add_size(&sb, BUILD_MAX_LINE);
		warning("build output: %llu line(s) cut at %s",
			j->cut.lines, sb.buf);
	}
	strbuf_release(&sb);
}

/*
 * The log is the build's own output and is copied into job directories
 * and next to artifacts: no configured secret stays in it.  Streamed
 * (secret_write_fd()), never read whole: it may be build.maxLog long.
 */
static void scrub_log(struct job *j, const char *path)
{
	/* the slot's own file, read (and replaced) through no link */
	int fd = slot_open(j->slotfd, "build.log", "build.log", max_log(),
			   NULL);

	say_cut(j);
	if (fd < 0)
		return;
	if (secret_write_fd(path, fd) < 0)
		error("cannot write %s: %s", path, strerror(errno));
	close(fd);
}

/*
 * The build left in O= what the bot refused to read (a link, a FIFO, a
 * file past its bound): nothing of it may meet the next build in the
 * slot, which would trip over it (make writing through the link,
 * blocking on the FIFO).  The build's processes are gone, so nothing
 * changes O= while it is removed; remove_tree() follows no link.
 */
static void empty_objdir(struct job *j)
{
	if (remove_tree(j->objdir) < 0 || mkdir_p(j->objdir, 0755) < 0)
		error("cannot empty %s: %s", j->objdir, strerror(errno));
}

/* A piece of the log scan_log() reads at a time: many of its lines. */
#define LOG_PIECE ((size_t)1 << 20)

/*
 * The slot's build.log a piece at a time, whole lines (its lines are at
 * most BUILD_MAX_LINE), never all of it at once: the first max
 * compiler errors to errors (build_first_errors(), *nr of them), and
 * whether make said it ran out of space (1).
 */
static int scan_log(struct job *j, struct strbuf *errors, int max, int *nr)
{
	static const char enospc[] = "No space left on device";
	struct strbuf sb = STRBUF_INIT;
	int fd, full = 0;

	fd = slot_open(j->slotfd, "build.log", "build.log", max_log(), NULL);
	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n;
		size_t len;
		char *nl;

		strbuf_grow(&sb, LOG_PIECE - sb.len);
		n = read(fd, sb.buf + sb.len, LOG_PIECE - sb.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			strbuf_setlen(&sb, sb.len + (size_t)n);
		nl = memrchr(sb.buf, '\n', sb.len);
		/* the last line, or one longer than a piece: as it is */
		len = n <= 0 || (!nl && sb.len == LOG_PIECE) ? sb.len :
		      nl ? (size_t)(nl - sb.buf) + 1 : 0;
		if (memmem(sb.buf, len, enospc, sizeof(enospc) - 1))
			full = 1;
		if (*nr < max)
			*nr += build_first_errors(sb.buf, len, max - *nr,
						  j->srcdir, errors);
		memmove(sb.buf, sb.buf + len, sb.len - len);
		strbuf_setlen(&sb, sb.len - len);
		if (n <= 0)
			break;
	}
	close(fd);
	strbuf_release(&sb);
	return full;
}

/*
 * A make that failed on a full disk: its log says so ("No space left on
 * device", strerror(ENOSPC), which make, the compiler and the linker
 * print: scan_log()) and the slot's file system is still short of
 * space: below gc.minFree, or BUILD_FULL_FLOOR when that is unset (the
 * compiler and the linker remove the file they were writing, so it is
 * seldom quite empty).  Either alone is not enough: a patch's Makefile
 * may print anything, and a build may fail for its own reasons on a
 * busy disk.  A build past build.maxDisk is stopped by the sandbox
 * (j->refused) and stays the patch's failure.
 */
static int out_of_space(struct job *j)
{
	long long avail, floor = bd()->min_free > 0 ? bd()->min_free :
				 BUILD_FULL_FLOOR;
	struct statvfs sv;

	if (fstatvfs(j->objfd, &sv))
		return 0;
	avail = (long long)sv.f_bavail * (long long)sv.f_frsize;
	if (avail >= floor)
		return 0;
	error("the build of %s ran out of space in %s (%lld bytes free): the machine's failure, not the patch's",
	      j->r->source_id,
	      j->objdir, avail);
	return 1;
}

/*
 * The build failed (or ran out of time): r->errors is what may go into
 * mail about it.  Returns 1, build_kernel()'s "the kernel did not
 * build"; or -1 when it failed on a full disk (out_of_space()), noted
 * for the job (disk_full_note()), which stops as on any full disk: no
 * report, run again once there is space.  O= is emptied then: what the
 * build left is half written, and its space is what the retry needs.
 */
static int build_failed(struct job *j)
{
	struct build_result *r = j->r;
	struct strbuf errors = STRBUF_INIT, sb = STRBUF_INIT;
	int nr = 0;

	if (!j->stopped && !j->timed_out && !j->refused.len) {
		if (scan_log(j, &errors, 10, &nr) && out_of_space(j)) {
			disk_full_note(j->objdir, ENOSPC);
			empty_objdir(j);
			strbuf_release(&errors);
			return -1;
		}
	}
	r->failed = 1;
	if (j->stopped) {
		strbuf_addf(&sb, "the build %s and was stopped\n", j->stopped);
	} else if (j->timed_out) {
		strbuf_addf(&sb, "the build did not finish within build.timeout (%.0f s) and was stopped\n",
			    j->deadline - j->start);
	} else if (j->refused.len) {
		/* the bot's words, naming files of O= */
		strbuf_addf(&sb, "%s\n", j->refused.buf);
	} else if (nr) {
		strbuf_add(&sb, errors.buf, errors.len);
	} else {
		strbuf_addstr(&sb, "no compiler error in the log; "
			      "the build log says what stopped it\n");
	}
	secret_scrub(&sb);
	r->errors = strbuf_detach(&sb, NULL);
	strbuf_release(&errors);
	/* Keep the log where the next build will not overwrite it. */
	if (j->o->outdir)
		copy_out(j);
	return 1;
}

/* `make kernelrelease`, from the build: one plain word or nothing. */
static int clean_release(struct strbuf *out)
{
	size_t i;

	strbuf_trim(out);
	if (!out->len || out->len > 64)
		return 0;
	for (i = 0; i < out->len; i++)
		if (!isalnum((unsigned char)out->buf[i]) &&
		    !strchr("._+-", out->buf[i]))
			return 0;
	return 1;
}

/*
 * What is built: a tree's commit (its tree id names it, checked out in
 * the slot's src/ later) or a plain directory (a hash of its files'
 * names, sizes and mtimes), and the slot for it.  0, or -1 (said).
 */
static int open_source(struct job *j, git_repository **repo,
		       git_tree **tree)
{
	const struct build_opts *o = j->o;
	struct build_result *r = j->r;
	struct stat st;

	if (o->tree) {
		char hex[GIT_OID_HEXSZ + 1];

		if (open_tree(o->tree, o->rev ? o->rev : "HEAD", repo,
			      tree) < 0)
			return -1;
		git_oid_tostr(hex, sizeof(hex), git_tree_id(*tree));
		r->source_id = xstrdup(hex);
		if (setup_slot(j, o->tree) < 0)
			return -1;
		j->srcdir = xasprintf("%s/src", j->slot);
		return 0;
	}
	if (stat(o->src, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("%s is not a directory", o->src);
	j->srcdir = realpath(o->src, NULL);
	r->source_id = src_id(j->srcdir);
	if (!r->source_id || setup_slot(j, o->src) < 0)
		return -1;
	return 0;
}

/*
 * What this build may write, checked before it starts, under the
 * slot's lock: O= as the slot's last build left it (another series',
 * perhaps), and ccache when this build may write there.  A tree that
 * cannot be measured (a directory made unreadable) or that holds more
 * than build.maxDisk cannot be what one build left within its bound:
 * it is removed, and this build starts without it, at the cost of a
 * full build, never a failure of its own.  What stays is the base the
 * sandbox counts from (sandbox.h): only what this build adds is its.
 */
static int check_writable(struct job *j)
{
	unsigned long long max = (unsigned long long)bd()->max_disk;
	const char *dirs[2] = { j->objdir, j->ccache_rw ? j->ccache_dir :
				NULL };
	size_t i;

	j->disk_base = 0;
	if (!j->sandboxed || bd()->max_disk <= 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct disk_use u = { 0 };

		if (!dirs[i])
			continue;
		disk_use_at(AT_FDCWD, dirs[i], &u);
		if (!u.unknown && u.bytes <= max) {
			j->disk_base += u.bytes;
			continue;
		}
		if (u.unknown)
			warning("%s holds what cannot be measured: emptied, the build starts without it",
				dirs[i]);
		else
			warning("%s holds %llu bytes, more than build.maxDisk (%llu): emptied, the build starts without it",
				dirs[i], u.bytes, max);
		if (remove_tree(dirs[i]) < 0 || mkdir_p(dirs[i], 0755) < 0)
			return error("cannot empty %s: %s", dirs[i],
				     strerror(errno));
		memset(&u, 0, sizeof(u));
		disk_use_at(AT_FDCWD, dirs[i], &u);
		j->disk_base += u.bytes;
	}
	return 0;
}

static int do_build(struct job *j)
{
	struct build_result *r = j->r;
	git_repository *repo = NULL;
	git_tree *tree = NULL;
	struct strbuf out = STRBUF_INIT;
	const char *targets[2] = { j->arch->image, NULL };
	const char *kr[2] = { "kernelrelease", NULL };
	char *logpath;
	int lock = -1, ret = -1, rc;

	if (config_inputs(j) < 0)
		return -1;
	if (open_source(j, &repo, &tree) < 0)
		goto out;
	r->objdir = xstrdup(j->objdir);
	j->art = xasprintf("%s/art-%.16s-%s", j->cache_dir, r->source_id,
			   r->config_hash);
	/* an artifact from before digests were kept is built again */
	logpath = xasprintf("%s/digest", j->art);
	if (!access(logpath, R_OK)) {
		free(logpath);
		r->cached = 1;
		set_paths_from_art(j);
		info("cached build %s", j->art);
		ret = 0;
		/* built already: the config it was built with */
		if (j->o->dry_run) {
			struct strbuf sb = STRBUF_INIT;

			if (strbuf_read_file(&sb, r->config) < 0)
				ret = error("cannot read %s: %s", r->config,
					    strerror(errno));
			r->config_text = strbuf_detach(&sb, NULL);
		}
		goto out;
	}
	free(logpath);
	lock = lock_slot(j);
	if (lock < 0)
		goto out;
	if (check_writable(j) < 0)
		goto out;
	j->slotfd = slot_dir_open(j->slot);
	j->objfd = slot_dir_open(j->objdir);
	if (j->slotfd < 0 || j->objfd < 0)
		goto out;
	if (tree && sync_tree(repo, tree, j->slot, j->srcdir) < 0)
		goto out;
	r->log = xasprintf("%s/build.log", j->slot);
	j->log_fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
			 O_CLOEXEC, 0644);
	if (j->log_fd < 0) {
		error("cannot write %s: %s", r->log, strerror(errno));
		goto out;
	}
	rc = make_config(j);
	if (rc) {
		scrub_log(j, r->log);
		if (rc > 0 || j->timed_out)
			ret = build_failed(j);
		if (j->refused.len)
			empty_objdir(j);
		goto out;
	}
	if (j->o->dry_run) {
		scrub_log(j, r->log);
		ret = 0;
		goto out;
	}
	info("building %s (%s) in %s with -j%d", r->source_id,
	     r->config_hash, j->objdir, j->jobs);
	rc = run_make(j, targets, 0, NULL);
	scrub_log(j, r->log);
	if (rc) {
		ret = rc < 0 && !j->timed_out ? -1 : build_failed(j);
		goto out;
	}
	if (run_make(j, kr, 1, &out)) {
		if (j->timed_out)
			ret = build_failed(j);
		else
			error("make kernelrelease failed");
		goto out;
	}
	if (!clean_release(&out)) {
		/* the build's answer: its failure, said in the bot's words */
		strbuf_addf(&j->refused, "make kernelrelease printed no usable release (%llu bytes; one word of at most 64 characters expected)",
			    j->answer_bytes);
		ret = build_failed(j);
		goto out;
	}
	r->release = strbuf_detach(&out, NULL);
	rc = store_artifacts(j);
	if (rc) {
		if (rc > 0)
			ret = build_failed(j);
		if (j->refused.len)
			empty_objdir(j);
		goto out;
	}
	set_paths_from_art(j);
	ret = 0;
out:
	if (j->log_fd >= 0)
		close(j->log_fd);
	j->log_fd = -1;
	if (j->objfd >= 0)
		close(j->objfd);
	if (j->slotfd >= 0)
		close(j->slotfd);
	j->objfd = j->slotfd = -1;
	if (lock >= 0)
		close(lock);
	git_tree_free(tree);
	git_repository_free(repo);
	strbuf_release(&out);
	return ret;
}

static int absolute(char **path)
{
	char *real = realpath(*path, NULL);

	if (!real)
		return error("%s: %s", *path, strerror(errno));
	free(*path);
	*path = real;
	return 0;
}

/*
 * The sandbox, ccache and time limit of this build.  ccache's directory
 * is the bot's own (CCACHE_DIR, build.ccacheDir, or ccache/ in the build
 * cache), never the user's personal one: untrusted builds write to it.
 */
static int setup_build(struct job *j)
{
	const char *dir = getenv("CCACHE_DIR");
	long timeout = bd()->timeout;

	j->sandboxed = bd()->sandbox;
	/* unconfined, it could write anywhere anyway */
	j->ccache_rw = j->o->trusted || !j->sandboxed;
	if (!j->sandboxed && !geteuid())
		return error("refusing to build as root without the sandbox (build.sandbox = false): untrusted code would run as root");
	if (!j->sandboxed)
		warning("build.sandbox = false: the build runs unconfined, as %s",
			getenv("USER") ? getenv("USER") : "this user");
	if (timeout > 0)
		j->deadline = j->start + timeout;
	if (!(bd()->ccache < 0 ? subproc_have("ccache") : bd()->ccache))
		return 0;
	if (!dir || !*dir)
		dir = bd()->ccache_dir;
	j->ccache_dir = dir && *dir ? xstrdup(dir) :
			xasprintf("%s/ccache", j->cache_dir);
	if (mkdir_p(j->ccache_dir, 0755) < 0)
		return error("cannot create %s: %s", j->ccache_dir,
			     strerror(errno));
	return absolute(&j->ccache_dir);
}

/*
 * What the final config changes of a base config file (the machine's
 * own, for one): r->changes.  A make target's config is made from
 * scratch, so nothing of it is "changed".  0, or -1 (said).
 */
static int config_changes(struct job *j)
{
	struct strbuf base = STRBUF_INIT, cfg = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *text = j->r->config_text;
	int ret = 0;

	if (j->base_is_target)
		return 0;
	if (strbuf_read_file(&base, j->base) < 0) {
		ret = error("cannot read %s: %s", j->base, strerror(errno));
	} else if (!text && strbuf_read_file(&cfg, j->r->config) < 0) {
		ret = error("cannot read %s: %s", j->r->config,
			    strerror(errno));
	} else {
		struct strbuf merged = STRBUF_INIT;
		size_t i;

		/* what the fragments change, apart from what follows */
		strbuf_addstr(&merged, base.buf);
		for (i = 0; i < j->nr_frags; i++)
			build_merge_config(&merged, j->frag_text[i]);
		build_config_changes_by(base.buf, merged.buf,
					text ? text : cfg.buf, &out);
		j->r->changes = strbuf_detach(&out, NULL);
		strbuf_release(&merged);
	}
	strbuf_release(&base);
	strbuf_release(&cfg);
	return ret;
}

int build_kernel(const struct build_opts *o, struct build_result *r)
{
	struct job j = { .o = o, .r = r, .log_fd = -1, .objfd = -1,
			 .slotfd = -1, .frags = STRBUF_INIT,
			 .refused = STRBUF_INIT };
	const char *dir;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!o->src == !o->tree)
		return error("give either a source directory or a tree");
	j.arch = o->arch ? o->arch : &arch_table[0];
	j.cross = arch_cross(j.arch);
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
	/* absolute: the sandbox binds these paths as they are */
	ret = absolute(&j.cache_dir);
	if (ret >= 0)
		ret = setup_build(&j);
	if (ret < 0)
		goto out;
	ret = do_build(&j);
	if (ret == 0 && o->outdir && !o->dry_run && copy_out(&j) < 0)
		ret = -1;
	if (ret == 0 && config_changes(&j) < 0)
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
	strbuf_release(&j.refused);
	free(j.cache_dir);
	free(j.ccache_dir);
	free(j.stopped);
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
	free(r->digest);
	free(r->changes);
	free(r->config_text);
	memset(r, 0, sizeof(*r));
}
