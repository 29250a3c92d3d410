// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/run.c - `sched-bot run`: run workloads on this machine N times,
 * interleaved, and append one row per sample to a results CSV.
 */
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
#include "target/target.h"
#include "util.h"
#include "workload.h"
#include "workload-opts.h"

static const char *target = "local", *workloads, *output, *label;
static struct run_local opt;
static struct bench_spec spec;
static int runs = 1, autogroup = -1;

/* After the usage: the workloads, from the workload table. */
static void run_more_help(FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	workload_help(&sb);
	fprintf(f, "\nWorkloads:\n%s", sb.buf);
	strbuf_release(&sb);
}

static const char *const run_synopsis[] = {
	"run [--target local] --workloads LIST [--runs N]",
	"    [--label NAME] [-t S] [-o FILE] [--copies N] [--no-pin]",
	"    [--threads] [--autogroup on|off] [--cgroup root|new]",
	"    [--setsid] [--child-cpu]",
	NULL
};

static const struct option_spec run_options[] = {
	OPT_STRING(0, "target", &target, "NAME",
		   "only the local target runs here; QEMU and ssh targets "
		   "run through 'sched-bot boot'"),
	OPT__WORKLOADS(&workloads, "required"),
	OPT_INTEGER(0, "runs", &runs, "N", 1, RUNS_MAX,
		    "repetitions, workloads interleaved (default 1)"),
	OPT_STRING(0, "label", &label, "NAME",
		   "the label column (default: uname -r)"),
	OPT_INTEGER('t', "duration", &opt.duration, "S", 1, 86400,
		    "seconds per sched-bench run (default 10)"),
	OPT_STRING('o', "output", &output, "FILE",
		   "append rows to FILE (created with a header); "
		   "default or '-': CSV on stdout"),
	OPT_GROUP("sched-bench workloads"),
	OPT_INTEGER(0, "copies", &spec.copies, "N", 1, 4096,
		    "spawn copies / pingpong pairs (default: CPUs / 1)"),
	OPT_SET_INT(0, "no-pin", &spec.pin, 0,
		    "pingpong pairs placed by the scheduler"),
	OPT_FLAG(0, "threads", &spec.threads,
		 "pingpong with threads instead of processes"),
	OPT__AUTOGROUP(&autogroup),
	OPT__CGROUP(&spec.cgroup),
	OPT_FLAG(0, "setsid", &spec.setsid, "run in a new session"),
	OPT_FLAG(0, "child-cpu", &spec.child_cpu,
		 "spawn records how often children ran on another CPU than "
		 "their parent (diag.child_other_cpu_pct)"),
	OPT_GROUP("Common"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc run_doc = {
	.name = "run",
	.summary = "run workloads on the current kernel, write CSV",
	.synopsis = run_synopsis,
	.text =
"Runs the workloads on this machine N times, interleaved, and appends\n"
"one row per sample to a results CSV.  -v shows the workloads' own\n"
"output.",
	.options = run_options,
	.more = run_more_help,
	.notes =
"Each finished workload run's rows are appended at once, so an\n"
"interrupted run leaves every finished row in a valid file.  A missing\n"
"tool (hackbench, perf, schbench) is reported as a skip.",
};


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
	struct run_meta meta = { 0 };
	struct strbuf env = STRBUF_INIT;
	char **wl = NULL, *list = NULL, *w, *save = NULL;
	size_t nwl = 0, alloc = 0, i;
	int r, header_done = 0, failed = 0, skipped = 0;
	struct progress progress;
	struct interleave order;
	int rc = EXIT_OK;
	struct utsname u;

	bench_spec_init(&spec);
	argc = parse_options(argc, argv, &run_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc)
		return options_error(&run_doc, "unexpected argument '%s'",
				     argv[0]);
	if (output && !strcmp(output, "-"))
		output = NULL;
	opt.verbose = verbosity > 0;
	if (!workloads)
		return options_error(&run_doc, "--workloads is required");
	if (autogroup >= 0)
		spec.autogroup = autogroup ? "on" : "off";
	spec.workload = "spawn";
	if (bench_spec_check(&spec))
		return options_error(&run_doc, "bad sched-bench option");
	opt.spec = &spec;
	if (!target_is(target, TARGET_HERE))
		return options_error(&run_doc, "target '%s' is not supported here: 'run' runs on this machine; QEMU targets run through 'sched-bot boot'",
				     target);
	list = xstrdup(workloads);
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		ALLOC_GROW(wl, nwl, alloc);
		wl[nwl++] = w;
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
			if (emit(output, &set, &header_done)) {
				error("cannot write %s", output);
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
