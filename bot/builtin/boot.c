// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/boot.c - `sched-bot boot`: run the workloads on a target (booting
 * the given kernel where the target boots one) and append the rows.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "samples.h"
#include "target/target.h"
#include "util.h"
#include "workload.h"

const char cmd_boot_usage[] =
"usage: sched-bot boot [--target NAME] [--kernel bzImage] [--release R]\n"
"                      [--workloads W,W] [--runs N] [-t SECONDS]\n"
"                      [--label L] [--autogroup 0|1] [--cgroup NAME]\n"
"                      [--workdir DIR] -o results.csv\n"
"\n"
"Boots the kernel on the target (qemu: a QEMU guest with sched-bot's\n"
"initramfs; ssh: a machine via kexec or target.NAME.bootCommand; local:\n"
"the running kernel, no boot), runs the workloads RUNS times each,\n"
"interleaved, and appends one row per sample to the CSV.\n"
"\n"
"  --target NAME      qemu (default), local, or a [target \"NAME\"] section\n"
"  --kernel FILE      the bzImage to boot\n"
"  --release R        ssh: uname -r the booted machine must show\n"
"  --workloads LIST   default spawn,pingpong\n"
"  --runs N           repetitions (default 1)\n"
"  -t, --seconds S    length of each run (default 5)\n"
"  --label L          the CSV label (default: the kernel release)\n"
"  --autogroup 0|1    set kernel.sched_autogroup_enabled in the guest\n"
"  --cgroup NAME      run in a new cgroup (cpu controller) or root\n"
"  --workdir DIR      keep the console log and initramfs there\n"
"  -o, --out FILE     results CSV (appended)\n"
"  --make-initramfs F only write the guest's initramfs to F\n"
"\n"
"A boot failure, panic, hang or garbled console is reported with the\n"
"last console lines and exit code 1; no rows are written then.\n";

static int parse_int(const char *s, int *v)
{
	char *end;
	long l = strtol(s, &end, 10);

	if (!*s || *end || l < 0 || l > 1000000)
		return -1;
	*v = (int)l;
	return 0;
}

static int write_initramfs(const char *path, const struct boot_req *req)
{
	return target_make_initramfs(path, req) < 0 ? EXIT_FAIL : EXIT_OK;
}

int cmd_boot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "target", required_argument, NULL, 'T' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "release", required_argument, NULL, 'R' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "runs", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 't' },
		{ "label", required_argument, NULL, 'l' },
		{ "autogroup", required_argument, NULL, 'a' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "workdir", required_argument, NULL, 'W' },
		{ "sched-bench", required_argument, NULL, 'B' },
		{ "make-initramfs", required_argument, NULL, 'I' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct boot_req req = { .workloads = workload_names(WORKLOAD_DEFAULT),
				.runs = 1, .seconds = 5, .autogroup = -1 };
	const char *target = "qemu", *out = NULL, *initramfs = NULL;
	struct boot_res res;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'T':
			target = optarg;
			break;
		case 'k':
			req.kernel = optarg;
			break;
		case 'R':
			req.release = optarg;
			break;
		case 'w':
			req.workloads = optarg;
			break;
		case 'n':
			if (parse_int(optarg, &req.runs) < 0 || !req.runs)
				return usage_error("boot", "bad --runs");
			break;
		case 't':
			if (parse_int(optarg, &req.seconds) < 0 ||
			    !req.seconds)
				return usage_error("boot", "bad --seconds");
			break;
		case 'l':
			req.label = optarg;
			break;
		case 'a':
			if (strcmp(optarg, "0") && strcmp(optarg, "1"))
				return usage_error("boot", "--autogroup 0|1");
			req.autogroup = atoi(optarg);
			break;
		case 'c':
			if (strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
			    strlen(optarg) || !*optarg)
				return usage_error("boot", "bad --cgroup name");
			req.cgroup = optarg;
			break;
		case 'W':
			req.workdir = optarg;
			break;
		case 'B':
			req.sched_bench = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'I':
			initramfs = optarg;
			break;
		case 'h':
			return show_usage("boot");
		default:
			return usage_error("boot", "unknown option");
		}
	}
	if (optind < argc)
		return usage_error("boot", "unexpected '%s'", argv[optind]);
	if (initramfs)
		return write_initramfs(initramfs, &req);
	if (!out)
		return usage_error("boot", "-o results.csv is required");
	if (strspn(req.workloads, "abcdefghijklmnopqrstuvwxyz0123456789-_,") !=
	    strlen(req.workloads))
		return usage_error("boot", "bad --workloads '%s'",
				   req.workloads);
	if (!target_type(target))
		return usage_error("boot", "unknown target '%s'", target);
	req.progress = isatty(2) && verbosity >= 0;
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
	boot_res_release(&res);
	return EXIT_OK;
}
