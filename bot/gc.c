// SPDX-License-Identifier: GPL-2.0
/*
 * gc.c - retention with a disk budget; see gc.h for what is kept.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "gc.h"
#include "json.h"
#include "jobstate.h"
#include "lore.h"
#include "outbox.h"
#include "state.h"
#include "tree.h"
#include "util.h"

static const char *const kind_names[] = {
	[GC_JOB_FILES] = "job-files",
	[GC_BUILD] = "build",
	[GC_LORE] = "lore",
};

const char *gc_kind_name(enum gc_kind kind)
{
	return kind < GC_NR_KINDS ? kind_names[kind] : "?";
}

/* ---- measuring, never following a link ---- */

/* Bytes on disk under at/name (st_blocks), *newest: latest mtime. */
static long long du_at(int at, const char *name, time_t *newest)
{
	struct disk_use u = { 0 };

	/* what cannot be read is not ours to free: counted as found */
	disk_use_at(at, name, &u);
	if (newest && u.newest > *newest)
		*newest = u.newest;
	return (long long)u.bytes;
}

static long long du(const char *path, time_t *newest)
{
	return path ? du_at(AT_FDCWD, path, newest) : 0;
}

long long gc_free_bytes(const char *path)
{
	struct statvfs sv;
	char *p = xstrdup(path), *slash;

	/* the cache may not exist yet: its nearest parent that does */
	while (statvfs(p, &sv) < 0) {
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			free(p);
			return -1;
		}
		*slash = '\0';
	}
	free(p);
	return (long long)sv.f_bavail * (long long)sv.f_frsize;
}

static struct gc_opts opts;
static int configured;

void gc_configure(const struct gc_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, gc would measure and delete in places nobody named. */
static const struct gc_opts *go(void)
{
	if (!configured)
		die("BUG: gc used before gc_configure()");
	return &opts;
}

char *gc_build_cache_dir(void)
{
	const char *d = go()->build_cache_dir;

	return d && *d ? xstrdup(d) : cache_path("builds");
}

static char *ccache_dir(const char *builds)
{
	const char *d = getenv("CCACHE_DIR");

	if (!d || !*d)
		d = go()->ccache_dir;
	return d && *d ? xstrdup(d) : xasprintf("%s/ccache", builds);
}

static char *jobs_dir(void)
{
	const char *d = go()->jobs_dir;

	return d && *d ? xstrdup(d) : data_path("jobs");
}

/* The build cache without the ccache inside it (counted on its own). */
static long long du_builds(const char *builds, const char *ccache)
{
	char *inner = xasprintf("%s/ccache", builds);
	long long sum;

	sum = du(builds, NULL);
	if (!strcmp(inner, ccache))
		sum -= du(ccache, NULL);
	free(inner);
	return sum < 0 ? 0 : sum;
}

void gc_usage(struct gc_usage *u)
{
	char *jobs = jobs_dir(), *builds = gc_build_cache_dir();
	char *cc = ccache_dir(builds), *lore = cache_path("lore");

	memset(u, 0, sizeof(*u));
	u->jobs = du(jobs, NULL);
	u->builds = du_builds(builds, cc);
	u->ccache = du(cc, NULL);
	u->lore = du(lore, NULL);
	u->total = u->jobs + u->builds + u->ccache + u->lore;
	u->budget = go()->max_disk_bytes;
	u->min_free = go()->min_free;
	u->free = gc_free_bytes(builds);
	free(jobs);
	free(builds);
	free(cc);
	free(lore);
}

/* ---- the candidates ---- */

struct cand {
	struct gc_item it;
	long long order;	/* within a kind: older first */
};

struct walk {
	struct state *st;
	struct gc_result *r;
	struct cand *c;
	size_t nr, alloc;
	int any_running;
	char **keep_art;	/* art-* names not to delete */
	size_t nr_keep, alloc_keep;
	long keep_jobs;
};

static void note(struct gc_result *r, const char *fmt, ...) PRINTF(2, 3);
static void note(struct gc_result *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(r->notes, r->nr_notes, r->alloc_notes);
	r->notes[r->nr_notes++] = strbuf_detach(&sb, NULL);
}

static void add_cand(struct walk *w, enum gc_kind kind, char *path,
		     long long bytes, time_t mtime)
{
	struct cand *c;

	ALLOC_GROW(w->c, w->nr, w->alloc);
	c = &w->c[w->nr++];
	memset(c, 0, sizeof(*c));
	c->it.kind = kind;
	c->it.path = path;
	c->it.bytes = bytes;
	c->it.mtime = mtime;
	c->order = mtime;
}

static void keep_art(struct walk *w, const char *name)
{
	ALLOC_GROW(w->keep_art, w->nr_keep, w->alloc_keep);
	w->keep_art[w->nr_keep++] = xstrdup(name);
}

static int art_kept(const struct walk *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nr_keep; i++)
		if (starts_with(name, w->keep_art[i]))
			return 1;
	return 0;
}

/* The art-* directory a kernel path of a job lies in, if any. */
static void keep_art_of(struct walk *w, const char *kernel)
{
	const char *p = kernel ? strstr(kernel, "/art-") : NULL;
	const char *end;

	if (!p)
		return;
	p++;
	end = strchr(p, '/');
	if (end) {
		char *name = xstrndup(p, end - p);

		keep_art(w, name);
		free(name);
	}
}

/* 1 when another process holds dir/lock; else 0, *fd our lock or -1. */
static int job_locked(const char *dir, int *fd)
{
	char *lock = xasprintf("%s/lock", dir);
	int f = open(lock, O_RDONLY | O_CLOEXEC);

	free(lock);
	*fd = -1;
	if (f < 0)
		return 0;
	if (flock(f, LOCK_EX | LOCK_NB) < 0) {
		close(f);
		return 1;
	}
	*fd = f;
	return 0;
}

/*
 * A reply held for the moderators (moderation.h) is settled once they
 * judged it invalid or it expired; released, it is a mail like any
 * other.  -1: not held.
 */
static int held_settled(struct state *st, const char *msgid)
{
	struct state_held h;
	int ret;

	if (!st || state_held_get(st, msgid, &h) <= 0)
		return -1;
	ret = !strcmp(h.status, "invalid") || !strcmp(h.status, "expired");
	state_held_release(&h);
	return ret;
}

/* Is the job's reply out of the way: sent, dropped, or none to send? */
static int reply_settled(struct state *st, const struct job_state *js)
{
	char *s, *box, *path;
	int sent = 0, ret;

	if (!js->reply_msgid)
		return 1;
	s = st ? state_mail_state(st, js->reply_msgid) : NULL;
	if (s) {
		ret = !strcmp(s, "sent") || !strcmp(s, "dropped");
		free(s);
		return ret;
	}
	ret = held_settled(st, js->reply_msgid);
	if (ret >= 0)
		return ret;
	/* never intended through the state (no --send): the outbox says */
	box = outbox_default_dir();
	path = outbox_find(box, js->reply_msgid, &sent);
	free(box);
	free(path);
	return path && sent;
}

static const char *const job_bulk[] = {
	"build-*.log", "console-*.log", "bzImage*", "vmlinu*", "*.img",
	"initramfs*",
};

static int is_bulk(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(job_bulk); i++)
		if (!fnmatch(job_bulk[i], name, FNM_PERIOD))
			return 1;
	return 0;
}

struct job_ent {
	char *dir;
	time_t mtime;
};

static int cmp_job(const void *a, const void *b)
{
	const struct job_ent *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static void scan_jobs(struct walk *w)
{
	char *root = jobs_dir();
	struct job_ent *jobs = NULL;
	size_t nr = 0, alloc = 0, i, finished = 0;
	long running = 0, unsent = 0, kept_new = 0;
	struct dirent *de;
	DIR *d = opendir(root);

	if (!d) {
		free(root);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		char *dir, *state;

		if (de->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", root, de->d_name);
		state = xasprintf("%s/state", dir);
		if (lstat(state, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(dir);
			free(state);
			continue;
		}
		ALLOC_GROW(jobs, nr, alloc);
		jobs[nr].dir = dir;
		jobs[nr].mtime = st.st_mtime;
		nr++;
		free(state);
	}
	closedir(d);
	qsort(jobs, nr, sizeof(*jobs), cmp_job);

	/* newest first, to spare the newest gc.keepJobs finished ones */
	for (i = nr; i-- > 0;) {
		struct job_state js;
		char *state = xasprintf("%s/state", jobs[i].dir);
		int fd, side, finished_job;
		DIR *jd;

		job_state_init(&js);
		if (job_state_read(&js, state)) {
			note(w->r, "%s: state unreadable, kept", jobs[i].dir);
			goto next;
		}
		if (job_locked(jobs[i].dir, &fd)) {
			w->any_running = 1;
			running++;
			for (side = 0; side < JOB_NR_SIDES; side++)
				keep_art_of(w, js.side[side].kernel);
			goto next;
		}
		if (fd >= 0)
			close(fd);
		finished_job = js.stage == JOB_DONE;
		if (!finished_job) {
			/* it resumes with its kernels */
			for (side = 0; side < JOB_NR_SIDES; side++)
				keep_art_of(w, js.side[side].kernel);
			goto next;
		}
		if (!reply_settled(w->st, &js)) {
			unsent++;
			goto next;
		}
		if ((long)finished++ < w->keep_jobs) {
			kept_new++;
			goto next;
		}
		jd = opendir(jobs[i].dir);
		while (jd && (de = readdir(jd))) {
			struct stat st;

			if (!is_bulk(de->d_name) ||
			    fstatat(dirfd(jd), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			add_cand(w, GC_JOB_FILES,
				 xasprintf("%s/%s", jobs[i].dir, de->d_name),
				 du_at(dirfd(jd), de->d_name, NULL),
				 jobs[i].mtime);
		}
		if (jd)
			closedir(jd);
next:
		job_state_release(&js);
		free(state);
	}
	if (running)
		note(w->r, "%ld running job(s) kept, and every build slot",
		     running);
	if (unsent)
		note(w->r, "%ld job(s) with a reply not yet sent kept",
		     unsent);
	if (kept_new)
		note(w->r, "the newest %ld finished job(s) kept (gc.keepJobs)",
		     kept_new);
	for (i = 0; i < nr; i++)
		free(jobs[i].dir);
	free(jobs);
	free(root);
}

/* ---- bases the build-ahead keeps warm ---- */

struct ahead_ctx {
	struct walk *w;
	git_repository *repo;
	int unresolved;
};

static int keep_ahead(const char *key, const char *value, void *data)
{
	struct ahead_ctx *a = data;
	git_oid oid;
	git_commit *c;
	char hex[GIT_OID_HEXSZ + 1], *name;

	if (!value || !a->repo || git_oid_fromstr(&oid, value) < 0 ||
	    git_commit_lookup(&c, a->repo, &oid) < 0) {
		a->unresolved++;
		return 0;
	}
	git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c));
	git_commit_free(c);
	name = xasprintf("art-%s-", hex);
	keep_art(a->w, name);
	note(a->w->r, "the build-ahead base of %s (%s) kept",
	     key + strlen("built:"), name);
	free(name);
	return 0;
}

struct art_ent {
	char *name;
	time_t mtime;
};

/* No marks to read: the newest artifact of each config stays. */
static void keep_newest_per_config(struct walk *w, const char *builds)
{
	struct art_ent *a = NULL;
	size_t nr = 0, alloc = 0, i, j;
	struct dirent *de;
	DIR *d = opendir(builds);

	if (!d)
		return;
	while ((de = readdir(d))) {
		time_t t = 0;

		if (!starts_with(de->d_name, "art-"))
			continue;
		du_at(dirfd(d), de->d_name, &t);
		ALLOC_GROW(a, nr, alloc);
		a[nr].name = xstrdup(de->d_name);
		a[nr].mtime = t;
		nr++;
	}
	closedir(d);
	for (i = 0; i < nr; i++) {
		const char *cfg = strrchr(a[i].name, '-');
		int newest = 1;

		for (j = 0; j < nr && newest; j++) {
			const char *other = strrchr(a[j].name, '-');

			if (j != i && !strcmp(cfg, other) &&
			    (a[j].mtime > a[i].mtime ||
			     (a[j].mtime == a[i].mtime &&
			      strcmp(a[j].name, a[i].name) > 0)))
				newest = 0;
		}
		if (newest) {
			keep_art(w, a[i].name);
			note(w->r, "%s kept: the newest artifact of its config (the build-ahead heads could not be read)",
			     a[i].name);
		}
	}
	for (i = 0; i < nr; i++)
		free(a[i].name);
	free(a);
}

static void protect_ahead(struct walk *w, const char *builds)
{
	struct ahead_ctx a = { .w = w };
	char *tp;

	if (!w->st)
		return;
	tp = tree_default_path();
	git_libgit2_init();
	if (git_repository_open_ext(&a.repo, tp,
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		a.repo = NULL;
	state_meta_list(w->st, "built:", keep_ahead, &a);
	if (a.unresolved)
		keep_newest_per_config(w, builds);
	git_repository_free(a.repo);
	git_libgit2_shutdown();
	free(tp);
}

static void scan_builds(struct walk *w, const char *builds)
{
	struct dirent *de;
	DIR *d;

	protect_ahead(w, builds);
	d = opendir(builds);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int slot = starts_with(de->d_name, "slot-");
		time_t t = 0;
		long long bytes;

		if (!slot && !starts_with(de->d_name, "art-"))
			continue;
		if (slot && w->any_running)
			continue;
		if (!slot && art_kept(w, de->d_name))
			continue;
		bytes = du_at(dirfd(d), de->d_name, &t);
		add_cand(w, GC_BUILD, xasprintf("%s/%s", builds, de->d_name),
			 bytes, t);
	}
	closedir(d);
}

struct lore_scan {
	struct walk *w;
	const char *dir;
};

static void lore_cand(int dfd, const char *name, const struct stat *st,
		      void *data)
{
	struct lore_scan *s = data;

	add_cand(s->w, GC_LORE, xasprintf("%s/%s", s->dir, name),
		 (long long)st->st_blocks * 512, st->st_mtime);
}

static void scan_lore(struct walk *w)
{
	char *dir = cache_path("lore");
	struct lore_scan s = { .w = w, .dir = dir };

	lore_cache_each(dir, lore_cand, &s);
	free(dir);
}

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->it.kind != y->it.kind)
		return x->it.kind < y->it.kind ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->it.path, y->it.path);
}

/* Still short of the budget or of the free-space floor? */
static int over(const struct gc_usage *u, long long freed)
{
	if (u->budget > 0 && u->total - freed > u->budget)
		return 1;
	if (u->min_free > 0 && u->free >= 0 && u->free + freed < u->min_free)
		return 1;
	return 0;
}

int gc_run(struct state *st, int dry_run, struct gc_result *r)
{
	struct walk w = { .st = st, .r = r };
	long keep_days = go()->keep_days;
	time_t cutoff = keep_days > 0 ? time(NULL) - keep_days * 86400 : 0;
	char *builds = gc_build_cache_dir();
	int ret = 0;
	size_t i;

	memset(r, 0, sizeof(*r));
	w.keep_jobs = go()->keep_jobs;
	gc_usage(&r->before);
	scan_jobs(&w);
	scan_builds(&w, builds);
	scan_lore(&w);
	qsort(w.c, w.nr, sizeof(*w.c), cmp_cand);

	for (i = 0; i < w.nr; i++) {
		struct gc_item *it = &w.c[i].it;

		it->aged = cutoff && it->mtime < cutoff;
		if (!it->aged && !over(&r->before, r->freed)) {
			free(it->path);
			continue;
		}
		if (!dry_run && remove_tree(it->path) < 0) {
			ret = error("gc: cannot delete %s: %s", it->path,
				    strerror(errno));
			free(it->path);
			continue;
		}
		r->freed += it->bytes;
		ALLOC_GROW(r->items, r->nr, r->alloc);
		r->items[r->nr++] = *it;
	}
	free(w.c);
	for (i = 0; i < w.nr_keep; i++)
		free(w.keep_art[i]);
	free(w.keep_art);

	if (!dry_run && st) {
		/* no poll reaches back further than its first window */
		long long window = go()->poll_window;

		r->rows_pruned = state_prune(st, (long long)time(NULL) -
					     window);
		if (r->rows_pruned < 0)
			ret = -1;
	}
	if (dry_run) {
		r->after = r->before;
		r->after.total -= r->freed;
		if (r->after.free >= 0)
			r->after.free += r->freed;
	} else {
		gc_usage(&r->after);
	}
	if (over(&r->after, 0))
		note(r, "still over the budget or under gc.minFree: nothing more may be deleted");
	free(builds);
	return ret;
}

void gc_result_release(struct gc_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		free(r->items[i].path);
	free(r->items);
	for (i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

void gc_format(const struct gc_result *r, int dry_run, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		strbuf_addf(out, "%s %-9s %12lld %s%s\n",
			    dry_run ? "would delete" : "deleted",
			    gc_kind_name(r->items[i].kind), r->items[i].bytes,
			    r->items[i].path,
			    r->items[i].aged ? " (older than gc.keepDays)" :
			    "");
	for (i = 0; i < r->nr_notes; i++)
		strbuf_addf(out, "kept: %s\n", r->notes[i]);
	strbuf_addf(out, "%s: %zu item(s), %lld bytes\n",
		    dry_run ? "would free" : "freed", r->nr, r->freed);
	strbuf_addf(out, "disk use: %lld bytes before (jobs %lld, builds %lld, ccache %lld, lore %lld), %lld after; budget %lld (gc.maxDiskBytes, 0: none)\n",
		    r->before.total,
		    r->before.jobs, r->before.builds, r->before.ccache,
		    r->before.lore, r->after.total, r->before.budget);
}

static void usage_json(struct json *j, const char *key,
		       const struct gc_usage *u)
{
	json_object_begin(j, key);
	json_int(j, "total", u->total);
	json_int(j, "jobs", u->jobs);
	json_int(j, "builds", u->builds);
	json_int(j, "ccache", u->ccache);
	json_int(j, "lore", u->lore);
	json_int(j, "free", u->free);
	json_object_end(j);
}

void gc_format_json(const struct gc_result *r, int dry_run,
		    struct strbuf *out)
{
	struct json j;
	size_t i;

	json_init(&j, out, 1);
	json_object_begin(&j, NULL);
	json_bool(&j, "dry_run", dry_run);
	json_int(&j, "budget", r->before.budget);
	json_int(&j, "min_free", r->before.min_free);
	usage_json(&j, "before", &r->before);
	usage_json(&j, "after", &r->after);
	json_int(&j, "freed", r->freed);
	json_array_begin(&j, "items");
	for (i = 0; i < r->nr; i++) {
		json_object_begin(&j, NULL);
		json_string(&j, "kind", gc_kind_name(r->items[i].kind));
		json_string(&j, "path", r->items[i].path);
		json_int(&j, "bytes", r->items[i].bytes);
		json_int(&j, "mtime", (long long)r->items[i].mtime);
		json_bool(&j, "aged", r->items[i].aged);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_array_begin(&j, "kept");
	for (i = 0; i < r->nr_notes; i++)
		json_string(&j, NULL, r->notes[i]);
	json_array_end(&j);
	json_int(&j, "rows_pruned", r->rows_pruned);
	json_object_end(&j);
	strbuf_addch(out, '\n');
}

int gc_ensure_free(struct state *st, long long *free_out)
{
	long long min_free = go()->min_free;
	char *builds;
	long long avail;
	struct gc_result r;

	if (min_free <= 0)
		return 0;
	builds = gc_build_cache_dir();
	avail = gc_free_bytes(builds);
	if (avail >= 0 && avail < min_free) {
		info("%lld bytes free on %s, below gc.minFree (%lld): collecting",
		     avail, builds, min_free);
		gc_run(st, 0, &r);
		gc_result_release(&r);
		avail = gc_free_bytes(builds);
	}
	free(builds);
	if (free_out)
		*free_out = avail;
	return avail >= 0 && avail < min_free;
}
