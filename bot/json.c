// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - streaming JSON writer.
 */
#include <math.h>
#include <string.h>

#include "json.h"

void json_init(struct json *j, struct strbuf *out, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
}

void json_quote(struct strbuf *out, const char *s, size_t n)
{
	size_t i;

	strbuf_addch(out, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"':
			strbuf_addstr(out, "\\\"");
			break;
		case '\\':
			strbuf_addstr(out, "\\\\");
			break;
		case '\n':
			strbuf_addstr(out, "\\n");
			break;
		case '\t':
			strbuf_addstr(out, "\\t");
			break;
		case '\r':
			strbuf_addstr(out, "\\r");
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				strbuf_addf(out, "\\u%04x", c);
			else
				strbuf_addch(out, c);
		}
	}
	strbuf_addch(out, '"');
}

static void indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	strbuf_addch(j->out, '\n');
	for (i = 0; i < j->depth; i++)
		strbuf_addstr(j->out, "  ");
}

static void prefix(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->need_comma[j->depth])
			strbuf_addch(j->out, ',');
		j->need_comma[j->depth] = 1;
		indent(j);
	}
	if (key) {
		json_quote(j->out, key, strlen(key));
		strbuf_addstr(j->out, j->pretty ? ": " : ":");
	}
}

static void open(struct json *j, const char *key, char c)
{
	prefix(j, key);
	strbuf_addch(j->out, c);
	if (j->depth + 1 >= (int)ARRAY_SIZE(j->need_comma))
		die("json: nesting too deep");
	j->depth++;
	j->need_comma[j->depth] = 0;
}

static void close_(struct json *j, char c)
{
	int had = j->need_comma[j->depth];

	j->depth--;
	if (had)
		indent(j);
	strbuf_addch(j->out, c);
	if (!j->depth && j->pretty)
		strbuf_addch(j->out, '\n');
}

void json_object_begin(struct json *j, const char *key)
{
	open(j, key, '{');
}

void json_object_end(struct json *j)
{
	close_(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	open(j, key, '[');
}

void json_array_end(struct json *j)
{
	close_(j, ']');
}

void json_string(struct json *j, const char *key, const char *value)
{
	if (!value) {
		json_null(j, key);
		return;
	}
	json_stringn(j, key, value, strlen(value));
}

void json_stringn(struct json *j, const char *key, const char *v, size_t n)
{
	prefix(j, key);
	json_quote(j->out, v, n);
}

void json_int(struct json *j, const char *key, long long value)
{
	prefix(j, key);
	strbuf_addf(j->out, "%lld", value);
}

void json_double(struct json *j, const char *key, double value)
{
	if (!isfinite(value)) {
		json_null(j, key);
		return;
	}
	prefix(j, key);
	strbuf_addf(j->out, "%.6g", value);
}

void json_bool(struct json *j, const char *key, int value)
{
	prefix(j, key);
	strbuf_addstr(j->out, value ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	prefix(j, key);
	strbuf_addstr(j->out, "null");
}

void json_person(struct json *j, const char *key, const char *name,
		 const char *email)
{
	json_object_begin(j, key);
	json_string(j, "name", name);
	json_string(j, "email", email);
	json_object_end(j);
}
