// SPDX-License-Identifier: GPL-2.0
/*
 * jobdir.c - the files of a job directory (see jobdir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "jobdir.h"
#include "secret.h"
#include "series.h"

char *jobdir_path(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

int jobdir_read(const char *dir, const char *name, struct strbuf *sb)
{
	char *path = jobdir_path(dir, name);
	int ret = strbuf_read_file(sb, path) < 0 ? -1 : 0;

	free(path);
	return ret;
}

int jobdir_write(const char *dir, const char *name, const char *data,
		 size_t len)
{
	char *path = jobdir_path(dir, name);
	int ret = !strcmp(name, "thread.mbox") ?
		  write_file_atomic(path, data, len) :
		  secret_write_file(path, data, len);

	if (ret < 0)
		error("cannot write %s: %s", path, strerror(errno));
	free(path);
	return ret;
}

int jobdir_series(const char *dir, const char *msgid, struct series *s)
{
	struct strbuf mbox = STRBUF_INIT;
	int ret;

	if (jobdir_read(dir, "thread.mbox", &mbox) < 0) {
		strbuf_release(&mbox);
		return error("job %s has no thread.mbox", dir);
	}
	ret = series_from_mbox(mbox.buf, mbox.len, 0, msgid, s);
	strbuf_release(&mbox);
	return ret ? EXIT_FAIL : 0;
}

void jobdir_fail(const char *dir, struct job_state *js,
		 enum job_outcome outcome, const char *log)
{
	js->outcome = outcome;
	jobdir_write(dir, "failure.txt", log, strlen(log));
	js->stage = JOB_REPLY;
}

int jobdir_clean(const char *dir, int keep_thread)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return error("cannot read %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		char *path;

		if (!strcmp(n, ".") || !strcmp(n, "..") ||
		    !strcmp(n, "state") || !strcmp(n, "lock") ||
		    (keep_thread && !strcmp(n, "thread.mbox")))
			continue;
		path = jobdir_path(dir, n);
		if (remove_tree(path) < 0)
			ret = error("cannot remove %s: %s", path,
				    strerror(errno));
		free(path);
	}
	closedir(d);
	return ret;
}

/*
 * A stage stopped, or its state could not be saved, because a write
 * found no space: say which file system, how full, and what frees it.
 * The state on disk still names the stage, whose files are whole or
 * absent (write_file_atomic, samples_append_file), so running the job
 * again once there is space redoes that stage and nothing else.
 */
int jobdir_disk_full(const char *dir, const char *stage)
{
	const char *path = disk_full_path();
	char *mnt = mount_point_of(path);
	struct statvfs sv;
	long long avail = -1;

	if (statvfs(mnt, &sv) == 0)
		avail = (long long)sv.f_bavail * (long long)sv.f_frsize;
	error("job %s stopped at stage %s: the file system at %s is full (%lld bytes free) writing %s; nothing recorded is lost: 'sched-bot gc' or an operator frees space, then run the job again to resume",
	      dir, stage, mnt, avail, path);
	free(mnt);
	return EXIT_DISKFULL;
}

