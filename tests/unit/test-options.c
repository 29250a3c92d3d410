// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "options.h"
#include "test.h"
#include "util.h"

/* What a call wrote to fd (1 or 2), kept for the checks. */
static struct strbuf captured = STRBUF_INIT;
static FILE *cap_file;
static int cap_saved = -1, cap_fd;

static void capture(int fd)
{
	fflush(fd == 1 ? stdout : stderr);
	cap_file = tmpfile();
	cap_fd = fd;
	cap_saved = dup(fd);
	dup2(fileno(cap_file), fd);
}

static const char *captured_text(void)
{
	fflush(cap_fd == 1 ? stdout : stderr);
	dup2(cap_saved, cap_fd);
	close(cap_saved);
	strbuf_reset(&captured);
	rewind(cap_file);
	strbuf_read_fd(&captured, fileno(cap_file));
	fclose(cap_file);
	return captured.buf;
}

static int flag, set, runs;
static long budget;
static long long since;
static const char *out, *name;
static int cb_calls;
static const char *cb_arg;

static int count_cb(const struct option_spec *opt, const char *arg)
{
	cb_calls++;
	cb_arg = arg;
	if (arg && !strcmp(arg, "bad"))
		return error("%s: bad", option_name(opt));
	return 0;
}

static const struct option_spec table[] = {
	OPT_GROUP("Things"),
	OPT_FLAG('f', "flag", &flag, "a flag"),
	OPT_SET_INT('s', "set", &set, 7, "set to seven"),
	OPT_SET_INT(0, "no-set", &set, 0, "set to zero"),
	OPT_STRING('o', "output", &out, "FILE", "where to write"),
	OPT_STRING(0, "name", &name, "NAME", "a name"),
	OPT_INTEGER(0, "runs", &runs, "N", 1, 1000, "how many runs"),
	OPT_INTEGER(0, "budget", &budget, "S", 1, LONG_MAX, "seconds"),
	OPT_INTEGER(0, "since", &since, "EPOCH", 1, LLONG_MAX, "epoch"),
	OPT_CALLBACK('c', "call", NULL, "X", "a callback", count_cb),
	OPT_CALLBACK(0, "poke", NULL, NULL, "a callback, no argument",
		     count_cb),
	OPT_GROUP("Common"),
	OPT__VERBOSITY(),
	OPT_END()
};

static const char *const synopsis[] = { "thing [<options>] ARG", NULL };
static const struct options_doc doc = {
	.name = "thing", .summary = "do a thing", .synopsis = synopsis,
	.text = "A description.\n\n    an example line\n",
	.options = table, .notes = "A note at the end.",
};

static void reset(void)
{
	flag = set = runs = 0;
	budget = 0;
	since = 0;
	out = name = NULL;
	cb_calls = 0;
	cb_arg = NULL;
	verbosity = 0;
}

/* Parse a command line written as one string; argv stays for checks. */
static char *argv_buf[32];
static int parse(const char *line, unsigned flags)
{
	static char copy[512];
	int argc = 0;
	char *p, *save = NULL;

	snprintf(copy, sizeof(copy), "thing %s", line);
	for (p = strtok_r(copy, " ", &save); p && argc < 31;
	     p = strtok_r(NULL, " ", &save))
		argv_buf[argc++] = p;
	argv_buf[argc] = NULL;
	return parse_options(argc, argv_buf, &doc, flags);
}

static void test_long_and_short(void)
{
	reset();
	CHECK_INT(parse("--flag --output=a.csv --name b --runs 3", 0), 0);
	CHECK_INT(flag, 1);
	CHECK_STR(out, "a.csv");
	CHECK_STR(name, "b");
	CHECK_INT(runs, 3);

	reset();
	CHECK_INT(parse("-fs -oFILE", 0), 0);
	CHECK_INT(flag, 1);
	CHECK_INT(set, 7);
	CHECK_STR(out, "FILE");

	reset();
	CHECK_INT(parse("-vfo x.csv", 0), 0);
	CHECK_INT(verbosity, 1);
	CHECK_INT(flag, 1);
	CHECK_STR(out, "x.csv");

	reset();
	CHECK_INT(parse("-s --no-set -q", 0), 0);
	CHECK_INT(set, 0);
	CHECK_INT(verbosity, -1);

	/* an argument that starts with '-' is still the argument */
	reset();
	CHECK_INT(parse("-o - --name -x", 0), 0);
	CHECK_STR(out, "-");
	CHECK_STR(name, "-x");
	reset();
}

static void test_arguments_left(void)
{
	reset();
	CHECK_INT(parse("a --flag b -- --runs c", 0), 4);
	CHECK_STR(argv_buf[0], "a");
	CHECK_STR(argv_buf[1], "b");
	CHECK_STR(argv_buf[2], "--runs");
	CHECK_STR(argv_buf[3], "c");
	CHECK(argv_buf[4] == NULL);
	CHECK_INT(flag, 1);
	CHECK_INT(runs, 0);

	reset();
	CHECK_INT(parse("-f cmd --runs 2", PARSE_OPT_STOP_AT_NON_OPTION), 3);
	CHECK_STR(argv_buf[0], "cmd");
	CHECK_STR(argv_buf[1], "--runs");
	CHECK_INT(runs, 0);

	reset();
	CHECK_INT(parse("- x", 0), 2);
	CHECK_STR(argv_buf[0], "-");
	reset();
}

static void test_abbreviations(void)
{
	reset();
	CHECK_INT(parse("--outp f --na n", 0), 0);
	CHECK_STR(out, "f");
	CHECK_STR(name, "n");
	/* --no-set is the only one starting "--no" */
	CHECK_INT(parse("-s --no", 0), 0);
	CHECK_INT(set, 0);

	capture(2);
	CHECK_INT(parse("--s 1", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(),
		     "option '--s' is ambiguous: --set --since"));
	reset();
}

static void test_errors(void)
{
	const char *e;

	reset();
	capture(2);
	CHECK_INT(parse("--frob", 0), PARSE_OPT_ERROR);
	e = captured_text();
	CHECK(strstr(e, "error: unknown option '--frob'\n"));
	CHECK(strstr(e, "usage: sched-bot thing [<options>] ARG\n"));
	CHECK(strstr(e, "'sched-bot help thing' shows the options."));

	capture(2);
	CHECK_INT(parse("-fx", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "unknown option '-x'"));

	capture(2);
	CHECK_INT(parse("--output", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "--output needs a value (FILE)"));

	capture(2);
	CHECK_INT(parse("-o", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "-o needs a value (FILE)"));

	capture(2);
	CHECK_INT(parse("--flag=1", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "--flag takes no value"));

	capture(2);
	CHECK_INT(options_error(&doc, "one %s", "thing"), EXIT_USAGE);
	e = captured_text();
	CHECK(strstr(e, "sched-bot: error: one thing\nusage: sched-bot thing"));
	reset();
}

static void test_integers(void)
{
	static const char *const not_whole[] = {
		"3x", "", " 3", "+3", "3 ", "0x10", "1e3", "-", "3.0",
	};
	long long v = 0;
	size_t i;
	const char *e;

	CHECK_INT(option_parse_integer("--n", "42", 1, 100, &v), 0);
	CHECK_INT(v, 42);
	CHECK_INT(option_parse_integer("--n", "-5", -10, 10, &v), 0);
	CHECK_INT(v, -5);
	CHECK_INT(option_parse_integer("--n", "007", 1, 10, &v), 0);
	CHECK_INT(v, 7);
	for (i = 0; i < ARRAY_SIZE(not_whole); i++) {
		char want[64];

		snprintf(want, sizeof(want), "--n: '%s' is not a whole number",
			 not_whole[i]);
		capture(2);
		v = 99;
		CHECK_INT(option_parse_integer("--n", not_whole[i], 1, 10, &v),
			  -1);
		CHECK(strstr(captured_text(), want));
		CHECK_INT(v, 99);
	}
	capture(2);
	CHECK_INT(option_parse_integer("--n", "0", 1, 1000, &v), -1);
	CHECK(strstr(captured_text(), "--n: '0' must be 1..1000"));
	capture(2);
	CHECK_INT(option_parse_integer("--n", "1001", 1, 1000, &v), -1);
	CHECK(strstr(captured_text(), "--n: '1001' must be 1..1000"));
	capture(2);
	CHECK_INT(option_parse_integer("--n", "99999999999999999999", 1, 1000,
				       &v), -1);
	CHECK(strstr(captured_text(),
		     "--n: '99999999999999999999' must be 1..1000"));
	capture(2);
	CHECK_INT(option_parse_integer("--n", "0", 1, LLONG_MAX, &v), -1);
	e = captured_text();
	CHECK(strstr(e, "--n: '0' must be at least 1"));

	/* the table's integers go through the same parser, by name */
	reset();
	capture(2);
	CHECK_INT(parse("--runs 3x", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "--runs: '3x' is not a whole number"));
	capture(2);
	CHECK_INT(parse("--runs=1001", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "--runs: '1001' must be 1..1000"));
	capture(2);
	CHECK_INT(parse("--runs 4294967297", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "must be 1..1000"));
	CHECK_INT(runs, 0);

	CHECK_INT(parse("--budget 86400 --since 4102444800", 0), 0);
	CHECK_INT(budget, 86400);
	CHECK_INT(since, 4102444800LL);
	reset();
}

static void test_callback(void)
{
	reset();
	CHECK_INT(parse("--call x -cy --poke", 0), 0);
	CHECK_INT(cb_calls, 3);
	CHECK(cb_arg == NULL);
	capture(2);
	CHECK_INT(parse("--call bad", 0), PARSE_OPT_ERROR);
	CHECK(strstr(captured_text(), "--call: bad"));
	reset();
}

static void test_help(void)
{
	const char *h;

	reset();
	capture(1);
	CHECK_INT(parse("--flag -h --frob", 0), PARSE_OPT_HELP);
	h = captured_text();
	CHECK(starts_with(h, "usage: sched-bot thing [<options>] ARG\n\n"
			  "A description.\n"));
	CHECK(strstr(h, "\nThings\n    -f, --flag            a flag\n"));
	CHECK(strstr(h, "\n        --runs N          how many runs\n"));
	CHECK(strstr(h, "\n    -o, --output FILE     where to write\n"));
	CHECK(strstr(h, "\n    -v, --verbose         say more"));
	CHECK(strstr(h, "\n    -h, --help            show this help\n"));
	CHECK(strstr(h, "\nA note at the end.\n"));
	CHECK_INT(parse_options_exit(PARSE_OPT_HELP), EXIT_OK);
	CHECK_INT(parse_options_exit(PARSE_OPT_ERROR), EXIT_USAGE);

	capture(1);
	CHECK_INT(parse("--help", 0), PARSE_OPT_HELP);
	CHECK(strstr(captured_text(), "--since EPOCH"));
	reset();
}

static void test_man_and_list(void)
{
	const char *m;

	capture(1);
	options_man(&doc, stdout);
	m = captured_text();
	CHECK(starts_with(m, ".SS \"sched-bot thing\"\ndo a thing.\n"));
	CHECK(strstr(m, "\\fBsched-bot\\fR thing [<options>] ARG\n"));
	CHECK(strstr(m, ".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR\n"
		     "where to write\n"));
	CHECK(strstr(m, ".TP\n\\fB\\-\\-runs\\fR \\fIN\\fR\nhow many runs\n"));
	CHECK(strstr(m, ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"));
	CHECK(strstr(m, ".PP\nA description.\n.PP\n.nf\n    an example line\n"
		     ".fi\n"));

	capture(1);
	options_roff_text(".starts with a dot\n'and a quote \\ back-slash\n",
			  stdout);
	CHECK_STR(captured_text(), ".PP\n\\&.starts with a dot\n"
		  "\\&'and a quote \\e back\\-slash\n");

	capture(1);
	options_list(&doc, stdout);
	m = captured_text();
	CHECK(strstr(m, "--flag\n-f\n"));
	CHECK(strstr(m, "--output FILE\n-o FILE\n"));
	CHECK(strstr(m, "--runs N\n"));
	CHECK(strstr(m, "--help\n-h\n"));
	CHECK(!strstr(m, "Things"));
}

static int dummy;
static const struct option_spec bad_table[] = {
	OPT_FLAG('x', "one", &dummy, "first"),
	OPT_FLAG('x', "two", &dummy, "the short name again"),
	OPT_FLAG(0, "one", &dummy, "the long name again"),
	OPT_FLAG(0, "quiet", &dummy, NULL),
	OPT_END()
};

static void test_bad_tables(void)
{
	const struct options_doc bad = { .name = "bad", .options = bad_table };
	char *argv[] = { "bad", NULL };
	const char *e;

	CHECK_INT(options_check(&doc), 0);
	capture(2);
	CHECK_INT(options_check(&bad), -1);
	e = captured_text();
	CHECK(strstr(e, "BUG: -x is in the table twice"));
	CHECK(strstr(e, "BUG: --one is in the table twice"));
	CHECK(strstr(e, "BUG: bad: option quiet has no help line"));
	/* a faulty table never parses */
	capture(2);
	CHECK_INT(parse_options(1, argv, &bad, 0), PARSE_OPT_ERROR);
	captured_text();
}

int main(void)
{
	TEST_NAME("test-options");
	RUN(test_long_and_short);
	RUN(test_arguments_left);
	RUN(test_abbreviations);
	RUN(test_errors);
	RUN(test_integers);
	RUN(test_callback);
	RUN(test_help);
	RUN(test_man_and_list);
	RUN(test_bad_tables);
	strbuf_release(&captured);
	return test_done();
}
