// SPDX-License-Identifier: GPL-2.0
/*
 * procstat.c - /proc parsers shared by sched-bot and sched-bench (libc
 * only: see procstat.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procstat.h"

int procstat_read(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if (!size)
		return -1;
	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return (int)len;
}

/* The start of the line beginning with prefix, or NULL. */
static const char *find_line(const char *text, const char *prefix)
{
	size_t plen = strlen(prefix);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, plen))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int procstat_parse_cpu(const char *text, struct cpu_times *out)
{
	unsigned long long v[8] = { 0 };
	const char *p = find_line(text, "cpu ");
	char *end;
	int i;

	memset(out, 0, sizeof(*out));
	if (!p)
		return -1;
	p += 4;
	/* Old kernels have fewer columns: missing ones stay 0. */
	for (i = 0; i < 8; i++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v[i] = strtoull(p, &end, 10);
		p = end;
	}
	if (i < 4)
		return -1;
	out->user = v[0];
	out->nice = v[1];
	out->system = v[2];
	out->idle = v[3];
	out->iowait = v[4];
	out->irq = v[5];
	out->softirq = v[6];
	out->steal = v[7];
	return 0;
}

static unsigned long long tick_delta(unsigned long long a,
				     unsigned long long b)
{
	/* iowait may go backwards on some kernels: clamp, never wrap. */
	return b > a ? b - a : 0;
}

int procstat_util(const struct cpu_times *a, const struct cpu_times *b,
		  struct cpu_util *u)
{
	double usr = tick_delta(a->user, b->user) +
		     tick_delta(a->nice, b->nice);
	double sys = tick_delta(a->system, b->system);
	double idle = tick_delta(a->idle, b->idle);
	double iowait = tick_delta(a->iowait, b->iowait);
	double softirq = tick_delta(a->softirq, b->softirq);
	double other = tick_delta(a->irq, b->irq) +
		       tick_delta(a->steal, b->steal);
	double total = usr + sys + idle + iowait + softirq + other;

	memset(u, 0, sizeof(*u));
	if (total <= 0)
		return -1;
	u->usr = 100.0 * usr / total;
	u->sys = 100.0 * sys / total;
	u->idle = 100.0 * idle / total;
	u->iowait = 100.0 * iowait / total;
	u->softirq = 100.0 * softirq / total;
	u->other = 100.0 * other / total;
	return 0;
}

static void copy_field(char *dst, size_t size, const char *src, size_t len)
{
	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Does the comma-separated controller list [p, end) name "cpu"? */
static int has_cpu_controller(const char *p, const char *end)
{
	while (p < end) {
		const char *c = memchr(p, ',', end - p);
		size_t n = c ? (size_t)(c - p) : (size_t)(end - p);

		if (n == 3 && !strncmp(p, "cpu", 3))
			return 1;
		p += n + 1;
	}
	return 0;
}

int procstat_cgroup_cpu(const char *text, char *path, size_t size,
			int *version)
{
	const char *line = text, *v2 = NULL, *v2end = NULL;

	if (size)
		path[0] = '\0';
	*version = 0;
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *c1, *c2;

		if (!eol)
			eol = line + strlen(line);
		c1 = memchr(line, ':', eol - line);
		c2 = c1 ? memchr(c1 + 1, ':', eol - c1 - 1) : NULL;
		if (c2) {
			if (c1 == line + 1 && line[0] == '0' && c2 == c1 + 1) {
				v2 = c2 + 1;
				v2end = eol;
			} else if (has_cpu_controller(c1 + 1, c2)) {
				copy_field(path, size, c2 + 1, eol - c2 - 1);
				*version = 1;
				return 0;
			}
		}
		line = *eol ? eol + 1 : NULL;
	}
	if (!v2)
		return -1;
	copy_field(path, size, v2, v2end - v2);
	*version = 2;
	return 0;
}

int procstat_autogroup(const char *text, char *name, size_t size, int *nice)
{
	const char *sp;

	*nice = 0;
	if (size)
		name[0] = '\0';
	if (strncmp(text, "/autogroup-", 11))
		return -1;
	sp = strchr(text, ' ');
	if (!sp)
		sp = text + strcspn(text, "\n");
	copy_field(name, size, text, sp - text);
	if (!strncmp(sp, " nice ", 6))
		*nice = atoi(sp + 6);
	return 0;
}

int procstat_config(const char *text, const char *option, char *val,
		    size_t size)
{
	size_t olen = strlen(option);
	const char *line = text;

	if (size)
		val[0] = '\0';
	while (line && *line) {
		const char *eol = strchr(line, '\n');

		if (!eol)
			eol = line + strlen(line);
		if (!strncmp(line, option, olen) && line[olen] == '=') {
			copy_field(val, size, line + olen + 1,
				   eol - line - olen - 1);
			return 0;
		}
		if (!strncmp(line, "# ", 2) &&
		    !strncmp(line + 2, option, olen) &&
		    !strncmp(line + 2 + olen, " is not set", 11)) {
			copy_field(val, size, "n", 1);
			return 0;
		}
		line = *eol ? eol + 1 : NULL;
	}
	return -1;
}

long long procstat_sched_field(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *p;

		if (!strncmp(line, key, klen) &&
		    (line[klen] == ' ' || line[klen] == ':')) {
			p = line + klen;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == ':') {
				p++;
				while (*p == ' ' || *p == '\t')
					p++;
				if (isdigit((unsigned char)*p) || *p == '-')
					return strtoll(p, NULL, 10);
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

/*
 * Up to max unsigned decimal fields from [p, eol), blank-separated, into
 * v.  Never reads past eol (strtoull would skip a newline and go on into
 * the next line of a truncated text).  The number of fields read, or -1
 * on anything else on the line or a number beyond 64 bits.
 */
static int read_fields(const char *p, const char *eol,
		       unsigned long long *v, int max)
{
	int n = 0;

	for (;;) {
		unsigned long long x = 0;

		while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p >= eol)
			return n;
		if (!isdigit((unsigned char)*p) || n == max)
			return -1;
		for (; p < eol && isdigit((unsigned char)*p); p++) {
			unsigned int d = *p - '0';

			if (x > (~0ULL - d) / 10)
				return -1;
			x = x * 10 + d;
		}
		if (p < eol && *p != ' ' && *p != '\t' && *p != '\r')
			return -1;
		v[n++] = x;
	}
}

/* The level of a "domainN " line, or -1. */
static int domain_level(const char *p, const char *eol, const char **rest)
{
	int level = 0;

	p += 6;
	if (p >= eol || !isdigit((unsigned char)*p))
		return -1;
	for (; p < eol && isdigit((unsigned char)*p); p++) {
		level = level * 10 + (*p - '0');
		if (level >= SCHEDSTAT_MAX_DOMAINS)
			return -1;
	}
	if (p >= eol || *p != ' ')
		return -1;
	p++;
	/* the span: a bitmap, hex words separated by commas */
	if (p >= eol || !isxdigit((unsigned char)*p))
		return -1;
	while (p < eol && (isxdigit((unsigned char)*p) || *p == ','))
		p++;
	*rest = p;
	return level;
}

int procstat_schedstat(const char *text, struct schedstat *out)
{
	const char *line = text;
	int i;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		unsigned long long v[SSD_FIELDS];

		if (!eol)
			eol = line + strlen(line);
		if (!strncmp(line, "version ", 8) && !out->version) {
			if (read_fields(line + 8, eol, v, 1) == 1 &&
			    v[0] < 1000)
				out->version = (int)v[0];
		} else if (!strncmp(line, "cpu", 3) &&
			   line + 3 < eol && isdigit((unsigned char)line[3]) &&
			   out->version >= 14 && out->version <= 17) {
			/* cpuN yld_count legacy sched_count sched_goidle
			 * ttwu_count ttwu_local rq_cpu_time run_delay
			 * pcount
			 */
			const char *p = line + 3;

			while (p < eol && isdigit((unsigned char)*p))
				p++;
			if (read_fields(p, eol, v, 9) == 9) {
				out->yld_count += v[0];
				out->sched_count += v[2];
				out->sched_goidle += v[3];
				out->ttwu_count += v[4];
				out->ttwu_local += v[5];
				out->rq_cpu_time += v[6];
				out->run_delay += v[7];
				out->pcount += v[8];
				out->cpus++;
			}
		} else if (!strncmp(line, "domain", 6) && out->cpus &&
			   out->version == 15) {
			const char *rest;
			int level = domain_level(line, eol, &rest);

			if (level >= 0 &&
			    read_fields(rest, eol, v, SSD_FIELDS) ==
			    SSD_FIELDS) {
				struct schedstat_domain *d = &out->dom[level];

				for (i = 0; i < SSD_FIELDS; i++)
					d->f[i] += v[i];
				d->cpus++;
				if (level >= out->nr_domains)
					out->nr_domains = level + 1;
			}
		}
		line = *eol ? eol + 1 : NULL;
	}
	return out->cpus ? 0 : -1;
}

static unsigned long long ss_sub(unsigned long long a, unsigned long long b)
{
	return b >= a ? b - a : SCHEDSTAT_UNKNOWN;
}

int procstat_schedstat_delta(const struct schedstat *a,
			     const struct schedstat *b, struct schedstat *d)
{
	int l, i, same = a->version == b->version && a->cpus == b->cpus &&
		a->cpus > 0 && a->nr_domains == b->nr_domains;

	for (l = 0; same && l < a->nr_domains; l++)
		same = a->dom[l].cpus == b->dom[l].cpus;
	memset(d, 0xff, sizeof(*d));
	d->version = a->version;
	d->cpus = a->cpus;
	d->nr_domains = 0;
	if (!same)
		return -1;
	d->nr_domains = a->nr_domains;
	d->yld_count = ss_sub(a->yld_count, b->yld_count);
	d->sched_count = ss_sub(a->sched_count, b->sched_count);
	d->sched_goidle = ss_sub(a->sched_goidle, b->sched_goidle);
	d->ttwu_count = ss_sub(a->ttwu_count, b->ttwu_count);
	d->ttwu_local = ss_sub(a->ttwu_local, b->ttwu_local);
	d->rq_cpu_time = ss_sub(a->rq_cpu_time, b->rq_cpu_time);
	d->run_delay = ss_sub(a->run_delay, b->run_delay);
	d->pcount = ss_sub(a->pcount, b->pcount);
	for (l = 0; l < a->nr_domains; l++) {
		d->dom[l].cpus = a->dom[l].cpus;
		for (i = 0; i < SSD_FIELDS; i++)
			d->dom[l].f[i] = ss_sub(a->dom[l].f[i],
						b->dom[l].f[i]);
	}
	return 0;
}

long long procstat_status_field(const char *text, const char *key)
{
	return procstat_sched_field(text, key);
}

int procstat_cpulist_count(const char *list)
{
	const char *p = list;
	int n = 0;

	while (*p == ' ')
		p++;
	if (*p == '\n' || !*p)
		return 0;
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -1;
			p = end;
		}
		n += b - a + 1;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return n;
}

long long procstat_pid_cputicks(const char *text)
{
	/* The command name may hold spaces and parentheses: fields are
	 * counted from the last ')'.  utime and stime are fields 14, 15.
	 */
	const char *p = strrchr(text, ')');
	long long ut, st;
	char *end;
	int field;

	if (!p)
		return -1;
	p++;
	for (field = 3; field < 14; field++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -1;
		p += strcspn(p, " ");
	}
	ut = strtoll(p, &end, 10);
	if (end == p)
		return -1;
	p = end;
	st = strtoll(p, &end, 10);
	if (end == p || ut < 0 || st < 0)
		return -1;
	return ut + st;
}

double procstat_sched_double(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *p = line + klen;

		if (!strncmp(line, key, klen) && (*p == ' ' || *p == ':')) {
			char *end;
			double v;

			p += strspn(p, " \t");
			if (*p == ':') {
				p += 1 + strspn(p + 1, " \t");
				v = strtod(p, &end);
				if (end != p && v >= 0 && v < 1e300)
					return v;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

/* Little-endian fields of an ACPI table. */
static unsigned int le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

static unsigned long long le64(const unsigned char *p)
{
	return le32(p) | (unsigned long long)le32(p + 4) << 32;
}

int procstat_srat(const unsigned char *buf, size_t len,
		  void (*cpu)(void *data, unsigned int domain, unsigned int apic),
		  void (*mem)(void *data, unsigned int domain,
			      unsigned long long bytes),
		  void *data)
{
	size_t off = 48;	/* the header (36) and 12 reserved bytes */

	if (len < off || memcmp(buf, "SRAT", 4))
		return -1;
	if (le32(buf + 4) < len)
		len = le32(buf + 4);
	while (off + 2 <= len) {
		const unsigned char *e = buf + off;
		size_t n = e[1];

		if (n < 2 || off + n > len)
			break;
		if (e[0] == 0 && n >= 16 && (le32(e + 4) & 1))
			/* local APIC: domain bits 0-7 at 2, 8-31 at 9 */
			cpu(data, e[2] | e[9] << 8 | e[10] << 16 |
			    (unsigned int)e[11] << 24, e[3]);
		else if (e[0] == 1 && n >= 40 && (le32(e + 28) & 1))
			mem(data, le32(e + 2), le64(e + 16));
		else if (e[0] == 2 && n >= 24 && (le32(e + 12) & 1))
			cpu(data, le32(e + 4), le32(e + 8));
		off += n;
	}
	return 0;
}
