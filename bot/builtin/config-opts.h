/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin/config-opts.h - each library module's options, filled from
 * the configuration (curl's config2setopts).  The library never reads
 * the configuration itself (tests/check-config); the tool calls these
 * at start-up (config_to_library()) or where a command needs them, and
 * hands the structs down.  Strings stay valid until config_free().
 */
#ifndef SCHED_BOT_BUILTIN_CONFIG_OPTS_H
#define SCHED_BOT_BUILTIN_CONFIG_OPTS_H

struct apply_defaults;
struct b4check_opts;
struct blocks_opts;
struct build_defaults;
struct cgroup_opts;
struct compare_defaults;
struct cron_defaults;
struct dkim_opts;
struct facts_opts;
struct gc_opts;
struct job_defaults;
struct mail_limits;
struct mailcmd_opts;
struct moderation_opts;
struct jobreply_opts;
struct lore_opts;
struct outbox_opts;
struct reply_opts;
struct run_opts;
struct sandbox_opts;
struct secret_opts;
struct seq_defaults;
struct smtp_opts;
struct state_opts;
struct status_opts;
struct target_opts;
struct tmpl_dirs;
struct tree_opts;

void smtp_opts_from_config(struct smtp_opts *o);
void apply_defaults_from_config(struct apply_defaults *d);
void build_defaults_from_config(struct build_defaults *d);
void gc_opts_from_config(struct gc_opts *o);
void lore_opts_from_config(struct lore_opts *o);
/* mail.parseSeconds, mail.parseMemory, mail.maxSize, mail.maxDepth... */
void mail_limits_from_config(struct mail_limits *l);
void outbox_opts_from_config(struct outbox_opts *o);
void state_opts_from_config(struct state_opts *o);
void run_opts_from_config(struct run_opts *o);
void cgroup_opts_from_config(struct cgroup_opts *o);
void sandbox_opts_from_config(struct sandbox_opts *o);
void secret_opts_from_config(struct secret_opts *o);
/* The [tree "NAME"] blocks are kept here, until the next call. */
void tree_opts_from_config(struct tree_opts *o);
/* The values set are kept here (copied), until the next call. */
void target_opts_from_config(struct target_opts *o);
void dkim_opts_from_config(struct dkim_opts *o);
void compare_defaults_from_config(struct compare_defaults *d);
void seq_defaults_from_config(struct seq_defaults *d);
void job_defaults_from_config(struct job_defaults *d);
void blocks_opts_from_config(struct blocks_opts *o);
void jobreply_opts_from_config(struct jobreply_opts *o);
void facts_opts_from_config(struct facts_opts *o);
/* bot.allow is kept here (copied), until the next call. */
void mailcmd_opts_from_config(struct mailcmd_opts *o);
/* Its bot.moderators is mailcmd_opts_from_config()'s copy: call it first. */
void moderation_opts_from_config(struct moderation_opts *o);
struct mailpolicy_opts;
void mailpolicy_opts_from_config(struct mailpolicy_opts *o);
void tmpl_dirs_from_config(struct tmpl_dirs *d);
/* reply.list is kept here (copied), until the next call. */
void reply_opts_from_config(struct reply_opts *o);
/* cron.query and cron.commandQuery are kept here (copied), until the
 * next call.
 */
void cron_defaults_from_config(struct cron_defaults *d);
void status_opts_from_config(struct status_opts *o);
/* Its configured fields; the command sets the rest. */
void b4check_opts_from_config(struct b4check_opts *o);

#endif
