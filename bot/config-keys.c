// SPDX-License-Identifier: GPL-2.0
/*
 * config-keys.c - every configuration key, its default and its help
 * line, in one table.  A key the code reads must be here (config_get()
 * dies otherwise, and tests/t0002-config.sh greps the sources for
 * keys missing here); contrib/sched-bot.config is checked against it.
 */
#include <string.h>
#include <strings.h>

#include "config-keys.h"

#define S(n, d, h)	{ n, CONFIG_STRING, d, 0, h }
#define SECRET(n, h)	{ n, CONFIG_STRING, NULL, 1, h }
#define I(n, d, h)	{ n, CONFIG_INT, d, 0, h }
#define B(n, d, h)	{ n, CONFIG_BOOL, d, 0, h }
#define N(n, d, h)	{ n, CONFIG_NUMBER, d, 0, h }
#define M(n, d, h)	{ n, CONFIG_MULTI, d, 0, h }

const struct config_key config_keys[] = {
	/* who the bot is, and what it tests */
	S("bot.name", "sched-bot", "name in From: and Tested-by:"),
	S("bot.email", "sched-bot@localhost",
	  "address in From: and Tested-by: (b4 matches them)"),
	S("bot.contact", NULL, "who runs the bot and how to reach them, "
	  "in every reply's signature (unset: not named)"),
	M("bot.allow", NULL,
	  "who may send mail commands: an address or @domain; none if unset"),
	S("bot.workloads", "auto", "workloads tested by default: auto "
	  "(chosen from the thread and the diff, see plan --help) or a "
	  "list (see run --help)"),
	I("bot.runs", "5", "recorded with a job given no --runs; it does "
	  "not set how many runs it makes: such a job runs adaptively, "
	  "job.minRuns to job.maxRuns a side, and --runs N or a mail "
	  "command's runs=N fixes the count"),
	B("bot.quiet", "false", "no reply for a series whose patches "
	  "were measured already (same patch-ids, base and target)"),
	S("bot.knownWorkloads", NULL, "workloads a mail command may ask "
	  "for (unset: the workload table's mail set)"),
	I("bot.maxRuns", "30", "most runs a mail command may ask for"),
	I("bot.maxPerHour", "20", "mails sent per hour at most (0: no cap)"),
	I("bot.maxPerDay", "100", "mails sent per day at most (0: no cap)"),
	I("bot.maxRecipientsPerHour", "100",
	  "recipients of the mails sent per hour at most (0: no cap)"),
	I("bot.maxRecipientsPerDay", "500",
	  "recipients of the mails sent per day at most (0: no cap)"),
	I("bot.maxPerThread", "3", "mails sent to one thread, by its root "
	  "(0: no cap)"),
	I("bot.maxJobsPerSender", "5",
	  "jobs one sender may queue by mail per day (0: no cap)"),
	I("bot.maxJobsPerDay", "20",
	  "jobs all mail commands may queue per day (0: no cap)"),
	S("bot.moderation", "none", "replies held for a moderator first: "
	  "none, regressions or all (see bot.moderators)"),
	M("bot.moderators", NULL, "who gets held replies and may release "
	  "them or call them invalid by mail: an address or @domain"),
	I("bot.holdDays", "7", "days a held reply waits for a moderator; "
	  "then it is dropped as expired (0: never)"),
	S("dkim.keyFile", NULL, "test and offline use only: DKIM keys from "
	  "this file (lines \"SEL._domainkey.DOMAIN TXT-record\"), not DNS"),

	/* the reply */
	S("reply.cc", "all", "Cc of replies: all (every To and Cc of the "
	  "mail answered, lists first, as LKML expects), lists (the mailing "
	  "lists among them, then the addresses of the thread's -by: "
	  "trailers) or none (the author only)"),
	S("reply.emulated", "outbox", "where an emulated (QEMU TCG) result "
	  "goes: outbox (kept, not sent), author (privately, once a thread) "
	  "or list (the author and the thread's lists, no Tested-by)"),
	I("reply.maxRecipients", "20",
	  "most recipients of any mail the bot sends (0: no cap)"),
	M("reply.list", NULL, "more addresses that count as lists (cc=lists)"),
	S("reply.format", "auto",
	  "table format: auto (the thread's, else lkp), intel, amd, lkp, "
	  "mmtests, matrix, simple"),
	I("reply.quoteLines", "2", "lines of the cover letter quoted (0: none)"),
	S("reply.signature", "sched-bot " SCHED_BOT_VERSION
	  ", scheduler benchmarks on posted patches", "the mail signature"),
	S("reply.templateDir", NULL,
	  "where mail-*.md live (unset: templates.dir, then the install)"),
	S("templates.dir", NULL,
	  "where templates live (unset: $SCHED_BOT_TEMPLATES, the install)"),

	/* sending */
	B("smtp.send", "false", "send replies (else only the outbox)"),
	S("smtp.url", "smtp://127.0.0.1:25",
	  "smtp://host:port (STARTTLS per smtp.tls) or smtps://host:port"),
	S("smtp.tls", NULL, "starttls, try or none (unset: try, but "
	  "starttls when a password goes over smtp://)"),
	S("smtp.user", NULL, "user to log in as (then a password is needed)"),
	SECRET("smtp.password",
	       "the password (prefer smtp.passwordFile or the environment)"),
	S("smtp.passwordFile", NULL,
	  "file whose first line is the password ($SCHED_BOT_SMTP_PASSWORD)"),
	S("smtp.caFile", NULL, "CA bundle of the SMTP server"),
	S("smtp.from", NULL, "envelope sender (unset: the From: address)"),
	I("smtp.timeout", "60", "seconds a submission may take"),
	S("outbox.dir", NULL,
	  "the outbox Maildir (unset: $XDG_DATA_HOME/sched-bot/outbox)"),
	B("outbox.checkLore", "true",
	  "after a crash mid-send, ask lore whether the mail arrived"),
	I("outbox.maxAge", "604800",
	  "seconds an unsent mail may wait; older ones are dropped"),

	/* state and jobs */
	S("state.db", NULL,
	  "the SQLite database (unset: $XDG_DATA_HOME/sched-bot/state.db)"),
	S("job.dir", NULL,
	  "job directories (unset: $XDG_DATA_HOME/sched-bot/jobs)"),
	S("job.target", "qemu", "where test and cron run (see target.*); a "
	  "comma-separated list (q2,q4) runs each job on every target "
	  "named, with one reply"),
	I("job.seconds", "0", "seconds of each workload run of test and "
	  "cron, and plan's default (0: 5, as boot -t; run -t defaults to "
	  "10)"),
	I("job.spawnGap", "3", "seconds spawn sleeps before each of its "
	  "passes (3, as UnixBench's Run; 0 for quick runs of the pipeline)"),
	I("job.warmup", "6", "one-second samples pingpong runs and drops "
	  "before its measured ones (6, as will-it-scale; 0 for quick runs "
	  "of the pipeline)"),
	I("job.minRuns", "5", "adaptive runs: the first look, runs a side"),
	I("job.maxRuns", "20", "adaptive runs: the most runs a side"),
	B("job.profile", "false", "the confirmation round of a suspected "
	  "regression runs each regressed workload under perf record on "
	  "both kernels: diag.profile.* rows in profile.csv, the functions "
	  "whose share changed most in the reply"),

	/* cron */
	M("cron.query", "dfn:kernel/sched/ AND s:PATCH AND rt:<since>..",
	  "lore queries for new series; <since>: the last poll"),
	M("cron.commandQuery", "(nq:\"sched-bot test\" OR "
	  "nq:\"sched-bot release\" OR nq:\"sched-bot invalid\") AND "
	  "rt:<since>..",
	  "lore queries for mail commands"),
	I("cron.budget", "3000", "seconds after which no job is started"),
	I("cron.firstWindow", "86400", "seconds looked back on the first poll"),
	I("cron.overlap", "600", "seconds each poll overlaps the last"),
	I("cron.maxAttempts", "3", "attempts before a job is given up"),
	B("cron.buildAhead", "true", "after the queue, fetch the named trees "
	  "and build each branch head that moved (a job's base)"),
	I("cron.mergeScan", "500", "after the poll, fetch the named trees and "
	  "look at this many new commits of each branch for merged series "
	  "(0: none)"),

	/* retention and monitoring (gc.h, status.h) */
	I("gc.maxDiskBytes", "0", "bytes job.dir, build.cacheDir, ccache and "
	  "the lore cache may hold together; gc deletes past it (0: no budget)"),
	I("gc.keepJobs", "10", "the newest finished jobs gc never trims"),
	I("gc.keepDays", "0", "days after which gc deletes what it may "
	  "whatever the budget (0: never by age)"),
	I("gc.minFree", "0", "bytes free on build.cacheDir's file system "
	  "below which gc runs and no job starts (0: no floor); a build "
	  "that ran out of space and left less (unset: 64 MiB) is the "
	  "disk's failure, not the patch's"),
	I("status.maxPollAge", "7200", "seconds since the last poll after "
	  "which status says an operator is needed"),
	S("archive.dir", NULL,
	  "where archive writes HTML (unset: $XDG_DATA_HOME/sched-bot/"
	  "archive)"),
	S("archive.url", NULL,
	  "where the archive is served: each reply links its job's page, "
	  "check links it too (unset: no link, check gives file:// paths)"),

	/* lore */
	S("lore.url", "https://lore.kernel.org",
	  "any public-inbox; may hold user:password@ (never printed)"),
	I("lore.cacheMaxAge", "600",
	  "seconds a fetched thread is reused (0: no cache)"),
	I("lore.maxSize", "256", "largest thread accepted, MiB uncompressed"),
	I("lore.retries", "3",
	  "retries after a 5xx, a timeout or a refused connection"),
	I("lore.retryDelay", "500",
	  "milliseconds before the first retry (doubles each time)"),
	I("lore.timeout", "120", "seconds one request may take, retries "
	  "included (0: none)"),
	I("lore.connectTimeout", "10", "seconds to connect"),
	S("lore.caInfo", NULL, "CA bundle of an HTTPS lore with its own CA"),

	/* hostile input: budgets of one mail and one patch */
	I("mail.parseSeconds", "2", "CPU seconds the parser of one big or "
	  "many-part mail may use (in a child); more makes it poison"),
	I("mail.parseMemory", "1073741824",
	  "bytes of address space of that parser"),
	I("mail.maxSize", "67108864", "bytes of one mail parsed as MIME; a "
	  "bigger one is poison"),
	I("mail.maxDepth", "32", "MIME nesting of one mail; deeper is poison"),
	I("mail.maxParts", "1000", "MIME parts of one mail; more is poison"),
	I("apply.maxFiles", "5000", "files one patch may touch"),
	I("apply.maxPatchSize", "67108864", "bytes of one patch's diff"),
	I("apply.maxBlobSize", "134217728",
	  "bytes a binary patch's blob may inflate to"),
	I("series.maxPatches", "1000", "patches one series may have; a "
	  "series with more is refused whole, before anything is applied"),
	I("series.maxSize", "67108864", "bytes of all the diffs of one "
	  "series; more is refused whole, before anything is applied"),

	/* the kernel tree and build */
	S("tree.path", NULL, "the kernel repository (unset: "
	  "$XDG_DATA_HOME/sched-bot/linux.git)"),
	S("tree.tarball", "/usr/src/linux-source-6.1.tar.xz",
	  "what `tree init` imports"),
	S("tree.remote", NULL, "what `tree fetch` fetches"),
	S("tree.defaultBase", "HEAD",
	  "base when a series names none the tree has"),
	B("tree.fetchOnDemand", "true", "a job whose base is missing fetches "
	  "the named trees that may hold it"),
	I("tree.fetchTimeout", "300", "seconds one fetch of a named tree may "
	  "take (0: no limit); then it fails"),
	I("tree.guessDepth", "1000", "commits of each configured branch "
	  "searched for the blobs a series with no base was made on"),
	/* named trees: [tree "NAME"], one remote each in the repository */
	S("tree.*.url", NULL, "where the tree NAME is fetched from"),
	S("tree.*.branches", NULL, "its branches, blank-separated (unset: "
	  "all)"),
	S("tree.*.lists", NULL, "mailing lists whose series it may hold"),
	S("tree.*.paths", NULL, "path prefixes whose series it may hold"),
	S("build.cacheDir", NULL,
	  "built kernels (unset: $XDG_CACHE_HOME/sched-bot/builds)"),
	I("build.jobs", "2", "make -j"),
	B("build.ccache", NULL, "build with ccache (unset: when installed)"),
	S("build.cc", "gcc", "the compiler"),
	S("build.baseConfig", "tinyconfig",
	  "tinyconfig, defconfig, or a .config file"),
	S("build.fragmentDir", NULL, "where the config fragments live "
	  "(sched.config, qemu.config, machine.config, ...; unset: next to "
	  "the binary)"),
	S("build.ccacheDir", NULL,
	  "the bot's ccache (unset: $CCACHE_DIR, else ccache/ in the build "
	  "cache); untrusted builds write to it"),
	I("build.timeout", "10800", "seconds a whole build may take (0: no "
	  "limit); then it is killed and reported as failed"),
	I("build.maxLog", "268435456", "bytes of a build's output kept in its "
	  "log, all its make steps together; the cut is said"),
	I("build.maxDisk", "34359738368", "bytes a build may add to its O= "
	  "and the ccache it may write, measured while make runs (0: no "
	  "limit); past it the build is stopped and reported as failed; "
	  "more than this left there before is emptied first"),
	B("build.sandbox", "true", "run make and everything it runs in the "
	  "sandbox (false: unconfined, refused as root)"),
	S("sandbox.user", "nobody",
	  "the unprivileged user builds run as when the bot is root"),
	I("sandbox.memLimit", "4294967296",
	  "bytes of address space per sandboxed process (0: no limit)"),
	I("sandbox.maxProcs", "1024",
	  "processes of the sandbox's uid (0: no limit)"),
	I("sandbox.maxFileSize", "4294967296",
	  "bytes per file a sandboxed process writes (0: no limit)"),
	I("sandbox.tmpSize", "1073741824",
	  "bytes of the sandbox's /tmp, and of its /dev/shm, each with an "
	  "inode for every 16 KiB of it"),
	I("sandbox.memoryMax", "8589934592", "bytes of memory (its tmpfs "
	  "pages too, no swap) of each whole sandbox, in its cgroup; QEMU's "
	  "adds the guest's (0: no limit)"),
	I("sandbox.pidsMax", "4096", "processes of each whole sandbox, in "
	  "its cgroup (0: no limit)"),
	S("sandbox.cgroup", "auto", "where the sandboxes' cgroups are made: "
	  "auto (the bot's own, delegated or as root), a cgroup path (/...), "
	  "or none (the rlimits only)"),
	S("run.schedBench", NULL,
	  "the sched-bench binary (unset: next to sched-bot, then PATH)"),

	/* compare */
	S("compare.format", "simple", "format of `sched-bot compare`"),
	N("compare.minEffect", "2",
	  "smallest change, in percent, called a regression or an "
	  "improvement"),
	N("compare.alpha", "0.01", "family-wise level of the KPIs of a "
	  "comparison: the paired or Welch t-test, Holm-corrected over "
	  "the KPIs"),
	S("compare.pairing", "auto", "auto (runs of one file paired by run "
	  "number), paired or unpaired"),
	S("compare.alignmentControl", "-falign-functions=64",
	  "KCFLAGS of the alignment control: a confirmed regression is "
	  "measured again on base and patched built with them (and "
	  "DEBUG_FORCE_FUNCTION_ALIGNMENT_64B where the tree has it), and "
	  "not reported if it vanishes; off: no control"),
	N("compare.detect", "5", "adaptive runs: the change (%) to find or "
	  "exclude"),
	N("compare.rankAlpha", "0.05",
	  "Mann-Whitney U level that must agree"),
	N("compare.noisyPct", "10",
	  "noisy above this: the half-width of a 95% CI, in percent of "
	  "the mean (unpaired: of either side's mean; paired: of the "
	  "mean change of the blocks)"),

	/* targets: --target NAME reads [target "NAME"] */
	S("target.*.type", NULL, "qemu, ssh, lava or local (unset: NAME)"),
	I("target.*.smp", "2", "qemu: vCPUs"),
	I("target.*.sockets", NULL, "qemu: sockets the vCPUs are in (unset: 1)"),
	I("target.*.threads", NULL, "qemu: threads per core, SMT (unset: 1)"),
	I("target.*.numa", NULL, "qemu: NUMA nodes, each a contiguous range of "
	  "vCPUs with its share of .mem (unset: none)"),
	S("target.*.cpu", NULL, "qemu: the -cpu model (unset: QEMU's; kvm64 "
	  "shows TCG guests SMT)"),
	I("target.*.mem", "1024", "qemu: MB of memory"),
	I("target.*.timeout", NULL, "seconds before a boot's run is killed "
	  "as a timeout (unset: qemu: the whole guest, 120 + W x R x (3S + "
	  "10) + 120 x R per tool workload; ssh: the workloads after the "
	  "boot, 600; lava: the whole job, queueing too, 600 + W x R x (3S "
	  "+ 10); W workloads (each cell and sweep point one), R runs, S "
	  "seconds a run)"),
	I("target.*.maxConsole", "16777216", "bytes of what a boot sends back "
	  "that are read and kept (qemu: the console; ssh: the run's output "
	  "and stderr; lava: the job log's console lines); past them the "
	  "boot is stopped and the cut said"),
	B("target.*.vouch", NULL, "its numbers may vouch for a kernel: a "
	  "verdict to the list, a Tested-by (unset: ssh and lava boards "
	  "yes; qemu, a lava device of type qemu and local no)"),
	S("target.*.accel", "auto", "qemu: auto (probe KVM), kvm or tcg"),
	I("target.*.kvmProbeTimeout", "5", "qemu: seconds of the KVM probe"),
	S("target.*.qemu", "qemu-system-x86_64", "qemu: the emulator"),
	S("target.*.perf", "auto", "perf stat around every run, its counts diag.perf.* "
	  "rows: auto (local: perf on PATH; others: none), true (qemu, lava: "
	  "ship this machine's perf in the initramfs), false"),
	S("target.*.append", "", "qemu, ssh: more kernel command line (ssh: "
	  "after the machine's own, for the kernel under test)"),
	B("target.*.matchReporter", "false", "cut it down to the machine a "
	  "thread says it measured on: maxcpus= nr_cpus= (and mem=) on the "
	  "kernel command line when the thread states fewer CPUs (less "
	  "memory), never more; `plan` shows the words and why"),
	S("target.*.host", NULL, "ssh: the machine"),
	S("target.*.user", NULL, "ssh: the user (unset: ssh's default)"),
	S("target.*.identity", NULL, "ssh: the key file"),
	I("target.*.port", "22", "ssh: the port"),
	S("target.*.sshOptions", "", "ssh: more ssh options"),
	I("target.*.bootTimeout", "300", "ssh: seconds to come back up"),
	S("target.*.bootCommand",
	  "kexec -l {kernel}{initrd} --command-line={cmdline} && "
	  "{ sleep 1; kexec -e; } >/dev/null 2>&1 </dev/null &",
	  "ssh: how to boot {kernel} with {cmdline} (the machine's own minus "
	  "sched_bot.* words, then append and sched_bot.build=TOKEN) and "
	  "{initrd} ( --initrd=FILE)"),
	S("target.*.baseConfig", NULL, "the config its kernels are built from: "
	  "running (ssh: the machine's own /proc/config.gz or "
	  "/boot/config-RELEASE, taken once), a file or a make target "
	  "(unset: build.baseConfig)"),
	S("target.*.arch", "x86_64", "the architecture of its kernels: x86_64 "
	  "or arm64 (built with Debian's aarch64 cross compiler: ARCH=arm64, "
	  "an uncompressed Image)"),
	S("target.*.fragments", NULL, "config fragments merged onto its "
	  "base config, names in build.fragmentDir or files (unset: a "
	  "machine built from its own config gets only what the bot needs "
	  "there, ssh machine.config kexec.config, lava machine.config "
	  "initramfs.config; else sched.config qemu.config)"),
	S("target.*.initrd", NULL, "ssh: an initrd on the machine for the "
	  "kernel under test (unset: none)"),
	S("target.*.restoreCommand", "reboot",
	  "ssh: how to return to the machine's own kernel"),
	S("target.*.console", NULL, "ssh: how to read the machine's console "
	  "after a kernel did not come back: a file (/path, read from where "
	  "it ended before the boot) or a command run here"),
	S("target.*.powerCommand", NULL, "ssh: a command run here that "
	  "power-cycles the machine (BMC, PDU) when a kernel does not come "
	  "back; unset: such a machine is marked unhealthy at once"),
	S("target.*.remoteDir", "/tmp/sched-bot", "ssh: the working directory"),
	S("target.*.shipTools", "auto",
	  "ssh: copy hackbench/perf with their libraries: auto (when the "
	  "remote lacks them), always or never"),
	B("target.*.prepare", "false", "ssh, local: `target check` first sets "
	  "the performance governor on every CPU with cpufreq"),
	N("target.*.maxLoad", "0.5", "ssh, local: busy above this 1-minute "
	  "load average per CPU (`target check`, and before a job's runs)"),
	S("target.*.busy", "report", "ssh, local: a machine busy before a "
	  "job's runs: report (run, the reply says so) or refuse (stop "
	  "before the runs, exit 7; cron tries again later)"),
	S("target.*.url", NULL, "lava: the LAVA server"),
	S("target.*.tokenFile", NULL, "lava: a file holding the API token"),
	S("target.*.deviceType", "qemu",
	  "lava: device type; also the job template's name"),
	S("target.*.device", NULL,
	  "lava: pin one device (the lab tags it with its name)"),
	S("target.*.tags", NULL, "lava: comma-separated device tags"),
	S("target.*.jobTemplate", NULL,
	  "lava: job template (unset: templates/lava/TYPE.yaml)"),
	S("target.*.artifactDir", NULL,
	  "lava: where kernels are put for a remote worker"),
	S("target.*.artifactUrl", NULL,
	  "lava: artifactDir over HTTP (unset: file:// URLs)"),
	S("target.*.priority", "medium", "lava: job priority"),
	I("target.*.retries", "2", "lava: retries of an infrastructure failure"),
	I("target.*.pollInterval", "1000", "lava: ms between status polls"),
	I("target.*.httpTimeout", "30", "lava: seconds of one API request"),
	I("target.*.parallel", "1", "jobs cron runs at once on this target "
	  "(a lab with that many devices)"),
};

const size_t config_nr_keys = sizeof(config_keys) / sizeof(config_keys[0]);

/* "section.*.name" matches section.<anything>.name (section and name
 * ignore case, as in git); an empty subsection too, so that a target
 * with an empty name is a missing key, not a bug. */
static int key_matches(const char *pattern, const char *key)
{
	const char *star = strstr(pattern, ".*.");
	size_t pre, suf, len = strlen(key);

	if (!star)
		return !strcasecmp(pattern, key);
	pre = (size_t)(star - pattern) + 1;
	suf = strlen(star + 2);
	return len >= pre + suf && !strncasecmp(pattern, key, pre) &&
	       !strcasecmp(star + 2, key + len - suf);
}

const struct config_key *config_key_find(const char *key)
{
	size_t i;

	for (i = 0; i < config_nr_keys; i++)
		if (key_matches(config_keys[i].name, key))
			return &config_keys[i];
	return NULL;
}

const char *config_type_name(enum config_type t)
{
	switch (t) {
	case CONFIG_INT:
		return "int";
	case CONFIG_BOOL:
		return "bool";
	case CONFIG_NUMBER:
		return "number";
	case CONFIG_MULTI:
		return "multi";
	default:
		return "string";
	}
}
