#!/bin/sh
# A confirmed regression and the patch that caused it, on real kernels
# booted in QEMU: a series of three patches against Debian's 6.1 tree
# (lib-kernel.sh) is served as an mbox to `sched-bot test --target
# qemu --workloads spawn`.
#
#   1/3 rewords a comment of kernel/sched/fair.c, on the same line: the
#       kernel's code and data stay the base's, byte for byte;
#   2/3 (test only) busy-waits 50 ms in every fork of a user process,
#       in a function of its own, slow_fork_wait() (noinline, so that
#       a profile can name it), on the clock spawn's own timing reads
#       (mdelay() counts TSC
#       cycles, which under TCG on a loaded host do not follow that
#       clock: some boots' forks waited a tenth of it): spawn drops
#       by 90% and more, far beyond the noise of an emulated guest on
#       a shared host (TCG: 450 to 3400 lps from one run of a kernel
#       to the next);
#   3/3 changes the text of a warning of kernel/fork.c: other data, the
#       same speed.
#
# The job must suspect the regression in spawn, confirm it with a fresh
# round of blocks, profiling spawn in its first block on both kernels
# (job.profile: perf record -e cpu-clock, TCG has no PMU) and naming
# slow_fork_wait in its profile rows and its reply, bisect the series
# (base + 1 has the base's code and
# data: not run; base + 2 regresses) and name patch 2/3 with its
# numbers, without a Tested-by.  The series without the slow patch
# (1/2 and 2/2 the harmless ones) is measured and gets no regression;
# the comment alone builds a kernel identical to the base's, which is
# said without a single boot.
#
# The statistics are the job's own, with a plan sized for the change
# it looks for: a called change must exceed 50% (compare.minEffect),
# which the noise of TCG's pairs does not reach, at alpha 0.05 over 3
# blocks (one look); noisyPct is lifted since TCG's spread is the point.
#
# Heavy: incremental kernel builds (fair.c, fork.c) and about 24 QEMU
# boots; the tree and builds are cached as in t5000 (lib-kernel.sh).
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"
. "$TESTS/lib-bot.sh"

kernel_job_setup
git config -f "$CFG" job.minRuns 3
git config -f "$CFG" job.maxRuns 3
git config -f "$CFG" compare.alpha 0.05
git config -f "$CFG" compare.minEffect 50
git config -f "$CFG" job.profile true

COMMENT='s/^ \*  Various enhancements by Dmitry Adamushko\.$/ *  Various enhancements, by Dmitry Adamushko./'
SLOW='/^pid_t kernel_clone(struct kernel_clone_args \*args)$/,/^}$/s|^\tpid_t nr;$|&\n\n\tslow_fork_wait();|; s|^pid_t kernel_clone(struct kernel_clone_args \*args)$|/* test only: a slow fork, 50 ms of the clock spawn reads */\nstatic noinline void slow_fork_wait(void)\n{\n\tu64 slow = ktime_get_ns() + 50 * NSEC_PER_MSEC;\n\n\twhile (current->mm \&\& ktime_get_ns() < slow)\n\t\tcpu_relax();\n}\n\n&|; s|^#include <linux/fs.h>$|&\n#include <linux/ktime.h>|'
WARNING='s/exe_file_deny_write_access() failed in %s\\n/exe_file_deny_write_access() failed in %s()\\n/'
kernel_commit base kernel/sched/fair.c "$COMMENT" t6011-p1
kernel_commit t6011-p1 kernel/fork.c "$SLOW" t6011-p2
kernel_commit t6011-p2 kernel/fork.c "$WARNING" t6011-p3
kernel_commit t6011-p1 kernel/fork.c "$WARNING" t6011-q2

# series MBOX TIP: the commits base..TIP as a threaded mbox on base.
series() {
	git -C "$KREPO" -c user.name=test -c user.email=test@localhost \
		format-patch -q --stdout --numbered --thread --cover-letter \
		--base=base base.."$2" >"$1"
}

# digests DIR: the job's two vmlinux digests, base then patched.
digests() {
	sed -n 's/^digest_base=//p; s/^digest_head=//p' "$1/state"
}

test_expect_success 'the series: three patches, the second slows fork down' '
	test "$(git -C "$KREPO" rev-list --count base..t6011-p3)" -eq 3 &&
	git -C "$KREPO" diff --numstat base t6011-p1 >p1.num &&
	test "$(cat p1.num)" = "$(printf "1\t1\tkernel/sched/fair.c")" &&
	git -C "$KREPO" diff t6011-p1 t6011-p2 >p2.diff &&
	test_grep "^+	while (current->mm && ktime_get_ns() < slow)$" p2.diff &&
	test_grep "^+static noinline void slow_fork_wait(void)$" p2.diff &&
	test_grep "^+	slow_fork_wait();$" p2.diff &&
	test_grep "^+#include <linux/ktime.h>" p2.diff &&
	git -C "$KREPO" diff --numstat t6011-p2 t6011-p3 >p3.num &&
	test "$(cat p3.num)" = "$(printf "1\t1\tkernel/fork.c")" &&
	series slow.mbox t6011-p3 &&
	series fine.mbox t6011-q2 &&
	series same.mbox t6011-p1 &&
	test "$(grep -c "^Subject: \[PATCH [1-3]/3\]" slow.mbox)" -eq 3 &&
	test "$(grep -c "^Subject: \[PATCH [1-2]/2\]" fine.mbox)" -eq 2 &&
	test "$(grep -c "^Subject: \[PATCH 1/1\]" same.mbox)" -eq 1
'

test_expect_success 'a comment reworded in fair.c: identical binaries, no runs' '
	"$SCHED_BOT" test --mbox same.mbox --target qemu --workloads spawn \
		--job-dir same >sout 2>serr &&
	cat serr &&
	m=$(cat sout) && test -s "$m" &&
	digests same >same.d &&
	test "$(wc -l <same.d)" -eq 2 &&
	test_grep -x "[0-9a-f]\{40\}" same.d &&
	test "$(sort -u same.d | wc -l)" -eq 1 &&
	test_grep "^outcome=tested$" same/state &&
	test ! -e same/results.csv &&
	test ! -e same/run-1-base && test ! -e same/run-1-head &&
	test_grep ! "block 1" serr &&
	test_grep "^Verdict: nothing to measure: the patched kernel.s code and data are$" "$m" &&
	test_grep "^sched-bot measured nothing: the patched kernel.s code and data are$" "$m" &&
	test_grep ! "^Tested-by:" "$m"
'

test_expect_failure_code 'the slow series: a regression, exit 5' 5 '
	"$SCHED_BOT" test --mbox slow.mbox --target qemu --workloads spawn \
		--job-dir slow >out 2>err
'

test_expect_success '... suspected, confirmed by a fresh round, both shown' '
	cat err &&
	test_grep "^outcome=regression$" slow/state &&
	test_grep "^confirmed=1$" slow/state &&
	test -s slow/results.csv && test -s slow/confirm.csv &&
	m=$(cat out) && test -s "$m" &&
	test_grep "^The first round" "$m" &&
	test_grep "^The confirmation (a fresh round of [0-9]* blocks):" "$m" &&
	test "$(grep -c "^Verdict: regression" "$m")" -eq 2 &&
	test_grep ! "^Tested-by:" "$m"
'

# The profile of the confirmation's first block: the function the patch
# added is in the patched kernel's rows (and cannot be in the base's),
# and the reply names it, with the software clock said.  Its callees
# (ktime_get_ns() and the clocksource's read) may take most of its own
# samples: with them, in --children, it holds nearly all of a fork's.
test_expect_success '... profiled: slow_fork_wait in the rows and the reply' '
	test_grep "^CONFIG_KALLSYMS=y$" slow/config-patched &&
	test -s slow/profile.csv &&
	test_grep "^patched,.*,spawn,.*,diag\.profile\.children\.slow_fork_wait,[0-9.]*,%cpu-clock," \
		slow/profile.csv &&
	test_grep "^base,.*,spawn,.*,diag\.profile\.self\." slow/profile.csv &&
	test_grep ! "^base,.*slow_fork_wait" slow/profile.csv &&
	test_grep ! ",diag\.profile\." slow/confirm.csv slow/results.csv &&
	m=$(cat out) &&
	sed -n "/^The functions whose share of the samples changed/,/^The regressions with their tests:/p" \
		"$m" >profile.reply &&
	cat profile.reply &&
	tr "\n" " " <profile.reply >profile.line &&
	test_grep "perf record -e cpu-clock (the software clock event: the machine has no PMU" \
		profile.line &&
	test_grep "^ *0\.00 *+[0-9.]* *[0-9.]*  perf-profile\.\(self\|children\)\.cpu-clock\.slow_fork_wait$" \
		profile.reply
'

test_expect_success '... and bisected to patch 2/3, with its numbers' '
	cat slow/bisect.txt &&
	m=$(cat out) &&
	test_grep "^The first patch that shows the change is 2/3:" "$m" &&
	test_grep "^    \[PATCH 2/3\]" "$m" &&
	test_grep "^The first patch that shows the change is 2/3:" slow/bisect.txt &&
	test_grep "^With base + 2 patches against the base:" slow/bisect.txt &&
	test_grep "^- spawn lps.*: -[0-9.]*%, higher is better" slow/bisect.txt &&
	# the reply wraps the line: its figure, in the part on the bisection
	pct=$(sed -n "s/^- spawn lps.*: \(-[0-9.]*%\), higher.*/\1/p" \
		slow/bisect.txt | head -n 1) &&
	sed -n "/^The first patch that shows the change is 2\/3:/,\$p" "$m" \
		>bisect.reply &&
	test_grep "^- spawn lps.*: $pct, higher" bisect.reply &&
	drop=$(sed -n "s/^- spawn lps.*: -\([0-9]*\)[0-9.]*%, higher is better.*/\1/p" \
		slow/bisect.txt | head -n 1) &&
	test "$drop" -ge 50 &&
	test_grep "^- base + 1 of 3 patches: the base.s code and data, not run$" \
		slow/bisect.txt &&
	test -s slow/bisect-1.identical && test ! -e slow/bisect-1.csv &&
	test -s slow/bisect-2.csv &&
	test_grep "^base+2,.*,spawn," slow/bisect-2.csv &&
	test_grep "^- base + 3 of 3 patches: regression (confirmed)$" \
		slow/bisect.txt &&
	test_grep "^Until this is fixed, the bot does not vouch for the series" "$m"
'

test_expect_success 'the series without the slow patch: measured, no regression' '
	"$SCHED_BOT" test --mbox fine.mbox --target qemu --workloads spawn \
		--job-dir fine >fout 2>ferr &&
	cat ferr &&
	m=$(cat fout) && test -s "$m" &&
	digests fine >fine.d &&
	test "$(sort -u fine.d | wc -l)" -eq 2 &&
	test -s fine/results.csv &&
	test_grep "^outcome=tested$" fine/state &&
	test_grep ! "^confirmed=1$" fine/state &&
	test ! -e fine/bisect.txt &&
	test_grep ! "^Verdict: regression" "$m" &&
	test_grep "^Verdict: " "$m" &&
	test_grep ! "^Tested-by:" "$m"
'

test_done
