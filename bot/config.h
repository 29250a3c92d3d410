/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - sched-bot's configuration, in git-config format and read
 * with libgit2 (like b4's [b4] section).  The file is
 * $XDG_CONFIG_HOME/sched-bot/config unless --config FILE is given;
 * SCHED_BOT_CONFIG in the environment names it too.
 *
 * Keys use git's dotted names: "lore.url", "target.qemu.smp" for
 * [target "qemu"] smp = 2, and so on.  Every key is in the table of
 * config-keys.c, with its default there and nowhere else, so the tool
 * works with no file at all.  The tool reads the configuration once at
 * start-up into each module's options (lore_configure() and friends);
 * the getters below are for that, and for the keys no module groups.
 */
#ifndef SCHED_BOT_CONFIG_H
#define SCHED_BOT_CONFIG_H

/* Load the file (NULL: the default location; a missing default is fine). */
int config_load(const char *path);
void config_free(void);
const char *config_path(void);

/*
 * The value of key, else the table's default (NULL when it has none).
 * A key missing from the table is a bug in the caller: it dies.
 * Strings stay valid until config_free().
 */
const char *config_get(const char *key);
/* As a number with k, M, G suffixes; a bad value warns and gives the
 * default.  No value and no default: 0.
 */
long config_get_int(const char *key);
/* A value as config_get_int() reads it, for options handed down as
 * text (a target's): 0, or -1 when it is not a number.
 */
int config_parse_int(const char *v, long *out);
/* A boolean (1, 0; -1: not one) and a number (0, -1: not one, or
 * negative) as config_get_bool() and config_get_number() read them.
 */
int config_parse_bool(const char *v);
int config_parse_number(const char *v, double *out);
/* The same, and a value outside [min, max] warns and gives the default. */
long config_get_int_range(const char *key, long min, long max);
/* For a key whose default the code computes (none in the table): the
 * value, or def when unset or bad.
 */
long config_get_int_or(const char *key, long def);
/* true/yes/on/1, false/no/off/0.  No value and no default: -1. */
int config_get_bool(const char *key);
/* A non-negative decimal ("2", "0.01", "10%"); no default: 0. */
double config_get_number(const char *key);
/* Whether the file or an override sets key (a default does not count). */
int config_is_set(const char *key);
/* Multi-valued keys (e.g. cron.query): fn for each value, or for the
 * default when none is set; stops at the first nonzero return.
 */
int config_get_all(const char *key,
		   int (*fn)(const char *value, void *data), void *data);
/* The value the file or an override sets, for any key, in the table or
 * not (`config --get`); NULL when unset.
 */
const char *config_get_set(const char *key);
/*
 * fn for each NAME of the [section "NAME"] blocks that the file or an
 * override has (e.g. the named trees of [tree "tip"]), each once.
 */
int config_subsections(const char *section,
		       int (*fn)(const char *name, void *data), void *data);
/* Set a value for this process only (command-line overrides, tests). */
void config_set_override(const char *key, const char *value);

/* Who the bot is, for From:, Tested-by: and commits: bot.name and
 * bot.email are read here and nowhere else.
 */
struct bot_identity {
	const char *name;
	const char *email;
};
const struct bot_identity *bot_identity(void);

/*
 * Write every key = value set, secrets masked, to stdout, each key as
 * the table spells it ("lore.cacheMaxAge", not git's lower case).
 */
int config_list(void);
/* Every key of the table, "key=value<TAB>source" (default, file,
 * override, unset), then the keys set that the table does not know.
 */
int config_list_all(void);
/* The table: each key's type, default and help line. */
void config_list_keys(void);

/*
 * config_load() warns of each key the file sets that the table does
 * not have, naming the nearest known key (a typo is otherwise silently
 * a default); this is how many there were.
 */
int config_nr_unknown(void);
/* Warn of each value set that is not of its key's type; how many. */
int config_check_values(void);

#endif
