/* SPDX-License-Identifier: GPL-2.0 */
/*
 * build.h - build a kernel (bzImage) from a plain source directory or
 * from a commit of a git tree, out of tree (O=), with a config made of
 * a base (tinyconfig, defconfig or a given .config) and fragments from
 * kernel/configs/, every requested line checked after olddefconfig.
 *
 * Cache layout under build.cacheDir (default: cache_path("builds")):
 *
 *   slot-<origin+config>/src   the checked-out commit (--tree only),
 *                              updated by libgit2 checkout against
 *   slot-<origin+config>/index its index, so untouched files keep their
 *                              mtimes and make recompiles only what a
 *                              patch changed; anything in no commit is
 *                              removed and the tree is compared with
 *                              its commit before every build
 *   slot-<origin+config>/obj   the O= directory, shared by base and
 *                              patched builds of the same origin
 *   art-<source id>-<config>   bzImage, config, build.log, release,
 *                              digest (of vmlinux, vmlinux.h, taken
 *                              as the build finished): a finished
 *                              build, reused as is
 *   ccache/                    CCACHE_DIR unless $CCACHE_DIR or
 *                              build.ccacheDir names another;
 *                              read-only to a build that is not
 *                              build_opts.trusted
 *
 * origin is the repository (--tree) or the directory (--src); source id
 * is the commit's tree id, or for --src a hash of every file's path,
 * size and mtime.  A build failure is a result: build_kernel() returns
 * 1, keeps the log and fills in the first compiler errors.
 *
 * make and everything it runs are untrusted (the tree is a posted
 * patch): they run in the sandbox (sandbox.h) with the tree read-only
 * and only the O= directory (and ccache, for a trusted build)
 * writable, for at most
 * build.timeout seconds (default 10800) in all.
 *
 * Configuration: build.cacheDir, build.jobs, build.ccache (bool,
 * default: when installed), build.ccacheDir, build.baseConfig
 * ("tinyconfig", "defconfig" or a file), build.fragmentDir, build.cc,
 * build.timeout, build.maxLog (bytes of a build's log kept, all its
 * make steps together, default 256M),
 * build.sandbox (default true; false runs make unconfined, refused as
 * root).
 *
 * The slot rule: after make has run in O=, everything there is the
 * build's (a stranger's) choice, and the bot, outside the sandbox and
 * perhaps root, never writes into O= and reads from it (and from the
 * checkout) only through slotfile.h: relative to the directory, no
 * link followed, regular files only, each read bounded.  The merged
 * config is written into the slot (slot-.../config.in, the bot's own)
 * and a sandboxed `cp` puts it into O= before olddefconfig.  What
 * comes out is checked: bzImage has the boot protocol's "HdrS" at
 * 0x202, vmlinux is an ELF64 of EM_X86_64.  A file refused (a link, a
 * FIFO, too large, no kernel) fails the build, the reason in
 * r->errors.
 *
 * Configuration: the build.* keys, read once into struct build_defaults:
 * what a build_opts leaves unset, and how every build runs.
 */
#ifndef SCHED_BOT_BUILD_H
#define SCHED_BOT_BUILD_H

#include <stddef.h>

#include "util.h"

struct arch;

/* What the bot reads of a slot at most (slotfile.h), each its own bound. */
#define BUILD_MAX_CONFIG	((size_t)4 << 20)	/* O/.config: 4 MiB */
#define BUILD_MAX_KERNEL	((size_t)64 << 20)	/* the bzImage: 64 MiB */
#define BUILD_MAX_VMLINUX	((size_t)2 << 30)	/* O/vmlinux: 2 GiB */
/*
 * The slot's build.log holds at most build.maxLog bytes of the build's
 * output, all its make steps together; a line of it at most
 * BUILD_MAX_LINE bytes.  What is cut is said in the log where it was
 * ("[build output cut at 256 MB: ...]", "[line cut at 64 KB]") and
 * after the build on stderr, with what was not kept.
 */
#define BUILD_MAX_LINE		((size_t)64 << 10)
/*
 * What a make query (`make -s kernelrelease`) may print: its answer on
 * stdout, its complaints on stderr, each read to this bound.  A longer
 * answer is no answer; stderr is said cleaned, never copied raw.
 */
#define BUILD_MAX_ANSWER	((size_t)4 << 10)
#define BUILD_MAX_STAMP		128	/* the checkout's tree-id stamp */
/* Below this free after a make that ran out of space (and gc.minFree
 * unset), the disk is to blame, not the patch: build_kernel().
 */
#define BUILD_FULL_FLOOR	(64LL << 20)

/* The build.* settings; strings must outlive their use. */
struct build_defaults {
	const char *cc;			/* build.cc */
	int ccache;			/* build.ccache; -1: if installed */
	const char *base_config;	/* build.baseConfig */
	int jobs;			/* build.jobs */
	const char *fragment_dir;	/* build.fragmentDir; NULL: found */
	const char *cache_dir;		/* build.cacheDir; NULL: default */
	const char *ccache_dir;		/* build.ccacheDir, or NULL */
	long max_log;			/* build.maxLog, bytes per build */
	long max_disk;			/* build.maxDisk, 0: none */
	long timeout;			/* build.timeout, s, 0: none */
	int sandbox;			/* build.sandbox */
	long long min_free;		/* gc.minFree, 0: BUILD_FULL_FLOOR */
};

/*
 * Use d from now on: the tool does so once at start-up
 * (builtin/config-opts.c fills it); a build before it is a bug.
 */
void build_configure(const struct build_defaults *d);

/*
 * The fragments of a kernel made from scratch, and of a build that names
 * none: blank-separated names in build.fragmentDir.
 */
#define BUILD_FRAGMENTS "sched.config qemu.config"

struct build_opts {
	const char *src;		/* plain source directory, or */
	const char *tree;		/* a git repository (bare or not) */
	const char *rev;		/* and a revision in it */
	const char *base_config;	/* NULL: build_defaults */
	const char **fragments;		/* NULL: fragment_list */
	size_t nr_fragments;
	/* blank- or comma-separated; NULL: BUILD_FRAGMENTS */
	const char *fragment_list;
	/* the kernel's architecture; NULL: x86_64 (arch.h) */
	const struct arch *arch;
	/*
	 * 1: stop after olddefconfig, in the sandbox and slot the build
	 * would use, with the config in r->config_text; no bzImage.
	 */
	int dry_run;
	const char *outdir;		/* NULL: none; else copies land here */
	int jobs;			/* 0: build_defaults */
	int progress;			/* 1: status line on stderr, if a tty */
	/*
	 * Extra compiler flags for the kernel (make KCFLAGS=), and extra
	 * config lines merged after the fragments and checked like theirs
	 * (extra_name names them in errors); both are part of the config
	 * hash, so such a build never shares a cached one without them.
	 */
	const char *kcflags;
	const char *extra_config, *extra_name;
	/*
	 * 1: the commit is the tree's own (a base, no posted patch in it),
	 * and its build may add to the shared ccache.  0 (a series, a
	 * bisection step, anything a stranger wrote): ccache is read-only to
	 * it, so that nothing it plants there reaches another series.
	 */
	int trusted;
};

struct build_result {
	int failed;		/* 1: the kernel did not build */
	int cached;		/* 1: artifacts came from the cache */
	char *kernel;		/* bzImage (in the artifact dir or outdir) */
	char *config;		/* the final .config */
	char *log;		/* the build log */
	char *release;		/* `make kernelrelease`, i.e. uname -r */
	char *source_id;	/* tree id, or "src-<hash>" */
	char *config_hash;	/* hash of base config + fragments */
	/*
	 * A base config file (not a make target): what the final config
	 * changes of it, build_config_changes() lines; "" when nothing.
	 * NULL with a make target for a base.
	 */
	char *changes;
	char *config_text;	/* dry_run: the .config it would build */
	char *objdir;		/* the O= directory */
	char *errors;		/* failed: what may be mailed about it */
	char *digest;		/* vmlinux_digest() of vmlinux, or NULL */
	double seconds;		/* wall time of this call */
};

/*
 * Build (or find in the cache) the kernel o asks for.  Returns 0 when a
 * bzImage is ready, 1 when the build failed (r->errors, r->log), -1 on
 * an error around the build (bad source, config assertion, I/O, a make
 * that ran out of disk space: then disk_full_path() names O=), after
 * printing it.
 */
int build_kernel(const struct build_opts *o, struct build_result *r);
void build_result_release(struct build_result *r);

/*
 * Merge fragment text into a .config text: each "CONFIG_X=v" or
 * "# CONFIG_X is not set" replaces the base's line for X or is appended.
 */
void build_merge_config(struct strbuf *config, const char *fragment);
/*
 * Check that every request of fragment holds in config.  Returns 0, or
 * -1 after printing "CONFIG_X=v requested by NAME but ..." for each.
 */
int build_check_config(const char *config, const char *fragment,
		       const char *name);
/*
 * The first max errors of a build log, as they may go into mail: only
 * compiler diagnostics ("file:line:col: error: msg") on tree paths
 * (relative, no "..", and with srcdir a regular file under it) and
 * linker "undefined reference to `sym'" lines, rewritten from their
 * parts with the message cut to a bounded length and anything but
 * printable ASCII replaced.  Nothing else of the log, which the build
 * (untrusted code) wrote, is copied.  Returns how many were found.
 */
int build_first_errors(const char *log, size_t len, int max,
		       const char *srcdir, struct strbuf *out);
/*
 * What config changes of base, one line per option whose value
 * differs, in the order of the option names:
 * "CONFIG_X: OLD -> NEW", each value as a .config writes it (y, m, a
 * number, a quoted string), "n" for "is not set" and for an option the
 * file does not have.  Appended to out.
 */
void build_config_changes(const char *base, const char *config,
			  struct strbuf *out);
/*
 * The same lines, said apart: an option the fragments changed (base vs
 * merged, the base with the fragments merged onto it) as it is; one
 * whose value follows the toolchain (build_config_follows_toolchain)
 * ends in BUILD_CHANGE_TOOLCHAIN; any other, what olddefconfig changed
 * beside them (an option a fragment's selects or defaults, or one new
 * to the tree), in BUILD_CHANGE_OLDDEFCONFIG.  The job's
 * config-changes.txt; a line without a tag is one of an older job.
 */
#define BUILD_CHANGE_TOOLCHAIN " (toolchain)"
#define BUILD_CHANGE_OLDDEFCONFIG " (olddefconfig)"
void build_config_changes_by(const char *base, const char *merged,
			     const char *config, struct strbuf *out);
/*
 * Is the option (name, len bytes, with or without CONFIG_) one whose
 * value kconfig takes from the toolchain (its versions, what the
 * compiler, assembler and linker support: CC_VERSION_TEXT,
 * GCC_VERSION, CC_HAS_*, AS_*, LD_IS_*, PAHOLE_VERSION, ...), not a
 * choice: a machine's config made with another compiler differs in it.
 */
int build_config_follows_toolchain(const char *name, size_t len);
/*
 * Whether a base config names a make target (tinyconfig, defconfig: a
 * kernel from scratch) rather than a file: a bare name ending in
 * "config" that is no readable file here.  NULL: build.baseConfig.
 */
int build_base_is_target(const char *base);
/* The directory holding the fragments (kernel/configs).  Caller frees. */
char *build_fragment_dir(void);

#endif
