// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the job-level verdict (bot/compare.c, bot/sequential.c)
 * with simulated jobs and fixed seeds: the family-wise false-alarm rate
 * of jobs with 20 KPIs, the power and the runs of the adaptive rule,
 * drift between blocks, the excluded change, and that a driver calling
 * after each block gets what one call over all the blocks gets.
 *
 * A simulated job: KPI k has mean 1000 (k + 1), relative noise cv per
 * run; block i of the job runs at a machine level L_i (drift), the same
 * for both kernels of the block when the runs are interleaved.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "compare.h"
#include "sequential.h"
#include "test.h"
#include "rng.h"

#define KPIS 20
#define MAX_BLOCKS 40

struct job_sim {
	int kpis, blocks;
	double cv;		/* percent, per run */
	double shift;		/* percent, of KPI 0 on the patched kernel */
	double drift;		/* percent: the level falls this over the job */
	int batches;		/* not interleaved: base first, then patched */
	double outlier;		/* KPI 1's cv is this many times cv (0: no) */
	double spread;		/* KPI k's cv: cv * e^(spread (u_k - 1/2)) */
};

/* The run values of one job: v[side][kpi][block]. */
static double vals[2][KPIS][MAX_BLOCKS];

static void sim_values(const struct job_sim *js)
{
	int i, k, side, slots = js->batches ? 2 * js->blocks : js->blocks;
	double spread[KPIS];

	for (k = 0; k < js->kpis; k++)
		spread[k] = js->spread ?
			    exp(js->spread * (rng_uniform() - 0.5)) : 1;
	for (i = 1; i <= js->blocks; i++)
		for (side = 0; side < 2; side++)
			for (k = 0; k < js->kpis; k++) {
				/* the slot of this run in the job's time */
				int t = js->batches && side ? js->blocks + i
							    : i;
				double level = 1 - js->drift / 100 *
					       (slots > 1 ? (t - 1.0) /
						(slots - 1) : 0);
				double cv = js->cv / 100 * spread[k];
				double shift = side && !k ?
					       1 + js->shift / 100 : 1;

				if (k == 1 && js->outlier > 0)
					cv *= js->outlier;
				vals[side][k][i - 1] = 1000.0 * (k + 1) *
					level * shift *
					(1 + cv * rng_normal());
			}
}

/* The values as `sched-bot run` would have written them. */
static void sim_set(const struct job_sim *js, struct sample_set *set)
{
	static char params[KPIS][16];
	int i, k, side;

	for (k = 0; k < js->kpis; k++)
		snprintf(params[k], sizeof(params[k]), "kpi=%d", k);
	for (i = 1; i <= js->blocks; i++)
		for (side = 0; side < 2; side++)
			for (k = 0; k < js->kpis; k++) {
				struct sample s;

				sample_init(&s);
				s.label = (char *)(side ? "patched" : "base");
				s.kernel = (char *)"6.1";
				s.workload = (char *)"w";
				s.params = params[k];
				s.metric = (char *)"ops";
				s.unit = (char *)"ops/s";
				s.higher_is_better = 1;
				s.run = i;
				s.sample = 0;
				s.value = vals[side][k][i - 1];
				sample_set_add(set, &s);
			}
}

/* The same values as the log ratios of the blocks. */
static double lr[KPIS][MAX_BLOCKS];
static struct seq_kpi lr_kpi[KPIS];

static void sim_paired(const struct job_sim *js, struct paired_data *pd)
{
	int i, k;

	for (k = 0; k < js->kpis; k++) {
		for (i = 0; i < js->blocks; i++)
			lr[k][i] = log(vals[1][k][i] / vals[0][k][i]);
		lr_kpi[k].d = lr[k];
		lr_kpi[k].n = js->blocks;
		lr_kpi[k].higher_is_better = 1;
	}
	pd->kpi = lr_kpi;
	pd->nr = js->kpis;
}

struct tally {
	int jobs, worse, better, found;
	int any;		/* jobs with a false call, either way */
	long blocks;
};

static void count(const struct job_sim *js, struct tally *t, int kpi0,
		  int other_worse, int better, int blocks)
{
	t->found += js->shift && kpi0;
	t->worse += other_worse || (!js->shift && kpi0);
	t->better += better;
	t->any += other_worse || (!js->shift && kpi0) || better;
	t->blocks += blocks;
	t->jobs++;
}

/* Jobs through compare_run, as the driver's compare stage does. */
static void run_compare(const struct job_sim *js, int jobs,
			enum compare_pairing pairing,
			const struct seq_plan *plan, struct tally *t)
{
	int j;

	memset(t, 0, sizeof(*t));
	for (j = 0; j < jobs; j++) {
		struct sample_set set = { 0 };
		struct compare_opts o;
		struct compare_result r;
		size_t i;
		int kpi0 = 0, worse = 0;

		sim_values(js);
		sim_set(js, &set);
		compare_opts_init(&o);
		o.pairing = pairing;
		o.plan = plan;
		if (compare_run(&set, &o, &r) < 0) {
			sample_set_release(&set);
			CHECK(0);
			return;
		}
		for (i = 0; i < r.nr; i++) {
			int w = r.m[i].side[1].verdict == VERDICT_REGRESSION;

			if (!strcmp(r.m[i].params, "kpi=0"))
				kpi0 = w;
			else
				worse |= w;
		}
		count(js, t, kpi0, worse, r.fam[1].better > 0,
		      plan ? r.fam[1].blocks : js->blocks);
		compare_result_release(&r);
		sample_set_release(&set);
	}
}

/* Jobs through seq_decide on the log ratios: the same rule, faster. */
static void run_seq(const struct job_sim *js, int jobs,
		    const struct seq_plan *plan, struct tally *t)
{
	int j, k;

	memset(t, 0, sizeof(*t));
	for (j = 0; j < jobs; j++) {
		struct paired_data pd;
		struct seq_decision dec;
		int worse = 0;

		sim_values(js);
		sim_paired(js, &pd);
		if (seq_decide(plan, &pd, &dec) < 0) {
			CHECK(0);
			return;
		}
		for (k = 1; k < js->kpis; k++)
			worse |= dec.kpi[k].call < 0;
		count(js, t, dec.kpi[0].call < 0, worse, dec.better > 0,
		      dec.blocks);
		seq_decision_release(&dec);
	}
}

static void print_tally(const char *what, const struct tally *t)
{
	double n = t->jobs ? t->jobs : 1;

	printf("# %s, %d jobs: false regression %.2f%%, improvement "
	       "%.2f%%, anything %.2f%%, found %.1f%%, %.2f runs a side\n",
	       what, t->jobs, 100 * t->worse / n, 100 * t->better / n,
	       100 * t->any / n, 100 * t->found / n,
	       t->blocks / n);
}

/*
 * How many false alarms a trial count may show.  A job calls anything
 * (a regression or an improvement, any KPI) or not: over N simulated
 * jobs the count X is binomial(N, p).  Were the true rate p = 1%, X <=
 * 10 of 2000 would happen with probability 1.05% (the binomial's lower
 * tail, mean 20): observing it shows p < 1% at 99% confidence.  Over
 * 1000 jobs, X <= 10 only says that the rate observed is at most 1%;
 * the settings whose rate is near the bound get that weaker check (and
 * their 10000-job figures in `make bench`, where 1% is 100 +- 20).
 * The seeds are fixed, so a run is repeatable, and a rule whose rate
 * were 1.4% (the old one, with the KPIs' CVs 0.7-5.4%) would show
 * X <= 10 of 2000 with probability 0.01%.
 */
#define AA_STRONG_JOBS 2000
#define AA_WEAK_JOBS 1000
#define AA_MAX_CALLS 10

/*
 * A/A, 20 KPIs, CV 2%, 5 runs: the job's false alarms, both designs,
 * each direction at alpha / 4 (seq_direction_level).
 */
static void test_aa_fixed(void)
{
	struct job_sim js = { KPIS, 5, 2, 0, 0, 0, 0, 0 };
	struct tally t;

	rng_state = 0x5eed5eed12345678ULL;
	run_compare(&js, AA_STRONG_JOBS, PAIRING_AUTO, NULL, &t);
	print_tally("A/A 20 KPIs, 5 runs, paired", &t);
	CHECK(t.any <= AA_MAX_CALLS);
	run_compare(&js, AA_STRONG_JOBS, PAIRING_UNPAIRED, NULL, &t);
	print_tally("A/A 20 KPIs, 5 runs, unpaired", &t);
	CHECK(t.any <= AA_MAX_CALLS);
}

/*
 * Two files, unpaired: 20 KPIs at n = 5, CV 2%.  The variances are
 * moderated over the family as the paired path's are, so that an 8%
 * drop in one KPI is found in >= 95% of the jobs (plain Welch under
 * Holm found it about 4 times in 10): found in at least 962 of 1000
 * shows it at 95% confidence (were the power 95%, 962 or more would
 * happen with probability 4.3%).  With no change a job calls anything
 * in <= 1% (above), also when one KPI has 10 (or 3) times the CV of
 * the others, or the CVs spread from 0.7% to 5.4%.
 */
static void test_unpaired_moderated(void)
{
	struct job_sim js = { KPIS, 5, 2, -8, 0, 0, 0, 0 };
	struct tally t;

	rng_state = 0x2f11e5ULL;
	run_compare(&js, 1000, PAIRING_UNPAIRED, NULL, &t);
	print_tally("8% drop in 1 of 20 KPIs, 5 runs, unpaired", &t);
	CHECK(t.found >= 962);
	CHECK(t.any <= AA_MAX_CALLS);
	js.shift = 0;
	js.outlier = 10;
	rng_state = 0x10aa2f11e5ULL;
	run_compare(&js, AA_STRONG_JOBS, PAIRING_UNPAIRED, NULL, &t);
	print_tally("A/A, one KPI at 10x the CV, 5 runs, unpaired", &t);
	CHECK(t.any <= AA_MAX_CALLS);
	js.outlier = 3;
	rng_state = 0x03aa2f11e5ULL;
	run_compare(&js, AA_WEAK_JOBS, PAIRING_UNPAIRED, NULL, &t);
	print_tally("A/A, one KPI at 3x the CV, 5 runs, unpaired", &t);
	CHECK(t.any <= AA_MAX_CALLS);
	js.outlier = 0;
	js.spread = 2;
	rng_state = 0x5baa2f11e5ULL;
	run_compare(&js, AA_WEAK_JOBS, PAIRING_UNPAIRED, NULL, &t);
	print_tally("A/A, CVs 0.7-5.4%, 5 runs, unpaired", &t);
	CHECK(t.any <= AA_MAX_CALLS);
}

/* The same 20 KPIs judged one by one at 1% each, the old rule. */
static void test_aa_uncorrected_would_fail(void)
{
	struct job_sim js = { KPIS, 5, 2, 0, 0, 0, 0, 0 };
	int j, bad = 0;

	rng_state = 0x5eed5eed12345678ULL;
	for (j = 0; j < 300; j++) {
		struct sample_set set = { 0 };
		struct compare_opts o;
		struct compare_result r;
		size_t i;
		int any = 0;

		sim_values(&js);
		sim_set(&js, &set);
		compare_opts_init(&o);
		o.pairing = PAIRING_UNPAIRED;
		CHECK(compare_run(&set, &o, &r) == 0);
		for (i = 0; i < r.nr; i++) {
			const struct compare_side *s = &r.m[i].side[1];

			any |= fabs(s->change_pct) >= 2 && s->p_welch < 0.01 &&
			       s->p_mwu < 0.05;
		}
		bad += any;
		compare_result_release(&r);
		sample_set_release(&set);
	}
	printf("# A/A 20 KPIs, per-metric rule without correction: %d of "
	       "300 jobs call a change\n", bad);
	/* the test above can fail: without Holm it would */
	CHECK(bad > 9);
}

static void test_aa_adaptive(void)
{
	struct job_sim js = { KPIS, 20, 2, 0, 0, 0, 0, 0 };
	struct seq_plan plan;
	struct tally t;

	seq_plan_init(&plan);
	CHECK_INT(plan.max_blocks, 20);
	rng_state = 0xa11ce5eedULL;
	run_seq(&js, AA_STRONG_JOBS, &plan, &t);
	print_tally("A/A 20 KPIs, adaptive", &t);
	CHECK(t.any <= AA_MAX_CALLS);
}

/*
 * A 5% drop in 1 of 20 KPIs at CV 2%: >= 95% found in a mean of <= 8 runs
 * a side (issue 13's budget).  The adaptive rule keeps alpha / 2 per
 * direction and the guard at compare.rankAlpha for that (sequential.c,
 * make_calls); with each KPI's own paired t at alpha it took 9.4 runs.
 */
static void test_power_adaptive(void)
{
	struct job_sim js = { KPIS, 20, 2, -5, 0, 0, 0, 0 };
	struct seq_plan plan;
	struct tally t, tc;

	seq_plan_init(&plan);
	rng_state = 0x0123456789abcdefULL;
	run_seq(&js, 1000, &plan, &t);
	print_tally("5% drop in 1 of 20 KPIs, adaptive", &t);
	CHECK(t.found >= 950);
	CHECK(t.blocks <= 8 * t.jobs);
	CHECK(t.worse <= 10);
	/* compare_run on the results decides as the rule does */
	rng_state = 0xfeedULL;
	run_compare(&js, 100, PAIRING_AUTO, &plan, &tc);
	rng_state = 0xfeedULL;
	run_seq(&js, 100, &plan, &t);
	CHECK_INT(tc.found, t.found);
	CHECK_INT(tc.worse, t.worse);
	CHECK_INT(tc.blocks, t.blocks);
	/* fixed at 5 runs the same job is mostly missed: why adapt */
	js.blocks = 5;
	run_compare(&js, 300, PAIRING_AUTO, NULL, &t);
	print_tally("5% drop in 1 of 20 KPIs, 5 runs", &t);
	CHECK(t.found < 285);
}

/*
 * The machine gets 8% slower over the job, block by block.  Interleaved
 * and paired, it cancels; the same drift between two batches (base
 * first, then patched, as two CSVs) is a regression of every KPI.
 */
static void test_drift(void)
{
	struct job_sim js = { KPIS, 8, 2, 0, 8, 0, 0, 0 };
	struct seq_plan plan;
	struct tally t;

	rng_state = 0xd1f7d1f7ULL;
	run_compare(&js, 500, PAIRING_AUTO, NULL, &t);
	print_tally("A/A, 8% drift, 8 interleaved blocks, paired", &t);
	CHECK(t.worse <= 5);
	seq_plan_init(&plan);
	js.blocks = 20;
	run_seq(&js, 500, &plan, &t);
	print_tally("A/A, 8% drift, adaptive, paired", &t);
	CHECK(t.worse <= 5);
	js.blocks = 8;
	js.batches = 1;
	run_compare(&js, 200, PAIRING_UNPAIRED, NULL, &t);
	print_tally("A/A, 8% drift, 8 runs in two batches, unpaired", &t);
	CHECK(t.worse >= 190);
	/* paired, drift does not cost power either */
	js.batches = 0;
	js.shift = -5;
	js.blocks = 20;
	run_seq(&js, 300, &plan, &t);
	print_tally("5% drop, 8% drift, adaptive, paired", &t);
	CHECK(t.found >= 285);
}

/*
 * A KPI three or ten times noisier than the other 19, paired, adaptive
 * and at 5 runs: the family's variance must not make it cry wolf.  Its
 * variance beyond the prior keeps its own (stats_prior_fit_robust), and
 * at 5 runs its own paired t has to agree at alpha, as if it were the
 * only KPI: at most 1% of jobs call anything.  The adaptive rule keeps
 * its cheaper guard (issue 13's runs budget, test_power_adaptive), and
 * one KPI at 3x the CV is called in about 2% of its no-change jobs:
 * bounded here at 2.5%, a call that a regression report must then see
 * repeated by the confirmation round (job.c) before anything is sent.
 */
static void test_outlier_kpi(void)
{
	static const struct {
		const char *what;
		double outlier;
		int blocks;	/* 20: adaptive; else fixed at this many */
		int max_calls;	/* of AA_WEAK_JOBS */
	} c[] = {
		{ "A/A, one KPI at 3x the CV, adaptive", 3, 20, 25 },
		{ "A/A, one KPI at 10x the CV, adaptive", 10, 20, AA_MAX_CALLS },
		{ "A/A, one KPI at 10x the CV, 5 runs, paired", 10, 5, AA_MAX_CALLS },
		{ "A/A, one KPI at 3x the CV, 5 runs, paired", 3, 5, AA_MAX_CALLS },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct job_sim js = { KPIS, c[i].blocks, 2, 0, 0, 0,
				      c[i].outlier, 0 };
		struct seq_plan plan;
		struct tally t;

		if (c[i].blocks == 20)
			seq_plan_init(&plan);
		else
			seq_plan_init_fixed(&plan);
		rng_state = 0x0a7f1e5ULL + (i << 24);
		run_seq(&js, AA_WEAK_JOBS, &plan, &t);
		print_tally(c[i].what, &t);
		CHECK(t.any <= c[i].max_calls);
	}
}

/*
 * "changes larger than X% are excluded at 95%": with every KPI truly
 * 1% better (below the minimum effect), the excluded bound of at least
 * 95% of the jobs keeps every true change inside its intervals.
 */
static void test_excluded_covers(void)
{
	struct seq_plan plan;
	double d[KPIS][12];
	struct seq_kpi kpi[KPIS];
	struct paired_data pd = { kpi, KPIS };
	int j, k, i, covered = 0;

	seq_plan_init_fixed(&plan);
	rng_state = 0xc0ffeeULL;
	for (j = 0; j < 1000; j++) {
		struct seq_decision dec;
		int all = 1;

		for (k = 0; k < KPIS; k++) {
			for (i = 0; i < 12; i++)
				d[k][i] = log(1.01) +
					  0.02 * M_SQRT2 * rng_normal();
			kpi[k].d = d[k];
			kpi[k].n = 12;
			kpi[k].higher_is_better = 1;
		}
		CHECK(seq_decide(&plan, &pd, &dec) == 0);
		for (k = 0; k < KPIS; k++)
			if (!(dec.kpi[k].ci_low_pct <= 1 &&
			      dec.kpi[k].ci_high_pct >= 1))
				all = 0;
		covered += all;
		if (!j)
			printf("# excluded change at 12 blocks, CV 2%%: "
			       "%.1f%%\n", dec.excluded_pct);
		CHECK(dec.excluded_pct >= 1 || !all);
		seq_decision_release(&dec);
	}
	printf("# simultaneous 95%% CIs hold every true change in %d of "
	       "1000 jobs\n", covered);
	CHECK(covered >= 950);
}

/* Calling after each block decides as one call over all blocks. */
static void test_driver_calls_after_each_block(void)
{
	struct seq_plan plan;
	double d[KPIS][MAX_BLOCKS];
	struct seq_kpi kpi[KPIS];
	struct paired_data pd = { kpi, KPIS };
	int j, k, i, n;

	seq_plan_init(&plan);
	rng_state = 0xb10cULL;
	for (j = 0; j < 40; j++) {
		struct seq_decision all, step;
		double shift = j % 2 ? log(0.95) : 0;

		for (k = 0; k < KPIS; k++) {
			for (i = 0; i < plan.max_blocks; i++)
				d[k][i] = (k ? 0 : shift) +
					  0.02 * M_SQRT2 * rng_normal();
			kpi[k].d = d[k];
			kpi[k].n = plan.max_blocks;
			kpi[k].higher_is_better = 1;
		}
		CHECK(seq_decide(&plan, &pd, &all) == 0);
		for (n = 1; n <= plan.max_blocks; n++) {
			for (k = 0; k < KPIS; k++)
				kpi[k].n = n;
			CHECK(seq_decide(&plan, &pd, &step) == 0);
			if (step.state != SEQ_CONTINUE)
				break;
			seq_decision_release(&step);
		}
		CHECK_INT(step.state, all.state);
		CHECK_INT(step.blocks, all.blocks);
		CHECK_INT(step.worse, all.worse);
		CHECK_NEAR(step.excluded_pct, all.excluded_pct, 1e-12);
		if (n > plan.max_blocks)
			CHECK(0);	/* never left undecided at the budget */
		seq_decision_release(&step);
		seq_decision_release(&all);
	}
}

static void print_comment(const char *text)
{
	while (*text) {
		size_t len = strcspn(text, "\n");

		printf("# %.*s\n", (int)len, text);
		text += len + (text[len] == '\n');
	}
}

/* The sentence on one line, for strstr. */
static void unwrap(struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < sb->len; i++)
		if (sb->buf[i] == '\n')
			sb->buf[i] = ' ';
}

/*
 * The driver's loop: after each block, compare_run on everything so far
 * with the plan, until compare_wants_more() says stop; then the reply's
 * sentence says what was decided and what is excluded.
 */
static void test_driver_loop(void)
{
	struct job_sim js = { 6, 20, 2, 0, 0, 0, 0, 0 };
	struct seq_plan plan;
	int j;

	seq_plan_init(&plan);
	rng_state = 0x100bULL;
	for (j = 0; j < 12; j++) {
		struct compare_opts o;
		struct compare_result r;
		struct strbuf sb = STRBUF_INIT, js_out = STRBUF_INIT;
		int b, more = 1;

		/* half of them slower by 8%, a third noisy (CV 6%) */
		js.shift = j % 2 ? -8 : 0;
		js.cv = j % 3 ? 2 : 6;
		js.blocks = plan.max_blocks;
		sim_values(&js);
		for (b = 2; more && b <= plan.max_blocks; b++) {
			struct sample_set set = { 0 };

			js.blocks = b;
			sim_set(&js, &set);
			compare_opts_init(&o);
			o.plan = &plan;
			CHECK(compare_run(&set, &o, &r) == 0);
			more = compare_wants_more(&r);
			if (more)
				compare_result_release(&r);
			sample_set_release(&set);
		}
		CHECK(!more);
		CHECK(b - 1 >= plan.min_blocks);
		CHECK_INT(r.fam[1].blocks, b - 1);
		CHECK(r.fam[1].sequential);
		compare_verdict(&r, &sb);
		if (j < 3)
			print_comment(sb.buf);
		unwrap(&sb);
		compare_json(&r, &js_out);
		CHECK(strstr(sb.buf, r.fam[1].state == SEQ_BUDGET ?
			     "Adaptive runs: " : "Adaptive runs: decided after")
		      != NULL);
		CHECK(strstr(js_out.buf, "\"design\": \"sequential\"") != NULL);
		if (r.fam[1].state == SEQ_REGRESSION) {
			CHECK(starts_with(sb.buf,
					  "Verdict: regression, 1 of 6"));
			CHECK(js.shift < 0);
		} else {
			/* nothing found: what it can exclude is said */
			CHECK(strstr(sb.buf, "are excluded at 95%") != NULL);
		}
		if (r.fam[1].state == SEQ_BUDGET)
			CHECK(strstr(sb.buf, "blocks run, the budget spent "
				     "without a decision") != NULL &&
			      strstr(sb.buf, "decided after") == NULL);
		strbuf_release(&sb);
		strbuf_release(&js_out);
		compare_result_release(&r);
	}
}

static void add_run(struct sample_set *set, const char *label, int run,
		    double value)
{
	struct sample s;

	sample_init(&s);
	s.label = (char *)label;
	s.workload = (char *)"spawn";
	s.metric = (char *)"lps";
	s.higher_is_better = 1;
	s.run = run;
	s.value = value;
	sample_set_add(set, &s);
}

/* Which runs pair up, and when the sides are not paired at all. */
static void test_pairing(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	int i;

	/* a job stopped between the two runs of block 4: 3 pairs */
	for (i = 1; i <= 4; i++) {
		add_run(&set, "base", i, 100 + i);
		if (i < 4)
			add_run(&set, "patched", i, 101 + i);
	}
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].paired, 1);
	CHECK_INT(r.fam[1].pairs, 3);
	compare_result_release(&r);
	o.pairing = PAIRING_UNPAIRED;
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].paired, 0);
	compare_result_release(&r);
	sample_set_release(&set);

	/* runs 1-3 against 2-4: not one job's blocks, unless told */
	for (i = 1; i <= 3; i++) {
		add_run(&set, "base", i, 100 + i);
		add_run(&set, "patched", i + 1, 100 + i);
	}
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].paired, 0);
	compare_result_release(&r);
	o.pairing = PAIRING_PAIRED;
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].paired, 1);
	CHECK_INT(r.fam[1].pairs, 2);
	compare_result_release(&r);
	sample_set_release(&set);

	/* one shared run is not enough to pair */
	add_run(&set, "base", 1, 1);
	add_run(&set, "base", 2, 2);
	add_run(&set, "patched", 2, 2);
	add_run(&set, "patched", 3, 3);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].paired, 0);
	compare_result_release(&r);
	sample_set_release(&set);
}

/* Diagnostics are never in the family, whatever they do. */
static void test_diagnostics_not_judged(void)
{
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 1; i <= 6; i++) {
		struct sample s;
		int side;

		for (side = 0; side < 2; side++) {
			sample_init(&s);
			s.label = (char *)(side ? "patched" : "base");
			s.workload = (char *)"spawn";
			s.metric = (char *)"lps";
			s.unit = (char *)"lps";
			s.higher_is_better = 1;
			s.run = i;
			s.value = 1000 + 3 * i + side;
			sample_set_add(&set, &s);
			s.metric = (char *)"diag.wall_s";
			s.higher_is_better = 0;
			s.value = side ? 20 + i : 10 + i;	/* doubles */
			sample_set_add(&set, &s);
		}
	}
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].judged, 1);
	CHECK_INT(r.fam[1].paired, 1);
	CHECK_INT(r.fam[1].pairs, 6);
	CHECK_INT(r.verdict, VERDICT_NONE);
	compare_verdict(&r, &sb);
	unwrap(&sb);
	CHECK(starts_with(sb.buf, "Verdict: no significant change in the 1 "
			  "KPI judged"));
	CHECK(strstr(sb.buf, "excluded at 95%") != NULL);
	strbuf_release(&sb);
	compare_result_release(&r);
	sample_set_release(&set);
}

/*
 * Figures only, for `make bench` (SCHED_BOT_BENCH=1): 10000 jobs of the
 * settings above, and settings the targets do not name.
 */
static void bench_figures(void)
{
	static const struct {
		const char *what;
		struct job_sim js;
		int max_blocks;	/* 0: fixed, js.blocks runs; -1: unpaired */
	} b[] = {
		{ "A/A 20 KPIs CV 2%, 5 runs",
		  { KPIS, 5, 2, 0, 0, 0, 0, 0 }, 0 },
		{ "A/A 20 KPIs CV 2%, 5 runs, unpaired",
		  { KPIS, 5, 2, 0, 0, 0, 0, 0 }, -1 },
		{ "A/A 20 KPIs CV 2%, adaptive", { KPIS, 20, 2, 0, 0, 0, 0, 0 },
		  20 },
		{ "5% drop 1 of 20, CV 2%, adaptive",
		  { KPIS, 20, 2, -5, 0, 0, 0, 0 }, 20 },
		{ "5% drop 1 of 20, CV 2%, 5 runs",
		  { KPIS, 5, 2, -5, 0, 0, 0, 0 }, 0 },
		{ "5% drop 1 of 20, CV 2%, 8 runs",
		  { KPIS, 8, 2, -5, 0, 0, 0, 0 }, 0 },
		{ "5% drop 1 of 20, CV 2%, adaptive, maxRuns 10",
		  { KPIS, 10, 2, -5, 0, 0, 0, 0 }, 10 },
		{ "5% drop 1 of 20, CV 2%, adaptive, maxRuns 30",
		  { KPIS, 30, 2, -5, 0, 0, 0, 0 }, 30 },
		{ "3% drop 1 of 20, CV 2%, adaptive",
		  { KPIS, 20, 2, -3, 0, 0, 0, 0 }, 20 },
		{ "5% drop 1 of 20, CV 3%, adaptive",
		  { KPIS, 20, 3, -5, 0, 0, 0, 0 }, 20 },
		{ "A/A 20 KPIs, CVs 1.2-3.3%, adaptive",
		  { KPIS, 20, 2, 0, 0, 0, 0, 1 }, 20 },
		{ "A/A 20 KPIs, CVs 0.7-5.4%, adaptive",
		  { KPIS, 20, 2, 0, 0, 0, 0, 2 }, 20 },
		{ "A/A, one KPI at 2x the CV, adaptive",
		  { KPIS, 20, 2, 0, 0, 0, 2, 0 }, 20 },
		{ "A/A, one KPI at 3x the CV, adaptive",
		  { KPIS, 20, 2, 0, 0, 0, 3, 0 }, 20 },
		{ "A/A, one KPI at 5x the CV, adaptive",
		  { KPIS, 20, 2, 0, 0, 0, 5, 0 }, 20 },
		{ "A/A, one KPI at 10x the CV, adaptive",
		  { KPIS, 20, 2, 0, 0, 0, 10, 0 }, 20 },
		{ "A/A, one KPI at 3x the CV, 5 runs",
		  { KPIS, 5, 2, 0, 0, 0, 3, 0 }, 0 },
		{ "A/A, one KPI at 10x the CV, 5 runs",
		  { KPIS, 5, 2, 0, 0, 0, 10, 0 }, 0 },
		{ "A/A 20 KPIs, CVs 0.7-5.4%, 5 runs",
		  { KPIS, 5, 2, 0, 0, 0, 0, 2 }, 0 },
		{ "A/A, 8% drift, adaptive, paired",
		  { KPIS, 20, 2, 0, 8, 0, 0, 0 }, 20 },
		{ "8% drop 1 of 20, CV 2%, 5 runs, unpaired",
		  { KPIS, 5, 2, -8, 0, 0, 0, 0 }, -1 },
		{ "5% drop 1 of 20, CV 2%, 5 runs, unpaired",
		  { KPIS, 5, 2, -5, 0, 0, 0, 0 }, -1 },
		{ "5% drop 1 of 20, CV 2%, 8 runs, unpaired",
		  { KPIS, 8, 2, -5, 0, 0, 0, 0 }, -1 },
		{ "A/A, one KPI at 10x the CV, 5 runs, unpaired",
		  { KPIS, 5, 2, 0, 0, 0, 10, 0 }, -1 },
		{ "A/A, one KPI at 3x the CV, 5 runs, unpaired",
		  { KPIS, 5, 2, 0, 0, 0, 3, 0 }, -1 },
		{ "A/A 20 KPIs, CVs 0.7-5.4%, 5 runs, unpaired",
		  { KPIS, 5, 2, 0, 0, 0, 0, 2 }, -1 },
	};
	/* SCHED_BOT_BENCH=unpaired: only the unpaired (two-file) rows */
	const char *which = getenv("SCHED_BOT_BENCH");
	size_t i;

	if (!which)
		return;
	for (i = 0; i < ARRAY_SIZE(b); i++) {
		struct seq_plan plan;
		struct tally t;

		if (!strcmp(which, "unpaired") && b[i].max_blocks >= 0)
			continue;
		rng_state = 0xbe7c0000ULL + i;
		if (b[i].max_blocks < 0) {
			run_compare(&b[i].js, 10000, PAIRING_UNPAIRED, NULL,
				    &t);
			print_tally(b[i].what, &t);
			continue;
		}
		if (b[i].max_blocks) {
			seq_plan_init(&plan);
			plan.max_blocks = b[i].max_blocks;
		} else {
			seq_plan_init_fixed(&plan);
		}
		run_seq(&b[i].js, 10000, &plan, &t);
		print_tally(b[i].what, &t);
	}
}

/*
 * An excluded change from two blocks, or wider than 50%, bounds nothing
 * a reader can use: the sentence says the runs were too few instead.
 */
static void test_too_few_to_bound(void)
{
	static const double two[2][2] = { { 100, 103 }, { 101, 99 } };
	struct sample_set set = { 0 };
	struct compare_opts o;
	struct compare_result r;
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < 2; i++) {
		add_run(&set, "base", i + 1, two[0][i]);
		add_run(&set, "patched", i + 1, two[1][i]);
	}
	compare_opts_init(&o);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK_INT(r.fam[1].pairs, 2);
	compare_verdict(&r, &sb);
	print_comment(sb.buf);
	unwrap(&sb);
	CHECK(strstr(sb.buf, "; too few runs (2 blocks) to bound the "
		     "change.") != NULL);
	CHECK(strstr(sb.buf, "are excluded") == NULL);
	compare_result_release(&r);
	sample_set_release(&set);
	strbuf_reset(&sb);

	/* three blocks, but all over the place: still nothing bounded */
	add_run(&set, "base", 1, 100);
	add_run(&set, "base", 2, 160);
	add_run(&set, "base", 3, 60);
	add_run(&set, "patched", 1, 150);
	add_run(&set, "patched", 2, 70);
	add_run(&set, "patched", 3, 110);
	CHECK(compare_run(&set, &o, &r) == 0);
	CHECK(r.fam[1].excluded_pct > 50);
	compare_verdict(&r, &sb);
	unwrap(&sb);
	CHECK(strstr(sb.buf, "too few runs (3 blocks) to bound the "
		     "change") != NULL);
	compare_result_release(&r);
	sample_set_release(&set);
	strbuf_reset(&sb);

	/* twelve quiet blocks: a bound worth stating */
	rng_state = 0x5eedULL;
	for (i = 1; i <= 12; i++) {
		add_run(&set, "base", i, 100 * (1 + 0.01 * rng_normal()));
		add_run(&set, "patched", i, 100 * (1 + 0.01 * rng_normal()));
	}
	CHECK(compare_run(&set, &o, &r) == 0);
	compare_verdict(&r, &sb);
	unwrap(&sb);
	CHECK(r.fam[1].excluded_pct <= 50);
	CHECK(strstr(sb.buf, "are excluded at 95%") != NULL);
	CHECK(strstr(sb.buf, "too few runs") == NULL);
	compare_result_release(&r);
	sample_set_release(&set);
	strbuf_release(&sb);
}

/* As the tool does at start-up. */
static void configure(void)
{
	struct compare_defaults cd;
	struct seq_defaults sd;

	compare_defaults_from_config(&cd);
	compare_configure(&cd);
	seq_defaults_from_config(&sd);
	seq_configure(&sd);
}

int main(void)
{
	TEST_NAME("test-verdict");
	configure();
	RUN(test_too_few_to_bound);
	RUN(test_diagnostics_not_judged);
	RUN(test_pairing);
	RUN(test_driver_calls_after_each_block);
	RUN(test_driver_loop);
	RUN(test_aa_fixed);
	RUN(test_aa_uncorrected_would_fail);
	RUN(test_unpaired_moderated);
	RUN(test_aa_adaptive);
	RUN(test_power_adaptive);
	RUN(test_drift);
	RUN(test_outlier_kpi);
	RUN(test_excluded_covers);
	bench_figures();
	return test_done();
}
