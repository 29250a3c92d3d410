#!/bin/sh
# sched-bot fetch when lore misbehaves: truncated and corrupt gzip, 5xx,
# dropped connections, redirects, timeouts, oversized data.  A real
# public-inbox does not fail on demand, so a tiny loopback HTTP server
# from lib-lore.sh plays the faults.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"

fake_http_start || { echo "fake_http_start failed"; exit 1; }
mkdir -p "$XDG_CONFIG_HOME/sched-bot"
CFG=$XDG_CONFIG_HOME/sched-bot/config
git config -f "$CFG" lore.url "$FAKE_URL"
git config -f "$CFG" lore.retries 2
git config -f "$CFG" lore.retryDelay 10

MBOX=$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox
MID=20250314151345.275739-1-dietmar.eggemann@arm.com
CACHE=$XDG_CACHE_HOME/sched-bot/lore
F=$TRASH/files
mkdir -p "$F"
gzip -9c "$MBOX" >"$F/good.gz"
size=$(wc -c <"$F/good.gz")
head -c $((size / 2)) "$F/good.gz" >"$F/truncated.gz"
head -c $((size - 4)) "$F/good.gz" >"$F/no-isize.gz"
# flip bytes in the middle of the deflate stream
perl -e 'local $/; my $d = <STDIN>; my $m = int(length($d) / 2);
	substr($d, $m, 16) = "\xff" x 16; print $d' \
	<"$F/good.gz" >"$F/corrupt.gz"
# intact data, wrong CRC-32 in the trailer
perl -e 'local $/; my $d = <STDIN>;
	substr($d, -8, 4) = pack("V", 0xdeadbeef); print $d' \
	<"$F/good.gz" >"$F/badcrc.gz"
# two gzip members back to back (allowed by RFC 1952)
{ head -n 20 "$MBOX" | gzip -c; printf '\nFrom mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: two\n\nx\n' | gzip -c; } >"$F/multi.gz"
echo '<html><body>lore is down for maintenance</body></html>' >"$F/page.html"
gzip -c "$F/page.html" >"$F/page.html.gz"

requests() {
	wc -l <"$FAKE_LOG"
}

not_cached() {
	! ls "$CACHE" 2>/dev/null | test_grep .
}

test_expect_success 'good gzip from the fake server is fetched' '
	fake_http_script "200 $F/good.gz" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	test_cmp "$MBOX" out &&
	rm -rf "$CACHE"
'

test_expect_success 'the request: path escaped as b4 does, our User-Agent' '
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch "odd/id+x%41=y@example.org" >out &&
	test_grep "^GET /all/odd%2Fid%2Bx%2541%3Dy@example.org/t.mbox.gz	sched-bot/[0-9]" "$FAKE_LOG" &&
	rm -rf "$CACHE"
'

if command -v b4 >/dev/null 2>&1; then
test_expect_success 'b4 asks for the same path (newer b4 keeps @ as we do)' '
	fake_http_script "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	(
		export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=5 \
			GIT_CONFIG_KEY_0=b4.midmask \
			GIT_CONFIG_VALUE_0="$FAKE_URL/all/%s" \
			GIT_CONFIG_KEY_1=b4.attestation-policy \
			GIT_CONFIG_VALUE_1=off \
			GIT_CONFIG_KEY_2=user.name GIT_CONFIG_VALUE_2=T \
			GIT_CONFIG_KEY_3=user.email \
			GIT_CONFIG_VALUE_3=t@example.org \
			GIT_CONFIG_KEY_4=b4.cache-expire GIT_CONFIG_VALUE_4=0 &&
		b4 mbox -o - "odd/id+x%41=y@example.org" >b4.out 2>b4.err
	)
	grep "	b4/" "$FAKE_LOG" | cut -f1 | sed "s/%40/@/g" >b4.path &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --no-cache "odd/id+x%41=y@example.org" >out &&
	cut -f1 "$FAKE_LOG" >our.path &&
	test -s b4.path &&
	test_cmp b4.path our.path &&
	rm -rf "$CACHE"
'
fi

test_expect_success 'credentials in lore.url are sent, never printed' '
	printf "[lore]\n\turl = http://bot:s3cr%%40t@127.0.0.1:%s/\n\tretries = 0\n" \
		"$FAKE_PORT" >auth.cfg &&
	fake_http_script "503 -" &&
	: >"$FAKE_LOG" &&
	rc=0 &&
	"$SCHED_BOT" -v --config auth.cfg fetch "$MID" >out 2>err || rc=$? &&
	test $rc = 4 &&
	test_grep "	bot:s3cr@t$" "$FAKE_LOG" &&
	test_grep "http://127.0.0.1:$FAKE_PORT/all/" err &&
	test_grep ! "s3cr" err &&
	fake_http_script "200 $F/good.gz" &&
	"$SCHED_BOT" --config auth.cfg fetch "$MID" >out &&
	test_grep ! -rq "s3cr" "$CACHE" &&
	ls "$CACHE" >cache.ls &&
	test_grep ! "s3cr" cache.ls &&
	rm -rf "$CACHE"
'

test_expect_failure_code 'a lore.url that is not http(s) is a usage error' 2 '
	printf "[lore]\n\turl = file:///etc\n" >file.cfg &&
	"$SCHED_BOT" --config file.cfg fetch --no-cache "$MID" >out 2>err
'

test_expect_failure_code 'truncated gzip exits 1' 1 \
	'fake_http_script "200 $F/truncated.gz" &&
	"$SCHED_BOT" fetch "$MID" >out 2>err'

test_expect_success 'truncated gzip: says so, caches nothing, no output' '
	"$SCHED_BOT" fetch "$MID" >out 2>err
	test_grep "truncated gzip" err &&
	test ! -s out &&
	not_cached
'

test_expect_failure_code 'gzip without its size trailer exits 1' 1 \
	'fake_http_script "200 $F/no-isize.gz" &&
	"$SCHED_BOT" fetch "$MID" >out 2>err'

test_expect_failure_code 'corrupt gzip exits 1' 1 \
	'fake_http_script "200 $F/corrupt.gz" &&
	"$SCHED_BOT" fetch "$MID" >out 2>err'

test_expect_success 'corrupt gzip: says so and caches nothing' '
	"$SCHED_BOT" fetch "$MID" >out 2>err
	test_grep "corrupt gzip" err &&
	not_cached
'

test_expect_success 'gzip with a wrong CRC exits 1, caches nothing' '
	rm -rf "$CACHE" &&
	fake_http_script "200 $F/badcrc.gz" &&
	rc=0 &&
	"$SCHED_BOT" fetch "$MID" >out 2>err || rc=$? &&
	test $rc = 1 && not_cached
'

test_expect_success 'after a bad answer the next fetch asks the server again' '
	fake_http_script "200 $F/corrupt.gz" "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	! "$SCHED_BOT" fetch "$MID" >out 2>err &&
	"$SCHED_BOT" fetch "$MID" >out &&
	test_cmp "$MBOX" out &&
	test "$(requests)" = 2
'

test_expect_success 'a cached thread is not asked for again' '
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch "$MID" >out &&
	test_cmp "$MBOX" out &&
	test "$(requests)" = 0 &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	test "$(requests)" = 1 &&
	rm -rf "$CACHE"
'

test_expect_success 'old cache entries are pruned, other files kept' '
	mkdir -p "$CACHE" &&
	echo "From x" >"$CACHE/t-old@example.org-00000000" &&
	echo "From x" >"$CACHE/raw-old@example.org-00000000" &&
	echo "From x" >"$CACHE/t-recent@example.org-00000000" &&
	echo notes >"$CACHE/notes.txt" &&
	touch -d "2 days ago" "$CACHE/t-old@example.org-00000000" \
		"$CACHE/raw-old@example.org-00000000" "$CACHE/notes.txt" &&
	fake_http_script "200 $F/good.gz" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	! test -e "$CACHE/t-old@example.org-00000000" &&
	! test -e "$CACHE/raw-old@example.org-00000000" &&
	test -e "$CACHE/t-recent@example.org-00000000" &&
	test -e "$CACHE/notes.txt" &&
	ls "$CACHE" | test_grep "^t-$MID-" &&
	rm -rf "$CACHE"
'

test_expect_success 'multi-member gzip is read whole' '
	fake_http_script "200 $F/multi.gz" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	test_grep "^Subject: two" out &&
	test "$(grep -c "^From " out)" = 2
'

test_expect_success '500 and 503, then the thread: retried and fetched' '
	fake_http_script "500 -" "503 -" "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	test_cmp "$MBOX" out &&
	test "$(requests)" = 3
'

test_expect_success 'dropped connection and short body are retried' '
	fake_http_script "close" "short $F/good.gz" "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	test_cmp "$MBOX" out &&
	test "$(requests)" = 3
'

test_expect_failure_code 'always 503: exits 4 after the retries' 4 \
	'fake_http_script "503 -" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out 2>err'

test_expect_success 'always 503: 1 + lore.retries requests, a clear error' '
	rm -rf "$CACHE" &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out 2>err
	test "$(requests)" = 3 &&
	test_grep "HTTP 503 after 3 attempt" err &&
	not_cached
'

test_expect_success 'lore.timeout bounds the retries and their waits' '
	fake_http_script "503 -" &&
	: >"$FAKE_LOG" &&
	printf "[lore]\n\turl = %s\n\ttimeout = 2\n\tretries = 10\n\tretryDelay = 800\n" \
		"$FAKE_URL" >total.cfg &&
	rc=0 &&
	"$SCHED_BOT" --config total.cfg fetch --no-cache "$MID" >out 2>err ||
	rc=$? &&
	test $rc = 4 &&
	test "$(requests)" -ge 1 && test "$(requests)" -le 3
'

test_expect_success 'Retry-After longer than lore.timeout: no retry at all' '
	fake_http_script "retry-after 30" "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	printf "[lore]\n\turl = %s\n\ttimeout = 5\n\tretries = 3\n\tretryDelay = 10\n" \
		"$FAKE_URL" >busy.cfg &&
	rc=0 &&
	"$SCHED_BOT" --config busy.cfg fetch --no-cache "$MID" >out 2>err ||
	rc=$? &&
	test $rc = 4 &&
	test "$(requests)" = 1 &&
	test_grep "HTTP 503" err
'

test_expect_success 'a short Retry-After is waited out, then fetched' '
	fake_http_script "retry-after 1" "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" --config busy.cfg fetch --no-cache "$MID" >out &&
	test_cmp "$MBOX" out &&
	test "$(requests)" = 2
'

test_expect_failure_code '404 exits 3' 3 \
	'fake_http_script "404 -" &&
	"$SCHED_BOT" fetch --no-cache "$MID" 2>err'

test_expect_success '404 is not retried' '
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --no-cache "$MID" 2>err
	test "$(requests)" = 1 &&
	test_grep "no message <$MID>" err
'

test_expect_success 'a redirect is followed' '
	fake_http_script "redirect $FAKE_URL/elsewhere/t.mbox.gz" \
		"200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out &&
	test_cmp "$MBOX" out &&
	sed -n 2p "$FAKE_LOG" | test_grep "^GET /elsewhere/t.mbox.gz"
'

test_expect_failure_code 'an HTML page instead of gzip exits 1' 1 \
	'fake_http_script "200 $F/page.html text/html" &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out 2>err'

test_expect_success 'gzip of something not an mbox exits 1, caches nothing' '
	rm -rf "$CACHE" &&
	fake_http_script "200 $F/page.html.gz" &&
	rc=0 &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out 2>err || rc=$? &&
	test $rc = 1 && not_cached
'

test_expect_success 'more than lore.maxSize after gunzip is refused' '
	perl -e "print qq(From mboxrd\@z Thu Jan  1 00:00:00 1970\n), q(a) x (3 << 20)" |
		gzip -c >big.gz &&
	rm -rf "$CACHE" &&
	fake_http_script "200 $TRASH/big.gz" &&
	rc=0 &&
	cp "$CFG" big.cfg &&
	git config -f big.cfg lore.maxSize 1 &&
	"$SCHED_BOT" --config big.cfg fetch --no-cache "$MID" >out 2>err ||
	rc=$? &&
	test $rc = 1 && test_grep "lore.maxSize" err && not_cached
'

test_expect_success 'a server that never answers times out: exits 4' '
	fake_http_script "sleep 3" &&
	printf "[lore]\n\turl = %s\n\ttimeout = 1\n\tretries = 1\n\tretryDelay = 10\n" \
		"$FAKE_URL" >slow.cfg &&
	rc=0 &&
	"$SCHED_BOT" --config slow.cfg fetch --no-cache "$MID" >out 2>err ||
	rc=$? &&
	test $rc = 4 &&
	test_grep -i "timed out\|timeout" err
'

test_expect_success 'search is a POST with the query escaped, x=m&t=1' '
	fake_http_script "200 $F/good.gz" &&
	: >"$FAKE_LOG" &&
	"$SCHED_BOT" fetch --search "s:PATCH AND dfn:kernel/sched/" --threads >out &&
	test_cmp "$MBOX" out &&
	test_grep "^POST /all/?q=s%3APATCH+AND+dfn%3Akernel%2Fsched%2F&x=m&t=1	" \
		"$FAKE_LOG"
'

test_expect_failure_code 'search: 503 then a truncated answer exits 1' 1 \
	'fake_http_script "503 -" "200 $F/truncated.gz" &&
	"$SCHED_BOT" fetch --search "s:PATCH" >out 2>err'

test_done
