/* SPDX-License-Identifier: GPL-2.0 */
/*
 * console.h - read what sched-bench's init printed on a serial console.
 *
 * The guest's /init (bot/workloads/init.c) frames everything it says:
 *
 *   @@SB BEGIN 1
 *   @@SB <seq> <crc32> <payload>
 *   @@SB END <nr> rc=<rc>
 *
 * seq counts from 1, crc32 (zlib's, 8 hex digits) covers "<seq> <payload>",
 * and nr is the number of framed lines.  Payloads:
 *
 *   INFO key=value          release=, nr_cpus=, autogroup=, cgroup=,
 *                           perf= (or perf_error=)
 *   RUN <workload> <run>    a workload run starts (args follow)
 *   OUT <text>              a line of its standard output
 *   ERR <text>              a line of its standard error
 *   STAT key=value ...      a program's run (sb.exec): wall_s and the
 *                           machine's cpu_usr, cpu_sys, cpu_idle,
 *                           cpu_iowait, cpu_softirq (%) over it
 *   PERF <csv line>         with sb.perf: a line of perf stat -x, around
 *                           the run (run_perf_rows() makes the rows)
 *   RC <code>               the run ended with that exit code
 *   PROFILE <workload> <cell> <event> mode=|error=
 *                           with sb.profile, after the runs: a profile
 *                           of that cell of the workload, perf record of
 *                           event (cycles, or cpu-clock without a PMU)
 *   PROF self|children <line>  a line of its perf report (--no-children,
 *                           --children): run_profile_rows() makes the rows
 *
 * The kernel prints on the same console, so its lines can land between
 * or inside ours: frames are found by prefix anywhere in a line, and a
 * frame that fails its crc or a gap in seq is corruption, reported, not
 * guessed at.
 */
#ifndef SCHED_BOT_CONSOLE_H
#define SCHED_BOT_CONSOLE_H

#include <stddef.h>

#include "samples.h"
#include "util.h"

#define CONSOLE_PREFIX "@@SB "

/*
 * The longest console line read: a frame is at most ~2.1 KB (init's
 * LINE_MAX_FRAME) and a kernel line 1 KB, so a longer line is a flood;
 * only its first CONSOLE_LINE_MAX bytes are looked at (a frame cut there
 * fails its crc) or shown.
 */
#define CONSOLE_LINE_MAX (8 << 10)

enum console_status {
	CONSOLE_OK = 0,
	CONSOLE_NO_INIT,	/* the guest never reached /init */
	CONSOLE_PANIC,		/* "Kernel panic" on the console */
	CONSOLE_TIMEOUT,	/* no END before the timeout */
	CONSOLE_TRUNCATED,	/* output stopped without END */
	CONSOLE_CORRUPT,	/* bad crc, lost or garbage frames */
	CONSOLE_FAILED,		/* a workload or init itself failed */
	CONSOLE_ERROR,		/* the target could not be started */
	CONSOLE_INFRA,		/* the lab failed (LAVA: Infrastructure), not the kernel */
};

struct console_run {
	char *workload;
	int run;
	char *args;
	int rc;			/* -1 until RC */
	struct strbuf out;	/* OUT lines */
	struct strbuf err;	/* ERR lines */
	struct strbuf perf;	/* PERF lines: perf stat -x, around the run */
	char *stat;		/* the STAT payload, or NULL */
};

/* A profile (PROFILE and its PROF lines), as much as is kept of it. */
struct console_profile {
	char *workload;
	int cell;		/* which cell of its runs */
	char *event;		/* "cycles", "cpu-clock" */
	int failed;		/* error=: nothing was recorded */
	struct strbuf self, children;	/* the report lines, bounded */
	size_t lines;
};

/* What of the guest's profiles is kept: they are its text. */
#define CONSOLE_MAX_PROFILES 16
#define CONSOLE_PROFILE_LINES 200
#define CONSOLE_PROFILE_BYTES (32 << 10)

struct console_result {
	enum console_status status;
	char *reason;			/* NULL when OK */
	char *last_lines;		/* the console's last lines */
	struct console_run *runs;
	size_t nr, alloc;
	char **info;			/* "key=value" from INFO */
	size_t nr_info, alloc_info;
	struct console_profile *profiles;
	size_t nr_profiles, alloc_profiles;
	size_t frames;			/* framed lines accepted */
	size_t stray;			/* console lines that were not ours */
	size_t long_lines;		/* lines cut at CONSOLE_LINE_MAX */
	int rc;				/* END's rc, -1 without END */
	size_t begin_offset;		/* byte offset of BEGIN, or 0 */
};

/*
 * Parse a console log.  timed_out says the target was killed at its
 * timeout (so a missing END is a hang, not a truncation).  Returns
 * res->status.
 */
enum console_status console_parse(const char *buf, size_t len,
				  int timed_out, struct console_result *res);
void console_result_release(struct console_result *res);
/* Only the status console_parse() would give (not timed out). */
enum console_status console_parse_status(const char *buf, size_t len);
/* "ok", "no-init", "panic", "timeout", "truncated", "corrupt", ... */
const char *console_status_name(enum console_status s);
/* INFO's value for key, or NULL. */
const char *console_info(const struct console_result *res, const char *key);
/*
 * The last n lines of buf, into out, each cut at CONSOLE_LINE_MAX, with
 * control bytes but tab and newline shown as '?'.
 */
void console_tail(const char *buf, size_t len, int n, struct strbuf *out);

/* A STAT value of run r: 0 and *v, or -1 when it has none. */
int console_run_stat(const struct console_run *r, const char *key,
		     double *v);

/*
 * Turn each run's OUT text into result rows: sched-bench's records with
 * run_parse_bench_output(), a tool's (hackbench, perf bench) with
 * run_tool_rows(), the local target's parser, its env records from the
 * same OUT text; label, target and kernel come from here.  Each
 * profile's rows (diag.profile.*) take the workload and params of the
 * first run of its cell.  Returns 0,
 * or -1 (printed) when a run's output is not parseable.
 */
int console_to_samples(const struct console_result *res, const char *label,
		       const char *target, struct sample_set *set);

#endif
