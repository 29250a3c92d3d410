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

/* The highest mean of any kernel at any point: the top of the y axis. */
static double sweep_ymax(const struct compare_result *r,
			 const struct point *pt, size_t n)
{
	double ymax = 0;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < r->nr_kernels; k++)
			if (pt[i].m->side[k].n &&
			    isfinite(pt[i].m->side[k].st.mean) &&
			    pt[i].m->side[k].st.mean > ymax)
				ymax = pt[i].m->side[k].st.mean;
	return ymax;
}

static void plot_one(const struct compare_result *r, struct point *pt,
		     size_t n, const char *key, const char *rest,
		     struct strbuf *out)
{
	char grid[HEIGHT + 1][XSPAN + 2];
	long xmin = pt[0].x, xmax = pt[n - 1].x;
	double ymax, peak = -INFINITY;
	size_t i, k, peak_i = 0;
	int row, col[64];
	char axis[PLOT_WIDTH + 1], labels[PLOT_WIDTH + 1];
	const struct compare_metric *m0 = pt[0].m;

	ymax = sweep_ymax(r, pt, n);
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

typedef void (*sweep_fn)(const struct compare_result *r, struct point *pt,
			 size_t n, const char *key, const char *rest,
			 struct strbuf *out, size_t nth);

/* Call fn for every sweep of two or more points; returns how many. */
static size_t call_per_sweep(const struct compare_result *r, sweep_fn fn,
			     struct strbuf *out)
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
		fn(r, pt, n, keys[i], rest[i], out, plots++);
	}
	for (i = 0; i < r->nr; i++)
		free(rest[i]);
	free(rest);
	free(keys);
	free(count);
	free(done);
	return plots;
}

static void ascii_one(const struct compare_result *r, struct point *pt,
		      size_t n, const char *key, const char *rest,
		      struct strbuf *out, size_t nth)
{
	if (nth)
		strbuf_addch(out, '\n');
	plot_one(r, pt, n, key, rest, out);
}

int plot_render(const struct compare_result *r, struct strbuf *out)
{
	if (!call_per_sweep(r, ascii_one, out))
		strbuf_addstr(out, "(no instance sweep to plot)\n");
	return 0;
}

/* ---- SVG ---- */

#define SVG_W 640
#define SVG_H 360
#define SVG_L 80		/* left margin: y tick labels */
#define SVG_R 24
#define SVG_T 56		/* title and legend */
#define SVG_B 56		/* x tick labels and axis title */

const char *plot_svg_color(size_t k)
{
	static const char *const colors[] = {
		PLOT_SVG_BASE, PLOT_SVG_PATCHED, "#1a9850", "#7b3294",
		"#e08214", "#35978f",
	};

	return colors[k % ARRAY_SIZE(colors)];
}

static void svg_one(const struct compare_result *r, struct point *pt,
		    size_t n, const char *key, const char *rest,
		    struct strbuf *out, size_t nth)
{
	const struct compare_metric *m0 = pt[0].m;
	const double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B;
	long xmin = pt[0].x, xmax = pt[n - 1].x;
	double ymax;
	size_t i, k;
	int t;

	ymax = sweep_ymax(r, pt, n);
	if (!(ymax > 0))
		return;
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sweep\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		    SVG_W, SVG_H, SVG_W, SVG_H);
	strbuf_addf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		    SVG_W, SVG_H);
	/* Title: what is plotted, as the ASCII plot's first line. */
	strbuf_addf(out, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">",
		    SVG_L);
	strbuf_add_escaped_html(out, m0->workload);
	strbuf_addch(out, ' ');
	strbuf_add_escaped_html(out, m0->metric);
	strbuf_addf(out, " (%s)", m0->higher_is_better ? "higher is better" :
		    "lower is better");
	if (*rest) {
		strbuf_addstr(out, " <tspan font-weight=\"normal\">");
		strbuf_add_escaped_html(out, rest);
		strbuf_addstr(out, "</tspan>");
	}
	strbuf_addstr(out, "</text>\n");
	/* Legend: one swatch per kernel, baseline first. */
	for (k = 0; k < r->nr_kernels; k++) {
		int x = SVG_L + (int)k * 180;

		strbuf_addf(out, "<line x1=\"%d\" y1=\"36\" x2=\"%d\" y2=\"36\" stroke=\"%s\" stroke-width=\"4\"/>",
			    x, x + 24,
			    plot_svg_color(k));
		strbuf_addf(out, "<text x=\"%d\" y=\"40\">", x + 30);
		strbuf_add_escaped_html(out, r->kernels[k]);
		strbuf_addstr(out, "</text>\n");
	}
	/* Axes, with y ticks at quarters of the top value. */
	strbuf_addf(out, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#000\"/>\n",
		    SVG_L, SVG_T, SVG_H - SVG_B,
		    SVG_W - SVG_R);
	for (t = 0; t <= 4; t++) {
		double y = SVG_T + ph - ph * t / 4;

		strbuf_addf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>",
			    SVG_L + 1, y,
			    SVG_W - SVG_R, y);
		/* Whole numbers for counts and rates, no exponents. */
		strbuf_addf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f</text>\n",
			    SVG_L - 6, y + 4,
			    ymax >= 100 ? 0 : ymax >= 1 ? 2 : 4,
			    ymax * t / 4);
	}
	for (i = 0; i < n; i++) {
		double x = SVG_L + (xmax == xmin ? pw / 2 :
			   pw * (pt[i].x - xmin) / (double)(xmax - xmin));

		strbuf_addf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ld</text>",
			    x, SVG_H - SVG_B + 16,
			    pt[i].x);
	}
	strbuf_addf(out, "\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">number of ",
		    SVG_L + pw / 2, SVG_H - 14);
	strbuf_add_escaped_html(out, key);
	strbuf_addf(out, "</text>\n<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">",
		    SVG_T + ph / 2);
	strbuf_add_escaped_html(out, *m0->unit ? m0->unit : "value");
	strbuf_addstr(out, "</text>\n");
	/* One line with a dot per point for each kernel. */
	for (k = 0; k < r->nr_kernels; k++) {
		struct strbuf dots = STRBUF_INIT;
		int started = 0;

		strbuf_addf(out, "<polyline class=\"k%zu\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" points=\"",
			    k,
			    plot_svg_color(k));
		for (i = 0; i < n; i++) {
			const struct compare_side *s = &pt[i].m->side[k];
			double x, y;

			if (!s->n || !isfinite(s->st.mean) ||
			    !(s->st.mean >= 0))
				continue;
			x = SVG_L + (xmax == xmin ? pw / 2 :
			    pw * (pt[i].x - xmin) / (double)(xmax - xmin));
			y = SVG_T + ph - ph * s->st.mean / ymax;
			strbuf_addf(out, "%s%.1f,%.1f", started++ ? " " : "",
				    x, y);
			strbuf_addf(&dots, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
				    x, y,
				    plot_svg_color(k));
		}
		strbuf_addf(out, "\"/>\n%s\n", dots.buf);
		strbuf_release(&dots);
	}
	strbuf_addstr(out, "</svg>\n");
	(void)nth;
}

int plot_svg(const struct compare_result *r, struct strbuf *out)
{
	return (int)call_per_sweep(r, svg_one, out);
}
