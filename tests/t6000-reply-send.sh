#!/bin/sh
# The reply of `sched-bot test`: composed from a job directory, written
# to the outbox (dry run) or sent to a real SMTP server (smtp-sink),
# threaded under the cover letter, with Tested-by only when nothing
# regressed; SMTP down keeps it in the outbox for the next run; the
# password never appears in any output.
. "$(dirname "$0")/lib.sh"
. "$TESTS/lib-bot.sh"

[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed (contrib/install-deps)"
bot_sink_start || test_skip_all "smtp-sink does not start"

CFG=$TRASH/bot.cfg
bot_config "$CFG"
export SCHED_BOT_CONFIG=$CFG
COVER=cover.1669862147.git.yu.c.chen@intel.com

test_expect_success 'dry run writes the reply to the outbox and prints it' '
	bot_job job-tested dry &&
	"$SCHED_BOT" test --job-dir dry >out 2>err &&
	path=$(cat out) &&
	case "$path" in */bot-data/outbox/new/*) ;; *) false ;; esac &&
	test -f "$path" &&
	test "$(bot_sink_count)" -eq 0 &&
	test_grep "^In-Reply-To: <$COVER>$" "$path"
'

test_expect_success 'the dry-run reply is well formed' '
	m=$(cat out) &&
	test_grep "^From: Sched Bot <bot@sched-bot.example.org>$" "$m" &&
	test_grep "^To: Chen Yu <yu.c.chen@intel.com>$" "$m" &&
	# reply.cc = lists (the default): the list, the people of the trailers
	test_grep "^Cc: linux-kernel@vger.kernel.org," "$m" &&
	test_grep "<tim.c.chen@intel.com>" "$m" &&
	test_grep ! "peterz@infradead.org" "$m" &&
	test_grep "^Subject: Re: \[PATCH v3 0/2\] sched/fair: Choose the CPU" "$m" &&
	test_grep "^References: <$COVER>$" "$m" &&
	grep -Eq "^Message-ID: <[0-9]{14}\.[0-9a-f]{16}@sched-bot.example.org>$" "$m" &&
	test_grep "^Content-Type: text/plain; charset=utf-8$" "$m" &&
	test_grep "^> The main purpose of this change" "$m" &&
	test_grep ! "^> This patch set inhibits" "$m" &&
	test_grep "spawn.lps" "$m" &&
	test_grep "^Verdict: no significant change" "$m" &&
	test_grep "^    sched-bot test .$COVER. " "$m" &&
	test "$(grep -c "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" "$m")" -eq 1 &&
	! awk "length > 998" "$m" | test_grep . &&
	! sed "1,/^\$/d" "$m" | grep -v "^    " | grep -v "^>" | awk "length > 72" | test_grep .
'

test_expect_success '--send delivers one mail to the SMTP server' '
	bot_job job-tested sent &&
	"$SCHED_BOT" test --job-dir sent --send &&
	test "$(bot_sink_count)" -eq 1 &&
	m=$(ls sink/*) &&
	test_grep "^X-Mail-Args: <bot@sched-bot.example.org>" "$m" &&
	test_grep "^X-Rcpt-Args: <yu.c.chen@intel.com>" "$m" &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep "^In-Reply-To: <$COVER>" "$m" &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>" "$m" &&
	from=$(sed -n "s/^From: .*<\(.*\)>$/\1/p" "$m") &&
	tb=$(sed -n "s/^Tested-by: .*<\(.*\)>$/\1/p" "$m") &&
	test "$from" = "$tb" &&
	ls bot-data/outbox/cur | test_grep ":2,S$"
'

test_expect_success 'running the finished job again sends nothing' '
	"$SCHED_BOT" test --job-dir sent --send &&
	test "$(bot_sink_count)" -eq 1
'

test_expect_success 'a regression gets a report without Tested-by' '
	rm -f sink/* &&
	bot_job job-regression reg &&
	rc=0 && "$SCHED_BOT" test --job-dir reg --send || rc=$? &&
	test $rc -eq 5 &&
	m=$(ls sink/*) &&
	test_grep ! "Tested-by" "$m" &&
	test_grep "noticed a significant regression" "$m" &&
	test_grep "^- spawn lps: -12.4%" "$m" &&
	test_grep "^    sched-bot test" "$m"
'

test_expect_success 'SMTP refusing: the mail stays in the outbox' '
	rm -f sink/* &&
	bot_job job-tested down &&
	bot_config down.cfg "$(free_port)" &&
	rc=0 && SCHED_BOT_CONFIG=down.cfg "$SCHED_BOT" test --job-dir down --send 2>err || rc=$? &&
	test $rc -eq 4 &&
	test_grep "stays in" err &&
	mid=$(sed -n "s/^reply_msgid=//p" down/state) &&
	test -f "bot-data/outbox/new/$mid" &&
	test "$(bot_sink_count)" -eq 0
'

test_expect_success '... and the next run delivers it, once' '
	mid=$(sed -n "s/^reply_msgid=//p" down/state) &&
	"$SCHED_BOT" test --job-dir down --send &&
	test "$(bot_sink_count)" -eq 1 &&
	test_grep "^Message-ID: <$mid>" sink/* &&
	test ! -f "bot-data/outbox/new/$mid" &&
	"$SCHED_BOT" test --job-dir down --send &&
	test "$(bot_sink_count)" -eq 1
'

test_expect_success 'the SMTP password is never printed or stored' '
	bot_job job-tested pw &&
	bot_config pw.cfg &&
	git config -f pw.cfg smtp.user bot &&
	git config -f pw.cfg smtp.tls none &&
	git config -f pw.cfg bot.maxPerThread 0 &&
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=s3cr3t-Pa55 SCHED_BOT_CONFIG=pw.cfg \
		"$SCHED_BOT" -v test --job-dir pw --send >pw.out 2>pw.err || rc=$? &&
	test $rc -ne 0 &&
	test_grep "smtp: sending to" pw.err &&
	! grep -r "s3cr3t-Pa55" pw.out pw.err bot-data pw &&
	echo "s3cr3t-FiLe" >pwfile &&
	git config -f pw.cfg smtp.passwordFile "$TRASH/pwfile" &&
	SCHED_BOT_CONFIG=pw.cfg "$SCHED_BOT" -v test --job-dir pw --send \
		>pw.out 2>pw.err || true &&
	SCHED_BOT_CONFIG=pw.cfg "$SCHED_BOT" config --list >>pw.out 2>&1 &&
	! grep -r "s3cr3t-FiLe" pw.out pw.err bot-data pw
'

test_expect_success 'with a password, smtp:// insists on STARTTLS: nothing sent in clear' '
	rm -f sink/* &&
	bot_job job-tested tls &&
	bot_config tls.cfg &&
	git config -f tls.cfg smtp.user bot &&
	git config -f tls.cfg bot.maxPerThread 0 &&
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=s3cr3t-TlS SCHED_BOT_CONFIG=tls.cfg \
		"$SCHED_BOT" test --job-dir tls --send 2>tls.err || rc=$? &&
	test $rc -eq 4 &&
	test_grep "STARTTLS" tls.err &&
	test "$(bot_sink_count)" -eq 0 &&
	test_grep ! s3cr3t-TlS tls.err &&
	test_grep ! "s3cr3t" "$TRASH/sink.log"
'

test_done
