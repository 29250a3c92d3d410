// SPDX-License-Identifier: GPL-2.0
/*
 * compiledout.c - the config options that keep a series' changed lines
 * out of the build (see compiledout.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compiledout.h"

/* A posted tree's file is read up to this many bytes, never more. */
#define MAX_FILE (4 << 20)
/* Conditionals nested deeper than this are not followed. */
#define MAX_DEPTH 32

struct hunk {
	char *path;		/* the new side's, else the old side's */
	int old_start, old_lines, new_start, new_lines;
};

struct hunks {
	struct hunk *v;
	size_t nr, alloc;
	size_t total;		/* of C files, those past the cap too */
};

/*
 * The value config gives name ("y", "m", "64", ...) in out, or 0 when
 * it leaves it unset ("# CONFIG_X is not set", or absent).
 */
static int config_value(const char *config, const char *name, char *out,
			size_t size)
{
	size_t n = strlen(name);
	const char *p = config;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=') {
			size_t m = strcspn(p + n + 1, "\n");

			if (m >= size)
				m = size - 1;
			memcpy(out, p + n + 1, m);
			out[m] = '\0';
			return 1;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

/* One level of conditionals: whether its branch is compiled, if known. */
struct level {
	int known;
	int active;
	char what[200];		/* "#ifdef CONFIG_X (not set in the config)" */
};

/* "set to y in the config", "not set in the config" */
static void config_note(const char *config, const char *name, char *out,
			size_t size)
{
	char val[32];

	if (config_value(config, name, val, sizeof(val)))
		snprintf(out, size, "set to %.16s in the config", val);
	else
		snprintf(out, size, "not set in the config");
}

/* "CONFIG_[A-Za-z0-9_]+" at p into name; its length, or 0. */
static size_t config_name(const char *p, char *name, size_t size)
{
	size_t n = 0;

	if (strncmp(p, "CONFIG_", 7))
		return 0;
	n = 7;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	if (n >= size)
		return 0;
	memcpy(name, p, n);
	name[n] = '\0';
	return n;
}

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Whether [p, end) holds nothing but blanks and a comment. */
static int rest_empty(const char *p, const char *end)
{
	p = skip_blank(p, end);
	return p == end || (end - p >= 2 && (!strncmp(p, "/*", 2) ||
					     !strncmp(p, "//", 2)));
}

/*
 * The condition of an #if (after "if"), one term of the forms the
 * header names, judged against config: 1 true, 0 false, -1 unknown.
 */
static int judge_if(const char *p, const char *end, const char *config,
		    char *what, size_t size)
{
	static const struct {
		const char *fn;
		int module_counts;	/* =m makes it true */
	} fns[] = {
		{ "defined", 0 }, { "IS_ENABLED", 1 }, { "IS_BUILTIN", 0 },
	};
	char name[64], val[32], note[100];
	const char *start;
	int neg = 0, paren = 0, module_counts = 0, set;
	size_t i, n;

	p = skip_blank(p, end);
	start = p;
	if (p < end && *p == '!') {
		neg = 1;
		p = skip_blank(p + 1, end);
	}
	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		n = strlen(fns[i].fn);
		if ((size_t)(end - p) > n && !strncmp(p, fns[i].fn, n) &&
		    (p[n] == '(' || p[n] == ' ')) {
			module_counts = fns[i].module_counts;
			p = skip_blank(p + n, end);
			if (p < end && *p == '(') {
				paren = 1;
				p = skip_blank(p + 1, end);
			}
			break;
		}
	}
	n = config_name(p, name, sizeof(name));
	if (!n)
		return -1;
	p = skip_blank(p + n, end);
	if (paren) {
		if (p >= end || *p != ')')
			return -1;
		p++;
	}
	if (!rest_empty(p, end))
		return -1;
	config_note(config, name, note, sizeof(note));
	snprintf(what, size, "#if %.*s (%s)", (int)(p - start > 40 ? 40 :
						     p - start), start, note);
	set = config_value(config, name, val, sizeof(val)) &&
	      strcmp(val, "n") && (module_counts || strcmp(val, "m"));
	return neg ? !set : set;
}

/* The next level of the stack, or NULL past MAX_DEPTH (still counted). */
static struct level *push(struct level *stack, int *depth)
{
	struct level *top = *depth < MAX_DEPTH ? &stack[*depth] : NULL;

	(*depth)++;
	if (top)
		top->known = 0;
	return top;
}

/*
 * A preprocessor conditional on the line [p, end) applied to the stack;
 * 1 when the line is one (it is structure, not code), else 0.
 */
static int directive(const char *p, const char *end, const char *config,
		     struct level *stack, int *depth)
{
	struct level *top;
	char name[64], val[32], note[100], tmp[sizeof(top->what)];
	int ndef = 0, r;

	p = skip_blank(p, end);
	if (p >= end || *p != '#')
		return 0;
	p = skip_blank(p + 1, end);
	if ((size_t)(end - p) >= 6 && !strncmp(p, "ifndef", 6))
		ndef = 1;
	if (ndef || ((size_t)(end - p) >= 5 && !strncmp(p, "ifdef", 5))) {
		p = skip_blank(p + 5 + ndef, end);
		top = push(stack, depth);
		if (top && config_name(p, name, sizeof(name)) &&
		    rest_empty(p + strlen(name), end)) {
			int set = config_value(config, name, val,
					       sizeof(val)) &&
				  strcmp(val, "n") && strcmp(val, "m");

			top->known = 1;
			top->active = ndef ? !set : set;
			config_note(config, name, note, sizeof(note));
			snprintf(top->what, sizeof(top->what),
				 "#if%sdef %s (%s)", ndef ? "n" : "", name,
				 note);
		}
		return 1;
	}
	if ((size_t)(end - p) >= 2 && !strncmp(p, "if", 2) &&
	    (end - p == 2 || !isalnum((unsigned char)p[2]))) {
		top = push(stack, depth);
		/* a condition continued on the next line: unknown */
		r = !top || end[-1] == '\\' ? -1 :
		    judge_if(p + 2, end, config, top->what, sizeof(top->what));
		if (top) {
			top->known = r >= 0;
			top->active = r > 0;
		}
		return 1;
	}
	top = *depth > 0 && *depth <= MAX_DEPTH ? &stack[*depth - 1] : NULL;
	if ((size_t)(end - p) >= 4 && !strncmp(p, "elif", 4)) {
		if (top)
			top->known = 0;
		return 1;
	}
	if ((size_t)(end - p) >= 4 && !strncmp(p, "else", 4)) {
		if (top && top->known) {
			top->active = !top->active;
			snprintf(tmp, sizeof(tmp), "#else of %.180s",
				 top->what);
			memcpy(top->what, tmp, sizeof(tmp));
		}
		return 1;
	}
	if ((size_t)(end - p) >= 5 && !strncmp(p, "endif", 5)) {
		if (*depth > 0)
			(*depth)--;
		return 1;
	}
	return 0;
}

/* Whether the line [p, end) is code (not blank, not only a comment). */
static int is_code(const char *p, const char *end)
{
	p = skip_blank(p, end);
	return p < end && !rest_empty(p, end) && *p != '*';
}

/*
 * Lines lo..hi (1-based) of the file buf: 1 when each code line among
 * them is under a conditional the config decides against (why: the
 * innermost such), 0 when one is not, -1 when none is code.
 */
static int lines_out(const char *buf, size_t len, const char *config,
		     int lo, int hi, char *why, size_t size)
{
	struct level stack[MAX_DEPTH];
	const char *p = buf, *end = buf + len;
	int line = 1, depth = 0, code = 0, i;

	while (p < end && line <= hi) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end;

		if (!directive(p, e, config, stack, &depth) &&
		    line >= lo && is_code(p, e)) {
			const struct level *off = NULL;

			for (i = 0; i < depth && i < MAX_DEPTH; i++)
				if (stack[i].known && !stack[i].active)
					off = &stack[i];
			if (!off)
				return 0;
			if (!code++)
				snprintf(why, size, "%s", off->what);
		}
		p = nl ? nl + 1 : end;
		line++;
	}
	return code ? 1 : -1;
}

static int blob_at(git_repository *repo, git_tree *tree, const char *path,
		   git_blob **blob)
{
	git_tree_entry *e = NULL;
	int ret = -1;

	if (!git_tree_entry_bypath(&e, tree, path) &&
	    git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    !git_blob_lookup(blob, repo, git_tree_entry_id(e)))
		ret = 0;
	git_tree_entry_free(e);
	return ret;
}

/* Lines lo..hi of path in tree (lines_out); -1 when unreadable. */
static int side_out(git_repository *repo, git_tree *tree, const char *path,
		    const char *config, int lo, int n, char *why, size_t size)
{
	git_blob *blob = NULL;
	int ret = -1;

	if (n < 1 || blob_at(repo, tree, path, &blob) < 0)
		return -1;
	if (git_blob_rawsize(blob) <= MAX_FILE)
		ret = lines_out(git_blob_rawcontent(blob),
				git_blob_rawsize(blob), config, lo,
				lo + n - 1, why, size);
	git_blob_free(blob);
	return ret;
}

/*
 * A .c file its directory's Makefile builds only as obj-$(CONFIG_X)
 * while config leaves X unset: 1 with why, else 0.
 */
static int file_out(git_repository *repo, git_tree *tree, const char *path,
		    const char *config, char *why, size_t size)
{
	const char *slash = strrchr(path, '/'), *p, *end;
	char *mk, *obj, name[64], val[32];
	git_blob *blob = NULL;
	size_t n = strlen(path), on;
	int ret = 0;

	if (!slash || n < 3 || strcmp(path + n - 2, ".c"))
		return 0;
	mk = xasprintf("%.*s/Makefile", (int)(slash - path), path);
	obj = xasprintf("%.*s.o", (int)(path + n - 2 - slash - 1), slash + 1);
	on = strlen(obj);
	if (blob_at(repo, tree, mk, &blob) < 0 ||
	    git_blob_rawsize(blob) > MAX_FILE)
		goto out;
	p = git_blob_rawcontent(blob);
	end = p + git_blob_rawsize(blob);
	for (; p < end && !ret; p++) {
		const char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		const char *hit = NULL;

		if ((size_t)(e - p) > 6 && !strncmp(p, "obj-$(", 6) &&
		    config_name(p + 6, name, sizeof(name)) &&
		    p[6 + strlen(name)] == ')')
			hit = memmem(p, e - p, obj, on);
		if (hit &&
		    (hit[-1] == ' ' || hit[-1] == '\t' || hit[-1] == '=') &&
		    (hit + on == e || isspace((unsigned char)hit[on])) &&
		    (!config_value(config, name, val, sizeof(val)) ||
		     !strcmp(val, "n"))) {
			snprintf(why, size, "built only with %s (%s)", name,
				 mk);
			ret = 1;
		}
		p = e;
	}
out:
	git_blob_free(blob);
	free(mk);
	free(obj);
	return ret;
}

static int hunk_cb(const git_diff_delta *d, const git_diff_hunk *h,
		   void *payload)
{
	struct hunks *hs = payload;
	const char *path = d->new_file.path ? d->new_file.path :
			   d->old_file.path;
	size_t n = path ? strlen(path) : 0;
	struct hunk *x;

	if (n < 3 || path[n - 2] != '.' || (path[n - 1] != 'c' &&
					    path[n - 1] != 'h'))
		return 0;
	hs->total++;
	if (hs->nr >= COMPILEDOUT_MAX_HUNKS)
		return 0;
	ALLOC_GROW(hs->v, hs->nr + 1, hs->alloc);
	x = &hs->v[hs->nr++];
	x->path = xstrdup(path);
	x->old_start = h->old_start;
	x->old_lines = h->old_lines;
	x->new_start = h->new_start;
	x->new_lines = h->new_lines;
	return 0;
}

static int commit_tree(git_repository *repo, const char *hex, git_tree **t)
{
	git_commit *c = NULL;
	git_oid oid;
	int ret = -1;

	if (hex && !git_oid_fromstr(&oid, hex) &&
	    !git_commit_lookup(&c, repo, &oid) && !git_commit_tree(t, c))
		ret = 0;
	git_commit_free(c);
	return ret;
}

/* Whether item is among the lines of items already. */
static int said(const struct strbuf *items, const char *item)
{
	const char *p = items->buf ? strstr(items->buf, item) : NULL;

	return p && (p == items->buf || p[-1] == '\n');
}

int compiledout_find(git_repository *repo, const char *base,
		     const char *head, const char *config, size_t max,
		     struct compiledout *r)
{
	git_diff_options o;
	git_tree *bt = NULL, *ht = NULL;
	git_diff *diff = NULL;
	struct hunks hs = { 0 };
	struct strbuf item = STRBUF_INIT;
	char why[200], wf[200];
	size_t i, listed = 0, more = 0;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	strbuf_init(&r->items, 0);
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.context_lines = 0;
	if (!repo || commit_tree(repo, base, &bt) < 0 ||
	    commit_tree(repo, head, &ht) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, bt, ht, &o) < 0 ||
	    git_diff_foreach(diff, NULL, NULL, hunk_cb, NULL, &hs) < 0)
		goto out;
	for (i = 0; i < hs.nr; i++) {
		const struct hunk *h = &hs.v[i];
		int n, old, fo;

		fo = file_out(repo, ht, h->path, config, wf, sizeof(wf));
		n = side_out(repo, ht, h->path, config, h->new_start,
			     h->new_lines, why, sizeof(why));
		old = side_out(repo, bt, h->path, config, h->old_start,
			       h->old_lines, n == 1 ? wf : why,
			       n == 1 ? sizeof(wf) : sizeof(why));
		strbuf_reset(&item);
		if (fo) {
			strbuf_addf(&item, "%s: %s, not set in the config",
				    h->path, wf);
		} else if (n != 0 && old != 0 && (n == 1 || old == 1)) {
			/* each code line, added or removed, is out */
			strbuf_addf(&item, "%s:%d: under %s", h->path,
				    h->new_lines ? h->new_start : h->old_start,
				    why);
		} else {
			continue;
		}
		r->out++;
		if (listed >= max) {
			more++;
			continue;
		}
		if (said(&r->items, item.buf))
			continue;
		strbuf_addf(&r->items, "%s\n", item.buf);
		listed++;
	}
	if (more)
		strbuf_addf(&r->items, "and %zu more hunk%s\n", more,
			    more != 1 ? "s" : "");
	r->hunks = hs.total;
	ret = 0;
out:
	for (i = 0; i < hs.nr; i++)
		free(hs.v[i].path);
	free(hs.v);
	git_diff_free(diff);
	git_tree_free(bt);
	git_tree_free(ht);
	strbuf_release(&item);
	return ret;
}

void compiledout_release(struct compiledout *r)
{
	strbuf_release(&r->items);
}
