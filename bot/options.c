// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - parse a command line by its option table, and print the
 * same table as help, man page and completion list (see options.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

#define HELP_INDENT 4
#define HELP_COLUMN 26		/* where the help lines start */
#define HELP_WIDTH 79

static const struct option_spec help_option =
	OPT_FLAG('h', "help", NULL, "show this help");

static int is_option(const struct option_spec *o)
{
	return o->kind != OPTION_END && o->kind != OPTION_GROUP;
}

static int takes_arg(const struct option_spec *o)
{
	return o->argh != NULL;
}

const char *option_name(const struct option_spec *opt)
{
	static char buf[64];

	if (opt->long_name)
		snprintf(buf, sizeof(buf), "--%s", opt->long_name);
	else
		snprintf(buf, sizeof(buf), "-%c", opt->short_name);
	return buf;
}

int option_parse_integer(const char *name, const char *arg, long long min,
			 long long max, long long *out)
{
	const char *p = arg;
	long long v;
	char *end;

	if (*p == '-')
		p++;
	if (!*p || strspn(p, "0123456789") != strlen(p))
		return error("%s: '%s' is not a whole number", name, arg);
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno == ERANGE || v < min || v > max) {
		if (max == LLONG_MAX)
			return error("%s: '%s' must be at least %lld", name,
				     arg, min);
		return error("%s: '%s' must be %lld..%lld", name, arg, min,
			     max);
	}
	*out = v;
	return 0;
}

static void print_synopsis(const struct options_doc *doc, FILE *f)
{
	const char *const *s;
	const char *prefix = "usage:";

	for (s = doc->synopsis; s && *s; s++) {
		/* a line that starts with a blank continues the one before */
		if (**s == ' ') {
			fprintf(f, "%*s%s\n", (int)(strlen(prefix) +
				strlen(progname) + 1), "", *s);
			continue;
		}
		fprintf(f, "%s %s %s\n", prefix, progname, *s);
		prefix = "   or:";
	}
	if (!doc->synopsis || !*doc->synopsis)
		fprintf(f, "usage: %s %s [<options>]\n", progname,
			doc->name ? doc->name : "");
}

static void help_hint(const struct options_doc *doc, FILE *f)
{
	if (doc->name)
		fprintf(f, "'%s help %s' shows the options.\n", progname,
			doc->name);
	else
		fprintf(f, "'%s help' lists the commands and options.\n",
			progname);
}

static int parse_error(const struct options_doc *doc)
{
	print_synopsis(doc, stderr);
	help_hint(doc, stderr);
	return PARSE_OPT_ERROR;
}

int options_error(const struct options_doc *doc, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", sb.buf);
	strbuf_release(&sb);
	parse_error(doc);
	return EXIT_USAGE;
}

static int has_own_help(const struct options_doc *doc)
{
	const struct option_spec *o;

	for (o = doc->options; o && o->kind != OPTION_END; o++)
		if (is_option(o) && (o->short_name == 'h' ||
				     (o->long_name &&
				      !strcmp(o->long_name, "help"))))
			return 1;
	return 0;
}

int options_check(const struct options_doc *doc)
{
	const struct option_spec *o, *p;
	int ret = 0;

	for (o = doc->options; o && o->kind != OPTION_END; o++) {
		const char *n = o->long_name ? o->long_name : "?";

		if (!o->help || !*o->help)
			ret = error("BUG: %s: option %s has no help line",
				    doc->name ? doc->name : progname, n);
		if (!is_option(o))
			continue;
		if (!o->short_name && !o->long_name)
			ret = error("BUG: an option without a name");
		if ((o->kind == OPTION_FLAG || o->kind == OPTION_SET_INT) &&
		    o->argh)
			ret = error("BUG: flag %s takes no argument", n);
		if ((o->kind == OPTION_STRING || o->kind == OPTION_INTEGER) &&
		    !o->argh)
			ret = error("BUG: %s needs an argument name", n);
		if (o->kind == OPTION_INTEGER && o->size != sizeof(int) &&
		    o->size != sizeof(long) && o->size != sizeof(long long))
			ret = error("BUG: %s is no integer", n);
		if (o->kind == OPTION_CALLBACK && !o->callback)
			ret = error("BUG: %s has no callback", n);
		for (p = doc->options; p != o; p++) {
			if (!is_option(p))
				continue;
			if (o->short_name && p->short_name == o->short_name)
				ret = error("BUG: -%c is in the table twice",
					    o->short_name);
			if (o->long_name && p->long_name &&
			    !strcmp(o->long_name, p->long_name))
				ret = error("BUG: --%s is in the table twice",
					    o->long_name);
		}
	}
	return ret;
}

static int store_integer(const struct option_spec *o, const char *arg)
{
	long long v, lo = o->min, hi = o->max;

	if (o->size == sizeof(int)) {
		lo = lo < INT_MIN ? INT_MIN : lo;
		hi = hi > INT_MAX ? INT_MAX : hi;
	} else if (o->size == sizeof(long)) {
		lo = lo < LONG_MIN ? LONG_MIN : lo;
		hi = hi > LONG_MAX ? LONG_MAX : hi;
	}
	if (option_parse_integer(option_name(o), arg, lo, hi, &v) < 0)
		return -1;
	if (o->size == sizeof(int))
		*(int *)o->value = (int)v;
	else if (o->size == sizeof(long))
		*(long *)o->value = (long)v;
	else
		*(long long *)o->value = v;
	return 0;
}

static int apply(const struct option_spec *o, const char *arg)
{
	switch (o->kind) {
	case OPTION_FLAG:
		*(int *)o->value = 1;
		return 0;
	case OPTION_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_INTEGER:
		return store_integer(o, arg);
	case OPTION_CALLBACK:
		return o->callback(o, arg);
	default:
		return error("BUG: option kind %d", o->kind);
	}
}

/* The option called name (len bytes): exact, else a unique prefix. */
static const struct option_spec *find_long(const struct options_doc *doc,
					   const char *name, size_t len)
{
	const struct option_spec *o, *found = NULL;
	int nr = 0;

	for (o = doc->options; o && o->kind != OPTION_END; o++) {
		if (!is_option(o) || !o->long_name ||
		    strncmp(o->long_name, name, len))
			continue;
		if (!o->long_name[len])
			return o;
		found = o;
		nr++;
	}
	if (nr > 1) {
		struct strbuf sb = STRBUF_INIT;

		for (o = doc->options; o && o->kind != OPTION_END; o++)
			if (is_option(o) && o->long_name &&
			    !strncmp(o->long_name, name, len))
				strbuf_addf(&sb, " --%s", o->long_name);
		error("option '--%.*s' is ambiguous:%s", (int)len, name,
		      sb.buf);
		strbuf_release(&sb);
		return NULL;
	}
	if (!found)
		error("unknown option '--%.*s'", (int)len, name);
	return found;
}

static const struct option_spec *find_short(const struct options_doc *doc,
					    int c)
{
	const struct option_spec *o;

	for (o = doc->options; o && o->kind != OPTION_END; o++)
		if (is_option(o) && o->short_name == c)
			return o;
	if (c >= 0x20 && c < 0x7f)
		error("unknown option '-%c'", c);
	else
		error("unknown option '-\\x%02x'", c & 0xff);
	return NULL;
}

static int parse_long(const struct options_doc *doc, const char *a,
		      char **next, int *used)
{
	const char *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option_spec *o;
	const char *arg = NULL;

	if (!has_own_help(doc) && !strcmp(name, "help"))
		return PARSE_OPT_HELP;
	o = find_long(doc, name, len);
	if (!o)
		return PARSE_OPT_ERROR;
	if (takes_arg(o)) {
		if (eq) {
			arg = eq + 1;
		} else if (*next) {
			arg = *next;
			*used = 1;
		} else {
			error("%s needs a value (%s)", option_name(o), o->argh);
			return PARSE_OPT_ERROR;
		}
	} else if (eq) {
		error("%s takes no value", option_name(o));
		return PARSE_OPT_ERROR;
	}
	return apply(o, arg) < 0 ? PARSE_OPT_ERROR : 0;
}

static int parse_short(const struct options_doc *doc, const char *a,
		       char **next, int *used)
{
	const char *p;

	for (p = a + 1; *p; p++) {
		const struct option_spec *o;

		if (*p == 'h' && !has_own_help(doc))
			return PARSE_OPT_HELP;
		o = find_short(doc, (unsigned char)*p);
		if (!o)
			return PARSE_OPT_ERROR;
		if (!takes_arg(o)) {
			if (apply(o, NULL) < 0)
				return PARSE_OPT_ERROR;
			continue;
		}
		if (p[1])
			return apply(o, p + 1) < 0 ? PARSE_OPT_ERROR : 0;
		if (!*next) {
			error("-%c needs a value (%s)", *p, o->argh);
			return PARSE_OPT_ERROR;
		}
		*used = 1;
		return apply(o, *next) < 0 ? PARSE_OPT_ERROR : 0;
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct options_doc *doc,
		  unsigned int flags)
{
	int i, out = 0, ret;

	if (options_check(doc) < 0)
		return PARSE_OPT_ERROR;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		int used = 0;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (a[1] == '-')
			ret = parse_long(doc, a, &argv[i + 1], &used);
		else
			ret = parse_short(doc, a, &argv[i + 1], &used);
		if (ret == PARSE_OPT_HELP) {
			options_help(doc, stdout);
			return ret;
		}
		if (ret < 0)
			return parse_error(doc);
		i += used;
	}
	while (i < argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	return out;
}

/* ---- help ---- */

/* The words of text from column col, filled to HELP_WIDTH. */
static void wrap(FILE *f, const char *text, int col)
{
	int at = col;
	const char *p = text;

	while (*p) {
		size_t w;

		if (*p == ' ' || *p == '\n') {
			p++;
			continue;
		}
		w = strcspn(p, "\n ");
		if (at > col && at + 1 + (int)w > HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fwrite(p, 1, w, f);
		at += (int)w;
		p += w;
	}
	fputc('\n', f);
}

static void help_option_line(const struct option_spec *o, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%*s", HELP_INDENT, "");
	if (o->short_name)
		strbuf_addf(&sb, "-%c", o->short_name);
	else
		strbuf_addstr(&sb, "    ");
	if (o->short_name && o->long_name)
		strbuf_addstr(&sb, ", ");
	if (o->long_name)
		strbuf_addf(&sb, "--%s", o->long_name);
	if (o->argh)
		strbuf_addf(&sb, " %s", o->argh);
	fputs(sb.buf, f);
	if (sb.len + 2 > HELP_COLUMN)
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(f, "%*s", (int)(HELP_COLUMN - sb.len), "");
	wrap(f, o->help, HELP_COLUMN);
	strbuf_release(&sb);
}

static void put_text(const char *text, FILE *f)
{
	size_t n = strlen(text);

	fputc('\n', f);
	fputs(text, f);
	if (n && text[n - 1] != '\n')
		fputc('\n', f);
}

void options_help(const struct options_doc *doc, FILE *f)
{
	const struct option_spec *o;

	print_synopsis(doc, f);
	if (doc->text)
		put_text(doc->text, f);
	fputc('\n', f);
	for (o = doc->options; o && o->kind != OPTION_END; o++) {
		if (o->kind == OPTION_GROUP) {
			if (o != doc->options)
				fputc('\n', f);
			fprintf(f, "%s\n", o->help);
			continue;
		}
		help_option_line(o, f);
	}
	if (!has_own_help(doc))
		help_option_line(&help_option, f);
	if (doc->notes)
		put_text(doc->notes, f);
	if (doc->more)
		doc->more(f);
}

/* ---- man page ---- */

/* s as roff text: the escapes, '-' as \-, a leading . or ' made text. */
static void roff_escape(const char *s, size_t n, FILE *f)
{
	size_t i;

	if (n && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", f);
	for (i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}

void options_roff_str(const char *s, FILE *f)
{
	roff_escape(s, strlen(s), f);
}

void options_roff_text(const char *text, FILE *f)
{
	const char *p = text;
	int pre = 0, para = 1;

	while (*p) {
		size_t l = strcspn(p, "\n");
		int indented = *p == ' ' || *p == '\t';

		if (!l) {
			if (pre)
				fputs(".fi\n", f);
			pre = 0;
			para = 1;
		} else {
			if (para)
				fputs(".PP\n", f);
			para = 0;
			if (indented && !pre)
				fputs(".nf\n", f);
			else if (!indented && pre)
				fputs(".fi\n", f);
			pre = indented;
			roff_escape(p, l, f);
			fputc('\n', f);
		}
		p += l + (p[l] == '\n');
	}
	if (pre)
		fputs(".fi\n", f);
}

static void man_option(const struct option_spec *o, FILE *f)
{
	const char *p;

	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR", o->short_name);
	if (o->short_name && o->long_name)
		fputs(", ", f);
	if (o->long_name) {
		fputs("\\fB\\-\\-", f);
		options_roff_str(o->long_name, f);
		fputs("\\fR", f);
	}
	if (o->argh) {
		fputs(" \\fI", f);
		options_roff_str(o->argh, f);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	/* one line, filled by roff as the help text is by wrap() */
	for (p = o->help; *p; p++) {
		size_t l = strcspn(p, "\n");

		roff_escape(p, l, f);
		p += l;
		if (!*p)
			break;
		fputc(' ', f);
	}
	fputc('\n', f);
}

void options_man_synopsis(const struct options_doc *doc, FILE *f)
{
	const char *const *s;

	for (s = doc->synopsis; s && *s; s++) {
		if (**s == ' ')
			fprintf(f, "%*s", (int)strlen(progname) + 1, "");
		else
			fprintf(f, "\\fB%s\\fR ", progname);
		options_roff_str(*s, f);
		fputc('\n', f);
	}
}

void options_man(const struct options_doc *doc, FILE *f)
{
	const struct option_spec *o;

	if (doc->name) {
		fprintf(f, ".SS \"%s %s\"\n", progname, doc->name);
		if (doc->summary) {
			options_roff_str(doc->summary, f);
			fputs(".\n", f);
		}
		fputs(".PP\n.nf\n", f);
		options_man_synopsis(doc, f);
		fputs(".fi\n", f);
	}
	if (doc->text)
		options_roff_text(doc->text, f);
	fputs(".PP\n", f);
	for (o = doc->options; o && o->kind != OPTION_END; o++) {
		if (o->kind == OPTION_GROUP) {
			fputs(".PP\n\\fI", f);
			options_roff_str(o->help, f);
			fputs("\\fR\n", f);
			continue;
		}
		man_option(o, f);
	}
	if (!has_own_help(doc))
		man_option(&help_option, f);
	if (doc->notes)
		options_roff_text(doc->notes, f);
}

/* ---- completion ---- */

static void list_option(const struct option_spec *o, FILE *f)
{
	const char *arg = o->argh ? o->argh : "";
	const char *sep = o->argh ? " " : "";

	if (o->long_name)
		fprintf(f, "--%s%s%s\n", o->long_name, sep, arg);
	if (o->short_name)
		fprintf(f, "-%c%s%s\n", o->short_name, sep, arg);
}

void options_list(const struct options_doc *doc, FILE *f)
{
	const struct option_spec *o;

	for (o = doc->options; o && o->kind != OPTION_END; o++)
		if (is_option(o))
			list_option(o, f);
	if (!has_own_help(doc))
		list_option(&help_option, f);
}
