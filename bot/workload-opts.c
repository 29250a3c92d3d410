// SPDX-License-Identifier: GPL-2.0
/*
 * workload-opts.c - the callbacks of the options several commands share
 * (workload-opts.h).
 */
#include <string.h>

#include "options.h"
#include "util.h"
#include "workload.h"
#include "workload-opts.h"

int workload_opt_autogroup(const struct option_spec *opt, const char *arg)
{
	int *v = opt->value;

	if (!strcmp(arg, "on") || !strcmp(arg, "1"))
		*v = 1;
	else if (!strcmp(arg, "off") || !strcmp(arg, "0"))
		*v = 0;
	else
		return error("%s: '%s' must be on or off", option_name(opt),
			     arg);
	return 0;
}

int workload_opt_cgroup(const struct option_spec *opt, const char *arg)
{
	const char **v = opt->value;

	if (!strcmp(arg, "root"))
		*v = "root";
	else if (!strcmp(arg, "new"))
		*v = "new";
	else
		return error("%s: '%s' must be root or new", option_name(opt),
			     arg);
	return 0;
}

static int check_list(const struct option_spec *opt, const char *arg,
		      int with_auto)
{
	const char *p = arg;
	struct strbuf known = STRBUF_INIT;
	size_t i, n;

	for (;;) {
		n = strcspn(p, ",");
		if (!n || !workload_find_n(p, n))
			break;
		if (!p[n])
			return 0;
		p += n + 1;
	}
	for (i = 0; i < workload_table_nr; i++)
		strbuf_addf(&known, "%s%s", i ? ", " : "",
			    workload_table[i].name);
	if (with_auto)
		strbuf_addstr(&known, ", or auto");
	if (n)
		error("%s: unknown workload '%.*s' (the workloads: %s)",
		      option_name(opt), (int)(n > 40 ? 40 : n), p, known.buf);
	else
		error("%s: '%s' has an empty name (the workloads: %s)",
		      option_name(opt), arg, known.buf);
	strbuf_release(&known);
	return -1;
}

int workload_opt_workloads(const struct option_spec *opt, const char *arg)
{
	if (check_list(opt, arg, 0) < 0)
		return -1;
	*(const char **)opt->value = arg;
	return 0;
}

int workload_opt_workloads_auto(const struct option_spec *opt,
				const char *arg)
{
	if (strcmp(arg, "auto") && check_list(opt, arg, 1) < 0)
		return -1;
	*(const char **)opt->value = arg;
	return 0;
}
