/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_BOT_VERSION_H
#define SCHED_BOT_VERSION_H
#ifndef SCHED_BOT_VERSION
#define SCHED_BOT_VERSION "0.1"
#endif
/*
 * The commit the tool was built from (git describe --always --dirty),
 * which the Makefile gives main.c only: empty outside a git checkout.
 * The version above stays the plain release number, as the mails'
 * User-Agent and signature carry it.
 */
#ifndef SCHED_BOT_COMMIT
#define SCHED_BOT_COMMIT ""
#endif
#endif
