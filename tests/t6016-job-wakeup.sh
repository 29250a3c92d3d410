#!/bin/sh
# A change to where wake-ups go, seen in the scheduler's own counters:
# a patch that makes select_idle_sibling() return the previous CPU (so a
# woken task never follows its waker) is served as a one-patch series to
# `sched-bot test --target qemu --workloads auto`.  The plan reads the
# diff (select_idle_sibling, kernel/sched/fair.c) and runs pingpong
# unpinned with each pair started on two CPUs (--apart): on the base a
# pair whose CPUs are all busy comes together on one CPU, its wake-ups
# local; on the patched kernel it stays apart, every wake-up to another
# CPU.  results.csv must carry the /proc/schedstat deltas for every run
# of both kernels, and the reply must name "wake-ups to another CPU"
# among the rows that changed.
#
# On a guest of 2 sockets x 2 CPUs, at 8 pairs: twice the CPUs, where
# the plan says wake-up placement decides.  At 4 pairs (a measured try)
# both kernels had every pair on one CPU by the end of the 6 s warm-up,
# the patched one through idle balancing (3 wake-ups to another CPU a
# run on each); at 8 a CPU is seldom idle and split pairs stay split.  Long
# (7.5 minutes of TCG boots here: 4 blocks of 2 kernels, a sweep of 1,
# 2, 4 and 8 pairs and hackbench in each): it runs with SCHED_BOT_TEST_LONG=1
# (`make check-long`), and make check counts it as skipped, so that a
# cold make check stays within the hour on 2 CPUs.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"
. "$TESTS/lib-bot.sh"

test_long
kernel_job_setup
# two sockets of two CPUs: a pair started on both crosses an LLC, which
# the base pulls together (wake_affine, then an idle CPU of the waker's
# LLC) and the patched kernel leaves apart; on one LLC of two CPUs both
# kernels had every pair on one CPU within the warm-up (the patched one
# through idle balancing), the row unmoved
git config -f "$CFG" target.qemu.smp 4
git config -f "$CFG" target.qemu.sockets 2
git config -f "$CFG" job.minRuns 4
git config -f "$CFG" job.maxRuns 4
# four runs a side: the rank test's least p is then 0.029
git config -f "$CFG" compare.minEffect 50

# the first statement of select_idle_sibling(): stay where it ran
SIS='/^static int select_idle_sibling(struct task_struct \*p, int prev, int target)$/,/^}$/s|^\tint i, recent_used_cpu;$|&\n\n\t/* test only: a woken task stays on its previous CPU */\n\treturn prev;|'
kernel_commit base kernel/sched/fair.c "$SIS" t6016-sis

# rows SIDE: how many ttwu_remote rows SIDE's runs at 8 pairs have
rows() {
	awk -F, -v side="$1" '$1 == side && $3 == "pingpong" &&
		$4 ~ /^pairs=8 / && $6 == "diag.schedstat.ttwu_remote"' \
		sis/results.csv | wc -l
}

# mean SIDE: the mean wake-ups to another CPU per run at 8 pairs
mean() {
	awk -F, -v side="$1" '$1 == side && $3 == "pingpong" &&
		$4 ~ /^pairs=8 / && $6 == "diag.schedstat.ttwu_remote" {
			s += $7; n++ }
		END { printf "%d", n ? s / n : -1 }' sis/results.csv
}


test_expect_success 'the patch: select_idle_sibling returns prev' '
	git -C "$KREPO" diff base t6016-sis >sis.diff &&
	test_grep "^+	return prev;$" sis.diff &&
	git -C "$KREPO" diff --numstat base t6016-sis >sis.num &&
	test "$(cat sis.num)" = "$(printf "3\t0\tkernel/sched/fair.c")" &&
	git -C "$KREPO" -c user.name=test -c user.email=test@localhost \
		format-patch -q --stdout --thread --base=base \
		base..t6016-sis >sis.mbox &&
	test_grep "^Subject: \[PATCH\]" sis.mbox
'

test_expect_success 'the job runs pingpong apart and records schedstat' '
	rc=0 &&
	"$SCHED_BOT" test --mbox sis.mbox --target qemu --workloads auto \
		--job-dir sis >out 2>err || rc=$? &&
	cat err &&
	{ test $rc -eq 0 || test $rc -eq 5; } &&
	test_grep "sched-bench pingpong -t 1 --apart --sweep 1,2,4,8" sis/plan.txt &&
	test_grep ",pingpong,pairs=8 .*,apart," sis/results.csv &&
	# every run of both kernels: a ttwu_remote delta per run and cell
	nb=$(rows base) && np=$(rows patched) &&
	echo "ttwu_remote rows at 8 pairs: base $nb, patched $np" &&
	test "$nb" -ge 4 && test "$np" -ge 4
'


test_expect_success '... on the patched kernel the wake-ups go to another CPU' '
	b=$(mean base) && p=$(mean patched) &&
	echo "wake-ups to another CPU per run at 8 pairs: base $b, patched $p" &&
	test "$p" -gt $((4 * b + 100))
'

test_expect_success '... and the reply names the row that moved' '
	m=$(cat out) && test -s "$m" &&
	test_grep "wake-ups to another CPU +[0-9.]*%" "$m" &&
	test_grep ! "^Tested-by:" "$m"
'

test_done
