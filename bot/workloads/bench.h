/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - sched-bench's sub-commands.  sched-bench is static and uses
 * libc only: it runs in a tiny initramfs and on machines reached by ssh.
 */
#ifndef SCHED_BENCH_H
#define SCHED_BENCH_H

int bench_spawn(int argc, char **argv);		/* spawn.c */
int bench_pingpong(int argc, char **argv);	/* pingpong.c */
int bench_env(int argc, char **argv);		/* env.c */
/* init.c: PID 1 of the QEMU initramfs; runs the workloads asked on the
 * kernel command line and prints framed results on the console. */
int bench_init(int argc, char **argv);

#endif
