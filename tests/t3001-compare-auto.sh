#!/bin/sh
# compare -f auto --thread: the format of the tables already posted in a
# real thread of each kind, the message it came from on stderr, the
# fallbacks, and series --json's "formats".
. "$(dirname "$0")/lib.sh"
test_tier unit

command -v jq >/dev/null || test_skip_all "jq not installed (contrib/install-deps)"

C=$DATA/compare
I=$DATA/intake
F=$DATA/format

# auto FORMAT THREAD MSGID AUTHOR: -f auto on THREAD renders what -f
# FORMAT renders, with the same exit code, and says where it came from.
auto() {
	rc=0 want=0
	"$SCHED_BOT" compare "$C/sweep.csv" -f auto --thread "$2" \
		>auto.out 2>auto.err || rc=$?
	"$SCHED_BOT" compare "$C/sweep.csv" -f "$1" >fixed.out || want=$?
	test_cmp fixed.out auto.out &&
	test "$rc" -eq "$want" &&
	test_grep "^table format $1, as in <$3> from $4" auto.err
}

test_expect_success 'intel: Chen Yu baseline(std%) compare%(std%) tables' '
	auto intel "$I/short-task-wakeup-v3-complete.mbox" \
		8a7f8f7fc92863a5bd823a5dbc2d3f8ede7ffb75.1669862147.git.yu.c.chen@intel.com \
		"Chen Yu"
'

test_expect_success 'amd: the [pct imp](CV) blocks of a Tested-by reply' '
	auto amd "$I/lkml/place-deadline-initial/thread-partial.mbox" \
		5b5c513c-92a8-d9eb-bc07-273518ed3280@amd.com "K Prateek Nayak"
'

test_expect_success 'lkp: the robot table, quoted copies counted once' '
	auto lkp "$F/lkp-will-it-scale-noise.mbox" \
		e2eb8ed0-1075-3c5d-207e-d218a59c2a9f@linux.intel.com \
		"Xing Zhengjun" &&
	test_grep "(2 of 2 messages with tables use it)" auto.err
'

test_expect_success 'mmtests: Amean rows of an RFC series' '
	auto mmtests "$I/cgroups/sched-numa-stats-rfc.mbox" \
		b2193c946639598e1c506a555afcfc0224f1cecf.1740483690.git.yu.c.chen@intel.com \
		"Chen Yu"
'

test_expect_success 'matrix: the autogroup fork matrix, quoted twice' '
	auto matrix "$F/fork-matrix-autogroup.mbox" \
		5f92761b-c7d4-4b96-9398-183a5bf7556a@arm.com "Dietmar Eggemann" &&
	test_grep "(1 of 1 messages with tables use it)" auto.err
'

test_expect_success 'simple: w/o patch w/ patch, not the tip-bot copies' '
	auto simple "$I/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		20250314151345.275739-1-dietmar.eggemann@arm.com \
		"Dietmar Eggemann"
'

test_expect_success 'a thread without tables: compare.format, with a note' '
	"$SCHED_BOT" compare "$C/sweep.csv" -f auto \
		--thread "$DATA/apply/shazam-git1-just-series.mbox" \
		>out 2>err &&
	"$SCHED_BOT" compare "$C/sweep.csv" -f simple >want &&
	test_cmp want out &&
	test_grep "^table format simple: no result tables in the thread" err
'

test_expect_success '-f auto without --thread: the configured format' '
	printf "[compare]\n\tformat = lkp\n" >cfg &&
	"$SCHED_BOT" --config cfg compare "$C/sweep.csv" -f auto >out 2>err &&
	"$SCHED_BOT" compare "$C/sweep.csv" -f lkp >want &&
	test_cmp want out &&
	test_grep "^table format lkp: no thread to take it from" err
'

test_expect_success 'compare.format = auto follows --thread, else simple' '
	printf "[compare]\n\tformat = auto\n" >cfg &&
	"$SCHED_BOT" --config cfg compare "$C/sweep.csv" \
		--thread "$F/fork-matrix-autogroup.mbox" >out 2>err &&
	"$SCHED_BOT" compare "$C/sweep.csv" -f matrix >want &&
	test_cmp want out &&
	"$SCHED_BOT" --config cfg compare "$C/sweep.csv" >out 2>err &&
	"$SCHED_BOT" compare "$C/sweep.csv" -f simple >want &&
	test_cmp want out &&
	test_grep "table format simple" err
'

test_expect_success 'a fixed format wins over the thread, silently' '
	"$SCHED_BOT" compare "$C/sweep.csv" -f mmtests \
		--thread "$F/fork-matrix-autogroup.mbox" >out 2>err &&
	"$SCHED_BOT" compare "$C/sweep.csv" -f mmtests >want &&
	test_cmp want out &&
	test_grep ! "table format" err
'

test_expect_failure_code 'a missing thread file: not found' 3 \
	'"$SCHED_BOT" compare "$C/sweep.csv" -f auto --thread nosuch.mbox'

test_expect_success 'series --json lists the formats seen with their msgids' '
	"$SCHED_BOT" series --mbox "$I/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		--json >s.json &&
	jq -r ".formats[] | [.format, .msgid, .tables, .quoted, .chosen] | @tsv" \
		s.json >got &&
	printf "simple\t20250314151345.275739-1-dietmar.eggemann@arm.com\t2\tfalse\ttrue\n" >want &&
	test_cmp want got &&
	"$SCHED_BOT" series --mbox "$I/lkml/place-deadline-initial/thread-partial.mbox" \
		--json >a.json &&
	jq -e ".formats | length == 1 and .[0].format == \"amd\" and
		.[0].author.name == \"K Prateek Nayak\" and .[0].tables == 6" \
		a.json >/dev/null &&
	"$SCHED_BOT" series --mbox "$DATA/apply/shazam-git1-just-series.mbox" \
		--json >n.json &&
	jq -e ".formats == []" n.json >/dev/null
'

test_done
