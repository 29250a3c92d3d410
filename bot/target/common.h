/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - what a target backend is and what it gets to work with.
 *
 * Each backend (local.c, qemu.c, ssh.c) is one struct target_ops, in the
 * shape of curl's struct Curl_ssl; target.c lists them in one array and
 * calls through it.  A backend sees the request, a context target.c
 * prepared (the sched-bench to run, the tools among the workloads) and
 * the helpers below; it never calls back into target.c.
 */
#ifndef SCHED_BOT_TARGET_COMMON_H
#define SCHED_BOT_TARGET_COMMON_H

#include "run.h"
#include "target/target.h"
#include "target/tools.h"
#include "workload.h"

/* A tool workload of the request (hackbench, perf-pipe, ...). */
struct target_tool {
	const struct workload *info;	/* run.c's table */
	char *host;		/* the real binary on this host, or NULL */
};

struct target_ctx {
	const char *name;		/* [target "NAME"] */
	const char *type;		/* the backend's type */
	unsigned int traits;		/* the backend's, enum target_trait */
	char *sched_bench;		/* the sched-bench to run or ship */
	struct target_words workloads;	/* the request's, in order */
	struct target_tool *tools;	/* the tool workloads among them */
	size_t nr_tools;
	char *perf;			/* perf for perf stat there, or NULL */
	char *profile_perf;		/* perf for req->profile, or NULL */
};

struct target_ops {
	const char *type;		/* target.NAME.type */
	const char *describe;		/* what it is, for messages */
	unsigned int traits;		/* enum target_trait */
	/*
	 * target.NAME.timeout's default when the backend has a fixed one
	 * (ssh: the workloads after the boot); 0 when it reckons its
	 * timeout from the runs it is given.
	 */
	long run_budget;
	/*
	 * Boot req->kernel when the target boots one, run the workloads,
	 * fill res.  target_run()'s return values: 0 rows, 1 the target
	 * failed (res says how), -1 setup error (printed).
	 */
	int (*boot_run)(const struct target_ctx *ctx,
			const struct boot_req *req, struct boot_res *res);
	/*
	 * The machine's own kernel config, for baseConfig = running:
	 * its text in cfg, where it came from in *origin and the release
	 * of the kernel running it (uname -r) in *release, or NULL there
	 * when it cannot say (both allocated).
	 * NULL: the target has no running kernel of its own to ask.
	 */
	int (*own_config)(const char *name, struct strbuf *cfg,
			  char **origin, char **release);
	/*
	 * The fragments (blank-separated names in kernel/configs) of a
	 * kernel built from the machine's own config (baseConfig running
	 * or a file) when target.NAME.fragments is unset: only what the
	 * bot needs there to run and read its rows, so that the kernel
	 * measured is the machine's.  NULL: BUILD_FRAGMENTS (build.h),
	 * those of the bot's own guests.
	 */
	const char *own_fragments;
	/*
	 * `sched-bot target status NAME`: what the backend can say of its
	 * machines beyond the health mark (a lab's devices and queue), to
	 * out; 0, or -1 (printed) when it cannot be asked.  NULL: nothing.
	 */
	int (*status)(const char *name, FILE *out);
	/*
	 * Run `sched-bench health ARGS` on the running kernel (no boot)
	 * and capture its records in out: 0, else -1 (printed).  NULL for
	 * a target that has no machine of its own between jobs (qemu, lava).
	 */
	int (*health)(const struct target_ctx *ctx, const char *args,
		      struct strbuf *out);
	/*
	 * Whether the target's numbers may vouch for a kernel when
	 * target.NAME.vouch is unset (target_vouches()): a machine that
	 * boots the kernel under test on its own hardware.  NULL: no.
	 */
	int (*vouches)(const char *name);
};

extern const struct target_ops target_local_ops;
extern const struct target_ops target_qemu_ops;
extern const struct target_ops target_ssh_ops;
extern const struct target_ops target_lava_ops;

/* The backend of target name (target.NAME.type), or NULL. */
const struct target_ops *target_backend(const char *name);
/* The context of a run of req on name: -1 (printed) without sched-bench. */
int target_ctx_init(struct target_ctx *ctx, const char *name,
		    const struct target_ops *ops, const struct boot_req *req);
void target_ctx_release(struct target_ctx *ctx);

/*
 * target.NAME.KEY as target_configure() handed it down, else its
 * default in config-keys.c; def is used for the keys whose default
 * the code computes there (it must match the table's where the table
 * has one).
 */
const char *target_cfg(const char *name, const char *key, const char *def);

/*
 * What the bot keeps of a target, beside the state database so that
 * cron and every command see it: $XDG_DATA_HOME/sched-bot/targets/
 * NAMESUFFIX, as NAME.unhealthy (the health mark), NAME.config and
 * NAME.config-origin (baseConfig = running), NAME.check and NAME-check/
 * (target check), NAME.facts (the machine's env record).  Allocated;
 * NULL for a name that is no file name.
 */
char *target_file(const char *name, const char *suffix);
long target_cfg_int(const char *name, const char *key, long def);
/* A bool or number key, its default the table's. */
int target_cfg_bool(const char *name, const char *key);
double target_cfg_number(const char *name, const char *key);

/* A work directory: req->workdir (created) or a new temporary one. */
char *target_workdir(const struct boot_req *req);

/*
 * The words of `sched-bench init` (on a kernel command line, after ssh,
 * or as argv): sb.workloads=... sb.runs= sb.t= and, for each tool i of
 * ctx with cmds[i] set, sb.exec.<workload>=<cmds[i]>,<its arguments>,
 * where cmds[i] is how the target runs the program (comma-separated
 * words: its path, or loader,--library-path,DIR,path).  A tool without
 * a command is left out after its skip line (why says where it is
 * missing).  Returns the number of workloads left to run.
 */
int target_init_args(const struct target_ctx *ctx, const struct boot_req *req,
		     char *const *cmds, const char *why,
		     struct target_words *out);
/* Every tool command of ctx as on this host: its binary, or NULL. */
char **target_host_cmds(const struct target_ctx *ctx);
void target_cmds_free(const struct target_ctx *ctx, char **cmds);

/*
 * What a backend that boots req->kernel with sched-bot's initramfs
 * (qemu, lava) has ready before the boot.  The guest runs the tools
 * from where they are on this host: the initramfs holds them at the
 * same paths.
 */
struct target_guest {
	char **cmds;			/* the tools as on this host */
	struct target_words args;	/* sched-bench init's words */
	char *dir;			/* the work directory, absolute */
	char *initrd;			/* DIR/initramfs.cpio.gz, built */
};

/* -1 (printed) when req names no readable kernel, which ctx boots. */
int target_need_kernel(const struct target_ctx *ctx,
		       const struct boot_req *req);
/*
 * Fill g: 0, 1 when every workload was skipped (res says so), -1
 * (printed).  g is to be released whatever the result.
 */
int target_guest_prepare(const struct target_ctx *ctx,
			 const struct boot_req *req, struct target_guest *g,
			 struct boot_res *res);
void target_guest_release(const struct target_ctx *ctx,
			  struct target_guest *g);
/* Every row of res made on machine (how the numbers were made). */
void target_set_machine(struct boot_res *res, const char *machine);

/*
 * The guest's initramfs at path: sched-bench as /init, for spawn its
 * helper sched-bench-spawn next to it and, for the helper and every
 * tool found on this host, their files at their own paths.
 */
int target_build_initramfs(const struct target_ctx *ctx, const char *path);

/*
 * Parse a console (or ssh) transcript into res: status, reason, last
 * lines, kernel and, when all went well, the rows.  Returns 0 with rows,
 * 1 when the target failed.
 */
int target_finish(const struct target_ctx *ctx, const struct boot_req *req,
		  const char *buf, size_t len, int timed_out,
		  struct boot_res *res);
/*
 * target.NAME.maxConsole: the bytes of what a boot sends back that are
 * read and kept (a guest's console, the output of the run over ssh, a
 * lab job's log); past them the boot is stopped.
 */
size_t target_console_max(const char *name);
/*
 * The console of a boot on name passed target_console_max() and was cut
 * there: say so on stderr, at the end of the console log fd (-1: none)
 * and, for a boot without rows, first in res->reason.
 */
void target_console_cut(const char *name, struct boot_res *res, int fd);

/*
 * An ssh machine's answer to `uname -r && cat boot_id /proc/cmdline`
 * (ssh.c): its release, boot id and command line, allocated and
 * trimmed, 0; -1 (all NULL) unless it is those three lines, printable,
 * the first two at most SSH_RELEASE_MAX bytes, the command line at most
 * SSH_CMDLINE_MAX.  The machine may be running a hostile kernel: its
 * words go to the terminal, the log and the next kexec's command line.
 */
#define SSH_RELEASE_MAX 256
#define SSH_CMDLINE_MAX 4096
int target_ssh_boot_answer(const char *buf, size_t len, char **release,
			   char **id, char **cmdline);

/*
 * Mark target name unhealthy (a machine that did not come back): it
 * gets no more runs until `sched-bot target clear NAME`.
 */
void target_mark_unhealthy(const char *name, const char *why);

/*
 * The env record in text (a health check's output, a lab's run) kept as
 * the facts of target name, NAME.facts (target_facts()); a record that
 * does not give the CPUs leaves the last one kept.
 */
void target_keep_facts(const char *name, const char *text, size_t len);

/*
 * The runs one repetition of req makes, as a default timeout reckons
 * them: each workload once, times its cells and its sweep points in
 * req->workload_args (a plan's "spawn=a+b+c" is three runs).
 */
int target_req_runs(const struct boot_req *req);

/* res for a run that had nothing left to run (every tool skipped). */
int target_nothing_to_run(struct boot_res *res);

#endif
