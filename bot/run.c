// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - run workloads (sched-bench, hackbench, perf bench, schbench)
 * and turn their output into result rows.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchopts.h"
#include "kv.h"
#include "procstat.h"
#include "run.h"
#include "subproc.h"
#include "util.h"
#include "workload.h"

/* ---- sched-bench output ------------------------------------------- */

/* A value of an env or stat record; "unknown" is no value. */
static const char *field_get(const struct kv *l, const char *key)
{
	const char *v = kv_get(l, key);

	return v && strcmp(v, "unknown") ? v : NULL;
}

/* Records of one (workload, params, run) until its "end". */
struct group {
	char *workload, *params;
	int run;
	int count;
	struct sample_set samples;
	struct kv stats;		/* stat records: key, value */
	struct kv stat_units;		/* ... and the same key's unit */
};

struct parser {
	struct kv env;
	struct group *groups;
	size_t nr, alloc;
	struct run_parse_report rep;
};

static int is_token(const char *s, const char *extra, int allow_empty)
{
	if (!*s)
		return allow_empty;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

static int parse_num(const char *s, double *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (*end || errno || !isfinite(*v))
		return -1;
	return 0;
}

static int parse_nonneg_int(const char *s, int *v)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (*end || errno || n > INT_MAX)
		return -1;
	*v = (int)n;
	return 0;
}

/* Split at commas into at most max fields; the last takes the rest. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	while (n < max) {
		char *c = strchr(f[n - 1], ',');

		if (!c)
			break;
		*c = '\0';
		f[n++] = c + 1;
	}
	return n;
}

static struct group *find_group(struct parser *p, const char *workload,
				const char *params, int run, int create)
{
	struct group *g;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		g = &p->groups[i];
		if (g->run == run && !strcmp(g->workload, workload) &&
		    !strcmp(g->params, params))
			return g;
	}
	if (!create)
		return NULL;
	ALLOC_GROW(p->groups, p->nr, p->alloc);
	g = &p->groups[p->nr++];
	memset(g, 0, sizeof(*g));
	g->workload = xstrdup(workload);
	g->params = xstrdup(params);
	g->run = run;
	return g;
}

static void group_release(struct group *g)
{
	free(g->workload);
	free(g->params);
	sample_set_release(&g->samples);
	kv_release(&g->stats);
	kv_release(&g->stat_units);
}

static void remove_group(struct parser *p, struct group *g)
{
	size_t i = g - p->groups;

	group_release(g);
	memmove(&p->groups[i], &p->groups[i + 1],
		(p->nr - i - 1) * sizeof(*g));
	p->nr--;
}

static const char *pick(const char *a, const char *b)
{
	return a && *a ? a : b;
}

/* Label, kernel, env columns of a row. */
static void fill_context(struct sample *s, const struct run_meta *meta,
			 const struct kv *env)
{
	const char *v;

	s->label = (char *)pick(meta ? meta->label : NULL, "");
	s->kernel = (char *)pick(meta ? meta->kernel : NULL,
				 field_get(env, "kernel_release"));
	s->target = (char *)(meta ? meta->target : NULL);
	s->machine = (char *)pick(meta ? meta->machine : NULL,
				  field_get(env, "hostname"));
	s->time = (char *)pick(meta ? meta->time : NULL, field_get(env, "time"));
	v = field_get(env, "nr_cpus");
	s->nr_cpus = v ? atoi(v) : 0;
	s->autogroup_config = (char *)field_get(env, "config_sched_autogroup");
	s->autogroup_enabled = (char *)field_get(env, "sched_autogroup_enabled");
	s->cgroup = (char *)field_get(env, "cgroup");
}

static void set_cpu(struct sample *s, const struct kv *stats)
{
	static const struct { const char *key; size_t off; } cols[] = {
		{ "cpu_usr", offsetof(struct sample, cpu_usr) },
		{ "cpu_sys", offsetof(struct sample, cpu_sys) },
		{ "cpu_idle", offsetof(struct sample, cpu_idle) },
		{ "cpu_iowait", offsetof(struct sample, cpu_iowait) },
		{ "cpu_softirq", offsetof(struct sample, cpu_softirq) },
	};
	size_t i;
	double v;

	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		const char *t = field_get(stats, cols[i].key);

		if (t && !parse_num(t, &v))
			*(double *)((char *)s + cols[i].off) = v;
	}
}

/* A complete run: its rows, then diag rows for the stat records. */
static void finish_group(struct parser *p, struct group *g,
			 const struct run_meta *meta, struct sample_set *out)
{
	const char *placement = "";
	struct sample s;
	size_t i;

	for (i = 0; i < g->samples.nr; i++) {
		s = g->samples.v[i];
		placement = s.placement ? s.placement : "";
		fill_context(&s, meta, &p->env);
		set_cpu(&s, &g->stats);
		sample_set_add(out, &s);
	}
	for (i = 0; i < g->stats.nr; i++) {
		const char *key = g->stats.keys[i];
		char *metric;
		double v;

		/*
		 * The cpu_* figures have columns of their own, but for
		 * cpu_other (nice, irq, steal): a diag row keeps it, so that
		 * the utilisation of a run still adds up to 100%.
		 */
		if ((starts_with(key, "cpu_") && strcmp(key, "cpu_other")) ||
		    parse_num(g->stats.vals[i], &v))
			continue;
		metric = xasprintf("diag.%s", key);
		sample_init(&s);
		fill_context(&s, meta, &p->env);
		set_cpu(&s, &g->stats);
		s.workload = g->workload;
		s.params = g->params;
		s.run = g->run;
		s.sample = 0;
		s.metric = metric;
		s.value = v;
		s.unit = (char *)kv_get(&g->stat_units, key);
		s.higher_is_better = 0;
		s.placement = (char *)placement;
		sample_set_add(out, &s);
		free(metric);
	}
	p->rep.runs++;
}

static int parse_record(struct parser *p, char *line,
			const struct run_meta *meta, struct sample_set *out)
{
	char *f[12];
	struct group *g;
	int n, run, num;
	double v;

	if (starts_with(line, "env,")) {
		n = split(line, f, 3);
		if (n != 3 || !is_token(f[1], "_.-", 0))
			return -1;
		kv_set(&p->env, f[1], f[2]);
		p->rep.env++;
		return 0;
	}
	n = split(line, f, 12);
	if (n < 5 || !is_token(f[1], "_.-", 0) ||
	    !is_token(f[2], " _.=:/+-", 1) || parse_nonneg_int(f[3], &run) ||
	    run < 1)
		return -1;
	if (!strcmp(f[0], "end")) {
		if (n != 5 || parse_nonneg_int(f[4], &num))
			return -1;
		g = find_group(p, f[1], f[2], run, 0);
		if (!g)
			return -1;
		if (g->count != num) {
			p->rep.dropped++;
			warning("sched-bench run %s (%s) run %d: %d of %d records, dropped",
				f[1], f[2], run, g->count, num);
		} else {
			finish_group(p, g, meta, out);
		}
		remove_group(p, g);
		return 0;
	}
	if (!strcmp(f[0], "sample")) {
		struct sample s;
		int sample, hib;

		if (n != 10 || parse_nonneg_int(f[4], &sample) ||
		    !is_token(f[5], "_.-", 0) || parse_num(f[6], &v) ||
		    !is_token(f[7], "_/%.-", 0) ||
		    parse_nonneg_int(f[8], &hib) || hib > 1 ||
		    !is_token(f[9], "_.-", 1))
			return -1;
		g = find_group(p, f[1], f[2], run, 1);
		sample_init(&s);
		s.workload = f[1];
		s.params = f[2];
		s.run = run;
		s.sample = sample;
		s.metric = f[5];
		s.value = v;
		s.unit = f[7];
		s.higher_is_better = hib;
		s.placement = f[9];
		sample_set_add(&g->samples, &s);
		g->count++;
		return 0;
	}
	if (!strcmp(f[0], "stat")) {
		if (n != 8 || !is_token(f[4], "_.-", 0) ||
		    parse_num(f[5], &v) || !is_token(f[6], "_/%.-", 0))
			return -1;
		g = find_group(p, f[1], f[2], run, 1);
		kv_set(&g->stats, f[4], f[5]);
		kv_set(&g->stat_units, f[4], f[6]);
		g->count++;
		return 0;
	}
	if (!strcmp(f[0], "copy") || !strcmp(f[0], "inst")) {
		int want = !strcmp(f[0], "copy") ? 9 : 7, i;

		if (n != want)
			return -1;
		for (i = 4; i < n; i++)
			if (parse_num(f[i], &v))
				return -1;
		g = find_group(p, f[1], f[2], run, 1);
		g->count++;
		return 0;
	}
	return -1;
}

static const char *const kinds[] = {
	"env,", "sample,", "stat,", "copy,", "inst,", "end,",
};

static void parse_text(struct parser *p, const char *text, size_t len,
		       const struct run_meta *meta, struct sample_set *out)
{
	const char *pos = text, *end = text + len;
	struct strbuf line = STRBUF_INIT;

	while (pos < end) {
		const char *nl = memchr(pos, '\n', end - pos);
		size_t n = nl ? (size_t)(nl - pos) : (size_t)(end - pos);
		size_t i;

		strbuf_reset(&line);
		strbuf_add(&line, pos, n);
		pos += n + 1;
		while (line.len && (line.buf[line.len - 1] == '\r' ||
				    line.buf[line.len - 1] == ' '))
			strbuf_setlen(&line, line.len - 1);
		if (strlen(line.buf) != line.len)
			continue;	/* NUL bytes: line noise */
		for (i = 0; i < ARRAY_SIZE(kinds); i++)
			if (starts_with(line.buf, kinds[i]))
				break;
		if (i == ARRAY_SIZE(kinds))
			continue;	/* console noise, header, comment */
		if (parse_record(p, line.buf, meta, out))
			p->rep.bad_records++;
	}
	strbuf_release(&line);
}

static void parser_release(struct parser *p)
{
	while (p->nr)
		remove_group(p, &p->groups[p->nr - 1]);
	free(p->groups);
	kv_release(&p->env);
}

int run_parse_bench_output_report(const char *text, size_t len,
				  const struct run_meta *meta,
				  struct sample_set *out,
				  struct run_parse_report *report)
{
	struct parser p;

	memset(&p, 0, sizeof(p));
	parse_text(&p, text, len, meta, out);
	/* A run without its end record was cut short: drop it whole. */
	p.rep.dropped += p.nr;
	if (report)
		*report = p.rep;
	parser_release(&p);
	if (!p.rep.runs) {
		error("no complete sched-bench run in the output (%d incomplete, %d bad records)",
		      p.rep.dropped, p.rep.bad_records);
		return -1;
	}
	return p.rep.runs;
}

int run_parse_bench_output(const char *text, size_t len,
			   const struct run_meta *meta,
			   struct sample_set *out)
{
	return run_parse_bench_output_report(text, len, meta, out, NULL);
}

/* ---- sched-bench command lines ------------------------------------ */

void bench_spec_init(struct bench_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->gap = -1;
	spec->warmup = -1;
	spec->pin = -1;
}

/* bench_spec's fields, in command-line order, and what each sets in
 * sched-bench's option table (benchopts.h).
 */
static const struct spec_field {
	enum bench_key key;
	size_t off;
	int is_str;
	int unset;		/* the int that means "not given" */
} spec_fields[] = {
	{ BK_COPIES, offsetof(struct bench_spec, copies), 0, 0 },
	{ BK_TIME, offsetof(struct bench_spec, duration), 0, 0 },
	{ BK_PASSES, offsetof(struct bench_spec, passes), 0, 0 },
	{ BK_GAP, offsetof(struct bench_spec, gap), 0, -1 },
	{ BK_CHILD_CPU, offsetof(struct bench_spec, child_cpu), 0, 0 },
	{ BK_WARMUP, offsetof(struct bench_spec, warmup), 0, -1 },
	{ BK_THREADS, offsetof(struct bench_spec, threads), 0, 0 },
	{ BK_PIN, offsetof(struct bench_spec, pin), 0, -1 },
	{ BK_SWEEP, offsetof(struct bench_spec, sweep), 1, 0 },
	{ BK_RUN, offsetof(struct bench_spec, run), 0, 0 },
	{ BK_AUTOGROUP, offsetof(struct bench_spec, autogroup), 1, 0 },
	{ BK_CGROUP, offsetof(struct bench_spec, cgroup), 1, 0 },
	{ BK_SETSID, offsetof(struct bench_spec, setsid), 0, 0 },
};

static const char **field_str(const struct bench_spec *spec,
			      const struct spec_field *f)
{
	return (const char **)((char *)spec + f->off);
}

static int *field_int(const struct bench_spec *spec,
		      const struct spec_field *f)
{
	return (int *)((char *)spec + f->off);
}

static const struct workload *bench_workload(const struct bench_spec *spec)
{
	const struct workload *w = spec->workload ?
		workload_find(spec->workload) : NULL;

	return w && w->runner == WORKLOAD_SCHED_BENCH ? w : NULL;
}

int bench_spec_check(const struct bench_spec *spec)
{
	const struct workload *w = bench_workload(spec);
	size_t i;

	if (!w)
		return error("'%s' is not a sched-bench workload",
			     spec->workload ? spec->workload : "");
	if (spec->sweep && !is_token(spec->sweep, ",", 0))
		return error("bad sweep list '%s'", spec->sweep);
	for (i = 0; i < ARRAY_SIZE(spec_fields); i++) {
		const struct spec_field *f = &spec_fields[i];
		const struct bench_opt *o = bench_opt_find(w->bench, f->key, 0);
		const char *v = f->is_str ? *field_str(spec, f) : NULL;

		if (v && o && !bench_opt_accepts(o, v))
			return error("--%s must be %s, not '%s'", o->name,
				     o->argh, v);
	}
	if (spec->copies < 0 || spec->duration < 0 || spec->passes < 0 ||
	    spec->run < 0)
		return error("negative workload parameter");
	return 0;
}

/* The options of w's run_args where spec leaves them unset. */
static void bench_spec_defaults(struct bench_spec *spec,
				const struct workload *w)
{
	char *copy, *argv[32], *word, *save = NULL;
	struct bench_args a;
	int argc = 1;
	size_t i;

	if (!w || !w->run_args)
		return;
	copy = xstrdup(w->run_args);
	argv[0] = (char *)w->name;
	for (word = strtok_r(copy, " ", &save); word && argc < 31;
	     word = strtok_r(NULL, " ", &save))
		argv[argc++] = word;
	argv[argc] = NULL;
	if (bench_parse(w->bench, w->name, argc, argv, &a)) {
		error("BUG: %s: bad run_args '%s'", w->name, w->run_args);
		free(copy);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(spec_fields); i++) {
		const struct spec_field *f = &spec_fields[i];

		/* strings of run_args would point into copy: none yet */
		if (!a.v[f->key].set || f->is_str)
			continue;
		if (*field_int(spec, f) == f->unset)
			*field_int(spec, f) = (int)a.v[f->key].num;
	}
	free(copy);
}

struct argv_builder {
	char **v;
	size_t nr, alloc;
};

static void add_arg(struct argv_builder *b, const char *s)
{
	ALLOC_GROW(b->v, b->nr, b->alloc);
	b->v[b->nr++] = s ? xstrdup(s) : NULL;
}

static void add_int(struct argv_builder *b, const char *opt, int v)
{
	char *s = xasprintf("%d", v);

	add_arg(b, opt);
	add_arg(b, s);
	free(s);
}

char **run_bench_argv(const struct bench_spec *spec, const char *prog)
{
	const struct workload *w = bench_workload(spec);
	struct argv_builder b = { 0 };
	size_t i;

	if (bench_spec_check(spec))
		return NULL;
	add_arg(&b, prog ? prog : "sched-bench");
	add_arg(&b, spec->workload);
	for (i = 0; i < ARRAY_SIZE(spec_fields); i++) {
		const struct spec_field *f = &spec_fields[i];
		const char *str = f->is_str ? *field_str(spec, f) : NULL;
		int n = f->is_str ? 0 : *field_int(spec, f);
		const struct bench_opt *o;
		char *name;

		if (f->is_str ? !str : n == f->unset)
			continue;
		/* an option of another workload: not this one's */
		o = bench_opt_find(w->bench, f->key, n);
		if (!o)
			continue;
		name = o->short_name ? xasprintf("-%c", o->short_name) :
		       xasprintf("--%s", o->name);
		if (o->kind == BO_SET) {
			add_arg(&b, name);
		} else if (str) {
			add_arg(&b, name);
			add_arg(&b, str);
		} else {
			add_int(&b, name, n);
		}
		free(name);
	}
	add_arg(&b, NULL);
	return b.v;
}

void run_argv_free(char **argv)
{
	char **p;

	if (!argv)
		return;
	for (p = argv; *p; p++)
		free(*p);
	free(argv);
}

/* head, then spec's sched-bench words from the skip-th on, sep between. */
static char *bench_words(const struct bench_spec *spec, const char *head,
			 int skip, char sep)
{
	char **argv = run_bench_argv(spec, "x"), **p;
	struct strbuf sb = STRBUF_INIT;

	if (!argv)
		return NULL;
	strbuf_addstr(&sb, head);
	for (p = argv + skip; *p; p++) {
		if (p != argv + skip)
			strbuf_addch(&sb, sep);
		strbuf_addstr(&sb, *p);
	}
	run_argv_free(argv);
	return strbuf_detach(&sb, NULL);
}

char *run_bench_cmdline(const struct bench_spec *spec)
{
	return bench_words(spec, "", 1, ' ');
}

char *run_bench_workload_args(const struct bench_spec *spec)
{
	struct bench_spec s = *spec;
	char *head, *words;

	/* a target's runs take -t and --run from the request */
	s.duration = 0;
	s.run = 0;
	bench_spec_defaults(&s, bench_workload(&s));
	head = xasprintf("%s=", s.workload ? s.workload : "");
	words = bench_words(&s, head, 2, ',');
	free(head);
	return words;
}

/* ---- finding and running programs --------------------------------- */

static struct run_opts opts;

void run_configure(const struct run_opts *o)
{
	opts = *o;
}

char *run_find_sched_bench(const char *path)
{
	const char *conf = opts.sched_bench;
	char *dir, *p;

	/* Named on the command line: taken as is, even a broken one (a
	 * test boots /dev/null as init to see the panic).
	 */
	if (path && *path)
		return xstrdup(path);
	if (conf && *conf)
		return subproc_executable(conf) ? xstrdup(conf) : NULL;
	dir = exe_dir();
	if (dir) {
		p = xasprintf("%s/sched-bench", dir);
		free(dir);
		if (subproc_executable(p))
			return p;
		free(p);
	}
	return subproc_find("sched-bench");
}

/* ---- external tools ----------------------------------------------- */

const struct workload *run_find_tool(const char *name)
{
	const struct workload *w = workload_find(name);

	return w && w->runner != WORKLOAD_SCHED_BENCH ? w : NULL;
}

int run_is_tool_workload(const char *name)
{
	return run_find_tool(name) != NULL;
}

/* The number right after the first occurrence of marker. */
static int number_after(const char *text, const char *marker, double *v)
{
	const char *p = strstr(text, marker);
	char *end;

	if (!p)
		return -1;
	p += strlen(marker);
	while (*p == ' ' || *p == '\t')
		p++;
	*v = strtod(p, &end);
	return end == p || !isfinite(*v) ? -1 : 0;
}

/* The number right before the first occurrence of marker on its line. */
static int number_before(const char *text, const char *marker, double *v)
{
	const char *p = strstr(text, marker), *q;
	char *end;

	if (!p)
		return -1;
	q = p;
	while (q > text && q[-1] == ' ')
		q--;
	while (q > text && (isdigit((unsigned char)q[-1]) || q[-1] == '.'))
		q--;
	*v = strtod(q, &end);
	return end == q || end > p || !isfinite(*v) ? -1 : 0;
}

struct tool_value {
	const char *metric;
	double value;
	const char *unit;
	int hib;
};

/* The numbers of w's output, by its table entry. */
static int parse_tool(const struct workload *w, const char *text,
		      struct tool_value *tv)
{
	const struct workload_metric *m;
	int n = 0, i, found;
	double v;

	for (m = w->metrics; m < w->metrics + WORKLOAD_METRICS_MAX &&
	     m->metric; m++) {
		for (i = found = 0; i < n; i++)
			found |= !strcmp(tv[i].metric, m->metric);
		if (found)
			continue;
		if (m->before ? number_before(text, m->marker, &v) :
		    number_after(text, m->marker, &v))
			continue;
		tv[n++] = (struct tool_value){ m->metric, v, m->unit,
					       m->higher_is_better };
	}
	/* A tool reporting a zero or negative time did not run. */
	if (n && !strcmp(tv[0].unit, "s") && !(tv[0].value > 0))
		n = 0;
	return n;
}

int run_parse_tool_output(const char *workload, const char *params,
			  int run, const char *text,
			  const struct run_meta *meta, const char *env_text,
			  struct sample_set *out)
{
	const struct workload *w = run_find_tool(workload);
	struct tool_value tv[WORKLOAD_METRICS_MAX];
	struct parser p;
	struct sample s;
	int i, n = w ? parse_tool(w, text, tv) : 0;

	if (!n)
		return error("%s: no result in its output", workload);
	memset(&p, 0, sizeof(p));
	if (env_text)
		parse_text(&p, env_text, strlen(env_text), meta, out);
	for (i = 0; i < n; i++) {
		sample_init(&s);
		fill_context(&s, meta, &p.env);
		s.workload = (char *)workload;
		s.params = (char *)params;
		s.run = run;
		s.sample = 0;
		s.metric = (char *)tv[i].metric;
		s.value = tv[i].value;
		s.unit = (char *)tv[i].unit;
		s.higher_is_better = tv[i].hib;
		s.placement = "free";
		sample_set_add(out, &s);
	}
	parser_release(&p);
	return n;
}

int run_tool_rows(const char *workload, const char *params, int run,
		  const char *text, double wall, const struct cpu_util *u,
		  const struct run_meta *meta, const char *env_text,
		  struct sample_set *out)
{
	size_t first = out->nr, i;
	struct sample s;

	if (run_parse_tool_output(workload, params, run, text, meta,
				  env_text, out) < 0)
		return -1;
	for (i = first; i < out->nr && u; i++) {
		out->v[i].cpu_usr = u->usr;
		out->v[i].cpu_sys = u->sys;
		out->v[i].cpu_idle = u->idle;
		out->v[i].cpu_iowait = u->iowait;
		out->v[i].cpu_softirq = u->softirq;
	}
	if (wall < 0)
		return 0;
	s = out->v[first];
	s.metric = "diag.wall_s";
	s.value = wall;
	s.unit = "s";
	s.higher_is_better = 0;
	sample_set_add(out, &s);
	return 0;
}

/* A tool_args or params template with "%c" and "%d" filled in. */
static char *expand(const char *tmpl, int ncpu, int duration)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	for (p = tmpl; *p; p++) {
		if (p[0] == '%' && p[1] == 'c')
			strbuf_addf(&sb, "%d", ncpu);
		else if (p[0] == '%' && p[1] == 'd')
			strbuf_addf(&sb, "%d", duration);
		else {
			strbuf_addch(&sb, *p);
			continue;
		}
		p++;
	}
	return strbuf_detach(&sb, NULL);
}

char **run_tool_argv(const char *workload, const char *prog, int duration,
		     char **params)
{
	const struct workload *w = run_find_tool(workload);
	struct argv_builder b = { 0 };
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	char *args, *word, *save = NULL;

	if (ncpu < 1)
		ncpu = 1;
	add_arg(&b, prog);
	args = expand(w && w->tool_args ? w->tool_args : "", ncpu, duration);
	for (word = strtok_r(args, " ", &save); word;
	     word = strtok_r(NULL, " ", &save))
		add_arg(&b, word);
	free(args);
	*params = expand(w && w->params ? w->params : "", ncpu, duration);
	add_arg(&b, NULL);
	return b.v;
}

/* ---- perf stat around a run ---- */

/* The counters perf stat is asked for (workloads/init.c), and units. */
static const struct {
	const char *event, *unit;
} perf_events[] = {
	{ "context-switches", "count" },
	{ "cpu-migrations", "count" },
	{ "task-clock", "ms" },
	{ "cycles", "count" },
	{ "instructions", "count" },
};

/* "12048,,context-switches,..." -> 12048 for event i, or -1. */
static int perf_line(const char *line, size_t len, size_t *i, double *v)
{
	char buf[128], *f[3], *save, *e;
	size_t k, n = 0;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line, len);
	buf[len] = 0;
	/* value, unit (often empty), event: strsep keeps empty fields */
	for (save = buf; n < 3 && save;)
		f[n++] = strsep(&save, ",");
	if (n < 3)
		return -1;
	errno = 0;
	*v = strtod(f[0], &e);
	if (e == f[0] || *e || errno || !isfinite(*v) || *v < 0)
		return -1;	/* "<not supported>", "<not counted>" */
	for (k = 0; k < ARRAY_SIZE(perf_events); k++)
		if (!strcmp(f[2], perf_events[k].event)) {
			*i = k;
			return 0;
		}
	return -1;
}

int run_perf_rows(const char *csv, size_t from, struct sample_set *set)
{
	int seen[ARRAY_SIZE(perf_events)] = { 0 };
	const char *p = csv;
	struct sample t;
	int added = 0;

	if (from >= set->nr)
		return 0;
	/*
	 * the strings stay the run's first row's (only the array moves),
	 * and its CPU split, which is the run's
	 */
	t = set->v[from];
	t.sample = 0;
	t.higher_is_better = 0;
	while (p && *p) {
		size_t n = strcspn(p, "\n"), i;
		char metric[64];
		double v;

		if (!perf_line(p, n, &i, &v) && !seen[i]) {
			struct sample s = t;

			seen[i] = 1;
			snprintf(metric, sizeof(metric), "diag.perf.%s",
				 perf_events[i].event);
			s.metric = metric;
			s.value = v;
			s.unit = (char *)perf_events[i].unit;
			sample_set_add(set, &s);
			added++;
		}
		p += n + (p[n] == '\n');
	}
	return added;
}

/* ---- the profile of a workload ---- */

/* A C or kernel symbol ("slow_fork_wait", "finish_task_switch.isra.0"). */
static int profile_symbol(const char *s, size_t n)
{
	size_t i, hex = 0;

	if (!n || n > RUN_PROFILE_SYM)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (!isalnum(c) && !strchr("_.$@", c))
			return 0;
		hex += isxdigit(c) != 0;
	}
	/* an address perf had no name for: "0x00000000015976e8",
	 * "0000000000000000"
	 */
	return !(n > 2 && s[0] == '0' && s[1] == 'x') && (hex < n || n < 8);
}

/* "  41.20%  [k] sym": the first percentage and the symbol; 0, or -1. */
static int profile_line(const char *p, size_t len, double *v,
			const char **sym, size_t *n)
{
	char num[32], *e;
	const char *end = p + len, *q;
	size_t k;

	while (p < end && *p == ' ')
		p++;
	k = 0;
	while (p + k < end && (isdigit((unsigned char)p[k]) || p[k] == '.'))
		k++;
	if (!k || k >= sizeof(num) || p + k >= end || p[k] != '%')
		return -1;
	memcpy(num, p, k);
	num[k] = 0;
	errno = 0;
	*v = strtod(num, &e);
	if (*e || errno || !isfinite(*v) || *v < 0 || *v > 100)
		return -1;
	/* --children: the self column before the symbol */
	q = p + k + 1;
	while (q < end && *q == ' ')
		q++;
	while (q < end && (isdigit((unsigned char)*q) || *q == '.'))
		q++;
	if (q < end && *q == '%')
		q++;
	while (q < end && *q == ' ')
		q++;
	if (end - q < 4 || q[0] != '[' || q[2] != ']' || q[3] != ' ')
		return -1;
	q += 4;
	while (q < end && *q == ' ')
		q++;
	while (end > q && end[-1] == ' ')
		end--;
	if (!profile_symbol(q, end - q))
		return -1;
	*sym = q;
	*n = end - q;
	return 0;
}

int run_profile_rows(const char *report, const char *kind, const char *event,
		     size_t from, struct sample_set *set)
{
	const char *p = report;
	char metric[RUN_PROFILE_SYM + 32], unit[48];
	struct sample t;
	size_t start = set->nr;
	int added = 0;

	if (from >= set->nr || !report || strlen(kind) > 16 ||
	    strlen(event) > 32)
		return 0;
	t = set->v[from];
	t.sample = 0;
	t.higher_is_better = 0;
	snprintf(unit, sizeof(unit), "%%%s", event);
	t.unit = unit;
	while (*p && added < RUN_PROFILE_MAX) {
		size_t len = strcspn(p, "\n"), n, i;
		const char *sym;
		double v;

		if (!profile_line(p, len, &v, &sym, &n)) {
			struct sample s = t;

			snprintf(metric, sizeof(metric), "diag.profile.%s.%.*s",
				 kind, (int)n, sym);
			for (i = start; i < set->nr; i++)
				if (!strcmp(set->v[i].metric, metric))
					break;
			if (i == set->nr) {
				s.metric = metric;
				s.value = v;
				sample_set_add(set, &s);
				added++;
			}
		}
		p += len + (p[len] == '\n');
	}
	return added;
}
