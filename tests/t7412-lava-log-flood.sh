#!/bin/sh
# A LAVA job whose log grows without end: a stand-in lab on 127.0.0.1
# (lib-hostile-lab.sh, a Perl script: a real LAVA will not serve such a
# log on demand) answers 20 polls with 40 MB of console lines each, or
# with one line that never ends.  The bot keeps target.NAME.maxConsole
# bytes of the job's console over all its reads, reads the log in
# bounded chunks, cancels the job, says "console output cut at 4 MB",
# and its memory stays near that budget (without the bound:
# console.log and the bot grew by 40 MB a poll).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile-lab.sh"

hostile_lab_start || test_fail_all "the stand-in lab did not start"

MB=1048576
# the stated bound: a 4 MB budget, a 4 MB chunk of the log, the bot
RSS_MAX_KB=65536

echo sekrit-token >"$TRASH/token"
mkdir -p "$XDG_CONFIG_HOME/sched-bot"
cat >"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "lab"]
	type = lava
	url = $HOSTILE_LAB_URL
	tokenFile = $TRASH/token
	pollInterval = 100
	retries = 0
	timeout = 300
	maxConsole = 4M
EOF
printf 'not really a kernel\n' >"$TRASH/bzImage"

# boot MODE: a boot on the lab whose log is MODE, its peak memory in
# MODE.rss, its exit code in MODE.rc, the lab's requests in MODE.req.
boot() {
	echo "$1" >"$HOSTILE_LAB/mode"
	: >"$HOSTILE_LAB/requests"
	rc=0
	test_peak_rss "$TRASH/$1.rss" "$SCHED_BOT" boot --target lab \
		--kernel "$TRASH/bzImage" --workloads spawn --runs 1 -t 1 \
		--workdir "$TRASH/$1" -o "$TRASH/$1.csv" \
		>"$TRASH/$1.out" 2>"$TRASH/$1.err" || rc=$?
	echo $rc >"$TRASH/$1.rc"
	cp "$HOSTILE_LAB/requests" "$TRASH/$1.req"
}

boot flood
boot oneline

test_expect_success 'a log that grows without end: cut, said, the job cancelled' '
	test "$(cat flood.rc)" -eq 1 &&
	test_grep "^status: no-init" flood.out &&
	test_grep "lab: no-init: console output cut at 4 MB (target.lab.maxConsole): the kernel never started" flood.err &&
	test_grep -x "GET /api/v0.2/jobs/7/cancel/" flood.req &&
	! test -e flood.csv
'

test_expect_success 'console.log holds the budget, then says it was cut' '
	size=$(wc -c <flood/console.log) &&
	test "$size" -gt $((3 * MB)) &&
	test "$size" -le $((4 * MB + 100)) &&
	tail -n 1 flood/console.log >last &&
	echo "[sched-bot: console output cut at 4 MB (target.lab.maxConsole)]" >want &&
	test_cmp want last
'

test_expect_success "the bot's memory stays near the budget, its reads fewer than the lab's 20" '
	echo "peak RSS $(cat flood.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below flood.rss $RSS_MAX_KB &&
	test "$(grep -c "/logs/" flood.req)" -lt 20
'

test_expect_success 'one log line without end: skipped, counted, cut, bounded' '
	test "$(cat oneline.rc)" -eq 1 &&
	test_grep "warning: lava: job 7: 2 log entries over 49 KB were not read" oneline.err &&
	test_grep "console output cut at 4 MB (target.lab.maxConsole): the kernel never started" oneline.err &&
	test_grep -x "GET /api/v0.2/jobs/7/cancel/" oneline.req &&
	size=$(wc -c <oneline/console.log) &&
	test "$size" -lt 1024 &&
	echo "peak RSS $(cat oneline.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below oneline.rss $RSS_MAX_KB
'

test_done
