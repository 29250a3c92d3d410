// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/run.c - `sched-bot run`: run workloads on this machine N times,
 * interleaved, and append one row per sample to a results CSV.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "interleave.h"
#include "progress.h"
#include "run.h"
#include "samples.h"
#include "util.h"
#include "workload.h"

const char cmd_run_usage[] =
"usage: sched-bot run [--target local] --workloads LIST [--runs N]\n"
"                     [--label NAME] [--duration S] [-o FILE] [-v]\n"
"                     [--copies N] [--no-pin] [--threads]\n"
"                     [--autogroup on|off] [--cgroup root|new] [--setsid]\n"
"                     [--child-cpu]\n"
"\n"
"    --workloads LIST  comma-separated, from the list below\n"
"    --runs N          repetitions, workloads interleaved (default 1)\n"
"    --label NAME      the label column (default: uname -r)\n"
"    --duration S      seconds per sched-bench run (default 10)\n"
"    -o FILE           append rows to FILE (created with a header);\n"
"                      default: CSV on stdout\n"
"    --copies N        spawn copies / pingpong pairs (default: CPUs / 1)\n"
"    --no-pin          pingpong pairs placed by the scheduler\n"
"    --threads         pingpong with threads instead of processes\n"
"    --autogroup on|off, --cgroup root|new, --setsid\n"
"                      run sched-bench workloads in that environment\n"
"    --child-cpu       spawn records how often children ran on another\n"
"                      CPU than their parent (diag.child_other_cpu_pct)\n"
"    -v                show the workloads' own output\n"
"\n"
"Each finished workload run's rows are appended at once, so an\n"
"interrupted run leaves every finished row in a valid file.  A workload\n"
"whose program is not installed is reported as a skip.\n";

void cmd_run_help(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	workload_help(&sb);
	fprintf(f, "\nWorkloads:\n%s", sb.buf);
	strbuf_release(&sb);
}

/* Other load during a run biases it either way: say so, once per run. */
static void busy_warning(const char *workload, int run,
			 const struct sample_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (!strcmp(set->v[i].metric, "diag.foreign_cpu_pct") &&
		    set->v[i].value > 1) {
			warning("%s run %d: other load used %.0f%% of the machine; the result is not trustworthy",
				workload, run, set->v[i].value);
			return;
		}
}

static int emit(const char *out, const struct sample_set *set,
		int *header_done)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (out)
		return samples_append_file(out, set->v, set->nr);
	if (!*header_done) {
		samples_header(&sb);
		*header_done = 1;
	}
	for (i = 0; i < set->nr; i++)
		samples_format_row(&sb, &set->v[i]);
	fwrite(sb.buf, 1, sb.len, stdout);
	fflush(stdout);
	strbuf_release(&sb);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "target", required_argument, NULL, 'T' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "runs", required_argument, NULL, 'n' },
		{ "label", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "copies", required_argument, NULL, 'c' },
		{ "no-pin", no_argument, NULL, 'f' },
		{ "threads", no_argument, NULL, 't' },
		{ "autogroup", required_argument, NULL, 'A' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "setsid", no_argument, NULL, 'S' },
		{ "child-cpu", no_argument, NULL, 'C' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *target = "local", *workloads = NULL, *out = NULL;
	const char *label = NULL;
	struct run_local opt = { 0 };
	struct bench_spec spec;
	struct run_meta meta = { 0 };
	struct strbuf env = STRBUF_INIT;
	char **wl = NULL, *list = NULL, *w, *save = NULL;
	size_t nwl = 0, alloc = 0, i;
	int runs = 1, c, r, header_done = 0, failed = 0, skipped = 0;
	struct progress progress;
	struct interleave order;
	int rc = EXIT_OK;
	struct utsname u;

	bench_spec_init(&spec);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'T':
			target = optarg;
			break;
		case 'w':
			workloads = optarg;
			break;
		case 'n':
			runs = atoi(optarg);
			if (runs < 1 || runs > 10000)
				return usage_error("run", "bad --runs '%s'",
						   optarg);
			break;
		case 'l':
			label = optarg;
			break;
		case 'd':
			opt.duration = atoi(optarg);
			if (opt.duration < 1 || opt.duration > 86400)
				return usage_error("run", "bad --duration '%s'",
						   optarg);
			break;
		case 'o':
			out = strcmp(optarg, "-") ? optarg : NULL;
			break;
		case 'v':
			opt.verbose = 1;
			break;
		case 'c':
			spec.copies = atoi(optarg);
			if (spec.copies < 1 || spec.copies > 4096)
				return usage_error("run", "bad --copies '%s'",
						   optarg);
			break;
		case 'f':
			spec.pin = 0;
			break;
		case 't':
			spec.threads = 1;
			break;
		case 'A':
			spec.autogroup = optarg;
			break;
		case 'G':
			spec.cgroup = optarg;
			break;
		case 'S':
			spec.setsid = 1;
			break;
		case 'C':
			spec.child_cpu = 1;
			break;
		case 'h':
			return show_usage("run");
		default:
			return usage_error("run", "bad option");
		}
	}
	if (optind < argc)
		return usage_error("run", "unexpected argument '%s'",
				   argv[optind]);
	if (!workloads)
		return usage_error("run", "--workloads is required");
	spec.workload = "spawn";
	if (bench_spec_check(&spec))
		return usage_error("run", "bad sched-bench option");
	opt.spec = &spec;
	if (strcmp(target, "local"))
		return usage_error("run", "target '%s' is not supported here: 'run' runs on this machine; QEMU targets run through 'sched-bot boot'",
				   target);
	list = xstrdup(workloads);
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!workload_find(w)) {
			rc = usage_error("run", "unknown workload '%s'", w);
			goto out;
		}
		ALLOC_GROW(wl, nwl, alloc);
		wl[nwl++] = w;
	}
	if (!nwl) {
		rc = usage_error("run", "--workloads is empty");
		goto out;
	}
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	meta.label = label ? label : u.release;
	meta.target = target;
	opt.sched_bench = run_find_sched_bench(NULL);
	if (opt.sched_bench) {
		char *envargv[] = { (char *)opt.sched_bench, "env", NULL };

		if (run_capture(envargv, &env, NULL) == 0)
			opt.env_text = env.buf;
	}
	progress_start(&progress, 1);
	interleave_init(&order, runs, nwl, 1);
	while (interleave_next(&order)) {
		struct sample_set set = { 0 };
		char when[32];
		time_t now = time(NULL);
		struct tm tm;
		int st;

		r = order.run;
		i = order.i;
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
			 gmtime_r(&now, &tm));
		meta.time = when;
		progress_show(&progress, "run %d/%d: %s ...", r, runs, wl[i]);
		st = run_workload_local(wl[i], r, &opt, &meta, &set);
		progress_done(&progress);
		if (st == RUN_SKIPPED) {
			skipped++;
		} else if (st != RUN_OK) {
			error("%s run %d failed", wl[i], r);
			failed++;
		} else {
			busy_warning(wl[i], r, &set);
			if (emit(out, &set, &header_done)) {
				error("cannot write %s", out);
				sample_set_release(&set);
				rc = EXIT_FAIL;
				goto out;
			}
		}
		sample_set_release(&set);
	}
	if (failed)
		rc = EXIT_FAIL;
	if (skipped)
		info("%d workload run(s) skipped (tool not installed)", skipped);
out:
	free((char *)opt.sched_bench);
	free(list);
	free(wl);
	strbuf_release(&env);
	return rc;
}
