#!/bin/sh
# The run stage of a job, on this machine's own kernel (the local
# target: both "kernels" are the same one, an A/A job): the job adds
# interleaved blocks until the sequential rule stops or job.maxRuns is
# spent, each block A B or B A from a seed the state keeps, so that a
# resumed job replays the same order; --runs N is a fixed design; the
# verdict sentence is compare's.  A job whose base and patched vmlinux
# have the same code and data runs nothing and says so.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-bot.sh"

bot_config "$TRASH/bot.cfg" 1
cat >>"$TRASH/bot.cfg" <<EOF
	seconds = 1
	spawnGap = 0
	warmup = 0
	minRuns = 3
	maxRuns = 5
EOF
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# job_at_run DIR: a job stopped before its runs, on the local target.
job_at_run() {
	bot_job job-tested "$1" &&
	rm -f "$1/tables.txt" "$1/verdict.txt" "$1/regressions.txt" &&
	sed -i -e 's/^stage=reply$/stage=run/' -e '/^outcome=/d' \
		-e 's/^target=qemu$/target=local/' \
		-e 's/^workloads=.*/workloads=pingpong/' "$1/state"
}

# The blocks a job ran, in order, with the order within each.
blocks() {
	sed -n 's/^results block \([0-9]*\) (\(A B\|B A\)): base .*/\1 \2/p' "$1"
}

test_expect_success 'adaptive: blocks until the rule stops, within the budget' '
	job_at_run aa &&
	"$SCHED_BOT" test --job-dir aa >out 2>err &&
	n=$(sed -n "s/^runs_done=//p" aa/state) &&
	test "$n" -ge 3 && test "$n" -le 5 &&
	blocks err >order &&
	test "$(wc -l <order)" -eq "$n" &&
	test_grep "^seed=[1-9][0-9]*$" aa/state &&
	test "$(cut -d, -f5 aa/results.csv | sort -un | tail -n 1)" = "$n"
'

test_expect_success '... the baseline first in the file, whatever the order' '
	test "$(sed -n 2p aa/results.csv | cut -d, -f1)" = base &&
	awk -F, "NR > 1 { if (\$1 == \"patched\") seen[\$5] = 1;
		 else if (seen[\$5]) bad = 1 } END { exit bad }" aa/results.csv
'

test_expect_success '... the verdict is the sentence of compare' '
	n=$(sed -n "s/^runs_done=//p" aa/state) &&
	test_grep "^Verdict: " aa/verdict.txt &&
	# the sentence is wrapped where its numbers fall: read it whole
	tr "\n" " " <aa/verdict.txt >verdict.flat &&
	test_grep "\. Rule: runs paired by number ($n blocks)" verdict.flat &&
	test_grep ! "metrics measured" aa/verdict.txt &&
	test_grep "^outcome=tested$" aa/state
'

test_expect_success 'run again from its seed: the same A B / B A order' '
	seed=$(sed -n "s/^seed=//p" aa/state) &&
	job_at_run again &&
	echo "seed=$seed" >>again/state &&
	"$SCHED_BOT" test --job-dir again >out2 2>err2 &&
	blocks err2 >order2 &&
	n2=$(wc -l <order2) && n1=$(wc -l <order) &&
	if test $n1 -lt $n2; then m=$n1; else m=$n2; fi &&
	head -n $m order >a && head -n $m order2 >b &&
	test_cmp a b &&
	test_grep "^seed=$seed$" again/state
'

test_expect_success '--runs 2 (runs_fixed): exactly two blocks, one look' '
	job_at_run fixed &&
	sed -i "s/^runs=5$/runs=2/" fixed/state &&
	echo runs_fixed=1 >>fixed/state &&
	"$SCHED_BOT" test --job-dir fixed >out3 2>err3 &&
	test_grep "^runs_done=2$" fixed/state &&
	test "$(blocks err3 | wc -l)" -eq 2 &&
	test_grep "(2 blocks)" fixed/verdict.txt
'

test_expect_success 'the reply reproduces the design: --runs only when fixed' '
	test -s "$(cat out)" && test -s "$(cat out3)" &&
	sed -n "/^How to reproduce$/,/^-- $/p" "$(cat out)" >repro.aa &&
	test_grep "^    sched-bot test " repro.aa &&
	test_grep "^        --target <your machine> --workloads pingpong$" repro.aa &&
	test_grep ! -e "--runs" repro.aa &&
	sed -n "/^How to reproduce$/,/^-- $/p" "$(cat out3)" >repro.fixed &&
	test_grep "^        --target <your machine> --workloads pingpong --runs 2$" repro.fixed
'

test_expect_success 'identical code and data: no runs, and the reply says so' '
	job_at_run same &&
	printf "digest_base=%s\ndigest_head=%s\n" 0123abcd 0123abcd >>same/state &&
	"$SCHED_BOT" test --job-dir same >out4 2>err4 &&
	test ! -e same/results.csv &&
	test ! -e same/run-1-base &&
	m=$(cat out4) && test -s "$m" &&
	test_grep "^Verdict: nothing to measure: the patched kernel.s code and data are$" "$m" &&
	test_grep "^sched-bot measured nothing: the patched kernel.s code and data are$" "$m" &&
	test_grep ! "too noisy" "$m" &&
	test_grep ! "^Tested-by:" "$m" &&
	test_grep "^outcome=tested$" same/state &&
	test_grep "\"identical\": true" same/compare.json
'

test_expect_success 'different digests: measured as usual' '
	job_at_run differ &&
	printf "digest_base=%s\ndigest_head=%s\n" 0123abcd 4567abcd >>differ/state &&
	sed -i "s/^runs=5$/runs=2/" differ/state &&
	echo runs_fixed=1 >>differ/state &&
	"$SCHED_BOT" test --job-dir differ >out5 2>err5 &&
	test -s differ/results.csv &&
	test_grep ! "nothing to measure" differ/verdict.txt
'

# A busy machine (target.NAME.busy): a loop spins here, and maxLoad = 0
# makes any load average "busy", so the check's verdict does not hang
# on how much of a shared CPU the loop gets.  With refuse the job stops
# before its runs with exit 7, nothing measured, nothing written for a
# reply; with report (the default) it runs and says so.
sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
echo $! >"$TRASH/loop.pid"
test_atexit 'kill "$(cat "$TRASH/loop.pid")"'
# the load average counts the loop within a few seconds of it starting
i=0
while awk '{ exit !($1 == 0) }' /proc/loadavg && test $i -lt 30; do
	sleep 1
	i=$((i + 1))
done
git config -f "$TRASH/bot.cfg" target.local.maxLoad 0
git config -f "$TRASH/bot.cfg" cron.buildAhead false

test_expect_success 'busy = refuse: exit 7 before the runs, nothing measured' '
	git config -f "$TRASH/bot.cfg" target.local.busy refuse &&
	job_at_run busy &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir busy >out6 2>err6 || rc=$? &&
	test $rc -eq 7 &&
	test_grep "target local is busy: load average .* above target.local.maxLoad 0" err6 &&
	test_grep "busy = refuse: the job stops before its runs" err6 &&
	test ! -s out6 &&
	test ! -e busy/results.csv && test ! -e busy/run-1-base &&
	test ! -e busy/health.txt && test ! -e busy/reply.eml &&
	test_grep "^stage=run$" busy/state &&
	test_grep ! "^outcome=" busy/state
'

test_expect_success 'cron: the busy job waits as "busy", no attempt counted' '
	"$SCHED_BOT" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
	id=$(cat id) &&
	job_at_run "$TRASH/bot-data/jobs/job-$id" &&
	DB=$TRASH/bot-data/state.db &&
	"$SCHED_BOT" cron --no-poll 2>cerr &&
	test_grep "job $id: not started: the machine is busy" cerr &&
	test "$(sqlite3 "$DB" "SELECT stage, attempts, outcome IS NULL FROM jobs WHERE id = $id")" = "busy|0|1" &&
	"$SCHED_BOT" cron --no-poll 2>cerr2 &&
	test "$(sqlite3 "$DB" "SELECT stage, attempts, outcome IS NULL FROM jobs WHERE id = $id")" = "busy|0|1" &&
	test ! -e "$TRASH/bot-data/jobs/job-$id/results.csv"
'

test_expect_success 'busy = report (the default): the same job runs, and says so' '
	git config -f "$TRASH/bot.cfg" --unset target.local.busy &&
	sed -i "s/^runs=5$/runs=2/" busy/state &&
	echo runs_fixed=1 >>busy/state &&
	"$SCHED_BOT" test --job-dir busy >out7 2>err7 &&
	test_grep "^runs_done=2$" busy/state &&
	test_grep "^busy before the runs: load average" busy/health.txt &&
	test_grep "^- health: *busy before the runs: load average" "$(cat out7)"
'

test_done
