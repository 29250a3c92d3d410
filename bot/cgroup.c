// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - a cgroup for each sandbox run.
 *
 * Why a cgroup and not only rlimits: RLIMIT_AS is per process and
 * RLIMIT_NPROC per uid, so a thousand processes of 4G each are
 * allowed, and the sandbox's tmpfs mounts (/dev/shm, /dev, /) are
 * bounded by nothing but their size option.  A memory cgroup charges
 * every page the run makes, tmpfs pages included, to one limit, and
 * the pids controller bounds its processes as a whole.  It also names
 * every process of the run, so that none outlives it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "util.h"

/* Where this process makes its runs' cgroups; found once. */
static struct {
	int state;			/* 0 unknown, 1 usable, -1 none */
	int v2;
	int nr;
	char *base[CGROUP_MAX_HIER];
	const char *file[CGROUP_MAX_HIER];	/* a file only it has */
	unsigned int seq;
} where;

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0, e;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -1;
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

static int write_at(const char *dir, const char *file, const char *s)
{
	char *path = xasprintf("%s/%s", dir, file);
	int ret = write_str(path, s);

	free(path);
	return ret;
}

/* "KEY N" in a flat-keyed file (memory.events, pids.events...): N. */
static long long read_key(const char *dir, const char *file, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", dir, file);
	const char *line, *nl;
	size_t klen = strlen(key);
	long long v = 0;

	if (strbuf_read_file(&sb, path) >= 0)
		for (line = sb.buf; *line; line = *nl ? nl + 1 : nl) {
			nl = strchrnul(line, '\n');
			if (!strncmp(line, key, klen) && line[klen] == ' ') {
				v = strtoll(line + klen + 1, NULL, 10);
				break;
			}
		}
	strbuf_release(&sb);
	free(path);
	return v;
}

/*
 * The mount point of a cgroup hierarchy: type "cgroup2", or "cgroup"
 * with controller opt among its mount options.  NULL: none.
 */
static char *find_mount(const char *type, const char *opt)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line, *nl;
	char dev[64], dir[256], fs[32], opts[512], *ret = NULL;

	if (strbuf_read_file(&sb, "/proc/self/mounts") < 0)
		return NULL;
	for (line = sb.buf; *line && !ret; line = *nl ? nl + 1 : nl) {
		char *o, *save = NULL;

		nl = strchrnul(line, '\n');
		if (sscanf(line, "%63s %255s %31s %511s", dev, dir, fs,
			   opts) != 4 || strcmp(fs, type))
			continue;
		if (!opt) {
			ret = xstrdup(dir);
			break;
		}
		for (o = strtok_r(opts, ",", &save); o;
		     o = strtok_r(NULL, ",", &save))
			if (!strcmp(o, opt))
				ret = xstrdup(dir);
	}
	strbuf_release(&sb);
	return ret;
}

/* Our own cgroup in a hierarchy: v1 controller opt, or v2 (NULL). */
static char *own_cgroup(const char *opt)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line, *nl, *c, *p;
	char *ret = NULL;

	if (strbuf_read_file(&sb, "/proc/self/cgroup") < 0)
		return NULL;
	for (line = sb.buf; *line && !ret; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		c = memchr(line, ':', nl - line);
		p = c ? memchr(c + 1, ':', nl - c - 1) : NULL;
		if (!p)
			continue;
		c++;
		if (!opt) {
			if (p == c && line[0] == '0')
				ret = xstrndup(p + 1, nl - p - 1);
			continue;
		}
		/* "4:memory:/x" or "2:cpu,cpuacct:/y" */
		while (c < p) {
			const char *e = memchr(c, ',', p - c);

			if (!e)
				e = p;
			if ((size_t)(e - c) == strlen(opt) &&
			    !strncmp(c, opt, e - c)) {
				ret = xstrndup(p + 1, nl - p - 1);
				break;
			}
			c = e + 1;
		}
	}
	strbuf_release(&sb);
	return ret;
}

static int has_words(const char *dir, const char *file, const char *a,
		     const char *b)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", dir, file), *s, *save = NULL;
	int got = 0;

	if (strbuf_read_file(&sb, path) >= 0)
		for (s = strtok_r(sb.buf, "\n ", &save); s;
		     s = strtok_r(NULL, "\n ", &save))
			got |= (!strcmp(s, a)) | (!strcmp(s, b)) << 1;
	strbuf_release(&sb);
	free(path);
	return got == 3;
}

static int mkdir_ok(const char *path)
{
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* Make dir and give its children memory and pids. */
static int v2_parent(const char *dir)
{
	if (mkdir_ok(dir) < 0)
		return -1;
	if (has_words(dir, "cgroup.subtree_control", "memory", "pids"))
		return 0;
	return write_at(dir, "cgroup.subtree_control", "+memory +pids");
}

/* The v2 sub-tree: see cgroup.h.  Sets *why on failure. */
static int setup_v2(const char *mnt, const char *cfg, const char **why)
{
	char *own = NULL, *ownd = NULL, *leaf = NULL, *pid = NULL;
	const char *slash;
	int ret = -1;

	where.v2 = 1;
	where.file[0] = "memory.max";
	if (strcmp(cfg, "auto")) {
		where.base[0] = xasprintf("%s%s", mnt, cfg);
		if (v2_parent(where.base[0]) < 0)
			*why = where.base[0];
		else
			ret = 0;
		goto out;
	}
	own = own_cgroup(NULL);
	if (!own) {
		*why = "/proc/self/cgroup";
		goto out;
	}
	if (!strcmp(own, "/")) {
		ownd = xstrdup(mnt);
		where.base[0] = xasprintf("%s/sched-bot", mnt);
		if (write_at(ownd, "cgroup.subtree_control",
			     "+memory +pids") < 0 ||
		    v2_parent(where.base[0]) < 0)
			*why = where.base[0];
		else
			ret = 0;
		goto out;
	}
	slash = strrchr(own, '/');
	ownd = xasprintf("%s%s", mnt, own);
	/* a bot started by the bot is already in the leaf */
	if (slash && !strcmp(slash, "/bot"))
		ownd[strlen(ownd) - 4] = 0;
	leaf = xasprintf("%s/bot", ownd);
	pid = xasprintf("%d", (int)getpid());
	where.base[0] = xasprintf("%s/sandboxes", ownd);
	/*
	 * No process may sit in a cgroup whose children have controllers:
	 * we move into a leaf of our own first (systemd's Delegate=yes
	 * hands the unit's cgroup to us for that).
	 */
	if (mkdir_ok(leaf) < 0 || write_at(leaf, "cgroup.procs", pid) < 0 ||
	    v2_parent(ownd) < 0 || v2_parent(where.base[0]) < 0)
		*why = ownd;
	else
		ret = 0;
out:
	free(own);
	free(ownd);
	free(leaf);
	free(pid);
	return ret;
}

static int setup_v1(const char *cfg, const char **why)
{
	static const char *const ctl[] = { "memory", "pids" };
	static const char *const file[] = {
		"memory.limit_in_bytes", "pids.max",
	};
	size_t i;

	where.v2 = 0;
	for (i = 0; i < ARRAY_SIZE(ctl); i++) {
		char *mnt = find_mount("cgroup", ctl[i]), *own = NULL, *b;

		if (!mnt)
			continue;
		if (strcmp(cfg, "auto")) {
			b = xasprintf("%s%s", mnt, cfg);
		} else {
			own = own_cgroup(ctl[i]);
			b = xasprintf("%s%s/sched-bot", mnt,
				      own && strcmp(own, "/") ? own : "");
		}
		free(mnt);
		free(own);
		where.file[where.nr] = file[i];
		where.base[where.nr++] = b;
		if (mkdir_ok(b) < 0) {
			*why = b;
			return -1;
		}
	}
	if (!where.nr) {
		*why = "no cgroup v1 memory or pids hierarchy";
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/* run-PID-N of a bot that is gone: its processes killed, removed. */
static void remove_stale(void)
{
	int h;

	for (h = 0; h < where.nr; h++) {
		DIR *d = opendir(where.base[h]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			struct cgroup cg = CGROUP_INIT;
			int pid;

			if (sscanf(de->d_name, "run-%d-", &pid) != 1 ||
			    pid <= 0 || !kill(pid, 0) || errno != ESRCH)
				continue;
			cg.v2 = where.v2;
			cg.nr = 1;
			cg.dir[0] = xasprintf("%s/%s", where.base[h],
					      de->d_name);
			cgroup_destroy(&cg);
		}
		if (d)
			closedir(d);
	}
}

static struct cgroup_opts opts;
static int configured;

void cgroup_configure(const struct cgroup_opts *o)
{
	opts = *o;
	configured = 1;
}

static int setup(void)
{
	const char *cfg = opts.where;
	const char *why = NULL;
	char *mnt;
	int ret;

	if (where.state)
		return where.state;
	/* unconfigured, no cgroup would bound a sandbox: a bug */
	if (!configured)
		die("BUG: cgroup used before cgroup_configure()");
	where.state = -1;
	if (!cfg || !strcmp(cfg, "none")) {
		warning("sandbox.cgroup = none: sandboxes have no cgroup; "
			"their memory and processes are bounded by the rlimits only (sandbox.memLimit, per process, and sandbox.maxProcs)");
		return -1;
	}
	if (strcmp(cfg, "auto") && cfg[0] != '/') {
		error("sandbox.cgroup: '%s' is not auto, none or a path starting with /",
		      cfg);
		return where.state = -2;
	}
	mnt = find_mount("cgroup2", NULL);
	if (mnt && has_words(mnt, "cgroup.controllers", "memory", "pids"))
		ret = setup_v2(mnt, cfg, &why);
	else
		ret = setup_v1(cfg, &why);
	free(mnt);
	if (!ret) {
		remove_stale();
		return where.state = 1;
	}
	if (strcmp(cfg, "auto")) {
		error("sandbox.cgroup = %s: cannot use %s: %s", cfg,
		      why ? why : "it", strerror(errno));
		return where.state = -2;
	}
	warning("no cgroup for the sandbox (%s: %s): its memory and processes are bounded by the rlimits only (sandbox.memLimit, per process, and sandbox.maxProcs); run as root or with a delegated cgroup (systemd: Delegate=yes), or set sandbox.cgroup",
		why ? why : "?", strerror(errno));
	return -1;
}

static int set_limits(const struct cgroup *cg, int h,
		      unsigned long long memory, long pids)
{
	char mem[32], pid[32];

	if (memory)
		snprintf(mem, sizeof(mem), "%llu", memory);
	else
		strcpy(mem, cg->v2 ? "max" : "-1");
	if (pids)
		snprintf(pid, sizeof(pid), "%ld", pids);
	else
		strcpy(pid, "max");
	if (cg->v2) {
		/* no swap file: no memory.swap.max either */
		if (write_at(cg->dir[h], "memory.max", mem) < 0 ||
		    (write_at(cg->dir[h], "memory.swap.max", "0") < 0 &&
		     errno != ENOENT) ||
		    write_at(cg->dir[h], "memory.oom.group", "1") < 0 ||
		    write_at(cg->dir[h], "pids.max", pid) < 0)
			return -1;
		return 0;
	}
	if (!strcmp(where.file[h], "pids.max"))
		return write_at(cg->dir[h], "pids.max", pid);
	/* memsw (memory + swap) equal to memory: no swap */
	if (write_at(cg->dir[h], "memory.limit_in_bytes", mem) < 0 ||
	    (write_at(cg->dir[h], "memory.memsw.limit_in_bytes", mem) < 0 &&
	     errno != ENOENT))
		return -1;
	return 0;
}

int cgroup_create(struct cgroup *cg, unsigned long long memory, long pids)
{
	int h, s;

	*cg = (struct cgroup)CGROUP_INIT;
	s = setup();
	if (s == -2)
		return -1;
	if (s < 0)
		return 0;
	cg->v2 = where.v2;
	cg->memory = memory;
	where.seq++;
	for (h = 0; h < where.nr; h++) {
		char *procs;

		cg->dir[h] = xasprintf("%s/run-%d-%u", where.base[h],
				       (int)getpid(), where.seq);
		cg->nr = h + 1;
		if (mkdir(cg->dir[h], 0755) < 0 ||
		    set_limits(cg, h, memory, pids) < 0)
			goto fail;
		procs = xasprintf("%s/cgroup.procs", cg->dir[h]);
		cg->procs_fd[h] = open(procs, O_WRONLY | O_CLOEXEC);
		free(procs);
		if (cg->procs_fd[h] < 0)
			goto fail;
	}
	return 0;
fail:
	error("cannot make the sandbox's cgroup %s: %s", cg->dir[h],
	      strerror(errno));
	cgroup_destroy(cg);
	return -1;
}

int cgroup_enter(const struct cgroup *cg)
{
	int h;

	for (h = 0; h < cg->nr; h++)
		if (write(cg->procs_fd[h], "0", 1) != 1)
			return -1;
	return 0;
}

/*
 * Anonymous and tmpfs pages within a sixty-fourth (at least 4M) of the
 * limit: the run is out of memory even where the kernel kills nothing
 * (a tmpfs write past it just fails with ENOMEM).
 */
static int memory_full(const struct cgroup *cg, const char *dir)
{
	unsigned long long used, slack;

	if (!cg->memory)
		return 0;
	used = read_key(dir, "memory.stat", cg->v2 ? "anon" : "rss") +
	       read_key(dir, "memory.stat", "shmem");
	slack = cg->memory / 64 > 4 << 20 ? cg->memory / 64 : 4 << 20;
	return used + slack >= cg->memory;
}

int cgroup_over(const struct cgroup *cg)
{
	int h;

	for (h = 0; h < cg->nr; h++) {
		if ((cg->v2 || !strcmp(where.file[h], "memory.limit_in_bytes"))
		    && memory_full(cg, cg->dir[h]))
			return CGROUP_OVER_MEMORY;
		if (cg->v2 && read_key(cg->dir[h], "memory.events",
				       "oom_kill") > 0)
			return CGROUP_OVER_MEMORY;
		if (!cg->v2 && !strcmp(where.file[h], "memory.limit_in_bytes")
		    && read_key(cg->dir[h], "memory.oom_control",
				"oom_kill") > 0)
			return CGROUP_OVER_MEMORY;
		if ((cg->v2 || !strcmp(where.file[h], "pids.max")) &&
		    read_key(cg->dir[h], "pids.events", "max") > 0)
			return CGROUP_OVER_PIDS;
	}
	return 0;
}

/* SIGKILL each process listed; the number listed. */
static int kill_listed(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/cgroup.procs", dir), *s, *save = NULL;
	int nr = 0;

	if (strbuf_read_file(&sb, path) >= 0)
		for (s = strtok_r(sb.buf, "\n", &save); s;
		     s = strtok_r(NULL, "\n", &save)) {
			int pid = atoi(s);

			if (pid > 0 && pid != getpid()) {
				kill(pid, SIGKILL);
				nr++;
			}
		}
	strbuf_release(&sb);
	free(path);
	return nr;
}

void cgroup_kill(const struct cgroup *cg)
{
	int h;

	for (h = 0; h < cg->nr; h++)
		if (!cg->v2 || write_at(cg->dir[h], "cgroup.kill", "1") < 0)
			kill_listed(cg->dir[h]);
}

int cgroup_destroy(struct cgroup *cg)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int h, tries, ret = 0;

	for (h = 0; h < cg->nr; h++) {
		if (cg->procs_fd[h] >= 0)
			close(cg->procs_fd[h]);
		cg->procs_fd[h] = -1;
	}
	/* A process killed is gone from cgroup.procs only once it has
	 * exited: try for ten seconds, killing again what forked since.
	 */
	for (h = 0; h < cg->nr; h++) {
		for (tries = 0; tries < 1000; tries++) {
			if (!rmdir(cg->dir[h]) || errno == ENOENT)
				break;
			if (errno != EBUSY)
				break;
			if (!cg->v2 ||
			    write_at(cg->dir[h], "cgroup.kill", "1") < 0)
				kill_listed(cg->dir[h]);
			nanosleep(&ts, NULL);
		}
		if (!access(cg->dir[h], F_OK))
			ret = error("cannot remove the sandbox's cgroup %s: %s",
				    cg->dir[h], strerror(errno));
		free(cg->dir[h]);
		cg->dir[h] = NULL;
	}
	cg->nr = 0;
	return ret;
}
