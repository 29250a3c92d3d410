#!/bin/sh
# `sched-bot archive`: job directories to HTML pages (cmark) and an
# index, with the raw CSV linked, and nothing from mail executed.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

bot_config "$TRASH/bot.cfg" 1
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

test_expect_success 'setup: a finished job and a hostile one' '
	bot_job job-tested jobs/good &&
	printf "label,kernel,workload,params,run,metric,value,unit,higher_is_better\n" \
		>jobs/good/results.csv &&
	"$SCHED_BOT" test --job-dir jobs/good >/dev/null &&
	mkdir -p jobs/evil &&
	printf "stage=done\nsubject=<script>alert(1)</script>\noutcome=tested\n" \
		>jobs/evil/state &&
	printf "From: x@y\nSubject: s\n\n<script>alert(2)</script>\n[click](javascript:alert(3))\n" \
		>jobs/evil/reply.eml &&
	mkdir -p jobs/notajob
'

test_expect_success 'archive writes a page per job and an index' '
	"$SCHED_BOT" archive --jobs jobs --out html 2>err &&
	test_grep "2 job page" err &&
	test -f html/index.html &&
	test -f html/good.html &&
	test -f html/evil.html &&
	test ! -f html/notajob.html &&
	test_grep "href=\"good.html\"" html/index.html &&
	test_grep "sched/fair: Choose the CPU" html/index.html
'

test_expect_success 'the page has the tables as <pre> and links the raw CSV' '
	test_grep "<pre><code>" html/good.html &&
	test_grep "spawn.lps" html/good.html &&
	test_grep "href=\"good/results.csv\"" html/good.html &&
	cmp jobs/good/results.csv html/good/results.csv &&
	test_grep "Tested-by: Sched Bot" html/good.html
'

test_expect_success 'HTML and javascript: links from mail are not passed through' '
	test_grep ! "<script>" html/evil.html &&
	test_grep ! "<script>" html/index.html &&
	test_grep ! "href=\"javascript:" html/evil.html &&
	test_grep "&lt;script&gt;alert(1)" html/index.html
'

test_expect_failure_code 'a missing jobs directory is not found' 3 \
	'"$SCHED_BOT" archive --jobs nowhere --out html2'

test_done
