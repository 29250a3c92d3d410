// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - the profile block of a report (see profile.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "util.h"

#define PREFIX "diag.profile."

/* One function of one kind of one workload: its share on each side. */
struct prof_fn {
	const struct sample *s;	/* the first row of it: names */
	const char *kind;	/* "self", "children" (into s->metric) */
	size_t kind_len;
	const char *fn;
	double v[2];
};

static int same_group(const struct sample *a, const struct sample *b)
{
	return !strcmp(a->workload ? a->workload : "",
		       b->workload ? b->workload : "") &&
	       !strcmp(a->params ? a->params : "",
		       b->params ? b->params : "");
}

/* Larger change first; equal ones by name, for the same text each time. */
static int fn_cmp(const void *a, const void *b)
{
	const struct prof_fn *x = a, *y = b;
	double dx = fabs(x->v[1] - x->v[0]), dy = fabs(y->v[1] - y->v[0]);
	int kx = starts_with(x->kind, "children."), ky = starts_with(y->kind,
								     "children.");

	/* self before children, as the robot lists them */
	if (kx != ky)
		return kx - ky;
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->fn, y->fn);
}

/* The two labels of the set's profile rows: base first; 0, or -1. */
static int two_labels(const struct sample_set *set, const char *label[2])
{
	size_t i;

	label[0] = label[1] = NULL;
	for (i = 0; i < set->nr; i++) {
		const char *l = set->v[i].label ? set->v[i].label : "";

		if (!starts_with(set->v[i].metric, PREFIX))
			continue;
		if (!label[0])
			label[0] = l;
		else if (!label[1] && strcmp(l, label[0]))
			label[1] = l;
	}
	return label[1] ? 0 : -1;
}

/* The functions of the group of set->v[g], both sides, in fns. */
static size_t group_fns(const struct sample_set *set, size_t g,
			const char *label[2], struct prof_fn **out)
{
	struct prof_fn *fns = NULL;
	size_t i, k, nr = 0, alloc = 0;

	for (i = 0; i < set->nr; i++) {
		const struct sample *s = &set->v[i];
		const char *kind = s->metric + strlen(PREFIX), *dot;
		int side;

		if (!starts_with(s->metric, PREFIX) ||
		    !same_group(s, &set->v[g]))
			continue;
		dot = strchr(kind, '.');
		if (!dot)
			continue;
		side = !strcmp(s->label ? s->label : "", label[1]);
		if (!side && strcmp(s->label ? s->label : "", label[0]))
			continue;
		for (k = 0; k < nr; k++)
			if (!strcmp(fns[k].s->metric, s->metric))
				break;
		if (k == nr) {
			ALLOC_GROW(fns, nr, alloc);
			memset(&fns[nr], 0, sizeof(fns[nr]));
			fns[nr].s = s;
			fns[nr].kind = kind;
			fns[nr].kind_len = dot - kind;
			fns[nr].fn = dot + 1;
			nr++;
		}
		fns[k].v[side] = s->value;
	}
	*out = fns;
	return nr;
}

/* Whether both sides have a row of the group of set->v[g]. */
static int both_sides(const struct sample_set *set, size_t g,
		      const char *label[2])
{
	int seen[2] = { 0, 0 };
	size_t i;

	for (i = 0; i < set->nr; i++) {
		const char *l = set->v[i].label ? set->v[i].label : "";

		if (starts_with(set->v[i].metric, PREFIX) &&
		    same_group(&set->v[i], &set->v[g]))
			seen[!strcmp(l, label[1])] |= !strcmp(l, label[0]) ||
						      !strcmp(l, label[1]);
	}
	return seen[0] && seen[1];
}

/* "cpu-clock" of unit "%cpu-clock", or "samples" without one. */
static const char *event_of(const struct sample *s)
{
	return s->unit && s->unit[0] == '%' && s->unit[1] ? s->unit + 1 :
	       "samples";
}

size_t profile_block(const struct sample_set *set, struct strbuf *out,
		     const char **event)
{
	const char *label[2];
	size_t g, i, k, lines = 0;

	*event = NULL;
	if (two_labels(set, label) < 0)
		return 0;
	for (g = 0; g < set->nr; g++) {
		const struct sample *s = &set->v[g];
		struct prof_fn *fns;
		size_t nr, shown[2] = { 0, 0 };
		int first = 1;

		if (!starts_with(s->metric, PREFIX))
			continue;
		/* a group once: at its first row */
		for (i = 0; i < g; i++)
			if (starts_with(set->v[i].metric, PREFIX) &&
			    same_group(&set->v[i], s))
				break;
		if (i < g || !both_sides(set, g, label))
			continue;
		nr = group_fns(set, g, label, &fns);
		qsort(fns, nr, sizeof(*fns), fn_cmp);
		for (k = 0; k < nr; k++) {
			int kid = starts_with(fns[k].kind, "children.");
			double d = fns[k].v[1] - fns[k].v[0];

			if (shown[kid] >= PROFILE_SHOWN ||
			    fabs(d) < PROFILE_MIN_CHANGE)
				continue;
			if (!*event)
				*event = event_of(fns[k].s);
			if (first) {
				strbuf_addf(out, "%s%s%s%s:\n\n%8s %8s %8s\n",
					    lines ? "\n" : "", s->workload,
					    *s->params ? " " : "", s->params,
					    label[0], "change", label[1]);
				first = 0;
			}
			strbuf_addf(out, "%8.2f %+8.2f %8.2f  perf-profile.%.*s.%s.%s\n",
				    fns[k].v[0], d, fns[k].v[1],
				    (int)fns[k].kind_len, fns[k].kind,
				    event_of(fns[k].s), fns[k].fn);
			shown[kid]++;
			lines++;
		}
		free(fns);
	}
	return lines;
}
