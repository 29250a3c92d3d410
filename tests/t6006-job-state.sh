#!/bin/sh
# A job keeps the options it was started with: different ones are
# refused unless --restart starts the job over; one process at a time
# works on a job directory (flock); state files written before the
# state was typed still resume; series.json is `series --json`.
# b4's test repository stands in for the kernel tree, as in t6003: the
# series applies and the build then fails, so no test here builds or
# boots anything.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

MBOX=$DATA/apply/shazam-git1-just-series.mbox
OTHER=$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox
[ -f "$DATA/intake/b4/gitdir.bundle" ] || test_fail_all "tests/data/intake/b4/gitdir.bundle is missing"
command -v make >/dev/null || test_skip_all "make is not installed"
command -v flock >/dev/null || test_skip_all "flock (util-linux) is not installed"

bot_job_tree_config "$TRASH/bot.cfg"
export SCHED_BOT_CONFIG=$TRASH/bot.cfg
J=$TRASH/jobs/one

test_expect_success 'setup: the tree, a job with --runs 2 stopped after its series' '
	git clone -q --bare "$DATA/intake/b4/gitdir.bundle" repo.git &&
	cp "$MBOX" series.mbox &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-series "$SCHED_BOT" test --mbox series.mbox \
		--job-dir "$J" --runs 2 --workloads spawn 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "^runs=2$" "$J/state" &&
	cp "$J/state" state.before
'

test_expect_failure_code 'resumed with --runs 10: refused' 2 '
	"$SCHED_BOT" test --job-dir "$J" --runs 10 2>err
'

test_expect_success '... naming the stored value and --restart, changing nothing' '
	echo "sched-bot: error: job $J was started with --runs 2; run with --runs 2, or --restart to start it over with --runs 10" >expect &&
	grep "error:" err >actual &&
	test_cmp expect actual &&
	test_cmp state.before "$J/state"
'

test_expect_failure_code 'every option that differs is named' 2 '
	"$SCHED_BOT" test --job-dir "$J" --runs 10 --target bigbox \
		--workloads hackbench --base v1 2>err
'

test_expect_success '... each with its stored value' '
	cat >expect <<-EOF &&
	sched-bot: error: job $J was started with --target qemu; run with --target qemu, or --restart to start it over with --target bigbox
	sched-bot: error: job $J was started with --workloads spawn; run with --workloads spawn, or --restart to start it over with --workloads hackbench
	sched-bot: error: job $J was started with --runs 2; run with --runs 2, or --restart to start it over with --runs 10
	sched-bot: error: job $J was started without --base; run without --base, or --restart to start it over with --base v1
	EOF
	grep "error:" err >actual &&
	test_cmp expect actual &&
	test_cmp state.before "$J/state"
'

test_expect_failure_code 'another mbox is another thread: refused' 2 '
	"$SCHED_BOT" test --job-dir "$J" --mbox "$OTHER" 2>err
'

test_expect_success '... naming the mbox the job has' '
	test_grep "error: job $J was started with --mbox $TRASH/series.mbox; run with --mbox $TRASH/series.mbox, or --restart to start it over with --mbox $OTHER" err &&
	test_cmp state.before "$J/state"
'

test_expect_success 'the stored options given again resume the job' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-apply "$SCHED_BOT" test --job-dir "$J" \
		--runs 2 --target qemu --workloads spawn 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "resuming job $J at stage apply" err &&
	test_grep "^stage=build$" "$J/state" &&
	test_grep "^base_commit=f435c12df7c0ecf20ab8937859e63cddffacabb4$" "$J/state"
'

test_expect_success '--restart starts over with --runs 10, keeping the thread fetched' '
	echo "stale,results" >"$J/results.csv" &&
	mkdir "$J/run-1-base" &&
	cp "$J/thread.mbox" thread.before &&
	rm series.mbox &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-series "$SCHED_BOT" test --job-dir "$J" \
		--runs 10 --restart 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "starting job $J over at stage series, with the thread fetched before" err &&
	test_cmp thread.before "$J/thread.mbox" &&
	test_grep "^runs=10$" "$J/state" &&
	test_grep "^workloads=spawn$" "$J/state" &&
	test_grep "^target=qemu$" "$J/state" &&
	test_grep "^mbox=$TRASH/series.mbox$" "$J/state" &&
	test_grep "^stage=apply$" "$J/state" &&
	test_grep ! "^base_commit=" "$J/state" &&
	test ! -e "$J/results.csv" &&
	test ! -e "$J/run-1-base" &&
	test ! -e "$J/apply.log" &&
	test -s "$J/series.json"
'

test_expect_success 'series.json is what `series --json` prints for the thread' '
	"$SCHED_BOT" series --mbox "$MBOX" --json >expect &&
	test_cmp expect "$J/series.json"
'

test_expect_failure_code '... and the job goes on with the new options' 1 '
	"$SCHED_BOT" test --job-dir "$J" 2>err
'

test_expect_success '... to the build, where this tree stops' '
	test_grep "resuming job $J at stage apply" err &&
	test_grep "stopped at stage build" err &&
	test_grep "^runs=10$" "$J/state" &&
	test_grep "^stage=build$" "$J/state"
'

test_expect_success '--restart onto another thread fetches it' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-fetch "$SCHED_BOT" test --job-dir "$J" \
		--mbox "$OTHER" --restart 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "starting job $J over at stage fetch" err &&
	test_cmp "$OTHER" "$J/thread.mbox" &&
	test_grep "^mbox=$OTHER$" "$J/state" &&
	test_grep "^runs=10$" "$J/state" &&
	test_grep ! "^cover_msgid=" "$J/state" &&
	test ! -e "$J/series.json"
'

# What the state file looked like when it was an untyped key=value bag:
# every option written, unset ones empty, "stage" after them.
test_expect_success 'a state file of the untyped kind resumes' '
	mkdir -p jobs/old &&
	cp "$MBOX" jobs/old/thread.mbox &&
	cat >jobs/old/state <<-EOF &&
	msgid=
	mbox=$MBOX
	target=qemu
	workloads=spawn
	runs=3
	base=
	requested_by=
	stage=apply
	cover_msgid=20221025-test1-v1-0-e4f28f57990c@linuxfoundation.org
	subject=This is a cover for test series 1
	author=Konstantin Ryabitsev
	author_email=konstantin@linuxfoundation.org
	version=1
	nr_patches=4
	series_base=f435c12df7c0ecf20ab8937859e63cddffacabb4
	EOF
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-apply "$SCHED_BOT" test \
		--job-dir "$TRASH/jobs/old" --runs 3 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "resuming job $TRASH/jobs/old at stage apply" err &&
	test_grep "^stage=build$" jobs/old/state &&
	test_grep "^base_commit=f435c12df7c0ecf20ab8937859e63cddffacabb4$" jobs/old/state &&
	test_grep "^runs=3$" jobs/old/state &&
	test_grep "^nr_patches=4$" jobs/old/state &&
	test_grep ! "=$" jobs/old/state
'

# The state of a job started with --runs 5 (runs_fixed): its reproduce
# line keeps the fixed design; an adaptive job's has no --runs (t6010).
test_expect_success 'an untyped state at the reply stage: the reply reads its numbers' '
	mkdir -p jobs/oldreply &&
	cp "$OTHER" jobs/oldreply/thread.mbox &&
	echo "Patch 1/1 did not apply" >jobs/oldreply/failure.txt &&
	cat >jobs/oldreply/state <<-EOF &&
	msgid=
	mbox=$OTHER
	target=qemu
	workloads=spawn,pingpong
	runs=5
	runs_fixed=1
	base=
	requested_by=
	stage=reply
	cover_msgid=20250314151345.275739-1-dietmar.eggemann@arm.com
	subject=Revert "sched/core: Reduce cost of sched_move_task when config autogroup"
	author=Dietmar Eggemann
	author_email=dietmar.eggemann@arm.com
	version=1
	nr_patches=1
	series_base=
	base_hint=
	base_desc=HEAD (default base)
	outcome=apply-failed
	EOF
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$TRASH/jobs/oldreply" >out 2>err || rc=$? &&
	test $rc -eq 1 &&
	test_grep "^stage=done$" jobs/oldreply/state &&
	m=$(cat out) &&
	test_grep "could not apply this series (v1, 1 patch) to HEAD (default$" "$m" &&
	test_grep -e "--workloads spawn,pingpong --runs 5" "$m"
'

test_expect_failure_code 'a number in the state file that is not one is refused' 2 '
	sed "s/^runs=3$/runs=3x/" jobs/old/state >bad &&
	mv bad jobs/old/state &&
	"$SCHED_BOT" test --job-dir "$TRASH/jobs/old" 2>err
'

test_expect_success '... saying where' '
	n=$(grep -n "^runs=" jobs/old/state | cut -d: -f1) &&
	test_grep "error: $TRASH/jobs/old/state:$n: runs: .3x. is not a number" err
'

# flock(1) holds the job's lock until the test lets it go: the fifo
# "held" says it has the lock, "release" ends it.
test_expect_success 'a job locked by another process (flock) is refused at once' '
	mkfifo held release &&
	{ flock "$J/lock" sh -c "echo >held; read x <release" & } &&
	holder=$! &&
	read x <held &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J" 2>err || rc=$? &&
	echo >release &&
	wait $holder &&
	test $rc -eq 1 &&
	echo "sched-bot: error: job $J is in use by process $holder (it holds $J/lock); wait for it to end" >expect &&
	grep "error:" err >actual &&
	test_cmp expect actual &&
	test_grep "^stage=series$" "$J/state"
'

# The first sched-bot reads its mbox from a fifo: when the test's open
# of the fifo for writing returns, the first one is in its fetch stage,
# so it holds the lock; it waits there until the test writes the mbox.
# Should it end without opening the fifo, its wrapper opens it, so the
# test fails instead of hanging.  The second is given --runs 7, which
# differs from the job's: were the lock not taken first, it would exit
# 2 there rather than wait on the fifo.
test_expect_success 'two runs on one job: the second exits at once' '
	mkfifo thread.fifo &&
	{
		(
			SCHED_BOT_CRASH_AT=after-fetch "$SCHED_BOT" test \
				--mbox thread.fifo --job-dir "$TRASH/jobs/two" \
				2>err1
			echo $? >rc1
			exec 4<>thread.fifo
		) &
	} &&
	first=$! &&
	exec 3>thread.fifo &&
	# the first run takes the lock, then blocks reading the fifo: wait
	# for the lock to name it (a bounded wait, not a timing assertion)
	n=0 && until test -s jobs/two/lock || test $n -ge 600; do
		sleep 0.1; n=$((n + 1)); done &&
	pid=$(cat jobs/two/lock) &&
	test -n "$pid" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$TRASH/jobs/two" --runs 7 2>err2 ||
		rc=$? &&
	cat "$MBOX" >&3 &&
	exec 3>&- &&
	wait $first &&
	test $rc -eq 1 &&
	echo "sched-bot: error: job $TRASH/jobs/two is in use by process $pid (it holds $TRASH/jobs/two/lock); wait for it to end" >expect &&
	grep "error:" err2 >actual &&
	test_cmp expect actual &&
	test "$(cat rc1)" -eq 137 &&
	test_cmp "$MBOX" jobs/two/thread.mbox
'

test_expect_success '... and once the first is gone, the job is free again' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-series "$SCHED_BOT" test \
		--job-dir "$TRASH/jobs/two" 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "resuming job $TRASH/jobs/two at stage series" err &&
	test_grep "^stage=apply$" jobs/two/state
'

test_done
