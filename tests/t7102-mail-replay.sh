#!/bin/sh
# Replayed mail commands, against a real public-inbox and smtp-sink.  A
# genuine signed command is public on lore: with a new Message-ID:,
# In-Reply-To: and References: put on top it still verifies (DKIM signs
# the last copy of a header, the bot reads the first), aimed at another
# thread the bot replied to.  None of these queues anything: that
# replay, a second copy of any header a command is read from, a
# signature whose h= leaves out a header the bot reads, a signature
# that already authenticated a command, a signed Date: too old or ahead.
# The genuine command queues exactly once.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

bot_command_setup
# the quotas must not be what stops a command here
git config -f "$CFG" bot.maxJobsPerSender 100
git config -f "$CFG" bot.maxJobsPerDay 100

bot_seed_reply || exit 1
bot_dkim_key kernel.example || exit 1

DB=$XDG_DATA_HOME/sched-bot/state.db
# another thread the bot replied to: where a replay would aim
OTHER_COVER=other-cover@kernel.example
OTHER_BOT=other-reply@sched-bot.example.org
sqlite3 "$DB" "INSERT INTO mails (message_id, thread, state, sent_at)
	VALUES ('$OTHER_BOT', '$OTHER_COVER', 'sent', strftime('%s'))" || exit 1

# mail FILE MSGID [DATE]: a command of dev@kernel.example answering the
# bot's mail in the Chen Yu thread
mail() {
	cat >"$1" <<EOM
Received: from test by 127.0.0.1; $now
From: Dev One <dev@kernel.example>
To: Chen Yu <yu.c.chen@intel.com>
Cc: bot@sched-bot.example.org, linux-kernel@vger.kernel.org
Subject: Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up
Date: ${3:-$now}
Message-ID: <$2>
In-Reply-To: <$BOTMSG>
References: <$COVER> <$BOTMSG>

Could the bot have a look?

#sched-bot test spawn runs=3

Thanks
EOM
}

# signed FILE MSGID [DATE [HEADERS]]
signed() {
	mail "$1.raw" "$2" "${3:-$now}" &&
	bot_dkim_sign kernel.example "$1.raw" "$1" test "" ${4:+"$4"}
}

# on_top FILE OUT HEADER...: OUT is FILE with the headers put on top
# (under a fresh Received: line, which lore's rt: reads), as anyone can
# do to a signed mail without breaking its signature
on_top() {
	f=$1 out=$2
	shift 2
	{
		echo "Received: from replay by 127.0.0.1; $now"
		for h in "$@"; do
			echo "$h"
		done
		cat "$f"
	} >"$out"
}

M=$TRASH/m
mkdir -p "$M"
# the genuine command
signed "$M/good" good@kernel.example || exit 1
# the replay: the genuine mail, aimed at the other thread
on_top "$M/good" "$M/replay" \
	"Message-ID: <replay@attacker.example>" \
	"In-Reply-To: <$OTHER_BOT>" \
	"References: <$OTHER_COVER> <$OTHER_BOT>"
# one header more of each kind, on top of a signed command of its own
signed "$M/dmid.s" dmid@kernel.example &&
on_top "$M/dmid.s" "$M/dmid" "Message-ID: <dmid-new@attacker.example>" &&
signed "$M/dirt.s" dirt@kernel.example &&
on_top "$M/dirt.s" "$M/dirt" "In-Reply-To: <$BOTMSG>" &&
signed "$M/dref.s" dref@kernel.example &&
on_top "$M/dref.s" "$M/dref" "References: <$COVER> <$BOTMSG>" &&
signed "$M/dsubj.s" dsubj@kernel.example &&
on_top "$M/dsubj.s" "$M/dsubj" "Subject: Re: something else" &&
signed "$M/ddate.s" ddate@kernel.example &&
on_top "$M/ddate.s" "$M/ddate" "Date: $now" &&
signed "$M/dfrom.s" dfrom@kernel.example &&
on_top "$M/dfrom.s" "$M/dfrom" "From: Dev One <dev@kernel.example>" &&
# "From :" is a From: header to DKIM (RFC 5322 4.5.3) as to the bot
signed "$M/dfrom2.s" dfrom2@kernel.example &&
on_top "$M/dfrom2.s" "$M/dfrom2" "From : Dev One <dev@kernel.example>" || exit 1
# signatures that leave a header the bot reads unsigned
signed "$M/noref" noref@kernel.example "$now" \
	from:to:cc:subject:date:message-id:in-reply-to &&
signed "$M/noirt" noirt@kernel.example "$now" \
	from:to:cc:subject:date:message-id:references &&
signed "$M/nomid" nomid@kernel.example "$now" \
	from:to:cc:subject:date:in-reply-to:references &&
signed "$M/nodate" nodate@kernel.example "$now" \
	from:to:cc:subject:message-id:in-reply-to:references || exit 1
# signed Dates out of the window
signed "$M/old" old@kernel.example "$(date -R -d '8 days ago')" &&
signed "$M/ahead" ahead@kernel.example "$(date -R -d '2 days')" || exit 1
# a signature the state already holds for another command
signed "$M/taken" taken@kernel.example || exit 1
TAKEN_B=$(sed -n 's/^DKIM-Signature: .*; b=//p' "$M/taken")

jobs_of() {
	sqlite3 "$DB" "SELECT COUNT(*) FROM jobs WHERE command_msgid = '$1'"
}

jobs_for() {
	sqlite3 "$DB" "SELECT COUNT(*) FROM jobs WHERE msgid = '$1' AND
		requested_by IS NOT NULL"
}

all_jobs() {
	sqlite3 "$DB" "SELECT COUNT(*) FROM jobs WHERE requested_by IS NOT NULL"
}

test_expect_success 'set-up: mail signed as asked, a signature to take' '
	test_grep "^DKIM-Signature: .*h=from:to:cc:subject:date:message-id:in-reply-to:references;" "$M/good" &&
	test_grep "^DKIM-Signature: .*h=from:to:cc:subject:date:message-id:in-reply-to;" "$M/noref" &&
	test "$(grep -c "^Message-ID:" "$M/replay")" -eq 2 &&
	test "$(grep -c "^References:" "$M/replay")" -eq 2 &&
	test -n "$TAKEN_B" &&
	sqlite3 "$DB" "INSERT INTO command_sigs (sig, msgid, seen_at)
		VALUES ('\''$TAKEN_B'\'', '\''earlier@kernel.example'\'', 0)"
'

lore_start "$TRASH/series.mbox" "$M/good" "$M/replay" "$M/dmid" "$M/dirt" \
	"$M/dref" "$M/dsubj" "$M/ddate" "$M/dfrom" "$M/dfrom2" "$M/noref" \
	"$M/noirt" "$M/nomid" "$M/nodate" "$M/old" "$M/ahead" "$M/taken"

test_expect_success 'one poll: the genuine command queues, once' '
	"$SCHED_BOT" cron --poll-only --send 2>err &&
	cat err &&
	test_grep "queued job [0-9]* for dev@kernel.example: <$COVER> spawn runs=3" err &&
	test "$(jobs_of good@kernel.example)" -eq 1 &&
	test "$(jobs_for "$COVER")" -eq 1
'

test_expect_success 'the replay aimed at another thread of the bot queues nothing' '
	test_grep "command in <replay@attacker.example> from dev@kernel.example ignored: 2 Message-ID: headers" err &&
	test "$(jobs_of replay@attacker.example)" -eq 0 &&
	test "$(jobs_for "$OTHER_COVER")" -eq 0
'

test_expect_success 'a second copy of any header a command is read from: refused' '
	for h in "dmid-new@attacker.example Message-ID" \
		 "dirt@kernel.example In-Reply-To" \
		 "dref@kernel.example References" \
		 "dsubj@kernel.example Subject" \
		 "ddate@kernel.example Date" \
		 "dfrom@kernel.example From" \
		 "dfrom2@kernel.example From"
	do
		set -- $h &&
		test_grep "command in <$1> .* ignored: 2 $2: headers (one copy of each" err &&
		test "$(jobs_of "$1")" -eq 0 || return 1
	done &&
	test "$(jobs_of dmid@kernel.example)" -eq 0
'

test_expect_success 'a signature that leaves References, In-Reply-To, Message-ID or Date out: refused' '
	for h in "noref References" "noirt In-Reply-To" "nomid Message-ID" \
		 "nodate Date"
	do
		set -- $h &&
		test_grep "command in <$1@kernel.example> .* ignored: no DKIM signature of kernel.example that verifies: DKIM signature of kernel.example does not sign the $2: header (h=)" err &&
		test "$(jobs_of "$1@kernel.example")" -eq 0 || return 1
	done
'

test_expect_success 'a signed Date: over a week old, or a day ahead: refused' '
	test_grep "command in <old@kernel.example> .* ignored: its signed Date: is more than 7 days old" err &&
	test_grep "command in <ahead@kernel.example> .* ignored: its signed Date: is more than a day ahead" err &&
	test "$(jobs_of old@kernel.example)" -eq 0 &&
	test "$(jobs_of ahead@kernel.example)" -eq 0
'

test_expect_success 'a signature that authenticated another command counts no more' '
	test_grep "command in <taken@kernel.example> .* ignored: its DKIM signature authenticated <earlier@kernel.example> already (a replay)" err &&
	test "$(jobs_of taken@kernel.example)" -eq 0
'

test_expect_success 'the genuine command is the one job, its signature recorded' '
	test "$(all_jobs)" -eq 1 &&
	test "$(sqlite3 "$DB" "SELECT msgid FROM command_sigs WHERE
		sig = (SELECT sig FROM command_sigs WHERE
		msgid = '\''good@kernel.example'\'')")" = good@kernel.example &&
	test "$(smtp_count)" -eq 0
'

# the same signed mail delivered again, as a list or a relay passes it
# on: with headers of its own on top (a Cc: it is not signed for makes
# it a new mail to lore), once under its own Message-ID (public-inbox
# then adds one it makes up, after it) and once under a new one on top
on_top "$M/good" "$M/again1" "Cc: another-list@lists.example"
on_top "$M/good" "$M/again2" "Message-ID: <again@relay.example>" \
	"Cc: relay-list@lists.example"

test_expect_success 'the same signed mail delivered twice more queues nothing more' '
	lore_add "$M/again1" "$M/again2" &&
	"$SCHED_BOT" cron --poll-only --send 2>err2 &&
	cat err2 &&
	test_grep "command in <again@relay.example> from dev@kernel.example ignored: 2 Message-ID: headers" err2 &&
	test_grep ! "queued job" err2 &&
	test "$(jobs_of good@kernel.example)" -eq 1 &&
	test "$(jobs_of again@relay.example)" -eq 0 &&
	test "$(jobs_for "$COVER")" -eq 1 &&
	test "$(all_jobs)" -eq 1
'

test_expect_success 'another poll adds nothing, answers nobody' '
	"$SCHED_BOT" cron --poll-only --send 2>err3 &&
	test_grep ! "queued job" err3 &&
	test "$(all_jobs)" -eq 1 &&
	test "$(smtp_count)" -eq 0
'

test_done
