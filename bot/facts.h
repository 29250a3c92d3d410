/* SPDX-License-Identifier: GPL-2.0 */
/*
 * facts.h - what a reply may claim and the facts it states: whether the
 * bot's identity may sign a Tested-by, whether a target was emulated,
 * the target's own environment record, the scheduler options of a
 * .config, commit subjects, the host a run had, and shell-safe
 * quoting for the lines a reader copies.  Every line facts_item()
 * writes fits the width given.
 */
#ifndef SCHED_BOT_FACTS_H
#define SCHED_BOT_FACTS_H

#include <git2.h>

#include "kv.h"
#include "util.h"

/*
 * A placeholder address: unset, no domain, localhost, or a name
 * reserved for examples (RFC 2606: example.com/.net/.org, .example,
 * .invalid, .localhost).  No Tested-by and no mail goes out with one.
 */
int facts_email_is_placeholder(const char *email);

/* The configured options, filled in bot/builtin/ (config-opts.c). */
struct facts_opts {
	const char *bot_email;	/* bot.email */
};

/* Before facts_check_identity(): a check before it is a bug. */
void facts_configure(const struct facts_opts *o);
/* 0, or EXIT_USAGE with an error naming bot.email and what it stops. */
int facts_check_identity(const char *what);

/* A results.csv machine column (or qemu accel) of TCG: emulated. */
int facts_machine_emulated(const char *machine);

/* "env,key,value" lines, bare or inside console frames, into env. */
void facts_env_parse(const char *text, struct kv *env);

/*
 * "- label:   text", words wrapped at width with the text's column as
 * hanging indent; a text line longer than width is broken at spaces;
 * a word longer than a whole line keeps its head, cut with "...".
 */
void facts_item(struct strbuf *out, const char *label, const char *text,
		int width);

/*
 * The machine as the seeds' testers put it, from the env record: "2 x
 * 2C/4T <model>, 2 NUMA nodes, 2 LLCs of 4 CPUs, SMT on".
 */
void facts_topology(const struct kv *env, struct strbuf *out);

/* The target's own machine: CPU, topology, memory, governor, cmdline. */
void facts_machine(const struct kv *env, const char *target,
		   const char *machine, struct strbuf *out);

/* The scheduler options a .config text sets, space separated. */
void facts_config_options(const char *config, struct strbuf *out);
/* The few of them a scheduler person looks at first (kernels.txt). */
void facts_config_highlights(const char *config, struct strbuf *out);
/* CONFIG_CC_VERSION_TEXT of a .config text, allocated, or NULL. */
char *facts_config_compiler(const char *config);
/*
 * What the bot changed of a config of the machine's own, from
 * build_config_changes_by() lines ("CONFIG_X: OLD -> NEW", tagged), as
 * the reply's config line says it: " + IKCONFIG=y, SCHEDSTATS=y" (the
 * new values, "n" for not set) for the fragments', then "; olddefconfig:
 * SCHED_INFO=y" for what olddefconfig changed beside them, at most max
 * named, then "and N more (config-changes.txt)"; ", unchanged" when
 * there is none; then "; toolchain: N options follow the compiler
 * (config-changes.txt)", never named one by one.
 */
void facts_config_changes(const char *changes, size_t max,
			  struct strbuf *out);
/*
 * The fragments of a config made from its base, as the reply names
 * them: " + sched.config + qemu.config" of a blank- or comma-separated
 * list (NULL: BUILD_FRAGMENTS, a job from before they were kept).
 */
void facts_fragments(const char *list, struct strbuf *out);

/* The subject line of commit hex, allocated, or NULL. */
char *facts_commit_subject(git_repository *repo, const char *hex);
/* "<12 hex> <subject>" lines, oldest first, of base..head; count or -1. */
int facts_commits(git_repository *repo, const char *base, const char *head,
		  struct strbuf *out);

enum facts_quote {
	FACTS_QUOTE_ALWAYS,	/* between quotes, whatever s is */
	FACTS_QUOTE_IF_NEEDED,	/* bare when a shell takes s as a word */
};
/*
 * s for a shell line a reader copies: between single quotes, each '
 * as '\'', safe for any POSIX shell; with FACTS_QUOTE_IF_NEEDED a
 * word of letters, digits and _.,:/=@+- stays bare.
 */
void facts_shell_quote(const char *s, enum facts_quote how,
		       struct strbuf *out);

/*
 * The machine a run had, from the host running the target: its CPU
 * and memory, the target with its configured vCPUs and memory (and
 * accel), and what the workload saw of the scheduler in s (NULL: no
 * line for it).  "- key:     value" lines.
 */
struct sample;
void facts_host_machine(const char *target, const char *accel,
			const struct sample *s, struct strbuf *out);

/* Every line of text indented by four spaces: a code block, kept as is. */
void facts_indent_block(const char *text, struct strbuf *out);

/* The overall "verdict" of compare.json text, allocated, or NULL. */
char *facts_verdict(const char *compare_json);

#endif
