/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - one table per command that both parses its command line
 * and prints its usage, in the manner of git's parse-options.h.
 *
 * A command describes itself once, in a struct options_doc: its
 * synopsis, a description and a table of struct option_spec.  From that
 * one description come the parsing (long "--x=v" and "--x v", unique
 * abbreviations of long names, bundled short flags "-vq", "-oFILE",
 * "--" to end the options, -h/--help), the help text, the man page's
 * section and the list the shell completion reads.  An option that is
 * not in the table does not exist; one in the table is always shown.
 *
 *	static const struct option_spec opts[] = {
 *		OPT_GROUP("Workloads"),
 *		OPT_STRING('o', "output", &out, "FILE", "append rows to FILE"),
 *		OPT_INTEGER(0, "runs", &runs, "N", 1, 1000, "repetitions"),
 *		OPT__VERBOSITY(),
 *		OPT_END()
 *	};
 *	argc = parse_options(argc, argv, &doc, 0);
 *	if (argc < 0)
 *		return parse_options_exit(argc);
 */
#ifndef SCHED_BOT_OPTIONS_H
#define SCHED_BOT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

enum option_kind {
	OPTION_END,
	OPTION_GROUP,		/* a header in the help, no option */
	OPTION_FLAG,		/* int *value = 1 */
	OPTION_SET_INT,		/* int *value = defval */
	OPTION_STRING,		/* const char **value = the argument */
	OPTION_INTEGER,		/* a whole number in [min, max] */
	OPTION_CALLBACK,	/* callback(opt, arg) */
};

struct option_spec;
/* Returns 0, or -1 after saying what is wrong (see option_name()). */
typedef int (*option_cb)(const struct option_spec *opt, const char *arg);

struct option_spec {
	enum option_kind kind;
	int short_name;		/* 'o', or 0 */
	const char *long_name;	/* "output", or NULL */
	void *value;
	const char *argh;	/* the argument's name; NULL: takes none */
	const char *help;	/* the help, filled to 79 columns; required */
	long long defval;	/* OPTION_SET_INT */
	long long min, max;	/* OPTION_INTEGER: the accepted range */
	size_t size;		/* OPTION_INTEGER: sizeof(*value) */
	option_cb callback;	/* OPTION_CALLBACK; arg is NULL without argh */
};

/* The "1 ? v : (T *)0" makes the compiler check the value's type. */
#define OPT_END() { .kind = OPTION_END }
#define OPT_GROUP(h) { .kind = OPTION_GROUP, .help = (h) }
#define OPT_FLAG(s, l, v, h) \
	{ .kind = OPTION_FLAG, .short_name = (s), .long_name = (l), \
	  .value = 1 ? (v) : (int *)0, .help = (h) }
#define OPT_SET_INT(s, l, v, i, h) \
	{ .kind = OPTION_SET_INT, .short_name = (s), .long_name = (l), \
	  .value = 1 ? (v) : (int *)0, .defval = (i), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .kind = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = 1 ? (v) : (const char **)0, .argh = (a), .help = (h) }
/* v points to an int, long or long long. */
#define OPT_INTEGER(s, l, v, a, lo, hi, h) \
	{ .kind = OPTION_INTEGER, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .min = (lo), .max = (hi), \
	  .size = sizeof(*(v)), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ .kind = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .callback = (cb) }
/* -v and -q mean the same in every command: the global verbosity. */
#define OPT__VERBOSITY() \
	OPT_SET_INT('v', "verbose", &verbosity, 1, \
		    "say more: details on stderr, the workloads' output"), \
	OPT_SET_INT('q', "quiet", &verbosity, -1, \
		    "say nothing but errors and the result")

/* A command's whole interface: everything help, man and completion show. */
struct options_doc {
	const char *name;		/* "run"; NULL: the tool's own */
	const char *summary;		/* one line, for the command list */
	const char *const *synopsis;	/* lines after "sched-bot ", NULL-ended;
					 * one starting with ' ' continues
					 */
	const char *text;		/* paragraphs before the options */
	const struct option_spec *options;
	const char *notes;		/* paragraphs after the options */
	/* after the notes: what a table elsewhere holds (run's workloads) */
	void (*more)(FILE *f);
};

/* Stop at the first argument that is no option (the tool's own options). */
#define PARSE_OPT_STOP_AT_NON_OPTION 1

#define PARSE_OPT_HELP (-1)	/* -h/--help: the help is on stdout */
#define PARSE_OPT_ERROR (-2)	/* said on stderr, with the synopsis */

/*
 * Parse argv[1..argc) by doc->options; argv[0] is the command's name.
 * Returns the number of arguments left, moved to argv[0..n) in their
 * order, or PARSE_OPT_HELP or PARSE_OPT_ERROR.
 */
int parse_options(int argc, char **argv, const struct options_doc *doc,
		  unsigned int flags);

/* The exit code for parse_options()'s negative return. */
static inline int parse_options_exit(int r)
{
	return r == PARSE_OPT_HELP ? EXIT_OK : EXIT_USAGE;
}

/*
 * The one parser of whole numbers: "NAME: 'ARG' is not a whole number"
 * for "3x", "" or " 3"; "NAME: 'ARG' must be MIN..MAX" when out of range
 * or too big for any type.  Returns 0, or -1 after saying so.
 */
int option_parse_integer(const char *name, const char *arg, long long min,
			 long long max, long long *out);

/* "--long", else "-s": how messages name an option. */
const char *option_name(const struct option_spec *opt);

/*
 * "sched-bot: error: <message>", then the synopsis and where the help is,
 * on stderr.  Returns EXIT_USAGE.
 */
int options_error(const struct options_doc *doc, const char *fmt, ...)
	PRINTF(2, 3);

/* The help text: synopsis, text, options (with -h), notes. */
void options_help(const struct options_doc *doc, FILE *f);
/* The same as roff for a man page: one .SS section per command. */
void options_man(const struct options_doc *doc, FILE *f);
/* The synopsis lines as roff, for a .nf block. */
void options_man_synopsis(const struct options_doc *doc, FILE *f);
/* s as roff, escaped, in a line of its own or the middle of one. */
void options_roff_str(const char *s, FILE *f);
/* Text as roff: paragraphs, indented lines kept as they are. */
void options_roff_text(const char *text, FILE *f);
/* One option a line, "--name ARG" or "-s ARG", for shell completion. */
void options_list(const struct options_doc *doc, FILE *f);

/*
 * A table's own faults, which are bugs: an option without a name or
 * help, a name used twice, an argument to a flag.  Returns 0, or -1
 * after naming each.  parse_options() checks every table it is given.
 */
int options_check(const struct options_doc *doc);

#endif
