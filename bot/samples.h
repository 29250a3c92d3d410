/* SPDX-License-Identifier: GPL-2.0 */
/*
 * samples.h - the results CSV: one row per measured sample, written by
 * `sched-bot run` / the targets and read by `sched-bot compare`.
 *
 * Columns (header names; order on read does not matter, unknown columns
 * are ignored, the first nine are required):
 *
 *   label kernel workload params run metric value unit higher_is_better
 *   sample placement cpu_usr cpu_sys cpu_idle cpu_iowait cpu_softirq
 *   nr_cpus autogroup_config autogroup_enabled cgroup target machine time
 *
 * label     the side of a comparison ("base", "patched", "v6.13", ...)
 * kernel    uname -r of the kernel that ran it
 * params    workload parameters, canonical "key=value key=value" text
 * run       1-based repetition; sample is the sample within a run (0 =
 *           the run's summary value, 1.. = per-second samples)
 * placement "pinned", "pinned-2cpu", "free" or "" when not applicable
 * cpu_*     % of machine time over the run, from /proc/stat
 * Empty fields mean unknown.  Numbers are written with %.17g so that a
 * read-back is exact.
 */
#ifndef SCHED_BOT_SAMPLES_H
#define SCHED_BOT_SAMPLES_H

#include <stddef.h>

#include "util.h"

struct sample {
	char *label;
	char *kernel;
	char *workload;
	char *params;
	int run;
	int sample;
	char *metric;
	double value;
	char *unit;
	int higher_is_better;
	char *placement;
	double cpu_usr, cpu_sys, cpu_idle, cpu_iowait, cpu_softirq; /* NAN */
	int nr_cpus;			/* 0 = unknown */
	char *autogroup_config;		/* "y", "n", "" */
	char *autogroup_enabled;	/* "1", "0", "" */
	char *cgroup;
	char *target;
	char *machine;
	char *time;			/* ISO 8601 UTC */
};

struct sample_set {
	struct sample *v;
	size_t nr, alloc;
};

/* A sample with every number unknown (NAN / 0) and strings NULL. */
void sample_init(struct sample *s);
void sample_release(struct sample *s);
/* Deep-copies *s into the set. */
void sample_set_add(struct sample_set *set, const struct sample *s);
void sample_set_release(struct sample_set *set);

/*
 * Read a results CSV into set (appending).  On bad input returns -1 after
 * printing "FILE:LINE: column 'X': what is wrong"; set keeps what was
 * read before the error.
 */
int samples_read_file(const char *path, struct sample_set *set);
int samples_read_buf(const char *name, const char *buf, size_t len,
		     struct sample_set *set);

/* The header line, with trailing newline. */
void samples_header(struct strbuf *out);
/* One row, CSV-quoted, with trailing newline. */
void samples_format_row(struct strbuf *out, const struct sample *s);

/*
 * Append rows to path, creating it with a header when absent or empty.
 * The rows go out in one write(2) on an O_APPEND descriptor, fsync'ed;
 * when that fails (a full disk) the file is cut back to where it was,
 * so that a file holds all of a call's rows or none of them (a file
 * this call made and could not fill is removed).
 */
int samples_append_file(const char *path, const struct sample *rows,
			size_t nr);

#endif
