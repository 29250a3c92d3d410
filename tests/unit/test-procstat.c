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

int main(void)
{
	TEST_NAME("test-procstat");
	RUN(test_cpu_util);
	RUN(test_cgroup);
	RUN(test_autogroup);
	RUN(test_config);
	RUN(test_sched_fields);
	RUN(test_cpulist);
	RUN(test_pid_cputicks);
	return test_done();
}
