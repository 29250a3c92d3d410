// SPDX-License-Identifier: GPL-2.0
/*
 * machsize.c - the CPUs and memory a sentence says a machine has (see
 * machsize.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "machsize.h"

/* A number longer than this is no count of anything here. */
#define DIGITS_MAX 16
#define WORD_MAX 16

struct text {
	char s[MACHSIZE_TEXT_MAX + 1];	/* lowercase, NUL-free */
	size_t n;
};

static int is_alnum(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A number or a kernel word may start at i: not inside a word or "6.13". */
static int starts_token(const struct text *t, size_t i)
{
	return !i || (!is_alnum(t->s[i - 1]) && t->s[i - 1] != '.');
}

/* The letters at *i (at most WORD_MAX) into w, *i past them. */
static size_t read_word(const struct text *t, size_t *i, char *w)
{
	size_t k = 0;

	while (*i < t->n && isalpha((unsigned char)t->s[*i])) {
		if (k < WORD_MAX)
			w[k++] = t->s[*i];
		(*i)++;
	}
	w[k] = '\0';
	return k;
}

/* The whole number at *i, *i past it; -1 when there is none or too long. */
static long long read_number(const struct text *t, size_t *i)
{
	long long v = 0;
	size_t k = 0;

	while (*i < t->n && isdigit((unsigned char)t->s[*i])) {
		if (k++ < DIGITS_MAX)
			v = v * 10 + (t->s[*i] - '0');
		(*i)++;
	}
	if (!k || k > DIGITS_MAX)
		return -1;
	/* "1.5", "1,024": a decimal or a grouped number, not a count */
	if (*i + 1 < t->n && (t->s[*i] == '.' || t->s[*i] == ',') &&
	    isdigit((unsigned char)t->s[*i + 1])) {
		/* past all of it: "048" of "2,048" is no count either */
		while (*i + 1 < t->n && strchr(".,", t->s[*i]) &&
		       isdigit((unsigned char)t->s[*i + 1]))
			for ((*i)++; *i < t->n &&
			     isdigit((unsigned char)t->s[*i]); (*i)++)
				;
		return -1;
	}
	return v;
}

static int one_of(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return 1;
	return 0;
}

static const char *const cpu_units[] = {
	"cpu", "cpus", "vcpu", "vcpus", NULL
};
static const char *const core_units[] = { "core", "cores", NULL };
static const char *const cpu_kinds[] = {
	"logical", "virtual", "online", "physical", "hardware", NULL
};
/* "4 CPU cycles": a quantity of CPU, not a count of them */
static const char *const not_size[] = {
	"cycles", "cycle", "time", "times", "usage", "seconds", "secs",
	"hours", "load", "util", "utilization", "utilisation", "hotplug",
	"frequency", "freq", "mask", "id", "ids", "number", "percent", NULL
};
static const char *const machine_words[] = {
	"machine", "machines", "box", "server", "system", "instance", "vm",
	"guest", "host", "board", "laptop", "desktop", "workstation",
	"platform", NULL
};
static const char *const mem_words[] = {
	"ram", "memory", "mem", "dram", NULL
};
static const char *const joiners[] = { "and", "with", "plus", NULL };
/* what "112 CPUs per LLC domain" counts: a part of the machine */
static const char *const parts[] = {
	"llc", "socket", "node", "die", "cluster", "domain", "numa", "core",
	"ccx", "ccd", "package", NULL
};

/* MB in one of unit: 0 for no unit of memory. */
static unsigned long long unit_mb(const char *w, int bare)
{
	if (!strcmp(w, "gib") || !strcmp(w, "gb") || (bare && !strcmp(w, "g")))
		return 1024;
	if (!strcmp(w, "mib") || !strcmp(w, "mb") || (bare && !strcmp(w, "m")))
		return 1;
	if (!strcmp(w, "tib") || !strcmp(w, "tb") || (bare && !strcmp(w, "t")))
		return 1024 * 1024;
	return 0;
}

/* Skip blanks (and one "-" when dash) from *i. */
static void skip_blanks(const struct text *t, size_t *i, int dash)
{
	if (dash && *i < t->n && t->s[*i] == '-') {
		(*i)++;
		return;
	}
	while (*i < t->n && (t->s[*i] == ' ' || t->s[*i] == '\t' ||
			     t->s[*i] == '\n'))
		(*i)++;
}

/* The next word after blanks (w empty when none); *i is left as it was. */
static void peek_word(const struct text *t, size_t i, char *w)
{
	skip_blanks(t, &i, 0);
	read_word(t, &i, w);
}

/*
 * Is the text from a to b only blanks, punctuation and at most one of
 * "and", "with", "plus"?  "4 vCPUs and 16 GiB", "4 CPUs, 16GB".
 */
static int only_joins(const struct text *t, size_t a, size_t b)
{
	char w[WORD_MAX + 1];
	int words = 0;

	if (b - a > 12)
		return 0;
	while (a < b) {
		if (isalpha((unsigned char)t->s[a])) {
			read_word(t, &a, w);
			if (!one_of(w, joiners) || words++)
				return 0;
		} else if (strchr(" \t\n,;/+()&", t->s[a])) {
			a++;
		} else {
			return 0;
		}
	}
	return 1;
}

/* The value of a "key=N" kernel word at i (past the key): N or -1. */
static long long kernel_count(const struct text *t, size_t i)
{
	long long v = read_number(t, &i);

	if (i < t->n && is_alnum(t->s[i]))
		return -1;
	return v;
}

/* mem=N[KMGTP] at i (past "mem="): its MB, 0 when it is none. */
static unsigned long long kernel_mem(const struct text *t, size_t i)
{
	long long v = read_number(t, &i);
	unsigned long long mb;

	if (v <= 0)
		return 0;
	mb = (unsigned long long)v;
	if (i < t->n && t->s[i] && strchr("kmgtp", t->s[i])) {
		/* K, M, G, T, P: each 1024 times the one before */
		int shift = (int)(strchr("kmgtp", t->s[i++]) - "kmgtp") * 10;

		if (shift >= 10 && mb > MACHSIZE_MEM_MAX_MB >> (shift - 10))
			return 0;
		mb = shift >= 10 ? mb << (shift - 10) : mb >> 10;
	} else {
		mb >>= 20;	/* bytes */
	}
	if (i < t->n && is_alnum(t->s[i]))
		return 0;
	return mb;
}

static int mem_in_range(unsigned long long mb)
{
	return mb >= MACHSIZE_MEM_MIN_MB && mb <= MACHSIZE_MEM_MAX_MB;
}

struct found {
	long long kcpus;		/* maxcpus=, nr_cpus=: the smaller */
	unsigned long long kmem;	/* mem= */
	int cpus, vcpu;			/* the first CPU count, a vCPU one */
	int cores;			/* the first core count */
	size_t count_end;		/* where the last count's unit ends */
	int counted;
	unsigned long long mem;		/* the first memory in prose */
	int machine;			/* a machine word */
	/* "per LLC", "per socket": the sentence counts a part, not the whole */
	int part;
};

/* A count at i: "4 vCPUs", "4-core", "8 logical CPUs". */
static void prose_number(const struct text *t, size_t *i, struct found *f)
{
	size_t start = *i, j;
	long long v = read_number(t, i);
	char w[WORD_MAX + 1], next[WORD_MAX + 1];
	unsigned long long per;

	if (v < 0 || (*i < t->n && t->s[*i] == '_'))
		return;
	j = *i;
	skip_blanks(t, &j, 1);
	if (j == *i)
		skip_blanks(t, &j, 0);
	if (!read_word(t, &j, w))
		return;
	if (j < t->n && (isdigit((unsigned char)t->s[j]) || t->s[j] == '_'))
		return;
	if (one_of(w, cpu_kinds)) {
		size_t k = j;

		skip_blanks(t, &k, 0);
		if (read_word(t, &k, next) && one_of(next, cpu_units)) {
			strcpy(w, next);
			j = k;
		} else if (!strcmp(next, "threads")) {
			strcpy(w, "cpus");
			j = k;
		}
	}
	if (one_of(w, cpu_units) || one_of(w, core_units)) {
		peek_word(t, j, next);
		if (one_of(next, not_size) || v < 1 || v > MACHSIZE_CPUS_MAX ||
		    (j < t->n && t->s[j] == '%'))
			return;
		if (one_of(w, cpu_units) && !f->cpus) {
			f->cpus = (int)v;
			f->vcpu = w[0] == 'v';
		} else if (one_of(w, core_units) && !f->cores) {
			f->cores = (int)v;
		}
		f->count_end = j;
		f->counted = 1;
		*i = j;
		return;
	}
	per = unit_mb(w, 1);
	if (!per || f->mem)
		return;
	{
		size_t k = j;

		skip_blanks(t, &k, 0);
		peek_word(t, k, next);
		if (!strcmp(next, "of")) {
			read_word(t, &k, next);
			peek_word(t, k, next);
		}
	}
	/* "16 GiB RAM", or "4 vCPUs and 16 GiB" */
	if (one_of(next, mem_words) || !strncmp(next, "ddr", 3) ||
	    (f->counted && unit_mb(w, 0) && only_joins(t, f->count_end, start))) {
		/* a count past the bound is not multiplied: it could wrap */
		if ((unsigned long long)v <= MACHSIZE_MEM_MAX_MB / per &&
		    mem_in_range((unsigned long long)v * per))
			f->mem = (unsigned long long)v * per;
	}
	*i = j;
}

static void load(struct text *t, const char *text, size_t len)
{
	size_t i;

	t->n = len < MACHSIZE_TEXT_MAX ? len : MACHSIZE_TEXT_MAX;
	for (i = 0; i < t->n; i++) {
		unsigned char c = (unsigned char)text[i];

		t->s[i] = c ? (char)tolower(c) : ' ';
	}
	t->s[t->n] = '\0';
}

int machsize_parse(const char *text, size_t len, struct machsize *m)
{
	struct text t;
	struct found f;
	unsigned long long mem;
	size_t i = 0;

	memset(m, 0, sizeof(*m));
	memset(&f, 0, sizeof(f));
	f.kcpus = -1;
	load(&t, text ? text : "", text ? len : 0);
	while (i < t.n) {
		char w[WORD_MAX + 1];

		if (!starts_token(&t, i)) {
			i++;
			continue;
		}
		if (isdigit((unsigned char)t.s[i])) {
			size_t before = i;

			prose_number(&t, &i, &f);
			if (i == before)
				i++;
			continue;
		}
		if (!strncmp(t.s + i, "maxcpus=", 8) ||
		    !strncmp(t.s + i, "nr_cpus=", 8)) {
			long long v = kernel_count(&t, i + 8);

			if (v >= 1 && v <= MACHSIZE_CPUS_MAX &&
			    (f.kcpus < 0 || v < f.kcpus))
				f.kcpus = v;
			i += 8;
			continue;
		}
		if (!strncmp(t.s + i, "mem=", 4)) {
			unsigned long long mb = kernel_mem(&t, i + 4);

			if (!f.kmem && mem_in_range(mb))
				f.kmem = mb;
			i += 4;
			continue;
		}
		if (isalpha((unsigned char)t.s[i])) {
			read_word(&t, &i, w);
			if (one_of(w, machine_words))
				f.machine = 1;
			if (!strcmp(w, "per")) {
				char next[WORD_MAX + 1];

				peek_word(&t, i, next);
				if (one_of(next, parts))
					f.part = 1;
			}
			continue;
		}
		i++;
	}
	mem = f.kmem ? f.kmem : f.mem;
	if (mem) {
		m->mem_mb = mem;
		snprintf(m->mem_word, sizeof(m->mem_word), "%llu%c",
			 mem % 1024 ? mem : mem / 1024, mem % 1024 ? 'M' : 'G');
	}
	if (f.kcpus > 0)
		m->cpus = (int)f.kcpus;
	else if (f.part)
		;
	else if (f.cpus && (f.vcpu || f.machine || mem))
		m->cpus = f.cpus;
	else if (f.cores && (f.machine || mem))
		m->cpus = f.cores;
	return m->cpus > 0;
}

int machsize_hint(const char *lc)
{
	return strpbrk(lc, "0123456789") &&
	       (strstr(lc, "cpu") || strstr(lc, "core"));
}
