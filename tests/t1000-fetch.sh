#!/bin/sh
# sched-bot fetch against a real public-inbox-httpd: message-id forms,
# lore URL forms, unknown ids, the cache, a server that is down.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"

lore_start "$DATA/intake/cgroups/sched-dl-rootdomain-hotplug-v2.mbox" \
	"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
	"$DATA/lore/odd-msgid.eml" || {
	echo "lore_start failed"
	exit 1
}

MID=20241114142810.794657-1-juri.lelli@redhat.com
# a reply deep in the thread: lore serves the whole thread for it too
REPLY=$(lore_msgids "$DATA/intake/cgroups/sched-dl-rootdomain-hotplug-v2.mbox" |
	sed -n 40p)
ODD='odd/id+x%41=y@example.org'
fake_http_start || { echo "fake_http_start failed"; exit 1; }

count() {
	grep -c '^From mboxrd@z' "$1"
}

test_expect_success 'fetch by message-id gives the whole thread' '
	"$SCHED_BOT" fetch "$MID" >out 2>err &&
	test "$(count out)" = 80 &&
	test_grep "^Message-ID: <$MID>" out &&
	test_grep "fetched 80 messages" err
'

test_expect_success 'the mbox is what the server serves, gunzipped' '
	lore_http GET "$LORE_URL/all/$MID/t.mbox.gz" t.gz >code &&
	test "$(cat code)" = 200 &&
	gzip -dc t.gz >expect &&
	"$SCHED_BOT" fetch "$MID" >out &&
	test_cmp expect out
'

test_expect_success 'a reply gives the same thread' '
	test -n "$REPLY" &&
	"$SCHED_BOT" fetch "$REPLY" >out &&
	test "$(count out)" = 80
'

test_expect_success 'message-id in <>' '
	"$SCHED_BOT" fetch "<$MID>" >out &&
	test "$(count out)" = 80
'

test_expect_success 'lore URL forms' '
	for u in "$LORE_URL/all/$MID/" "$LORE_URL/all/$MID" \
		"https://lore.kernel.org/r/$MID" \
		"https://lore.kernel.org/lkml/$MID/T/#u" \
		"https://lore.kernel.org/all/$MID/t.mbox.gz" \
		"https://lore.kernel.org/cgroups/$MID/#r" \
		"https://patch.msgid.link/$MID" \
		"lore.kernel.org/all/$MID/" \
		"${LORE_URL#http://}/all/$MID/" \
		"https://lore.kernel.org/all/$(echo "$MID" | sed s/@/%40/)/"
	do
		"$SCHED_BOT" fetch "$u" >out || { echo "failed: $u"; exit 1; }
		test "$(count out)" = 80 || { echo "wrong: $u"; exit 1; }
	done
'

test_expect_success 'a message-id with / + % = is escaped as b4 does' '
	"$SCHED_BOT" fetch "$ODD" >out 2>err &&
	test "$(count out)" = 1 &&
	test_grep "^Message-ID: <odd/id+x%41=y@example.org>" out
'

test_expect_success 'the same message-id from a percent-escaped URL' '
	"$SCHED_BOT" fetch \
		"https://lore.kernel.org/all/odd%2Fid+x%2541=y@example.org/" \
		>out &&
	test "$(count out)" = 1
'

test_expect_success '-o FILE writes the file and nothing on stdout' '
	"$SCHED_BOT" fetch -o thread.mbox "$MID" >out &&
	test ! -s out &&
	test "$(count thread.mbox)" = 80
'

test_expect_failure_code 'unknown message-id exits 3' 3 \
	'"$SCHED_BOT" fetch nosuchmessage@example.org 2>err'

test_expect_success 'unknown message-id: the error names it' '
	"$SCHED_BOT" fetch nosuchmessage@example.org 2>err
	test_grep "no message <nosuchmessage@example.org>" err &&
	ls "$XDG_CACHE_HOME/sched-bot/lore" >cache.ls &&
	test_grep ! nosuchmessage cache.ls
'

test_expect_failure_code 'no message-id is a usage error' 2 \
	'"$SCHED_BOT" fetch "https://lore.kernel.org/"'

test_expect_failure_code 'garbage with spaces is a usage error' 2 \
	'"$SCHED_BOT" fetch "<a b@c>"'

test_expect_success 'a redirect to the real server is followed' '
	fake_http_script "redirect $LORE_URL/all/$MID/t.mbox.gz" &&
	printf "[lore]\n\turl = %s\n" "$FAKE_URL" >redirect.cfg &&
	"$SCHED_BOT" --config redirect.cfg fetch --no-cache "$MID" >out &&
	test "$(count out)" = 80 &&
	test_grep "^GET /all/$MID/t.mbox.gz" "$FAKE_LOG"
'

test_expect_success 'search: hits as an mbox' '
	"$SCHED_BOT" fetch --search "s:\"Revert \\\"sched/core\"" >out 2>err &&
	test "$(count out)" -ge 1 &&
	test_grep "^Subject: \[PATCH\] Revert \"sched/core" out
'

test_expect_success 'search -t: the whole threads of the hits' '
	"$SCHED_BOT" fetch --search "m:$MID" >hit &&
	test "$(count hit)" = 1 &&
	"$SCHED_BOT" fetch --search "m:$MID" --threads >out &&
	test "$(count out)" = 80
'

test_expect_success 'search with prefixes the bot uses: dfn: and d:' '
	"$SCHED_BOT" fetch --search "dfn:kernel/sched/deadline.c AND d:20241101.." \
		>out &&
	test_grep "^Subject: \[PATCH v2 .*/2\]" out &&
	test_grep ! "^Message-I[dD]: <$(lore_msgids \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" | head -n 1)>" out
'

test_expect_failure_code 'search without hits exits 3' 3 \
	'"$SCHED_BOT" fetch --search "s:no-such-subject-anywhere" >out'

test_expect_success 'Atom: new.atom and a search feed' '
	"$SCHED_BOT" fetch --atom >feed &&
	test_grep "<feed" feed &&
	"$SCHED_BOT" fetch --atom --search "m:$MID" >feed &&
	test "$(grep -c "<entry" feed)" = 1
'

test_expect_success 'raw: one message' '
	"$SCHED_BOT" fetch --raw "$REPLY" >out &&
	test_grep "^Message-I[dD]: <$REPLY>" out &&
	test "$(grep -ic "^Message-ID:" out)" = 1
'

test_expect_success '--check: lore has the message, nothing printed' '
	"$SCHED_BOT" fetch --check "$REPLY" >out 2>err &&
	test ! -s out && test ! -s err
'

test_expect_failure_code '--check: an unknown message exits 3' 3 \
	'"$SCHED_BOT" fetch --check nosuchmessage@example.org'

test_expect_success '--check: silent about an unknown message' '
	"$SCHED_BOT" fetch --check nosuchmessage@example.org >out 2>err
	test ! -s out && test ! -s err
'

test_expect_failure_code 'usage: --search with a message-id' 2 \
	'"$SCHED_BOT" fetch --search s:x "$MID"'

test_expect_failure_code 'usage: --raw with --check' 2 \
	'"$SCHED_BOT" fetch --raw --check "$MID"'

test_expect_failure_code 'usage: --threads without --search' 2 \
	'"$SCHED_BOT" fetch --threads "$MID"'

test_expect_failure_code 'usage: two message-ids' 2 \
	'"$SCHED_BOT" fetch "$MID" "$REPLY"'

test_expect_success 'a message-id with control characters is not echoed' '
	rc=0 &&
	"$SCHED_BOT" fetch "$(printf "<a\033]2;x\007@b>")" >out 2>err ||
	rc=$? &&
	test $rc = 2 &&
	test_grep ! "$(printf "\033")" err
'

test_expect_success 'new mail imported into the running server is served' '
	"$SCHED_BOT" fetch "$ODD" >before &&
	test "$(count before)" = 1 &&
	lore_add "$DATA/lore/odd-msgid-reply.eml" &&
	"$SCHED_BOT" fetch --no-cache "$ODD" >after &&
	test "$(count after)" = 2 &&
	test_grep "^Message-ID: <reply-1@example.org>" after
'

test_expect_success 'cached thread is served while the server is down' '
	"$SCHED_BOT" fetch "$MID" >expect &&
	ls "$XDG_CACHE_HOME/sched-bot/lore" >files &&
	test_grep "juri.lelli@redhat.com" files &&
	lore_stop &&
	"$SCHED_BOT" fetch "$MID" >out &&
	test_cmp expect out
'

test_expect_failure_code 'with --no-cache a down server exits 4' 4 \
	'"$SCHED_BOT" fetch --no-cache "$MID" 2>err'

test_expect_success 'the error says what failed, after the retries' '
	"$SCHED_BOT" fetch --no-cache "$MID" 2>err
	test_grep "cannot fetch $LORE_URL/all/" err &&
	test_grep "after 3 attempts" err
'

test_expect_success 'a stale cache entry is not used' '
	git config -f "$XDG_CONFIG_HOME/sched-bot/config" lore.cacheMaxAge 1 &&
	touch -d "1 hour ago" "$XDG_CACHE_HOME"/sched-bot/lore/t-$MID-* &&
	rc=0 &&
	"$SCHED_BOT" fetch "$MID" >out 2>err || rc=$? &&
	test $rc = 4
'

test_expect_failure_code 'lore.cacheMaxAge = 0 turns the cache off' 4 '
	git config -f "$XDG_CONFIG_HOME/sched-bot/config" lore.cacheMaxAge 0 &&
	touch "$XDG_CACHE_HOME"/sched-bot/lore/t-$MID-* &&
	"$SCHED_BOT" fetch "$MID" >out
'

test_done
