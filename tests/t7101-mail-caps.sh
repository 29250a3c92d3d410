#!/bin/sh
# How many people one mail of the bot reaches: a reply to a cover
# letter with 3,000 Cc goes to at most reply.maxRecipients (counted as
# RCPT TO at a real smtp-sink), whatever reply.cc says; a mail in the
# outbox over the cap is dropped, not sent; a flood of command mails
# sends at most bot.maxRecipientsPerHour recipients, and at most
# bot.maxPerThread answers to one thread, answers to commands included.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

bot_command_setup --no-series

# the cover letter's Cc: gets 1,500 list-looking and 1,500 other names
flood_cc() {
	awk 'NR == FNR { extra = extra $0 "\n"; next }
	     !done && /^Cc:/ { print; printf "%s", extra; done = 1; next }
	     { print }' "$1" "$2"
}
i=0
while [ $i -lt 1500 ]; do
	echo "	u$i@lists.flood.example, p$i@people.flood.example,"
	i=$((i + 1))
done >"$TRASH/cc.txt"

rcpts() {
	grep -c "^X-Rcpt-Args:" "$1"
}

test_expect_success 'a reply to 3,000 Cc goes to reply.maxRecipients at most' '
	bot_job job-tested "$TRASH/j1" &&
	flood_cc "$TRASH/cc.txt" "$TRASH/j1/thread.mbox" >"$TRASH/t.mbox" &&
	mv "$TRASH/t.mbox" "$TRASH/j1/thread.mbox" &&
	test "$(grep -c "@lists.flood.example" "$TRASH/j1/thread.mbox")" -ge 1500 &&
	"$SCHED_BOT" test --job-dir "$TRASH/j1" --send 2>err1 &&
	smtp_wait 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test "$(rcpts "$m")" -le 20 &&
	test "$(rcpts "$m")" -ge 2 &&
	test_grep "^X-Rcpt-Args: <yu.c.chen@intel.com>" "$m" &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep "addresses left out of the reply (reply.maxRecipients = 20)" err1
'

test_expect_success 'reply.cc = all: the same cap' '
	rm -f "$SMTP_DIR"/* &&
	git config -f "$CFG" reply.cc all &&
	bot_job job-tested "$TRASH/j2" &&
	flood_cc "$TRASH/cc.txt" "$TRASH/j2/thread.mbox" >"$TRASH/t.mbox" &&
	mv "$TRASH/t.mbox" "$TRASH/j2/thread.mbox" &&
	git config -f "$CFG" reply.maxRecipients 7 &&
	"$SCHED_BOT" test --job-dir "$TRASH/j2" --send 2>err2 &&
	smtp_wait 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test "$(rcpts "$m")" -le 7 &&
	test_grep "^X-Rcpt-Args: <yu.c.chen@intel.com>" "$m" &&
	git config -f "$CFG" --unset reply.cc &&
	git config -f "$CFG" --unset reply.maxRecipients
'

test_expect_success 'a mail over the cap that is in the outbox is dropped, not sent' '
	rm -f "$SMTP_DIR"/* &&
	git config -f "$CFG" reply.maxRecipients 1000 &&
	git config -f "$CFG" reply.cc all &&
	git config -f "$CFG" bot.maxPerThread 0 &&
	git config -f "$CFG" bot.maxRecipientsPerHour 0 &&
	git config -f "$CFG" bot.maxRecipientsPerDay 0 &&
	git config -f "$CFG" smtp.url "smtp://127.0.0.1:$(free_port)" &&
	bot_job job-tested "$TRASH/j3" &&
	flood_cc "$TRASH/cc.txt" "$TRASH/j3/thread.mbox" >"$TRASH/t.mbox" &&
	mv "$TRASH/t.mbox" "$TRASH/j3/thread.mbox" &&
	# nothing listens on that port: exit 4 (network), the mail kept
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$TRASH/j3" --send 2>err3 || rc=$? &&
	test $rc -eq 4 &&
	test_grep "stays in .* for the next run" err3 &&
	git config -f "$CFG" --unset bot.maxPerThread &&
	git config -f "$CFG" --unset bot.maxRecipientsPerHour &&
	git config -f "$CFG" --unset bot.maxRecipientsPerDay &&
	path=$(ls "$XDG_DATA_HOME"/sched-bot/outbox/new/*) &&
	test "$(grep -o "flood.example" "$path" | wc -l)" -ge 500 &&
	git config -f "$CFG" smtp.url "smtp://127.0.0.1:$SMTP_PORT" &&
	git config -f "$CFG" --unset reply.maxRecipients &&
	git config -f "$CFG" --unset reply.cc &&
	"$SCHED_BOT" cron --no-poll --send 2>err3b &&
	test_grep "recipients, more than reply.maxRecipients (20); dropped" err3b &&
	test "$(smtp_count)" -eq 0 &&
	"$SCHED_BOT" cron --no-poll --send 2>err3c &&
	test_grep ! "dropped" err3c &&
	test "$(smtp_count)" -eq 0
'

# command floods: 30 bad commands, signed, each with 40 list addresses
# (a fresh state: the replies above went to the same thread)
git config -f "$CFG" state.db "$TRASH/flood-state.db"
rm -f "$SMTP_DIR"/*
bot_job job-tested "$TRASH/seed" &&
"$SCHED_BOT" test --job-dir "$TRASH/seed" --send 2>"$TRASH/seed.err" &&
smtp_wait 1 || { cat "$TRASH/seed.err"; exit 1; }
BOTMSG=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$SMTP_DIR"/*)
SEED_RCPTS=$(rcpts "$SMTP_DIR"/*)
rm -f "$SMTP_DIR"/*
bot_dkim_key kernel.example || exit 1
CC40=$(i=0; while [ $i -lt 40 ]; do printf 'l%s@lists.flood.example, ' $i; i=$((i + 1)); done)
mkdir -p "$TRASH/m"
files=
i=0
while [ $i -lt 30 ]; do
	cat >"$TRASH/m/c$i.raw" <<EOM
Received: from test by 127.0.0.1; $now
From: Dev <dev@kernel.example>
To: bot@sched-bot.example.org
Cc: ${CC40}linux-kernel@vger.kernel.org
Subject: Re: [PATCH v3 0/2] sched/fair: Choose the CPU where short task is running during wake up
Date: $now
Message-ID: <flood$i@kernel.example>
In-Reply-To: <$BOTMSG>
References: <$COVER> <$BOTMSG>

#sched-bot test bogus$i
EOM
	bot_dkim_sign kernel.example "$TRASH/m/c$i.raw" "$TRASH/m/c$i" || exit 1
	files="$files $TRASH/m/c$i"
	i=$((i + 1))
done
# shellcheck disable=SC2086
lore_start $files

total_rcpts() {
	cat "$SMTP_DIR"/* 2>/dev/null | grep -c "^X-Rcpt-Args:" || true
}

test_expect_success 'a flood of commands: answers stop at bot.maxPerThread' '
	"$SCHED_BOT" cron --poll-only --send 2>errf &&
	test "$(grep -c "^answered the bad command" errf)" -eq 30 &&
	test "$(smtp_count)" -eq 2 &&
	test_grep "rate cap: 3 mails to <$COVER> (bot.maxPerThread)" errf
'

test_expect_success 'a flood of commands: recipients per hour stop at the cap' '
	git config -f "$CFG" bot.maxPerThread 0 &&
	git config -f "$CFG" bot.maxRecipientsPerHour 100 &&
	"$SCHED_BOT" cron --poll-only --send 2>errg &&
	cat errg &&
	sent=$(total_rcpts) &&
	echo "recipients sent in the hour: $sent + $SEED_RCPTS" &&
	test $((sent + SEED_RCPTS)) -le 100 &&
	test "$sent" -ge 40 &&
	test_grep "rate cap: 100 recipients in the last hour (bot.maxRecipientsPerHour)" errg &&
	for m in "$SMTP_DIR"/*; do
		test "$(rcpts "$m")" -le 20 || return 1
	done &&
	pending=$(sqlite3 "$TRASH/flood-state.db" \
		"SELECT COUNT(*) FROM mails WHERE state = \"intent\"") &&
	test "$pending" -gt 0
'

test_expect_success 'answers that waited longer than outbox.maxAge are dropped' '
	git config -f "$CFG" bot.maxRecipientsPerHour 0 &&
	sqlite3 "$TRASH/flood-state.db" \
		"UPDATE mails SET created_at = created_at - 700000 WHERE state = \"intent\"" &&
	before=$(smtp_count) &&
	"$SCHED_BOT" cron --poll-only --send 2>errh &&
	test_grep "waited more than 604800 s (outbox.maxAge); dropped" errh &&
	test_grep ! "^sent <" errh &&
	test "$(smtp_count)" -eq "$before" &&
	test "$(sqlite3 "$TRASH/flood-state.db" \
		"SELECT COUNT(*) FROM mails WHERE state = \"intent\"")" -eq 0
'

test_done
