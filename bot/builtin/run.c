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
static struct bench_spec spec;
static int runs = 1, autogroup = -1, duration;

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
		   "only the local target runs here; QEMU and ssh targets run through 'sched-bot boot'"),
	OPT__WORKLOADS(&workloads, "required"),
	OPT_INTEGER(0, "runs", &runs, "N", 1, RUNS_MAX,
		    "repetitions, workloads interleaved (default 1)"),
	OPT_STRING(0, "label", &label, "NAME",
		   "the label column (default: uname -r)"),
	OPT_INTEGER('t', "duration", &duration, "S", 1, 86400,
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
		 "spawn records how often children ran on another CPU than their parent (diag.child_other_cpu_pct)"),
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
"one row per sample to a results CSV.  Each run goes through the local\n"
"target, as `sched-bot boot --target local` runs it: the same rows\n"
"(perf stat counts too, where perf is installed), the same\n"
"allowlisted environment for every child.",
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

/* The sched-bench words of each workload, "spawn=-c,4 pingpong=..." */
static char *workload_args(char **wl, size_t nwl)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nwl; i++) {
		const struct workload *w = workload_find(wl[i]);
		char *a;

		if (!w || w->runner != WORKLOAD_SCHED_BENCH)
			continue;
		spec.workload = wl[i];
		a = run_bench_workload_args(&spec);
		if (!a) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", a);
		free(a);
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * Run r of workload wl through the local target, as `boot --target
 * local` runs it (the same init, frames and parser; the children get
 * the allowlisted environment): its rows into set, numbered r and
 * stamped with when.  0, 1 when it failed, RUN_SKIP when the tool is
 * nowhere, -1 on a setup error (printed).
 */
#define RUN_SKIP 2
static int run_cell(struct boot_req *req, const char *wl, int r,
		    const char *when, struct sample_set *set)
{
	struct boot_res res;
	size_t i;
	int ret;

	req->workloads = wl;
	ret = target_run(target, req, &res);
	if (ret > 0 && res.skipped_all) {
		ret = RUN_SKIP;
	} else if (ret > 0) {
		error("%s run %d failed: %s: %s", wl, r,
		      console_status_name(res.status),
		      res.reason ? res.reason : "?");
		if (res.last_lines && *res.last_lines)
			fprintf(stderr, "last lines:\n%s", res.last_lines);
	} else if (!ret) {
		*set = res.samples;
		memset(&res.samples, 0, sizeof(res.samples));
		for (i = 0; i < set->nr; i++) {
			set->v[i].run = r;
			free(set->v[i].time);
			set->v[i].time = xstrdup(when);
		}
	}
	boot_res_release(&res);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct boot_req req = { .runs = 1, .autogroup = -1 };
	char **wl = NULL, *list = NULL, *w, *save = NULL, *args = NULL;
	size_t nwl = 0, alloc = 0;
	int header_done = 0, failed = 0, skipped = 0;
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
	if (!workloads)
		return options_error(&run_doc, "--workloads is required");
	if (autogroup >= 0)
		spec.autogroup = autogroup ? "on" : "off";
	spec.workload = "spawn";
	if (bench_spec_check(&spec))
		return options_error(&run_doc, "bad sched-bench option");
	if (!target_is(target, TARGET_HERE))
		return options_error(&run_doc, "target '%s' is not supported here: 'run' runs on this machine; QEMU targets run through 'sched-bot boot'",
				     target);
	list = xstrdup(workloads);
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		ALLOC_GROW(wl, nwl, alloc);
		wl[nwl++] = w;
	}
	args = workload_args(wl, nwl);
	if (!args) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	req.label = label ? label : u.release;
	req.seconds = duration ? duration : 10;
	req.workload_args = *args ? args : NULL;
	progress_start(&progress, 1);
	interleave_init(&order, runs, nwl, 1);
	while (interleave_next(&order)) {
		struct sample_set set = { 0 };
		const char *name = wl[order.i];
		char when[32];
		time_t now = time(NULL);
		struct tm tm;
		int st;

		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
			 gmtime_r(&now, &tm));
		progress_show(&progress, "run %d/%d: %s ...", order.run, runs,
			      name);
		st = run_cell(&req, name, order.run, when, &set);
		progress_done(&progress);
		if (st < 0) {
			rc = EXIT_FAIL;
			goto out;
		}
		if (st == RUN_SKIP) {
			skipped++;
		} else if (st) {
			failed++;
		} else {
			busy_warning(name, order.run, &set);
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
	free(args);
	free(list);
	free(wl);
	return rc;
}
