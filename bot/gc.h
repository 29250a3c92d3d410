/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gc.h - retention with a disk budget, for a bot that runs for months.
 *
 * What is measured: job.dir, build.cacheDir, the ccache directory and
 * the lore cache together, each file by fstatat(AT_SYMLINK_NOFOLLOW)
 * and its st_blocks (what the disk holds), links never followed.
 *
 * What may go, in this order, oldest first within each kind:
 *
 *   1. job-files   of a finished job (stage done, its lock free, its
 *                  reply sent, dropped, or none to send): the kernels,
 *                  consoles and build logs (build-*.log, console-*.log,
 *                  bzImage*, vmlinu*, *.img, initramfs*); never state,
 *                  lock, series.json, results.csv, compare.json,
 *                  verdict.txt, reply.eml nor any other file;
 *   2. build       slot-* and art-* of build.cacheDir (by the newest
 *                  mtime of the entry and its children); never the
 *                  artifact of a base the build-ahead keeps warm (the
 *                  state's "built:<branch>" heads, by their tree id;
 *                  when the tree cannot be read, the newest artifact
 *                  of each config is kept instead), nor one a job not
 *                  done yet names, nor any slot while a job runs;
 *   3. lore        the lore cache's t-* and raw-* entries.
 *
 * The ccache directory is measured, never deleted from: its own
 * max_size (ccache -M) bounds it.  The newest gc.keepJobs finished
 * jobs keep their files.  An entry older than gc.keepDays days goes
 * whatever the budget; the others go, in the order above, while the
 * total is over gc.maxDiskBytes or the space free on build.cacheDir's
 * file system is below gc.minFree.  Then the state rows only a cache
 * needs are pruned (state_prune(), state.h).
 */
#ifndef SCHED_BOT_GC_H
#define SCHED_BOT_GC_H

#include <time.h>

struct state;
struct strbuf;

/* The settings, filled in bot/builtin/ (config-opts.c). */
struct gc_opts {
	const char *jobs_dir;		/* job.dir, or NULL */
	const char *build_cache_dir;	/* build.cacheDir, or NULL */
	const char *ccache_dir;		/* build.ccacheDir, or NULL */
	long long max_disk_bytes;	/* gc.maxDiskBytes, 0: none */
	long long min_free;		/* gc.minFree, 0: none */
	long keep_days;			/* gc.keepDays, 0: none */
	long keep_jobs;			/* gc.keepJobs */
	/* cron.firstWindow + cron.overlap: how far back a poll reaches */
	long long poll_window;
};

/* Before any measure or collection: one made first is a bug. */
void gc_configure(const struct gc_opts *o);

enum gc_kind {
	GC_JOB_FILES,
	GC_BUILD,
	GC_LORE,
	GC_NR_KINDS,
};

const char *gc_kind_name(enum gc_kind kind);

struct gc_usage {
	long long jobs, builds, ccache, lore;
	long long total;
	long long budget;	/* gc.maxDiskBytes, 0: none */
	long long min_free;	/* gc.minFree, 0: none */
	long long free;		/* on build.cacheDir's file system, -1 */
};

/* Measure the four areas, and the free space of build.cacheDir. */
void gc_usage(struct gc_usage *u);

/* Bytes free for an unprivileged user on path's file system, or -1. */
long long gc_free_bytes(const char *path);
/* build.cacheDir as build.c resolves it; caller frees. */
char *gc_build_cache_dir(void);

struct gc_item {
	enum gc_kind kind;
	char *path;
	long long bytes;
	time_t mtime;
	int aged;		/* older than gc.keepDays */
};

struct gc_result {
	struct gc_item *items;	/* deleted (or to be), in order */
	size_t nr, alloc;
	long long freed;
	struct gc_usage before, after;	/* after: estimated for dry-run */
	char **notes;		/* what was kept and why, for people */
	size_t nr_notes, alloc_notes;
	long rows_pruned;
};

/*
 * Delete (dry_run: list) what the budget and the ages ask for.  st may
 * be NULL (then no job counts as sent and no row is pruned).  Returns
 * 0, or -1 when something could not be deleted (the rest went).
 */
int gc_run(struct state *st, int dry_run, struct gc_result *r);
void gc_result_release(struct gc_result *r);

/* The result as text (one line per item, then totals), or JSON. */
void gc_format(const struct gc_result *r, int dry_run, struct strbuf *out);
void gc_format_json(const struct gc_result *r, int dry_run,
		    struct strbuf *out);

/*
 * The free-space floor before a build: when gc.minFree is set and
 * build.cacheDir's file system has less free, gc runs; 0 when there is
 * enough (then), 1 when still below (*free_out: what is free).
 */
int gc_ensure_free(struct state *st, long long *free_out);

#endif
