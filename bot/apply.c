// SPDX-License-Identifier: GPL-2.0
/*
 * apply.c - a series onto the kernel tree as commits, in the object
 * database only (see apply.h).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <zlib.h>

#include "apply.h"
#include "mbox.h"
#include "trailer.h"
#include "tree.h"
#include "util.h"

/* A failure's reason or hint, replacing what it said before. */
static void set_text(char **text, const char *fmt, ...) PRINTF(2, 3);
static void set_text(char **text, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(*text);
	*text = strbuf_detach(&sb, NULL);
}
#define set_reason(f, ...) set_text(&(f)->reason, __VA_ARGS__)
#define set_hint(f, ...) set_text(&(f)->hint, __VA_ARGS__)

static void set_file(struct apply_failure *f, const char *path)
{
	free(f->file);
	f->file = path ? xstrdup(path) : NULL;
}

/* libgit2's object cache while applying, bytes as it counts them */
#define APPLY_CACHE_MAX (8 << 20)

static struct apply_limits limits = {
	.max_files = 5000,
	.max_patch_size = 64LL << 20,
	.max_blob_size = 128LL << 20,
	.max_patches = 1000,
	.max_series_size = 64LL << 20,
};

static struct apply_defaults defaults;
static int configured;

void apply_configure(const struct apply_defaults *d)
{
	defaults = *d;
	limits = d->limits;
	configured = 1;
}

/* Unconfigured, a commit would come from no one, on no known base. */
static const struct apply_defaults *ad(void)
{
	if (!configured)
		die("BUG: apply used before apply_configure()");
	return &defaults;
}

/*
 * git's next_hfs_char(): the next code point of a UTF-8 path, with the
 * ones HFS+ ignores skipped; 0 at the end or at bytes that are not
 * UTF-8 (which then cannot spell ".git").
 */
static unsigned int next_hfs_char(const unsigned char **p)
{
	for (;;) {
		const unsigned char *s = *p;
		unsigned int c;

		if (!*s)
			return 0;
		if (*s < 0x80) {
			c = *s;
			*p += 1;
		} else if ((s[0] & 0xe0) == 0xc0 && (s[1] & 0xc0) == 0x80) {
			c = ((s[0] & 0x1f) << 6) | (s[1] & 0x3f);
			*p += 2;
		} else if ((s[0] & 0xf0) == 0xe0 && (s[1] & 0xc0) == 0x80 &&
			   (s[2] & 0xc0) == 0x80) {
			c = ((s[0] & 0x0f) << 12) | ((s[1] & 0x3f) << 6) |
			    (s[2] & 0x3f);
			*p += 3;
		} else if ((s[0] & 0xf8) == 0xf0 && (s[1] & 0xc0) == 0x80 &&
			   (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80) {
			c = ((s[0] & 0x07) << 18) | ((s[1] & 0x3f) << 12) |
			    ((s[2] & 0x3f) << 6) | (s[3] & 0x3f);
			*p += 4;
		} else {
			return 0;
		}
		switch (c) {
		case 0x200c: case 0x200d: case 0x200e: case 0x200f:
		case 0x202a: case 0x202b: case 0x202c: case 0x202d:
		case 0x202e: case 0x206a: case 0x206b: case 0x206c:
		case 0x206d: case 0x206e: case 0x206f: case 0xfeff:
			continue;	/* HFS+ drops these */
		}
		return c;
	}
}

/* git's is_hfs_dot_generic(): "." + needle, as HFS+ compares names. */
static int is_hfs_dot(const char *component, const char *needle)
{
	const unsigned char *p = (const unsigned char *)component;
	unsigned int c = next_hfs_char(&p);

	if (c != '.')
		return 0;
	for (; *needle; needle++) {
		c = next_hfs_char(&p);
		if (c > 127 || tolower(c) != *needle)
			return 0;
	}
	c = next_hfs_char(&p);
	return !c || c == '/';
}

/* Only spaces and dots up to the component's end (or an NTFS stream). */
static int ntfs_tail(const char *s)
{
	for (;; s++) {
		if (!*s || *s == '/' || *s == ':')
			return 1;
		if (*s != ' ' && *s != '.')
			return 0;
	}
}

/* git's is_ntfs_dotgit(): ".git", "git~1", trailing dots and spaces. */
static int is_ntfs_dotgit(const char *c)
{
	if (!strncasecmp(c, ".git", 4))
		return ntfs_tail(c + 4);
	if (!strncasecmp(c, "git~1", 5))
		return ntfs_tail(c + 5);
	return 0;
}

/*
 * git's is_ntfs_dot_generic(): "."+name, its 6-letter short form "~1"
 * to "~4", or the hashed short name (prefix, ~, digits), all with
 * trailing dots and spaces.
 */
static int is_ntfs_dot(const char *c, const char *name, const char *prefix)
{
	size_t len = strlen(name), i;
	int saw_tilde = 0;

	if (c[0] == '.' && !strncasecmp(c + 1, name, len))
		return ntfs_tail(c + 1 + len);
	if (!strncasecmp(c, name, 6) && c[6] == '~' && c[7] >= '1' &&
	    c[7] <= '4')
		return ntfs_tail(c + 8);
	for (i = 0; i < 8; i++) {
		if (!c[i] || c[i] == '/') {
			return 0;
		} else if (saw_tilde) {
			if (c[i] < '0' || c[i] > '9')
				return 0;
		} else if (c[i] == '~') {
			if (c[++i] < '1' || c[i] > '9')
				return 0;
			saw_tilde = 1;
		} else if (i >= 6 || (c[i] & 0x80) ||
			   tolower((unsigned char)c[i]) != prefix[i]) {
			return 0;
		}
	}
	return ntfs_tail(c + 8);
}

/*
 * A path a patch may touch, as git's verify_path() with core.protectHFS
 * and core.protectNTFS sees it: relative, no "." or ".." component, no
 * empty component, no backslash, and nothing a filesystem could take
 * for .git (any case, HFS+-ignored code points, NTFS short names,
 * trailing dots and spaces, streams).  A .gitmodules in any such
 * spelling is refused too: the bot applies no submodule changes, and
 * its URLs reach ssh as options ("-oProxyCommand=...").
 */
static const char *bad_path(const char *path)
{
	const char *c = path;

	if (!path || !*path)
		return "empty path";
	if (*path == '/')
		return "absolute path";
	if (strchr(path, '\\'))
		return "backslash in path";
	while (*c) {
		size_t n = strcspn(c, "/");

		if (!n)
			return "empty path component";
		if ((n == 1 && c[0] == '.') || (n == 2 && !strncmp(c, "..", 2)))
			return "'..' or '.' component";
		if ((n == 4 && !strncasecmp(c, ".git", 4)) ||
		    is_hfs_dot(c, "git") || is_ntfs_dotgit(c))
			return "path inside .git";
		if (is_hfs_dot(c, "gitmodules") ||
		    is_ntfs_dot(c, "gitmodules", "gi7eba"))
			return ".gitmodules (submodule configuration)";
		c += n;
		if (*c == '/')
			c++;
	}
	return NULL;
}

/*
 * A symlink's target, resolved from the link's directory, must stay in
 * the tree: not absolute, never more ".." than directories above it,
 * and no component that is or could be .git.
 */
static const char *bad_link_target(const char *path, const char *target,
				   size_t len)
{
	const char *p = target, *end = target + len, *s;
	long depth = 0;

	for (s = path; (s = strchr(s, '/')); s++)
		depth++;
	if (!len || memchr(target, 0, len))
		return "a symbolic link with an empty or binary target";
	if (*target == '/')
		return "a symbolic link to an absolute path";
	while (p < end) {
		const char *slash = memchr(p, '/', end - p);
		size_t n = slash ? (size_t)(slash - p) : (size_t)(end - p);
		char *comp = xstrndup(p, n);
		int dotgit = is_hfs_dot(comp, "git") || is_ntfs_dotgit(comp);

		free(comp);
		if (dotgit)
			return "a symbolic link into .git";
		if (n == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return "a symbolic link that points outside the tree";
		} else if (n && !(n == 1 && *p == '.')) {
			depth++;
		}
		p += n + (slash != NULL);
	}
	return NULL;
}

/* Does a leading directory of path exist in tree as a symlink? */
static int through_symlink(git_tree *tree, const char *path)
{
	const char *slash = path;
	int ret = 0;

	while ((slash = strchr(slash, '/'))) {
		char *dir = xstrndup(path, slash - path);
		git_tree_entry *e;

		if (!git_tree_entry_bypath(&e, tree, dir)) {
			ret = git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
			git_tree_entry_free(e);
		}
		free(dir);
		if (ret)
			return 1;
		slash++;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The paths the diff makes symlinks, sorted; *nr of them. */
static const char **diff_links(git_diff *diff, size_t *nr)
{
	size_t i, n = git_diff_num_deltas(diff), alloc = 0;
	const char **links = NULL;

	*nr = 0;
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->new_file.mode == GIT_FILEMODE_LINK && d->new_file.path) {
			ALLOC_GROW(links, *nr, alloc);
			links[(*nr)++] = d->new_file.path;
		}
	}
	if (*nr)
		qsort(links, *nr, sizeof(*links), cmp_str);
	return links;
}

/*
 * Does the diff make a leading directory of path a symlink?  A binary
 * search per directory: linear in the files of a patch, not quadratic.
 */
static int symlink_in_diff(const char **links, size_t nr, const char *path)
{
	const char *slash;

	if (!nr || !path)
		return 0;
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(path, slash - path);
		int hit = bsearch(&dir, links, nr, sizeof(*links),
				  cmp_str) != NULL;

		free(dir);
		if (hit)
			return 1;
	}
	return 0;
}

/*
 * zlib-inflate data, at most max bytes of output: the size is checked
 * while inflating, so a small patch cannot make a huge blob.  Returns the
 * inflated size, or -1 past max or on broken data; *head gets the first
 * bytes (a delta's header).
 */
static long long inflated_size(const char *data, size_t len, long long max,
			       unsigned char *head, size_t head_len)
{
	unsigned char buf[65536];
	z_stream z = { 0 };
	long long total = 0;
	int r;

	if (inflateInit(&z) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)data;
	z.avail_in = len;
	do {
		size_t got;

		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = inflate(&z, Z_NO_FLUSH);
		if (r != Z_OK && r != Z_STREAM_END)
			break;
		got = sizeof(buf) - z.avail_out;
		if (total < (long long)head_len)
			memcpy(head + total, buf, (size_t)(head_len - total) <
			       got ? (size_t)(head_len - total) : got);
		total += got;
		if (total > max)
			break;
	} while (r != Z_STREAM_END && (z.avail_in || !z.avail_out));
	inflateEnd(&z);
	return r == Z_STREAM_END && total <= max ? total : -1;
}

/* A git delta's header: source size, then result size (varints). */
static unsigned long long delta_result_size(const unsigned char *h, size_t n)
{
	unsigned long long v = 0;
	size_t i = 0;
	int k, shift;

	for (k = 0; k < 2; k++) {
		v = 0;
		shift = 0;
		while (i < n) {
			v |= (unsigned long long)(h[i] & 0x7f) << shift;
			shift += 7;
			if (!(h[i++] & 0x80) || shift > 63)
				break;
		}
	}
	return v;
}

/* Why a binary patch side may not be inflated, or NULL. */
static const char *bad_binary_file(const git_diff_binary_file *b)
{
	unsigned char head[20] = { 0 };
	long long max = limits.max_blob_size, got;

	if (b->type == GIT_DIFF_BINARY_NONE)
		return NULL;
	if (max > 0 && (long long)b->inflatedlen > max)
		return "a binary patch that inflates past apply.maxBlobSize";
	got = inflated_size(b->data, b->datalen,
			    max > 0 && (long long)b->inflatedlen > max ? max :
			    (long long)b->inflatedlen, head, sizeof(head));
	if (got < 0 || got != (long long)b->inflatedlen)
		return "a binary patch whose data does not inflate to its stated size";
	if (b->type == GIT_DIFF_BINARY_DELTA && max > 0 &&
	    delta_result_size(head, got < 20 ? got : 20) >
	    (unsigned long long)max)
		return "a binary delta whose result is bigger than apply.maxBlobSize";
	return NULL;
}

struct binary_check {
	const char *path;	/* first binary change without data */
	const char *bad;	/* first one that inflates too far */
	const char *why;
};

static int binary_cb(const git_diff_delta *delta,
		     const git_diff_binary *binary, void *payload)
{
	struct binary_check *bc = payload;

	const char *path = delta->new_file.path ? delta->new_file.path :
			   delta->old_file.path;

	if (!binary->contains_data && !bc->path)
		bc->path = path;
	if (binary->contains_data && !bc->bad) {
		bc->why = bad_binary_file(&binary->new_file);
		if (!bc->why)
			bc->why = bad_binary_file(&binary->old_file);
		if (bc->why)
			bc->bad = path;
	}
	return 0;
}

/* Refuse what must never be applied, before anything is written. */
static int check_diff(git_diff *diff, git_tree *tree, struct apply_failure *f)
{
	struct binary_check bc = { NULL };
	size_t i, n = git_diff_num_deltas(diff), nr_links;
	const char **links = diff_links(diff, &nr_links);
	int ret = -1;

	if (!n) {
		set_reason(f, "the patch contains no diff");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *paths[2] = { d->old_file.path, d->new_file.path };
		size_t k;

		for (k = 0; k < 2; k++) {
			const char *why = bad_path(paths[k]);

			if (why) {
				set_file(f, paths[k]);
				set_reason(f, "refusing to apply: %s", why);
				goto out;
			}
			if (through_symlink(tree, paths[k])) {
				set_file(f, paths[k]);
				set_reason(f, "refusing to apply: path goes through a symbolic link");
				goto out;
			}
		}
		if ((d->old_file.mode == GIT_FILEMODE_COMMIT ||
		     d->new_file.mode == GIT_FILEMODE_COMMIT)) {
			set_file(f, paths[1]);
			set_reason(f, "refusing to apply: submodule change");
			goto out;
		}
		if (symlink_in_diff(links, nr_links, d->new_file.path)) {
			set_file(f, d->new_file.path);
			set_reason(f, "refusing to apply: path goes through a symbolic link the patch creates");
			goto out;
		}
	}
	if (git_diff_foreach(diff, NULL, binary_cb, NULL, NULL, &bc) < 0) {
		set_reason(f, "cannot read the diff: %s", git_error_text());
		goto out;
	}
	if (bc.path) {
		set_file(f, bc.path);
		set_reason(f, "binary change without its data (no 'GIT binary patch' section): cannot apply");
		set_hint(f, "ask for the patch made with `git format-patch --binary`");
		goto out;
	}
	if (bc.bad) {
		set_file(f, bc.bad);
		set_reason(f, "refusing to apply: %s", bc.why);
		goto out;
	}
	ret = 0;
out:
	free(links);
	return ret;
}

/* Which delta and hunk libgit2 is working on when it fails. */
struct progress {
	const char *path;
	int hunk;
	char header[128];
};

static int delta_cb(const git_diff_delta *delta, void *payload)
{
	struct progress *pr = payload;

	pr->path = delta->new_file.path ? delta->new_file.path :
		delta->old_file.path;
	pr->hunk = 0;
	pr->header[0] = '\0';
	return 0;
}

static int hunk_cb(const git_diff_hunk *hunk, void *payload)
{
	struct progress *pr = payload;
	size_t n = hunk->header_len;

	pr->hunk++;
	while (n && isspace((unsigned char)hunk->header[n - 1]))
		n--;
	if (n >= sizeof(pr->header))
		n = sizeof(pr->header) - 1;
	memcpy(pr->header, hunk->header, n);
	pr->header[n] = '\0';
	return 0;
}

static int apply_strict(git_repository *repo, git_tree *tree, git_diff *diff,
			git_oid *out, struct progress *pr)
{
	git_apply_options opts;
	git_index *index = NULL;
	int ret;

	git_apply_options_init(&opts, GIT_APPLY_OPTIONS_VERSION);
	opts.delta_cb = delta_cb;
	opts.hunk_cb = hunk_cb;
	opts.payload = pr;
	ret = git_apply_to_tree(&index, repo, tree, diff, &opts);
	if (!ret)
		ret = git_index_write_tree_to(out, index, repo);
	git_index_free(index);
	return ret < 0 ? -1 : 0;
}

/*
 * The fake ancestor of `git am -3`: tree with every file the patch
 * modifies replaced by the pre-image blob its "index" line names, and
 * the files it creates removed.  Fails (with f->reason) when a blob is
 * not in the object database.
 */
static int fake_ancestor(git_repository *repo, git_tree *tree,
			 git_diff *diff, git_oid *out,
			 struct apply_failure *f)
{
	size_t i, nr = 0, n = git_diff_num_deltas(diff);
	git_tree_update *up = xcalloc(n ? n : 1, sizeof(*up));
	git_odb *odb = NULL;
	int ret = -1;

	if (git_repository_odb(&odb, repo) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		char hex[GIT_OID_HEXSZ + 1];
		git_tree_entry *e;

		if (d->status == GIT_DELTA_ADDED) {
			if (git_tree_entry_bypath(&e, tree,
						  d->new_file.path) < 0)
				continue;
			git_tree_entry_free(e);
			up[nr].action = GIT_TREE_UPDATE_REMOVE;
			up[nr++].path = d->new_file.path;
			continue;
		}
		git_oid_tostr(hex, sizeof(hex), &d->old_file.id);
		if (!d->old_file.id_abbrev ||
		    git_oid_is_zero(&d->old_file.id)) {
			set_reason(f, "impossible: the patch has no 'index' line for %s",
				   d->old_file.path);
			goto out;
		}
		if (git_odb_exists_prefix(&up[nr].id, odb, &d->old_file.id,
					  d->old_file.id_abbrev) < 0) {
			hex[d->old_file.id_abbrev < GIT_OID_HEXSZ ?
			    d->old_file.id_abbrev : GIT_OID_HEXSZ] = '\0';
			set_reason(f, "impossible: pre-image blob %s of %s is not in this tree's objects",
				   hex, d->old_file.path);
			goto out;
		}
		up[nr].action = GIT_TREE_UPDATE_UPSERT;
		up[nr].filemode = d->old_file.mode ? d->old_file.mode :
			GIT_FILEMODE_BLOB;
		up[nr++].path = d->old_file.path;
	}
	if (git_tree_create_updated(out, repo, tree, nr, up) < 0) {
		set_reason(f, "cannot build the ancestor: %s", git_error_text());
		goto out;
	}
	ret = 0;
out:
	git_odb_free(odb);
	free(up);
	return ret;
}

static int apply_3way(git_repository *repo, git_tree *ours, git_diff *diff,
		      git_oid *out, struct apply_failure *f)
{
	git_tree *base = NULL, *theirs = NULL;
	git_index *merged = NULL;
	struct progress pr = { 0 };
	git_oid base_oid, theirs_oid;
	int ret = -1;

	if (fake_ancestor(repo, ours, diff, &base_oid, f) < 0)
		return -1;
	if (git_tree_lookup(&base, repo, &base_oid) < 0 ||
	    apply_strict(repo, base, diff, &theirs_oid, &pr) < 0 ||
	    git_tree_lookup(&theirs, repo, &theirs_oid) < 0) {
		set_reason(f, "the patch does not apply to its own pre-image: %s",
			   git_error_text());
		goto out;
	}
	if (git_merge_trees(&merged, repo, base, ours, theirs, NULL) < 0) {
		set_reason(f, "failed: %s", git_error_text());
		goto out;
	}
	if (git_index_has_conflicts(merged)) {
		struct strbuf sb = STRBUF_INIT;
		git_index_conflict_iterator *it;
		const git_index_entry *a, *o, *t;

		if (!git_index_conflict_iterator_new(&it, merged)) {
			while (!git_index_conflict_next(&a, &o, &t, it)) {
				const git_index_entry *e = o ? o : t ? t : a;

				strbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
					    e->path);
			}
			git_index_conflict_iterator_free(it);
		}
		set_reason(f, "conflicts in %s", sb.buf);
		strbuf_release(&sb);
		goto out;
	}
	if (git_index_write_tree_to(out, merged, repo) < 0) {
		set_reason(f, "%s", git_error_text());
		goto out;
	}
	ret = 0;
out:
	git_index_free(merged);
	git_tree_free(theirs);
	git_tree_free(base);
	return ret;
}

/*
 * Offsets.  libgit2 1.5 applies a hunk only at the line its header
 * names (in the partly patched file); `git apply` also looks nearby, in
 * the order exact, +1, -1, +2, -2, ..., for the same context and
 * removed lines (no fuzz).  We do that search on the original blob and
 * rewrite the hunk headers, then let libgit2 apply the rewritten diff:
 * it still checks every line, so a wrong guess fails, never misapplies.
 */
struct lines {
	const char **ptr;
	size_t *len;
	size_t nr, alloc_p, alloc_l;
};

static void split_lines(struct lines *l, const char *buf, size_t size)
{
	const char *p = buf, *end = buf + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ALLOC_GROW(l->ptr, l->nr, l->alloc_p);
		ALLOC_GROW(l->len, l->nr, l->alloc_l);
		l->ptr[l->nr] = p;
		l->len[l->nr++] = n;
		p += n + 1;
	}
}

static void lines_release(struct lines *l)
{
	free(l->ptr);
	free(l->len);
	memset(l, 0, sizeof(*l));
}

static int match_at(const struct lines *file, const struct lines *pre,
		    size_t pos)
{
	size_t i;

	if (pos + pre->nr > file->nr)
		return 0;
	for (i = 0; i < pre->nr; i++)
		if (file->len[pos + i] != pre->len[i] ||
		    memcmp(file->ptr[pos + i], pre->ptr[i], pre->len[i]))
			return 0;
	return 1;
}

/* git apply's find_pos(): nearest match to line, forward first. */
static long find_pos(const struct lines *file, const struct lines *pre,
		     size_t line, size_t min)
{
	size_t fwd = line, back = line, i;

	if (line > file->nr)
		fwd = back = line = file->nr;
	if (line >= min && match_at(file, pre, line))
		return line;
	for (i = 0; ; i++) {
		if (back <= min && fwd >= file->nr)
			return -1;
		if (i & 1) {
			if (back <= min)
				continue;
			if (match_at(file, pre, --back))
				return back;
		} else {
			if (fwd >= file->nr)
				continue;
			if (match_at(file, pre, ++fwd))
				return fwd;
		}
	}
}

static int load_blob_lines(git_repository *repo, git_tree *tree,
			   const char *path, git_blob **blob,
			   struct lines *l)
{
	git_tree_entry *e;
	int ret;

	if (git_tree_entry_bypath(&e, tree, path) < 0)
		return -1;
	ret = git_blob_lookup(blob, repo, git_tree_entry_id(e));
	git_tree_entry_free(e);
	if (ret < 0)
		return -1;
	split_lines(l, git_blob_rawcontent(*blob), git_blob_rawsize(*blob));
	return 0;
}

/* "--- a/kernel/sched/fair.c" -> "kernel/sched/fair.c" (NULL: none). */
static char *minus_path(const char *line, size_t len)
{
	const char *p = line + 4, *end = line + len, *slash;
	const char *tab = memchr(p, '\t', end - p);

	if (tab)
		end = tab;
	if (end - p == 9 && !strncmp(p, "/dev/null", 9))
		return NULL;
	if (*p == '"')
		return NULL;	/* quoted: leave it to libgit2 */
	slash = memchr(p, '/', end - p);
	if (slash)
		p = slash + 1;
	return xstrndup(p, end - p);
}

struct offsets {
	git_repository *repo;
	git_tree *tree;
	char *path;		/* the file hunks apply to, or NULL */
	git_blob *blob;
	struct lines file;
	size_t min;		/* hunks do not overlap: search from here */
	int changed;
};

static void offsets_file(struct offsets *o, char *path)
{
	git_blob_free(o->blob);
	o->blob = NULL;
	lines_release(&o->file);
	free(o->path);
	o->path = path;
	o->min = 0;
	if (path && load_blob_lines(o->repo, o->tree, path, &o->blob,
				    &o->file) < 0) {
		free(o->path);
		o->path = NULL;
	}
}

/*
 * One hunk at text[*i] (a "@@ -a,b +c,d @@" line of lines in t): append
 * it to out with its header moved to where its pre-image really is.
 */
static void offsets_hunk(struct offsets *o, const struct lines *t, size_t *i,
			 struct strbuf *out)
{
	/*
	 * sscanf() takes strlen() of what it reads: on the line itself,
	 * not on the rest of the patch (quadratic in its hunks).
	 */
	char line[256];
	const char *h = line;
	unsigned long a, b = 1, c, d = 1;
	struct lines pre = { 0 };
	size_t j;
	long ob, nb, pos;
	int n = 0;

	if (t->len[*i] >= sizeof(line))
		goto verbatim;
	memcpy(line, t->ptr[*i], t->len[*i]);
	line[t->len[*i]] = '\0';

	if (sscanf(h, "@@ -%lu%n", &a, &n) < 1)
		goto verbatim;
	h += n;
	if (*h == ',' && sscanf(h, ",%lu%n", &b, &n) == 1)
		h += n;
	if (sscanf(h, " +%lu%n", &c, &n) < 1)
		goto verbatim;
	h += n;
	if (*h == ',' && sscanf(h, ",%lu%n", &d, &n) == 1)
		h += n;
	if (strncmp(h, " @@", 3))
		goto verbatim;
	h += 3;
	ob = b;
	nb = d;
	for (j = *i + 1; j < t->nr && (ob > 0 || nb > 0); j++) {
		char ch = t->len[j] ? t->ptr[j][0] : ' ';

		if (ch == ' ' || ch == '-') {
			ALLOC_GROW(pre.ptr, pre.nr, pre.alloc_p);
			ALLOC_GROW(pre.len, pre.nr, pre.alloc_l);
			pre.ptr[pre.nr] = t->len[j] ? t->ptr[j] + 1 : t->ptr[j];
			pre.len[pre.nr++] = t->len[j] ? t->len[j] - 1 : 0;
			ob--;
		}
		if (ch == ' ' || ch == '+')
			nb--;
		if (ch != ' ' && ch != '-' && ch != '+' && ch != '\\')
			break;
	}
	if (!o->path || !b || !a || !pre.nr)
		goto verbatim;
	pos = find_pos(&o->file, &pre, a - 1, o->min);
	if (pos < 0)
		goto verbatim;
	o->min = pos + pre.nr;
	if ((unsigned long)pos != a - 1) {
		long off = pos - (long)(a - 1);

		o->changed = 1;
		info("%s: hunk at line %lu applies at %ld (offset %+ld)",
		     o->path, a, pos + 1, off);
		strbuf_addf(out, "@@ -%lu,%lu +%ld,%lu @@", a + off, b,
			    (long)c + off, d);
		strbuf_add(out, t->ptr[*i] + (h - line),
			   t->len[*i] - (h - line));
		strbuf_addch(out, '\n');
		(*i)++;
		lines_release(&pre);
		return;
	}
verbatim:
	lines_release(&pre);
	strbuf_add(out, t->ptr[*i], t->len[*i]);
	strbuf_addch(out, '\n');
	(*i)++;
}

/* The diff with hunk headers moved to their context; NULL: no change. */
static char *fix_offsets(git_repository *repo, git_tree *tree,
			 const char *text)
{
	struct offsets o = { .repo = repo, .tree = tree };
	struct strbuf out = STRBUF_INIT;
	struct lines t = { 0 };
	int in_header = 0;
	size_t i = 0;

	split_lines(&t, text, strlen(text));
	while (i < t.nr) {
		const char *l = t.ptr[i];
		size_t n = t.len[i];

		if (n >= 11 && !strncmp(l, "diff --git ", 11)) {
			in_header = 1;
			offsets_file(&o, NULL);
		} else if (in_header && n > 4 && !strncmp(l, "--- ", 4)) {
			offsets_file(&o, minus_path(l, n));
		} else if (n > 4 && !strncmp(l, "@@ -", 4)) {
			in_header = 0;
			offsets_hunk(&o, &t, &i, &out);
			continue;
		}
		strbuf_add(&out, l, n);
		strbuf_addch(&out, '\n');
		i++;
	}
	offsets_file(&o, NULL);
	lines_release(&t);
	if (!o.changed) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

/*
 * An extended header line given twice for one file is malformed, and
 * libgit2 1.5 leaks memory parsing some of them (a second "rename
 * from"): refuse such a patch before libgit2 sees it.  Returns -1 with
 * the reason set when line i repeats a header of the current file.
 */
static int check_repeated_header(const struct lines *t, size_t i,
				 unsigned int *seen, struct apply_failure *f)
{
	static const char *const once[] = { "rename from ", "rename to ",
		"copy from ", "copy to ", "old mode ", "new mode ",
		"similarity index ", "dissimilarity index ", "index ",
		"new file mode ", "deleted file mode " };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(once); k++) {
		size_t kl = strlen(once[k]);

		if (t->len[i] <= kl || strncmp(t->ptr[i], once[k], kl))
			continue;
		if (*seen & (1u << k)) {
			set_reason(f, "malformed patch: '%.*s' given twice for one file",
				   (int)kl - 1, once[k]);
			return -1;
		}
		*seen |= 1u << k;
		return 0;
	}
	return 0;
}

/* Files and bytes over the limits are refused before libgit2 sees them. */
static int check_size(const char *text, struct apply_failure *f)
{
	size_t len = strlen(text);
	const char *p = text;
	long files = 0;

	if (limits.max_patch_size > 0 &&
	    (long long)len > limits.max_patch_size) {
		set_reason(f, "refusing to apply: the patch is %zu bytes, more than apply.maxPatchSize (%lld)",
			   len,
			   limits.max_patch_size);
		return -1;
	}
	if (limits.max_files <= 0)
		return 0;
	for (;;) {
		if (!strncmp(p, "diff --git ", 11) && ++files > limits.max_files) {
			set_reason(f, "refusing to apply: the patch changes more than %ld files (apply.maxFiles)",
				   limits.max_files);
			return -1;
		}
		p = strchr(p, '\n');
		if (!p++)
			break;
	}
	return 0;
}

/*
 * Paths as written in the mail, before libgit2 normalises them: a
 * "+++ b//etc/passwd" must be refused, not quietly made relative.
 * Repeated extended headers are refused here too.
 */
static int check_raw_paths(const char *text, struct apply_failure *f)
{
	static const char *const keys[] = { "--- ", "+++ ", "rename from ",
		"rename to ", "copy from ", "copy to " };
	struct lines t = { 0 };
	unsigned int seen = 0;
	size_t i, k;
	int ret = 0, in_header = 0;

	split_lines(&t, text, strlen(text));
	for (i = 0; i < t.nr && !ret; i++) {
		if (t.len[i] >= 11 && !strncmp(t.ptr[i], "diff --git ", 11)) {
			in_header = 1;
			seen = 0;
		} else if (t.len[i] > 4 && !strncmp(t.ptr[i], "@@ -", 4)) {
			in_header = 0;
		}
		if (!in_header)
			continue;
		if (check_repeated_header(&t, i, &seen, f) < 0) {
			ret = -1;
			break;
		}
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			size_t kl = strlen(keys[k]);
			char *path;
			const char *why;

			if (t.len[i] <= kl || strncmp(t.ptr[i], keys[k], kl))
				continue;
			if (k < 2) {
				path = minus_path(t.ptr[i], t.len[i]);
			} else {
				path = xstrndup(t.ptr[i] + kl, t.len[i] - kl);
				if (*path == '"') {
					free(path);
					path = NULL;
				}
			}
			why = path ? bad_path(path) : NULL;
			if (why) {
				set_file(f, path);
				set_reason(f, "refusing to apply: %s", why);
				ret = -1;
			}
			free(path);
			break;
		}
	}
	lines_release(&t);
	return ret;
}

/*
 * Small trees.  git_apply_to_tree() loads the whole base tree into an
 * index, 78,000 entries for a kernel, for every attempt.  So patches are
 * applied to a tree holding only the files the diff touches, and the
 * result is written back into the full tree with git_tree_create_updated
 * (which rewrites only the trees on those paths).
 */
struct touched {
	const char **paths;
	size_t nr, alloc;
};

static void touched_add(struct touched *t, const char *path)
{
	if (!path)
		return;
	ALLOC_GROW(t->paths, t->nr, t->alloc);
	t->paths[t->nr++] = path;
}

/* Every path the diff names, once: sorted, so linear in its files. */
static void touched_from_diff(struct touched *t, git_diff *diff)
{
	size_t i, k, n = git_diff_num_deltas(diff);

	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		touched_add(t, d->old_file.path);
		touched_add(t, d->new_file.path);
	}
	if (!t->nr)
		return;
	qsort(t->paths, t->nr, sizeof(*t->paths), cmp_str);
	for (i = k = 1; i < t->nr; i++)
		if (strcmp(t->paths[i], t->paths[k - 1]))
			t->paths[k++] = t->paths[i];
	t->nr = k;
}

/* The entries of full at the touched paths, in a tree of their own. */
static int small_tree(git_repository *repo, git_tree *full,
		      const struct touched *t, git_tree **out)
{
	git_tree_update *up = xcalloc(t->nr ? t->nr : 1, sizeof(*up));
	git_treebuilder *tb = NULL;
	git_oid empty, oid;
	size_t i, nr = 0;
	int ret = -1;

	for (i = 0; i < t->nr; i++) {
		git_tree_entry *e;

		if (git_tree_entry_bypath(&e, full, t->paths[i]) < 0)
			continue;
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
			up[nr].action = GIT_TREE_UPDATE_UPSERT;
			git_oid_cpy(&up[nr].id, git_tree_entry_id(e));
			up[nr].filemode = git_tree_entry_filemode(e);
			up[nr++].path = t->paths[i];
		}
		git_tree_entry_free(e);
	}
	if (git_treebuilder_new(&tb, repo, NULL) < 0 ||
	    git_treebuilder_write(&empty, tb) < 0 ||
	    git_tree_lookup(out, repo, &empty) < 0)
		goto out;
	if (nr) {
		git_tree *e = *out;

		*out = NULL;
		ret = git_tree_create_updated(&oid, repo, e, nr, up);
		git_tree_free(e);
		if (ret < 0 || git_tree_lookup(out, repo, &oid) < 0) {
			ret = -1;
			goto out;
		}
	}
	ret = 0;
out:
	if (ret < 0)
		tree_git_error("building a tree for the patch");
	git_treebuilder_free(tb);
	free(up);
	return ret;
}

/* full with the touched paths as they are in the small result. */
static int write_back(git_repository *repo, git_tree *full,
		      const struct touched *t, const git_oid *result,
		      git_oid *out)
{
	git_tree_update *up = xcalloc(t->nr ? t->nr : 1, sizeof(*up));
	git_tree_update *sorted;
	git_tree *res = NULL;
	size_t i, k = 0, nr = 0;
	int ret = -1;

	if (git_tree_lookup(&res, repo, result) < 0)
		goto out;
	for (i = 0; i < t->nr; i++) {
		git_tree_entry *e;

		if (!git_tree_entry_bypath(&e, res, t->paths[i])) {
			up[nr].action = GIT_TREE_UPDATE_UPSERT;
			git_oid_cpy(&up[nr].id, git_tree_entry_id(e));
			up[nr].filemode = git_tree_entry_filemode(e);
			up[nr++].path = t->paths[i];
			git_tree_entry_free(e);
		} else if (!git_tree_entry_bypath(&e, full, t->paths[i])) {
			up[nr].action = GIT_TREE_UPDATE_REMOVE;
			up[nr++].path = t->paths[i];
			git_tree_entry_free(e);
		}
	}
	/* Removals first: a file may become a directory's place. */
	sorted = xcalloc(nr ? nr : 1, sizeof(*sorted));
	for (i = 0; i < nr; i++)
		if (up[i].action == GIT_TREE_UPDATE_REMOVE)
			sorted[k++] = up[i];
	for (i = 0; i < nr; i++)
		if (up[i].action != GIT_TREE_UPDATE_REMOVE)
			sorted[k++] = up[i];
	ret = git_tree_create_updated(out, repo, full, nr, sorted);
	free(sorted);
out:
	if (ret < 0)
		tree_git_error("writing the patched tree");
	git_tree_free(res);
	free(up);
	return ret < 0 ? -1 : 0;
}

/*
 * The symlinks a result tree has at the touched paths must point inside
 * the tree (checked on the small tree: the touched paths only).
 */
static int check_links(git_repository *repo, const git_oid *result,
		       const struct touched *t, struct apply_failure *f)
{
	git_tree *res = NULL;
	size_t i;
	int ret = 0;

	if (git_tree_lookup(&res, repo, result) < 0)
		return 0;	/* write_back reports it */
	for (i = 0; i < t->nr && !ret; i++) {
		git_tree_entry *e;
		git_blob *blob;
		const char *why = NULL;

		if (git_tree_entry_bypath(&e, res, t->paths[i]) < 0)
			continue;
		if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK &&
		    !git_blob_lookup(&blob, repo, git_tree_entry_id(e))) {
			why = bad_link_target(t->paths[i],
					      git_blob_rawcontent(blob),
					      git_blob_rawsize(blob));
			git_blob_free(blob);
		}
		git_tree_entry_free(e);
		if (why) {
			set_file(f, t->paths[i]);
			set_reason(f, "refusing to apply: %s", why);
			ret = -1;
		}
	}
	git_tree_free(res);
	return ret;
}

int apply_diff(git_repository *repo, git_tree *tree, const char *text,
	       int allow_3way, git_oid *out, struct apply_failure *f)
{
	struct progress pr = { 0 };
	struct touched t = { 0 };
	git_diff *diff = NULL, *moved = NULL;
	git_tree *small = NULL;
	char *fixed = NULL, *m;
	git_oid result;
	int ret = -1;

	if (!text || !*text) {
		set_reason(f, "the mail carries no diff");
		return -1;
	}
	if (check_size(text, f) < 0 || check_raw_paths(text, f) < 0)
		return -1;
	/*
	 * Trees over 4 KiB are not in libgit2's object cache by default:
	 * each path looked up in a big directory inflated it again,
	 * quadratic in the files of a patch.  Cache them.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)16 << 20);
	/*
	 * But not every tree a series makes: each commit of one that adds
	 * a file per patch to one directory has a bigger tree, and a cache
	 * that kept them (256 MB by libgit2's count, three times that in
	 * memory) grew with the square of the patches.  What one patch
	 * looks up again is a few trees; they fit.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)APPLY_CACHE_MAX);
	if (git_diff_from_buffer(&diff, text, strlen(text)) < 0) {
		set_reason(f, "cannot parse the diff: %s",
			   git_error_text());
		return -1;
	}
	if (check_diff(diff, tree, f) < 0)
		goto out;
	touched_from_diff(&t, diff);
	if (small_tree(repo, tree, &t, &small) < 0) {
		set_reason(f, "cannot read the files the patch touches");
		goto out;
	}
	/* Hunks whose context moved, found where git apply finds them. */
	fixed = fix_offsets(repo, small, text);
	if (fixed && git_diff_from_buffer(&moved, fixed, strlen(fixed)) < 0) {
		git_diff_free(moved);
		moved = NULL;
	}
	if (!apply_strict(repo, small, moved ? moved : diff, &result, &pr)) {
		if (check_links(repo, &result, &t, f) < 0)
			goto out;
		ret = write_back(repo, tree, &t, &result, out);
		if (ret < 0)
			set_reason(f, "cannot write the patched tree");
		goto out;
	}
	m = xstrdup(git_error_text());
	set_file(f, pr.path);
	f->hunk = pr.hunk;
	free(f->hunk_header);
	f->hunk_header = pr.hunk ? xstrdup(pr.header) : NULL;
	if (pr.hunk)
		set_reason(f, "hunk %d does not match: its context and removed lines are not in the file, there or nearby",
			   pr.hunk);
	else
		set_reason(f, "%s", m);
	free(m);
	if (!allow_3way)
		goto out;
	{
		/* Keep the strict failure as the headline. */
		struct apply_failure g = { 0 };
		int merged = !apply_3way(repo, small, diff, &result, &g);

		if (merged && check_links(repo, &result, &t, &g) < 0) {
			/* Then the symlink is the headline. */
			free(f->reason);
			free(f->file);
			f->reason = g.reason;
			f->file = g.file;
			g.reason = g.file = NULL;
		} else if (merged && !write_back(repo, tree, &t, &result,
						 out)) {
			free(f->reason);
			f->reason = NULL;
			ret = 1;
		} else {
			free(f->three_way);
			f->three_way = g.reason ? g.reason :
				xstrdup("cannot write the merged tree");
			g.reason = NULL;
		}
		free(g.reason);
		free(g.hint);
		free(g.file);
		free(g.subject);
		free(g.hunk_header);
		free(g.three_way);
	}
out:
	git_tree_free(small);
	free(t.paths);
	git_diff_free(moved);
	git_diff_free(diff);
	free(fixed);
	return ret;
}

char *apply_commit_message(const struct patch *p, int link)
{
	struct strbuf sb = STRBUF_INIT;
	git_buf out = { 0 };
	char *ret;

	strbuf_addstr(&sb, p->subject ? p->subject : "(no subject)");
	strbuf_addstr(&sb, "\n\n");
	if (p->body && *p->body) {
		strbuf_addstr(&sb, p->body);
		strbuf_addstr(&sb, "\n\n");
	}
	trailer_add_lines(&sb, p->trailers, p->nr_trailers,
			  link ? p->msgid : NULL);
	/* git am cleans the message the same way (stripspace). */
	if (git_message_prettify(&out, sb.buf, 0, '#') < 0) {
		strbuf_addch(&sb, '\n');
		return strbuf_detach(&sb, NULL);
	}
	ret = xstrdup(out.ptr);
	git_buf_dispose(&out);
	strbuf_release(&sb);
	return ret;
}

static int make_signatures(const struct patch *p, git_signature **author,
			   git_signature **committer)
{
	const char *name = ad()->bot_name;
	const char *email = ad()->bot_email;
	const char *aname = p->author_name && *p->author_name ?
		p->author_name : "unknown";
	const char *aemail = p->author_email ? p->author_email : "";
	git_time_t when = p->timestamp ? p->timestamp : time(NULL);

	*author = *committer = NULL;
	if (git_signature_new(author, aname, aemail, when, p->tz_offset) < 0 ||
	    git_signature_now(committer, name, email) < 0) {
		git_signature_free(*author);
		*author = NULL;
		return tree_git_error("commit identity");
	}
	return 0;
}

static void fill_failure(struct apply_failure *f, const struct patch *p,
			 size_t i, size_t n)
{
	f->index = p->index ? p->index : (int)i + 1;
	f->total = p->total ? p->total : (int)n;
	free(f->subject);
	f->subject = xstrdup(p->subject ? p->subject : "");
}

int apply_patches(git_repository *repo, const struct patch *patches,
		  size_t n, const char *branch, unsigned int flags,
		  struct apply_result *r)
{
	git_commit *parent = NULL;
	git_reference *ref = NULL;
	git_tree *tree = NULL;
	char *refname = NULL;
	size_t i;
	int ret = -1;

	if (git_commit_lookup(&parent, repo, &r->base) < 0)
		return tree_git_error("base commit");
	for (i = 0; i < n; i++) {
		const struct patch *p = &patches[i];
		git_signature *author, *committer;
		git_oid tree_oid, commit_oid;
		char *msg;
		int rc;

		if (git_commit_tree(&tree, parent) < 0) {
			tree_git_error("base tree");
			goto out;
		}
		rc = apply_diff(repo, tree, p->diff, flags & APPLY_3WAY,
				&tree_oid, &r->fail);
		git_tree_free(tree);
		tree = NULL;
		if (rc < 0) {
			fill_failure(&r->fail, p, i, n);
			goto out;
		}
		if (rc == 1) {
			r->nr_3way++;
			warning("patch %zu/%zu applied with a 3-way merge",
				i + 1, n);
		}
		if (make_signatures(p, &author, &committer) < 0)
			goto out;
		msg = apply_commit_message(p, flags & APPLY_LINK);
		rc = git_tree_lookup(&tree, repo, &tree_oid);
		if (!rc)
			rc = git_commit_create(&commit_oid, repo, NULL, author,
					       committer, NULL, msg, tree, 1,
					       (const git_commit **)&parent);
		free(msg);
		git_signature_free(author);
		git_signature_free(committer);
		git_tree_free(tree);
		tree = NULL;
		git_commit_free(parent);
		parent = NULL;
		if (rc < 0 ||
		    git_commit_lookup(&parent, repo, &commit_oid) < 0) {
			tree_git_error("writing a commit");
			goto out;
		}
		r->nr_applied++;
	}
	git_oid_cpy(&r->head, git_commit_id(parent));
	refname = starts_with(branch, "refs/") ? xstrdup(branch) :
		xasprintf("refs/heads/%s", branch);
	if (git_reference_create(&ref, repo, refname, &r->head, 1,
				 "sched-bot apply") < 0) {
		tree_git_error(refname);
		goto out;
	}
	free(r->branch);
	r->branch = refname;
	refname = NULL;
	ret = 0;
out:
	free(refname);
	git_reference_free(ref);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

/* "v6.1-rc6" -> {6, 1, 0, 6}; "v6.1.192" -> {6, 1, 192, 0}. */
static int parse_version(const char *s, int v[4])
{
	char *end;

	memset(v, 0, 4 * sizeof(int));
	if (*s == 'v')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	v[0] = strtol(s, &end, 10);
	if (*end != '.')
		return -1;
	v[1] = strtol(end + 1, &end, 10);
	if (*end == '.')
		v[2] = strtol(end + 1, &end, 10);
	if (!strncmp(end, "-rc", 3))
		v[3] = strtol(end + 3, &end, 10);
	return *end ? -1 : 0;
}

/* Order: 6.1-rc6 < 6.1 < 6.1.1 < 6.2-rc1. */
static long long version_key(const int v[4])
{
	long long k = (long long)v[0] * 1000000000LL +
		(long long)v[1] * 1000000LL + (long long)v[2] * 100LL;

	if (v[3])
		k -= 100 - v[3];
	return k;
}

/*
 * The tag nearest to the version asked for: the newest of the same
 * major.minor (a stable release of that base), else the newest older
 * one, else the oldest newer one.
 */
static char *nearest_tag(git_repository *repo, const char *want)
{
	git_strarray tags = { 0 };
	int w[4], v[4];
	long long wk, best_same = -1, best_older = -1, best_newer = -1;
	size_t i, is = 0, io = 0, in = 0;
	char *ret = NULL;

	if (parse_version(want, w) < 0 ||
	    git_tag_list_match(&tags, "v*", repo) < 0)
		return NULL;
	wk = version_key(w);
	for (i = 0; i < tags.count; i++) {
		long long k;

		if (parse_version(tags.strings[i], v) < 0)
			continue;
		k = version_key(v);
		if (v[0] == w[0] && v[1] == w[1] && k > best_same) {
			best_same = k;
			is = i;
		} else if (k < wk && k > best_older) {
			best_older = k;
			io = i;
		} else if (k > wk && (best_newer < 0 || k < best_newer)) {
			best_newer = k;
			in = i;
		}
	}
	if (best_same >= 0)
		ret = xstrdup(tags.strings[is]);
	else if (best_older >= 0)
		ret = xstrdup(tags.strings[io]);
	else if (best_newer >= 0)
		ret = xstrdup(tags.strings[in]);
	git_strarray_dispose(&tags);
	return ret;
}

static int resolve_ref(git_repository *repo, const char *name, git_oid *oid)
{
	static const char *const fmts[] = { "%s", "refs/tags/%s",
		"refs/remotes/origin/%s", "refs/remotes/%s" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		char *rev = xasprintf(fmts[i], name);
		int rc = tree_resolve(repo, rev, oid);

		free(rev);
		if (!rc)
			return 0;
	}
	return -1;
}

/* ---- the base: the commit the series was made on ------------------ */

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

struct base_ctx {
	git_repository *repo;
	const struct series *s;
	const struct apply_opts *opts;
	struct tree_remotes trees;
	char *tried;		/* trees[i] fetched (or failed) already */
	struct strbuf failed;	/* "tip, next": fetches that failed */
	size_t nr_fetched;
};

/* The tree the series names: "tip" of "tip/sched/core". */
static const struct tree_remote *named_tree(struct base_ctx *c)
{
	const char *ref = c->s ? c->s->base.ref : NULL;
	const struct tree_remote *r = NULL;
	char *name;

	if (!ref || !strchr(ref, '/'))
		return NULL;
	name = xstrndup(ref, strcspn(ref, "/"));
	r = tree_remote_find(&c->trees, name);
	free(name);
	return r;
}

/* Whether a diff of the series touches a path the tree serves. */
static int serves_paths(struct base_ctx *c, const struct tree_remote *r)
{
	size_t i;

	for (i = 0; c->s && i < c->s->nr_patches; i++) {
		const char *p;

		for (p = c->s->patches[i].diff; p && *p; p = next_line(p)) {
			char *path;
			int yes;

			if (!starts_with(p, "diff --git a/"))
				continue;
			path = xstrndup(p + 13, strcspn(p + 13, "\n "));
			yes = tree_remote_has_path(r, path);
			free(path);
			if (yes)
				return 1;
		}
	}
	return 0;
}

/* Whether the series was sent to one of the tree's lists. */
static int sent_to_lists(struct base_ctx *c, const struct tree_remote *r)
{
	size_t i, j;

	for (i = 0; c->s && i < c->s->nr_to_cc; i++)
		for (j = 0; j < r->nr_lists; j++)
			if (!strcasecmp(c->s->to_cc[i], r->lists[j]))
				return 1;
	return 0;
}

/*
 * Fetch the next tree that may hold the base: the one the thread names,
 * then those whose lists the series was sent to, then those whose paths
 * it touches, then (all: 1) the rest.
 * Returns 1 when one was fetched, 0 when none is left.
 */
static int fetch_next(struct base_ctx *c, int all)
{
	const struct tree_remote *named = named_tree(c), *r = NULL;
	struct tree_fetch_opts fo = { 0 };
	size_t i;

	if (!c->opts || !c->opts->fetch)
		return 0;
	if (named && !c->tried[named - c->trees.v])
		r = named;
	for (i = 0; !r && i < c->trees.nr; i++)
		if (!c->tried[i] && sent_to_lists(c, &c->trees.v[i]))
			r = &c->trees.v[i];
	for (i = 0; !r && i < c->trees.nr; i++)
		if (!c->tried[i] && serves_paths(c, &c->trees.v[i]))
			r = &c->trees.v[i];
	for (i = 0; !r && all && i < c->trees.nr; i++)
		if (!c->tried[i])
			r = &c->trees.v[i];
	if (!r)
		return 0;
	c->tried[r - c->trees.v] = 1;
	fo.timeout = ad()->fetch_timeout;
	fo.progress = c->opts->progress;
	if (tree_fetch_remote(c->repo, r, &fo) < 0) {
		if (c->failed.len)
			strbuf_addstr(&c->failed, ", ");
		strbuf_addstr(&c->failed, r->name);
		return 1;	/* the next one may still have it */
	}
	c->nr_fetched++;
	return 1;
}

/* "tip/sched/core 1234abcd5678 (subject)" when a configured branch
 * holds commit, else fallback.
 */
static char *describe_base(struct base_ctx *c, const git_oid *commit,
			   const char *fallback)
{
	char *tree = NULL, *branch = NULL, *where, *ret;

	if (tree_branch_of(c->repo, &c->trees, commit,
			   ad()->guess_depth, &tree,
			   &branch) < 0)
		return xstrdup(fallback);
	where = xasprintf("%s/%s", tree, branch);
	ret = tree_describe(c->repo, where, commit);
	free(where);
	free(tree);
	free(branch);
	return ret;
}

/* A pre-image of the series: path and abbreviated blob id. */
struct preimage {
	char *path;
	git_oid id;
	size_t len;		/* hex digits given */
};

/* The first pre-image of each path, as b4 --guess-base reads them. */
static size_t preimages(const struct series *s, struct preimage **out)
{
	/* paths seen: one look-up each, linear in the series */
	struct msgid_map seen = { 0 };
	size_t nr = 0, alloc = 0, i;

	*out = NULL;
	for (i = 0; s && i < s->nr_patches; i++) {
		const char *p, *path_at = NULL;

		for (p = s->patches[i].diff; p && *p; p = next_line(p)) {
			const char *h, *dots;
			char *path;
			size_t n;

			if (starts_with(p, "diff --git a/")) {
				path_at = p + 13;
				continue;
			}
			if (!path_at || !starts_with(p, "index "))
				continue;
			h = p + 6;
			/* within the line: a hostile one may have no ".." */
			dots = memmem(h, strcspn(h, "\n"), "..", 2);
			n = dots ? (size_t)(dots - h) : 0;
			if (n < 7 || n > GIT_OID_HEXSZ ||
			    strspn(h, "0123456789abcdef") < n ||
			    strspn(h, "0") == n) {
				path_at = NULL;
				continue;	/* a new file: no pre-image */
			}
			path = xstrndup(path_at, strcspn(path_at, "\n "));
			path_at = NULL;
			if (msgid_map_get(&seen, path, &(size_t){ 0 })) {
				free(path);
				continue;
			}
			ALLOC_GROW(*out, nr, alloc);
			(*out)[nr].path = path;
			(*out)[nr].len = n;
			if (git_oid_fromstrn(&(*out)[nr].id, h, n) < 0) {
				free(path);
				continue;
			}
			msgid_map_put(&seen, path, nr);
			nr++;
		}
	}
	msgid_map_release(&seen);
	return nr;
}

static int has_preimages(git_repository *repo, const git_oid *commit,
			 const struct preimage *pre, size_t nr)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	size_t i;
	int ok = 1;

	if (git_commit_lookup(&c, repo, commit) < 0 ||
	    git_commit_tree(&tree, c) < 0) {
		git_commit_free(c);
		return 0;
	}
	for (i = 0; ok && i < nr; i++) {
		git_tree_entry *e;

		if (git_tree_entry_bypath(&e, tree, pre[i].path) < 0) {
			ok = 0;
			break;
		}
		ok = !git_oid_ncmp(git_tree_entry_id(e), &pre[i].id,
				   pre[i].len);
		git_tree_entry_free(e);
	}
	git_tree_free(tree);
	git_commit_free(c);
	return ok;
}

/*
 * A commit whose tree has every pre-image blob at its path: the newest
 * one within tree.guessDepth commits of each configured branch (and of
 * HEAD), as `b4 am --guess-base` does.
 */
static int guess_base(struct base_ctx *c, git_oid *out)
{
	struct preimage *pre;
	size_t nr = preimages(c->s, &pre), i, j, heads = 1;
	long depth = ad()->guess_depth, n = 0;
	git_revwalk *walk = NULL;
	git_oid oid;
	int found = 0;

	if (!nr || git_revwalk_new(&walk, c->repo) < 0)
		goto out;
	git_revwalk_sorting(walk, GIT_SORT_TIME);
	for (i = 0; i < c->trees.nr; i++) {
		char **refs;
		size_t nrefs = tree_remote_refs(c->repo, &c->trees.v[i],
						&refs);

		for (j = 0; j < nrefs; j++) {
			if (!git_revwalk_push_ref(walk, refs[j]))
				heads++;
			free(refs[j]);
		}
		free(refs);
	}
	git_revwalk_push_head(walk);
	while (!found && n++ < depth * (long)heads &&
	       !git_revwalk_next(&oid, walk))
		found = has_preimages(c->repo, &oid, pre, nr);
	if (found)
		git_oid_cpy(out, &oid);
out:
	git_revwalk_free(walk);
	for (i = 0; i < nr; i++)
		free(pre[i].path);
	free(pre);
	return found ? 0 : -1;
}

static int is_hex(const char *s)
{
	return s && strlen(s) >= 7 && strlen(s) <= GIT_OID_HEXSZ &&
		strspn(s, "0123456789abcdef") == strlen(s);
}

static int resolve_stated(struct base_ctx *c, struct apply_result *r)
{
	const struct series *s = c->s;
	char *fb;

	if (is_hex(s->base.commit)) {
		do {
			if (!tree_resolve(c->repo, s->base.commit, &r->base)) {
				fb = xasprintf("%.12s (base-commit)",
					       s->base.commit);
				r->base_desc = describe_base(c, &r->base, fb);
				free(fb);
				return 0;
			}
		} while (fetch_next(c, 1));
	}
	if (s->base.ref && *s->base.ref) {
		do {
			if (!resolve_ref(c->repo, s->base.ref, &r->base)) {
				r->base_desc = tree_describe(c->repo,
							     s->base.ref,
							     &r->base);
				return 0;
			}
		} while (fetch_next(c, 1));
	}
	return -1;
}

static int resolve_guess(struct base_ctx *c, const git_oid *def,
			 struct apply_result *r)
{
	char *desc;

	do {
		if (!guess_base(c, &r->base)) {
			/* The default itself: say so, as before. */
			if (def && git_oid_equal(def, &r->base))
				return -1;
			desc = describe_base(c, &r->base, "");
			if (!*desc) {
				free(desc);
				desc = tree_describe(c->repo, "commit",
						     &r->base);
			}
			r->base_desc = xasprintf("%s, found by the patches' blob hashes",
						 desc);
			free(desc);
			return 0;
		}
	} while (fetch_next(c, 0));
	return -1;
}

/* "the stated base X is in no configured tree; tested on Y instead" */
static char *substitute(struct base_ctx *c, const char *stated,
			const char *used)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s, which this tree lacks: the stated base is in no configured tree",
		    stated);
	if (c->failed.len)
		strbuf_addf(&sb, " (fetch of %s failed)", c->failed.buf);
	strbuf_addf(&sb, "; tested on %s instead", used);
	return strbuf_detach(&sb, NULL);
}

/*
 * Whether rev is a branch of a named tree ("tip/sched/core", or
 * "refs/remotes/tip/sched/core" with [tree "tip"]): its head is a base
 * the tree's maintainers publish, not the bot's own tree.
 */
static int names_tracked_tree(const struct tree_remotes *t, const char *rev)
{
	size_t i, n;

	if (starts_with(rev, "refs/remotes/"))
		rev += strlen("refs/remotes/");
	for (i = 0; i < t->nr; i++) {
		n = strlen(t->v[i].name);
		if (!strncmp(rev, t->v[i].name, n) && rev[n] == '/' && rev[n + 1])
			return 1;
	}
	return 0;
}

int apply_resolve_base(git_repository *repo, const struct series *s,
		       const struct apply_opts *opts, struct apply_result *r)
{
	const char *def = ad()->default_base;
	struct base_ctx c = { .repo = repo, .s = s, .opts = opts,
			      .failed = STRBUF_INIT };
	git_oid def_oid;
	char *near, *stated, *why;
	int have_def, ret = -1;

	free(r->base_desc);
	free(r->base_warning);
	r->base_desc = r->base_warning = NULL;
	if (opts && opts->base) {
		if (tree_resolve(repo, opts->base, &r->base) < 0)
			return error("--base %s: no such revision in the tree",
				     opts->base);
		r->base_desc = xasprintf("%s (--base)", opts->base);
		r->base_named = 1;
		return 0;
	}
	tree_remotes_load(&c.trees);
	c.tried = xcalloc(c.trees.nr + 1, 1);
	have_def = !tree_resolve(repo, def, &def_oid);
	r->base_named = 0;
	if (s && !resolve_stated(&c, r)) {
		r->base_named = 1;
		ret = 0;
		goto out;
	}
	if (s && !resolve_guess(&c, have_def ? &def_oid : NULL, r)) {
		ret = 0;
		goto out;
	}
	if (s && s->base.ref && *s->base.ref) {
		near = nearest_tag(repo, s->base.ref);
		if (near && !tree_resolve(repo, near, &r->base)) {
			r->base_desc = xasprintf("%s (nearest to %s)", near,
						 s->base.ref);
			stated = xasprintf("the series is based on %s",
					   s->base.ref);
			r->base_warning = substitute(&c, stated, near);
			free(stated);
			free(near);
			ret = 0;
			goto out;
		}
		free(near);
	}
	if (!have_def) {
		error("tree.defaultBase %s: no such revision", def);
		goto out;
	}
	git_oid_cpy(&r->base, &def_oid);
	r->base_desc = xasprintf("%s (default base)", def);
	r->base_named = names_tracked_tree(&c.trees, def);
	stated = NULL;
	if (s && s->base.commit && *s->base.commit)
		stated = xasprintf("the series says base-commit %.12s",
				   s->base.commit);
	else if (s && s->base.ref && *s->base.ref)
		stated = xasprintf("the series is based on %s", s->base.ref);
	if (stated) {
		why = substitute(&c, stated, def);
		r->base_warning = why;
		free(stated);
	}
	ret = 0;
out:
	free(c.tried);
	strbuf_release(&c.failed);
	tree_remotes_release(&c.trees);
	return ret;
}

/*
 * A series over series.maxPatches or series.maxSize: refused whole,
 * before anything is applied; r->fail says why, for no one patch (the
 * job's apply failure, mailed or kept as the mail policy says).
 */
static int over_series_limits(const struct series *s, struct apply_result *r)
{
	long long bytes = 0;
	size_t i;

	if (limits.max_patches > 0 &&
	    (s->nr_patches > (size_t)limits.max_patches ||
	     s->total > limits.max_patches)) {
		set_reason(&r->fail, "refusing to apply: the series has %zu patches, more than series.maxPatches (%ld)",
			   s->nr_patches > (size_t)s->total ?
			   s->nr_patches : (size_t)s->total,
			   limits.max_patches);
		goto refused;
	}
	for (i = 0; i < s->nr_patches; i++)
		bytes += (long long)strlen(s->patches[i].diff);
	if (limits.max_series_size > 0 && bytes > limits.max_series_size) {
		set_reason(&r->fail, "refusing to apply: the series' diffs are %lld bytes, more than series.maxSize (%lld)",
			   bytes, limits.max_series_size);
		goto refused;
	}
	return 0;
refused:
	r->fail.total = s->total ? s->total : (int)s->nr_patches;
	return -1;
}

int apply_series(git_repository *repo, const struct series *s,
		 const struct apply_opts *opts, struct apply_result *r)
{
	char *branch = NULL, *slug;
	int ret;

	if (apply_resolve_base(repo, s, opts, r) < 0)
		return -1;
	if (r->base_warning)
		warning("%s", r->base_warning);
	if (over_series_limits(s, r) < 0)
		return -1;
	if (s->nr_missing) {
		r->fail.total = s->total;
		r->fail.index = s->missing[0];
		set_reason(&r->fail, "the series is incomplete: patch %d/%d is missing",
			   s->missing[0], s->total);
		return -1;
	}
	if (opts && opts->branch) {
		branch = xstrdup(opts->branch);
	} else {
		slug = series_slug(s);
		branch = xasprintf("sched-bot/%s-v%d", slug,
				   s->version ? s->version : 1);
		free(slug);
	}
	ret = apply_patches(repo, s->patches, s->nr_patches, branch,
			    (opts && opts->no_3way ? 0 : APPLY_3WAY) |
			    (opts && opts->no_link ? 0 : APPLY_LINK), r);
	if (ret < 0 && !r->fail.hint && s->base.commit && *s->base.commit &&
	    !strstr(r->base_desc, "(base-commit)"))
		set_hint(&r->fail, "the series says base-commit %.12s, which this tree lacks",
			 s->base.commit);
	else if (ret < 0 && r->base_warning && !r->fail.hint)
		set_hint(&r->fail, "%s", r->base_warning);
	else if (ret < 0 && !r->fail.hint && r->fail.three_way &&
		 strstr(r->fail.three_way, "not in this tree"))
		set_hint(&r->fail, "the patch was written for another version of %s than the base has: apply it onto the tree it was made for (--base REF, after `sched-bot tree fetch` if this tree lacks it)",
			 r->fail.file ? r->fail.file : "the file");
	free(branch);
	return ret;
}

void apply_report_failure(const struct apply_result *r)
{
	const struct apply_failure *f = &r->fail;
	char hex[13];

	git_oid_tostr(hex, sizeof(hex), &r->base);
	if (!f->subject && f->reason) {
		/* Not one patch's fault (e.g. the series is incomplete). */
		error("%s; nothing applied", f->reason);
		return;
	}
	if (f->total)
		error("patch %d/%d \"%s\" does not apply", f->index, f->total,
		      f->subject ? f->subject : "");
	else
		error("the patch does not apply");
	if (f->file)
		fprintf(stderr, "  file: %s\n", f->file);
	if (f->hunk)
		fprintf(stderr, "  hunk %d: %s\n", f->hunk,
			f->hunk_header ? f->hunk_header : "");
	if (f->reason)
		fprintf(stderr, "  reason: %s\n", f->reason);
	fprintf(stderr, "  base: %s, commit %s\n",
		r->base_desc ? r->base_desc : "", hex);
	if (f->three_way)
		fprintf(stderr, "  3-way merge: %s\n", f->three_way);
	if (f->hint)
		fprintf(stderr, "  hint: %s\n", f->hint);
}

void apply_result_release(struct apply_result *r)
{
	free(r->base_desc);
	free(r->base_warning);
	free(r->branch);
	free(r->fail.subject);
	free(r->fail.file);
	free(r->fail.hunk_header);
	free(r->fail.reason);
	free(r->fail.three_way);
	free(r->fail.hint);
	memset(r, 0, sizeof(*r));
}
