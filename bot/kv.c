// SPDX-License-Identifier: GPL-2.0
/*
 * kv.c - the key/value map of kv.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kv.h"

void kv_set(struct kv *v, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		if (!strcmp(v->keys[i], key)) {
			free(v->vals[i]);
			v->vals[i] = xstrdup(val ? val : "");
			return;
		}
	}
	if (v->nr >= v->alloc) {
		v->alloc = v->alloc ? 2 * v->alloc : 16;
		v->keys = xrealloc(v->keys, v->alloc * sizeof(*v->keys));
		v->vals = xrealloc(v->vals, v->alloc * sizeof(*v->vals));
	}
	v->keys[v->nr] = xstrdup(key);
	v->vals[v->nr] = xstrdup(val ? val : "");
	v->nr++;
}

void kv_setf(struct kv *v, const char *key,
	     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	kv_set(v, key, sb.buf);
	strbuf_release(&sb);
}

const char *kv_get(const struct kv *v, const char *key)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->keys[i], key))
			return v->vals[i];
	return NULL;
}

void kv_release(struct kv *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		free(v->keys[i]);
		free(v->vals[i]);
	}
	free(v->keys);
	free(v->vals);
	memset(v, 0, sizeof(*v));
}
