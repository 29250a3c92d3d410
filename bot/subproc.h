/* SPDX-License-Identifier: GPL-2.0 */
/*
 * subproc.h - run an external program (make, qemu, ssh) with its output
 * captured line by line, copied to a log and bounded by a timeout.
 */
#ifndef SCHED_BOT_SUBPROC_H
#define SCHED_BOT_SUBPROC_H

#include "util.h"

/*
 * A line longer than this is cut for p->line (and, with line_max, in
 * the log): a child that never prints a newline is held to it.
 */
#define SUBPROC_LINE_MAX	((size_t)64 << 10)

/*
 * What subproc_run() read of a child's output and did not keep, so that
 * the caller can say so; runs that share one share its log budget:
 * p->log_max bounds logged, theirs all together (a build's make steps).
 * Zero it before the first.
 */
struct subproc_cut {
	unsigned long long read;	/* bytes of output read */
	unsigned long long logged;	/* written to log_fd, notes too */
	unsigned long long dropped;	/* not logged: past log_max */
	unsigned long long lines;	/* lines cut at line_max */
	unsigned long long err_dropped;	/* stderr past capture_err_max */
	int full;			/* log_max reached (said in the log) */
};

struct subproc {
	const char *const *argv;	/* argv[0] is looked up in PATH */
	const char *const *env;		/* "K=V" set, "K" unset in the child */
	int clear_env;			/* 1: start from nothing, not the
					 * allowlisted part of ours
					 */
	const char *cwd;		/* NULL: ours */
	int stdin_fd;			/* -1: /dev/null */
	int log_fd;			/* -1: none; stdout+stderr copied here */
	int split_stderr;		/* 1: stderr inherited, not captured */
	struct strbuf *capture_err;	/* NULL or receives stderr apart
					 * (then neither logged nor in
					 * capture)
					 */
	size_t capture_err_max;		/* 0: unlimited; else keep the head */
	double timeout;			/* seconds; <= 0: none */
	struct strbuf *capture;		/* NULL or receives the output */
	size_t capture_max;		/* 0: unlimited; else keep the tail */
	/*
	 * 0: unlimited; else log this much (cut->logged with cut), the
	 * last bytes of it "[LOG_WHAT cut at N MB]", the rest dropped.
	 */
	size_t log_max;
	const char *log_what;		/* NULL: "output" */
	/*
	 * 0: lines logged whole; else a line is logged up to line_max
	 * bytes and "[line cut at N KB]", its rest dropped; line() gets
	 * at most line_max (0: SUBPROC_LINE_MAX) bytes of a line.
	 */
	size_t line_max;
	struct subproc_cut *cut;	/* NULL or counts what was cut */
	/*
	 * Called in the child just before exec (after the redirections and
	 * the chdir); a negative return ends the child with 127.  It must
	 * not allocate: the parent prepares what it needs.
	 */
	int (*setup)(void *setup_data);
	void *setup_data;
	/* Called for every output line (without the newline), cut as said. */
	void (*line)(const char *line, void *data);
	void *data;
	/*
	 * Called in the parent about every watch_interval seconds while the
	 * child runs (a watcher of what it uses); a nonzero return, which
	 * must be below SUBPROC_TIMEOUT and above SUBPROC_CUT, stops it as
	 * the timeout does and is what subproc_run() returns.
	 */
	int (*watch)(void *watch_data);
	void *watch_data;
	double watch_interval;
	/*
	 * 0: unlimited; else the bytes the child may print, stdout and
	 * stderr together, captured, logged or not: past them it is
	 * stopped as at the timeout and subproc_run() returns SUBPROC_CUT.
	 * capture, capture_err, the log and line() have had no more.  What
	 * a stranger's kernel or machine prints (a guest's console, an ssh
	 * session) is read this way: never held whole, never without end.
	 */
	size_t out_max;
};

#define SUBPROC_TIMEOUT (-2)
/* p->out_max bytes came: the child was stopped */
#define SUBPROC_CUT (-9)

/*
 * Run it.  This is the one way the bot starts a program.  The child
 * gets only the allowlisted part of our environment
 * (subproc_env_allowed()) plus p->env, and never a secret:
 * $SCHED_BOT_SMTP_PASSWORD and every variable whose value holds a
 * configured secret (secret.h) are left out, whatever p->env says.
 *
 * Returns the exit code (0..255), 128 + signal when killed,
 * SUBPROC_TIMEOUT when the timeout hit (the whole process group is
 * killed), SUBPROC_CUT when p->out_max did, what p->watch returned
 * when that stopped it, or -1 when it could not be started (error
 * printed).
 */
int subproc_run(const struct subproc *p);

/*
 * 1 when our environment entry "NAME=VALUE" may reach a child: PATH,
 * HOME, USER, LOGNAME, SHELL, TERM, TZ, TMPDIR, LANG, LANGUAGE, LC_*,
 * ARCH, CROSS_COMPILE, CCACHE_*, KBUILD_*, SSH_AUTH_SOCK (ssh targets),
 * LD_LIBRARY_PATH, the sanitizers' *SAN_OPTIONS and SCHED_BENCH_*, none
 * of them holding a secret.
 */
int subproc_env_allowed(const char *entry);

/*
 * The environment subproc_run() gives a child, with changes as p->env,
 * for the one caller that needs a child of its own plumbing (a
 * decompressor streaming into a FILE): made before fork(), passed to
 * execvpe() in the child, freed (the array only) with free().
 */
char **subproc_env(const char *const *changes);

/* Shorthand: run argv, capture stdout+stderr, no timeout. */
int subproc_capture(const char *const *argv, struct strbuf *out);

/* 1 when path is a regular file we may execute. */
int subproc_executable(const char *path);
/*
 * prog as execvp() would find it: a regular executable file in a PATH
 * directory (empty entries skipped), or prog itself when it holds a
 * slash.  Allocated, or NULL.
 */
char *subproc_find(const char *prog);
/* 1 when subproc_find(prog) finds it, else 0. */
int subproc_have(const char *prog);

#endif
