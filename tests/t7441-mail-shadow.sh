#!/bin/sh
# A mail command shadowed, against a real public-inbox and smtp-sink: an
# unsigned copy of a moderator's signed "#sched-bot release", with its
# Message-ID, reaches lore first (lore then gives the genuine mail a
# Message-ID of its own below the first; an exact copy would make lore
# drop the genuine mail as a duplicate, so this one's Date: differs).
# The copy neither runs nor hides the genuine command: the report is
# released once, by the signed mail, and a copy that comes after
# changes nothing.  The same for a "#sched-bot test" whose unsigned copy
# asks for other runs, and for a poison copy, which is quarantined
# alone.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

bot_command_setup
MOD=mod@kernel.example
git config -f "$CFG" bot.moderation regressions &&
git config -f "$CFG" --add bot.moderators $MOD &&
git config -f "$CFG" bot.maxPerThread 20 &&
git config -f "$CFG" bot.maxJobsPerSender 100 &&
git config -f "$CFG" bot.maxJobsPerDay 100 &&
bot_dkim_key kernel.example || exit 1

bot_seed_reply || exit 1
DB=$XDG_DATA_HOME/sched-bot/state.db
J=$TRASH/jobs
M=$TRASH/m
mkdir -p "$M"

# held NAME: a regression job of the fixtures, its reply held for the
# moderator; writes "PUBLIC HOLD" (the two Message-IDs) to NAME.ids
held() {
	bot_job job-regression "$J/$1" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J/$1" --send 2>"$1.err" || rc=$?
	test $rc -eq 5 || { cat "$1.err"; return 1; }
	pub=$(sed -n "s/^reply_msgid=//p" "$J/$1/state") &&
	test -n "$pub" &&
	echo "$pub moderation.$pub" >"$TRASH/$1.ids" &&
	smtp_wait 1 &&
	rm -f "$SMTP_DIR"/*
}

# release FILE MSGID HOLD: the moderator's signed release of HOLD
release() {
	bot_answer "$1" kernel.example $MOD "$2" "#sched-bot release" "$3" \
		"Re: [sched-bot moderation] Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up"
}

# unsigned FILE OUT [SED]: FILE without its DKIM signature (and edited):
# what anyone who received the mail can send on, under its Message-ID
unsigned() {
	sed -e '/^DKIM-Signature: /d' ${3:+-e "$3"} "$1" >"$2"
}

status_of() {
	sqlite3 "$DB" "SELECT status FROM moderation WHERE public_msgid = '$1'"
}

sent_count() {
	sqlite3 "$DB" "SELECT COUNT(*) FROM mails WHERE message_id = '$1' AND
		state = 'sent'"
}

test_expect_success 'two reports held for the moderator' '
	held one && held two &&
	read one hold <one.ids &&
	test "$(status_of "$one")" = held &&
	read two hold <two.ids &&
	test "$(status_of "$two")" = held
'
read ONE ONE_HOLD <"$TRASH/one.ids" || test_fail_all "no report held"
read TWO TWO_HOLD <"$TRASH/two.ids" || test_fail_all "no report held"

release "$M/rel1" rel1@kernel.example "$ONE_HOLD" &&
# the copy sent on by another path, its Date: rewritten: an exact copy
# would be a duplicate to public-inbox (its content hash leaves
# DKIM-Signature out), which would keep the first and drop the genuine
# mail, so that no bot reading lore could see it
unsigned "$M/rel1" "$M/shadow1" "s/^Date: .*/Date: $(date -R -d '1 minute ago')/" ||
	exit 1

# the unsigned copy first, as a faster path to lore would bring it
lore_start "$TRASH/series.mbox" "$M/shadow1" ||
	test_fail_all "lore does not start"

test_expect_success 'the unsigned copy, polled first, is ignored' '
	"$SCHED_BOT" cron --poll-only --send 2>poll1 &&
	cat poll1 &&
	test_grep "command in <rel1@kernel.example> from $MOD ignored: no DKIM signature of kernel.example that verifies: no DKIM signature" poll1 &&
	test_grep ! "released by" poll1 &&
	test "$(status_of "$ONE")" = held &&
	test "$(smtp_count)" -eq 0
'

test_expect_success 'lore holds both, the genuine one with a second Message-ID' '
	lore_add "$M/rel1" &&
	"$SCHED_BOT" fetch -o thread.mbox rel1@kernel.example &&
	test "$(grep -c "^Message-ID: <rel1@kernel.example>$" thread.mbox)" -eq 2 &&
	test "$(grep -c "^Message-ID: <[0-9]\{14\}\.[A-Za-z0-9_-]*@z>$" thread.mbox)" -eq 1 &&
	test "$(grep -c "^DKIM-Signature: " thread.mbox)" -eq 1
'

test_expect_success 'the signed release that came second is acted on' '
	"$SCHED_BOT" cron --poll-only --send 2>poll2 &&
	cat poll2 &&
	test_grep "report <$ONE> released by $MOD" poll2 &&
	test "$(grep -c "released by" poll2)" -eq 1 &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	test_grep "^Message-ID: <$ONE>$" "$SMTP_DIR"/* &&
	test "$(status_of "$ONE")" = released &&
	test "$(sent_count "$ONE")" -eq 1 &&
	rm -f "$SMTP_DIR"/*
'

test_expect_success '... once: polls from the start of the window act no more' '
	"$SCHED_BOT" cron --poll-only --send --since 1 2>poll3 &&
	cat poll3 &&
	test_grep ! "released by" poll3 &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sent_count "$ONE")" -eq 1
'

release "$M/rel2" rel2@kernel.example "$TWO_HOLD" &&
unsigned "$M/rel2" "$M/shadow2" 's/^#sched-bot release$/#sched-bot invalid not a regression/' ||
	exit 1

test_expect_success 'an unsigned copy after the genuine release changes nothing' '
	lore_add "$M/rel2" &&
	"$SCHED_BOT" cron --poll-only --send 2>poll4 &&
	test_grep "report <$TWO> released by $MOD" poll4 &&
	smtp_wait 1 &&
	rm -f "$SMTP_DIR"/* &&
	lore_add "$M/shadow2" &&
	"$SCHED_BOT" cron --poll-only --send 2>poll5 &&
	cat poll5 &&
	test_grep ! "released by\|judged invalid" poll5 &&
	test "$(status_of "$TWO")" = released &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sent_count "$TWO")" -eq 1
'

# test_cmd FILE MSGID: a signed "#sched-bot test" of dev@kernel.example
test_cmd() {
	cat >"$1.raw" <<EOM
Received: from test by 127.0.0.1; $now
From: Dev One <dev@kernel.example>
To: Chen Yu <yu.c.chen@intel.com>
Cc: bot@sched-bot.example.org, linux-kernel@vger.kernel.org
Subject: Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up
Date: $now
Message-ID: <$2>
In-Reply-To: <$BOTMSG>
References: <$COVER> <$BOTMSG>

Could the bot have a look?

#sched-bot test spawn runs=3
EOM
	bot_dkim_sign kernel.example "$1.raw" "$1"
}
# its unsigned copy asks for one run instead of 3
test_cmd "$M/test1" test1@kernel.example &&
unsigned "$M/test1" "$M/tshadow" 's/runs=3/runs=1/' || exit 1

runs_of() {
	sqlite3 "$DB" "SELECT runs FROM jobs WHERE command_msgid = '$1'"
}

test_expect_success 'a test command: its unsigned copy first, the job is the signed one'"'"'s, once' '
	lore_add "$M/tshadow" &&
	"$SCHED_BOT" cron --poll-only --send 2>poll6 &&
	cat poll6 &&
	test_grep "command in <test1@kernel.example> from dev@kernel.example ignored: no DKIM signature" poll6 &&
	test_grep ! "queued job" poll6 &&
	lore_add "$M/test1" &&
	"$SCHED_BOT" cron --poll-only --send 2>poll7 &&
	cat poll7 &&
	test_grep "queued job [0-9]* for dev@kernel.example: <$COVER> spawn runs=3" poll7 &&
	test "$(runs_of test1@kernel.example)" = 3 &&
	"$SCHED_BOT" cron --poll-only --send --since 1 2>poll8 &&
	test_grep ! "queued job" poll8 &&
	test "$(runs_of test1@kernel.example)" = 3
'

# poison FILE: the headers of FILE, unsigned, over more MIME parts than
# mail.maxParts, the command line in the first
poison() {
	sed -n "1,/^\$/p" "$1" | sed -e '/^DKIM-Signature: /d' -e '/^$/d'
	echo "MIME-Version: 1.0"
	echo "Content-Type: multipart/mixed; boundary=\"b\""
	echo
	echo "--b"
	echo "Content-Type: text/plain"
	echo
	echo "#sched-bot test spawn runs=1"
	i=0
	while [ $i -lt 1100 ]; do
		printf -- "--b\nContent-Type: text/plain\n\npart %d\n" $i
		i=$((i + 1))
	done
	echo "--b--"
}
test_cmd "$M/test2" test2@kernel.example &&
poison "$M/test2" >"$M/tpoison" || exit 1

test_expect_success 'a poison copy first is quarantined alone' '
	lore_add "$M/tpoison" &&
	"$SCHED_BOT" cron --poll-only --send 2>poll9 &&
	cat poll9 &&
	test_grep "<test2@kernel.example>: quarantined, skipped from now on: " poll9 &&
	lore_add "$M/test2" &&
	"$SCHED_BOT" cron --poll-only --send 2>poll10 &&
	cat poll10 &&
	test_grep "queued job [0-9]* for dev@kernel.example: <$COVER> spawn runs=3" poll10 &&
	test "$(runs_of test2@kernel.example)" = 3 &&
	test "$(sqlite3 "$DB" "SELECT COUNT(*) FROM quarantine WHERE msgid = '\''test2@kernel.example'\''")" -eq 1
'

test_done
