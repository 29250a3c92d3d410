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

struct outbox_opts;
struct smtp_opts;

void smtp_opts_from_config(struct smtp_opts *o);
void outbox_opts_from_config(struct outbox_opts *o);

#endif
