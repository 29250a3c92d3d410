/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload-opts.h - the options that several commands share: what runs
 * (--workloads) and in which scheduler environment (--autogroup,
 * --cgroup).  Each is one option spec and one callback, defined here
 * once, so that boot, run, test and cron --add spell it, document it
 * and refuse a bad value the same way: a usage error (exit 2) that
 * names the accepted values.
 *
 *	static int autogroup = -1;
 *	static const char *cgroup, *workloads;
 *	...
 *		OPT__WORKLOADS(&workloads, "required"),
 *		OPT__AUTOGROUP(&autogroup),
 *		OPT__CGROUP(&cgroup),
 */
#ifndef SCHED_BOT_WORKLOAD_OPTS_H
#define SCHED_BOT_WORKLOAD_OPTS_H

#include "options.h"

/* --autogroup on|off, with 1 and 0 kept for old scripts: *(int *) = 1
 * or 0 (leave it -1 for "as the kernel has it").
 */
int workload_opt_autogroup(const struct option_spec *opt, const char *arg);
/* --cgroup root|new: *(const char **) = "root" or "new". */
int workload_opt_cgroup(const struct option_spec *opt, const char *arg);
/* --workloads LIST: every comma-separated name is in the workload table
 * (else the message lists the table); *(const char **) = arg.
 */
int workload_opt_workloads(const struct option_spec *opt, const char *arg);
/* The same, or "auto": the workloads a plan of the thread chooses. */
int workload_opt_workloads_auto(const struct option_spec *opt,
				const char *arg);

/* The words of each, for the help and the messages. */
#define AUTOGROUP_ARG "on|off"
#define AUTOGROUP_HELP \
	"kernel.sched_autogroup_enabled while the workloads run: on or " \
	"off (1 and 0 are the same); default: as the kernel has it"
#define CGROUP_ARG "root|new"
#define CGROUP_HELP \
	"run the workloads in the root cpu cgroup or in a new one made " \
	"for them; default: where they start"
#define WORKLOADS_ARG "LIST"
#define WORKLOADS_HELP \
	"comma-separated names from the workload table ('sched-bot run " \
	"--help' lists them)"

#define OPT__AUTOGROUP(v) \
	OPT_CALLBACK(0, "autogroup", 1 ? (v) : (int *)0, AUTOGROUP_ARG, \
		     AUTOGROUP_HELP, workload_opt_autogroup)
#define OPT__CGROUP(v) \
	OPT_CALLBACK(0, "cgroup", 1 ? (v) : (const char **)0, CGROUP_ARG, \
		     CGROUP_HELP, workload_opt_cgroup)
/* dflt: what the command runs without the option, a phrase. */
#define OPT__WORKLOADS(v, dflt) \
	OPT_CALLBACK(0, "workloads", 1 ? (v) : (const char **)0, \
		     WORKLOADS_ARG, WORKLOADS_HELP "; " dflt, \
		     workload_opt_workloads)
#define OPT__WORKLOADS_AUTO(v, dflt) \
	OPT_CALLBACK(0, "workloads", 1 ? (v) : (const char **)0, \
		     WORKLOADS_ARG, WORKLOADS_HELP ", or auto: chosen from " \
		     "the thread and the diff (see 'sched-bot plan'); " dflt, \
		     workload_opt_workloads_auto)

#endif
