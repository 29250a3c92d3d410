#!/bin/sh
# `sched-bot status` after a short cron run: every field, exit 0 while
# nothing needs an operator and 1 for each planted condition (a failed
# poll, a target marked down, the free-space floor); --prometheus is
# the text exposition format.  lore is a scripted HTTP server on
# 127.0.0.1 answering 404 (no hits); the job is the fixture stopped
# before its reply, as in t6001: nothing is built or booted.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"
. "$TESTS/lib-lore.sh"

command -v jq >/dev/null || test_skip_all "jq is not installed"
command -v sqlite3 >/dev/null || test_skip_all "sqlite3 is not installed"
fake_http_start || test_fail_all "fake_http_start failed"
test_atexit fake_http_stop

CFG=$TRASH/bot.cfg
bot_config "$CFG"
git config -f "$CFG" lore.url "$FAKE_URL"
git config -f "$CFG" lore.retries 0
git config -f "$CFG" build.cacheDir "$TRASH/builds"
git config -f "$CFG" cron.buildAhead false
export SCHED_BOT_CONFIG=$CFG
DB=$TRASH/bot-data/state.db

test_expect_success 'setup: a cron run polls (no hits) and runs one job' '
	fake_http_script "404 -" &&
	"$SCHED_BOT" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
	bot_job job-tested bot-data/jobs/job-1 &&
	"$SCHED_BOT" cron --no-send 2>err &&
	test_grep "^stage=done" bot-data/jobs/job-1/state
'

test_expect_success 'status --json has every field; nothing needs an operator' '
	"$SCHED_BOT" status --json >s.json &&
	for f in .time .poll.last .poll.last_ok .poll.result .queue \
		.jobs.done_day .jobs.failed_day .jobs.done_week .jobs.failed_week \
		.mails.sent_day .mails.sent_week .mails.pending .mails.held \
		.mails.dropped .mails.oldest_unsent .targets .disk.used \
		.disk.jobs .disk.builds .disk.ccache .disk.lore .disk.budget \
		.disk.free .disk.min_free .needs_operator .alerts; do
		jq -e "$f | . != null or (\"$f\" == \".mails.oldest_unsent\")" s.json >/dev/null ||
			{ echo "no $f"; exit 1; }
	done &&
	test "$(jq -r .poll.result s.json)" = ok &&
	test "$(jq .jobs.done_day s.json)" -eq 1 &&
	test "$(jq -r ".targets[0].name" s.json)" = qemu &&
	test "$(jq -r ".targets[0].health" s.json)" = up &&
	test "$(jq .disk.used s.json)" -gt 0 &&
	test "$(jq .needs_operator s.json)" = false
'

# name{label="v",...} value, # HELP name text, # TYPE name type
PROM_RE='^(# HELP sched_bot_[a-z_]+ .+|# TYPE sched_bot_[a-z_]+ (counter|gauge)|sched_bot_[a-z_]+(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? -?[0-9]+(\.[0-9]+)?)$'

test_expect_success '--prometheus writes the text exposition format' '
	"$SCHED_BOT" status --prometheus metrics.prom >/dev/null &&
	test ! -e metrics.prom.tmp &&
	test "$(grep -c . metrics.prom)" -gt 20 &&
	grep -Ev "$PROM_RE" metrics.prom >bad || : &&
	test_cmp /dev/null bad &&
	test_grep "^# TYPE sched_bot_needs_operator gauge$" metrics.prom &&
	test_grep "^sched_bot_needs_operator 0$" metrics.prom &&
	test_grep "^sched_bot_target_up{target=\"qemu\"} 1$" metrics.prom &&
	test_grep "^sched_bot_jobs_done{window=\"day\"} 1$" metrics.prom
'

test_expect_success '... and the check of it fails on a line off the grammar' '
	printf "sched_bot_x{a=b} 1\n" >broken &&
	grep -Ev "$PROM_RE" broken >bad2 || : &&
	test_grep "sched_bot_x" bad2
'

test_expect_failure_code 'a target marked down: exit 1' 1 '
	mkdir -p "$XDG_DATA_HOME/sched-bot/targets" &&
	echo "(the machine did not come back) since 2026-12-01" \
		>"$XDG_DATA_HOME/sched-bot/targets/qemu.unhealthy" &&
	"$SCHED_BOT" status >out
'

test_expect_success '... saying so, in JSON and the metrics too' '
	test_grep "^needs an operator: target qemu is down$" out &&
	rc=0 && "$SCHED_BOT" status --json --prometheus m2.prom >s2.json || rc=$? &&
	test $rc -eq 1 &&
	test "$(jq .needs_operator s2.json)" = true &&
	test_grep "^sched_bot_target_up{target=\"qemu\"} 0$" m2.prom &&
	"$SCHED_BOT" target clear qemu &&
	"$SCHED_BOT" status >/dev/null
'

test_expect_failure_code 'a failed poll: exit 1' 1 '
	fake_http_script "500 -" &&
	rc=0 && "$SCHED_BOT" cron --no-send --poll-only 2>err || rc=$? &&
	test $rc -eq 4 &&
	"$SCHED_BOT" status >out
'

test_expect_success '... saying so' '
	test_grep "^needs an operator: the last poll failed$" out &&
	fake_http_script "404 -" &&
	"$SCHED_BOT" cron --no-send --poll-only &&
	"$SCHED_BOT" status >/dev/null
'

# A job that still has its build to do, and a floor no disk reaches
test_expect_success 'below gc.minFree a job is held, "disk-full", no attempt counted' '
	git config -f "$CFG" gc.minFree 1125899906842624 &&
	"$SCHED_BOT" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
	test "$(cat id)" = 2 &&
	mkdir -p bot-data/jobs/job-2 &&
	printf "stage=build\nmsgid=x@example.org\n" >bot-data/jobs/job-2/state &&
	cp bot-data/jobs/job-2/state state.before &&
	"$SCHED_BOT" cron --no-send --no-poll 2>err &&
	test_grep "disk full: .* below gc.minFree" err &&
	test "$(sqlite3 "$DB" "SELECT stage, attempts, outcome IS NULL FROM jobs WHERE id = 2")" = "disk-full|0|1" &&
	test_cmp state.before bot-data/jobs/job-2/state &&
	"$SCHED_BOT" cron --no-send --no-poll 2>err &&
	test "$(sqlite3 "$DB" "SELECT attempts FROM jobs WHERE id = 2")" -eq 0
'

test_expect_failure_code '... and status: exit 1, the queue shows it' 1 '
	"$SCHED_BOT" status --json >s3.json
'

test_expect_success '... with the reason' '
	test "$(jq ".queue[\"disk-full\"]" s3.json)" -eq 1 &&
	jq -r ".alerts[]" s3.json >alerts &&
	test_grep "below gc.minFree" alerts
'

test_done
