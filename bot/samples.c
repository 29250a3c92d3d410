// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c - the results CSV, parsed with libcsv.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <csv.h>

#include "samples.h"
#include "secret.h"

enum col {
	C_LABEL, C_KERNEL, C_WORKLOAD, C_PARAMS, C_RUN, C_METRIC, C_VALUE,
	C_UNIT, C_HIB, C_SAMPLE, C_PLACEMENT, C_USR, C_SYS, C_IDLE, C_IOWAIT,
	C_SOFTIRQ, C_NR_CPUS, C_AG_CONFIG, C_AG_ENABLED, C_CGROUP, C_TARGET,
	C_MACHINE, C_TIME, NR_COLS
};
#define NR_REQUIRED (C_HIB + 1)

static const char *const col_names[NR_COLS] = {
	"label", "kernel", "workload", "params", "run", "metric", "value",
	"unit", "higher_is_better", "sample", "placement", "cpu_usr",
	"cpu_sys", "cpu_idle", "cpu_iowait", "cpu_softirq", "nr_cpus",
	"autogroup_config", "autogroup_enabled", "cgroup", "target",
	"machine", "time",
};

void sample_init(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	s->value = NAN;
	s->cpu_usr = s->cpu_sys = s->cpu_idle = NAN;
	s->cpu_iowait = s->cpu_softirq = NAN;
	s->higher_is_better = 1;
}

#define SAMPLE_STRINGS(X) X(label) X(kernel) X(workload) X(params) \
	X(metric) X(unit) X(placement) X(autogroup_config) \
	X(autogroup_enabled) X(cgroup) X(target) X(machine) X(time)

void sample_release(struct sample *s)
{
#define FREE_ONE(f) free(s->f);
	SAMPLE_STRINGS(FREE_ONE)
#undef FREE_ONE
	sample_init(s);
}

void sample_set_add(struct sample_set *set, const struct sample *s)
{
	struct sample *d;

	ALLOC_GROW(set->v, set->nr, set->alloc);
	d = &set->v[set->nr++];
	*d = *s;
#define DUP_ONE(f) d->f = s->f ? xstrdup(s->f) : NULL;
	SAMPLE_STRINGS(DUP_ONE)
#undef DUP_ONE
}

void sample_set_release(struct sample_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		sample_release(&set->v[i]);
	free(set->v);
	memset(set, 0, sizeof(*set));
}

/* Parser state for libcsv's callbacks. */
struct reader {
	const char *name;
	struct sample_set *set;
	int map[64];		/* file column -> enum col, -1 ignored */
	int nr_file_cols;
	int have[NR_COLS];
	int row;		/* 1 = header */
	int col;
	int failed;
	char *fields[NR_COLS];
};

static int parse_double(const char *s, double *out)
{
	char *end;

	if (!*s) {
		*out = NAN;
		return 0;
	}
	errno = 0;
	*out = strtod(s, &end);
	/* "inf" and "nan" parse, but no measurement is infinite. */
	return (errno || *end || !isfinite(*out)) ? -1 : 0;
}

static int parse_int(const char *s, int *out, int def)
{
	char *end;
	long v;

	if (!*s) {
		*out = def;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < -1000000000 || v > 1000000000)
		return -1;
	*out = (int)v;
	return 0;
}

static int bad(struct reader *r, int col, const char *what)
{
	if (!r->failed)
		error("%s:%d: column '%s': %s", r->name, r->row,
		      col_names[col], what);
	r->failed = 1;
	return -1;
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct reader *r = ctx;
	int c = r->col++;

	if (r->failed)
		return;
	if (r->row == 1) {
		int i, m = -1;

		if (c >= (int)ARRAY_SIZE(r->map)) {
			bad(r, 0, "too many columns in the header");
			return;
		}
		for (i = 0; i < NR_COLS; i++)
			if (len == strlen(col_names[i]) &&
			    !memcmp(data, col_names[i], len))
				m = i;
		if (m >= 0 && r->have[m]) {
			bad(r, m, "appears twice in the header");
			return;
		}
		if (m >= 0)
			r->have[m] = 1;
		r->map[c] = m;
		r->nr_file_cols = c + 1;
		return;
	}
	if (c >= r->nr_file_cols || r->map[c] < 0)
		return;
	free(r->fields[r->map[c]]);
	r->fields[r->map[c]] = xstrndup(data ? data : "", data ? len : 0);
}

static char *take(struct reader *r, int c)
{
	char *s = r->fields[c];

	r->fields[c] = NULL;
	return s && *s ? s : (free(s), NULL);
}

static void finish_row(struct reader *r)
{
	struct sample s;
	int i;

	sample_init(&s);
	for (i = 0; i < NR_REQUIRED; i++) {
		if (i == C_PARAMS)
			continue;	/* empty params are fine */
		if (!r->fields[i] || !*r->fields[i]) {
			bad(r, i, "missing value");
			return;
		}
	}
	if (parse_double(r->fields[C_VALUE], &s.value) < 0 || isnan(s.value))
		bad(r, C_VALUE, "not a number");
	else if (parse_int(r->fields[C_RUN], &s.run, 0) < 0 || s.run < 0)
		bad(r, C_RUN, "not a run number");
	else if (parse_int(r->fields[C_HIB], &s.higher_is_better, 1) < 0 ||
		 (s.higher_is_better != 0 && s.higher_is_better != 1))
		bad(r, C_HIB, "must be 0 or 1");
	else if (r->fields[C_SAMPLE] &&
		 parse_int(r->fields[C_SAMPLE], &s.sample, 0) < 0)
		bad(r, C_SAMPLE, "not a sample number");
	else if (r->fields[C_NR_CPUS] &&
		 parse_int(r->fields[C_NR_CPUS], &s.nr_cpus, 0) < 0)
		bad(r, C_NR_CPUS, "not a CPU count");
	if (r->failed)
		return;
	for (i = C_USR; i <= C_SOFTIRQ; i++) {
		double *d[] = { &s.cpu_usr, &s.cpu_sys, &s.cpu_idle,
				&s.cpu_iowait, &s.cpu_softirq };

		if (r->fields[i] && parse_double(r->fields[i],
						 d[i - C_USR]) < 0) {
			bad(r, i, "not a number");
			return;
		}
	}
	s.label = take(r, C_LABEL);
	s.kernel = take(r, C_KERNEL);
	s.workload = take(r, C_WORKLOAD);
	s.params = take(r, C_PARAMS);
	s.metric = take(r, C_METRIC);
	s.unit = take(r, C_UNIT);
	s.placement = take(r, C_PLACEMENT);
	s.autogroup_config = take(r, C_AG_CONFIG);
	s.autogroup_enabled = take(r, C_AG_ENABLED);
	s.cgroup = take(r, C_CGROUP);
	s.target = take(r, C_TARGET);
	s.machine = take(r, C_MACHINE);
	s.time = take(r, C_TIME);
	if (!s.params)
		s.params = xstrdup("");
	ALLOC_GROW(r->set->v, r->set->nr, r->set->alloc);
	r->set->v[r->set->nr++] = s;
}

static void on_row(int term, void *ctx)
{
	struct reader *r = ctx;
	int i;

	(void)term;
	if (!r->failed && r->row == 1) {
		for (i = 0; i < NR_REQUIRED; i++)
			if (!r->have[i]) {
				bad(r, i, "missing from the header");
				break;
			}
	} else if (!r->failed) {
		finish_row(r);
	}
	for (i = 0; i < NR_COLS; i++) {
		free(r->fields[i]);
		r->fields[i] = NULL;
	}
	r->row++;
	r->col = 0;
}

int samples_read_buf(const char *name, const char *buf, size_t len,
		     struct sample_set *set)
{
	struct csv_parser p;
	struct reader r;
	int i;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.set = set;
	r.row = 1;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL))
		return error("%s: cannot start the CSV parser", name);
	if (csv_parse(&p, buf, len, on_field, on_row, &r) != len &&
	    !r.failed) {
		error("%s:%d: malformed CSV: %s", name, r.row,
		      csv_strerror(csv_error(&p)));
		r.failed = 1;
	}
	if (!r.failed && csv_fini(&p, on_field, on_row, &r) && !r.failed) {
		error("%s:%d: malformed CSV: %s", name, r.row,
		      csv_strerror(csv_error(&p)));
		r.failed = 1;
	}
	csv_free(&p);
	for (i = 0; i < NR_COLS; i++)
		free(r.fields[i]);
	if (!r.failed && r.row == 1)
		return error("%s: empty file, expected a CSV header", name);
	return r.failed ? -1 : 0;
}

int samples_read_file(const char *path, struct sample_set *set)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, path) < 0)
		return error("cannot read %s: %s", path, strerror(errno));
	ret = samples_read_buf(path, sb.buf, sb.len, set);
	strbuf_release(&sb);
	return ret;
}

void samples_header(struct strbuf *out)
{
	int i;

	for (i = 0; i < NR_COLS; i++)
		strbuf_addf(out, "%s%s", i ? "," : "", col_names[i]);
	strbuf_addch(out, '\n');
}

static void add_field(struct strbuf *out, const char *s)
{
	size_t n, need;

	if (!s)
		s = "";
	n = strlen(s);
	if (!strpbrk(s, ",\"\r\n") && (!n || (s[0] != ' ' &&
					       s[n - 1] != ' '))) {
		strbuf_add(out, s, n);
		return;
	}
	need = csv_write(NULL, 0, s, n);
	strbuf_grow(out, need);
	csv_write(out->buf + out->len, need, s, n);
	strbuf_setlen(out, out->len + need);
}

static void add_double(struct strbuf *out, double v)
{
	if (!isnan(v))
		strbuf_addf(out, "%.17g", v);
}

void samples_format_row(struct strbuf *out, const struct sample *s)
{
	add_field(out, s->label);
	strbuf_addch(out, ',');
	add_field(out, s->kernel);
	strbuf_addch(out, ',');
	add_field(out, s->workload);
	strbuf_addch(out, ',');
	add_field(out, s->params);
	strbuf_addf(out, ",%d,", s->run);
	add_field(out, s->metric);
	strbuf_addch(out, ',');
	add_double(out, s->value);
	strbuf_addch(out, ',');
	add_field(out, s->unit);
	strbuf_addf(out, ",%d,%d,", s->higher_is_better ? 1 : 0, s->sample);
	add_field(out, s->placement);
	strbuf_addch(out, ',');
	add_double(out, s->cpu_usr);
	strbuf_addch(out, ',');
	add_double(out, s->cpu_sys);
	strbuf_addch(out, ',');
	add_double(out, s->cpu_idle);
	strbuf_addch(out, ',');
	add_double(out, s->cpu_iowait);
	strbuf_addch(out, ',');
	add_double(out, s->cpu_softirq);
	strbuf_addch(out, ',');
	if (s->nr_cpus > 0)
		strbuf_addf(out, "%d", s->nr_cpus);
	strbuf_addch(out, ',');
	add_field(out, s->autogroup_config);
	strbuf_addch(out, ',');
	add_field(out, s->autogroup_enabled);
	strbuf_addch(out, ',');
	add_field(out, s->cgroup);
	strbuf_addch(out, ',');
	add_field(out, s->target);
	strbuf_addch(out, ',');
	add_field(out, s->machine);
	strbuf_addch(out, ',');
	add_field(out, s->time);
	strbuf_addch(out, '\n');
}

int samples_append_file(const char *path, const struct sample *rows,
			size_t nr)
{
	struct strbuf sb = STRBUF_INIT, row = STRBUF_INIT;
	off_t end;
	size_t i;
	int fd, ret = 0, err;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return error("cannot open %s: %s", path, strerror(errno));
	end = lseek(fd, 0, SEEK_END);
	if (end == 0)
		samples_header(&sb);
	for (i = 0; i < nr; i++) {
		strbuf_reset(&row);
		samples_format_row(&row, &rows[i]);
		strbuf_add(&sb, row.buf, row.len);
	}
	secret_scrub(&sb);
	/*
	 * All the rows or none: a full disk can take half of them, and a
	 * resumed job counts the blocks in the file.  Cutting the file
	 * back needs no space.
	 */
	if (end < 0 || write_in_full(fd, sb.buf, sb.len) < 0 || fsync(fd) < 0) {
		err = errno;
		/* a file made here and holding nothing goes: a reader
		 * takes a missing file for no rows, an empty one for bad */
		if (end == 0)
			unlink(path);
		else if (end > 0 && ftruncate(fd, end) < 0)
			warning("cannot cut %s back to %lld bytes: %s", path,
				(long long)end, strerror(errno));
		disk_full_note(path, err);
		ret = error("cannot write %s: %s", path, strerror(err));
	}
	if (close(fd) < 0 && !ret) {
		disk_full_note(path, errno);
		ret = error("cannot write %s: %s", path, strerror(errno));
	}
	strbuf_release(&sb);
	strbuf_release(&row);
	return ret;
}
