// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - ASCII scaling curves for instance sweeps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define MARGIN 10		/* "throughput" */
#define HEIGHT 10		/* rows of marks above the zero row */
#define XSPAN (PLOT_WIDTH - MARGIN - 4)	/* columns for x positions */

static const char *const count_keys[] = {
	"instances", "pairs", "nr_instances", "nr_task", "tasks", "threads",
	"copies", "clients", "groups", "workers",
};

int plot_sweep_key(const char *params, long *count, char **rest,
		   const char **key)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = params;
	int found = 0;

	while (*p) {
		size_t len = strcspn(p, " ,");
		size_t klen = strcspn(p, "=");
		size_t i;
		int is_count = 0;

		if (klen < len) {
			for (i = 0; i < ARRAY_SIZE(count_keys); i++)
				if (klen == strlen(count_keys[i]) &&
				    !memcmp(p, count_keys[i], klen))
					break;
			if (i < ARRAY_SIZE(count_keys) && !found) {
				char *end;
				long v = strtol(p + klen + 1, &end, 10);

				if (end == p + len && end > p + klen + 1 &&
				    v > 0) {
					*count = v;
					*key = count_keys[i];
					found = is_count = 1;
				}
			}
		}
		if (!is_count && len) {
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_add(&sb, p, len);
		}
		p += len;
		while (*p == ' ' || *p == ',')
			p++;
	}
	if (!found) {
		strbuf_release(&sb);
		return -1;
	}
	*rest = strbuf_detach(&sb, NULL);
	return 0;
}

struct point {
	long x;
	const struct compare_metric *m;
};

static int cmp_point(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;

	return a->x < b->x ? -1 : a->x > b->x;
}

static int same_sweep(const struct compare_metric *a, const char *arest,
		      const struct compare_metric *b, const char *brest)
{
	return !strcmp(a->workload, b->workload) &&
	       !strcmp(a->metric, b->metric) && !strcmp(arest, brest) &&
	       !strcmp(a->machine, b->machine) &&
	       !strcmp(a->placement, b->placement) &&
	       !strcmp(a->autogroup_config, b->autogroup_config) &&
	       !strcmp(a->autogroup_enabled, b->autogroup_enabled) &&
	       !strcmp(a->cgroup, b->cgroup);
}

static char mark_for(size_t k)
{
	static const char marks[] = "oX+#@%&";

	return k < sizeof(marks) - 1 ? marks[k] : '?';
}

static void put(char *cell, char c)
{
	*cell = (*cell == ' ' || *cell == c) ? c : '*';
}

static void plot_one(const struct compare_result *r, struct point *pt,
		     size_t n, const char *key, const char *rest,
		     struct strbuf *out)
{
	char grid[HEIGHT + 1][XSPAN + 2];
	long xmin = pt[0].x, xmax = pt[n - 1].x;
	double ymax = 0, peak = -INFINITY;
	size_t i, k, peak_i = 0;
	int row, col[64];
	char axis[PLOT_WIDTH + 1], labels[PLOT_WIDTH + 1];
	const struct compare_metric *m0 = pt[0].m;

	for (i = 0; i < n; i++)
		for (k = 0; k < r->nr_kernels; k++)
			if (pt[i].m->side[k].n &&
			    isfinite(pt[i].m->side[k].st.mean) &&
			    pt[i].m->side[k].st.mean > ymax)
				ymax = pt[i].m->side[k].st.mean;
	if (!(ymax > 0))
		return;
	memset(grid, ' ', sizeof(grid));
	for (i = 0; i < n; i++) {
		const struct compare_side *b = &pt[i].m->side[0];

		col[i] = xmax == xmin ? 1 :
			 1 + (int)lround((double)(pt[i].x - xmin) /
					 (double)(xmax - xmin) * (XSPAN - 2));
		if (b->n && b->st.mean > peak) {
			peak = b->st.mean;
			peak_i = i;
		}
		for (k = 0; k < r->nr_kernels; k++) {
			const struct compare_side *s = &pt[i].m->side[k];
			int lvl;

			if (!s->n || !(s->st.mean >= 0) ||
			    !isfinite(s->st.mean))
				continue;
			lvl = (int)lround(s->st.mean / ymax * HEIGHT);
			if (lvl < 0 || lvl > HEIGHT)
				continue;
			put(&grid[lvl][col[i]], mark_for(k));
		}
	}
	strbuf_addf(out, "%s %s (%s, %s)\n", m0->workload, m0->metric,
		    *m0->unit ? m0->unit : "value",
		    m0->higher_is_better ? "higher is better" :
					   "lower is better");
	if (*rest)
		strbuf_addf(out, "%s\n", rest);
	strbuf_addf(out, "%*s^\n", MARGIN, "");
	strbuf_addf(out, "%*.*s|\n", MARGIN, MARGIN,
		    m0->higher_is_better ? "throughput" : m0->metric);
	for (row = HEIGHT; row >= 0; row--) {
		size_t start = out->len;

		strbuf_addf(out, "%*s|", MARGIN, "");
		strbuf_add(out, grid[row], XSPAN);
		while (out->len > start && out->buf[out->len - 1] == ' ')
			strbuf_setlen(out, out->len - 1);
		strbuf_addch(out, '\n');
	}
	/* x axis: '+', dashes, '.' at the baseline's peak, '>' */
	memset(axis, '-', sizeof(axis));
	memset(labels, ' ', sizeof(labels));
	axis[MARGIN] = '+';
	axis[MARGIN + XSPAN + 1] = '>';
	axis[MARGIN + XSPAN + 2] = '\0';
	axis[MARGIN + 1 + col[peak_i]] = '.';
	strbuf_addf(out, "%s\n", axis);
	{
		size_t at[3] = { 0, peak_i, n - 1 };
		int used_to = -1, last = 0;

		for (i = 0; i < 3; i++) {
			char num[24];
			int len = snprintf(num, sizeof(num), "%ld",
					   pt[at[i]].x);
			int c = MARGIN + 1 + col[at[i]] - len / 2;

			if (c <= used_to + 1 || c + len > PLOT_WIDTH)
				continue;
			memcpy(labels + c, num, (size_t)len);
			used_to = c + len - 1;
			last = used_to + 1;
		}
		labels[last] = '\0';
		strbuf_addf(out, "%s\n", labels);
	}
	strbuf_addf(out, "%*snumber of %s\n", MARGIN + XSPAN / 2 - 6, "",
		    key);
	strbuf_addf(out, "%*s", MARGIN, "");
	for (k = 0; k < r->nr_kernels; k++)
		strbuf_addf(out, "%s%c %s", k ? ", " : "", mark_for(k),
			    r->kernels[k]);
	strbuf_addf(out, "; top row %.6g\n", ymax);
}

int plot_render(const struct compare_result *r, struct strbuf *out)
{
	char **rest = xcalloc(r->nr ? r->nr : 1, sizeof(*rest));
	const char **keys = xcalloc(r->nr ? r->nr : 1, sizeof(*keys));
	long *count = xcalloc(r->nr ? r->nr : 1, sizeof(*count));
	int *done = xcalloc(r->nr ? r->nr : 1, sizeof(*done));
	struct point pt[64];
	size_t i, j, n, plots = 0;

	for (i = 0; i < r->nr; i++)
		if (r->m[i].diagnostic ||
		    plot_sweep_key(r->m[i].params, &count[i], &rest[i],
				   &keys[i]) < 0)
			done[i] = 1;
	for (i = 0; i < r->nr; i++) {
		if (done[i])
			continue;
		n = 0;
		for (j = i; j < r->nr && n < ARRAY_SIZE(pt); j++) {
			if (done[j] || strcmp(keys[i], keys[j]) ||
			    !same_sweep(&r->m[i], rest[i], &r->m[j], rest[j]))
				continue;
			pt[n].x = count[j];
			pt[n++].m = &r->m[j];
			done[j] = 1;
		}
		if (n < 2)
			continue;
		qsort(pt, n, sizeof(pt[0]), cmp_point);
		if (plots++)
			strbuf_addch(out, '\n');
		plot_one(r, pt, n, keys[i], rest[i], out);
	}
	if (!plots)
		strbuf_addstr(out, "(no instance sweep to plot)\n");
	for (i = 0; i < r->nr; i++)
		free(rest[i]);
	free(rest);
	free(keys);
	free(count);
	free(done);
	return 0;
}
