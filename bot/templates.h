/* SPDX-License-Identifier: GPL-2.0 */
/*
 * templates.h - where the files in templates/ are found, for the report
 * tables (render.c) and the mails (reply.c) alike.
 */
#ifndef SCHED_BOT_TEMPLATES_H
#define SCHED_BOT_TEMPLATES_H

/*
 * The path of templates/<file>: in the directory named by config key
 * (may be NULL), else templates.dir, else $SCHED_BOT_TEMPLATES; without
 * any of them, next to the binary (../share/sched-bot/templates when
 * installed, the source tree's templates/ when run from build/), else
 * ./templates.  NULL, with an error printed, when it is not there.
 */
char *template_path(const char *file, const char *key);

#endif
