// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c - the results CSV, parsed with libcsv.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
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

/* How a column's text becomes its field of struct sample and back. */
enum col_kind {
	K_STR,		/* char *, NULL when empty */
	K_INT,		/* int >= 0, 0 when empty */
	K_BOOL,		/* 0 or 1, 1 when empty */
	K_COUNT,	/* int, 0 (unknown) when empty, written when > 0 */
	K_REAL,		/* double, NAN when empty */
};

/*
 * The one description of the columns: their header names in the
 * file's order, and where each lives in struct sample.  Reading,
 * writing, copying and freeing a sample all go through it, so a new
 * column is one line here and one field in samples.h.
 */
static const struct column {
	const char *name;
	enum col_kind kind;
	size_t off;
	const char *bad;	/* what a value that does not parse is not */
} cols[NR_COLS] = {
#define COL(c, kind, field, bad) \
	[c] = { #field, kind, offsetof(struct sample, field), bad }
	COL(C_LABEL, K_STR, label, NULL),
	COL(C_KERNEL, K_STR, kernel, NULL),
	COL(C_WORKLOAD, K_STR, workload, NULL),
	COL(C_PARAMS, K_STR, params, NULL),
	COL(C_RUN, K_INT, run, "not a run number"),
	COL(C_METRIC, K_STR, metric, NULL),
	COL(C_VALUE, K_REAL, value, "not a number"),
	COL(C_UNIT, K_STR, unit, NULL),
	COL(C_HIB, K_BOOL, higher_is_better, "must be 0 or 1"),
	COL(C_SAMPLE, K_INT, sample, "not a sample number"),
	COL(C_PLACEMENT, K_STR, placement, NULL),
	COL(C_USR, K_REAL, cpu_usr, "not a number"),
	COL(C_SYS, K_REAL, cpu_sys, "not a number"),
	COL(C_IDLE, K_REAL, cpu_idle, "not a number"),
	COL(C_IOWAIT, K_REAL, cpu_iowait, "not a number"),
	COL(C_SOFTIRQ, K_REAL, cpu_softirq, "not a number"),
	COL(C_NR_CPUS, K_COUNT, nr_cpus, "not a CPU count"),
	COL(C_AG_CONFIG, K_STR, autogroup_config, NULL),
	COL(C_AG_ENABLED, K_STR, autogroup_enabled, NULL),
	COL(C_CGROUP, K_STR, cgroup, NULL),
	COL(C_TARGET, K_STR, target, NULL),
	COL(C_MACHINE, K_STR, machine, NULL),
	COL(C_TIME, K_STR, time, NULL),
#undef COL
};

/* Column c's field of s; s is const for the writer, which only reads. */
static void *field(const struct sample *s, int c)
{
	return (char *)s + cols[c].off;
}

static char **str_at(const struct sample *s, int c)
{
	return field(s, c);
}

static int *int_at(const struct sample *s, int c)
{
	return field(s, c);
}

static double *real_at(const struct sample *s, int c)
{
	return field(s, c);
}

void sample_init(struct sample *s)
{
	int c;

	memset(s, 0, sizeof(*s));
	for (c = 0; c < NR_COLS; c++)
		if (cols[c].kind == K_REAL)
			*real_at(s, c) = NAN;
		else if (cols[c].kind == K_BOOL)
			*int_at(s, c) = 1;
}

void sample_release(struct sample *s)
{
	int c;

	for (c = 0; c < NR_COLS; c++)
		if (cols[c].kind == K_STR)
			free(*str_at(s, c));
	sample_init(s);
}

void sample_set_add(struct sample_set *set, const struct sample *s)
{
	struct sample *d;
	int c;

	ALLOC_GROW(set->v, set->nr, set->alloc);
	d = &set->v[set->nr++];
	*d = *s;
	for (c = 0; c < NR_COLS; c++)
		if (cols[c].kind == K_STR && *str_at(d, c))
			*str_at(d, c) = xstrdup(*str_at(d, c));
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
		      cols[col].name, what);
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
			if (len == strlen(cols[i].name) &&
			    !memcmp(data, cols[i].name, len))
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

/* Column c's text into its field of s: 0, or -1 when it does not parse. */
static int parse_col(struct reader *r, int c, struct sample *s)
{
	const char *v = r->fields[c];
	int *n;

	switch (cols[c].kind) {
	case K_STR:
		*str_at(s, c) = take(r, c);
		return 0;
	case K_REAL:
		return v ? parse_double(v, real_at(s, c)) : 0;
	case K_BOOL:
		n = int_at(s, c);
		return v && (parse_int(v, n, 1) < 0 || (*n != 0 && *n != 1)) ?
		       -1 : 0;
	case K_INT:
		n = int_at(s, c);
		return v && (parse_int(v, n, 0) < 0 || *n < 0) ? -1 : 0;
	case K_COUNT:
		return v ? parse_int(v, int_at(s, c), 0) : 0;
	}
	return -1;
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
	for (i = 0; i < NR_COLS; i++)
		if (parse_col(r, i, &s) < 0) {
			bad(r, i, cols[i].bad);
			sample_release(&s);
			return;
		}
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
		strbuf_addf(out, "%s%s", i ? "," : "", cols[i].name);
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
	int c;

	for (c = 0; c < NR_COLS; c++) {
		if (c)
			strbuf_addch(out, ',');
		switch (cols[c].kind) {
		case K_STR:
			add_field(out, *str_at(s, c));
			break;
		case K_REAL:
			add_double(out, *real_at(s, c));
			break;
		case K_BOOL:
			strbuf_addch(out, *int_at(s, c) ? '1' : '0');
			break;
		case K_INT:
			strbuf_addf(out, "%d", *int_at(s, c));
			break;
		case K_COUNT:
			if (*int_at(s, c) > 0)
				strbuf_addf(out, "%d", *int_at(s, c));
			break;
		}
	}
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
		 * takes a missing file for no rows, an empty one for bad
		 */
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
