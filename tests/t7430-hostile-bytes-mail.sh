#!/bin/sh
# Bytes from strangers that reach a person by mail or on the archive's
# pages: the thread (its Subject:, a From: name written raw, a Cc: name
# as an RFC 2047 word, the lines the reply quotes) and the built .config
# (CONFIG_CC_VERSION_TEXT) carry OSC 52 (the clipboard), OSC 0 (the
# title), clear-screen, BEL and "<CR>.<CR><LF>", the end of an SMTP
# server's data for some; a job's log has lines "." and "..".  No
# control character but tab and newline reaches the reply (the outbox
# file, its headers decoded, and what smtp-sink received), a line "."
# arrives whole, and the archive shows the quoted text as text: no link
# or image from outside, only links to the bot's own files and lore.
# The jobs are the fixtures stopped before their reply: no kernel.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed (contrib/install-deps)"
bot_sink_start || test_fail_all "smtp-sink does not start"

CFG=$TRASH/bot.cfg
bot_config "$CFG"
git config -f "$CFG" archive.url https://sched-bot.example.org/jobs
export SCHED_BOT_CONFIG=$CFG

# Every control character but tab and newline, as a grep bracket (C).
CTL=$(printf '[\001-\010\013-\037\177]')
export LC_ALL=C

# The display name of the hostile Cc:, as an RFC 2047 word.
B64=$(printf 'Mal\033]52;c;cHdu\007lory' | base64)
export B64

# evil_thread OUT: the Chen Yu v3 thread whose cover letter carries the
# escapes in its Subject:, its From: name, a Cc: name and the two lines
# the reply quotes (reply.quoteLines), with a link, an autolink and an
# image in CommonMark.
evil_thread() {
	perl -pe '
		$n++ if /^From mboxrd\@z /;
		next if $n != 1;
		s/^From:   Chen Yu /From:   Chen\e]0;owned\a Yu /;
		s/^Cc:     /Cc:     =?UTF-8?B?$ENV{B64}?= <mallory\@evil.example>,\n        /;
		s/^(Subject: \[PATCH v3 0\/2\])/$1 \e]52;c;cHdu\a\e[2J/;
		s/^The main purpose of this change.*/The main\e]52;c;cHdu\a purpose\r\e[2J [numbers](https:\/\/evil.example\/p)/;
		s/^wake up when it is unnecessary.*/<https:\/\/evil.example\/auto> ![x](https:\/\/evil.example\/t.png)/;
	' "$DATA/intake/short-task-wakeup-v3-partial.mbox" >"$1"
}

# evil_job DIR: the tested fixture on the hostile thread, its patched
# kernel's .config with the hostile compiler version, its subject with
# an escape too (the archive's title and index show it).
evil_job() {
	bot_job job-tested "$1" &&
	evil_thread "$1/thread.mbox" &&
	cfg=$TRASH/$(basename "$1").config &&
	printf 'CONFIG_CC_VERSION_TEXT="gcc (Evil) 12.2.0\033]0;pwned\007\033[2J\r.\r"\nCONFIG_SMP=y\n' \
		>"$cfg" &&
	echo "config_head=$cfg" >>"$1/state" &&
	sed -i "s/^subject=sched/subject=\x1b]0;title\x07sched/" "$1/state"
}

# sink_body FILE: the body of a mail smtp-sink received, as it was
# sent (smtp-sink writes LF line ends and an empty line after it).
sink_body() {
	perl -pe 's/\r\n\z/\n/' "$1" | sed "1,/^\$/d" | sed '$ { /^$/ d; }'
}

# decoded_headers FILE: the header block, each RFC 2047 word decoded.
decoded_headers() {
	perl -MEncode -ne 'last if /^\r?$/;
		print encode("UTF-8", decode("MIME-Header", $_))' "$1"
}

test_expect_success 'setup: the reply of a job on the hostile thread' '
	evil_job jobs/evil &&
	grep -c "$CTL" jobs/evil/thread.mbox >n &&
	test "$(cat n)" -ge 3 &&
	"$SCHED_BOT" test --job-dir jobs/evil >out 2>err &&
	m=$(cat out) &&
	test -f "$m" &&
	cp "$m" evil.eml
'

test_expect_success 'no control character in the reply, nor in its headers decoded' '
	test_grep ! "$CTL" evil.eml &&
	decoded_headers evil.eml >headers &&
	test_grep "^Subject: Re: \[PATCH v3 0/2\]" headers &&
	test_grep ! "$CTL" headers
'

test_expect_success 'the hostile text is still there, its controls as ?' '
	test_grep "^- compiler: *gcc (Evil) 12.2.0?\]0;pwned??\[2J?\.?$" evil.eml &&
	test_grep "^> The main?\]52;c;cHdu? purpose??\[2J \[numbers\](https://evil.example/p)$" evil.eml &&
	test_grep "^On .*, Chen?\]0;owned? Yu wrote:$" evil.eml &&
	test_grep "\"Mal?\]52;c;cHdu?lory\" <mallory@evil.example>" evil.eml &&
	test_grep "^Subject: Re: \[PATCH v3 0/2\] ?\]52;c;cHdu??\[2J sched/fair" evil.eml &&
	# a name without controls is repeated as the thread wrote it
	test_grep "\"Gautham R . Shenoy\" <gautham.shenoy@amd.com>" evil.eml
'

test_expect_success 'smtp-sink receives the reply whole, with no bare CR' '
	rm -f sink/* &&
	evil_job jobs/sent &&
	"$SCHED_BOT" test --job-dir jobs/sent --send 2>err &&
	test "$(bot_sink_count)" -eq 1 &&
	got=$(ls sink/*) &&
	test_grep ! "$CTL" "$got" &&
	decoded_headers "$got" >headers &&
	test_grep ! "$CTL" headers &&
	mid=$(sed -n "s/^reply_msgid=//p" jobs/sent/state) &&
	sent=$(ls bot-data/outbox/cur/"$mid"*) &&
	test_grep ! "$CTL" "$sent" &&
	sed "1,/^\$/d" "$sent" >expect &&
	sink_body "$got" >body &&
	test_cmp expect body
'

# A job's log as the build-failed reply quotes it (failure.txt): lines
# that SMTP must not take for the end of the data.
test_expect_success 'a line "." in the body arrives whole, with what follows it' '
	rm -f sink/* &&
	bot_job job-build-failed jobs/dot &&
	printf "%s\n" "kernel/sched/fair.c:1:1: error: before the dot" . .. \
		"..." ". x" "after the dot" >jobs/dot/failure.txt &&
	printf ".\r\n\r.\r\nthe last line\n" >>jobs/dot/failure.txt &&
	rc=0 && "$SCHED_BOT" test --job-dir jobs/dot --send 2>err || rc=$? &&
	test $rc -le 1 &&
	test "$(bot_sink_count)" -eq 1 &&
	got=$(ls sink/*) &&
	sink_body "$got" >body &&
	mid=$(sed -n "s/^reply_msgid=//p" jobs/dot/state) &&
	sed "1,/^\$/d" bot-data/outbox/cur/"$mid"* >expect &&
	test_cmp expect body &&
	sed -n "/before the dot/,/the last line/p" body >lines &&
	printf "%s\n" "kernel/sched/fair.c:1:1: error: before the dot" . .. \
		"..." ". x" "after the dot" ".?" "?.?" "the last line" >want &&
	test_cmp want lines &&
	test_grep "^-- $" body
'

# A mail already in the outbox (queued while SMTP was down) that holds
# a bare CR: what goes out has none (smtp-sink drops CRs from what it
# writes down, so a bare CR sent would show as nothing).
test_expect_success 'a bare CR in a queued mail goes out as ?' '
	rm -f sink/* &&
	bot_job job-build-failed jobs/queued &&
	printf "%s\n" "before the CR" "after the CR" >jobs/queued/failure.txt &&
	bot_config down.cfg "$(free_port)" &&
	rc=0 &&
	SCHED_BOT_CONFIG=down.cfg "$SCHED_BOT" test --job-dir jobs/queued \
		--send 2>err || rc=$? &&
	test $rc -ne 0 &&
	test_grep "stays in" err &&
	mid=$(sed -n "s/^reply_msgid=//p" jobs/queued/state) &&
	perl -pi -e "s/^before the CR\n/before\r.\rthe CR\n/" \
		"bot-data/outbox/new/$mid" &&
	test_grep "$(printf "before\r.\r")" "bot-data/outbox/new/$mid" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir jobs/queued --send 2>err || rc=$? &&
	test $rc -le 1 &&
	test "$(bot_sink_count)" -eq 1 &&
	sink_body sink/* >body &&
	test_grep "^before?\.?the CR$" body &&
	test_grep "^after the CR$" body
'

test_expect_success 'archive: the pages of the hostile jobs' '
	"$SCHED_BOT" archive --jobs jobs --out html 2>err &&
	test -f html/evil.html &&
	test -f html/index.html
'

test_expect_success 'archive: no control character on any page' '
	test_grep ! "$CTL" html/evil.html html/index.html &&
	test_grep "?\]0;title?sched/fair: Choose" html/index.html &&
	test_grep "<title>?\]0;title?sched/fair: Choose" html/evil.html
'

test_expect_success 'archive: links and images from the thread are text' '
	test_grep ! "href=\"https://evil" html/evil.html &&
	test_grep ! "src=\"https://evil" html/evil.html &&
	test_grep "numbers &lt;https://evil.example/p&gt;" html/evil.html &&
	test_grep "https://evil.example/auto" html/evil.html &&
	test_grep "x &lt;https://evil.example/t.png&gt;" html/evil.html
'

test_expect_success 'archive: the only links are to the bot`s files and lore' '
	for p in html/evil.html html/index.html; do
		grep -o "\(href\|src\)=\"[^\"]*\"" "$p" || return 1
	done >links &&
	test_grep "href=\"evil/reply.eml\"" links &&
	awk "!/^(href|src)=\"[^\":]*\"\$/ &&
	     !/^href=\"https:\/\/lore.kernel.org\/all\/[^\"]*\"\$/" \
		links >outside &&
	test_cmp /dev/null outside
'

test_done
