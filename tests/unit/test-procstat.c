// SPDX-License-Identifier: GPL-2.0
/* The /proc parsers, on fixture files in tests/data/bench/. */
#include <stdlib.h>

#include "procstat.h"
#include "test.h"

static char buf[65536];

static const char *fixture(const char *name)
{
	const char *data = getenv("DATA");
	char path[512];

	snprintf(path, sizeof(path), "%s/bench/%s", data ? data : "tests/data",
		 name);
	if (procstat_read(path, buf, sizeof(buf)) < 0) {
		printf("#   cannot read %s\n", path);
		buf[0] = '\0';
	}
	return buf;
}

static void test_cpu_util(void)
{
	struct cpu_times a, b;
	struct cpu_util u;

	CHECK_INT(procstat_parse_cpu(fixture("stat.a"), &a), 0);
	CHECK_INT(a.user, 1000);
	CHECK_INT(a.softirq, 40);
	CHECK_INT(procstat_parse_cpu(fixture("stat.b"), &b), 0);
	CHECK_INT(b.steal, 10);
	CHECK_INT(procstat_util(&a, &b, &u), 0);
	/* 600 usr, 200 sys, 800 idle, 100 iowait, 20 softirq, 20 other */
	CHECK_NEAR(u.usr, 100.0 * 600 / 1740, 1e-9);
	CHECK_NEAR(u.sys, 100.0 * 200 / 1740, 1e-9);
	CHECK_NEAR(u.idle, 100.0 * 800 / 1740, 1e-9);
	CHECK_NEAR(u.iowait, 100.0 * 100 / 1740, 1e-9);
	CHECK_NEAR(u.softirq, 100.0 * 20 / 1740, 1e-9);
	CHECK_NEAR(u.usr + u.sys + u.idle + u.iowait + u.softirq + u.other,
		   100, 1e-9);
	CHECK_INT(procstat_util(&a, &a, &u), -1);
	CHECK_INT(procstat_parse_cpu("intr 1 2 3\n", &a), -1);
	CHECK_INT(procstat_parse_cpu("cpu  1 2\n", &a), -1);
}

static void test_cgroup(void)
{
	char path[256];
	int v;

	CHECK_INT(procstat_cgroup_cpu(fixture("cgroup.v1"), path, sizeof(path),
				      &v), 0);
	CHECK_STR(path, "/user.slice/user-1000.slice/session-1.scope");
	CHECK_INT(v, 1);
	CHECK_INT(procstat_cgroup_cpu(fixture("cgroup.v1-root"), path,
				      sizeof(path), &v), 0);
	CHECK_STR(path, "/");
	CHECK_INT(v, 1);
	CHECK_INT(procstat_cgroup_cpu(fixture("cgroup.v2"), path, sizeof(path),
				      &v), 0);
	CHECK_STR(path, "/user.slice/user-1000.slice/session-2.scope");
	CHECK_INT(v, 2);
	/* cpuacct is not cpu; garbage is not a cgroup file */
	CHECK_INT(procstat_cgroup_cpu("2:cpuacct:/x\n", path, sizeof(path),
				      &v), -1);
	CHECK_INT(procstat_cgroup_cpu("", path, sizeof(path), &v), -1);
	/* truncated into a small buffer, still NUL-terminated */
	CHECK_INT(procstat_cgroup_cpu("0::/abcdef\n", path, 4, &v), 0);
	CHECK_STR(path, "/ab");
}

static void test_autogroup(void)
{
	char name[64];
	int nice = 5;

	CHECK_INT(procstat_autogroup(fixture("autogroup.present"), name,
				     sizeof(name), &nice), 0);
	CHECK_STR(name, "/autogroup-25");
	CHECK_INT(nice, 0);
	CHECK_INT(procstat_autogroup("/autogroup-3 nice -5\n", name,
				     sizeof(name), &nice), 0);
	CHECK_INT(nice, -5);
	CHECK_INT(procstat_autogroup(fixture("autogroup.absent"), name,
				     sizeof(name), &nice), -1);
	CHECK_STR(name, "");
}

static void test_config(void)
{
	const char *text;
	char v[64];

	text = fixture("config.snippet");
	CHECK_INT(procstat_config(text, "CONFIG_SCHED_AUTOGROUP", v,
				  sizeof(v)), 0);
	CHECK_STR(v, "y");
	CHECK_INT(procstat_config(text, "CONFIG_HZ", v, sizeof(v)), 0);
	CHECK_STR(v, "250");
	CHECK_INT(procstat_config(text, "CONFIG_PREEMPT", v, sizeof(v)), 0);
	CHECK_STR(v, "n");
	CHECK_INT(procstat_config(text, "CONFIG_LOCALVERSION", v, sizeof(v)),
		  0);
	CHECK_STR(v, "\"-test\"");
	/* a prefix of an option is not the option */
	CHECK_INT(procstat_config(text, "CONFIG_SCHED", v, sizeof(v)), -1);
	CHECK_INT(procstat_config(text, "CONFIG_NO_SUCH", v, sizeof(v)), -1);
	text = fixture("config.noautogroup");
	CHECK_INT(procstat_config(text, "CONFIG_SCHED_AUTOGROUP", v,
				  sizeof(v)), 0);
	CHECK_STR(v, "n");
}

static void test_sched_fields(void)
{
	struct schedstat ss;

	CHECK_INT(procstat_sched_field(fixture("sched.txt"),
				       "se.nr_migrations"), 17);
	CHECK_INT(procstat_sched_field(buf, "nr_switches"), 120);
	CHECK_INT(procstat_sched_field(buf, "se.nr_missing"), -1);
	CHECK_INT(procstat_status_field(fixture("status.txt"),
					"voluntary_ctxt_switches"), 150);
	CHECK_INT(procstat_status_field(buf, "nonvoluntary_ctxt_switches"), 7);
	CHECK_INT(procstat_schedstat(fixture("schedstat.txt"), &ss), 0);
	CHECK_INT(ss.sched_count, 3000);
	CHECK_INT(ss.ttwu_count, 1000);
	CHECK_INT(ss.ttwu_local, 300);
	CHECK_INT(procstat_schedstat("version 15\n", &ss), -1);
}

/* Version 15 with two domain levels on 4 CPUs, 1.25 s apart. */
static void test_schedstat_delta(void)
{
	static struct schedstat a, b, d;
	int j;

	CHECK_INT(procstat_schedstat(fixture("schedstat15.a"), &a), 0);
	CHECK_INT(a.version, 15);
	CHECK_INT(a.cpus, 4);
	CHECK_INT(a.nr_domains, 2);
	CHECK_INT(a.dom[0].cpus, 4);
	CHECK_INT(a.ttwu_count, 1206);
	CHECK_INT(procstat_schedstat(fixture("schedstat15.b"), &b), 0);
	CHECK_INT(procstat_schedstat_delta(&a, &b, &d), 0);
	CHECK_INT(d.nr_domains, 2);
	CHECK_INT(d.yld_count, 4);
	CHECK_INT(d.sched_count, 2000);
	CHECK_INT(d.sched_goidle, 400);
	CHECK_INT(d.ttwu_count, 1000);
	CHECK_INT(d.ttwu_local, 200);
	CHECK_INT(d.rq_cpu_time, 800000000);
	CHECK_INT(d.run_delay, 12000000);
	CHECK_INT(d.pcount, 160);
	/* field j (1-based) of cpu c is j + 100 c (level 0), j + 1000 c
	 * (level 1), doubled in b */
	for (j = 0; j < SSD_FIELDS; j++) {
		CHECK_INT(d.dom[0].f[j], 4 * (j + 1) + 600);
		CHECK_INT(d.dom[1].f[j], 4 * (j + 1) + 6000);
	}
	CHECK_INT(d.dom[0].f[SSD_LB(SSD_LB_COUNT, 2)], 4 * 17 + 600);
	CHECK_INT(d.dom[1].f[SSD_TTWU_MOVE_AFFINE], 4 * 35 + 6000);
	/* the other way round every counter went backwards */
	CHECK_INT(procstat_schedstat_delta(&b, &a, &d), 0);
	CHECK(d.ttwu_count == SCHEDSTAT_UNKNOWN);
	CHECK(d.dom[1].f[SSD_ALB_COUNT] == SCHEDSTAT_UNKNOWN);
	/* yld_count: cpu0 went 0 -> 1 but the sum went 6 -> 10 */
	CHECK(d.yld_count == SCHEDSTAT_UNKNOWN);
}

/*
 * The text is the kernel's: a truncated or garbled one yields only the
 * whole lines, and snapshots of different shapes give no delta.
 */
static void test_schedstat_hostile(void)
{
	static struct schedstat a, b, d;
	static char big[8192];
	size_t i;

	CHECK_INT(procstat_schedstat(fixture("schedstat15.cut"), &b), 0);
	CHECK_INT(b.cpus, 1);
	CHECK_INT(b.nr_domains, 1);	/* domain1 is cut short */
	CHECK_INT(b.sched_count, 1500);
	CHECK_INT(procstat_schedstat(fixture("schedstat15.a"), &a), 0);
	CHECK_INT(procstat_schedstat_delta(&a, &b, &d), -1);
	CHECK_INT(d.nr_domains, 0);
	CHECK(d.ttwu_count == SCHEDSTAT_UNKNOWN);
	/* a number split by the truncation does not borrow the next line */
	CHECK_INT(procstat_schedstat("version 15\ncpu0 1 0 2 3 4 5 6 7\n8\n",
				     &a), -1);
	/* without a version line, or an unknown version: nothing */
	CHECK_INT(procstat_schedstat("cpu0 1 0 2 3 4 5 6 7 8\n", &a), -1);
	CHECK_INT(procstat_schedstat("version 9\ncpu0 1 0 2 3 4 5 6 7 8\n",
				     &a), -1);
	/* 64-bit overflow, junk in a field, extra fields, a level too deep */
	CHECK_INT(procstat_schedstat("version 15\n"
		"cpu0 1 0 2 3 4 5 6 7 99999999999999999999\n"
		"cpu1 1 0 2 3 4 5 6 7 8x\n"
		"cpu2 1 0 2 3 4 5 6 7 8 9\n"
		"cpu3 1 0 2 3 4 5 6 7 8\r\n"
		"domain99 03 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36\n"
		"domain0 zz 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36\n"
		"domain1 00000000,00000003 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36",
		&a), 0);
	CHECK_INT(a.cpus, 1);
	CHECK_INT(a.pcount, 8);
	CHECK_INT(a.nr_domains, 2);
	CHECK_INT(a.dom[0].cpus, 0);
	CHECK_INT(a.dom[1].cpus, 1);
	CHECK_INT(a.dom[1].f[SSD_TTWU_MOVE_BALANCE], 36);
	/* domain lines of another version are not read as version 15's */
	CHECK_INT(procstat_schedstat("version 17\ncpu0 1 0 2 3 4 5 6 7 8\n"
		"domain0 03 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36\n",
		&a), 0);
	CHECK_INT(a.nr_domains, 0);
	/* a long line of digits and blanks, no newline: bounded */
	for (i = 0; i + 1 < sizeof(big); i++)
		big[i] = i < 11 ? "version 15\n"[i] : (i % 2 ? ' ' : '7');
	big[sizeof(big) - 1] = '\0';
	CHECK_INT(procstat_schedstat(big, &a), -1);
	CHECK_INT(procstat_schedstat("", &a), -1);
}

static void test_pid_cputicks(void)
{
	/* a command name with spaces and parentheses */
	CHECK_INT(procstat_pid_cputicks(fixture("pid-stat.txt")), 325);
	CHECK_INT(procstat_pid_cputicks("1 (x) R 1 2"), -1);
	CHECK_INT(procstat_pid_cputicks("garbage"), -1);
}

static void test_cpulist(void)
{
	CHECK_INT(procstat_cpulist_count("0-3,8,10-11\n"), 7);
	CHECK_INT(procstat_cpulist_count("0\n"), 1);
	CHECK_INT(procstat_cpulist_count("\n"), 0);
	CHECK_INT(procstat_cpulist_count("3-1"), -1);
	CHECK_INT(procstat_cpulist_count("x"), -1);
}

static int srat_cpus, srat_dom_sum;
static unsigned long long srat_bytes;

static void srat_cpu(void *data, unsigned int domain, unsigned int apic)
{
	srat_cpus++;
	srat_dom_sum += domain * 100 + apic;
}

static void srat_mem(void *data, unsigned int domain,
		     unsigned long long bytes)
{
	srat_bytes += bytes * (domain + 1);
}

/* A SRAT as QEMU writes it: an APIC, an x2APIC and a memory entry. */
static void test_srat(void)
{
	unsigned char t[48 + 16 + 24 + 40 + 16] = "SRAT";
	unsigned char *e = t + 48;

	t[4] = sizeof(t);
	e[0] = 0, e[1] = 16, e[2] = 1, e[3] = 5, e[4] = 1;	/* dom 1 */
	e += 16;
	e[0] = 2, e[1] = 24, e[4] = 2, e[8] = 7, e[12] = 1;	/* dom 2 */
	e += 24;
	e[0] = 1, e[1] = 40, e[2] = 1, e[19] = 0x20, e[28] = 1; /* 512M */
	e += 40;
	e[0] = 0, e[1] = 16, e[3] = 9;		/* disabled: not counted */
	CHECK(!procstat_srat(t, sizeof(t), srat_cpu, srat_mem, NULL));
	CHECK(srat_cpus == 2 && srat_dom_sum == 105 + 207);
	CHECK(srat_bytes == 2 * (512ULL << 20));
	/* a length past the buffer and a zero-length entry end the walk */
	srat_cpus = 0;
	t[48 + 1] = 0;
	CHECK(!procstat_srat(t, sizeof(t), srat_cpu, srat_mem, NULL));
	CHECK(srat_cpus == 0);
	CHECK(procstat_srat((const unsigned char *)"FACP", 4, srat_cpu,
			    srat_mem, NULL) == -1);
}

int main(void)
{
	TEST_NAME("test-procstat");
	RUN(test_srat);
	RUN(test_cpu_util);
	RUN(test_cgroup);
	RUN(test_autogroup);
	RUN(test_config);
	RUN(test_sched_fields);
	RUN(test_cpulist);
	RUN(test_pid_cputicks);
	RUN(test_schedstat_delta);
	RUN(test_schedstat_hostile);
	return test_done();
}
