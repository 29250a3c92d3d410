#!/bin/sh
# `sched-bot cron` against a real public-inbox: it finds a new series
# with the dfn:kernel/sched/ search and queues it once; it reads
# '#sched-bot test' commands: an allowed one queues a test, a stranger's
# is ignored, a bad one is answered in its thread (by SMTP, once).  The
# commands answer the bot's own reply and are DKIM-signed (t7100 has the
# forgeries).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

bot_command_setup

bot_seed_reply || exit 1
bot_dkim_key kernel.example || exit 1

# command FILE FROM MSGID LINE
command_mail() {
	cat >"$1.raw" <<EOF
Received: from test by 127.0.0.1; $now
From: Some One <$2>
To: Chen Yu <yu.c.chen@intel.com>
Cc: bot@sched-bot.example.org, linux-kernel@vger.kernel.org
Subject: Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up
Date: $now
Message-ID: <$3>
In-Reply-To: <$BOTMSG>
References: <$COVER> <$BOTMSG>

Could the bot have a look?

$4

Thanks
EOF
	case $2 in
	*@kernel.example) bot_dkim_sign kernel.example "$1.raw" "$1" ;;
	*) cp "$1.raw" "$1" ;;
	esac
}
command_mail "$TRASH/ok.eml" dev@kernel.example cmd-ok@kernel.example \
	"#sched-bot test spawn runs=3"
command_mail "$TRASH/stranger.eml" evil@attacker.example cmd-evil@attacker.example \
	"#sched-bot test spawn runs=3"
command_mail "$TRASH/bad.eml" dev@kernel.example cmd-bad@kernel.example \
	"#sched-bot test rm-rf runs=3"

lore_start "$TRASH/series.mbox" "$TRASH/ok.eml" "$TRASH/stranger.eml" "$TRASH/bad.eml"

test_expect_success 'cron queues the series and the allowed command' '
	"$SCHED_BOT" cron --poll-only --send 2>err &&
	cat err &&
	test_grep "queued job 1: v3 sched/fair: Choose the CPU where short task is running during wake up <$COVER>" err &&
	test_grep "queued job 2 for dev@kernel.example: <$COVER> spawn runs=3" err &&
	test "$(grep -c "^queued job" err)" -eq 2
'

test_expect_success 'the stranger is ignored and logged, nothing queued' '
	test_grep "command in <cmd-evil@attacker.example> from evil@attacker.example ignored: sender evil@attacker.example is not in bot.allow" err &&
	test_grep ! "queued job .* for evil" err
'

test_expect_success 'the bad command is answered in its thread' '
	test_grep "answered the bad command in <cmd-bad@kernel.example>" err &&
	smtp_wait 1 &&
	test "$(ls "$SMTP_DIR" | grep -c .)" -eq 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test_grep "^In-Reply-To: <cmd-bad@kernel.example>$" "$m" &&
	test_grep "^To: Some One <dev@kernel.example>$" "$m" &&
	test_grep "unknown workload .rm-rf." "$m" &&
	test_grep "#sched-bot test \[workload,...\] \[runs=N\]" "$m" &&
	test_grep ! "Tested-by" "$m"
'

test_expect_success 'a second poll queues nothing and answers nothing' '
	"$SCHED_BOT" cron --poll-only --send 2>err2 &&
	test_grep ! "queued job" err2 &&
	test_grep ! "answered" err2 &&
	test "$(ls "$SMTP_DIR" | grep -c .)" -eq 1
'

test_expect_success 'even polling from the beginning of time' '
	"$SCHED_BOT" cron --poll-only --send --since 1 2>err3 &&
	test_grep ! "queued job" err3 &&
	test "$(ls "$SMTP_DIR" | grep -c .)" -eq 1
'

test_expect_success 'test <msgid> fetches the thread from lore and selects the series' '
	git config -f "$CFG" tree.path "$TRASH/no-tree.git" &&
	rc=0 && "$SCHED_BOT" test "<$COVER>" --job-dir jt 2>errt || rc=$? &&
	test $rc -eq 1 &&
	test "$(grep -c "^From mboxrd@z" jt/thread.mbox)" -ge 3 &&
	test_grep "\"version\": 3" jt/series.json &&
	test_grep "^cover_msgid=$COVER$" jt/state &&
	test_grep "^stage=apply$" jt/state &&
	test_grep "stopped at stage apply" errt
'

test_expect_success 'lore down: cron fails with a network error, the job is kept' '
	lore_stop &&
	rc=0 && "$SCHED_BOT" cron --send --max-jobs 1 2>err4 || rc=$? &&
	cat err4 &&
	test $rc -eq 4 &&
	test_grep "stopped at stage fetch" err4 &&
	j=$XDG_DATA_HOME/sched-bot/jobs/job-1 &&
	test_grep "^stage=fetch$" "$j/state" &&
	test "$(ls "$SMTP_DIR" | grep -c .)" -eq 1
'

test_done
