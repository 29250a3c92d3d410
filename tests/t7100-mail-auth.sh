#!/bin/sh
# Mail commands as an attacker sends them, against a real public-inbox
# and smtp-sink: a forged From:, an unsigned mail, a wrong signature, an
# rsa-sha1 signature (RFC 8301), a command off the bot's thread, an
# address that only looks allowed: none queues anything or makes the
# bot write to anyone.  A signed (rsa-sha256) command in answer to the
# bot's mail from an allowed sender queues one job; the daily quotas
# hold with one short note; a crash between answering a command and
# recording it sends the answer once.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

bot_command_setup
git config -f "$CFG" --add bot.allow @intel.com

bot_seed_reply || exit 1

# keys: the allowed domains', an attacker's own (valid for its domain),
# and a rogue key for kernel.example that is not the published one
bot_dkim_key kernel.example &&
bot_dkim_key intel.com &&
bot_dkim_key attacker.example &&
mkdir -p "$TRASH/rogue" &&
"$DKIM_GENKEY" -b 1024 -D "$TRASH/rogue" -s test -d kernel.example || exit 1

# mail FILE FROM MSGID LINE [IN-REPLY-TO]
mail() {
	cat >"$1" <<EOM
Received: from test by 127.0.0.1; $now
From: Some One <$2>
To: Chen Yu <yu.c.chen@intel.com>
Cc: bot@sched-bot.example.org, linux-kernel@vger.kernel.org
Subject: Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up
Date: $now
Message-ID: <$3>
In-Reply-To: <${5:-$BOTMSG}>
References: <$COVER> <${5:-$BOTMSG}>

Could the bot have a look?

$4

Thanks
EOM
}

# signed FILE DOMAIN FROM MSGID LINE [IN-REPLY-TO]
signed() {
	f=$1 d=$2
	shift 2
	mail "$f.raw" "$@" && bot_dkim_sign "$d" "$f.raw" "$f"
}

M=$TRASH/m
mkdir -p "$M"
# forged From: signed, but by the attacker's own domain
signed "$M/forged" attacker.example dev@kernel.example forged@attacker.example \
	"#sched-bot test spawn runs=30"
# no signature at all
mail "$M/unsigned" dev@kernel.example unsigned@attacker.example \
	"#sched-bot test spawn runs=30"
# a signature made with a key that is not kernel.example's
mail "$M/rogue.raw" dev@kernel.example rogue@attacker.example \
	"#sched-bot test spawn runs=30"
bot_dkim_sign kernel.example "$M/rogue.raw" "$M/rogue" test \
	"$TRASH/rogue/test.private"
# signed for real, then the command changed on the way
signed "$M/tampered.raw2" kernel.example dev@kernel.example \
	tampered@kernel.example "#sched-bot test spawn runs=3"
sed 's/runs=3$/runs=30/' "$M/tampered.raw2" >"$M/tampered"
# signed and allowed, but answering the cover letter, not the bot
signed "$M/offthread" kernel.example dev@kernel.example offthread@kernel.example \
	"#sched-bot test spawn runs=30" "$COVER"
# an address that ends in @intel.com without being one
cat >"$M/twoat.raw" <<EOM
Received: from test by 127.0.0.1; $now
From: evil@evil.example@intel.com
To: bot@sched-bot.example.org
Subject: Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up
Date: $now
Message-ID: <twoat@evil.example>
In-Reply-To: <$BOTMSG>
References: <$COVER> <$BOTMSG>

#sched-bot test spawn runs=30
EOM
bot_dkim_sign intel.com "$M/twoat.raw" "$M/twoat"
# an allowed address in the display name only
signed "$M/display" attacker.example '"dev@kernel.example" <x@attacker.example' \
	display@attacker.example "#sched-bot test spawn runs=30"
sed -i 's/^From: Some One <"dev@kernel.example" <x@attacker.example>$/From: "dev@kernel.example" <x@attacker.example>/' \
	"$M/display.raw"
bot_dkim_sign attacker.example "$M/display.raw" "$M/display"
# signed for real by an allowed sender, but rsa-sha1 (refused, RFC 8301)
mail "$M/sha1.raw" dev@kernel.example sha1@kernel.example \
	"#sched-bot test spawn runs=30"
bot_dkim_sign_sha1 kernel.example "$M/sha1.raw" "$M/sha1"
# the real thing
signed "$M/good" kernel.example dev@kernel.example good@kernel.example \
	"#sched-bot test spawn runs=3"

lore_start "$TRASH/series.mbox" "$M/forged" "$M/unsigned" "$M/rogue" \
	"$M/tampered" "$M/offthread" "$M/twoat" "$M/display" "$M/sha1" \
	"$M/good"

jobs_of() {
	sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM jobs WHERE command_msgid = '$1'"
}

test_expect_success 'the keys and the signing work (the good mail verifies)' '
	test_grep "^DKIM-Signature: .*d=kernel.example" "$M/good" &&
	test "$(grep -c "_domainkey" "$DKIM_KEYS")" -eq 3
'

test_expect_success 'one poll: only the signed command on the bot thread queues' '
	"$SCHED_BOT" cron --poll-only --send 2>err &&
	cat err &&
	test_grep "queued job 1: v3 " err &&
	test_grep "queued job 2 for dev@kernel.example: <$COVER> spawn runs=3" err &&
	test "$(grep -c "^queued job .* for " err)" -eq 1 &&
	test "$(jobs_of good@kernel.example)" -eq 1
'

test_expect_success 'the forged From: is refused: the signature is not its domain' '
	test_grep "command in <forged@attacker.example> from dev@kernel.example ignored: no DKIM signature of kernel.example that verifies: DKIM signature of attacker.example does not align" err &&
	test "$(jobs_of forged@attacker.example)" -eq 0
'

test_expect_success 'unsigned, wrongly signed and tampered mails are refused' '
	test_grep "command in <unsigned@attacker.example> .* ignored: no DKIM signature of kernel.example that verifies: no DKIM signature" err &&
	test_grep "command in <rogue@attacker.example> .* ignored: no DKIM signature of kernel.example that verifies: DKIM signature of kernel.example does not verify" err &&
	test_grep "command in <tampered@kernel.example> .* ignored: no DKIM signature of kernel.example that verifies" err &&
	test "$(jobs_of unsigned@attacker.example)" -eq 0 &&
	test "$(jobs_of rogue@attacker.example)" -eq 0 &&
	test "$(jobs_of tampered@kernel.example)" -eq 0
'

test_expect_success 'an rsa-sha1 signature of an allowed sender queues nothing' '
	test_grep "^DKIM-Signature: .*a=rsa-sha1" "$M/sha1" &&
	test_grep "^DKIM-Signature: .*a=rsa-sha256" "$M/good" &&
	test_grep "command in <sha1@kernel.example> from dev@kernel.example ignored: no DKIM signature of kernel.example that verifies: DKIM signature of kernel.example uses rsa-sha1, refused (RFC 8301" err &&
	test "$(jobs_of sha1@kernel.example)" -eq 0
'

test_expect_success 'a signed command off the bot thread is refused' '
	test_grep "command in <offthread@kernel.example> .* ignored: it answers no mail of the bot" err &&
	test "$(jobs_of offthread@kernel.example)" -eq 0
'

test_expect_success 'evil@evil.example@intel.com does not pass @intel.com' '
	test_grep "command in <twoat@evil.example> .* ignored: the From: address .* is not a plain address" err &&
	test "$(jobs_of twoat@evil.example)" -eq 0
'

test_expect_success 'an allowed address in the display name does not count' '
	test_grep "command in <display@attacker.example> from x@attacker.example ignored: sender x@attacker.example is not in bot.allow" err &&
	test "$(jobs_of display@attacker.example)" -eq 0
'

test_expect_success 'nobody was written to: no error reply to a forgery' '
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM mails")" -eq 1
'

test_expect_success 'the job says who asked, as authenticated' '
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT requested_by FROM jobs WHERE command_msgid = \"good@kernel.example\"")" = dev@kernel.example &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM jobs WHERE requested_by IS NOT NULL")" -eq 1
'

# quotas: dev has one job today; two a sender, three all together
git config -f "$CFG" bot.maxJobsPerSender 2
git config -f "$CFG" bot.maxJobsPerDay 3
for i in 1 2 3; do
	signed "$M/q$i" kernel.example dev@kernel.example q$i@kernel.example \
		"#sched-bot test pingpong runs=2"
done
for i in 4 5 6; do
	signed "$M/q$i" intel.com other@intel.com q$i@intel.com \
		"#sched-bot test pingpong runs=2"
done

test_expect_success 'quotas: per sender, then for the day, one note each' '
	lore_add "$M/q1" "$M/q2" "$M/q3" "$M/q4" "$M/q5" "$M/q6" &&
	"$SCHED_BOT" cron --poll-only --send 2>errq &&
	cat errq &&
	# which commands win depends on the order lore lists them: count
	test "$(grep -c "^queued job .* for " errq)" -eq 2 &&
	test "$(grep -c " over quota: .*(bot.maxJobsPer" errq)" -eq 4 &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM jobs WHERE requested_by = \"dev@kernel.example\"")" -le 2 &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM jobs WHERE requested_by = \"other@intel.com\"")" -le 2 &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM jobs WHERE requested_by IS NOT NULL")" -eq 3 &&
	test "$(grep -c "^answered the over-quota command" errq)" -eq 2 &&
	smtp_wait 2 &&
	test "$(smtp_count)" -eq 2 &&
	for m in "$SMTP_DIR"/*; do
		test_grep "did not queue your command" "$m" &&
		test_grep "^In-Reply-To: <q[0-9]@" "$m" || return 1
	done &&
	test "$(cat "$SMTP_DIR"/* | grep -c "^X-Rcpt-Args: <dev@kernel.example>")" -eq 1 &&
	test "$(cat "$SMTP_DIR"/* | grep -c "^X-Rcpt-Args: <other@intel.com>")" -eq 1
'

test_expect_success 'quotas: another poll adds nothing' '
	"$SCHED_BOT" cron --poll-only --send 2>errq2 &&
	test_grep ! "queued job" errq2 &&
	test_grep ! "answered" errq2 &&
	test "$(smtp_count)" -eq 2
'

# a crash between queueing the answer and recording the command (the
# thread has had its 3 mails: the cap is not what is tested here)
git config -f "$CFG" bot.maxPerThread 10
signed "$M/crash" kernel.example dev@kernel.example crash@kernel.example \
	"#sched-bot test no-such-workload"

test_expect_success 'kill -9 between answering a command and recording it: one answer' '
	lore_add "$M/crash" &&
	rm -f "$SMTP_DIR"/* &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=command-answered "$SCHED_BOT" cron --poll-only \
		--send 2>errc || rc=$? &&
	test $rc -eq 137 &&
	test_grep "crash point .command-answered. reached" errc &&
	"$SCHED_BOT" cron --poll-only --send 2>errc2 &&
	cat errc2 &&
	"$SCHED_BOT" cron --poll-only --send 2>errc3 &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	test_grep "^In-Reply-To: <crash@kernel.example>" "$SMTP_DIR"/* &&
	test_grep "unknown workload .no-such-workload." "$SMTP_DIR"/* &&
	test "$(sqlite3 "$XDG_DATA_HOME/sched-bot/state.db" \
		"SELECT COUNT(*) FROM mails WHERE message_id LIKE \"sched-bot.error.%\"")" -eq 1
'

test_done
