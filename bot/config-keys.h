/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config-keys.h - the table of every configuration key sched-bot reads:
 * its type, its default, whether it is a secret, and one help line.
 * config_get() and friends take their defaults from it and refuse a
 * key that is not in it; `sched-bot config --list --all` prints it.
 */
#ifndef SCHED_BOT_CONFIG_KEYS_H
#define SCHED_BOT_CONFIG_KEYS_H

#include <stddef.h>

enum config_type {
	CONFIG_STRING,
	CONFIG_INT,		/* with k, M, G suffixes */
	CONFIG_BOOL,
	CONFIG_NUMBER,		/* a non-negative decimal, "%" allowed */
	CONFIG_MULTI,		/* a string that may be given many times */
};

struct config_key {
	/* "lore.url"; "target.*.smp" for [target "NAME"] smp */
	const char *name;
	enum config_type type;
	/* NULL: no default, the code decides (the help line says how) */
	const char *def;
	int secret;		/* never printed */
	const char *help;
};

extern const struct config_key config_keys[];
extern const size_t config_nr_keys;

/* The entry for a key ("target.qemu.smp" finds "target.*.smp"), or NULL. */
const struct config_key *config_key_find(const char *key);

/* "bool", "int", ... */
const char *config_type_name(enum config_type t);

#endif
