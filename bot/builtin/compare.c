// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/compare.c - `sched-bot compare`: statistics and a verdict over
 * results CSVs, rendered as one of the LKML table formats or JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "compare.h"
#include "config.h"
#include "tblfmt.h"
#include "util.h"

static const char *format, *thread;
static struct compare_opts o;
static int as_json;

/* A number >= 0 (and < 1 for --alpha): "--alpha: 'x' is not a number". */
static int set_number(const struct option_spec *opt, const char *arg)
{
	double *v = opt->value, d;
	char *end;

	d = strtod(arg, &end);
	if (end == arg || *end || !isfinite(d) || d < 0)
		return error("%s: '%s' is not a number >= 0", option_name(opt),
			     arg);
	if (v == &o.alpha && d >= 1)
		return error("%s: '%s' must be below 1", option_name(opt), arg);
	*v = d;
	return 0;
}

/* -f auto: the format of the thread's tables, else compare.format. */
static const char *auto_format(const char *file)
{
	const char *fallback = config_get("compare.format");
	struct tblfmt_scan scan = TBLFMT_SCAN_INIT;
	const char *f;
	char *note;

	if (!strcmp(fallback, "auto"))
		fallback = "simple";
	if (file && tblfmt_scan_file(file, &scan) < 0)
		return NULL;
	f = tblfmt_resolve("auto", fallback, file ? &scan : NULL, &note);
	info("%s", note);
	free(note);
	tblfmt_release(&scan);
	return f;
}

static const char *const compare_synopsis[] = {
	"compare BASE.csv NEW.csv [MORE.csv...] [<options>]",
	"compare RESULTS.csv [<options>]",
	NULL
};

static const struct option_spec compare_options[] = {
	OPT_STRING('f', "format", &format, "F",
		   "intel, amd, lkp, mmtests, matrix, simple (default compare.format, simple), plot (ASCII scaling curve of an instance sweep) or auto: the format of the tables posted in --thread"),
	OPT_STRING(0, "thread", &thread, "FILE",
		   "the thread (mbox) whose tables -f auto follows; stderr names the message the format came from"),
	OPT_FLAG(0, "json", &as_json, "JSON instead of a table"),
	OPT_FLAG(0, "diag", &o.all_diag,
		 "every diag.* row in the tables, not only those that changed significantly"),
	OPT_CALLBACK(0, "min-effect", &o.min_effect, "PCT",
		     "smallest change, in percent, called a regression or an improvement (compare.minEffect, 2)",
		     set_number),
	OPT_CALLBACK(0, "alpha", &o.alpha, "A",
		     "family-wise level of the KPIs: the paired or Welch t-test, Holm-corrected over them (compare.alpha, 0.01)",
		     set_number),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc compare_doc = {
	.name = "compare",
	.summary = "compare results with statistics, render tables",
	.synopsis = compare_synopsis,
	.text =
"Compare the results CSVs written by `sched-bot run`.  The first label\n"
"(in file order) is the baseline; one CSV may hold several labels.\n"
"Each run counts once: its summary row (sample 0), else the mean of its\n"
"per-second samples.  The KPIs (all but diag.* metrics) are judged\n"
"together, Holm-corrected at --alpha family-wise: a KPI improves or\n"
"regresses when the change is at least --min-effect percent, its\n"
"adjusted p is below --alpha / 2 in its direction (--alpha / 4 when the\n"
"KPIs' variances are moderated: the other half allows for a prior that\n"
"describes them less well than its model says), and its own test agrees\n"
"at --alpha, as if it were the only KPI.  Runs of one file with the same\n"
"run numbers are paired (compare.pairing): the t-test of the log ratios\n"
"of the blocks, its variance moderated over the KPIs, its own paired t\n"
"agreeing.  Files are compared unpaired: with 3 KPIs or more, each KPI's\n"
"t-test of the logs of its runs, its variance moderated by a prior\n"
"fitted over the KPIs (empirical Bayes, as the paired blocks are), and a\n"
"KPI is only called when its own Welch t-test has p < --alpha and\n"
"Mann-Whitney p < compare.rankAlpha (default 0.05); with fewer, Welch's\n"
"t-test with Mann-Whitney agreeing.  A KPI whose own variance is\n"
"improbably large for the prior (its tail below --alpha) keeps its own\n"
"variance and is left out of the fit.  Every run of every\n"
"file counts: a run is its file and number, so two files of one label\n"
"(two boots of a kernel) give the label the runs of both, pairing only\n"
"within a file; --json says how many runs came from which file.  A\n"
"KPI is noisy when the half-width of a 95% confidence interval is above\n"
"compare.noisyPct (default 10) percent of the mean: of either side's\n"
"mean unpaired, of the mean change of the blocks paired.  The verdict\n"
"sentence, the one a reply prints, follows the table.",
	.options = compare_options,
	.notes =
"Exit status: 0, 5 when the verdict is a regression, 1 on bad input, 3\n"
"when a CSV cannot be read.",
};

int cmd_compare(int argc, char **argv)
{
	struct sample_set set = { 0 };
	struct compare_result r;
	struct strbuf out = STRBUF_INIT;
	int i, ret;

	compare_opts_init(&o);
	format = config_get("compare.format");
	argc = parse_options(argc, argv, &compare_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (!argc)
		return options_error(&compare_doc, "no results CSV given");
	for (i = 0; i < argc; i++)
		if (need_file(argv[i]))
			return EXIT_NOTFOUND;
	if (thread && need_file(thread))
		return EXIT_NOTFOUND;
	if (!strcmp(format, "auto")) {
		format = auto_format(thread);
		if (!format)
			return EXIT_NOTFOUND;
	}
	if (compare_read_files(argv, argc, &set) < 0) {
		sample_set_release(&set);
		return EXIT_FAIL;
	}
	if (compare_run(&set, &o, &r) < 0) {
		sample_set_release(&set);
		return EXIT_FAIL;
	}
	if (as_json)
		compare_json(&r, &out);
	ret = as_json ? 0 : compare_render(&r, format, &out);
	if (!ret && !as_json) {
		strbuf_addch(&out, '\n');
		compare_verdict(&r, &out);
	}
	if (!ret)
		fwrite(out.buf, 1, out.len, stdout);
	if (ret)
		ret = EXIT_USAGE;
	else if (r.verdict == VERDICT_REGRESSION)
		ret = EXIT_REGRESSION;
	strbuf_release(&out);
	compare_result_release(&r);
	sample_set_release(&set);
	return ret;
}
