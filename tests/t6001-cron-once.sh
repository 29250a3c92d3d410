#!/bin/sh
# `sched-bot cron` sends each reply exactly once: a second run sends
# nothing, a second instance waits for nobody (the lock), and a kill -9
# at any crash point followed by another run gives one reply.
#
# The jobs here start from a job directory stopped before its reply
# (tests/data/bot/job-*), queued with `cron --add`; the stages before
# (lore, apply, build, QEMU) are exercised by t6900-e2e.sh.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed (contrib/install-deps)"
bot_sink_start || test_fail_all "smtp-sink does not start"

CFG=$TRASH/bot.cfg
bot_config "$CFG"
export SCHED_BOT_CONFIG=$CFG

# mails in the sink with the Message-ID of job $1 (a job directory)
mails_of() {
	mid=$(sed -n "s/^reply_msgid=//p" "$1/state")
	test -n "$mid" || { echo 0; return; }
	grep -l "^Message-ID: <$mid>" sink/* 2>/dev/null | grep -c . || true
}

test_expect_success 'cron --add queues a job and prints its id' '
	"$SCHED_BOT" cron --add "<cover.1669862147.git.yu.c.chen@intel.com>" >id &&
	test "$(cat id)" = 1 &&
	bot_job job-tested bot-data/jobs/job-1
'

test_expect_success 'cron runs the queued job and sends its reply' '
	"$SCHED_BOT" cron --no-poll --send 2>err &&
	test "$(bot_sink_count)" -eq 1 &&
	test "$(mails_of bot-data/jobs/job-1)" -eq 1 &&
	test_grep "^stage=done" bot-data/jobs/job-1/state
'

test_expect_success 'a second cron run sends nothing' '
	"$SCHED_BOT" cron --no-poll --send &&
	test "$(bot_sink_count)" -eq 1
'

test_expect_success 'a second instance exits at once while one holds the lock' '
	"$SCHED_BOT" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
	test "$(cat id)" = 2 &&
	bot_job job-tested bot-data/jobs/job-2 &&
	flock bot-data/state.db.lock "$SCHED_BOT" cron --no-poll --send 2>err &&
	test_grep "another sched-bot holds" err &&
	test_grep "^stage=reply" bot-data/jobs/job-2/state &&
	test "$(bot_sink_count)" -eq 1 &&
	"$SCHED_BOT" cron --no-poll --send &&
	test "$(bot_sink_count)" -eq 2
'

# kill -9 at each point, then two more runs: one reply, never more.
# smtp-accepted is the one point where the server has the mail and we
# have not written that down: the rerun sends it again with the SAME
# Message-ID (lists and lore dedupe by it; with outbox.checkLore the
# rerun asks lore first).  See state.h.
for point in after-reply before-intent intent-recorded smtp-sending \
	     smtp-accepted outbox-moved after-send; do
	expect=1
	[ $point = smtp-accepted ] && expect=2
	test_expect_success "kill -9 at $point, rerun: one Message-ID, $expect SMTP delivery(ies)" "
		mkdir -p cp-$point &&
		sed 's|bot-data|cp-$point|' '$CFG' >cp-$point.cfg &&
		export SCHED_BOT_CONFIG=\$PWD/cp-$point.cfg &&
		\"\$SCHED_BOT\" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
		bot_job job-tested cp-$point/jobs/job-1 &&
		rc=0 &&
		SCHED_BOT_CRASH_AT=$point \"\$SCHED_BOT\" cron --no-poll --send 2>err || rc=\$? &&
		test \$rc -eq 137 &&
		test_grep \"crash point .$point. reached\" err &&
		\"\$SCHED_BOT\" cron --no-poll --send &&
		\"\$SCHED_BOT\" cron --no-poll --send &&
		test \"\$(mails_of cp-$point/jobs/job-1)\" -eq $expect &&
		test_grep '^stage=done' cp-$point/jobs/job-1/state &&
		test \$(ls cp-$point/outbox/new | grep -c .) -eq 0
	"
done

test_expect_success 'the crash hook does nothing without the variable' '
	SCHED_BOT_CRASH_AT= "$SCHED_BOT" cron --no-poll --send
'

test_done
