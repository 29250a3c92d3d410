/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobdir.h - the files of a job directory (job.h lists them): their
 * paths, reading one, writing one, and the series its thread.mbox
 * holds, for the pipeline, the reply and the bisection alike.
 */
#ifndef SCHED_BOT_JOBDIR_H
#define SCHED_BOT_JOBDIR_H

#include <stddef.h>

#include "jobstate.h"
#include "util.h"

struct series;

/* dir/name, allocated. */
char *jobdir_path(const char *dir, const char *name);

/* The whole of dir/name into sb; 0, or -1 when it cannot be read. */
int jobdir_read(const char *dir, const char *name, struct strbuf *sb);

/*
 * Write dir/name atomically; -1 with an error printed.  A job file can
 * carry text from the thread, the build, the lab or the configuration:
 * no configured secret goes in.  But for thread.mbox, the thread as
 * lore has it: the input, public already, and what the patch is
 * applied from (scrubbed, it would be another patch).
 */
int jobdir_write(const char *dir, const char *name, const char *data,
		 size_t len);

/*
 * The series of dir/thread.mbox that msgid (NULL: the thread's own)
 * names, into s; 0, -1 with an error when there is no thread.mbox,
 * or EXIT_FAIL when it holds no series.
 */
int jobdir_series(const char *dir, const char *msgid, struct series *s);

/*
 * Something went wrong that a reply should explain (the series did not
 * apply, a kernel did not build or boot): the outcome set, log written
 * to failure.txt, and the job's next stage the reply.
 */
void jobdir_fail(const char *dir, struct job_state *js,
		 enum job_outcome outcome, const char *log);

/*
 * Start a stored job over: the files of dir go, but for thread.mbox
 * when keep_thread (the thread stays the same), so that no result of
 * the old options can mix with the new ones (results.csv is appended
 * to, run by run).  They go
 * before the new state is written: a crash in between leaves the old
 * state, whose next stage then finds its input missing and stops.
 */
int jobdir_clean(const char *dir, int keep_thread);

/*
 * The job in dir stopped at stage (or its state was not saved) because
 * a write found no space (disk_full_path()): says which file system,
 * how full, what frees it.  Returns EXIT_DISKFULL.
 */
int jobdir_disk_full(const char *dir, const char *stage);

#endif
