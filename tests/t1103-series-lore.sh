#!/bin/sh
# sched-bot series/am <msgid|lore URL> against a real public-inbox-httpd
# serving the threads: the same answers as from the mbox files, and the
# exit codes for an unknown message-id.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-intake.sh"
I=$DATA/intake

lore_start "$I/short-task-wakeup-v3-complete.mbox" \
	"$I/cgroups/sched-dl-suspend-v4.mbox" \
	"$I/lkml/place-deadline-initial/thread-partial.mbox" || {
	echo "lore_start failed"
	exit 1
}

COVER=cover.1669862147.git.yu.c.chen@intel.com
PATCH1=7621888af45a89c3963b39e062695602a3b9499f.1669862147.git.yu.c.chen@intel.com
DL=20250313170011.357208-1-juri.lelli@redhat.com

test_expect_success 'series <msgid> matches series --mbox' '
	"$SCHED_BOT" series --json "$COVER" >lore.json &&
	"$SCHED_BOT" series --json --mbox "$I/short-task-wakeup-v3-complete.mbox" \
		>file.json &&
	json_flat lore.json | test_grep "\"missing\":\[\]" &&
	json_flat lore.json | test_grep "\"ref\":\"v6.1-rc6\"" &&
	test_grep "\"thread_msgid\": \"$COVER\"" lore.json &&
	grep -v thread_msgid lore.json >a && grep -v thread_msgid file.json >b &&
	test_cmp b a
'

test_expect_success 'series from a patch of the thread, as a lore URL' '
	"$SCHED_BOT" series "$LORE_URL/all/$PATCH1/" >out &&
	test_grep "\[PATCH v3 2/2\] sched/fair: Choose the CPU" out &&
	test_grep "^Total patches: 2$" out
'

test_expect_success 'am <msgid>: links point at the configured server' '
	"$SCHED_BOT" am "<$DL>" -o dl.mbox &&
	test $(grep -c "^From git@z " dl.mbox) -eq 8 &&
	test $(grep -c "^Link: $LORE_URL/all/" dl.mbox) -eq 8 &&
	test $(grep -c "^Tested-by: Dietmar Eggemann <dietmar.eggemann@arm.com>$" dl.mbox) -eq 8
'

test_expect_success 'series --revision 1 on a thread holding v1 and v2' '
	"$SCHED_BOT" series --revision 1 20231004130908.238992-1-daniel.m.jordan@oracle.com >out &&
	test_grep "^Versions seen: v1\* v2$" out
'

test_expect_failure_code 'an unknown message-id is "not found"' 3 \
	'"$SCHED_BOT" series nosuch-message@example.org'

test_expect_failure_code 'am of an unknown message-id is "not found"' 3 \
	'"$SCHED_BOT" am nosuch-message@example.org -o x.mbox'

test_expect_failure_code 'something that is no message-id is a usage error' 2 \
	'"$SCHED_BOT" series "<>"'

test_done
