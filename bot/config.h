/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - sched-bot's configuration, in git-config format and read
 * with libgit2 (like b4's [b4] section).  The file is
 * $XDG_CONFIG_HOME/sched-bot/config unless --config FILE is given;
 * SCHED_BOT_CONFIG in the environment names it too.
 *
 * Keys use git's dotted names: "lore.url", "target.qemu.smp" for
 * [target "qemu"] smp = 2, and so on.  Every key has a default here so
 * the tool works with no file at all.
 */
#ifndef SCHED_BOT_CONFIG_H
#define SCHED_BOT_CONFIG_H

/* Load the file (NULL: the default location; a missing default is fine). */
int config_load(const char *path);
void config_free(void);
const char *config_path(void);

/* The value, or def when unset.  Strings stay valid until config_free(). */
const char *config_get(const char *key, const char *def);
long config_get_int(const char *key, long def);
int config_get_bool(const char *key, int def);
/* Multi-valued keys (e.g. cron.query): calls fn for each value. */
int config_get_all(const char *key,
		   int (*fn)(const char *value, void *data), void *data);
/* Set a value for this process only (command-line overrides, tests). */
void config_set_override(const char *key, const char *value);

/*
 * A number that changes whenever the configuration may have: a load, a
 * free, an override.  Caches of config values (secret.c) compare it.
 */
unsigned config_generation(void);

/* Write every key = value, secrets masked, to stdout. */
int config_list(void);

#endif
