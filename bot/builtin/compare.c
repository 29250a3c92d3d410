// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/compare.c - `sched-bot compare`: statistics and a verdict over
 * results CSVs, rendered as one of the LKML table formats or JSON.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "compare.h"
#include "config.h"
#include "util.h"

const char cmd_compare_usage[] =
"usage: sched-bot compare BASE.csv NEW.csv [MORE.csv...] [options]\n"
"       sched-bot compare RESULTS.csv [options]\n"
"\n"
"Compare the results CSVs written by `sched-bot run`.  The first label\n"
"(in file order) is the baseline; one CSV may hold several labels.\n"
"Each run counts once: its summary row (sample 0), else the mean of its\n"
"per-second samples.  The KPIs (all but diag.* metrics) are judged\n"
"together, Holm-corrected at --alpha family-wise: a KPI improves or\n"
"regresses when the change is at least --min-effect percent, its\n"
"adjusted p is below --alpha and its own test agrees (p <\n"
"compare.rankAlpha, default 0.05).  Runs of one file with the same run\n"
"numbers are paired (compare.pairing); files are compared unpaired.  A\n"
"KPI is noisy when a 95% confidence interval is wider than\n"
"compare.noisyPct (default 10) percent.  The verdict sentence, the one a\n"
"reply prints, follows the table.\n"
"\n"
"  -f, --format F       intel, amd, lkp, mmtests, matrix, simple (default)\n"
"                       or plot (ASCII scaling curve of an instance sweep)\n"
"  -j, --json           JSON instead of a table\n"
"      --min-effect PCT smallest change reported (compare.minEffect, 2)\n"
"      --alpha A        family-wise level (compare.alpha, 0.01)\n"
"  -h, --help           this text\n"
"\n"
"Exit status: 0, 5 when the verdict is a regression, 1 on bad input.\n";

static int parse_num(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return end == s || *end || !isfinite(*out) || *out < 0 ? -1 : 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "min-effect", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = config_get("compare.format", "simple");
	struct sample_set set = { 0 };
	struct compare_result r;
	struct compare_opts o;
	struct strbuf out = STRBUF_INIT;
	int c, json = 0, ret;

	compare_opts_init(&o);
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'm':
			if (parse_num(optarg, &o.min_effect) < 0)
				return usage_error("compare",
						   "bad --min-effect '%s'",
						   optarg);
			break;
		case 'a':
			if (parse_num(optarg, &o.alpha) < 0 || o.alpha >= 1)
				return usage_error("compare",
						   "bad --alpha '%s'", optarg);
			break;
		case 'h':
			return show_usage("compare");
		default:
			return usage_error("compare", "unknown option");
		}
	}
	if (optind >= argc)
		return usage_error("compare", "no results CSV given");
	if (compare_read_files(argv + optind, argc - optind, &set) < 0) {
		sample_set_release(&set);
		return EXIT_FAIL;
	}
	if (compare_run(&set, &o, &r) < 0) {
		sample_set_release(&set);
		return EXIT_FAIL;
	}
	if (json)
		compare_json(&r, &out);
	ret = json ? 0 : compare_render(&r, format, &out);
	if (!ret && !json) {
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
