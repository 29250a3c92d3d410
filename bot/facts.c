// SPDX-License-Identifier: GPL-2.0
/*
 * facts.c - the claims a reply can carry and the facts it states (see
 * facts.h).  Everything read here is the job's own record: the env
 * record the target printed, the .config that was built, the commits
 * that were made, compare.json.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "build.h"
#include "facts.h"
#include "procstat.h"
#include "samples.h"
#include "target/target.h"

/* ---- claims ---- */

static struct facts_opts opts;
static int configured;

void facts_configure(const struct facts_opts *o)
{
	opts = *o;
	configured = 1;
}

static int domain_is(const char *dom, const char *name)
{
	size_t d = strlen(dom), n = strlen(name);

	/* the name itself or any subdomain of it */
	return !strcasecmp(dom, name) ||
	       (d > n && dom[d - n - 1] == '.' && !strcasecmp(dom + d - n,
							      name));
}

int facts_email_is_placeholder(const char *email)
{
	static const char *const reserved[] = {
		"localhost", "localdomain", "example", "invalid", "test",
	};
	const char *at = email ? strrchr(email, '@') : NULL;
	const char *dom;
	size_t i;

	if (!at || at == email || !at[1])
		return 1;
	dom = at + 1;
	if (!strchr(dom, '.') && strcasecmp(dom, "localhost"))
		return 1;		/* a bare host name: not mail */
	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		if (domain_is(dom, reserved[i]))
			return 1;
	/* example.com, example.net, example.org: the domain, not a host */
	return !strncasecmp(dom, "example.", 8) && !strchr(dom + 8, '.');
}

int facts_check_identity(const char *what)
{
	const char *email;

	/* unconfigured, every identity would look a placeholder */
	if (!configured)
		die("BUG: facts_check_identity() before facts_configure()");
	email = opts.bot_email;
	if (!facts_email_is_placeholder(email))
		return 0;
	error("bot.email is '%s', a placeholder: %s; set bot.email (and bot.name) to the address that answers for the bot",
	      email ? email : "", what);
	return EXIT_USAGE;
}

int facts_machine_emulated(const char *machine)
{
	if (!machine)
		return 0;
	return !strcmp(machine, "tcg") || starts_with(machine, "qemu-tcg") ||
	       strstr(machine, ", tcg)") != NULL;
}

char *facts_verdict(const char *text)
{
	struct json_object *o = text ? json_tokener_parse(text) : NULL;
	struct json_object *v;
	char *ret = NULL;

	if (o && json_object_object_get_ex(o, "verdict", &v) &&
	    json_object_is_type(v, json_type_string))
		ret = xstrdup(json_object_get_string(v));
	json_object_put(o);
	return ret;
}

/* ---- the environment record ---- */

void facts_env_parse(const char *text, struct kv *env)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		const char *e = p, *end = p + n;

		/* framed: "@@SB <seq> <crc> OUT env,key,value" */
		while (e < end && !starts_with(e, "env,")) {
			const char *sp = memchr(e, ' ', end - e);

			e = sp ? sp + 1 : end;
		}
		if (e < end) {
			const char *k = e + 4, *c = memchr(k, ',', end - k);

			if (c && c > k) {
				char *key = xstrndup(k, c - k);
				size_t vl = end - c - 1;
				char *val;

				while (vl && isspace((unsigned char)c[vl]))
					vl--;
				val = xstrndup(c + 1, vl);
				kv_set(env, key, val);
				free(key);
				free(val);
			}
		}
		p = end + (*end == '\n');
	}
}

/* ---- layout ---- */

/* The bytes of the first chars characters of s (len bytes). */
static size_t head_bytes(const char *s, size_t len, size_t chars)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && w++ == chars)
			break;
	return i;
}

void facts_item(struct strbuf *out, const char *label, const char *text,
		int width)
{
	size_t indent = strlen(label) + 4, col, lbl = indent;
	const char *p = text;

	if (indent < 12)
		indent = 12;
	strbuf_addf(out, "- %s:%*s", label, (int)(indent - lbl + 1), "");
	col = indent;
	while (*p) {
		int first = 1;

		/* each line of text is a line of the item */
		while (*p && *p != '\n') {
			size_t n = strcspn(p, "\n "), w = utf8_width(p, n);

			if (!n) {
				p++;
				continue;
			}
			if (!first && col + 1 + w > (size_t)width) {
				strbuf_addf(out, "\n%*s", (int)indent, "");
				col = indent;
			} else if (!first) {
				strbuf_addch(out, ' ');
				col++;
			}
			if (col + w > (size_t)width) {
				/* a word longer than the line (a huge
				 * cmdline word): its head, then "..."
				 */
				size_t room = (size_t)width > col + 3 ?
					      (size_t)width - col - 3 : 0;

				strbuf_add(out, p, head_bytes(p, n, room));
				strbuf_addstr(out, "...");
				col += room + 3;
			} else {
				strbuf_add(out, p, n);
				col += w;
			}
			first = 0;
			p += n;
		}
		if (*p == '\n' && p[1]) {
			strbuf_addf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
		if (*p)
			p++;
	}
	strbuf_addch(out, '\n');
}

static const char *env(const struct kv *e, const char *key)
{
	const char *v = kv_get(e, key);

	return v && *v && strcmp(v, "unknown") ? v : NULL;
}

/* A count of 1 .. 65536 from the env record, else 0: guest text. */
static long env_count(const struct kv *e, const char *key)
{
	const char *v = env(e, key);
	char *end;
	long n;

	if (!v)
		return 0;
	n = strtol(v, &end, 10);
	return end != v && !*end && n > 0 && n <= 65536 ? n : 0;
}

/*
 * The CPUs in each blank-separated list of the record (at most max):
 * how many lists, the CPUs in the first, and whether all are as big.
 */
static int env_sets(const struct kv *e, const char *key, int *first,
		    int *same)
{
	const char *v = env(e, key);
	int nr = 0, n;

	*first = 0;
	*same = 1;
	while (v && *v && nr < 4096) {
		size_t len = strcspn(v, " ");
		char list[128];

		if (len >= sizeof(list))
			return 0;
		memcpy(list, v, len);
		list[len] = '\0';
		n = procstat_cpulist_count(list);
		if (n <= 0)
			return 0;
		if (!nr)
			*first = n;
		else if (n != *first)
			*same = 0;
		nr++;
		v += len;
		v += strspn(v, " ");
	}
	return nr;
}

void facts_topology(const struct kv *e, struct strbuf *out)
{
	long sockets = env_count(e, "sockets");
	long cores = env_count(e, "cores_per_socket");
	long threads = env_count(e, "threads_per_core");
	long nodes = env_count(e, "numa_nodes");
	const char *model = env(e, "cpu_model"), *smt = env(e, "smt_active");
	int llcs, llc_cpus, same;

	if (sockets && cores && threads)
		/* "2 x 56C/112T": sockets, cores and threads of each */
		strbuf_addf(out, "%ld x %ldC/%ldT", sockets, cores,
			    cores * threads);
	else
		strbuf_addf(out, "%s CPUs", env(e, "nr_cpus") ?
			    env(e, "nr_cpus") : "?");
	strbuf_addf(out, " %s", model ? model : "unknown CPU");
	if (nodes)
		strbuf_addf(out, ", %ld NUMA node%s", nodes,
			    nodes == 1 ? "" : "s");
	else
		strbuf_addstr(out, ", NUMA nodes unknown");
	llcs = env_sets(e, "llc_cpus", &llc_cpus, &same);
	if (llcs && same)
		strbuf_addf(out, ", %d LLC%s of %d CPU%s", llcs,
			    llcs == 1 ? "" : "s", llc_cpus,
			    llc_cpus == 1 ? "" : "s");
	else if (llcs)
		strbuf_addf(out, ", %d LLCs (CPUs %s)", llcs,
			    env(e, "llc_cpus"));
	strbuf_addf(out, ", SMT %s", !smt ? "unknown" : !strcmp(smt, "1") ?
		    "on" : !strcmp(smt, "0") ? "off" : smt);
}

/* "node 0: CPUs 0-3, 512 MB; ...; 1 per socket (NPS1), from ..." */
static void facts_numa(const struct kv *e, struct strbuf *out)
{
	const char *cpus = env(e, "node_cpus"), *mem = env(e, "node_mem_mb");
	const char *src = env(e, "numa_source");
	long nodes = env_count(e, "numa_nodes");
	long sockets = env_count(e, "sockets");
	int i;

	for (i = 0; i < nodes && i < 64; i++) {
		size_t c = cpus ? strcspn(cpus, " ") : 0;
		size_t m = mem ? strcspn(mem, " ") : 0;

		strbuf_addf(out, "%snode %d: CPUs %.*s, %.*s MB", i ? "; " :
			    "", i, c ? (int)c : 1, c ? cpus : "?",
			    m ? (int)m : 1, m ? mem : "?");
		if (cpus)
			cpus = cpus[c] ? cpus + c + 1 : NULL;
		if (mem)
			mem = mem[m] ? mem + m + 1 : NULL;
	}
	if (sockets && nodes && nodes % sockets == 0)
		strbuf_addf(out, "; %ld per socket (NPS%ld)", nodes / sockets,
			    nodes / sockets);
	if (src && !strcmp(src, "firmware"))
		strbuf_addstr(out, "; from the firmware's SRAT: the kernel runs without NUMA");
}

void facts_machine(const struct kv *e, const char *target,
		   const char *machine, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	int emulated = facts_machine_emulated(machine);

	strbuf_addstr(&sb, env(e, "cpu_model") ? env(e, "cpu_model") :
		      "unknown CPU");
	if (env(e, "arch"))
		strbuf_addf(&sb, ", %s", env(e, "arch"));
	facts_item(out, "CPU", sb.buf, 72);
	strbuf_reset(&sb);
	/* the seeds' testers' words: "2 x 56C/112T <model>, 2 NUMA nodes,
	 * 4 LLCs of 28 CPUs, SMT on"
	 */
	facts_topology(e, &sb);
	strbuf_addf(&sb, "; %s CPUs online", env(e, "nr_cpus") ?
		    env(e, "nr_cpus") : "?");
	facts_item(out, "topology", sb.buf, 72);
	strbuf_reset(&sb);
	facts_numa(e, &sb);
	if (sb.len)
		facts_item(out, "NUMA", sb.buf, 72);
	strbuf_reset(&sb);
	if (env(e, "mem_total_kb"))
		strbuf_addf(&sb, "%lld MB", atoll(env(e, "mem_total_kb")) / 1024);
	else
		strbuf_addstr(&sb, "unknown");
	facts_item(out, "memory", sb.buf, 72);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "cpufreq driver %s", env(e, "cpufreq_driver") ?
		    env(e, "cpufreq_driver") : "unknown");
	strbuf_addf(&sb, ", governor %s, boost %s, cpuidle %s, isolated CPUs %s",
		    env(e, "cpufreq_governor") ? env(e, "cpufreq_governor") :
		    "unknown", env(e, "boost") ? env(e, "boost") : "unknown",
		    env(e, "cpuidle_driver") ?
		    env(e, "cpuidle_driver") : "unknown",
		    env(e, "isolated_cpus") ? env(e, "isolated_cpus") :
		    "unknown");
	facts_item(out, "power", sb.buf, 72);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s (%s)", target && *target ? target : "?",
		    machine && *machine ? machine : "machine unknown");
	if (emulated)
		strbuf_addstr(&sb, ", emulated: QEMU TCG");
	else if (machine && starts_with(machine, "qemu-"))
		strbuf_addstr(&sb, ", virtual machine (KVM)");
	else if (env(e, "hypervisor") && !strcmp(env(e, "hypervisor"),
						 "yes"))
		strbuf_addstr(&sb, ", a virtual machine (hypervisor flag)");
	else if (env(e, "hypervisor"))
		strbuf_addstr(&sb, ", bare metal (no hypervisor flag)");
	facts_item(out, "target", sb.buf, 72);
	strbuf_reset(&sb);
	if (env(e, "kernel_release"))
		facts_item(out, "kernel", env(e, "kernel_release"), 72);
	if (env(e, "cmdline"))
		facts_item(out, "cmdline", env(e, "cmdline"), 72);
	strbuf_addf(&sb, "autogroup %s (CONFIG_SCHED_AUTOGROUP=%s), cgroup %s %s",
		    env(e, "sched_autogroup_enabled") ?
		    env(e, "sched_autogroup_enabled") : "?",
		    env(e, "config_sched_autogroup") ?
		    env(e, "config_sched_autogroup") : "?",
		    env(e, "cgroup_version") ? env(e, "cgroup_version") : "",
		    env(e, "cgroup") ? env(e, "cgroup") : "?");
	facts_item(out, "sched", sb.buf, 72);
	strbuf_release(&sb);
}

/* ---- the kernel ---- */

static char *config_value(const char *config, const char *key)
{
	char *needle = xasprintf("\n%s=", key);
	const char *hit = config ? strstr(config, needle) : NULL;
	char *ret = NULL;

	if (!hit && config && starts_with(config, needle + 1))
		hit = config - 1;
	if (hit) {
		const char *v = hit + strlen(needle);

		ret = xstrndup(v, strcspn(v, "\n"));
	}
	free(needle);
	return ret;
}

/* "KEY=value" of each of keys that config sets, space separated. */
static void config_keys(const char *config, const char *const *keys,
			size_t nr, struct strbuf *out)
{
	size_t i, start = out->len;

	for (i = 0; i < nr; i++) {
		char *v = config_value(config, keys[i]);

		if (v)
			strbuf_addf(out, "%s%s=%s", out->len > start ? " " :
				    "", keys[i], v);
		free(v);
	}
}

void facts_config_options(const char *config, struct strbuf *out)
{
	static const char *const keys[] = {
		"CONFIG_SCHED_AUTOGROUP", "CONFIG_CGROUP_SCHED",
		"CONFIG_FAIR_GROUP_SCHED", "CONFIG_CFS_BANDWIDTH",
		"CONFIG_HZ", "CONFIG_NO_HZ_IDLE", "CONFIG_NO_HZ_FULL",
		"CONFIG_NO_HZ", "CONFIG_PREEMPT_NONE",
		"CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT",
		"CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_DYNAMIC",
		"CONFIG_SCHED_SMT", "CONFIG_SCHED_MC", "CONFIG_NUMA",
		"CONFIG_NUMA_BALANCING", "CONFIG_SMP", "CONFIG_NR_CPUS",
	};

	config_keys(config, keys, ARRAY_SIZE(keys), out);
}

void facts_config_highlights(const char *config, struct strbuf *out)
{
	static const char *const keys[] = {
		"CONFIG_SMP", "CONFIG_NR_CPUS", "CONFIG_HZ",
		"CONFIG_NO_HZ_IDLE", "CONFIG_NO_HZ_FULL", "CONFIG_PREEMPT",
		"CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE",
		"CONFIG_PREEMPT_DYNAMIC", "CONFIG_SCHED_AUTOGROUP",
		"CONFIG_CGROUP_SCHED", "CONFIG_FAIR_GROUP_SCHED",
		"CONFIG_SCHED_MC", "CONFIG_SCHED_SMT",
	};

	config_keys(config, keys, ARRAY_SIZE(keys), out);
}

char *facts_config_compiler(const char *config)
{
	char *v = config_value(config, "CONFIG_CC_VERSION_TEXT");
	size_t n;

	if (!v)
		return NULL;
	n = strlen(v);
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	return v;
}

char *facts_commit_subject(git_repository *repo, const char *hex)
{
	git_commit *c = NULL;
	git_oid oid;
	char *ret = NULL;

	if (!repo || !hex || git_oid_fromstr(&oid, hex) ||
	    git_commit_lookup(&c, repo, &oid))
		return NULL;
	if (git_commit_summary(c))
		ret = xstrdup(git_commit_summary(c));
	git_commit_free(c);
	return ret;
}

int facts_commits(git_repository *repo, const char *base, const char *head,
		  struct strbuf *out)
{
	git_revwalk *w = NULL;
	git_oid b, h, oid;
	int n = 0;

	if (!repo || !base || !head || git_oid_fromstr(&b, base) ||
	    git_oid_fromstr(&h, head) || git_revwalk_new(&w, repo))
		return -1;
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push(w, &h) || git_revwalk_hide(w, &b)) {
		git_revwalk_free(w);
		return -1;
	}
	while (!git_revwalk_next(&oid, w) && n < 1000) {
		char hex[GIT_OID_HEXSZ + 1], *s;

		git_oid_tostr(hex, sizeof(hex), &oid);
		s = facts_commit_subject(repo, hex);
		strbuf_addf(out, "%.12s %s\n", hex, s ? s : "");
		free(s);
		n++;
	}
	git_revwalk_free(w);
	return n;
}

void facts_shell_quote(const char *s, enum facts_quote how,
		       struct strbuf *out)
{
	static const char bare[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:/=@+-";

	if (how == FACTS_QUOTE_IF_NEEDED && *s &&
	    strspn(s, bare) == strlen(s)) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* ---- the host ---- */

static char *host_cpu_model(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	char *ret = NULL;

	p = NULL;
	if (strbuf_read_file(&sb, "/proc/cpuinfo") >= 0)
		p = strstr(sb.buf, "model name");
	if (p) {
		p = strchr(p, ':');
		if (p) {
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			ret = xstrndup(p, strcspn(p, "\n"));
		}
	}
	strbuf_release(&sb);
	return ret ? ret : xstrdup("unknown CPU");
}

static long host_mem_mb(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (long)((long long)pages * size >> 20) :
	       0;
}

/* "?" for a field the workload did not report. */
static const char *known(const char *v)
{
	return v && *v ? v : "?";
}

void facts_host_machine(const char *target, const char *accel,
			const struct sample *s, struct strbuf *out)
{
	char *cpu = host_cpu_model();
	long smp, mem;
	int set = target_shape(target, &smp, &mem);

	strbuf_addf(out, "- CPU:     %s (host: %ld CPUs, %ld MB)\n", cpu,
		    sysconf(_SC_NPROCESSORS_ONLN), host_mem_mb());
	strbuf_addf(out, "- target:  %s", target);
	/* by its backend: a qemu target may have any name */
	if (target_is(target, TARGET_SHAPED) || set) {
		strbuf_addf(out, " (QEMU, %ld vCPUs, %ld MB%s%s)", smp, mem,
			    accel && *accel ? ", " : "",
			    accel ? accel : "");
	}
	strbuf_addch(out, '\n');
	if (s)
		strbuf_addf(out, "- sched:   autogroup config=%s enabled=%s, cgroup %s, %d CPUs seen by the workload\n",
			    known(s->autogroup_config),
			    known(s->autogroup_enabled), known(s->cgroup),
			    s->nr_cpus);
	free(cpu);
}

void facts_indent_block(const char *text, struct strbuf *out)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n)
			strbuf_addstr(out, "    ");
		strbuf_add(out, p, n);
		strbuf_addch(out, '\n');
		p += n + (p[n] == '\n');
	}
	while (out->len && out->buf[out->len - 1] == '\n')
		strbuf_setlen(out, out->len - 1);
}

/*
 * What a line of config-changes.txt is (build_config_changes_by()): 0
 * the fragments', 1 olddefconfig's, 2 the toolchain's; *n becomes its
 * length without the tag.  A line of an older job has none: the
 * toolchain's by the option's name (klen bytes of line), else the bot's.
 */
static int change_kind(const char *line, size_t *n, size_t klen)
{
	static const char *const tag[] = {
		NULL, BUILD_CHANGE_OLDDEFCONFIG, BUILD_CHANGE_TOOLCHAIN,
	};
	size_t k, t;

	for (k = 1; k < ARRAY_SIZE(tag); k++) {
		t = strlen(tag[k]);
		if (*n >= t && !memcmp(line + *n - t, tag[k], t)) {
			*n -= t;
			return (int)k;
		}
	}
	return build_config_follows_toolchain(line, klen) ? 2 : 0;
}

/*
 * A name or value as the patched tree's olddefconfig wrote it (the build's,
 * untrusted): printable ASCII, at most 64 characters of it.
 */
static void add_value(struct strbuf *out, const char *v, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 64; i++)
		strbuf_addch(out, v[i] >= 0x20 && v[i] < 0x7f ? v[i] : '?');
	if (len > 64)
		strbuf_addstr(out, "...");
}

void facts_config_changes(const char *changes, size_t max,
			  struct strbuf *out)
{
	size_t named = 0, total = 0, toolchain = 0;
	int pass, olddef = 0;

	for (pass = 0; pass < 2; pass++) {
		const char *p = changes, *nl, *name, *arrow;

		for (; *p; p = *nl ? nl + 1 : nl) {
			size_t len, n;
			int kind;

			nl = strchrnul(p, '\n');
			n = nl - p;
			name = p;
			if (starts_with(name, "CONFIG_"))
				name += strlen("CONFIG_");
			len = strcspn(name, ":\n");
			arrow = memmem(p, n, " -> ", 4);
			if (!len || !arrow || name[len] != ':')
				continue;
			kind = change_kind(p, &n, name + len - p);
			if (kind == 2)
				toolchain += !pass;
			if (kind != pass)
				continue;
			total++;
			if (named == max)
				continue;
			if (pass && !olddef++)
				strbuf_addstr(out, named ? "; olddefconfig: " :
					      " + olddefconfig: ");
			else
				strbuf_addstr(out, named ? ", " : " + ");
			named++;
			add_value(out, name, len);
			strbuf_addch(out, '=');
			if (p + n > arrow + 4)
				add_value(out, arrow + 4, p + n - arrow - 4);
		}
	}
	if (!total)
		strbuf_addstr(out, ", unchanged");
	else if (total > named)
		strbuf_addf(out, "%sand %zu more (config-changes.txt)",
			    named ? ", " : " + ", total - named);
	if (toolchain)
		strbuf_addf(out, "; toolchain: %zu option%s follow%s the compiler (config-changes.txt)",
			    toolchain, toolchain == 1 ? "" : "s",
			    toolchain == 1 ? "s" : "");
}

void facts_fragments(const char *list, struct strbuf *out)
{
	const char *f = list ? list : BUILD_FRAGMENTS;
	size_t n;

	for (;;) {
		f += strspn(f, " \t\n,");
		n = strcspn(f, " \t\n,");
		if (!n)
			break;
		strbuf_addf(out, " + %.*s", (int)n, f);
		f += n;
	}
}
