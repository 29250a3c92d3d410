#!/bin/sh
# `sched-bot test` keeps each stage's output in the job directory and
# resumes where a killed run stopped, like git am's state directory.
# b4's small test repository stands in for the kernel tree: the series
# applies, and the build stage then fails (it is not a kernel), which
# is where these tests stop.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

MBOX=$DATA/apply/shazam-git1-just-series.mbox
[ -f "$DATA/intake/b4/gitdir.bundle" ] || test_fail_all "tests/data/intake/b4/gitdir.bundle is missing"
command -v make >/dev/null || test_skip_all "make is not installed"

bot_job_tree_config "$TRASH/bot.cfg"
export SCHED_BOT_CONFIG=$TRASH/bot.cfg
J=$TRASH/jobs/one

test_expect_success 'setup: the tree' '
	git clone -q --bare "$DATA/intake/b4/gitdir.bundle" repo.git
'

test_expect_success 'killed after fetch: the thread is kept, next stage recorded' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-fetch "$SCHED_BOT" test --mbox "$MBOX" \
		--job-dir "$J" --runs 3 --workloads spawn 2>err || rc=$? &&
	test $rc -eq 137 &&
	cmp "$MBOX" "$J/thread.mbox" &&
	test_grep "^stage=series$" "$J/state" &&
	test ! -f "$J/series.json"
'

test_expect_success 'killed after series: series.json written' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-series "$SCHED_BOT" test --job-dir "$J" \
		2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "resuming job .* at stage series" err &&
	test_grep "^stage=apply$" "$J/state" &&
	test_grep "\"version\": 1" "$J/series.json" &&
	sed -n "/\"cover\": {/,/}/p" "$J/series.json" >cover &&
	test_grep "\"msgid\": \"20221025-test1-v1-0-e4f28f57990c@linuxfoundation.org\"" cover &&
	test "$(grep -c "\"index\":" "$J/series.json")" -eq 4
'

test_expect_failure_code 'resumed: applies, then stops at the build' 1 '
	"$SCHED_BOT" test --job-dir "$J" 2>err
'

test_expect_success '... keeping the commits and the options of the first run' '
	test_grep "resuming job .* at stage apply" err &&
	test_grep "stopped at stage build" err &&
	test_grep "^stage=build$" "$J/state" &&
	test_grep "^base_commit=f435c12df7c0ecf20ab8937859e63cddffacabb4$" "$J/state" &&
	head=$(sed -n "s/^head_commit=//p" "$J/state") &&
	git --git-dir=repo.git cat-file -e "$head^{commit}" &&
	test "$(git --git-dir=repo.git rev-list --count f435c12..$head)" -eq 4 &&
	test_grep "^runs=3$" "$J/state" &&
	test_grep "^workloads=spawn$" "$J/state" &&
	test -s "$J/apply.log"
'

test_expect_failure_code 'a series that does not apply gets a short report' 1 '
	"$SCHED_BOT" test --mbox "$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		--job-dir "$TRASH/jobs/revert" >out 2>err
'

test_expect_success '... in the outbox, threaded, saying which patch and file' '
	test_grep "^outcome=apply-failed$" jobs/revert/state &&
	test_grep "^stage=done$" jobs/revert/state &&
	m=$(cat out) &&
	test_grep "^In-Reply-To: <" "$m" &&
	test_grep "could not apply this series" "$m" &&
	test_grep "kernel/sched/core.c" "$m" &&
	test_grep ! "Tested-by" "$m" &&
	test_grep "^    sched-bot test " "$m"
'

test_expect_failure_code 'a job directory of another thread is refused' 2 '
	"$SCHED_BOT" test --job-dir "$J" other@example.org
'

test_expect_failure_code 'no series to test is a usage error' 2 '
	"$SCHED_BOT" test
'

test_expect_failure_code '--runs must be positive' 2 '
	"$SCHED_BOT" test --runs 0 x@y
'

test_expect_failure_code 'a missing mbox is not found' 3 '
	"$SCHED_BOT" test --mbox nowhere.mbox --job-dir "$TRASH/jobs/two"
'

test_done
