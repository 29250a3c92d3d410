/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - the small helpers every module uses: error reporting,
 * allocation that cannot fail, a growable string buffer and file I/O.
 */
#ifndef SCHED_BOT_UTIL_H
#define SCHED_BOT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

/* Exit codes of sched-bot: `sched-bot help` and contrib/pipeline.md. */
enum exit_code {
	EXIT_OK = 0,		/* the job did what was asked */
	EXIT_FAIL = 1,		/* the job failed (apply, build, boot, ...) */
	EXIT_USAGE = 2,		/* bad command line or configuration */
	EXIT_NOTFOUND = 3,	/* message-id, file or ref does not exist */
	EXIT_NETWORK = 4,	/* lore or SMTP unreachable after retries */
	EXIT_REGRESSION = 5,	/* compare/test: a significant regression */
	EXIT_DISKFULL = 6,	/* a file system the job writes to is full */
	EXIT_BUSY = 7,		/* the machine was busy: target.NAME.busy refuse */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED __attribute__((unused))
#define PRINTF(f, a) __attribute__((format(printf, f, a)))

extern const char *progname;
extern int verbosity;		/* 0 normal, 1 -v, -1 -q */
/*
 * Every error/warning/info/debug line passes through this before it is
 * printed, when set (secret.c removes secrets with it).
 */
struct strbuf;
extern void (*report_filter)(struct strbuf *line);

/*
 * Terminal escapes out of text from strangers (subjects, names, trailers):
 * every control character but \n and \t (C0, DEL, C1 as UTF-8 and as
 * stray bytes) becomes '?', in place.  Returns the new length (the
 * text is NUL-terminated again when it shrank).  error(), warning(),
 * info() and debug() strip each line they print.
 */
size_t strip_controls(char *buf, size_t len);

/*
 * The columns len bytes of UTF-8 take on a terminal or in a mail, one a
 * character (continuation bytes do not count; no wide characters).
 */
size_t utf8_width(const char *s, size_t len);
/* printf to stdout, control characters stripped. */
void print_clean(const char *fmt, ...) PRINTF(1, 2);

/* "sched-bot: error: ..." on stderr; error() returns -1 for chaining. */
int error(const char *fmt, ...) PRINTF(1, 2);
void warning(const char *fmt, ...) PRINTF(1, 2);
void info(const char *fmt, ...) PRINTF(1, 2);	/* suppressed by -q */
void debug(const char *fmt, ...) PRINTF(1, 2);	/* shown with -v */
void die(const char *fmt, ...) PRINTF(1, 2) __attribute__((noreturn));
void die_errno(const char *fmt, ...) PRINTF(1, 2) __attribute__((noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* The n bytes at s without leading and trailing white space. */
char *xstrndup_trim(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF(1, 2);

/* Grow an array of *nr used, *alloc allocated elements to hold one more. */
#define ALLOC_GROW(arr, nr, alloc) do {					\
		if ((nr) >= (alloc)) {					\
			(alloc) = (alloc) ? 2 * (alloc) : 8;		\
			(arr) = xrealloc((arr), (alloc) * sizeof(*(arr))); \
		}							\
	} while (0)

struct strbuf {
	char *buf;		/* always NUL-terminated, never NULL */
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { .buf = strbuf_empty, .len = 0, .alloc = 0 }
extern char strbuf_empty[];

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_reset(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);
/* Append s with < > & " ' escaped: safe in HTML and XML text and
 * quoted attribute values; control characters as strip_controls().
 */
void strbuf_add_escaped_html(struct strbuf *sb, const char *s);
/* Append len bytes of data base64-encoded (RFC 4648), with padding. */
void strbuf_add_base64(struct strbuf *sb, const void *data, size_t len);
/* n bytes as a bound is said: "64 KB", "256 MB", else "N bytes". */
void strbuf_add_size(struct strbuf *sb, unsigned long long n);
/* Read a whole file (or fd); returns bytes read or -1 with errno set. */
ssize_t strbuf_read_file(struct strbuf *sb, const char *path);
ssize_t strbuf_read_fd(struct strbuf *sb, int fd);

/*
 * A body received into sb, at most max bytes in all: the data of
 * capped_body_write(), a libcurl CURLOPT_WRITEFUNCTION (plain C, no
 * curl header needed).  Past max it sets too_big and takes nothing,
 * which makes curl fail the transfer with CURLE_WRITE_ERROR.
 */
struct capped_body {
	struct strbuf *sb;
	size_t max;
	int too_big;
};
size_t capped_body_write(char *data, size_t size, size_t nmemb, void *arg);

/* All of buf to fd, through short writes and EINTR: 0, or -1 with errno. */
int write_in_full(int fd, const void *buf, size_t len);
/* Write via a temporary file and rename(2): readers never see a half file. */
int write_file_atomic(const char *path, const void *data, size_t len);
/*
 * The same, the temporary file's content written by fill(fd, data)
 * (0, or -1 with errno): a file of any size in bounded memory.
 */
int write_file_atomic_with(const char *path,
			   int (*fill)(int fd, void *data), void *data);
/* What is left to read of in, to out, 64 KiB at a time: 0 or -1. */
int copy_fd(int in, int out);
/* write_file_atomic_with() of copy_fd(in, ...). */
int write_file_atomic_fd(const char *path, int in);
/*
 * A write that failed for want of space (ENOSPC, EDQUOT) is noted with
 * its path, so that a caller some layers up can tell a full disk (wait,
 * free space, run again) from a failure of the work itself.  note: err
 * is the write's errno, anything else is ignored.  write_file_atomic()
 * notes its own failures.  disk_full_path() is the last path noted
 * since disk_full_clear(), or NULL.
 */
void disk_full_note(const char *path, int err);
const char *disk_full_path(void);

/* The mount point of path's file system (of its nearest existing
 * ancestor).  Allocated.
 */
char *mount_point_of(const char *path);
void disk_full_clear(void);
int mkdir_p(const char *path, int mode);
/* The directory that holds path (to its last slash), made as mkdir_p()
 * makes it: 0, or -1.  A path with no directory part needs none.
 */
int mkdir_parent(const char *path, int mode);
/*
 * An exclusive flock(2) on path (created, no link followed), held until
 * the fd is closed: the fd, or -1 after an error.  While another process
 * holds it, waiting (may be NULL) is said once with info(), and the wait
 * gives up after timeout seconds (0: never).  A holder may unlink path
 * before it closes: a lock whose file was replaced is taken again.
 */
int lock_file(const char *path, const char *waiting, long timeout);
/* lock_file(path, NULL, 0): wait as long as it takes, silently. */
int lock_file_wait(const char *path);
/*
 * A walk of what is below the directory dfd (taken: the walk closes it),
 * depth first and without recursion, by descriptor only (openat
 * O_DIRECTORY|O_NOFOLLOW, fstatat AT_SYMLINK_NOFOLLOW): no depth, path
 * length or link a build planted stops it or sends it elsewhere.  It
 * holds at most 16 directories open, and a name and a few words for
 * each level of depth.  visit() sees each entry e (an entry gone since
 * readdir is not seen), a directory twice: before its entries (post 0,
 * st its lstat) and after them (post 1, st NULL, err the errno of what
 * kept it from being read, 0 when it was).  visit() returns 0 to go on;
 * TREE_SKIP, before a directory, to leave it out; TREE_RETRY, at an
 * err, to open it once more (retry is then 1 if that fails too); a
 * negative value stops the walk, which returns it.  Returns 0, that
 * value, or -1 with errno when a directory could not be found again on
 * the way up (ESTALE: moved while walked).
 */
struct stat;
#define TREE_SKIP 1
#define TREE_RETRY 2
struct tree_entry {
	int dfd;		/* the directory it is in */
	const char *name;
	const struct stat *st;	/* NULL after a directory's entries */
	int post;
	int err;
	int retry;
	size_t depth;		/* 1: directly below the top */
};
typedef int (*tree_visit_fn)(const struct tree_entry *e, void *data);
int tree_walk_below(int dfd, tree_visit_fn visit, void *data);
/*
 * Disk use (st_blocks) of a tree that may change while we look, by
 * tree_walk_below(), never by a path a swapped symlink could send
 * elsewhere, as deep as it goes.  Added to *u (zero it first): bytes;
 * newest, the latest mtime of the top entry and its children; unknown,
 * set when a directory could not be read (or was moved while walked).
 * An entry gone while walking counts nothing.  disk_use_at() measures
 * at/name itself and below; disk_use_below() what is below the
 * directory dfd, which it takes (closes).
 */
struct disk_use {
	unsigned long long bytes;
	time_t newest;
	int unknown;
};
void disk_use_at(int at, const char *name, struct disk_use *u);
void disk_use_below(int dfd, struct disk_use *u);
/*
 * Remove path and everything below it, by tree_walk_below() (as deep as
 * it goes, no link followed); a directory of ours made unreadable is
 * made readable first.  0, or -1 with errno (of the first failure).
 */
int remove_tree(const char *path);
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
/* Case-insensitive prefix test; returns pointer past the prefix or NULL. */
const char *skip_prefix_ci(const char *s, const char *prefix);
/* The value of hexadecimal digit c (either case), or -1. */
int hexval(int c);
/* libgit2's message for the call that just failed, never NULL. */
const char *git_error_text(void);

/* $XDG_CACHE_HOME/sched-bot (or ~/.cache/sched-bot) with sub appended. */
char *cache_path(const char *sub);
char *data_path(const char *sub);	/* $XDG_DATA_HOME/sched-bot */

/* The directory of the running binary (/proc/self/exe), or NULL. */
char *exe_dir(void);

/* Monotonic seconds, for elapsed-time reports. */
double now_monotonic(void);

/*
 * gunzip in into out (all members of a multi-member file).  A truncated
 * or corrupt stream, or an output over max bytes, is an error: returns
 * EXIT_FAIL with the reason in *why (static text).  What a peer sent
 * (lore, a machine's /proc/config.gz) is inflated only this far.
 */
int gunzip_mem(const void *in, size_t len, size_t max, struct strbuf *out,
	       const char **why);

#endif
