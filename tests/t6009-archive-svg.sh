#!/bin/sh
# The archive page of a sweep job draws the instance-scaling curve as
# inline SVG, and a real browser (headless Chromium) renders it: the
# screenshot holds both curves' colours, which it would not if the SVG
# were missing, malformed or not rendered.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

bot_config "$TRASH/bot.cfg" 1
export SCHED_BOT_CONFIG=$TRASH/bot.cfg
# The curves' colours (bot/plot.h PLOT_SVG_BASE, PLOT_SVG_PATCHED).
BASE_RGB="0 80 208"
PATCHED_RGB="224 32 16"

test_expect_success 'setup: a finished ping-pong sweep job and a plain one' '
	bot_job job-tested jobs/sweep &&
	{ head -n 1 "$DATA/compare/sweep.csv" &&
	  grep "^[a-z]*,[^,]*,pingpong," "$DATA/compare/sweep.csv"; } \
		>jobs/sweep/results.csv &&
	"$SCHED_BOT" compare --json jobs/sweep/results.csv \
		>jobs/sweep/compare.json &&
	# what the compare stage writes with reply.format = plot
	"$SCHED_BOT" compare -f plot jobs/sweep/results.csv \
		>jobs/sweep/tables.txt &&
	"$SCHED_BOT" test --job-dir jobs/sweep >/dev/null &&
	bot_job job-tested jobs/plain &&
	{ head -n 1 "$DATA/compare/sweep.csv" &&
	  grep ",pingpong,pairs=8 " "$DATA/compare/sweep.csv"; } \
		>jobs/plain/results.csv &&
	"$SCHED_BOT" compare --json jobs/plain/results.csv \
		>jobs/plain/compare.json
'

test_expect_success 'the sweep page has one inline SVG with a line per kernel' '
	"$SCHED_BOT" archive --jobs jobs --out html 2>err &&
	test_grep "2 job page" err &&
	test $(grep -c "<svg " html/sweep.html) = 1 &&
	test_grep "<polyline class=\"k0\" fill=\"none\" stroke=\"#0050d0\"" \
		html/sweep.html &&
	test_grep "<polyline class=\"k1\" fill=\"none\" stroke=\"#e02010\"" \
		html/sweep.html &&
	test_grep ">number of pairs</text>" html/sweep.html &&
	test_grep ">base</text>" html/sweep.html &&
	test_grep ">patched</text>" html/sweep.html &&
	# every pairs= count of the CSV is a point of the line
	pts=$(sed -n "s/.*class=\"k0\".*points=\"\([^\"]*\)\".*/\1/p" \
		html/sweep.html | wc -w) &&
	n=$(cut -d, -f1,4 jobs/sweep/results.csv | grep "^base," |
		sort -u | wc -l) &&
	test "$pts" = "$n" &&
	test "$n" -ge 2
'

test_expect_success 'the ASCII curve stays in the mail' '
	test_grep "number of pairs" jobs/sweep/reply.eml &&
	test_grep ! "<svg" jobs/sweep/reply.eml
'

test_expect_success 'a job without a sweep has no plot' '
	test_grep ! "<svg" html/plain.html
'

# colour_pixels PNG R G B: pixels within 24 of (R,G,B) on every channel
colour_pixels() {
	convert "$1" -depth 8 -format %c histogram:info:- |
	sed -n "s/^ *\([0-9]*\): *( *\([0-9]*\), *\([0-9]*\), *\([0-9]*\).*/\1 \2 \3 \4/p" |
	awk -v r="$2" -v g="$3" -v b="$4" "
		function d(x, y) { return x > y ? x - y : y - x }
		d(\$2, r) <= 24 && d(\$3, g) <= 24 && d(\$4, b) <= 24 { n += \$1 }
		END { print n + 0 }"
}

command -v chromium >/dev/null 2>&1 ||
	test_skip_rest "no chromium (Debian chromium): cannot render the page"
command -v convert >/dev/null 2>&1 ||
	test_skip_rest "no convert (Debian imagemagick): cannot read the screenshot"

test_expect_success 'headless Chromium renders both curves' '
	HOME=$TRASH/home && export HOME && mkdir -p "$HOME" &&
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TRASH/chromium" --window-size=1000,900 \
		--screenshot="$TRASH/sweep.png" "file://$TRASH/html/sweep.html" \
		>chromium.log 2>&1 &&
	test -s sweep.png &&
	base=$(colour_pixels sweep.png $BASE_RGB) &&
	patched=$(colour_pixels sweep.png $PATCHED_RGB) &&
	echo "base $base patched $patched pixels" &&
	test "$base" -ge 200 &&
	test "$patched" -ge 200
'

test_expect_success 'the same page without its SVG shows neither colour' '
	sed "/<svg /,/<\/svg>/d" html/sweep.html >html/nosvg.html &&
	test_grep ! "<svg" html/nosvg.html &&
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TRASH/chromium" --window-size=1000,900 \
		--screenshot="$TRASH/nosvg.png" "file://$TRASH/html/nosvg.html" \
		>chromium.log 2>&1 &&
	test -s nosvg.png &&
	test "$(colour_pixels nosvg.png $BASE_RGB)" -lt 50 &&
	test "$(colour_pixels nosvg.png $PATCHED_RGB)" -lt 50
'

test_done
