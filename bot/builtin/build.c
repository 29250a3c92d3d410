// SPDX-License-Identifier: GPL-2.0
/*
 * builtin/build.c - `sched-bot build`: one kernel, from a directory or a
 * commit, with the config fragments (a target's, or the sched and qemu
 * ones); or with --dry-run only the .config it would build.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "facts.h"
#include "target/target.h"
#include "builtin/builtin.h"
#include "util.h"

static struct build_opts o;
static const char *target;
static int dry_run;
static const char **frags;
static size_t nr_frags, alloc_frags;

static int add_fragment(const struct option_spec *opt, const char *arg)
{
	ALLOC_GROW(frags, nr_frags, alloc_frags);
	frags[nr_frags++] = arg;
	return 0;
}

static const char *const build_synopsis[] = {
	"build (--src DIR | --tree REPO [--rev REV]) [-o OUTDIR]",
	"      [--base-config FILE|tinyconfig|defconfig | --target NAME]",
	"      [--fragment F]... [--dry-run -o FILE] [-j N] [--trusted]",
	NULL
};

static const struct option_spec build_options[] = {
	OPT_STRING(0, "src", &o.src, "DIR", "a plain kernel source directory"),
	OPT_STRING(0, "tree", &o.tree, "REPO",
		   "a git repository (bare or not) ..."),
	OPT_STRING(0, "rev", &o.rev, "REV",
		   "... and the revision to build (default HEAD)"),
	OPT_STRING('o', "output", &o.outdir, "DIR",
		   "copy bzImage, config, build.log, release there (--dry-run: the file the .config goes to)"),
	OPT_STRING(0, "base-config", &o.base_config, "FILE",
		   "the base config: a file, or a make target such as tinyconfig or defconfig (default build.baseConfig, tinyconfig)"),
	OPT_STRING(0, "target", &target, "NAME",
		   "the kernel target NAME gets: its baseConfig (running: the machine's own config) and fragments"),
	OPT_CALLBACK(0, "fragment", NULL, "F",
		     "a config fragment: a file, or a name in kernel/configs (repeatable; replaces the target's, or sched.config and qemu.config)",
		     add_fragment),
	OPT_FLAG(0, "dry-run", &dry_run,
		 "stop after olddefconfig (in the build's sandbox) and write the .config to -o FILE; nothing is compiled"),
	OPT_INTEGER('j', "jobs", &o.jobs, "N", 1, 4096,
		    "make -jN (default build.jobs, 2)"),
	OPT_FLAG(0, "trusted", &o.trusted,
		 "the revision is the tree's own, no stranger's patch in it: its build may add to the shared ccache (else ccache is read-only to it)"),
	OPT__VERBOSITY(),
	OPT_END()
};

const struct options_doc build_doc = {
	.name = "build",
	.summary = "build a kernel from a tree revision",
	.synopsis = build_synopsis,
	.text =
"Builds bzImage out of tree (O=) with the base config merged with the\n"
"fragments (--target NAME: its own, target.NAME.fragments, by default\n"
"only what the bot needs on a machine built from its own config;\n"
"else kernel/configs/sched.config and qemu.config), then olddefconfig;\n"
"every requested line must survive.  On a base that is a file (the\n"
"machine's own config), every option the final config changes is\n"
"printed.  --dry-run -o FILE stops after olddefconfig, run in the\n"
"build's sandbox and slot, and writes the .config to FILE.  Builds are\n"
"cached by (source, config) under build.cacheDir; a patched build\n"
"reuses its base's O= directory so only the files the patch touched\n"
"recompile.",
	.options = build_options,
	.notes =
"Prints key: value lines (kernel, release, ...; with a file for a base,\n"
"changed: CONFIG_X: OLD -> NEW, \"n\" for not set, for what the\n"
"fragments changed, olddefconfig: for what olddefconfig changed beside\n"
"them, toolchain: N options follow this machine's compiler, and a\n"
"toolchain-changed: line each).  Exit 0 built (or\n"
"the dry run's config written), 1 the kernel did not build (first\n"
"errors and the log are shown), 2 usage, 3 a source, tree, config or\n"
"fragment that cannot be read.",
};

/* Every input named must be there before a build starts (exit 3). */
static int check_inputs(void)
{
	const char *b = o.base_config;
	char *dir = NULL;
	size_t i;
	int ret = 0;

	if (o.src && need_dir(o.src))
		return EXIT_NOTFOUND;
	if (o.tree && need_dir(o.tree))
		return EXIT_NOTFOUND;
	/* build.c's rule: a bare name ending in "config" may be a target */
	if (b && (strchr(b, '/') || !ends_with(b, "config") ||
		  !access(b, F_OK)) && need_file(b))
		return EXIT_NOTFOUND;
	for (i = 0; i < nr_frags && !ret; i++) {
		const char *f = frags[i];
		char *path;

		if (strchr(f, '/') || !access(f, F_OK)) {
			ret = need_file(f);
			continue;
		}
		if (!dir)
			dir = build_fragment_dir();
		path = xasprintf("%s/%s", dir, f);
		ret = need_file(path);
		free(path);
	}
	free(dir);
	return ret;
}

/* Does line (*n bytes) end in tag?  Its length without it into *n. */
static int has_tag(const char *line, size_t *n, const char *tag)
{
	size_t t = strlen(tag);

	if (*n < t || memcmp(line + *n - t, tag, t))
		return 0;
	*n -= t;
	return 1;
}

/* 0 the fragments', 1 olddefconfig's, 2 the toolchain's; *n untagged */
static int change_kind(const char *line, size_t *n)
{
	if (has_tag(line, n, BUILD_CHANGE_TOOLCHAIN))
		return 2;
	return has_tag(line, n, BUILD_CHANGE_OLDDEFCONFIG);
}

/*
 * What the base becomes, said apart (build_config_changes_by()):
 * "changed: CONFIG_X: OLD -> NEW" for what the fragments changed,
 * "olddefconfig: ..." for what olddefconfig changed beside them, then
 * how many options follow the toolchain, with the compiler of config
 * (the .config built; untrusted, so printable and bounded), and each
 * as "toolchain-changed: ...".
 */
static void print_changes(const char *changes, const char *config)
{
	static const char *const head[] = {
		"changed", "olddefconfig", "toolchain-changed",
	};
	const char *p, *nl;
	size_t n, count = 0, i;
	int pass;
	char *cc;

	for (p = changes; p && *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		n = nl - p;
		count += change_kind(p, &n) == 2;
	}
	for (pass = 0; pass < 3; pass++) {
		if (pass == 2 && count) {
			cc = config ? facts_config_compiler(config) : NULL;
			printf("toolchain: %zu option%s follow%s this machine's compiler%s",
			       count, count == 1 ? "" : "s",
			       count == 1 ? "s" : "", cc ? ", " : "");
			for (i = 0; cc && cc[i] && i < 64; i++)
				putchar(cc[i] >= 0x20 && cc[i] < 0x7f ? cc[i] : '?');
			putchar('\n');
			free(cc);
		}
		for (p = changes; p && *p; p = *nl ? nl + 1 : nl) {
			nl = strchrnul(p, '\n');
			n = nl - p;
			if (change_kind(p, &n) == pass)
				printf("%s: %.*s\n", head[pass], (int)n, p);
		}
	}
}
/* --dry-run: the .config into FILE, and what it changes printed. */
static int dry_run_out(const char *file, const struct build_result *r)
{
	const char *text = r->config_text ? r->config_text : "";

	if (write_file_atomic(file, text, strlen(text)) < 0) {
		error("cannot write %s: %s", file, strerror(errno));
		return EXIT_FAIL;
	}
	printf("result: dry-run\nconfig: %s\n", file);
	printf("source: %s\nconfig-hash: %s\nlog: %s\n", r->source_id,
	       r->config_hash, r->log ? r->log : "");
	print_changes(r->changes, r->config_text);
	return EXIT_OK;
}

int cmd_build(int argc, char **argv)
{
	struct build_result r;
	struct strbuf cfg = STRBUF_INIT;
	char *base = NULL, *origin = NULL, *list = NULL;
	const char *out = NULL;
	int ret;

	argc = parse_options(argc, argv, &build_doc, 0);
	if (argc < 0)
		return parse_options_exit(argc);
	if (argc || !o.src == !o.tree || (o.rev && !o.tree)) {
		free(frags);
		return options_error(&build_doc, "give --src DIR, or --tree REPO [--rev REV]");
	}
	if (target && o.base_config) {
		free(frags);
		return options_error(&build_doc, "--target gives the base config: not with --base-config");
	}
	if (dry_run && !o.outdir) {
		free(frags);
		return options_error(&build_doc, "--dry-run writes the .config to -o FILE: give it");
	}
	ret = check_inputs();
	if (ret) {
		free(frags);
		return ret;
	}
	if (target)
		o.arch = target_arch(target);
	if (target && !o.arch) {
		free(frags);
		return EXIT_USAGE;
	}
	if (target && target_base_config(target, &base, &origin) < 0) {
		free(frags);
		return EXIT_FAIL;
	}
	if (base)
		o.base_config = base;
	if (target && !nr_frags)
		o.fragment_list = list = target_fragments(target);
	o.fragments = frags;
	o.nr_fragments = nr_frags;
	o.dry_run = dry_run;
	/* -o is the config file of a dry run, never a directory to fill */
	if (dry_run) {
		out = o.outdir;
		o.outdir = NULL;
	}
	o.progress = isatty(2) && verbosity >= 0;
	ret = build_kernel(&o, &r);
	free(frags);
	free(base);
	if (origin)
		printf("base-config: %s\n", origin);
	if (list)
		printf("fragments: %s\n", list);
	free(origin);
	free(list);
	if (ret < 0) {
		build_result_release(&r);
		return EXIT_FAIL;
	}
	if (r.failed) {
		printf("result: build failed\n");
		printf("source: %s\nconfig-hash: %s\nlog: %s\n",
		       r.source_id, r.config_hash, r.log);
		printf("errors:\n%s", r.errors ? r.errors : "");
		error("build failed; first errors above, log in %s", r.log);
		build_result_release(&r);
		return EXIT_FAIL;
	}
	if (dry_run) {
		ret = dry_run_out(out, &r);
		build_result_release(&r);
		return ret;
	}
	printf("result: %s\n", r.cached ? "cached" : "built");
	printf("kernel: %s\nrelease: %s\nconfig: %s\nlog: %s\n", r.kernel,
	       r.release ? r.release : "", r.config, r.log);
	printf("source: %s\nconfig-hash: %s\nobjdir: %s\nseconds: %.1f\n",
	       r.source_id, r.config_hash, r.objdir, r.seconds);
	if (r.changes && *r.changes)
		strbuf_read_file(&cfg, r.config);
	print_changes(r.changes, cfg.len ? cfg.buf : NULL);
	strbuf_release(&cfg);
	build_result_release(&r);
	return EXIT_OK;
}
