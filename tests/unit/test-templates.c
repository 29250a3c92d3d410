// SPDX-License-Identifier: GPL-2.0
/*
 * test-templates.c - the one template language (bot/templates.h) in
 * both of its uses: mails ({{var}}, {{#if}} nesting) and report tables
 * (block and row loops, the kernel loop, columns), its errors, and the
 * templates shipped in templates/.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin/config-opts.h"
#include "templates.h"
#include "test.h"

/* The document of the tables below: three kernels, one block, 2 rows. */
static void fork_doc(struct tmpl_rec *d)
{
	struct tmpl_rec *b;
	struct kv *row;

	tmpl_setkf(&d->vars, "label", 0, "base");
	tmpl_setkf(&d->vars, "label", 1, "new");
	tmpl_setkf(&d->vars, "label", 2, "newer");
	b = tmpl_add(d, "block");
	kv_set(&b->vars, "title", "fork");
	kv_set(&b->vars, "empty", "");
	row = &tmpl_add(b, "row")->vars;
	kv_set(row, "name", "a");
	tmpl_setkf(row, "v", 0, "1");
	tmpl_setkf(row, "v", 1, "22");
	tmpl_setkf(row, "v", 2, "333");
	row = &tmpl_add(b, "row")->vars;
	kv_set(row, "name", "b\xc2\xb1");	/* one column wide */
	tmpl_setkf(row, "v", 0, "4444");
	tmpl_setkf(row, "v", 1, "5");
	tmpl_setkf(row, "v", 2, "6");
}

static void test_table(void)
{
	struct tmpl_rec d = TMPL_REC_INIT;
	struct tmpl_opts o = { .name = "t", .nr_kernels = 3, .trim = 1 };
	struct strbuf out = STRBUF_INIT;

	fork_doc(&d);
	CHECK_INT(tmpl_expand(
		"{{! a comment\n    over two lines }}\n"
		"{{#each block}}\n{{title}}\n{{title==}}\n"
		"{{#if empty}}\ngone {{empty}}\n{{/if}}\n"
		"{{name<|N}}|{{v>|$label}}{{#each kernel}}|{{v>|$label}}"
		"{{/each}}\n"
		"{{name=-}}+{{v=-}}{{#each kernel}}+{{v=-}}{{/each}}\n"
		"{{#each row}}\n"
		"{{name<}}|{{v>}}{{#each kernel}}|{{v>}}{{/each}}  \n"
		"{{/each}}\n{{/each}}\n{end}\n", &d, &o, &out), 0);
	CHECK_STR(out.buf,
		  "fork\n====\n"
		  "N |base|new|newer\n"
		  "--+----+---+-----\n"
		  "a |   1| 22|  333\n"
		  "b\xc2\xb1|4444|  5|    6\n"
		  "{end}\n");
	strbuf_release(&out);
	tmpl_rec_release(&d);
}

/* Each block is a table of its own; outside a table only N counts. */
static void test_table_per_block(void)
{
	struct tmpl_rec d = TMPL_REC_INIT, *b;
	struct tmpl_opts o = { .nr_kernels = 1, .trim = 1 };
	struct strbuf out = STRBUF_INIT;
	static const char *const cells[][2] = {
		{ "x", "wide value" }, { "y", "v" },
	};
	size_t i;

	kv_set(&d.vars, "foot", "f");
	for (i = 0; i < 2; i++) {
		b = tmpl_add(&d, "block");
		kv_set(&b->vars, "hdr", cells[i][0]);
		kv_set(&tmpl_add(b, "row")->vars, "c", cells[i][1]);
		/* a block with no rows still prints its header */
	}
	b = tmpl_add(&d, "block");
	kv_set(&b->vars, "hdr", "z");
	CHECK_INT(tmpl_expand("{{#each block}}\n[{{c<3|$hdr}}]\n"
			      "{{#each row}}\n[{{c>3}}]\n{{/each}}\n"
			      "{{/each}}\n[{{foot<3}}] [{{c<3}}]\n",
			      &d, &o, &out), 0);
	CHECK_STR(out.buf,
		  "[x         ]\n[wide value]\n"
		  "[y  ]\n[  v]\n"
		  "[z  ]\n"
		  "[f  ] [   ]\n");
	/* without trim, the blanks that end a line stay (mails: "-- ") */
	strbuf_reset(&out);
	CHECK_INT(tmpl_expand("-- \n{{foot<3}}\n", &d, NULL, &out), 0);
	CHECK_STR(out.buf, "-- \nf  \n");
	strbuf_reset(&out);
	o.trim = 1;
	CHECK_INT(tmpl_expand("-- \n{{foot<3}}\t", &d, &o, &out), 0);
	CHECK_STR(out.buf, "--\nf");
	strbuf_release(&out);
	tmpl_rec_release(&d);
}

/* Row, then block, then document; kernel K's value, then the plain one. */
static void test_scopes(void)
{
	struct tmpl_rec d = TMPL_REC_INIT, *b;
	struct tmpl_opts o = { .nr_kernels = 3 };
	struct strbuf out = STRBUF_INIT;
	struct kv *row;

	kv_set(&d.vars, "a", "doc-a");
	kv_set(&d.vars, "b", "doc-b");
	kv_set(&d.vars, "c", "doc-c");
	tmpl_setkf(&d.vars, "k", 0, "k0");
	tmpl_setkf(&d.vars, "k", 2, "k2");
	kv_set(&d.vars, "plain", "p");
	b = tmpl_add(&d, "block");
	kv_set(&b->vars, "a", "blk-a");
	kv_set(&b->vars, "b", "blk-b");
	row = &tmpl_add(b, "row")->vars;
	kv_set(row, "a", "row-a");
	CHECK_INT(tmpl_expand("{{#each block}}{{#each row}}"
			      "{{a}} {{b}} {{c}}{{/each}} {{a}}{{/each}} {{a}}"
			      " {{k}}{{#each kernel}} {{k}}/{{plain}}{{/each}}"
			      " {{k.2}}\n", &d, &o, &out), 0);
	CHECK_STR(out.buf, "row-a blk-b doc-c blk-a doc-a k0 /p k2/p k2\n");
	strbuf_release(&out);
	tmpl_rec_release(&d);
}

/*
 * Values are outside text (a subject, a compiler's version from the
 * built .config, a log): their escapes are printed as '?', and a
 * column is measured on what is printed; the template's own text is
 * copied as it is, tab and newline of a value too.
 */
static void test_controls(void)
{
	struct tmpl_rec d = TMPL_REC_INIT;
	struct tmpl_opts o = { .name = "t", .nr_kernels = 1 };
	struct strbuf out = STRBUF_INIT;
	struct kv *row;

	kv_set(&d.vars, "cc", "gcc\033]0;pwned\007\033[2J\r.\r\n\tx\xc2\x9b"
	       "1m");
	CHECK_INT(tmpl_expand_kv("- compiler: {{cc}}\n", &d.vars, NULL,
				 &out), 0);
	CHECK_STR(out.buf, "- compiler: gcc?]0;pwned??[2J?.?\n\tx?1m\n");
	strbuf_reset(&out);
	row = &tmpl_add(tmpl_add(&d, "block"), "row")->vars;
	kv_set(row, "name", "a\033[2Jb");
	CHECK_INT(tmpl_expand("{{#each block}}\n{{name<|N}}|\n{{name=-}}|\n"
			      "{{#each row}}\n{{name<}}|\n{{/each}}\n"
			      "{{/each}}\n", &d, &o, &out), 0);
	CHECK_STR(out.buf, "N     |\n------|\na?[2Jb|\n");
	strbuf_release(&out);
	tmpl_rec_release(&d);
}

static void test_mail(void)
{
	struct kv v = KV_INIT;
	struct strbuf out = STRBUF_INIT;

	kv_set(&v, "name", "Chen Yu");
	kv_set(&v, "a", "1");
	kv_set(&v, "b", "");
	kv_set(&v, "raw", "{{name}} {{#if}}");
	/* values are never expanded again; blanks in the braces are fine */
	CHECK_INT(tmpl_expand_kv("Hi {{ name }}, {{missing}}{{raw}}!\n",
				 &v, NULL, &out), 0);
	CHECK_STR(out.buf, "Hi Chen Yu, {{name}} {{#if}}!\n");
	strbuf_reset(&out);
	/* nesting: every combination, the tags alone on their lines */
	CHECK_INT(tmpl_expand_kv(
		"{{#if a}}\nA\n{{#if b}}\nAB\n{{else}}\nA!B\n"
		"{{#if name}}\nA!BN\n{{/if}}\n{{/if}}\n{{else}}\nnot A\n"
		"{{/if}}\n"
		"{{#if b}}\nB\n{{else}}\n{{#if a}}inline {{a}}{{/if}}\n"
		"{{/if}}\nend\n", &v, NULL, &out), 0);
	CHECK_STR(out.buf, "A\nA!B\nA!BN\ninline 1\nend\n");
	strbuf_reset(&out);
	/* a section tag that is not alone keeps the newline after it */
	CHECK_INT(tmpl_expand_kv("x {{#if a}}\ny\n{{/if}} z\n", &v, NULL,
				 &out), 0);
	CHECK_STR(out.buf, "x \ny\n z\n");
	strbuf_reset(&out);
	/* a mail has no lists: an {{#each}} prints nothing */
	CHECK_INT(tmpl_expand_kv("[{{#each row}}r{{/each}}]"
				 "[{{#each kernel}}k{{/each}}]", &v, NULL,
				 &out), 0);
	CHECK_STR(out.buf, "[][]");
	strbuf_release(&out);
	kv_release(&v);
}

static void test_errors(void)
{
	static const char *const bad[] = {
		"{{#if a}}x",			/* unbalanced */
		"{{/if}}",
		"{{else}}",
		"x{{#if a}}{{else}}{{else}}{{/if}}",
		"{{#each block}}x",
		"{{/each}}",
		"{{#if a}}{{/each}}",
		"{{#each block}}{{/if}}",
		"{{#each block}}{{else}}{{/each}}",
		"{{#if}}{{/if}}",		/* no name */
		"{{#each}}{{/each}}",
		"{{#if a b}}{{/if}}",
		"{{name",			/* no }} */
		"{{#unless a}}{{/unless}}",	/* unknown tag */
		"{{}}",				/* bad placeholders */
		"{{x<|y",
		"{{x|y}}",
		"{{x<3y}}",
		"{{<3}}",
		"{{x=ab}}",
		"{{x<99999}}",
		/* the bad tag in a branch that is not taken is found too */
		"{{#if nothing}}{{x|y}}{{/if}}",
	};
	struct tmpl_rec d = TMPL_REC_INIT;
	struct strbuf out = STRBUF_INIT, deep = STRBUF_INIT;
	size_t i;
	int n;

	kv_set(&d.vars, "a", "1");
	tmpl_add(&d, "block");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&out);
		strbuf_addstr(&out, "kept");
		if (tmpl_expand(bad[i], &d, NULL, &out) != -1) {
			printf("# accepted: %s\n", bad[i]);
			CHECK(0);
		}
		/* nothing half-expanded is left behind */
		CHECK_STR(out.buf, "kept");
	}
	for (n = 0; n < 16; n++)
		strbuf_addstr(&deep, "{{#if a}}");
	for (n = 0; n < 16; n++)
		strbuf_addstr(&deep, "{{/if}}");
	strbuf_reset(&out);
	CHECK_INT(tmpl_expand(deep.buf, &d, NULL, &out), 0);
	strbuf_reset(&deep);
	for (n = 0; n < 17; n++)
		strbuf_addstr(&deep, "{{#if a}}");
	for (n = 0; n < 17; n++)
		strbuf_addstr(&deep, "{{/if}}");
	CHECK_INT(tmpl_expand(deep.buf, &d, NULL, &out), -1);
	strbuf_release(&deep);
	strbuf_release(&out);
	tmpl_rec_release(&d);
}

/* Every shipped template parses, and none leaves a tag unexpanded. */
static void test_shipped(void)
{
	static const char *const files[] = {
		"report-intel.txt", "report-amd.txt", "report-lkp.txt",
		"report-mmtests.txt", "report-matrix.txt", "report-simple.txt",
		"mail-tested.md", "mail-regression.md", "mail-apply-failed.md",
		"mail-build-failed.md", "mail-boot-failed.md",
		"mail-command-error.md", "mail-command-quota.md",
	};
	struct tmpl_opts o = { .nr_kernels = 3, .trim = 1 };
	struct tmpl_rec d = TMPL_REC_INIT;
	size_t i;

	fork_doc(&d);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		struct strbuf t = STRBUF_INIT, out = STRBUF_INIT;

		o.name = files[i];
		CHECK_INT(tmpl_load(files[i], NULL, &t), 0);
		CHECK_INT(tmpl_expand(t.buf, &d, &o, &out), 0);
		if (strstr(out.buf, "{{") || strstr(out.buf, "}}")) {
			printf("# %s left a tag:\n%s", files[i], out.buf);
			CHECK(0);
		}
		strbuf_release(&t);
		strbuf_release(&out);
	}
	tmpl_rec_release(&d);
}

/* As the tool does at start-up. */
static void configure(void)
{
	struct tmpl_dirs td;

	tmpl_dirs_from_config(&td);
	tmpl_configure(&td);
}

int main(void)
{
	TEST_NAME("test-templates");
	configure();
	RUN(test_table);
	RUN(test_table_per_block);
	RUN(test_scopes);
	RUN(test_mail);
	RUN(test_controls);
	RUN(test_errors);
	RUN(test_shipped);
	return test_done();
}
