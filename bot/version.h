/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_BOT_VERSION_H
#define SCHED_BOT_VERSION_H
#ifndef SCHED_BOT_VERSION
#define SCHED_BOT_VERSION "0.1"
#endif
#endif
