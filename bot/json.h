/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a streaming JSON writer (output only: sched-bot reads its
 * own state from CSV, mail and SQLite, never from JSON).
 */
#ifndef SCHED_BOT_JSON_H
#define SCHED_BOT_JSON_H

#include "util.h"

struct json {
	struct strbuf *out;
	int depth;
	int need_comma[32];
	int pretty;
};

void json_init(struct json *j, struct strbuf *out, int pretty);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
/* key is NULL inside arrays. */
void json_string(struct json *j, const char *key, const char *value);
void json_stringn(struct json *j, const char *key, const char *v, size_t n);
void json_int(struct json *j, const char *key, long long value);
void json_double(struct json *j, const char *key, double value);
void json_bool(struct json *j, const char *key, int value);
void json_null(struct json *j, const char *key);
/* A person as every file of the bot writes one: {"name", "email"}. */
void json_person(struct json *j, const char *key, const char *name,
		 const char *email);
/* Append s as a quoted JSON string (UTF-8 passes through, controls escaped). */
void json_quote(struct strbuf *out, const char *s, size_t n);

#endif
