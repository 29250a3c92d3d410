// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/boot.c - `sched-bot boot`: run the workloads on a target (booting
 * the given kernel where the target boots one) and append the rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "samples.h"
#include "target/target.h"
#include "util.h"
#include "workload.h"
#include "workload-opts.h"

static struct boot_req req = { .runs = 1,
			       .seconds = 5, .autogroup = -1 };
static const char *target = "qemu", *out, *initramfs;
static int profile, spawn_gap = -1;
static char spawn_gap_word[16];

static const char *const boot_synopsis[] = {
	"boot [--target NAME] [--kernel bzImage] [--release R]",
	"     [--workloads LIST] [--runs N] [-t SECONDS] [--label L]",
	"     [--autogroup on|off] [--cgroup root|new] [--workdir DIR]",
	"     [--sched-bench FILE] [--spawn-gap S] [--profile] -o results.csv",
	"boot --make-initramfs FILE [--sched-bench FILE]",
	NULL
};

static const struct option_spec boot_options[] = {
	OPT_STRING(0, "target", &target, "NAME",
		   "qemu (default), local, or a [target \"NAME\"] section"),
	OPT_STRING(0, "kernel", &req.kernel, "FILE", "the bzImage to boot"),
	OPT_STRING(0, "release", &req.release, "R",
		   "ssh: uname -r the booted machine must show"),
	OPT__WORKLOADS(&req.workloads, "default: the default set of the table"),
	OPT_INTEGER(0, "runs", &req.runs, "N", 1, RUNS_MAX,
		    "repetitions, interleaved (default 1)"),
	OPT_INTEGER('t', "duration", &req.seconds, "S", 1, 86400,
		    "seconds per workload run (default 5)"),
	OPT_INTEGER(0, "seconds", &req.seconds, "S", 1, 86400,
		    "the same as --duration"),
	OPT_STRING(0, "label", &req.label, "L",
		   "the CSV label (default: the kernel release)"),
	OPT__AUTOGROUP(&req.autogroup),
	OPT__CGROUP(&req.cgroup),
	OPT_STRING(0, "workdir", &req.workdir, "DIR",
		   "keep the console log and initramfs there"),
	OPT_STRING(0, "sched-bench", &req.sched_bench, "FILE",
		   "the sched-bench binary to run (default: the one next to sched-bot)"),
	OPT_INTEGER(0, "spawn-gap", &spawn_gap, "S", 0, 60,
		    "seconds spawn syncs and sleeps before each of its passes (default 3, as UnixBench's Run)"),
	OPT_FLAG(0, "profile", &profile,
		 "after the runs, each workload once more under perf record: diag.profile.self.* and .children.* rows"),
	OPT_STRING('o', "output", &out, "FILE", "results CSV (appended)"),
	OPT_STRING(0, "make-initramfs", &initramfs, "FILE",
		   "only write the guest's initramfs to FILE"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc boot_doc = {
	.name = "boot",
	.summary = "boot a built kernel on a target and run workloads",
	.synopsis = boot_synopsis,
	.text =
"Boots the kernel on the target (qemu: a QEMU guest with sched-bot's\n"
"initramfs; ssh: a machine via kexec or target.NAME.bootCommand; local:\n"
"the running kernel, no boot), runs the workloads RUNS times each,\n"
"interleaved, and appends one row per sample to the CSV.",
	.options = boot_options,
	.notes =
"With --profile each cell of each workload runs once more after the\n"
"measured runs, under perf record -g (cycles where the machine has a\n"
"PMU, else the software cpu-clock event, as under QEMU TCG; kernel\n"
"symbols need CONFIG_KALLSYMS, in sched.config), and the share of\n"
"the samples of each function perf report names, itself\n"
"(--no-children) and with what it calls (--children), becomes the\n"
"diag.profile.self.FUNCTION and diag.profile.children.FUNCTION rows\n"
"(unit %EVENT) of that workload's first run.  The qemu target ships\n"
"this machine's perf for it unless target.NAME.perf is false.\n"
"\n"
"A boot failure, panic, hang or garbled console is reported with the\n"
"last console lines and exit code 1; no rows are written then.  A\n"
"--kernel or --sched-bench file that cannot be read exits 3.",
};

static int write_initramfs(const char *path)
{
	return target_make_initramfs(path, &req) < 0 ? EXIT_FAIL : EXIT_OK;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_res res;
	int ret;

	argc = parse_options(argc, argv, &boot_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc)
		return options_error(&boot_doc, "unexpected '%s'", argv[0]);
	if (req.sched_bench && need_file(req.sched_bench))
		return EXIT_NOTFOUND;
	if (!req.workloads)
		req.workloads = workload_names(WORKLOAD_DEFAULT);
	if (initramfs)
		return write_initramfs(initramfs);
	if (!out)
		return options_error(&boot_doc, "-o results.csv is required");
	if (!target_type(target))
		return options_error(&boot_doc, "unknown target '%s'", target);
	if (req.kernel && need_file(req.kernel))
		return EXIT_NOTFOUND;
	req.progress = isatty(2) && verbosity >= 0;
	if (spawn_gap >= 0) {
		snprintf(spawn_gap_word, sizeof(spawn_gap_word), "%d", spawn_gap);
		req.spawn_gap = spawn_gap_word;
	}
	if (profile)
		req.profile = req.workloads;
	ret = target_run(target, &req, &res);
	if (ret < 0) {
		boot_res_release(&res);
		return EXIT_FAIL;
	}
	if (res.accel)
		printf("accel: %s\n", res.accel);
	if (res.kernel)
		printf("kernel: %s\n", res.kernel);
	if (res.console)
		printf("console: %s\n", res.console);
	printf("boot-seconds: %.2f\nseconds: %.1f\n", res.boot_seconds,
	       res.seconds);
	printf("status: %s\n", console_status_name(res.status));
	if (ret) {
		error("%s: %s: %s", target, console_status_name(res.status),
		      res.reason ? res.reason : "?");
		if (res.last_lines)
			fprintf(stderr, "last console lines:\n%s",
				res.last_lines);
		boot_res_release(&res);
		return EXIT_FAIL;
	}
	if (!req.label) {
		size_t i;

		for (i = 0; i < res.samples.nr; i++)
			if (!res.samples.v[i].label && res.kernel)
				res.samples.v[i].label = xstrdup(res.kernel);
	}
	if (samples_append_file(out, res.samples.v, res.samples.nr) < 0) {
		boot_res_release(&res);
		return EXIT_FAIL;
	}
	printf("rows: %zu\n", res.samples.nr);
	if (profile) {
		size_t i, n = 0;

		for (i = 0; i < res.samples.nr; i++)
			n += starts_with(res.samples.v[i].metric,
					 "diag.profile.");
		printf("profile-rows: %zu\n", n);
	}
	boot_res_release(&res);
	return EXIT_OK;
}
