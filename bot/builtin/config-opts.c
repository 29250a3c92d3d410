// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/config-opts.c - the configuration keys of each library module,
 * read into its options struct.  The keys' defaults are in the table
 * (config-keys.c), so these read them through config_get() like any
 * value.  No command here: the unit tests link this file beside the
 * library.
 */
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "b4check.h"
#include "blocks.h"
#include "build.h"
#include "builtin/config-opts.h"
#include "cgroup.h"
#include "compare.h"
#include "config-keys.h"
#include "config.h"
#include "cron.h"
#include "dkim.h"
#include "facts.h"
#include "gc.h"
#include "job.h"
#include "jobreply.h"
#include "kv.h"
#include "lore.h"
#include "mail.h"
#include "mailcmd.h"
#include "mailpolicy.h"
#include "moderation.h"
#include "outbox.h"
#include "reply.h"
#include "run.h"
#include "sandbox.h"
#include "secret.h"
#include "sequential.h"
#include "smtp.h"
#include "state.h"
#include "status.h"
#include "target/target.h"
#include "templates.h"
#include "tree.h"
#include "util.h"

void smtp_opts_from_config(struct smtp_opts *o)
{
	o->url = config_get("smtp.url");
	o->user = config_get("smtp.user");
	o->password = config_get("smtp.password");
	o->password_file = config_get("smtp.passwordFile");
	o->env_password = secret_env_password();
	o->tls = config_get("smtp.tls");
	o->cafile = config_get("smtp.caFile");
	o->from = config_get("smtp.from");
	o->timeout = config_get_int("smtp.timeout");
}

void apply_defaults_from_config(struct apply_defaults *d)
{
	d->limits.max_files = config_get_int("apply.maxFiles");
	d->limits.max_patch_size = config_get_int("apply.maxPatchSize");
	d->limits.max_blob_size = config_get_int("apply.maxBlobSize");
	d->limits.max_patches = config_get_int("series.maxPatches");
	d->limits.max_series_size = config_get_int("series.maxSize");
	d->bot_name = bot_identity()->name;
	d->bot_email = bot_identity()->email;
	d->default_base = config_get("tree.defaultBase");
	d->fetch_timeout = config_get_int("tree.fetchTimeout");
	d->guess_depth = config_get_int("tree.guessDepth");
}

void build_defaults_from_config(struct build_defaults *d)
{
	d->cc = config_get("build.cc");
	d->ccache = config_get_bool("build.ccache");
	d->base_config = config_get("build.baseConfig");
	d->jobs = (int)config_get_int("build.jobs");
	d->fragment_dir = config_get("build.fragmentDir");
	d->cache_dir = config_get("build.cacheDir");
	d->ccache_dir = config_get("build.ccacheDir");
	d->max_log = config_get_int("build.maxLog");
	d->max_disk = config_get_int("build.maxDisk");
	d->timeout = config_get_int("build.timeout");
	d->sandbox = config_get_bool("build.sandbox");
	d->min_free = config_get_int("gc.minFree");
}

void gc_opts_from_config(struct gc_opts *o)
{
	o->jobs_dir = config_get("job.dir");
	o->build_cache_dir = config_get("build.cacheDir");
	o->ccache_dir = config_get("build.ccacheDir");
	o->max_disk_bytes = config_get_int("gc.maxDiskBytes");
	o->min_free = config_get_int("gc.minFree");
	o->keep_days = config_get_int("gc.keepDays");
	o->keep_jobs = config_get_int("gc.keepJobs");
	o->poll_window = (long long)config_get_int("cron.firstWindow") +
			 config_get_int("cron.overlap");
}

void lore_opts_from_config(struct lore_opts *o)
{
	o->url = config_get("lore.url");
	o->cache_max_age = config_get_int("lore.cacheMaxAge");
	o->max_size = config_get_int_range("lore.maxSize", 1, 64 * 1024);
	o->retries = config_get_int("lore.retries");
	o->retry_delay = config_get_int("lore.retryDelay");
	o->timeout = config_get_int("lore.timeout");
	o->connect_timeout = config_get_int("lore.connectTimeout");
	o->cainfo = config_get("lore.caInfo");
}

void mail_limits_from_config(struct mail_limits *l)
{
	l->parse_seconds = config_get_int("mail.parseSeconds");
	l->parse_memory = config_get_int("mail.parseMemory");
	l->max_size = config_get_int("mail.maxSize");
	l->max_depth = config_get_int("mail.maxDepth");
	l->max_parts = config_get_int("mail.maxParts");
}

void outbox_opts_from_config(struct outbox_opts *o)
{
	o->dir = config_get("outbox.dir");
	o->max_per_hour = config_get_int("bot.maxPerHour");
	o->max_per_day = config_get_int("bot.maxPerDay");
	o->max_per_thread = config_get_int("bot.maxPerThread");
	o->max_rcpt_per_hour = config_get_int("bot.maxRecipientsPerHour");
	o->max_rcpt_per_day = config_get_int("bot.maxRecipientsPerDay");
	o->max_recipients = config_get_int("reply.maxRecipients");
	o->max_age = config_get_int("outbox.maxAge");
	o->check_lore = config_get_bool("outbox.checkLore") > 0;
}

void state_opts_from_config(struct state_opts *o)
{
	o->db = config_get("state.db");
}

void run_opts_from_config(struct run_opts *o)
{
	o->sched_bench = config_get("run.schedBench");
}

void cgroup_opts_from_config(struct cgroup_opts *o)
{
	o->where = config_get("sandbox.cgroup");
}

void sandbox_opts_from_config(struct sandbox_opts *o)
{
	o->user = config_get("sandbox.user");
	o->mem_limit = config_get_int("sandbox.memLimit");
	o->max_procs = config_get_int("sandbox.maxProcs");
	o->max_file_size = config_get_int("sandbox.maxFileSize");
	o->tmp_size = config_get_int("sandbox.tmpSize");
	o->memory_max = config_get_int("sandbox.memoryMax");
	o->pids_max = config_get_int("sandbox.pidsMax");
}

void secret_opts_from_config(struct secret_opts *o)
{
	o->smtp_password = config_get("smtp.password");
	o->smtp_password_file = config_get("smtp.passwordFile");
	o->lore_url = config_get("lore.url");
	o->smtp_url = config_get("smtp.url");
}

/* Blank- or comma-separated words of a config value. */
static void split_words(const char *v, char ***out, size_t *nr)
{
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	while (v && *v) {
		size_t n;

		v += strspn(v, " \t,");
		n = strcspn(v, " \t,");
		if (!n)
			break;
		ALLOC_GROW(*out, *nr, alloc);
		(*out)[(*nr)++] = xstrndup(v, n);
		v += n;
	}
}

/* fmt is the key with %s for NAME, spelled out so that the check of
 * the key table finds it. */
static const char *remote_key(const char *name, const char *fmt)
{
	char *k = xasprintf(fmt, name);
	const char *v = config_get(k);

	free(k);
	return v;
}

static int add_remote(const char *name, void *data)
{
	struct tree_remotes *t = data;
	const char *url = remote_key(name, "tree.%s.url");
	struct tree_remote *r;

	if (!url || !*url) {
		warning("[tree \"%s\"] has no url; ignored", name);
		return 0;
	}
	t->v = xrealloc(t->v, (t->nr + 1) * sizeof(*t->v));
	r = &t->v[t->nr++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->url = xstrdup(url);
	split_words(remote_key(name, "tree.%s.branches"), &r->branches,
		    &r->nr_branches);
	split_words(remote_key(name, "tree.%s.lists"), &r->lists, &r->nr_lists);
	split_words(remote_key(name, "tree.%s.paths"), &r->paths, &r->nr_paths);
	return 0;
}

static struct tree_remotes remotes;

void tree_opts_from_config(struct tree_opts *o)
{
	tree_remotes_release(&remotes);
	memset(&remotes, 0, sizeof(remotes));
	config_subsections("tree", add_remote, &remotes);
	o->path = config_get("tree.path");
	o->remotes = &remotes;
}


static struct kv target_set;

static int add_target(const char *name, void *data)
{
	const char *prefix = "target.*.";
	size_t i, len = strlen(prefix);

	for (i = 0; i < config_nr_keys; i++) {
		const char *key = config_keys[i].name;
		char *k;
		const char *v;

		if (strncmp(key, prefix, len))
			continue;
		k = xasprintf("target.%s.%s", name, key + len);
		v = config_get_set(k);
		if (v)
			kv_set(&target_set, k, v);
		free(k);
	}
	return 0;
}

void target_opts_from_config(struct target_opts *o)
{
	kv_release(&target_set);
	config_subsections("target", add_target, NULL);
	o->set = &target_set;
}

void dkim_opts_from_config(struct dkim_opts *o)
{
	o->key_file = config_get("dkim.keyFile");
}

void status_opts_from_config(struct status_opts *o)
{
	o->max_poll_age = config_get_int("status.maxPollAge");
	o->target = config_get("job.target");
}

void b4check_opts_from_config(struct b4check_opts *o)
{
	o->jobs_dir = config_get("job.dir");
	o->archive_url = config_get("archive.url");
}

void compare_defaults_from_config(struct compare_defaults *d)
{
	d->min_effect = config_get_number("compare.minEffect");
	d->alpha = config_get_number("compare.alpha");
	d->rank_alpha = config_get_number("compare.rankAlpha");
	d->noisy_pct = config_get_number("compare.noisyPct");
	d->pairing = config_get("compare.pairing");
}

void seq_defaults_from_config(struct seq_defaults *d)
{
	d->min_blocks = (int)config_get_int("job.minRuns");
	d->max_blocks = (int)config_get_int("job.maxRuns");
	d->alpha = config_get_number("compare.alpha");
	d->guard_alpha = config_get_number("compare.rankAlpha");
	d->min_effect = config_get_number("compare.minEffect");
	d->detect = config_get_number("compare.detect");
	d->noisy_pct = config_get_number("compare.noisyPct");
}

void job_defaults_from_config(struct job_defaults *d)
{
	d->fetch_on_demand = config_get_bool("tree.fetchOnDemand") > 0;
	d->dir = config_get("job.dir");
	d->target = config_get("job.target");
	d->workloads = config_get("bot.workloads");
	d->runs = (int)config_get_int("bot.runs");
	d->quiet = config_get_bool("bot.quiet") > 0;
	d->alignment = config_get("compare.alignmentControl");
	d->profile = config_get_bool("job.profile") > 0;
}

void blocks_opts_from_config(struct blocks_opts *o)
{
	o->seconds = (int)config_get_int("job.seconds");
	o->spawn_gap = (int)config_get_int("job.spawnGap");
	o->warmup = (int)config_get_int("job.warmup");
	o->format = config_get("reply.format");
}

void jobreply_opts_from_config(struct jobreply_opts *o)
{
	o->tree_remote = config_get("tree.remote");
	o->tree_tarball = config_get("tree.tarball");
	o->tree_path_set = config_is_set("tree.path");
	o->build_cc = config_get("build.cc");
	o->base_config = config_get("build.baseConfig");
	o->bot_name = bot_identity()->name;
	o->bot_email = bot_identity()->email;
	o->quote_lines = (int)config_get_int("reply.quoteLines");
	o->signature = config_get("reply.signature");
	o->archive_url = config_get("archive.url");
}

void facts_opts_from_config(struct facts_opts *o)
{
	o->bot_email = config_get("bot.email");
}

void tmpl_dirs_from_config(struct tmpl_dirs *d)
{
	d->dir = config_get("templates.dir");
}

/*
 * A multi-valued key's values, copied: config_get_all() hands out the
 * file's values only while it iterates over them.
 */
struct values {
	char **v;
	size_t nr, alloc;
};

static int values_cb(const char *value, void *data)
{
	struct values *vs = data;

	ALLOC_GROW(vs->v, vs->nr, vs->alloc);
	vs->v[vs->nr++] = xstrdup(value);
	return 0;
}

/* Emptied for each reading; the last one's copies are kept until then. */
static struct values *values_reset(struct values *vs)
{
	while (vs->nr)
		free(vs->v[--vs->nr]);
	return vs;
}

static struct values allow, lists, moderators;
static struct values queries, command_queries;

void cron_defaults_from_config(struct cron_defaults *d)
{
	char *k = xasprintf("target.%s.parallel", config_get("job.target"));

	config_get_all("cron.query", values_cb, values_reset(&queries));
	config_get_all("cron.commandQuery", values_cb,
		       values_reset(&command_queries));
	d->bot_email = bot_identity()->email;
	d->workloads = config_get("bot.workloads");
	d->known_workloads = config_get("bot.knownWorkloads");
	d->signature = config_get("reply.signature");
	d->max_jobs_per_sender = config_get_int("bot.maxJobsPerSender");
	d->max_jobs_per_day = config_get_int("bot.maxJobsPerDay");
	d->target = config_get("job.target");
	d->parallel = config_get_int(k);
	d->max_attempts = config_get_int("cron.maxAttempts");
	d->budget = config_get_int("cron.budget");
	d->overlap = config_get_int("cron.overlap");
	d->first_window = config_get_int("cron.firstWindow");
	d->queries = (const char *const *)queries.v;
	d->nr_queries = queries.nr;
	d->command_queries = (const char *const *)command_queries.v;
	d->nr_command_queries = command_queries.nr;
	d->build_ahead = config_get_bool("cron.buildAhead");
	d->merge_scan = config_get_int("cron.mergeScan");
	d->fetch_timeout = config_get_int("tree.fetchTimeout");
	d->gc_min_free = config_get_int("gc.minFree");
	d->gc_max_disk_bytes = config_get_int("gc.maxDiskBytes");
	d->gc_keep_days = config_get_int("gc.keepDays");
	free(k);
}

void mailcmd_opts_from_config(struct mailcmd_opts *o)
{
	config_get_all("bot.allow", values_cb, values_reset(&allow));
	config_get_all("bot.moderators", values_cb,
		       values_reset(&moderators));
	o->bot_email = bot_identity()->email;
	o->allow = (const char *const *)allow.v;
	o->nr_allow = allow.nr;
	o->moderators = (const char *const *)moderators.v;
	o->nr_moderators = moderators.nr;
	o->known_workloads = config_get("bot.knownWorkloads");
	o->max_runs = config_get_int("bot.maxRuns");
}

/* After mailcmd_opts_from_config(): bot.moderators is read there. */
void moderation_opts_from_config(struct moderation_opts *o)
{
	o->mode = config_get("bot.moderation");
	o->moderators = (const char *const *)moderators.v;
	o->nr_moderators = moderators.nr;
	o->hold_days = config_get_int("bot.holdDays");
	o->bot_name = bot_identity()->name;
	o->bot_email = bot_identity()->email;
	o->signature = config_get("reply.signature");
}

/* After mailcmd_opts_from_config(): bot.moderators is read there. */
void mailpolicy_opts_from_config(struct mailpolicy_opts *o)
{
	o->emulated = config_get("reply.emulated");
	o->nr_moderators = moderators.nr;
}

void reply_opts_from_config(struct reply_opts *o)
{
	config_get_all("reply.list", values_cb, values_reset(&lists));
	o->bot_name = bot_identity()->name;
	o->bot_email = bot_identity()->email;
	o->cc = config_get("reply.cc");
	o->max_recipients = config_get_int("reply.maxRecipients");
	o->lists = (const char *const *)lists.v;
	o->nr_lists = lists.nr;
	o->template_dir = config_get("reply.templateDir");
	o->contact = config_get("bot.contact");
}
