/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kv.h - the one key/value map: an ordered list of string pairs, both
 * copied.  Template variables, a job's state file and a workload's
 * parsed output all use it.  Lookups are linear: the maps hold tens of
 * keys, and the order of insertion is kept for the files written.
 */
#ifndef SCHED_BOT_KV_H
#define SCHED_BOT_KV_H

#include <stddef.h>

#include "util.h"

struct kv {
	char **keys;
	char **vals;
	size_t nr, alloc;
};

#define KV_INIT { NULL, NULL, 0, 0 }

/* Set (or replace) key; a NULL val is stored as "". */
void kv_set(struct kv *v, const char *key, const char *val);
void kv_setf(struct kv *v, const char *key, const char *fmt, ...)
	PRINTF(3, 4);
/* The value, or NULL when key is not set. */
const char *kv_get(const struct kv *v, const char *key);
void kv_release(struct kv *v);

#endif
