#!/bin/sh
# sched-bot series: revision, cover, patches, missing ones, trailers and
# base on the real kernel threads in tests/data/intake.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-intake.sh"
I=$DATA/intake

# The JSON is pretty-printed; compare arrays on one line.
flat() {
	tr -d " \n" <"$1"
}

test_expect_success 'sched-dl-suspend v4: 8 patches, cover trailers on all' '
	"$SCHED_BOT" series --mbox "$I/cgroups/sched-dl-suspend-v4.mbox" --json >out &&
	test_grep "\"version\": 4" out &&
	test_grep "\"total\": 8" out &&
	test_grep "\"missing\": \[\]" out &&
	test $(grep -c "\"index\":" out) -eq 8 &&
	test $(grep -c "\"email\": \"dietmar.eggemann@arm.com\"" out) -ge 16 &&
	test_grep "\"commit\": \"0fed89a961ea851945d23cc35beb59d6e56c0964\"" out &&
	test_grep "\"source\": \"base-commit\"" out
'

test_expect_success "... and the lists it was sent to, for choosing trees" '
	"$SCHED_BOT" series --mbox "$I/cgroups/sched-dl-suspend-v4.mbox" --json >out &&
	flat out >flat.out &&
	test_grep "\"sent_to\":\[\"linux-kernel@vger.kernel.org\"," flat.out &&
	test_grep "\"mingo@redhat.com\"" flat.out
'

test_expect_success 'sched-dl-suspend v1..v3 and the stray v3 cover' '
	"$SCHED_BOT" series --mbox "$I/cgroups/sched-dl-suspend-v1.mbox" --json >v1 &&
	test_grep "\"total\": 5" v1 && test_grep "\"version\": 1" v1 &&
	"$SCHED_BOT" series --mbox "$I/cgroups/sched-dl-suspend-v3.mbox" >v3 &&
	test_grep "v3 4/8" v3 &&
	test $(grep -c "+ Reviewed-by: Valentin Schneider <vschneid@redhat.com>" v3) -eq 7 &&
	cat "$I/cgroups/sched-dl-suspend-v3.mbox" \
		"$I/cgroups/sched-dl-suspend-v3-botched-resend.mbox" >both &&
	"$SCHED_BOT" series --mbox both --json >b &&
	test_grep "\"msgid\": \"20250310091935.22923-1-juri.lelli@redhat.com\"" b &&
	test_grep "\"missing\": \[\]" b
'

test_expect_success 'a stray cover alone: every patch missing' '
	"$SCHED_BOT" series --mbox \
		"$I/cgroups/sched-dl-suspend-v3-botched-resend.mbox" --json >j &&
	flat j | test_grep "\"missing\":\[1,2,3,4,5,6,7,8\]"
'

test_expect_success 'rootdomain v2: 3/2 joins, Waiman (llong@) and Phil on all 3' '
	"$SCHED_BOT" series --mbox "$I/cgroups/sched-dl-rootdomain-hotplug-v2.mbox" >out &&
	test_grep "\[PATCH v2 3/2\] sched/deadline: Check bandwidth overflow earlier" out &&
	test $(grep -c "+ Tested-by: Waiman Long <longman@redhat.com>$" out) -eq 3 &&
	test $(grep -c "+ Reviewed-by: Phil Auld <pauld@redhat.com>$" out) -eq 3 &&
	test_grep "^Total patches: 3$" out
'

test_expect_success 'trailers match what tip applied: rootdomain v2' '
	"$SCHED_BOT" am --mbox "$I/cgroups/sched-dl-rootdomain-hotplug-v2.mbox" \
		-o am.mbox --no-link &&
	tip_check am.mbox "$I/tip/tip-sched-dl-rootdomain-hotplug-v2.mbox" &&
	test $(wc -l <tip.subjects) -eq 3
'

test_expect_success 'trailers match what tip applied: sched-dl-suspend v4' '
	"$SCHED_BOT" am --mbox "$I/cgroups/sched-dl-suspend-v4.mbox" \
		-o am.mbox --no-link &&
	tip_check am.mbox "$I/tip/tip-sched-dl-suspend-v4.mbox" &&
	test $(wc -l <tip.subjects) -eq 8
'

test_expect_success 'trailers match what tip applied: the sched_move_task revert' '
	"$SCHED_BOT" am --mbox \
		"$I/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		-o am.mbox --no-link &&
	tip_check am.mbox "$I/tip/tip-revert-sched_move_task.mbox" &&
	test_grep "Reviewed-by: Vincent Guittot" ours.rt
'

test_expect_success 'numa-stats: rfc and v1..v6 each pick their revision' '
	for v in rfc v1 v2 v3 v4 v5 v6; do
		"$SCHED_BOT" series --mbox "$I/cgroups/sched-numa-stats-$v.mbox" \
			--json >$v || exit 1
	done &&
	test_grep "\"version\": 6" v6 &&
	test_grep "\"rfc\": true" rfc &&
	test_grep "\"total\": 2" v6
'

test_expect_success 'revert: the quoted trailers do not count, Vincent does' '
	"$SCHED_BOT" series --mbox \
		"$I/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" --json >out &&
	test_grep "\"tag\": \"Reviewed-by\"" out &&
	test_grep "\"email\": \"vincent.guittot@linaro.org\"" out &&
	test $(grep -c "\"from_msgid\": \"" out) -eq 1
'

test_expect_success 'place-deadline: v2 by default, --revision 1 picks the first' '
	"$SCHED_BOT" series --mbox \
		"$I/lkml/place-deadline-initial/thread-partial.mbox" >out &&
	test_grep "+ Tested-by: K Prateek Nayak <kprateek.nayak@amd.com>" out &&
	test_grep "^Versions seen: v1 v2\*$" out &&
	"$SCHED_BOT" series --revision 1 --mbox \
		"$I/lkml/place-deadline-initial/thread-partial.mbox" >out1 &&
	test_grep "^Versions seen: v1\* v2$" out1 &&
	test_grep ! "Tested-by" out1
'

test_expect_failure_code 'a revision not in the thread is a failure' 1 \
	'"$SCHED_BOT" series --revision 9 --mbox "$I/lkml/place-deadline-initial/thread-partial.mbox"'

test_expect_success 'short-task-wakeup v3: 2/2 missing, listed as such' '
	"$SCHED_BOT" series --mbox "$I/short-task-wakeup-v3-partial.mbox" >out &&
	test_grep "ERROR: missing \[2/2\]!" out &&
	"$SCHED_BOT" series --mbox "$I/short-task-wakeup-v3-partial.mbox" --json >j &&
	flat j | test_grep "\"missing\":\[2\]"
'

test_expect_success 'short-task-wakeup v3 complete: base from the prose' '
	"$SCHED_BOT" series --mbox "$I/short-task-wakeup-v3-complete.mbox" --json >j &&
	test_grep "\"missing\": \[\]" j &&
	test_grep "\"ref\": \"v6.1-rc6\"" j &&
	test_grep "\"source\": \"patch text\"" j &&
	test_grep "\"subject\": \"sched/fair: Choose the CPU where short task is running during wake up\"" j &&
	test_grep "\"email\": \"yu.c.chen@intel.com\"" j
'

test_expect_success 'a single .eml is a thread of one' '
	"$SCHED_BOT" series --mbox "$I/single/qp-iso8859-1-patch.eml" --json >j &&
	test_grep "\"total\": 1" j
'

test_expect_failure_code 'a thread with no patch is a failure' 1 \
	'"$SCHED_BOT" series --mbox "$I/single/gbk-8bit-reply.eml"'

test_expect_failure_code 'a missing file is "not found"' 3 \
	'"$SCHED_BOT" series --mbox nonexistent.mbox'

test_expect_failure_code 'no msgid and no --mbox is a usage error' 2 \
	'"$SCHED_BOT" series'

test_expect_failure_code 'a bad --revision is a usage error' 2 \
	'"$SCHED_BOT" series --revision x --mbox "$I/single/qp-iso8859-1-patch.eml"'

test_done
