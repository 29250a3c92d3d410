// SPDX-License-Identifier: GPL-2.0
/*
 * target/check.c - is the machine fit to measure on: what else runs
 * there and what its settings are (`sched-bench health` on the running
 * kernel), and how much each workload's numbers scatter on their own
 * (a few short runs on the default kernel, their CV).  Kept per target
 * beside the unhealthy mark, $XDG_DATA_HOME/sched-bot/targets/: NAME.check
 * (the figures, for the jobs that follow) and NAME-check/ (the machine's
 * env.txt and the commands that ran); the env record its health run
 * printed is NAME.facts, what the plans of its jobs are scaled to.
 *
 * Noise against the plan: the paired log ratio of an A B block has a
 * standard deviation of about sqrt(2) CV, so its 95% CI after n blocks
 * is within +-detect when n >= 2 (1.96 CV / detect)^2.  That is a lower
 * bound (the job's family of KPIs widens the CI): past job.maxRuns, the
 * job cannot find or exclude compare.detect on that machine.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kv.h"
#include "target/common.h"

/* A process that takes this much of one CPU is another load. */
#define HOG_PCT 50.0

void target_check_release(struct target_check *c)
{
	strbuf_release(&c->report);
	free(c->busy);
	free(c->noisy);
	free(c->noise);
	memset(c, 0, sizeof(*c));
}

/* The "health,KEY,VALUE" records of the machine's output into h. */
static void parse_health(const char *buf, struct kv *h, struct strbuf *top)
{
	const char *p = buf;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n), *comma;

		comma = starts_with(line, "health,") ?
			strchr(line + 7, ',') : NULL;
		if (comma) {
			*comma = '\0';
			if (!strcmp(line + 7, "top"))
				strbuf_addf(top, "%s\n", comma + 1);
			else
				kv_set(h, line + 7, comma + 1);
		}
		free(line);
		p += n + (p[n] == '\n');
	}
}

static const char *get(const struct kv *h, const char *key)
{
	const char *v = kv_get(h, key);

	return v ? v : "unknown";
}

/*
 * The machine's settings and load into c->report; c->busy names the
 * load when the load average per CPU is above maxLoad or a process
 * takes more than HOG_PCT of a CPU.
 */
static void judge_health(const char *name, const char *buf,
			 struct target_check *c)
{
	struct kv h = { 0 };
	struct strbuf top = STRBUF_INIT, why = STRBUF_INIT;
	double max_load = target_cfg_number(name, "maxLoad"), load;
	long cpus;
	const char *p;

	parse_health(buf, &h, &top);
	if (kv_get(&h, "prepare"))
		strbuf_addf(&c->report, "%s: prepare: %s\n", name,
			    get(&h, "prepare"));
	if (!strcmp(get(&h, "governor"), "none"))
		strbuf_addf(&c->report, "%s: no cpufreq", name);
	else
		strbuf_addf(&c->report, "%s: governor %s (cpufreq %s)", name,
			    get(&h, "governor"), get(&h, "cpufreq_driver"));
	strbuf_addf(&c->report, ", boost %s, SMT %s, THP %s\n", get(&h, "boost"),
		    get(&h, "smt"), get(&h, "thp"));
	cpus = strtol(get(&h, "nr_cpus"), NULL, 10);
	load = strtod(get(&h, "loadavg"), NULL);
	strbuf_addf(&c->report, "%s: load average %s on %ld CPUs\n", name,
		    get(&h, "loadavg"), cpus);
	if (cpus > 0 && load / cpus > max_load)
		strbuf_addf(&why, "load average %.2f on %ld CPUs, above target.%s.maxLoad %g per CPU",
			    load, cpus, name,
			    max_load);
	for (p = top.buf; *p;) {
		size_t n = strcspn(p, "\n");
		char comm[20] = "";
		double pct;
		int pid;

		if (sscanf(p, "%lf %d %19[^\n]", &pct, &pid, comm) >= 2) {
			strbuf_addf(&c->report, "%s: top: %5.1f%% of a CPU, pid %d (%s)\n",
				    name, pct, pid, comm);
			if (pct > HOG_PCT)
				strbuf_addf(&why, "%spid %d (%s) takes %.0f%% of a CPU",
					    why.len ? "; " : "",
					    pid, comm, pct);
		}
		p += n + (p[n] == '\n');
	}
	if (!top.len)
		strbuf_addf(&c->report, "%s: top: nothing else ran\n", name);
	if (why.len)
		c->busy = strbuf_detach(&why, NULL);
	kv_release(&h);
	strbuf_release(&top);
	strbuf_release(&why);
}

/*
 * target.NAME.busy: refuse (a busy machine takes no job now) or report
 * (the default: the job runs and its reply says the machine was busy).
 */
static int refuses_busy(const char *name)
{
	const char *v = target_cfg(name, "busy", "report");

	if (!strcmp(v, "refuse"))
		return 1;
	if (strcmp(v, "report"))
		warning("config target.%s.busy = '%s' is neither report nor refuse, using report",
			name, v);
	return 0;
}

/* The blocks that find or exclude detect percent at a per-run CV. */
static int blocks_needed(double cv, double detect)
{
	double n = 2 * pow(1.96 * cv / detect, 2);

	return n < 2 ? 2 : n > 1e6 ? 1000000 : (int)ceil(n);
}

/*
 * One figure line per (workload, metric): "noise WORKLOAD METRIC CV
 * RUNS", the run's headline values (sample 0) over the runs.
 */
static void noise_of(const struct sample_set *set, struct strbuf *out)
{
	size_t i, k;

	for (i = 0; i < set->nr; i++) {
		const struct sample *s = &set->v[i];
		double sum = 0, sq = 0, mean;
		int n = 0, first = 1;

		/* diagnostics are not judged: their noise does not matter */
		if (s->sample != 0 || starts_with(s->metric, "diag."))
			continue;
		for (k = 0; k < i && first; k++)
			if (set->v[k].sample == 0 &&
			    !strcmp(set->v[k].workload, s->workload) &&
			    !strcmp(set->v[k].metric, s->metric) &&
			    !strcmp(set->v[k].params, s->params))
				first = 0;
		if (!first)
			continue;
		for (k = i; k < set->nr; k++)
			if (set->v[k].sample == 0 &&
			    !strcmp(set->v[k].workload, s->workload) &&
			    !strcmp(set->v[k].metric, s->metric) &&
			    !strcmp(set->v[k].params, s->params) &&
			    isfinite(set->v[k].value)) {
				sum += set->v[k].value;
				n++;
			}
		if (n < 2 || !sum)
			continue;
		mean = sum / n;
		for (k = i; k < set->nr; k++)
			if (set->v[k].sample == 0 &&
			    !strcmp(set->v[k].workload, s->workload) &&
			    !strcmp(set->v[k].metric, s->metric) &&
			    !strcmp(set->v[k].params, s->params) &&
			    isfinite(set->v[k].value))
				sq += pow(set->v[k].value - mean, 2);
		strbuf_addf(out, "noise %s %s %.2f %d\n", s->workload,
			    s->metric, 100 * sqrt(sq / (n - 1)) / fabs(mean),
			    n);
	}
}

/* The noise figures against the plan: report lines, c->noisy. */
/* Whether w is in the comma-separated list (NULL: every workload). */
static int listed(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	if (!list)
		return 1;
	while (*p) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, w, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

static void judge_noise(const char *name, const char *figures,
			const struct target_check_opts *o,
			struct target_check *c)
{
	const char *budget = o->budget ? o->budget : "job.maxRuns";
	struct strbuf why = STRBUF_INIT;
	const char *p;

	for (p = figures; *p;) {
		size_t n = strcspn(p, "\n");
		char w[64], m[64];
		double cv;
		int runs, need;

		if (sscanf(p, "noise %63s %63s %lf %d", w, m, &cv, &runs) == 4 &&
		    o->detect > 0 && listed(o->workloads, w)) {
			need = blocks_needed(cv, o->detect);
			strbuf_addf(&c->report, "%s: noise: %s %s: CV %.2f%% over %d runs; a %g%% change takes ~%d runs a side (%s %d)\n",
				    name, w, m, cv,
				    runs, o->detect, need, budget, o->max_runs);
			if (need > o->max_runs)
				strbuf_addf(&why, "%s%s %s: CV %.2f%%, %g%% needs ~%d runs a side, past %s %d",
					    why.len ? "; " : "", w, m, cv,
					    o->detect, need, budget,
					    o->max_runs);
		}
		p += n + (p[n] == '\n');
	}
	if (why.len)
		c->noisy = strbuf_detach(&why, NULL);
	strbuf_release(&why);
}

/* A few short runs of the workloads on the running kernel: figures. */
static int measure_noise(const char *name, const struct target_check_opts *o,
			 struct strbuf *figures)
{
	struct boot_req req = { 0 };
	struct boot_res res;
	char *dir = target_file(name, "-check");
	int ret;

	req.workloads = o->workloads;
	req.workload_args = o->quick ? "spawn=--passes,1,--gap,0 pingpong=--warmup,0" : NULL;
	req.runs = o->runs;
	req.seconds = o->seconds;
	req.label = "check";
	req.autogroup = -1;
	req.workdir = dir;
	if (dir)
		mkdir_p(dir, 0755);
	ret = target_run(name, &req, &res);
	if (ret > 0)
		error("%s: the noise runs failed: %s", name,
		      res.reason ? res.reason : "no reason given");
	else if (!ret)
		noise_of(&res.samples, figures);
	boot_res_release(&res);
	free(dir);
	return ret ? -1 : 0;
}

/* Now, as the kept file says it. */
static void utc_now(char *buf, size_t size)
{
	time_t t = time(NULL);

	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
}

/*
 * NAME.check: when, what kept the machine busy, and the noise figures
 * with when they were measured (a busy check measures none and keeps
 * the last figures).
 */
static void keep(const char *name, const struct target_check *c,
		 const char *figures, const char *measured)
{
	char *path = target_file(name, ".check"), when[32];
	struct strbuf sb = STRBUF_INIT;

	if (!path)
		return;
	utc_now(when, sizeof(when));
	strbuf_addf(&sb, "checked %s\n", when);
	if (c->busy)
		strbuf_addf(&sb, "busy %s\n", c->busy);
	if (*figures)
		strbuf_addf(&sb, "measured %s\n%s", measured, figures);
	if (mkdir_parent(path, 0755) < 0 ||
	    write_file_atomic(path, sb.buf, sb.len) < 0)
		error("cannot write %s: %s", path, strerror(errno));
	strbuf_release(&sb);
	free(path);
}

/* The noise figures NAME.check keeps, and when they were measured. */
static void kept_noise(const char *name, struct strbuf *figures,
		       struct strbuf *measured)
{
	char *path = target_file(name, ".check");
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	if (path && strbuf_read_file(&sb, path) >= 0) {
		for (p = sb.buf; *p;) {
			size_t n = strcspn(p, "\n");

			if (starts_with(p, "noise "))
				strbuf_add(figures, p, n + (p[n] == '\n'));
			else if (starts_with(p, "measured "))
				strbuf_add(measured, p + 9, n - 9);
			p += n + (p[n] == '\n');
		}
	}
	strbuf_release(&sb);
	free(path);
}

/*
 * The noise: measured now (a check of an idle machine), else kept from
 * the last check that measured it (a busy check, a job's look).
 */
static int noise(const char *name, const struct target_check_opts *o,
		 struct target_check *c, struct strbuf *figures)
{
	struct strbuf measured = STRBUF_INIT;
	char when[32];

	if (o->runs && !c->busy) {
		if (measure_noise(name, o, figures) < 0)
			return -1;
		utc_now(when, sizeof(when));
		strbuf_addstr(&measured, when);
	} else {
		kept_noise(name, figures, &measured);
	}
	if (o->runs && c->busy) {
		strbuf_addf(&c->report, "%s: noise not measured: the machine is busy\n",
			    name);
	} else if (!figures->len) {
		strbuf_addf(&c->report, "%s: noise not known: no 'sched-bot target check %s' yet\n",
			    name, name);
	} else {
		if (!o->runs)
			strbuf_addf(&c->report, "%s: noise as measured %s\n",
				    name, measured.buf);
		judge_noise(name, figures->buf, o, c);
	}
	if (o->runs)
		keep(name, c, figures->buf, measured.buf);
	strbuf_release(&measured);
	return 0;
}

int target_check(const char *name, const struct target_check_opts *o,
		 struct target_check *c)
{
	const struct target_ops *ops = target_backend(name);
	struct strbuf out = STRBUF_INIT, figures = STRBUF_INIT;
	struct target_ctx ctx;
	struct boot_req req = { .workloads = "env" };
	char *why;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	if (!ops || !ops->health)
		return error("target %s: %s", name, ops ? "a check needs a machine that runs between jobs (ssh, local), not a guest booted per run" : "unknown target");
	if (target_unhealthy(name, &why)) {
		c->busy = xasprintf("marked unhealthy %s", why);
		c->refuse = refuses_busy(name);
		free(why);
		return 0;
	}
	if (target_ctx_init(&ctx, name, ops, &req) < 0)
		return -1;
	if (ops->health(&ctx, target_cfg_bool(name, "prepare") && o->runs ?
			"-t 1 --prepare" : "-t 1", &out) < 0)
		goto out;
	/* what the machine is, for the plans of the jobs that follow */
	target_keep_facts(name, out.buf, out.len);
	judge_health(name, out.buf, c);
	c->refuse = c->busy && refuses_busy(name);
	if (noise(name, o, c, &figures) < 0)
		goto out;
	c->noise = strbuf_detach(&figures, NULL);
	ret = 0;
out:
	target_ctx_release(&ctx);
	strbuf_release(&out);
	strbuf_release(&figures);
	return ret;
}

int target_facts(const char *name, int fresh, struct strbuf *facts)
{
	const struct target_ops *ops = target_backend(name);
	struct boot_req req = { .workloads = "env" };
	struct strbuf out = STRBUF_INIT;
	struct target_ctx ctx;
	char *path, *why;
	int ret = 0;

	/* qemu's shape is its configuration; local is this machine as is */
	if (!ops || (ops->traits & (TARGET_SHAPED | TARGET_HERE)))
		return 0;
	/* a machine marked unhealthy is not asked: it is down */
	if (fresh && ops->health && target_unhealthy(name, &why)) {
		free(why);
	} else if (fresh && ops->health) {
		/* a tenth of a second of top: the record is what is wanted */
		if (target_ctx_init(&ctx, name, ops, &req) < 0)
			return -1;
		ret = ops->health(&ctx, "-t 0.1", &out);
		target_ctx_release(&ctx);
		if (!ret)
			target_keep_facts(name, out.buf, out.len);
		strbuf_release(&out);
		if (ret < 0)
			return -1;
	}
	path = target_file(name, ".facts");
	strbuf_reset(facts);
	if (path && strbuf_read_file(facts, path) < 0)
		strbuf_reset(facts);
	free(path);
	return facts->len ? 1 : 0;
}
