// SPDX-License-Identifier: GPL-2.0
/*
 * subproc.c - fork/exec with a merged stdout+stderr pipe, read through
 * poll(2) so that a hung child (a kernel that never powers off, an ssh
 * that never returns) ends at the timeout instead of hanging us.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "secret.h"
#include "subproc.h"

static int same_name(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return la == lb && !strncmp(a, b, la);
}

int subproc_env_allowed(const char *entry)
{
	static const char *const names[] = {
		"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ",
		"TMPDIR", "LANG", "LANGUAGE", "ARCH", "CROSS_COMPILE",
		"SSH_AUTH_SOCK", "LD_LIBRARY_PATH",
		"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
	};
	static const char *const prefixes[] = {
		"LC_", "CCACHE_", "KBUILD_", "SCHED_BENCH_",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (same_name(entry, names[i]))
			return !secret_env_entry(entry);
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (starts_with(entry, prefixes[i]))
			return !secret_env_entry(entry);
	return 0;
}

/*
 * The child's environment, made in the parent (the child must not
 * allocate): the allowlisted part of ours or nothing, then p->env's
 * changes, less every secret.
 */
static char **child_env(const struct subproc *p)
{
	char **env = NULL;
	size_t nr = 0, alloc = 0, i, k;

	for (i = 0; !p->clear_env && environ[i]; i++) {
		if (!subproc_env_allowed(environ[i]))
			continue;
		ALLOC_GROW(env, nr, alloc);
		env[nr++] = environ[i];
	}
	for (i = 0; p->env && p->env[i]; i++) {
		for (k = 0; k < nr; k++)
			if (same_name(env[k], p->env[i]))
				env[k--] = env[--nr];
		if (!strchr(p->env[i], '='))
			continue;
		ALLOC_GROW(env, nr, alloc);
		env[nr++] = (char *)p->env[i];
	}
	for (k = 0; k < nr; k++)
		if (secret_env_entry(env[k]))
			env[k--] = env[--nr];
	ALLOC_GROW(env, nr, alloc);
	env[nr] = NULL;
	return env;
}

char **subproc_env(const char *const *changes)
{
	struct subproc p = { .env = changes };

	return child_env(&p);
}

static void child(const struct subproc *p, int out, int err, char **env)
{
	int fd;

	setpgid(0, 0);
	if (p->stdin_fd >= 0) {
		dup2(p->stdin_fd, 0);
	} else {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
	}
	dup2(out, 1);
	if (err >= 0)
		dup2(err, 2);
	else if (!p->split_stderr)
		dup2(out, 2);
	if (p->cwd && chdir(p->cwd) < 0) {
		dprintf(2, "cannot chdir to %s: %s\n", p->cwd, strerror(errno));
		_exit(127);
	}
	if (p->setup && p->setup(p->setup_data) < 0)
		_exit(127);
	execvpe(p->argv[0], (char *const *)p->argv, env);
	dprintf(2, "cannot run %s: %s\n", p->argv[0], strerror(errno));
	_exit(127);
}

/* The parent's side of a running child. */
struct child_io {
	int out, err;		/* its output; its stderr apart, or -1 */
	struct strbuf pending;	/* output after the last newline, bounded */
	size_t col;		/* bytes of the log's current line */
	int skipping;		/* the log's current line was cut */
	struct subproc_cut own;	/* when p->cut is NULL */
	struct subproc_cut *cut;
	size_t read;		/* bytes of output and stderr, for out_max */
	int over;		/* out_max reached: the child is stopped */
	int timed_out;
	int stopped;		/* what p->watch returned when it stopped it */
};

/*
 * Each line to p->line, at most line_max (SUBPROC_LINE_MAX) bytes of
 * it: a child that never ends a line costs no more memory than that.
 */
static void emit_lines(const struct subproc *p, struct child_io *io,
		       const char *buf, size_t n)
{
	size_t max = p->line_max ? p->line_max : SUBPROC_LINE_MAX;
	const char *end = buf + n, *nl;

	if (!p->line)
		return;
	for (; buf < end; buf = nl + 1) {
		size_t len, room = max - io->pending.len;

		nl = memchr(buf, '\n', end - buf);
		len = (nl ? nl : end) - buf;
		strbuf_add(&io->pending, buf, len < room ? len : room);
		if (!nl)
			break;
		p->line(io->pending.buf, p->data);
		strbuf_reset(&io->pending);
	}
}

static void keep(const struct subproc *p, const char *buf, size_t n)
{
	struct strbuf *c = p->capture;
	size_t drop;

	if (!c)
		return;
	strbuf_add(c, buf, n);
	if (p->capture_max && c->len > 2 * p->capture_max) {
		drop = c->len - p->capture_max;
		memmove(c->buf, c->buf + drop, c->len - drop);
		strbuf_setlen(c, c->len - drop);
	}
}

/* A full log disk must not kill the run: a failed write is dropped. */
static void write_log(int fd, const void *buf, size_t n)
{
	(void)write_in_full(fd, buf, n);
}

/* Room kept at the end of log_max for the note that says the cut. */
#define CUT_NOTE_ROOM 128

/*
 * A child that prints forever must not fill the disk: the log stops at
 * log_max, with a note in its last bytes; what comes after is counted.
 */
static void log_bounded(const struct subproc *p, struct child_io *io,
			const char *buf, size_t n)
{
	struct subproc_cut *cut = io->cut;
	unsigned long long room;
	struct strbuf note = STRBUF_INIT;

	if (cut->full) {
		cut->dropped += n;
		return;
	}
	room = p->log_max > CUT_NOTE_ROOM ? p->log_max - CUT_NOTE_ROOM : 0;
	if (!p->log_max || cut->logged + n <= room) {
		write_log(p->log_fd, buf, n);
		cut->logged += n;
		return;
	}
	n -= room > cut->logged ? room - cut->logged : 0;
	if (room > cut->logged)
		write_log(p->log_fd, buf, room - cut->logged);
	strbuf_addf(&note, "\n[%s cut at ", p->log_what ? p->log_what :
		    "output");
	strbuf_add_size(&note, p->log_max);
	strbuf_addstr(&note, ": the rest is not kept]\n");
	write_log(p->log_fd, note.buf, note.len);
	cut->logged = (room > cut->logged ? room : cut->logged) + note.len;
	cut->dropped += n;
	cut->full = 1;
	strbuf_release(&note);
}

/*
 * The output to the log, each line at most line_max bytes: the rest of
 * a longer one is dropped, where it was cut said on a line of its own.
 */
static void log_output(const struct subproc *p, struct child_io *io,
		       const char *buf, size_t n)
{
	const char *end = buf + n, *nl;
	struct strbuf note = STRBUF_INIT;

	if (!p->line_max) {
		log_bounded(p, io, buf, n);
		return;
	}
	for (; buf < end; buf = nl ? nl + 1 : end) {
		size_t len;

		nl = memchr(buf, '\n', end - buf);
		len = (nl ? nl : end) - buf;
		if (io->skipping) {
			io->skipping = !nl;
			continue;
		}
		if (io->col + len <= p->line_max) {
			log_bounded(p, io, buf, len + !!nl);
			io->col = nl ? 0 : io->col + len;
			continue;
		}
		log_bounded(p, io, buf, p->line_max - io->col);
		strbuf_reset(&note);
		strbuf_addstr(&note, "\n[line cut at ");
		strbuf_add_size(&note, p->line_max);
		strbuf_addstr(&note, "]\n");
		log_bounded(p, io, note.buf, note.len);
		io->cut->lines++;
		io->col = 0;
		io->skipping = !nl;
	}
	strbuf_release(&note);
}

/*
 * How much of n bytes just read p->out_max leaves room for; past it the
 * child is to be stopped (io->over).
 */
static size_t within_budget(const struct subproc *p, struct child_io *io,
			    size_t n)
{
	if (!p->out_max)
		return n;
	if (n > p->out_max - io->read) {
		n = p->out_max - io->read;
		io->over = 1;
	}
	io->read += n;
	return n;
}

/* What the child printed: to the log, the capture and line(). */
static void take_output(const struct subproc *p, struct child_io *io,
			const char *buf, size_t n)
{
	n = within_budget(p, io, n);
	io->cut->read += n;
	if (p->log_fd >= 0)
		log_output(p, io, buf, n);
	keep(p, buf, n);
	emit_lines(p, io, buf, n);
}

/* Its stderr apart: the head of it, at most capture_err_max bytes. */
static void take_err(const struct subproc *p, struct child_io *io,
		     const char *buf, size_t n)
{
	size_t room;

	n = within_budget(p, io, n);
	room = n;

	if (p->capture_err_max) {
		room = p->capture_err->len < p->capture_err_max ?
		       p->capture_err_max - p->capture_err->len : 0;
		if (room > n)
			room = n;
	}
	strbuf_add(p->capture_err, buf, room);
	io->cut->err_dropped += n - room;
}

/*
 * The pipes (stderr apart when it is captured) and the child, in a
 * process group of its own; the parent keeps the read ends.  Returns
 * the child, or -1 (said).
 */
static pid_t subproc_start(const struct subproc *p, int fds[2], int efds[2])
{
	char **env;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return error("pipe: %s", strerror(errno));
	if (p->capture_err && pipe2(efds, O_CLOEXEC) < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("pipe: %s", strerror(errno));
	}
	env = child_env(p);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		if (efds[0] >= 0) {
			close(efds[0]);
			close(efds[1]);
		}
		free(env);
		return error("fork: %s", strerror(errno));
	}
	if (!pid)
		child(p, fds[1], efds[1], env);
	free(env);
	setpgid(pid, pid);
	close(fds[1]);
	if (efds[1] >= 0)
		close(efds[1]);
	return pid;
}

/*
 * How long poll() may wait: until the deadline or the next watch,
 * whichever comes first (-1: no limit).  *timed_out when the deadline
 * has passed.
 */
static int poll_ms(double deadline, double next_watch, int *timed_out)
{
	int ms = -1;

	if (deadline) {
		double left = deadline - now_monotonic();

		if (left <= 0) {
			*timed_out = 1;
			return 0;
		}
		ms = (int)(left * 1000) + 1;
	}
	if (next_watch) {
		double left = next_watch - now_monotonic();
		int wms = left > 0 ? (int)(left * 1000) + 1 : 0;

		if (ms < 0 || wms < ms)
			ms = wms;
	}
	return ms;
}

/*
 * What stderr has, into p->capture_err; closed at its end.  -1 when
 * the read was interrupted.
 */
static int read_err(const struct subproc *p, struct child_io *io, char *buf,
		    size_t size)
{
	ssize_t n = read(io->err, buf, size);

	if (n < 0 && errno == EINTR)
		return -1;
	if (n <= 0) {
		close(io->err);
		io->err = -1;
	} else {
		take_err(p, io, buf, n);
	}
	return 0;
}

/*
 * Reads the child's output and stderr until both close, the deadline
 * passes or p->watch stops it, calling the watch on time: a child that
 * closes one and writes on to the other is stopped at the deadline too.
 */
static void pump(const struct subproc *p, struct child_io *io,
		 double deadline, double next_watch)
{
	char buf[65536];

	while (io->out >= 0 || io->err >= 0) {
		struct pollfd pfd[2] = {
			{ .fd = io->out, .events = POLLIN },
			{ .fd = io->err, .events = POLLIN },
		};
		int ms, r;
		ssize_t n;

		if (next_watch && now_monotonic() >= next_watch) {
			io->stopped = p->watch(p->watch_data);
			if (io->stopped)
				break;
			next_watch = now_monotonic() + p->watch_interval;
		}
		ms = poll_ms(deadline, next_watch, &io->timed_out);
		if (io->timed_out)
			break;
		r = poll(pfd, 2, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (!r)
			continue;
		/* stderr apart: read it whenever it has something */
		if (io->err >= 0 && pfd[1].revents &&
		    read_err(p, io, buf, sizeof(buf)))
			continue;
		if (io->over)
			break;
		if (io->out < 0 || !pfd[0].revents)
			continue;
		n = read(io->out, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(io->out);
			io->out = -1;
			continue;
		}
		take_output(p, io, buf, n);
		if (io->over)
			break;
	}
	if (io->out >= 0)
		close(io->out);
	if (io->err >= 0)
		close(io->err);
	io->out = io->err = -1;
}

int subproc_run(const struct subproc *p)
{
	struct child_io io = { .pending = STRBUF_INIT };
	int fds[2], efds[2] = { -1, -1 }, status = 0;
	double deadline = p->timeout > 0 ? now_monotonic() + p->timeout : 0;
	double next_watch = p->watch ? now_monotonic() + p->watch_interval : 0;
	pid_t pid;

	io.cut = p->cut ? p->cut : &io.own;
	pid = subproc_start(p, fds, efds);
	if (pid < 0)
		return -1;
	io.out = fds[0];
	io.err = efds[0];
	pump(p, &io, deadline, next_watch);
	if (io.timed_out || io.stopped || io.over) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (io.pending.len && p->line)
		p->line(io.pending.buf, p->data);
	strbuf_release(&io.pending);
	if (io.timed_out)
		return SUBPROC_TIMEOUT;
	if (io.stopped)
		return io.stopped;
	if (io.over)
		return SUBPROC_CUT;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int subproc_capture(const char *const *argv, struct strbuf *out)
{
	struct subproc p = {
		.argv = argv, .stdin_fd = -1, .log_fd = -1, .capture = out,
	};

	return subproc_run(&p);
}

int subproc_executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

char *subproc_find(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	const char *s, *e;

	if (strchr(prog, '/'))
		return subproc_executable(prog) ? xstrdup(prog) : NULL;
	for (s = path ? path : "/usr/bin:/bin"; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, ':');
		if (e == s)
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, s, e - s);
		strbuf_addf(&sb, "/%s", prog);
		if (subproc_executable(sb.buf))
			return strbuf_detach(&sb, NULL);
	}
	strbuf_release(&sb);
	return NULL;
}

int subproc_have(const char *prog)
{
	char *p = subproc_find(prog);
	int found = p != NULL;

	free(p);
	return found;
}
