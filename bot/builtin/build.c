// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/build.c - `sched-bot build`: one kernel, from a directory or a
 * commit, with the sched and qemu config fragments.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "builtin/builtin.h"
#include "util.h"

const char cmd_build_usage[] =
"usage: sched-bot build (--src DIR | --tree REPO --rev REV) [-o OUTDIR]\n"
"                       [--config FILE|tinyconfig|defconfig]\n"
"                       [--fragment F]... [-j N]\n"
"\n"
"Builds bzImage out of tree (O=) with the base config (default\n"
"build.baseConfig, tinyconfig) merged with the fragments (default\n"
"kernel/configs/sched.config and qemu.config), then olddefconfig; every\n"
"requested line must survive.  Builds are cached by (source, config) under\n"
"build.cacheDir; a patched build reuses its base's O= directory so only\n"
"the files the patch touched recompile.\n"
"\n"
"  --src DIR        a plain kernel source directory\n"
"  --tree REPO      a git repository (bare or not) ...\n"
"  --rev REV        ... and the revision to build (default HEAD)\n"
"  -o, --out DIR    copy bzImage, config, build.log, release there\n"
"  --config FILE    base config (a file, or a make target like defconfig)\n"
"  --fragment F     a config fragment (repeatable; replaces the default)\n"
"  -j, --jobs N     make -jN (default build.jobs, 2)\n"
"\n"
"Prints key: value lines (kernel, release, ...).  Exit 0 built, 1 the\n"
"kernel did not build (first errors and the log are shown), 2 usage.\n";

int cmd_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "src", required_argument, NULL, 's' },
		{ "tree", required_argument, NULL, 't' },
		{ "rev", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "config", required_argument, NULL, 'c' },
		{ "fragment", required_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct build_opts o = { 0 };
	struct build_result r;
	const char **frags = NULL;
	size_t nr = 0, alloc = 0;
	char *end;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.src = optarg;
			break;
		case 't':
			o.tree = optarg;
			break;
		case 'r':
			o.rev = optarg;
			break;
		case 'o':
			o.outdir = optarg;
			break;
		case 'c':
			o.base_config = optarg;
			break;
		case 'f':
			ALLOC_GROW(frags, nr, alloc);
			frags[nr++] = optarg;
			break;
		case 'j':
			o.jobs = strtol(optarg, &end, 10);
			if (*end || o.jobs < 1) {
				free(frags);
				return usage_error("build", "bad -j '%s'",
						   optarg);
			}
			break;
		case 'h':
			free(frags);
			return show_usage("build");
		default:
			free(frags);
			return usage_error("build", "unknown option");
		}
	}
	if (optind < argc || !o.src == !o.tree || (o.rev && !o.tree)) {
		free(frags);
		return usage_error("build",
				   "give --src DIR, or --tree REPO [--rev REV]");
	}
	o.fragments = frags;
	o.nr_fragments = nr;
	o.progress = isatty(2) && verbosity >= 0;
	ret = build_kernel(&o, &r);
	free(frags);
	if (ret < 0) {
		build_result_release(&r);
		return EXIT_FAIL;
	}
	if (r.failed) {
		printf("result: build failed\n");
		printf("source: %s\nconfig-hash: %s\nlog: %s\n",
		       r.source_id, r.config_hash, r.log);
		printf("errors:\n%s", r.errors ? r.errors : "");
		error("build failed; first errors above, log in %s", r.log);
		build_result_release(&r);
		return EXIT_FAIL;
	}
	printf("result: %s\n", r.cached ? "cached" : "built");
	printf("kernel: %s\nrelease: %s\nconfig: %s\nlog: %s\n", r.kernel,
	       r.release ? r.release : "", r.config, r.log);
	printf("source: %s\nconfig-hash: %s\nobjdir: %s\nseconds: %.1f\n",
	       r.source_id, r.config_hash, r.objdir, r.seconds);
	build_result_release(&r);
	return EXIT_OK;
}
