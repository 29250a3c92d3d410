/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target_common.h - helpers shared by the target_*.c files only.
 */
#ifndef SCHED_BOT_TARGET_COMMON_H
#define SCHED_BOT_TARGET_COMMON_H

#include "target/target.h"

/*
 * Parse a console (or ssh) transcript into res: status, reason, last
 * lines, kernel and, when all went well, the rows.  Returns 0 with rows,
 * 1 when the target failed.
 */
int target_finish(const char *name, const struct boot_req *req,
		  const char *buf, size_t len, int timed_out,
		  struct boot_res *res);
/* A work directory: req->workdir (created) or a new temporary one. */
char *target_workdir(const struct boot_req *req);

/*
 * target.NAME.KEY from the configuration, else its default in
 * config-keys.c; def is used for the keys whose default the code
 * computes there (it must match the table's where the table has one).
 */
const char *target_cfg(const char *name, const char *key, const char *def);
long target_cfg_int(const char *name, const char *key, long def);

#endif
