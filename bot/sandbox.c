// SPDX-License-Identifier: GPL-2.0
/*
 * sandbox.c - bubblewrap around untrusted code.
 *
 * Why drop to sandbox.user ourselves instead of bwrap --uid: run by
 * root, bwrap maps the sandbox's uid onto root outside, so the build
 * would own every root file it can see and be exempt from
 * RLIMIT_NPROC.  Dropped to a real unprivileged uid first, bwrap makes
 * an unprivileged user namespace and nothing in it is root anywhere.
 *
 * That uid may not reach the directories (a cache below /root, mode
 * 0700), so as root the child first makes a private mount namespace,
 * opens each directory while still root and mounts it on a staging
 * tmpfs where the dropped uid can reach it; bwrap binds from there.
 *
 * Why the child mounts /tmp and /dev/shm itself: bwrap sizes a tmpfs in
 * bytes only, and the kernel gives it half the machine's pages in
 * inodes whatever its size, millions of empty files in kernel memory
 * that no byte bound sees.  As root it mounts them in that mount
 * namespace; as anyone else in a user namespace of its own, where it
 * stays who it was, with the same staging; bwrap, nested inside, binds
 * them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cgroup.h"
#include "sandbox.h"
#include "secret.h"

#define STAGE "/tmp"		/* in the child's own mount namespace */
#define SCRATCH_HOME "/tmp/home"
#define MAX_DIRS 16
#define MAX_DEVICES 4
/*
 * Each tmpfs (/tmp, /dev/shm) has an inode for every this many of its
 * bytes, mke2fs's default ratio: the kernel's default is half the
 * machine's pages whatever the size, millions of empty files in kernel
 * memory that sandbox.tmpSize does not see.
 */
#define TMPFS_BYTES_PER_INODE 16384

/* What the child does before exec'ing bwrap; made by the parent. */
struct plan {
	int drop;			/* root: drop to uid/gid */
	uid_t uid;
	gid_t gid;
	pid_t parent;
	size_t nr;
	const char *paths[MAX_DIRS];	/* the real directories and files */
	int is_file[MAX_DIRS];
	size_t nr_groups;		/* kept when dropping: the devices' */
	gid_t groups[MAX_DEVICES];
	char stage[MAX_DIRS][32];	/* where the child mounts them */
	rlim_t as, nproc, fsize;
	const struct cgroup *cg;	/* NULL: none */
	/* the child mounts /tmp and /dev/shm, inodes sized */
	int tmpfs;
	char tmpfs_opts[128];
	int pid_fd;			/* the child says its pid here; -1 */
};

static struct sandbox_opts opts;
static int configured;

void sandbox_configure(const struct sandbox_opts *o)
{
	opts = *o;
	configured = 1;
}

/* Unconfigured, a sandbox would run as nobody knows whom, unbounded. */
static const struct sandbox_opts *so(void)
{
	if (!configured)
		die("BUG: sandbox used before sandbox_configure()");
	return &opts;
}

static int say(const char *what)
{
	dprintf(2, "sandbox: %s: %s\n", what, strerror(errno));
	return -1;
}

/* Where the child mounts the sized tmpfs mounts: /tmp, /dev/shm. */
static const char *const tmpfs_stage[] = {
	STAGE "/tmpfs-tmp", STAGE "/tmpfs-shm",
};

/* A mount point on the staging tmpfs for a directory or a file. */
static int make_stage(const char *path, int is_file)
{
	int fd;

	if (!is_file)
		return mkdir(path, 0755);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/*
 * Not root: a user namespace of the child's own in which it is who it
 * was (uid and gid mapped onto themselves), so that it may mount the
 * sized tmpfs mounts that bwrap, nested inside, then binds.  No
 * allocation (child_setup()).
 */
static int map_self(const struct plan *pl)
{
	static const char *const files[] = {
		"/proc/self/setgroups", "/proc/self/uid_map",
		"/proc/self/gid_map",
	};
	char line[64];
	size_t i;
	int fd, n, ok;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (!i)
			n = snprintf(line, sizeof(line), "deny");
		else
			n = snprintf(line, sizeof(line), "%u %u 1\n",
				     i == 1 ? (unsigned int)pl->uid :
				     (unsigned int)pl->gid,
				     i == 1 ? (unsigned int)pl->uid :
				     (unsigned int)pl->gid);
		fd = open(files[i], O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		ok = write(fd, line, n) == n;
		close(fd);
		if (!ok)
			return -1;
	}
	return 0;
}

/* In the child, before exec: no allocation. */
static int child_setup(void *data)
{
	struct plan *pl = data;
	struct rlimit rl;
	int fds[MAX_DIRS];
	char src[64];
	size_t i;

	/* Into the run's cgroup while still root (its files are root's),
	 * then nothing of ours leaks in by an inherited descriptor.
	 */
	if (pl->cg && cgroup_enter(pl->cg) < 0)
		return say("joining the sandbox's cgroup");
	/* the watcher looks at its tmpfs mounts through /proc/PID/root */
	if (pl->pid_fd >= 0) {
		pid_t me = getpid();

		if (write(pl->pid_fd, &me, sizeof(me)) != (ssize_t)sizeof(me))
			return say("telling the sandbox's pid");
	}
	close_range(3, ~0U, 0);
	if (!pl->drop && pl->tmpfs &&
	    (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0 || map_self(pl) < 0))
		return say("a user namespace for the sandbox's tmpfs");
	if (pl->drop && unshare(CLONE_NEWNS) < 0)
		return say("unshare");
	if (pl->drop || pl->tmpfs) {
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			return say("private mounts");
		for (i = 0; i < pl->nr; i++) {
			fds[i] = open(pl->paths[i], O_PATH | O_CLOEXEC |
				      (pl->is_file[i] ? 0 : O_DIRECTORY));
			if (fds[i] < 0)
				return say(pl->paths[i]);
		}
		if (mount("sandbox", STAGE, "tmpfs", MS_NOSUID | MS_NODEV,
			  "mode=0755,size=64k") < 0)
			return say("staging tmpfs");
		for (i = 0; i < pl->nr; i++) {
			snprintf(src, sizeof(src), "/proc/self/fd/%d", fds[i]);
			if (make_stage(pl->stage[i], pl->is_file[i]) < 0 ||
			    mount(src, pl->stage[i], NULL, MS_BIND | MS_REC,
				  NULL) < 0)
				return say(pl->paths[i]);
			close(fds[i]);
		}
		for (i = 0; pl->tmpfs && i < ARRAY_SIZE(tmpfs_stage); i++)
			if (mkdir(tmpfs_stage[i], 0755) < 0 ||
			    mount("sandbox", tmpfs_stage[i], "tmpfs",
				  MS_NOSUID | MS_NODEV, pl->tmpfs_opts) < 0)
				return say(tmpfs_stage[i]);
	}
	if (pl->drop) {
		if (setgroups(pl->nr_groups, pl->groups) < 0 ||
		    setresgid(pl->gid, pl->gid, pl->gid) < 0 ||
		    setresuid(pl->uid, pl->uid, pl->uid) < 0)
			return say("dropping to sandbox.user");
		if (!geteuid() || !getuid())
			return say("still root");
	}
	/* The bot dies, the sandbox dies (set after the uid change, which
	 * clears it).
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != pl->parent)
		return -1;
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
	if (pl->as) {
		rl.rlim_cur = rl.rlim_max = pl->as;
		if (setrlimit(RLIMIT_AS, &rl) < 0)
			return say("RLIMIT_AS");
	}
	if (pl->nproc) {
		rl.rlim_cur = rl.rlim_max = pl->nproc;
		if (setrlimit(RLIMIT_NPROC, &rl) < 0)
			return say("RLIMIT_NPROC");
	}
	if (pl->fsize) {
		rl.rlim_cur = rl.rlim_max = pl->fsize;
		if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
			return say("RLIMIT_FSIZE");
	}
	return 0;
}

static int resolve_user(struct plan *pl)
{
	const char *name = so()->user;
	struct passwd *pw;

	pl->drop = !geteuid();
	if (!pl->drop) {
		/* who we are, mapped onto itself: map_self() */
		pl->uid = getuid();
		pl->gid = getgid();
		return 0;
	}
	pw = getpwnam(name);
	if (!pw)
		return error("refusing to run an untrusted build as root: sandbox.user '%s' does not exist (set sandbox.user to an unprivileged user)",
			     name);
	if (!pw->pw_uid || !pw->pw_gid)
		return error("refusing to run an untrusted build as root: sandbox.user '%s' is root (set sandbox.user to an unprivileged user)",
			     name);
	pl->uid = pw->pw_uid;
	pl->gid = pw->pw_gid;
	return 0;
}

/*
 * Hand a writable directory (or file) to the sandbox uid: it and every
 * entry below it, by tree_walk_below() (a chain a build left as deep as
 * it likes is walked without recursion, no link followed).
 */
static int own_visit(const struct tree_entry *e, void *data)
{
	const struct plan *pl = data;

	if (e->post)
		return 0;
	if ((e->st->st_uid != pl->uid || e->st->st_gid != pl->gid) &&
	    fchownat(e->dfd, e->name, pl->uid, pl->gid,
		     AT_SYMLINK_NOFOLLOW) < 0)
		return error("cannot hand %s (below it) to sandbox.user: %s",
			     e->name, strerror(errno));
	return 0;
}

static int give_to_sandbox(const struct plan *pl, const char *dir)
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		error("cannot hand %s to sandbox.user: %s", dir,
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if ((st.st_uid != pl->uid || st.st_gid != pl->gid) &&
	    fchown(fd, pl->uid, pl->gid) < 0) {
		error("cannot hand %s to sandbox.user: %s", dir,
		      strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return 0;
	}
	if (tree_walk_below(fd, own_visit, (void *)pl) < 0)
		return error("cannot hand %s to sandbox.user: %s", dir,
			     strerror(errno));
	return 0;
}

struct args {
	const char **v;
	size_t nr, alloc;
	char **owned;
	size_t nr_owned, alloc_owned;
};

static void arg(struct args *a, const char *s)
{
	ALLOC_GROW(a->v, a->nr, a->alloc);
	a->v[a->nr++] = s;
}

static void arg_own(struct args *a, char *s)
{
	ALLOC_GROW(a->owned, a->nr_owned, a->alloc_owned);
	a->owned[a->nr_owned++] = s;
	arg(a, s);
}

static void args_release(struct args *a)
{
	size_t i;

	for (i = 0; i < a->nr_owned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->v);
}

/* /bin, /lib...: the usrmerge symlinks as symlinks, else read-only. */
static void host_dirs(struct args *a)
{
	static const char *const dirs[] = {
		"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	};
	static const char *const etc[] = {
		/* gcc, make, awk (an alternative), the dynamic linker,
		 * and uid names for the tools that print them
		 */
		"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf",
		"/etc/ld.so.conf.d", "/etc/passwd", "/etc/group",
	};
	char target[256];
	struct stat st;
	ssize_t n;
	size_t i;

	arg(a, "--ro-bind");
	arg(a, "/usr");
	arg(a, "/usr");
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (lstat(dirs[i], &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(dirs[i], target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = 0;
			arg(a, "--symlink");
			arg_own(a, xstrdup(target));
		} else if (S_ISDIR(st.st_mode)) {
			arg(a, "--ro-bind");
			arg(a, dirs[i]);
		} else {
			continue;
		}
		arg(a, dirs[i]);
	}
	for (i = 0; i < ARRAY_SIZE(etc); i++) {
		arg(a, "--ro-bind-try");
		arg(a, etc[i]);
		arg(a, etc[i]);
	}
}

/* Our PATH less what the sandbox cannot see anyway: /usr and /bin only. */
static char *sandbox_path(void)
{
	const char *path = getenv("PATH"), *s, *e;
	struct strbuf sb = STRBUF_INIT;

	for (s = path ? path : ""; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, ':');
		if ((e - s >= 5 && !strncmp(s, "/usr/", 5)) ||
		    (e - s == 4 && !strncmp(s, "/bin", 4)) ||
		    (e - s == 5 && !strncmp(s, "/sbin", 5))) {
			if (sb.len)
				strbuf_addch(&sb, ':');
			strbuf_add(&sb, s, e - s);
		}
	}
	if (!sb.len)
		strbuf_addstr(&sb, "/usr/local/bin:/usr/bin:/bin");
	return strbuf_detach(&sb, NULL);
}

static int allowed_env(const char *e)
{
	static const char *const names[] = {
		"LANG=", "LC_ALL=", "ARCH=", "CROSS_COMPILE=",
		"CCACHE_",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (starts_with(e, names[i]))
			return !secret_env_entry(e);
	return 0;
}

static void set_env(struct args *a, const char *entry)
{
	const char *eq = strchr(entry, '=');
	size_t i;

	if (!eq)
		return;
	/* a later setting of the same name wins: drop the earlier one */
	for (i = 0; i + 2 < a->nr; i++)
		if (!strcmp(a->v[i], "--setenv") &&
		    strlen(a->v[i + 1]) == (size_t)(eq - entry) &&
		    !strncmp(a->v[i + 1], entry, eq - entry)) {
			a->v[i + 2] = eq + 1;
			return;
		}
	arg(a, "--setenv");
	arg_own(a, xstrndup(entry, eq - entry));
	arg(a, eq + 1);
}

static rlim_t limit(long v)
{
	return v > 0 ? (rlim_t)v : 0;
}

/* The inodes of each tmpfs: one for every TMPFS_BYTES_PER_INODE. */
static unsigned long long tmpfs_inodes(void)
{
	unsigned long long n = limit(so()->tmp_size) / TMPFS_BYTES_PER_INODE;

	return n < 64 ? 64 : n;
}

/*
 * Every tmpfs sized (bwrap's are half the RAM otherwise): /tmp and
 * /dev/shm, mounted by the child (child_setup()) with an inode for every
 * TMPFS_BYTES_PER_INODE bytes, which bwrap cannot ask for; / and /dev
 * are made read-only later.  With sandbox.tmpSize 0 (no bound),
 * bwrap's.
 */
static void tmpfs_args(struct plan *pl, struct args *a)
{
	unsigned long long bytes = limit(so()->tmp_size);
	static const char *const dest[] = { "/tmp", "/dev/shm" };
	size_t i;

	pl->tmpfs = bytes != 0;
	if (pl->tmpfs)
		snprintf(pl->tmpfs_opts, sizeof(pl->tmpfs_opts),
			 "mode=0755,uid=%u,gid=%u,size=%llu,nr_inodes=%llu",
			 (unsigned int)pl->uid, (unsigned int)pl->gid, bytes,
			 tmpfs_inodes());
	for (i = 0; i < ARRAY_SIZE(dest); i++) {
		if (pl->tmpfs) {
			arg(a, "--bind");
			arg(a, tmpfs_stage[i]);
		} else {
			if (bytes) {
				arg(a, "--size");
				arg_own(a, xasprintf("%llu", bytes));
			}
			arg(a, "--tmpfs");
		}
		arg(a, dest[i]);
	}
}

static int build_plan(const struct sandbox *sb, struct plan *pl,
		      struct args *a, const char *const *argv)
{
	struct stat st;
	size_t i;

	memset(pl, 0, sizeof(*pl));
	pl->pid_fd = -1;
	if (resolve_user(pl) < 0)
		return -1;
	if (sb->nr_dirs > MAX_DIRS)
		return error("sandbox: too many directories");
	pl->parent = getpid();
	pl->as = limit(so()->mem_limit);
	if (pl->as)
		pl->as += sb->extra_mem;
	pl->nproc = limit(so()->max_procs);
	pl->fsize = limit(so()->max_file_size);

	arg(a, "bwrap");
	arg(a, "--unshare-user");
	arg(a, "--unshare-ipc");
	arg(a, "--unshare-pid");
	arg(a, "--unshare-net");
	arg(a, "--unshare-uts");
	arg(a, "--unshare-cgroup-try");
	arg(a, "--hostname");
	arg(a, "sandbox");
	arg(a, "--die-with-parent");
	arg(a, "--new-session");
	arg(a, "--disable-userns");
	host_dirs(a);
	arg(a, "--proc");
	arg(a, "/proc");
	arg(a, "--dev");
	arg(a, "/dev");
	tmpfs_args(pl, a);
	arg(a, "--dir");
	arg(a, SCRATCH_HOME);
	for (i = 0; i < sb->nr_dirs; i++) {
		const struct sandbox_dir *d = &sb->dirs[i];

		if (d->path[0] != '/')
			return error("sandbox: %s is not absolute", d->path);
		if (stat(d->path, &st) < 0)
			return error("sandbox: %s: %s", d->path,
				     strerror(errno));
		pl->is_file[pl->nr] = !S_ISDIR(st.st_mode);
		pl->paths[pl->nr] = d->path;
		snprintf(pl->stage[pl->nr], sizeof(pl->stage[0]),
			 STAGE "/%zu", pl->nr);
		if (pl->drop && d->writable && give_to_sandbox(pl, d->path))
			return -1;
		arg(a, d->writable ? "--bind" : "--ro-bind");
		arg(a, pl->drop || pl->tmpfs ? pl->stage[pl->nr] : d->path);
		arg(a, d->path);
		pl->nr++;
	}
	for (i = 0; sb->devices && sb->devices[i]; i++) {
		if (stat(sb->devices[i], &st) < 0 ||
		    !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
			return error("sandbox: %s is no device", sb->devices[i]);
		if (pl->nr_groups == MAX_DEVICES)
			return error("sandbox: too many devices");
		if (st.st_gid)
			pl->groups[pl->nr_groups++] = st.st_gid;
		arg(a, "--dev-bind");
		arg(a, sb->devices[i]);
		arg(a, sb->devices[i]);
	}
	arg(a, "--remount-ro");
	arg(a, "/dev");
	arg(a, "--remount-ro");
	arg(a, "/");
	arg(a, "--chdir");
	arg(a, SCRATCH_HOME);
	arg(a, "--clearenv");
	for (i = 0; environ[i]; i++)
		if (allowed_env(environ[i]))
			set_env(a, environ[i]);
	arg(a, "--setenv");
	arg(a, "HOME");
	arg(a, SCRATCH_HOME);
	arg(a, "--setenv");
	arg(a, "PATH");
	arg_own(a, sandbox_path());
	for (i = 0; sb->env && sb->env[i]; i++)
		if (!secret_env_entry(sb->env[i]))
			set_env(a, sb->env[i]);
	arg(a, "--");
	for (i = 0; argv[i]; i++)
		arg(a, argv[i]);
	arg(a, NULL);
	return 0;
}

/*
 * The disk use of the directories the build writes while we look
 * (disk_use_below(), by descriptor only, as deep as the tree goes).  A
 * directory that cannot be read (the build took its own permission
 * away, or moved it while we looked) cannot be measured and counts as
 * too much: only this build can have done it, as its directories are
 * checked before it starts (build.c).
 */
#define DISK_UNKNOWN (~0ULL)

static unsigned long long disk_below(int dfd)
{
	struct disk_use u = { 0 };

	disk_use_below(dfd, &u);
	return u.unknown ? DISK_UNKNOWN : u.bytes;
}

static unsigned long long disk_use(const struct sandbox *sb)
{
	unsigned long long sum = 0, sub;
	struct stat st;
	size_t i;
	int fd;

	for (i = 0; i < sb->nr_dirs; i++) {
		if (!sb->dirs[i].writable)
			continue;
		fd = open(sb->dirs[i].path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			if (fd >= 0)
				close(fd);
			return DISK_UNKNOWN;
		}
		sum += (unsigned long long)st.st_blocks * 512;
		if (!S_ISDIR(st.st_mode)) {
			close(fd);
			continue;
		}
		sub = disk_below(fd);
		if (sub == DISK_UNKNOWN)
			return sub;
		sum += sub;
	}
	return sum;
}

struct watch {
	const struct sandbox *sb;
	const struct cgroup *cg;
	double next_disk;
	int pid_fd;		/* the child says its pid; -1: no tmpfs */
	pid_t pid;		/* the child, then bwrap's monitor; 0 */
};

/*
 * Every inode of a tmpfs the child mounted taken (tmpfs_args()): seen
 * in its mount namespace, which bwrap's monitor process keeps.
 */
static int tmpfs_full(struct watch *w)
{
	struct statvfs sv;
	char path[96];
	size_t i;

	if (w->pid_fd < 0)
		return 0;
	if (!w->pid && read(w->pid_fd, &w->pid, sizeof(w->pid)) !=
	    (ssize_t)sizeof(w->pid)) {
		w->pid = 0;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tmpfs_stage); i++) {
		snprintf(path, sizeof(path), "/proc/%d/root%s", (int)w->pid,
			 tmpfs_stage[i]);
		if (!statvfs(path, &sv) && sv.f_files && !sv.f_ffree)
			return 1;
	}
	return 0;
}

/* subproc's watcher: a limit bitten stops the whole sandbox at once. */
static int watch(void *data)
{
	struct watch *w = data;
	int over = w->cg->nr ? cgroup_over(w->cg) : 0;
	double t0;

	if (over == CGROUP_OVER_MEMORY)
		over = SANDBOX_OVER_MEMORY;
	else if (over == CGROUP_OVER_PIDS)
		over = SANDBOX_OVER_PIDS;
	t0 = now_monotonic();
	if (!over && w->sb->max_disk && t0 >= w->next_disk) {
		unsigned long long use = disk_use(w->sb);

		if (use == DISK_UNKNOWN ||
		    (use > w->sb->disk_base &&
		     use - w->sb->disk_base > w->sb->max_disk))
			over = SANDBOX_OVER_DISK;
		/* a big O= is measured less often: at most a fifth of
		 * the time goes into measuring it
		 */
		w->next_disk = now_monotonic() + 4 * (now_monotonic() - t0);
	}
	if (!over && tmpfs_full(w))
		over = SANDBOX_OVER_INODES;
	if (over)
		cgroup_kill(w->cg);
	return over;
}

char *sandbox_over(const struct sandbox *sb, int ret)
{
	unsigned long long mem = limit(so()->memory_max);

	switch (ret) {
	case SANDBOX_OVER_MEMORY:
		return xasprintf("used more than sandbox.memoryMax (%llu bytes of memory)",
				 mem ? mem + sb->extra_mem
							 : 0);
	case SANDBOX_OVER_PIDS:
		return xasprintf("ran more than sandbox.pidsMax (%ld) processes",
				 so()->pids_max);
	case SANDBOX_OVER_DISK:
		return xasprintf("used more than %s (%llu bytes)",
				 sb->max_disk_key ? sb->max_disk_key :
				 "its disk bound", sb->max_disk);
	case SANDBOX_OVER_INODES:
		return xasprintf("filled every inode of its tmpfs (/tmp or /dev/shm: %llu inodes for sandbox.tmpSize, %llu bytes)",
				 tmpfs_inodes(),
				 (unsigned long long)limit(so()->tmp_size));
	}
	return NULL;
}

int sandbox_run(const struct sandbox *sb, const struct subproc *p)
{
	struct args a = { 0 };
	struct subproc q = *p;
	struct cgroup cg;
	struct watch w = { .sb = sb, .cg = &cg, .pid_fd = -1 };
	struct plan pl;
	char *path_env = NULL;
	const char *env[2];
	unsigned long long mem;
	int ret;

	if (sandbox_check() < 0)
		return -1;
	if (build_plan(sb, &pl, &a, p->argv) < 0) {
		args_release(&a);
		return -1;
	}
	mem = limit(so()->memory_max);
	if (cgroup_create(&cg, mem ? mem + sb->extra_mem : 0,
			  (long)limit(so()->pids_max)) < 0) {
		args_release(&a);
		return -1;
	}
	pl.cg = cg.nr ? &cg : NULL;
	if (pl.tmpfs) {
		int fds[2];

		if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
			error("sandbox: pipe: %s", strerror(errno));
			cgroup_destroy(&cg);
			args_release(&a);
			return -1;
		}
		w.pid_fd = fds[0];
		pl.pid_fd = fds[1];
	}
	/* bwrap itself needs nothing of our environment but PATH */
	path_env = xasprintf("PATH=%s", getenv("PATH") ? getenv("PATH") :
			     "/usr/bin:/bin");
	env[0] = path_env;
	env[1] = NULL;
	q.argv = a.v;
	q.env = env;
	q.clear_env = 1;
	q.cwd = "/";
	q.setup = child_setup;
	q.setup_data = &pl;
	q.watch = NULL;
	if (cg.nr || sb->max_disk || pl.tmpfs) {
		q.watch = watch;
		q.watch_data = &w;
		q.watch_interval = 0.5;
	}
	ret = subproc_run(&q);
	/* a limit that bit between two looks: a process the kernel killed
	 * for memory, a fork refused, is a run stopped
	 */
	if (ret >= 0 && cg.nr) {
		int over = cgroup_over(&cg);

		if (over == CGROUP_OVER_MEMORY)
			ret = SANDBOX_OVER_MEMORY;
		else if (over == CGROUP_OVER_PIDS)
			ret = SANDBOX_OVER_PIDS;
	}
	/* bwrap is gone; a process that left its PID namespace is not */
	if (cgroup_destroy(&cg) < 0 && ret >= 0 && ret != SUBPROC_TIMEOUT)
		ret = -1;
	if (pl.tmpfs) {
		close(w.pid_fd);
		close(pl.pid_fd);
	}
	free(path_env);
	args_release(&a);
	return ret;
}

int sandbox_check(void)
{
	static int state;	/* 0 unknown, 1 works, -1 does not */
	static const char *const argv[] = { "true", NULL };
	struct sandbox sb = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct subproc p = {
		.argv = argv, .stdin_fd = -1, .log_fd = -1, .capture = &out,
		.capture_max = 4096, .timeout = 60,
	};
	struct plan pl;
	int rc;

	if (state)
		return state > 0 ? 0 : -1;
	state = -1;
	if (!subproc_have("bwrap"))
		return error("untrusted builds run under bubblewrap, and bwrap is not installed (apt-get install bubblewrap)");
	if (resolve_user(&pl) < 0)
		return -1;
	state = 1;	/* sandbox_run() below asks again */
	rc = sandbox_run(&sb, &p);
	if (rc) {
		state = -1;
		strbuf_trim(&out);
		error("cannot make a sandbox for untrusted builds (bwrap: %s); user namespaces may be disabled here",
		      out.len ? out.buf : "no output");
	}
	strbuf_release(&out);
	return state > 0 ? 0 : -1;
}
