// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bot/compare.c: grouping, run values, errors, and the
 * statistical behaviour of the verdict with a fixed-seed generator.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "compare.h"
#include "sequential.h"
#include "templates.h"
#include "test.h"
#include "rng.h"

static void add(struct sample_set *set, const char *label, int run,
		int sample, double value, int hib)
{
	struct sample s;

	sample_init(&s);
	s.label = (char *)label;
	s.kernel = (char *)"6.1";
	s.workload = (char *)"pingpong";
	s.params = (char *)"instances=2";
	s.metric = (char *)"ops";
	s.unit = (char *)"ops/s";
	s.run = run;
	s.sample = sample;
	s.value = value;
	s.higher_is_better = hib;
	sample_set_add(set, &s);
}

/*
 * n runs per side, relative noise cv (%), patched mean shifted (%).
 * One KPI, unpaired (as two CSVs): the per-metric figures of the rule;
 * a family of one is judged at compare.alpha as before.  Paired and
 * job-level figures are in test-verdict.c.
 */
static enum verdict trial(int n, double cv, double shift, int hib)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	enum verdict v;
	int i;

	for (i = 1; i <= n; i++)
		add(&set, "base", i, 0, 1000 * (1 + cv / 100 * rng_normal()),
		    hib);
	for (i = 1; i <= n; i++)
		add(&set, "patched", i, 0, 1000 * (1 + shift / 100) *
		    (1 + cv / 100 * rng_normal()), hib);
	compare_opts_init(&o);
	o.pairing = PAIRING_UNPAIRED;
	if (compare_run(&set, &o, &r) < 0) {
		sample_set_release(&set);
		return (enum verdict)-1;
	}
	v = r.m[0].side[1].verdict;
	compare_result_release(&r);
	sample_set_release(&set);
	return v;
}

static int count(int trials, int n, double cv, double shift, int hib,
		 enum verdict want)
{
	int i, c = 0;

	for (i = 0; i < trials; i++)
		c += trial(n, cv, shift, hib) == want;
	return c;
}

static void test_aa_false_positives(void)
{
	int i, bad = 0;

	rng_state = 0x5eed5eed12345678ULL;
	for (i = 0; i < 1000; i++) {
		enum verdict v = trial(5, 2, 0, 1);

		bad += v == VERDICT_IMPROVEMENT || v == VERDICT_REGRESSION;
	}
	printf("# A/A n=5 CV 2%%: %d of 1000 called a change\n", bad);
	CHECK(bad <= 10);
}

static void test_power(void)
{
	int found5, found8, up;

	rng_state = 0x0123456789abcdefULL;
	found5 = count(1000, 5, 2, -5, 1, VERDICT_REGRESSION);
	found8 = count(1000, 8, 2, -5, 1, VERDICT_REGRESSION);
	printf("# 5%% drop, CV 2%%: found %d/1000 at n=5, %d/1000 at n=8\n",
	       found5, found8);
	/*
	 * No rule reaches 95% at n=5 while keeping A/A under 1%: even a
	 * one-sided z-test with the true sigma has power 94.8% there.
	 */
	CHECK(found5 >= 600);
	CHECK(found8 >= 950);
	/* Direction: a faster time is an improvement, a slower one not. */
	up = count(200, 8, 2, -5, 0, VERDICT_IMPROVEMENT);
	CHECK(up >= 190);
	up = count(200, 8, 2, 5, 0, VERDICT_REGRESSION);
	CHECK(up >= 190);
}

static void test_noisy(void)
{
	int noisy;

	rng_state = 42;
	noisy = count(1000, 5, 50, 0, 1, VERDICT_NOISY);
	printf("# CV 50%%: %d/1000 noisy\n", noisy);
	CHECK(noisy >= 990);
	noisy = count(1000, 5, 2, 0, 1, VERDICT_NOISY);
	CHECK_INT(noisy, 0);
}

static void test_run_values(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;

	/* run 1: summary 10 wins over samples; run 2: mean of 3 and 5 */
	add(&set, "a", 1, 1, 99, 1);
	add(&set, "a", 1, 0, 10, 1);
	add(&set, "a", 2, 1, 3, 1);
	add(&set, "a", 2, 2, 5, 1);
	add(&set, "b", 1, 0, 7, 1);
	add(&set, "b", 2, 0, 9, 1);
	add(&set, "c", 1, 0, 8, 1);
	add(&set, "c", 2, 0, 8, 1);
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.nr_kernels, 3);
	CHECK_STR(r.kernels[0], "a");
	CHECK_INT(r.nr, 1);
	if (r.nr == 1) {
		CHECK_INT(r.m[0].side[0].n, 2);
		CHECK_NEAR(r.m[0].side[0].st.mean, 7, 1e-12);
		CHECK_NEAR(r.m[0].side[1].change_pct, 100.0 * (8 - 7) / 7,
			   1e-12);
		CHECK_NEAR(r.m[0].side[2].change_pct, 100.0 / 7, 1e-12);
		CHECK(isnan(r.m[0].side[0].change_pct));
	}
	compare_result_release(&r);
	sample_set_release(&set);
}

/*
 * Two pairs whose means fall (55 to 46.5, -15.5%) while the paired
 * estimate the test judges rises (ratios 0.8 and 1.3, +2.0%): in a
 * job's reply (judged_change) the change shown, listed and in
 * compare.json is the test's, its sign too; `compare` alone keeps the
 * change of the means its formats' tools print.
 */
static void test_change_is_the_judged_estimate(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	struct strbuf js = STRBUF_INIT;

	add(&set, "base", 1, 0, 100, 1);
	add(&set, "base", 2, 0, 10, 1);
	add(&set, "new", 1, 0, 80, 1);
	add(&set, "new", 2, 0, 13, 1);
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_NEAR(r.m[0].side[1].change_pct, 100.0 * (46.5 - 55) / 55, 1e-9);
	compare_result_release(&r);
	o.judged_change = 1;
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK(r.fam[1].paired);
	CHECK_NEAR(r.m[0].side[1].change_pct,
		   100.0 * (sqrt(0.8 * 1.3) - 1), 1e-9);
	CHECK(r.m[0].side[1].better_pct > 0);
	CHECK(r.m[0].side[1].ci_low_pct < r.m[0].side[1].change_pct &&
	      r.m[0].side[1].change_pct < r.m[0].side[1].ci_high_pct);
	compare_json(&r, &js);
	CHECK(strstr(js.buf, "\"change_pct\": 1.98") != NULL);
	strbuf_release(&js);
	compare_result_release(&r);
	sample_set_release(&set);
}

static void test_one_run_is_an_error(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;

	add(&set, "a", 1, 0, 10, 1);
	add(&set, "a", 2, 0, 11, 1);
	add(&set, "b", 1, 1, 7, 1);
	add(&set, "b", 1, 2, 9, 1);
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) < 0);
	sample_set_release(&set);
	add(&set, "a", 1, 0, 10, 1);
	add(&set, "a", 2, 0, 11, 1);
	CHECK(compare_run(&set, &o, &r) < 0);	/* one label only */
	sample_set_release(&set);
}

static void test_infinite_is_noisy(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;

	add(&set, "a", 1, 0, 10, 1);
	add(&set, "a", 2, 0, INFINITY, 1);
	add(&set, "b", 1, 0, 10, 1);
	add(&set, "b", 2, 0, 11, 1);
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.verdict, VERDICT_NOISY);
	compare_result_release(&r);
	sample_set_release(&set);
}

static void test_json(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	struct strbuf sb = STRBUF_INIT;
	static const char *const keys[] = {
		"\"kernels\"", "\"metrics\"", "\"workload\"", "\"params\"",
		"\"metric\"", "\"unit\"", "\"higher_is_better\"", "\"stats\"",
		"\"kernel\"", "\"n\"", "\"mean\"", "\"stddev\"", "\"cv\"",
		"\"ci_low\"", "\"ci_high\"", "\"change_pct\"", "\"p_value\"",
		"\"verdict\": \"regression\"", "\"job\"", "\"sentence\"",
		"\"correction\": \"holm\"", "\"kpis_judged\": 1",
		"\"paired\": true", "\"pairs\": 5", "\"p_adjusted\"",
		"\"excluded_pct\"", "\"p_paired\"",
	};
	size_t i;
	int run;

	for (run = 1; run <= 5; run++) {
		add(&set, "base", run, 0, 100 + run, 1);
		add(&set, "patched", run, 0, 80 + run, 1);
	}
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.verdict, VERDICT_REGRESSION);
	compare_json(&r, &sb);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strstr(sb.buf, keys[i])) {
			printf("# missing %s in\n%s", keys[i], sb.buf);
			CHECK(0);
		}
	strbuf_release(&sb);
	compare_result_release(&r);
	sample_set_release(&set);
}

/* Five interleaved blocks of one KPI, labels base and patched. */
static void five_blocks(struct sample_set *set)
{
	int run;

	for (run = 1; run <= 5; run++) {
		add(set, "base", run, 0, 100 + run, 1);
		add(set, "patched", run, 0, 80 + run, 1);
	}
}

/*
 * The robot's commit: block names the commits when the caller knows
 * them (10 hex digits and the subject, the ids over the columns), the
 * labels when it does not.
 */
static void test_lkp_commits(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	struct strbuf sb = STRBUF_INIT;

	five_blocks(&set);
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(compare_render(&r, "lkp", &sb), 0);
	CHECK(strstr(sb.buf, "\ncommit:\n  base\n  patched\n") != NULL);
	strbuf_reset(&sb);
	compare_name_commit(&r, "base",
			    "0123456789abcdef0123456789abcdef01234567",
			    "sched/fair: the base");
	compare_name_commit(&r, "patched",
			    "89abcdef0123456789abcdef0123456789abcdef", NULL);
	compare_name_commit(&r, "no-such-label", "fedcba9876", "x");
	CHECK_INT(compare_render(&r, "lkp", &sb), 0);
	if (!strstr(sb.buf, "\ncommit:\n  0123456789 (\"sched/fair: the "
		    "base\")\n  89abcdef01\n\n0123456789abcdef "
		    "89abcdef0123456789abcdef012\n"))
		printf("# no commit block in\n%s", sb.buf);
	CHECK(strstr(sb.buf, "\ncommit:\n  0123456789 (\"sched/fair: the "
		     "base\")\n  89abcdef01\n\n0123456789abcdef "
		     "89abcdef0123456789abcdef012\n") != NULL);
	CHECK(strstr(sb.buf, "  base\n") == NULL);
	strbuf_release(&sb);
	compare_result_release(&r);
	sample_set_release(&set);
}

/*
 * Tables followed by the verdict sentence (a reply) leave out their own
 * verdict and rule lines; on their own (compare) they keep them.
 */
static void test_verdict_said_once(void)
{
	static const char *const formats[] = {
		"intel", "amd", "lkp", "mmtests", "matrix", "simple",
	};
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	size_t i;

	five_blocks(&set);
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		struct strbuf sb = STRBUF_INIT;

		compare_opts_init(&o);
		CHECK(compare_run(&set, &o, &r) == 0);
		CHECK_INT(compare_render(&r, formats[i], &sb), 0);
		CHECK(strstr(sb.buf, "verdict: regression\n(rule: ") != NULL);
		compare_result_release(&r);
		strbuf_reset(&sb);
		o.sentence_follows = 1;
		CHECK(compare_run(&set, &o, &r) == 0);
		CHECK_INT(compare_render(&r, formats[i], &sb), 0);
		CHECK(strstr(sb.buf, "verdict:") == NULL);
		CHECK(strstr(sb.buf, "(rule: ") == NULL);
		if (strstr(sb.buf, "verdict:"))
			printf("# %s says the verdict itself\n", formats[i]);
		compare_result_release(&r);
		strbuf_release(&sb);
	}
	sample_set_release(&set);
}

/* Each line of text at most width columns (UTF-8 counted once). */
static int max_width(const char *text)
{
	int w = 0, max = 0;

	for (; *text; text++) {
		if (*text == '\n') {
			w = 0;
			continue;
		}
		if (*text == '\t')
			w = (w / 8 + 1) * 8;
		else if (((unsigned char)*text & 0xc0) != 0x80)
			w++;
		if (w > max)
			max = w;
	}
	return max;
}

/* Three kernels: intel as pairs against the baseline, all in 72. */
static void test_three_kernels_fit(void)
{
	static const char *const formats[] = {
		"intel", "amd", "lkp", "mmtests", "matrix", "simple",
	};
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	size_t i;
	int run;

	for (run = 1; run <= 5; run++) {
		add(&set, "v6.1", run, 0, 100 + run, 1);
		add(&set, "v2", run, 0, 80 + run, 1);
		add(&set, "v3", run, 0, 120 + run, 1);
	}
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		struct strbuf sb = STRBUF_INIT;
		int w;

		CHECK_INT(compare_render(&r, formats[i], &sb), 0);
		w = max_width(sb.buf);
		printf("# %s, three kernels: %d columns\n", formats[i], w);
		CHECK(w <= (strcmp(formats[i], "lkp") ? 72 : 100));
		if (!strcmp(formats[i], "intel")) {
			CHECK(strstr(sb.buf, "pingpong (v2 against v6.1)\n")
			      != NULL);
			CHECK(strstr(sb.buf, "pingpong (v3 against v6.1)\n")
			      != NULL);
			CHECK(strstr(sb.buf, "\tcompare%( std%)") != NULL);
		}
		strbuf_release(&sb);
	}
	compare_result_release(&r);
	sample_set_release(&set);
}

/* As the tool does at start-up. */
static void configure(void)
{
	struct compare_defaults cd;
	struct seq_defaults sd;
	struct tmpl_dirs td;

	compare_defaults_from_config(&cd);
	compare_configure(&cd);
	seq_defaults_from_config(&sd);
	seq_configure(&sd);
	tmpl_dirs_from_config(&td);
	tmpl_configure(&td);
}

int main(void)
{
	TEST_NAME("test-compare");
	configure();
	RUN(test_run_values);
	RUN(test_change_is_the_judged_estimate);
	RUN(test_one_run_is_an_error);
	RUN(test_infinite_is_noisy);
	RUN(test_json);
	RUN(test_lkp_commits);
	RUN(test_verdict_said_once);
	RUN(test_three_kernels_fit);
	RUN(test_aa_false_positives);
	RUN(test_power);
	RUN(test_noisy);
	return test_done();
}
