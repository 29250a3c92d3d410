#!/bin/sh
# A moderator before the list, against a real public-inbox and
# smtp-sink, from fixture job directories (no kernel is built): with
# bot.moderation = regressions, a regression report goes only to the
# moderator, the report attached as it would be sent; a Tested-by reply
# is not held.  A signed '#sched-bot release' from a moderator sends the
# held mail to the thread unchanged, once; a second release, an unsigned
# or forged one, and one from an allowed sender who is no moderator send
# nothing.  '#sched-bot invalid <reason>' drops a report and records
# why; an unjudged one expires after bot.holdDays.  status and the
# archive show the tally; gc keeps a held job, not a judged one.  A
# kill -9 in a release sends it once.  Without a moderator, or with a
# mode that is not one, nothing is sent; with "all", every reply is held.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

bot_command_setup
MOD=mod@kernel.example
git config -f "$CFG" bot.moderation regressions &&
git config -f "$CFG" --add bot.moderators $MOD &&
# a hold, the reply and the commands' answers share the one thread
git config -f "$CFG" bot.maxPerThread 20 &&
bot_dkim_key kernel.example &&
bot_dkim_key attacker.example || exit 1

DB=$XDG_DATA_HOME/sched-bot/state.db
J=$TRASH/jobs
M=$TRASH/m
mkdir -p "$M"

# held NAME: a regression job of the fixtures, its reply held; sets PUB
# (the public Message-ID) and HOLD (the moderators' note's)
held() {
	bot_job job-regression "$J/$1" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J/$1" --send 2>"$1.err" || rc=$?
	test $rc -eq 5 || { cat "$1.err"; return 1; }
	PUB=$(sed -n "s/^reply_msgid=//p" "$J/$1/state") &&
	HOLD=moderation.$PUB &&
	test -n "$PUB"
}

# cmd FILE DOMAIN FROM MSGID LINE IN-REPLY-TO: a moderator's answer to
# the note, signed by DOMAIN (none: unsigned)
cmd() {
	bot_answer "$@" "Re: [sched-bot moderation] Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up"
}

test_expect_success 'a regression report goes only to the moderator' '
	held one &&
	ONE=$PUB ONE_HOLD=$HOLD &&
	echo "$ONE $ONE_HOLD" >one.ids &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test "$(grep -c "^X-Rcpt-Args: " "$m")" -eq 1 &&
	test_grep "^X-Rcpt-Args: <$MOD>" "$m" &&
	test_grep "^To: $MOD$" "$m" &&
	test_grep "^Message-ID: <$HOLD>$" "$m" &&
	test_grep "^Subject: \[sched-bot moderation\] Re: \[PATCH v3 0/2\]" "$m" &&
	test_grep "^Content-Type: multipart/mixed; boundary=" "$m" &&
	test_grep "^Content-Type: message/rfc822$" "$m" &&
	test_grep "^    #sched-bot release$" "$m" &&
	test_grep "^Message-ID: <$PUB>$" "$m" &&
	test_grep "^In-Reply-To: <$COVER>$" "$m" &&
	test_grep "^sched-bot noticed a -[0-9.]*% regression of .* on:$" "$m" &&
	test "$(sqlite3 "$DB" "SELECT status FROM moderation WHERE public_msgid = '\''$PUB'\''")" = held &&
	test "$(sqlite3 "$DB" "SELECT COUNT(*) FROM mails WHERE message_id = '\''$PUB'\''")" -eq 0 &&
	cp "$m" hold-one.eml &&
	rm -f "$SMTP_DIR"/*
'
# the tests run in subshells: what one learnt, for the next
ids() {
	[ -f "$TRASH/$1.ids" ] && cat "$TRASH/$1.ids" || echo "none none"
}
read ONE ONE_HOLD <<EOF
$(ids one)
EOF

test_expect_success 'a Tested-by reply is not held' '
	bot_job job-tested "$J/ok" &&
	"$SCHED_BOT" test --job-dir "$J/ok" --send 2>ok.err &&
	smtp_wait 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep ! "^X-Rcpt-Args: <$MOD>" "$m" &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>" "$m" &&
	test_grep ! "held for the moderators" ok.err &&
	rm -f "$SMTP_DIR"/*
'

cmd "$M/unsigned" none $MOD unsigned@kernel.example "#sched-bot release" "$ONE_HOLD"
cmd "$M/forged" attacker.example $MOD forged@attacker.example "#sched-bot release" "$ONE_HOLD"
cmd "$M/notmod" kernel.example dev@kernel.example notmod@kernel.example "#sched-bot release" "$ONE_HOLD"
cmd "$M/offnote" kernel.example $MOD offnote@kernel.example "#sched-bot release" "$COVER"
lore_start "$TRASH/series.mbox" "$M/unsigned" "$M/forged" "$M/notmod" \
	"$M/offnote"

test_expect_success 'unsigned, forged, non-moderator releases send nothing' '
	"$SCHED_BOT" cron --poll-only --send 2>bad.err &&
	cat bad.err &&
	test_grep "command in <unsigned@kernel.example> from $MOD ignored: no DKIM signature of kernel.example that verifies: no DKIM signature" bad.err &&
	test_grep "command in <forged@attacker.example> from $MOD ignored: no DKIM signature of kernel.example that verifies: DKIM signature of attacker.example does not align" bad.err &&
	test_grep "command in <notmod@kernel.example> from dev@kernel.example ignored: sender dev@kernel.example is not in bot.moderators" bad.err &&
	test_grep "command in <offnote@kernel.example> from $MOD ignored: it answers no mail of the bot" bad.err &&
	test_grep ! "released" bad.err &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$DB" "SELECT status FROM moderation WHERE public_msgid = '\''$ONE'\''")" = held
'

cmd "$M/rel1" kernel.example $MOD rel1@kernel.example "#sched-bot release" "$ONE_HOLD"

test_expect_success 'a signed release sends the held mail to the thread, unchanged' '
	lore_add "$M/rel1" &&
	"$SCHED_BOT" cron --poll-only --send 2>rel1.err &&
	cat rel1.err &&
	test_grep "report <$ONE> released by $MOD" rel1.err &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test_grep "^Message-ID: <$ONE>$" "$m" &&
	test_grep "^In-Reply-To: <$COVER>$" "$m" &&
	test_grep "^References: <$COVER>$" "$m" &&
	test_grep "^X-Rcpt-Args: <yu.c.chen@intel.com>" "$m" &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep ! "^X-Rcpt-Args: <$MOD>" "$m" &&
	# the mail sent is the one the moderator read, byte for byte
	bot_held_attachment hold-one.eml >attached &&
	bot_unsink "$m" >sent &&
	test_cmp attached sent &&
	test "$(sqlite3 "$DB" "SELECT status || '\'' '\'' || decided_by FROM moderation WHERE public_msgid = '\''$ONE'\''")" = "released $MOD" &&
	rm -f "$SMTP_DIR"/*
'

cmd "$M/rel2" kernel.example $MOD rel2@kernel.example "#sched-bot release" "$ONE_HOLD"

test_expect_success 'a second release sends nothing' '
	lore_add "$M/rel2" &&
	"$SCHED_BOT" cron --poll-only --send 2>rel2.err &&
	test_grep "release command in <rel2@kernel.example> from $MOD: report <$ONE> was released already" rel2.err &&
	"$SCHED_BOT" cron --poll-only --send 2>rel3.err &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$DB" "SELECT COUNT(*) FROM mails WHERE message_id = '\''$ONE'\'' AND state = '\''sent'\''")" -eq 1
'

test_expect_success '#sched-bot invalid drops a held report, with its reason' '
	held two &&
	smtp_wait 1 &&
	test_grep "^X-Rcpt-Args: <$MOD>" "$SMTP_DIR"/* &&
	rm -f "$SMTP_DIR"/* &&
	cmd "$M/inv" kernel.example $MOD inv@kernel.example \
		"#sched-bot invalid noisy neighbour on the host" "$HOLD" &&
	lore_add "$M/inv" &&
	"$SCHED_BOT" cron --poll-only --send 2>inv.err &&
	cat inv.err &&
	test_grep "report <$PUB> judged invalid by $MOD: noisy neighbour on the host" inv.err &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$DB" "SELECT status || '\'':'\'' || reason FROM moderation WHERE public_msgid = '\''$PUB'\''")" = "invalid:noisy neighbour on the host" &&
	test "$(sqlite3 "$DB" "SELECT COUNT(*) FROM mails WHERE message_id = '\''$PUB'\''")" -eq 0 &&
	cmd "$M/late" kernel.example $MOD late@kernel.example "#sched-bot release" "$HOLD" &&
	lore_add "$M/late" &&
	"$SCHED_BOT" cron --poll-only --send 2>late.err &&
	test_grep "report <$PUB> was invalid already" late.err &&
	test "$(smtp_count)" -eq 0
'

test_expect_success 'an invalid without a reason is refused, the report stays held' '
	held three &&
	smtp_wait 1 &&
	rm -f "$SMTP_DIR"/* &&
	echo "$PUB $HOLD" >three.ids &&
	cmd "$M/noreason" kernel.example $MOD noreason@kernel.example \
		"#sched-bot invalid" "$HOLD" &&
	lore_add "$M/noreason" &&
	"$SCHED_BOT" cron --poll-only --send 2>noreason.err &&
	test_grep "invalid needs a reason" noreason.err &&
	test "$(sqlite3 "$DB" "SELECT status FROM moderation WHERE public_msgid = '\''$PUB'\''")" = held &&
	smtp_wait 1 &&
	test_grep "^X-Rcpt-Args: <$MOD>" "$SMTP_DIR"/* &&
	test_grep "invalid needs a reason" "$SMTP_DIR"/* &&
	rm -f "$SMTP_DIR"/*
'
read THREE THREE_HOLD <<EOF
$(ids three)
EOF

test_expect_success 'unjudged after bot.holdDays, a report expires' '
	sqlite3 "$DB" "UPDATE moderation SET created_at = created_at - 8 * 86400 WHERE public_msgid = '\''$THREE'\''" &&
	"$SCHED_BOT" cron --poll-only --send 2>exp.err &&
	test_grep "1 held report(s) expired unjudged (bot.holdDays = 7)" exp.err &&
	test "$(sqlite3 "$DB" "SELECT status FROM moderation WHERE public_msgid = '\''$THREE'\''")" = expired &&
	cmd "$M/exprel" kernel.example $MOD exprel@kernel.example "#sched-bot release" "$THREE_HOLD" &&
	lore_add "$M/exprel" &&
	"$SCHED_BOT" cron --poll-only --send 2>exprel.err &&
	test_grep "report <$THREE> was expired already" exprel.err &&
	test "$(smtp_count)" -eq 0
'

test_expect_success 'kill -9 in a release, after the send and before its record: sent once' '
	held four &&
	smtp_wait 1 &&
	rm -f "$SMTP_DIR"/* &&
	cmd "$M/crash" kernel.example $MOD crash@kernel.example "#sched-bot release" "$HOLD" &&
	lore_add "$M/crash" &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=outbox-moved "$SCHED_BOT" cron --poll-only \
		--send 2>crash.err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "crash point .outbox-moved. reached" crash.err &&
	smtp_wait 1 &&
	test "$(sqlite3 "$DB" "SELECT state FROM mails WHERE message_id = '\''$PUB'\''")" = intent &&
	"$SCHED_BOT" cron --poll-only --send 2>crash2.err &&
	test_grep "mail <$PUB> was already sent; recording it" crash2.err &&
	"$SCHED_BOT" cron --poll-only --send 2>crash3.err &&
	test "$(smtp_count)" -eq 1 &&
	test_grep "^Message-ID: <$PUB>$" "$SMTP_DIR"/* &&
	test "$(sqlite3 "$DB" "SELECT state FROM mails WHERE message_id = '\''$PUB'\''")" = sent &&
	rm -f "$SMTP_DIR"/*
'

test_expect_success 'kill -9 between queueing a release and recording it: sent once' '
	held five &&
	smtp_wait 1 &&
	rm -f "$SMTP_DIR"/* &&
	cmd "$M/crashq" kernel.example $MOD crashq@kernel.example "#sched-bot release" "$HOLD" &&
	lore_add "$M/crashq" &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=release-queued "$SCHED_BOT" cron --poll-only \
		--send 2>crashq.err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "crash point .release-queued. reached" crashq.err &&
	test -f "$XDG_DATA_HOME/sched-bot/outbox/new/$PUB" &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$DB" "SELECT status FROM moderation WHERE public_msgid = '\''$PUB'\''")" = held &&
	"$SCHED_BOT" cron --poll-only --send 2>crashq2.err &&
	test_grep "report <$PUB> released by $MOD" crashq2.err &&
	"$SCHED_BOT" cron --poll-only --send 2>crashq3.err &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	test_grep "^Message-ID: <$PUB>$" "$SMTP_DIR"/*
'

test_expect_success 'status shows the tally by target and workloads' '
	rc=0 && "$SCHED_BOT" status >st.out 2>st.err || rc=$? &&
	cat st.out &&
	test $rc -le 1 &&
	test_grep "^moderation:   qemu spawn,pingpong: 3 released, 1 invalid, 0 held, 1 expired$" st.out &&
	rc=0 && "$SCHED_BOT" status --json >st.json 2>st.err || rc=$? &&
	test $rc -le 1 &&
	test "$(jq -r ".moderation[0].invalid" st.json)" -eq 1 &&
	test "$(jq -r ".moderation[0].released" st.json)" -eq 3 &&
	test "$(jq -r ".moderation[0].target" st.json)" = qemu &&
	rc=0 && "$SCHED_BOT" status --prometheus st.prom >/dev/null 2>&1 ||
		rc=$? &&
	test $rc -le 1 &&
	test_grep "^sched_bot_moderation_reports{status=\"invalid\"} 1$" st.prom &&
	test_grep "^sched_bot_moderation_reports{status=\"released\"} 3$" st.prom
'

test_expect_success 'moderation without a moderator sends nothing at all' '
	rm -f "$SMTP_DIR"/* &&
	git config -f "$CFG" --unset-all bot.moderators &&
	bot_job job-regression "$J/nomod" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J/nomod" --send 2>nomod.err || rc=$? &&
	test $rc -eq 1 &&
	test_grep "bot.moderation is regressions but bot.moderators names no one" nomod.err &&
	test "$(smtp_count)" -eq 0 &&
	git config -f "$CFG" --add bot.moderators $MOD &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J/nomod" --send 2>nomod2.err || rc=$? &&
	test $rc -eq 5 &&
	test_grep "held for the moderators" nomod2.err &&
	smtp_wait 1 &&
	test_grep "^X-Rcpt-Args: <$MOD>" "$SMTP_DIR"/*
'

test_expect_success 'gc may trim a job judged invalid or expired, not one held' '
	for d in two three nomod; do
		head -c 4096 /dev/zero >"$J/$d/console-base.log" || return 1
	done &&
	cp "$CFG" gc.cfg &&
	git config -f gc.cfg gc.maxDiskBytes 1 &&
	git config -f gc.cfg gc.keepJobs 0 &&
	git config -f gc.cfg job.dir "$J" &&
	rc=0 &&
	"$SCHED_BOT" --config gc.cfg gc --dry-run >gc.out 2>&1 || rc=$? &&
	cat gc.out &&
	test $rc -le 1 &&
	test_grep "^would delete job-files .*/two/console-base.log$" gc.out &&
	test_grep "^would delete job-files .*/three/console-base.log$" gc.out &&
	test_grep ! "/nomod/" gc.out
'

test_expect_success 'the archive index shows the tally' '
	"$SCHED_BOT" archive --jobs "$J" --out arch 2>arch.err &&
	test_grep "<h2>Moderation</h2>" arch/index.html &&
	test_grep "<tr><td>qemu</td><td>spawn,pingpong</td><td>3</td><td>1</td><td>1</td><td>1</td><td>25%</td></tr>" arch/index.html
'

test_expect_success 'with bot.moderation = all, a Tested-by reply is held too' '
	rm -f "$SMTP_DIR"/* &&
	git config -f "$CFG" bot.moderation all &&
	bot_job job-tested "$J/all" &&
	"$SCHED_BOT" test --job-dir "$J/all" --send 2>all.err &&
	test_grep "held for the moderators" all.err &&
	smtp_wait 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test "$(grep -c "^X-Rcpt-Args: " "$m")" -eq 1 &&
	test_grep "^X-Rcpt-Args: <$MOD>" "$m" &&
	test_grep "^Tested-by: Sched Bot" "$m" &&
	git config -f "$CFG" bot.moderation bogus &&
	bot_job job-tested "$J/bogus" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J/bogus" --send 2>bogus.err || rc=$? &&
	test $rc -eq 1 &&
	test_grep "bot.moderation must be none, regressions or all, not .bogus." bogus.err &&
	test "$(smtp_count)" -eq 1
'

test_done
