#!/bin/sh
# The reply of every kind, whole: each fixture job directory left at the
# reply stage (tests/data/bot/job-*) is rendered by `test --job-dir`
# and compared with its golden mail (tests/data/golden/*.eml), only the
# volatile fields normalised (bot_mail_normalise); and no golden has
# an orphan word, a line of one or two words before an indented
# continuation (bot_mail_orphans).  No kernel is built or booted.
#
# To regenerate after a deliberate change of the reply:
#   GOLDEN_UPDATE=1 make check T=t6013
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

GOLDEN=$DATA/golden
COMPLETE=$DATA/intake/short-task-wakeup-v3-complete.mbox

bot_config "$TRASH/bot.cfg" 1
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# The plan of the thread, as the plan stage writes it to plan.txt, with
# hackbench the only tool on PATH: what the host has installed must not
# change the plan.
mkdir -p "$TRASH/tools" && : >"$TRASH/tools/hackbench" &&
	chmod +x "$TRASH/tools/hackbench"
job_plan() {
	PATH=$TRASH/tools "$SCHED_BOT" plan "$1/thread.mbox" --cpus 2 \
		--seconds 5 >"$1/plan.txt"
}

# kind fixture [thread]: the reply of the fixture, normalised, against
# tests/data/golden/kind.eml; with "complete", the whole v3 thread (its
# benchmarks choose the plan) and the plan of it.
golden() {
	bot_job "$2" "$1" &&
	if [ "${3-}" = complete ]; then
		cp "$COMPLETE" "$1/thread.mbox" && job_plan "$1"
	fi &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$1" >/dev/null 2>"$1.err" || rc=$? &&
	case $rc in 0|1|5) ;; *) cat "$1.err"; return 1 ;; esac &&
	bot_mail_normalise "$1/reply.eml" >"$1.eml" &&
	if [ -n "${GOLDEN_UPDATE-}" ]; then cp "$1.eml" "$GOLDEN/$1.eml"; fi &&
	test_cmp "$GOLDEN/$1.eml" "$1.eml" &&
	bot_mail_orphans "$1.eml"
}

test_expect_success 'Tested-by: an improvement, tested on a substitute base' '
	golden tested job-improved complete &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" tested.eml
'

test_expect_success 'a regression: no Tested-by, the metric named' '
	golden regression job-regression &&
	test_grep ! "^Tested-by:" regression.eml &&
	# "name = value" is never broken: no line starts at its "="
	test_grep ! "^ *= " regression.eml
'

test_expect_success 'no change: Tested-by' '
	golden no-change job-tested &&
	test_grep "^Tested-by:" no-change.eml
'

test_expect_success 'emulated (TCG): no Tested-by, it tests the pipeline' '
	golden emulated job-tcg &&
	test_grep ! "^Tested-by:" emulated.eml
'

test_expect_success 'noisy: no Tested-by' '
	golden noisy job-noisy &&
	test_grep ! "^Tested-by:" noisy.eml
'

test_expect_success 'identical binaries: nothing measured, no Tested-by' '
	golden identical job-identical &&
	test_grep ! "^Tested-by:" identical.eml
'

test_expect_success 'a build failure: the log, no results' '
	golden build-failed job-build-failed &&
	test_grep ! "^Results" build-failed.eml
'

test_expect_success 'an apply failure: the log and the hint' '
	golden apply-failed job-apply-failed &&
	test_grep "^Hint: " apply-failed.eml
'

test_expect_success 'the orphan check finds what double wrapping leaves' '
	printf "H: x\n\n- a: b c\n  pipe,\n  unpinned\n[1]\n<id@x>\n" >orphans &&
	! bot_mail_orphans orphans >found &&
	printf "4:   pipe,\n6: [1]\n" >expect &&
	test_cmp expect found
'

test_done
