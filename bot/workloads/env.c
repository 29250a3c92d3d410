// SPDX-License-Identifier: GPL-2.0
/*
 * env.c - the environment record: everything about the machine and the
 * benchmark's place in it that changes scheduler results (kernel, CPUs,
 * SMT, sched config, autogroup, cgroup, cpufreq, isolated CPUs).  Every
 * file is optional: what the machine does not say is "unknown".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* The first line of a small file, or "unknown". */
static const char *first_line(const char *path, char *buf, size_t size)
{
	if (procstat_read(path, buf, size) < 0)
		return "unknown";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/*
 * The running kernel's .config: /boot/config-$(uname -r) first (no
 * decoding needed), then /proc/config.gz (CONFIG_IKCONFIG_PROC).
 */
static char *read_config(const char *release, const char **source)
{
	static char path[300];
	unsigned char *gz;
	char *text = NULL;
	size_t len;
	int n;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	text = malloc(1 << 20);
	if (text && (n = procstat_read(path, text, 1 << 20)) > 0) {
		*source = path;
		return text;
	}
	free(text);
	text = NULL;
	gz = malloc(1 << 20);
	if (!gz)
		return NULL;
	n = procstat_read("/proc/config.gz", (char *)gz, 1 << 20);
	if (n > 0 && !bench_gunzip(gz, n, &text, &len))
		*source = "/proc/config.gz";
	free(gz);
	return text;
}

static void env_config(const char *text, const char *option,
		       const char *key)
{
	char val[128];

	if (!text || procstat_config(text, option, val, sizeof(val)))
		rec_env(key, "unknown");
	else
		rec_env(key, val);
}

/* The preemption model the kernel was built with. */
static void env_preempt(const char *text)
{
	static const char *const models[] = {
		"CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_LAZY", "CONFIG_PREEMPT",
		"CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE",
	};
	char val[16], out[64] = "unknown";
	size_t i;

	for (i = 0; text && i < sizeof(models) / sizeof(models[0]); i++)
		if (!procstat_config(text, models[i], val, sizeof(val)) &&
		    !strcmp(val, "y")) {
			snprintf(out, sizeof(out), "%s", models[i] + 7);
			break;
		}
	if (text && !procstat_config(text, "CONFIG_PREEMPT_DYNAMIC", val,
				     sizeof(val)) && !strcmp(val, "y"))
		strncat(out, "+DYNAMIC", sizeof(out) - strlen(out) - 1);
	rec_env("config_preempt", out);
}

/* The value of the first "key<tabs>: value" line of cpuinfo-like text. */
static int field_of(const char *text, const char *key, char *out,
		    size_t size)
{
	size_t klen = strlen(key);
	const char *p = text;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *c;
		size_t n;

		if (strncmp(p, key, klen))
			continue;
		c = p + klen + strspn(p + klen, " \t");
		if (*c != ':')
			continue;
		for (c++; *c == ' ' || *c == '\t'; c++)
			;
		n = strcspn(c, "\n");
		if (n >= size)
			n = size - 1;
		memcpy(out, c, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

/*
 * What the machine is, as the target itself sees it: the CPU model,
 * sockets, cores per socket, NUMA nodes, memory, and whether a
 * hypervisor is there (which TCG or KVM is, only the host knows).
 */
static void env_machine(void)
{
	static char info[1 << 18];
	char val[256], num[32], ids[64] = "";
	const char *p;
	int sockets = 0, nodes = 0, n;
	char path[64];

	n = procstat_read("/proc/cpuinfo", info, sizeof(info));
	if (n < 0)
		info[0] = '\0';
	if (!field_of(info, "model name", val, sizeof(val)) ||
	    !field_of(info, "Processor", val, sizeof(val)) ||
	    !field_of(info, "cpu", val, sizeof(val)))
		rec_env("cpu_model", val);
	else
		rec_env("cpu_model", "unknown");
	/* distinct "physical id"s: sockets (x86); at most 63 tracked */
	for (p = strstr(info, "physical id"); p;
	     p = strstr(p + 1, "physical id")) {
		const char *c = strchr(p, ':');
		int id;

		if (!c)
			break;
		id = atoi(c + 1);
		if (id >= 0 && id < (int)sizeof(ids) && !ids[id]) {
			ids[id] = 1;
			sockets++;
		}
	}
	if (sockets) {
		snprintf(num, sizeof(num), "%d", sockets);
		rec_env("sockets", num);
	} else {
		rec_env("sockets", "unknown");
	}
	rec_env("cores_per_socket", field_of(info, "cpu cores", val,
					     sizeof(val)) ? "unknown" : val);
	p = strstr(info, "\nflags");
	if (!p && !strncmp(info, "flags", 5))
		p = info;
	if (p) {
		size_t len = strcspn(p + 1, "\n");
		const char *h = strstr(p, " hypervisor");

		rec_env("hypervisor", h && h < p + 1 + len ? "yes" : "no");
	} else {
		rec_env("hypervisor", "unknown");
	}
	for (n = 0; n < 1024; n++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/cpulist", n);
		if (access(path, R_OK))
			break;
		nodes++;
	}
	if (nodes) {
		snprintf(num, sizeof(num), "%d", nodes);
		rec_env("numa_nodes", num);
	} else {
		rec_env("numa_nodes", "unknown");
	}
	if (procstat_read("/proc/meminfo", info, sizeof(info)) >= 0 &&
	    !field_of(info, "MemTotal", val, sizeof(val))) {
		val[strspn(val, "0123456789")] = '\0';
		rec_env("mem_total_kb", val);
	} else {
		rec_env("mem_total_kb", "unknown");
	}
}

void env_print(const struct bench_knobs *k)
{
	static char buf[16384];
	char tmp[512], num[32];
	const char *source = "unknown";
	struct utsname u;
	char *config;
	int version, nice, n;
	time_t t = time(NULL);
	struct tm tm;

	rec_env("sched_bench_format", "1");
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	rec_env("time", tmp);
	if (uname(&u)) {
		memset(&u, 0, sizeof(u));
	}
	rec_env("kernel_release", u.release);
	rec_env("kernel_version", u.version);
	rec_env("arch", u.machine);
	rec_env("hostname", u.nodename);
	snprintf(num, sizeof(num), "%d", bench_online_cpus());
	rec_env("nr_cpus", num);
	rec_env("cpus_online", first_line("/sys/devices/system/cpu/online",
					  tmp, sizeof(tmp)));
	rec_env("smt_active", first_line("/sys/devices/system/cpu/smt/active",
					 tmp, sizeof(tmp)));
	if (procstat_read("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
			  tmp, sizeof(tmp)) >= 0 &&
	    (n = procstat_cpulist_count(tmp)) > 0) {
		snprintf(num, sizeof(num), "%d", n);
		rec_env("threads_per_core", num);
	} else {
		rec_env("threads_per_core", "unknown");
	}

	config = read_config(u.release, &source);
	rec_env("config_source", config ? source : "unknown");
	env_config(config, "CONFIG_SCHED_AUTOGROUP", "config_sched_autogroup");
	env_preempt(config);
	env_config(config, "CONFIG_HZ", "config_hz");
	env_config(config, "CONFIG_NO_HZ_IDLE", "config_no_hz_idle");
	env_config(config, "CONFIG_NO_HZ_FULL", "config_no_hz_full");
	env_config(config, "CONFIG_FAIR_GROUP_SCHED", "config_fair_group_sched");
	env_config(config, "CONFIG_CFS_BANDWIDTH", "config_cfs_bandwidth");
	env_config(config, "CONFIG_SCHED_SMT", "config_sched_smt");
	env_config(config, "CONFIG_SCHED_DEBUG", "config_sched_debug");
	env_config(config, "CONFIG_SCHEDSTATS", "config_schedstats");
	env_config(config, "CONFIG_UCLAMP_TASK", "config_uclamp_task");
	free(config);

	rec_env("sched_schedstats",
		first_line("/proc/sys/kernel/sched_schedstats", tmp,
			   sizeof(tmp)));
	rec_env("sched_autogroup_enabled",
		first_line("/proc/sys/kernel/sched_autogroup_enabled", tmp,
			   sizeof(tmp)));
	if (procstat_read("/proc/self/cgroup", buf, sizeof(buf)) >= 0 &&
	    !procstat_cgroup_cpu(buf, tmp, sizeof(tmp), &version)) {
		rec_env("cgroup", tmp);
		rec_env("cgroup_version", version == 1 ? "v1" : "v2");
	} else {
		rec_env("cgroup", "unknown");
		rec_env("cgroup_version", "unknown");
	}
	if (procstat_read("/proc/self/autogroup", buf, sizeof(buf)) >= 0 &&
	    !procstat_autogroup(buf, tmp, sizeof(tmp), &nice))
		rec_env("autogroup", tmp);
	else
		rec_env("autogroup", "unknown");
	rec_env("cpufreq_governor",
		first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			   tmp, sizeof(tmp)));
	rec_env("cpuidle_driver",
		first_line("/sys/devices/system/cpu/cpuidle/current_driver",
			   tmp, sizeof(tmp)));
	if (procstat_read("/sys/devices/system/cpu/isolated", tmp,
			  sizeof(tmp)) < 0)
		rec_env("isolated_cpus", "unknown");
	else
		rec_env("isolated_cpus", tmp[0] && tmp[0] != '\n' ? tmp :
			"none");
	rec_env("cmdline", first_line("/proc/cmdline", buf, sizeof(buf)));
	rec_env("setsid", k && k->setsid ? "1" : "0");
	env_machine();
}

int bench_env(int argc, char **argv)
{
	struct bench_knobs k = { .saved_autogroup = -1 };
	struct bench_args a;
	int rc = bench_parse(BENCH_ENV, "env", argc, argv, &a);

	if (rc) {
		bench_usage(BENCH_ENV, "env", rc == 1 ? stdout : stderr);
		return rc == 1 ? 0 : rc;
	}
	knobs_from_args(&k, &a);
	if (knobs_apply(&k))
		return 1;
	rec_header();
	env_print(&k);
	knobs_restore(&k);
	return 0;
}
