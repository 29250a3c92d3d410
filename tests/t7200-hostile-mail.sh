#!/bin/sh
# Poison mail: MIME parts nested thousands deep behind folded and
# commented Content-Type fields.  The parser runs within a budget (a
# child under RLIMIT_CPU), the tree's depth is checked once built, and
# cron quarantines such a mail by Message-ID: it is reported once,
# skipped for good, and the poll goes on with the rest.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

COVER=cover.1669862147.git.yu.c.chen@intel.com
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "${CFG%/*}"

nested_mime 3000 6 nested-small@evil.example >"$TRASH/small.mbox"
nested_mime 16000 6 nested-big@evil.example >"$TRASH/big.mbox"

test_expect_success 'the mails are what the test says: 1-7 MB, folded' '
	test $(wc -c <"$TRASH/small.mbox") -gt 1000000 &&
	test $(wc -c <"$TRASH/big.mbox") -gt 6000000 &&
	test $(wc -c <"$TRASH/big.mbox") -lt 7500000 &&
	test_grep ! "multipart/mixed; boundary" "$TRASH/big.mbox" &&
	test "$(grep -c "^Content-Type: multipart/mixed (part" "$TRASH/big.mbox")" -eq 16000
'

test_expect_success 'series reads a poison mail as plain text and says why' '
	# the depth is what is tested: a CPU budget the parse of 1 MB (about
	# 2 s of CPU on a loaded machine) cannot run out of
	git config -f "$CFG" mail.parseSeconds 60 &&
	rc=0 && "$SCHED_BOT" series --mbox "$TRASH/small.mbox" >out 2>err ||
		rc=$? &&
	cat err &&
	test $rc -ne 0 && test $rc -lt 128 &&
	test_grep "<nested-small@evil.example>: poison mail" err &&
	test_grep "nested more than 32 deep (mail.maxDepth)" err
'

test_expect_success 'the 6.5 MB one runs out of its CPU budget, not the stack' '
	git config -f "$CFG" mail.parseSeconds 1 &&
	rc=0 && "$SCHED_BOT" series --mbox "$TRASH/big.mbox" >out 2>err ||
		rc=$? &&
	cat err &&
	test $rc -ne 0 && test $rc -lt 128 &&
	test_grep "<nested-big@evil.example>: poison mail" err &&
	test_grep "the parser used up its 1 s of CPU\|the parser crashed\|the parser took longer" err
'

test_expect_success 'mail.maxDepth is read from the configuration' '
	git config -f "$CFG" mail.maxDepth 5000 &&
	git config -f "$CFG" mail.maxParts 5000 &&
	git config -f "$CFG" mail.parseSeconds 60 &&
	# read in full: one message, no patch in it (exit 1), and no
	# poison mail, so the absence below is of a parse that happened
	rc=0 && "$SCHED_BOT" series --mbox "$TRASH/small.mbox" >out 2>err ||
		rc=$? &&
	cat err &&
	test $rc -eq 1 &&
	test_grep "no patches in the thread (1 messages)" err &&
	test_grep ! "poison mail" err &&
	git config -f "$CFG" --unset mail.maxDepth &&
	git config -f "$CFG" --unset mail.maxParts &&
	git config -f "$CFG" mail.parseSeconds 1
'

# A patch whose subject, author and trailer carry terminal escapes: an
# OSC 8 hyperlink, a window title, clear-screen, C1 CSI (UTF-8 and raw).
ESC=$(printf "\033")
printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: =?utf-8?q?Eve=1B=5D0=3Bowned=07?= <eve@evil.example>\nSubject: [PATCH] sched: \033]8;;http://evil.example/\033\\\\click\033]8;;\033\\\\ \033[2J\302\233""1m\233""2J\nMessage-ID: <esc@evil.example>\nDate: Mon, 1 Sep 2025 10:00:00 +0000\n\nBody.\n\nSigned-off-by: Eve \033[31m <eve@evil.example>\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n" \
	>"$TRASH/esc.mbox"

test_expect_success 'terminal escapes from mail are not printed' '
	test_grep "$ESC" "$TRASH/esc.mbox" &&
	"$SCHED_BOT" series --mbox "$TRASH/esc.mbox" >out 2>err &&
	cat out err &&
	test_grep "sched: ?\]8;;http://evil.example/" out &&
	test_grep "Author: Eve?\]0;owned?" out &&
	test_grep ! "$ESC" out &&
	test_grep ! "$(printf "\302\233")" out &&
	test_grep ! "$(printf "\233")" out &&
	nested_mime 100 1 "x${ESC}[2Jy@evil.example" >"$TRASH/escid.mbox" &&
	rc=0 && "$SCHED_BOT" series --mbox "$TRASH/escid.mbox" >out2 2>err2 ||
		rc=$? &&
	cat err2 &&
	# read as plain text: one message, no patch in it
	test $rc -eq 1 &&
	test_grep "<x?\[2Jy@evil.example>: poison mail" err2 &&
	test_grep ! "$ESC" err2
'

. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

# lore's rt: is the time of the top Received: header: the series
# freshly received, as a poll would see it on lore
bot_fresh_series "$TRASH/series.mbox"

lore_start "$TRASH/big.mbox" "$TRASH/series.mbox"

git config -f "$CFG" outbox.checkLore false
git config -f "$CFG" lore.cacheMaxAge 0
# The poison mail carries no diff: search for every [PATCH] mail.
git config -f "$CFG" cron.query "s:PATCH AND rt:<since>.."

test_expect_success 'cron quarantines the poison mail and queues the series' '
	"$SCHED_BOT" cron --poll-only 2>err &&
	cat err &&
	test_grep "<nested-big@evil.example>: quarantined, skipped from now on: " err &&
	test_grep "queued job 1: v3 .* <$COVER>" err &&
	sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT msgid FROM quarantine" >q &&
	echo nested-big@evil.example >expect &&
	test_cmp expect q
'

test_expect_success 'the next run proceeds and does not report it again' '
	"$SCHED_BOT" cron --poll-only --since 1 2>err2 &&
	cat err2 &&
	test_grep "poll: 0 new series" err2 &&
	test_grep ! "nested-big" err2
'

test_expect_success 'the bot dying twice on one mail quarantines it' '
	rm -f "$XDG_DATA_HOME/sched-bot/state.db"* &&
	rc=0 && SCHED_BOT_CRASH_AT=poll-message \
		"$SCHED_BOT" cron --poll-only 2>c1 || rc=$? &&
	test $rc -eq 137 &&
	rc=0 && SCHED_BOT_CRASH_AT=poll-message \
		"$SCHED_BOT" cron --poll-only 2>c2 || rc=$? &&
	test $rc -eq 137 &&
	test_grep "the last poll stopped while handling it" c2 &&
	"$SCHED_BOT" cron --poll-only 2>c3 &&
	cat c3 &&
	test_grep "quarantined, skipped from now on: the bot stopped twice while handling it" c3 &&
	test_grep "poll: [0-9]* new series" c3
'

# Poll progress is saved mail by mail: a run killed after a mail is
# handled goes on with the next one, without handling it again.
test_expect_success 'a poll killed after a mail resumes with the next one' '
	rm -f "$XDG_DATA_HOME/sched-bot/state.db"* &&
	rc=0 && SCHED_BOT_CRASH_AT=poll-handled \
		"$SCHED_BOT" cron --poll-only -v 2>k1 || rc=$? &&
	test $rc -eq 137 &&
	rc=0 && SCHED_BOT_CRASH_AT=poll-handled \
		"$SCHED_BOT" cron --poll-only -v 2>k2 || rc=$? &&
	test $rc -eq 137 &&
	"$SCHED_BOT" cron --poll-only -v 2>k3 &&
	cat k1 k2 k3 &&
	test_grep "handled by an earlier poll, skipped" k2 &&
	test_grep "handled by an earlier poll, skipped" k3 &&
	test "$(grep -c "handled by an earlier poll" k3)" -ge 2 &&
	test_grep ! "the last poll stopped while handling it" k2 &&
	test_grep ! "the last poll stopped while handling it" k3 &&
	test "$(cat k1 k2 k3 | grep -c "queued job .* <$COVER>")" -eq 1 &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM jobs")" -eq 1
'

test_expect_success 'the next poll handles none of them again' '
	"$SCHED_BOT" cron --poll-only -v 2>k4 &&
	test_grep "<$COVER>: handled by an earlier poll, skipped" k4 &&
	test_grep "poll: 0 new series" k4 &&
	test_grep ! "queued job" k4 &&
	test_grep ! "no series in the thread" k4
'

test_done
