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
	n = text ? procstat_read(path, text, 1 << 20) : -1;
	if (n > 0) {
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

	for (i = 0; text && i < ARRAY_SIZE(models); i++)
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

/* ---- topology: sockets, cores, LLCs, NUMA nodes, cpufreq ---- */

#define TOPO_SETS 256		/* distinct LLC or node CPU lists kept */
#define TOPO_CPUS 4096

/* Distinct CPU lists ("0-3", "4-7"), in the order first seen. */
struct cpusets {
	char v[TOPO_SETS][128];
	int nr;
};

static void sets_add(struct cpusets *s, const char *list)
{
	int i;

	if (!*list || procstat_cpulist_count(list) <= 0)
		return;
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i], list))
			return;
	if (s->nr < TOPO_SETS)
		snprintf(s->v[s->nr++], sizeof(s->v[0]), "%s", list);
}

/* The lists, blank-separated, as one record. */
static void rec_sets(const char *key, const struct cpusets *s)
{
	static char out[TOPO_SETS * 130];
	size_t len = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < s->nr && len + 130 < sizeof(out); i++)
		len += snprintf(out + len, sizeof(out) - len, "%s%s",
				i ? " " : "", s->v[i]);
	rec_env(key, s->nr ? out : "unknown");
}

static void rec_int(const char *key, long v)
{
	char num[32];

	if (v <= 0) {
		rec_env(key, "unknown");
		return;
	}
	snprintf(num, sizeof(num), "%ld", v);
	rec_env(key, num);
}

static long read_long(const char *path)
{
	char buf[64];

	if (procstat_read(path, buf, sizeof(buf)) <= 0 ||
	    !(buf[0] >= '0' && buf[0] <= '9'))
		return -1;
	return strtol(buf, NULL, 10);
}

/* The CPU list of the highest unified or data cache of cpu: its LLC. */
static int llc_of(int cpu, char *list, size_t size, long *level)
{
	char path[128], type[32];
	long best = -1, l;
	int i;

	list[0] = '\0';
	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, i);
		l = read_long(path);
		if (l < 0)
			break;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/type",
			 cpu, i);
		if (procstat_read(path, type, sizeof(type)) > 0 &&
		    !strncmp(type, "Instruction", 11))
			continue;
		if (l <= best)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
			 cpu, i);
		if (procstat_read(path, list, size) <= 0)
			continue;
		list[strcspn(list, "\n")] = '\0';
		best = l;
	}
	*level = best;
	return best < 0 ? -1 : 0;
}

/* The physical package and core of each CPU, and each one's LLC. */
static void env_cpus(long *sockets, long *cores)
{
	static struct cpusets llcs;
	static unsigned char pkg_seen[TOPO_CPUS];
	static int core_pkg[TOPO_CPUS], core_id[TOPO_CPUS];
	char path[128], list[128];
	long level = -1, l, pkg, core;
	int cpu, nr_cores = 0, i;

	*sockets = *cores = 0;
	llcs.nr = 0;
	memset(pkg_seen, 0, sizeof(pkg_seen));
	for (cpu = 0; cpu < TOPO_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		pkg = read_long(path);
		if (pkg < 0) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d", cpu);
			if (access(path, F_OK))
				break;
			continue;	/* offline: no topology */
		}
		if (pkg < TOPO_CPUS && !pkg_seen[pkg]) {
			pkg_seen[pkg] = 1;
			(*sockets)++;
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		core = read_long(path);
		for (i = 0; i < nr_cores; i++)
			if (core_pkg[i] == pkg && core_id[i] == core)
				break;
		if (i == nr_cores && nr_cores < TOPO_CPUS) {
			core_pkg[nr_cores] = (int)pkg;
			core_id[nr_cores++] = (int)core;
		}
		if (!llc_of(cpu, list, sizeof(list), &l)) {
			if (l > level) {
				level = l;
				llcs.nr = 0;
			}
			if (l == level)
				sets_add(&llcs, list);
		}
	}
	if (*sockets)
		*cores = nr_cores / *sockets;
	rec_int("llc_level", level);
	rec_sets("llc_cpus", &llcs);
}

/* The firmware's nodes, for a kernel without CONFIG_NUMA. */
struct fw_numa {
	const char *cpuinfo;
	int nr;
	unsigned int domain[64];
	unsigned long long bytes[64];
	unsigned char cpus[64][TOPO_CPUS / 8];	/* a bit per CPU */
};

static int fw_node(struct fw_numa *f, unsigned int domain)
{
	int i;

	for (i = 0; i < f->nr; i++)
		if (f->domain[i] == domain)
			return i;
	if (f->nr == 64)
		return -1;
	f->domain[f->nr] = domain;
	f->bytes[f->nr] = 0;
	memset(f->cpus[f->nr], 0, sizeof(f->cpus[0]));
	return f->nr++;
}

/* The processor number of the cpuinfo entry with this apicid, or -1. */
static int cpu_of_apic(const char *info, unsigned int apic)
{
	const char *p = info;
	int cpu = -1;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *c = strchr(p, ':');

		if (!c || c > p + strcspn(p, "\n"))
			continue;
		if (!strncmp(p, "processor", 9))
			cpu = atoi(c + 1);
		else if (!strncmp(p, "apicid", 6) &&
			 strtoul(c + 1, NULL, 10) == apic)
			return cpu;
	}
	return -1;
}

/* A bitmap of CPUs as a list: "0-3,8". */
static void bits_list(const unsigned char *bits, char *out, size_t size)
{
	size_t len = 0;
	int a, b;

	out[0] = '\0';
	for (a = 0; a < TOPO_CPUS; a++) {
		if (!(bits[a / 8] & 1 << (a % 8)))
			continue;
		for (b = a; b + 1 < TOPO_CPUS &&
		     (bits[(b + 1) / 8] & 1 << ((b + 1) % 8)); b++)
			;
		if (len + 24 >= size)
			break;
		len += snprintf(out + len, size - len, a == b ? "%s%d" :
				"%s%d-%d", len ? "," : "", a, b);
		a = b;
	}
}

static void fw_cpu(void *data, unsigned int domain, unsigned int apic)
{
	struct fw_numa *f = data;
	int i = fw_node(f, domain), cpu = cpu_of_apic(f->cpuinfo, apic);

	if (i >= 0 && cpu >= 0 && cpu < TOPO_CPUS)
		f->cpus[i][cpu / 8] |= 1 << (cpu % 8);
}

static void fw_mem(void *data, unsigned int domain, unsigned long long bytes)
{
	struct fw_numa *f = data;
	int i = fw_node(f, domain);

	if (i >= 0)
		f->bytes[i] += bytes;
}

/*
 * NUMA nodes as the kernel has them (/sys/devices/system/node), else as
 * the firmware describes them (SRAT); nodes, their CPUs and memory.
 */
static long env_numa(const char *cpuinfo)
{
	static unsigned char srat[1 << 16];
	static struct fw_numa f;
	static struct cpusets cpus;
	char path[96], buf[4096], mem[TOPO_SETS * 12];
	size_t mlen = 0;
	int n, len;

	cpus.nr = 0;
	mem[0] = '\0';
	for (n = 0; n < TOPO_SETS; n++) {
		const char *p;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/cpulist", n);
		if (procstat_read(path, buf, sizeof(buf)) < 0)
			break;
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(cpus.v[cpus.nr++], sizeof(cpus.v[0]), "%.127s", buf);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/meminfo", n);
		p = procstat_read(path, buf, sizeof(buf)) > 0 ?
		    strstr(buf, "MemTotal:") : NULL;
		if (p)
			mlen += snprintf(mem + mlen, sizeof(mem) - mlen,
					 "%s%lld", n ? " " : "",
					 strtoll(p + 9, NULL, 10) / 1024);
		else
			mlen += snprintf(mem + mlen, sizeof(mem) - mlen,
					 "%s?", n ? " " : "");
	}
	if (n) {
		rec_env("numa_source", "kernel");
	} else {
		memset(&f, 0, sizeof(f));
		f.cpuinfo = cpuinfo;
		len = procstat_read("/sys/firmware/acpi/tables/SRAT",
				    (char *)srat, sizeof(srat));
		if (len <= 0 || procstat_srat(srat, len, fw_cpu, fw_mem, &f) ||
		    !f.nr) {
			rec_env("numa_source", "none");
			rec_env("numa_nodes", "unknown");
			return 0;
		}
		for (n = 0; n < f.nr; n++) {
			bits_list(f.cpus[n], cpus.v[cpus.nr++], sizeof(cpus.v[0]));
			mlen += snprintf(mem + mlen, sizeof(mem) - mlen,
					 "%s%llu", n ? " " : "",
					 f.bytes[n] >> 20);
		}
		rec_env("numa_source", "firmware");
	}
	rec_int("numa_nodes", n);
	rec_sets("node_cpus", &cpus);
	rec_env("node_mem_mb", mem);
	return n;
}

/* cpufreq's driver and boost: acpi-cpufreq's boost, intel_pstate's
 * no_turbo (inverted).
 */
static void env_cpufreq(void)
{
	char buf[64];
	long v;

	if (procstat_read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
			  buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		rec_env("cpufreq_driver", buf);
	} else {
		rec_env("cpufreq_driver", "none");
	}
	v = read_long("/sys/devices/system/cpu/cpufreq/boost");
	if (v < 0) {
		v = read_long("/sys/devices/system/cpu/intel_pstate/no_turbo");
		v = v < 0 ? -1 : !v;
	}
	rec_env("boost", v < 0 ? "unknown" : v ? "on" : "off");
}

/*
 * What the machine is, as the target itself sees it: the CPU model,
 * sockets, cores per socket, LLCs, NUMA nodes, memory, cpufreq, and
 * whether a hypervisor is there (which TCG or KVM is, only the host
 * knows).
 */
static void env_machine(void)
{
	static char info[1 << 18];
	char val[256], ids[64] = "";
	const char *p;
	long sockets = 0, cores = 0;
	int n;

	n = procstat_read("/proc/cpuinfo", info, sizeof(info));
	if (n < 0)
		info[0] = '\0';
	if (!field_of(info, "model name", val, sizeof(val)) ||
	    !field_of(info, "Processor", val, sizeof(val)) ||
	    !field_of(info, "cpu", val, sizeof(val)))
		rec_env("cpu_model", val);
	else
		rec_env("cpu_model", "unknown");
	env_cpus(&sockets, &cores);
	/* no sysfs topology: distinct "physical id"s (x86), 63 at most */
	for (p = strstr(info, "physical id"); p && !sockets;
	     p = strstr(p + 1, "physical id")) {
		const char *c = strchr(p, ':');
		int id;

		if (!c)
			break;
		id = atoi(c + 1);
		if (id >= 0 && id < (int)sizeof(ids) && !ids[id])
			ids[id] = 1;
	}
	for (n = 0; !sockets && n < (int)sizeof(ids); n++)
		cores += ids[n];
	if (!sockets) {
		sockets = cores;
		cores = field_of(info, "cpu cores", val, sizeof(val)) ? 0 :
			atol(val);
	}
	rec_int("sockets", sockets);
	rec_int("cores_per_socket", cores);
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
	env_numa(info);
	env_cpufreq();
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
	if (uname(&u))
		memset(&u, 0, sizeof(u));
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
	n = procstat_read("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
			  tmp, sizeof(tmp)) >= 0 ? procstat_cpulist_count(tmp) : 0;
	if (n > 0) {
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
