#!/bin/sh
# sched-bot's job on "sched/fair: Choose the CPU where short task is running during wake up" (v3, 2 patches): how to run it again.
# The base is v6.1-rc6, commit 0123456789ab of linux-source-6.1.tar.xz.
set -e
# sh reproduce.sh TARGET: the job, with sched-bot on a target of its config
# sh reproduce.sh --bench: on a booted kernel, what each kernel ran
case ${1:?usage: sh reproduce.sh TARGET | --bench} in
--bench)
	# autogroup on, cgroup /, unpinned, copies=2
	sched-bench spawn -c 2 -t 5 --passes 1 --gap 1 --run 1
	# autogroup on, cgroup /, unpinned, pairs=1
	sched-bench pingpong -t 5 --warmup 2 --run 1
	;;
*)
	exec sched-bot test 'cover.1669862147.git.yu.c.chen@intel.com' --base 0123456789abcdef0123456789abcdef01234567 --target "$1" --workloads spawn,pingpong --runs 5
	;;
esac
