#!/bin/sh
# The alignment control on real kernels booted in QEMU: two one-patch
# series against Debian's 6.1 tree, each adding t6011's slow fork (50 ms
# busy-waited in every fork of a user process, spawn -90% and more).
#
#   gone: the call of slow_fork_wait() sits in #ifndef T6017_ALIGNED,
#         and the test's compare.alignmentControl is
#         "-falign-functions=64 -DT6017_ALIGNED": the control's rebuild
#         compiles the slowdown out, as a layout effect vanishes under
#         forced alignment.  The job must confirm the regression, build
#         both kernels again with those KCFLAGS, measure a fresh round,
#         find no regression and say "not seen with forced alignment":
#         no regression verdict, no regression report;
#   kept: the same slowdown unguarded: the control's round still shows
#         it, and the reply says "also seen with functions aligned to
#         64 bytes", exit 5.
#
# t6015 shows the control's rules on a stand-in tree with fixed rounds;
# this one the whole path on kernels.  Long (the aligned kernels are
# new builds, every object's flags changed: about 5 minutes from a cold
# ccache, then 3 rounds of 3 blocks a job): it runs with
# SCHED_BOT_TEST_LONG=1 (`make check-long`) and make check counts it as
# skipped, to keep a cold make check within the hour on 2 CPUs.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"
. "$TESTS/lib-bot.sh"

test_long
kernel_job_setup
git config -f "$CFG" job.minRuns 3
git config -f "$CFG" job.maxRuns 3
git config -f "$CFG" compare.alpha 0.05
git config -f "$CFG" compare.minEffect 50
git config -f "$CFG" compare.alignmentControl "-falign-functions=64 -DT6017_ALIGNED"

# t6011's slow fork; CALL is what goes in kernel_clone() after nr
slow() {
	printf '%s' '/^pid_t kernel_clone(struct kernel_clone_args \*args)$/,/^}$/s|^\tpid_t nr;$|&\n\n'"$1"'|; s|^pid_t kernel_clone(struct kernel_clone_args \*args)$|/* test only: a slow fork, 50 ms of the clock spawn reads */\nstatic noinline void slow_fork_wait(void)\n{\n\tu64 slow = ktime_get_ns() + 50 * NSEC_PER_MSEC;\n\n\twhile (current->mm \&\& ktime_get_ns() < slow)\n\t\tcpu_relax();\n}\n\n&|; s|^#include <linux/fs.h>$|&\n#include <linux/ktime.h>|'
}
kernel_commit base kernel/fork.c \
	"$(slow '#ifndef T6017_ALIGNED\n\tslow_fork_wait();\n#endif')" t6017-gone
kernel_commit base kernel/fork.c "$(slow '\tslow_fork_wait();')" t6017-kept

# series MBOX TIP: the commit base..TIP as an mbox on base.
series() {
	git -C "$KREPO" -c user.name=test -c user.email=test@localhost \
		format-patch -q --stdout --thread --base=base base.."$2" >"$1"
}

test_expect_success 'the two patches: the slow call guarded, and not' '
	git -C "$KREPO" diff base t6017-gone >gone.diff &&
	test_grep "^+#ifndef T6017_ALIGNED$" gone.diff &&
	test_grep "^+	slow_fork_wait();$" gone.diff &&
	git -C "$KREPO" diff base t6017-kept >kept.diff &&
	test_grep "^+	slow_fork_wait();$" kept.diff &&
	test_grep ! "T6017_ALIGNED" kept.diff &&
	series gone.mbox t6017-gone && series kept.mbox t6017-kept
'

test_expect_success 'compiled out by the control: not seen, nothing reported' '
	"$SCHED_BOT" test --mbox gone.mbox --target qemu --workloads spawn \
		--job-dir gone >out 2>err || { cat err; false; } &&
	cat err &&
	test_grep "^confirmed=1$" gone/state &&
	test_grep "^aligned=2$" gone/state &&
	test_grep "^outcome=tested$" gone/state &&
	test_grep "the alignment control: building the base kernel with KCFLAGS=-falign-functions=64 -DT6017_ALIGNED" err &&
	test_grep "the alignment control: building the patched kernel with" err &&
	test -s gone/align.csv &&
	m=$(cat out) && test -s "$m" &&
	tr -s " \n" "  " <"$m" >gone.flat &&
	test_grep "not seen with forced alignment" gone.flat &&
	test_grep "likely code layout, not the patch" gone.flat &&
	test_grep ! "^Verdict: regression" "$m" &&
	test_grep ! "noticed a" "$m" &&
	test_grep ! "^Tested-by:" "$m" &&
	test ! -s gone/regressions.txt
'

test_expect_failure_code 'not compiled out: also seen, exit 5' 5 '
	"$SCHED_BOT" test --mbox kept.mbox --target qemu --workloads spawn \
		--job-dir kept >kout 2>kerr
'

test_expect_success '... "also seen with functions aligned to 64 bytes"' '
	cat kerr &&
	test_grep "^aligned=1$" kept/state &&
	test_grep "^outcome=regression$" kept/state &&
	m=$(cat kout) && test -s "$m" &&
	test_grep "^- control:  also seen with functions aligned to 64 bytes$" "$m" &&
	test_grep "^The regression is also seen with functions aligned to 64 bytes.$" "$m" &&
	test_grep "^sched-bot noticed a -[0-9.]*% regression of spawn.lps" "$m" &&
	test_grep ! "^Tested-by:" "$m"
'

test_done
