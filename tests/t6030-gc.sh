#!/bin/sh
# `sched-bot gc` keeps the disk within gc.maxDiskBytes: finished jobs'
# kernels, consoles and build logs go first, then build slots and
# artifacts, then lore cache entries, oldest first; a running (locked)
# job, one whose reply is not sent, and the files a finished job is
# read for (results.csv, compare.json, reply.eml, state, ...) stay.
# Everything here is fabricated: 50 job directories, a build cache and
# a lore cache of known sizes; nothing is built or booted.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

command -v jq >/dev/null || test_skip_all "jq is not installed"
command -v flock >/dev/null || test_skip_all "flock (util-linux) is not installed"

CFG=$TRASH/bot.cfg
bot_config "$CFG"
git config -f "$CFG" build.cacheDir "$TRASH/builds"
git config -f "$CFG" gc.keepJobs 0
export SCHED_BOT_CONFIG=$CFG
J=$TRASH/bot-data/jobs
BOX=$TRASH/bot-data/outbox
T0=1700000000

# fab_job NAME MINUTE [sent|unsent]: a finished job, its state dated
# T0 + MINUTE minutes, 3 x 64 KiB of logs and its reply in the outbox.
fab_job() {
	d=$J/$1
	mkdir -p "$d" "$BOX/new" "$BOX/cur" &&
	printf 'stage=done\nmsgid=%s@example.org\noutcome=tested\nreply_msgid=reply-%s@sched-bot.example.org\n' \
		"$1" "$1" >"$d/state" &&
	for f in results.csv compare.json reply.eml series.json verdict.txt; do
		echo "$1 $f" >"$d/$f" || return 1
	done &&
	for f in build-base.log build-head.log console-base.log; do
		head -c 65536 /dev/urandom >"$d/$f" || return 1
	done &&
	if [ "${3:-sent}" = sent ]; then
		cp "$d/reply.eml" "$BOX/cur/reply-$1@sched-bot.example.org:2,S"
	else
		cp "$d/reply.eml" "$BOX/new/reply-$1@sched-bot.example.org"
	fi &&
	touch -d "@$((T0 + $2 * 60))" "$d"/*
}

test_expect_success 'setup: 50 finished jobs, a running and an unsent one, builds, lore' '
	i=1 &&
	while [ $i -le 50 ]; do
		fab_job "job-$(printf %02d $i)" $((i + 10)) || exit 1
		i=$((i + 1))
	done &&
	fab_job job-running 1 &&
	fab_job job-unsent 2 unsent &&
	mkdir -p builds/slot-abc/obj builds/art-1111-cfg builds/art-2222-cfg \
		cache/sched-bot/lore &&
	head -c 131072 /dev/urandom >builds/slot-abc/obj/vmlinux &&
	head -c 131072 /dev/urandom >builds/art-1111-cfg/bzImage &&
	head -c 131072 /dev/urandom >builds/art-2222-cfg/bzImage &&
	touch -d "@$((T0 + 100 * 60))" builds/art-1111-cfg/bzImage builds/art-1111-cfg &&
	touch -d "@$((T0 + 200 * 60))" builds/slot-abc/obj/vmlinux builds/slot-abc/obj builds/slot-abc &&
	touch -d "@$((T0 + 300 * 60))" builds/art-2222-cfg/bzImage builds/art-2222-cfg &&
	head -c 32768 /dev/urandom >cache/sched-bot/lore/t-old@example.org-0000 &&
	touch -d "@$T0" cache/sched-bot/lore/t-old@example.org-0000 &&
	# job-running is worked on: another process holds its lock
	: >"$J/job-running/lock" &&
	{ perl -MFcntl=:flock -e "open(F, \"<\", \$ARGV[0]) or die; flock(F, LOCK_EX) or die; sleep 600" \
		"$J/job-running/lock" & } &&
	echo $! >holder.pid &&
	n=0 && until ! flock -n "$J/job-running/lock" true; do
		n=$((n + 1)); test $n -lt 200 || exit 1; sleep 0.05
	done
'
test_atexit 'kill $(cat "$TRASH/holder.pid") 2>/dev/null'

# 1 KiB: less than what gc may delete can reach, so it lists all of it
test_expect_failure_code 'gc --dry-run under a tiny budget: exit 1, over budget' 1 '
	git config -f "$CFG" gc.maxDiskBytes 1024 &&
	"$SCHED_BOT" gc --dry-run >dry
'

test_expect_success '... listing job files, then builds, then lore, oldest first' '
	grep "^would delete" dry | awk "{ print \$3 }" | uniq >kinds &&
	printf "job-files\nbuild\nlore\n" >expect &&
	test_cmp expect kinds &&
	test "$(grep -c "^would delete job-files" dry)" -eq 150 &&
	grep "^would delete job-files" dry | awk "{ print \$5 }" |
		sed "s|.*/\(job-[0-9]*\)/.*|\1|" | uniq >jobs-order &&
	seq -f "job-%02g" 1 50 >expect &&
	test_cmp expect jobs-order &&
	grep "^would delete build" dry | awk "{ print \$5 }" |
		sed "s|.*/||" >builds-order &&
	printf "art-1111-cfg\nart-2222-cfg\n" >expect &&
	test_cmp expect builds-order &&
	test_grep "^would delete lore .*/t-old@example.org-0000$" dry &&
	test_grep "^would free: 153 item(s), " dry &&
	test_grep "^kept: 1 running job(s) kept, and every build slot$" dry &&
	test_grep "^kept: 1 job(s) with a reply not yet sent kept$" dry
'

test_expect_success '... with sizes that add up to the total' '
	grep "^would delete" dry | awk "{ s += \$4 } END { print s }" >sum &&
	sed -n "s/^would free: [0-9]* item(s), \([0-9]*\) bytes$/\1/p" dry >total &&
	test_cmp sum total &&
	test "$(grep "^would delete job-files" dry | awk "{ print \$4 }" | sort -u)" -ge 65536 &&
	test "$(sed -n "s/^disk use: \([0-9]*\) bytes before.*/\1/p" dry)" -gt "$(cat total)"
'

test_expect_success '... and deletes nothing' '
	test_grep "^would delete job-files .*/job-01/build-base.log$" dry &&
	test -f "$J/job-01/build-base.log" &&
	test -f builds/art-1111-cfg/bzImage &&
	test -f cache/sched-bot/lore/t-old@example.org-0000
'

test_expect_success 'never listed: the running job, the unsent one, kept files' '
	test_grep ! "job-running\|job-unsent" dry &&
	test_grep ! "/results.csv\|/compare.json\|/reply.eml\|/state$\|/series.json\|/verdict.txt" dry
'

test_expect_success '--json lists the same, in the same order' '
	rc=0 && "$SCHED_BOT" gc --dry-run --json >dry.json || rc=$? &&
	test $rc -eq 1 &&
	jq -r ".items[] | \"\(.kind) \(.bytes) \(.path)\"" dry.json >json-items &&
	grep "^would delete" dry | awk "{ print \$3, \$4, \$5 }" >text-items &&
	test_cmp text-items json-items &&
	test "$(jq .dry_run dry.json)" = true &&
	test "$(jq .budget dry.json)" -eq 1024
'

# A budget that the first 20 jobs' files freed reach: the other jobs,
# the builds and the lore cache stay.
test_expect_success 'gc under a budget deletes the oldest until the total is under it' '
	before=$(jq .before.total dry.json) &&
	twenty=$(jq "[.items[] | select(.kind == \"job-files\")][0:60] | map(.bytes) | add" dry.json) &&
	budget=$((before - twenty)) &&
	git config -f "$CFG" gc.maxDiskBytes $budget &&
	"$SCHED_BOT" gc --json >gc.json &&
	test "$(jq .after.total gc.json)" -le $budget &&
	test "$(jq "[.items[]] | length" gc.json)" -eq 60 &&
	test "$(jq -r ".items[].path" gc.json | sed "s|.*/\(job-[0-9]*\)/.*|\1|" | sort -u | wc -l)" -eq 20 &&
	test ! -e "$J/job-20/console-base.log" &&
	test -f "$J/job-21/console-base.log" &&
	test -f builds/art-1111-cfg/bzImage &&
	test -f cache/sched-bot/lore/t-old@example.org-0000
'

test_expect_success 'every finished job keeps results.csv, compare.json, reply.eml, state' '
	for d in "$J"/job-*; do
		for f in results.csv compare.json reply.eml state series.json verdict.txt; do
			test -s "$d/$f" || { echo "missing $d/$f"; exit 1; }
		done
	done
'

test_expect_success 'the running and the unsent job are untouched' '
	for d in job-running job-unsent; do
		for f in build-base.log build-head.log console-base.log; do
			test "$(wc -c <"$J/$d/$f")" -eq 65536 || exit 1
		done
	done
'

test_expect_success 'once the unsent reply is sent and the lock free, gc may trim them' '
	kill $(cat holder.pid) &&
	n=0 && until flock -n "$J/job-running/lock" true; do
		n=$((n + 1)); test $n -lt 200 || exit 1; sleep 0.05
	done &&
	mv "$BOX/new/reply-job-unsent@sched-bot.example.org" \
		"$BOX/cur/reply-job-unsent@sched-bot.example.org:2,S" &&
	git config -f "$CFG" gc.maxDiskBytes 1024 &&
	rc=0 && "$SCHED_BOT" gc --dry-run >dry2 || rc=$? &&
	test $rc -eq 1 &&
	test_grep "^would delete job-files .*/job-running/build-base.log$" dry2 &&
	test_grep "^would delete job-files .*/job-unsent/build-base.log$" dry2 &&
	grep "^would delete build" dry2 | awk "{ print \$5 }" |
		sed "s|.*/||" >builds-order &&
	printf "art-1111-cfg\nslot-abc\nart-2222-cfg\n" >expect &&
	test_cmp expect builds-order
'

test_expect_success 'gc.keepJobs spares the newest finished jobs' '
	git config -f "$CFG" gc.keepJobs 5 &&
	rc=0 && "$SCHED_BOT" gc --dry-run >dry3 || rc=$? &&
	test $rc -eq 1 &&
	test_grep "^kept: the newest 5 finished job(s) kept (gc.keepJobs)" dry3 &&
	test_grep ! "/job-4[6-9]/\|/job-50/" dry3 &&
	test_grep "/job-45/console-base.log" dry3
'

test_expect_success 'gc.keepDays deletes old entries whatever the budget' '
	git config -f "$CFG" gc.maxDiskBytes 0 &&
	git config -f "$CFG" gc.keepDays 1 &&
	"$SCHED_BOT" gc --dry-run >dry4 &&
	test_grep "^would delete lore .*t-old@example.org-0000 (older than gc.keepDays)$" dry4 &&
	touch cache/sched-bot/lore/t-old@example.org-0000 &&
	"$SCHED_BOT" gc --dry-run >dry5 &&
	test_grep ! "t-old@example.org" dry5 &&
	test_grep "^would free: " dry5
'

test_done
