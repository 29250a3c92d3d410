#!/bin/sh
# The peers of tests/lib-lore.sh that other tests build on: smtp-sink
# captures mail, lore_msgids lists Message-IDs, lore_start with no mail,
# lore_add makes new mail searchable at once.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"

smtp_start || { echo "smtp_start failed"; exit 1; }
lore_start || { echo "lore_start failed"; exit 1; }

send_mail() {
	perl -MNet::SMTP -e '
		my $s = Net::SMTP->new("127.0.0.1", Port => $ARGV[0],
				       Timeout => 30) or die "connect: $@\n";
		$s->mail("bot\@example.org") or die "MAIL\n";
		$s->to($ARGV[1]) or die "RCPT\n";
		$s->data("Subject: $ARGV[2]\r\nFrom: bot\@example.org\r\n\r\nhi\r\n")
			or die "DATA\n";
		$s->quit;' "$SMTP_PORT" "$@"
}

test_expect_success 'smtp-sink listens on loopback and keeps each mail' '
	case $SMTP_PORT in [0-9]*) ;; *) false ;; esac &&
	send_mail list@example.org "first" &&
	send_mail other@example.org "second" &&
	smtp_wait 2 &&
	test "$(smtp_count)" = 2 &&
	grep -l "^Subject: first" "$SMTP_DIR"/* >f &&
	test_grep "^X-Rcpt-Args: <list@example.org>" $(cat f)
'

test_expect_success 'lore_msgids lists the Message-IDs of mboxes and mail' '
	lore_msgids "$DATA/lore/sched-dl-suspend-v4.mbox" >ids &&
	test "$(wc -l <ids)" = 10 &&
	head -n 1 ids >first &&
	echo 20250313170011.357208-1-juri.lelli@redhat.com >expect &&
	test_cmp expect first &&
	test "$(lore_msgids "$DATA/lore/odd-msgid.eml")" = \
		"odd/id+x%41=y@example.org"
'

test_expect_success 'lore_start wrote lore.url for sched-bot' '
	"$SCHED_BOT" config --get lore.url >url &&
	test "$(cat url)" = "$LORE_URL" &&
	case $LORE_URL in http://127.0.0.1:[0-9]*) ;; *) false ;; esac
'

test_expect_failure_code 'an empty inbox has no thread' 3 \
	'"$SCHED_BOT" fetch 20250313170011.357208-1-juri.lelli@redhat.com'

test_expect_success 'lore_add: the thread is served and searchable at once' '
	lore_add "$DATA/lore/sched-dl-suspend-v4.mbox" &&
	"$SCHED_BOT" fetch --no-cache \
		20250313170011.357208-1-juri.lelli@redhat.com >out &&
	test "$(grep -c "^From mboxrd@z" out)" = 10 &&
	"$SCHED_BOT" fetch --search "s:PATCH AND s:v4 AND dfn:kernel/sched/" \
		>hits &&
	test "$(grep -c "^From mboxrd@z" hits)" -ge 1
'

test_expect_success 'the inbox cache keeps the 24 inboxes used last' '
	mkdir -p ic &&
	for n in $(seq 1 30); do
		mkdir ic/key$n && touch -d "$((100 - n)) hours ago" ic/key$n
	done &&
	mkdir ic/tmp.old ic/tmp.new ic/key31 &&
	touch -d "2 hours ago" ic/tmp.old &&
	lore_prune_inboxes_ "$TRASH/ic" &&
	ls ic | grep -c "^key" >n &&
	test "$(cat n)" = 24 &&
	test -d ic/key31 && test -d ic/key30 && ! test -d ic/key7 &&
	test -d ic/tmp.new && ! test -d ic/tmp.old
'

# A broken inbox cache entry (interrupted copy, other owner) is rebuilt.
export LORE_INBOX_CACHE=$TRASH/ic2
KEY=$(lore_cache_key_ "$DATA/lore/odd-msgid.eml")
mkdir -p "$LORE_INBOX_CACHE/$KEY"
echo /nonexistent >"$LORE_INBOX_CACHE/$KEY/done"
lore_start "$DATA/lore/odd-msgid.eml" || echo "lore_start failed" >&2
unset LORE_INBOX_CACHE

test_expect_success 'a broken inbox cache entry is rebuilt and replaced' '
	"$SCHED_BOT" fetch "odd/id+x%41=y@example.org" >out &&
	test "$(grep -c "^From mboxrd@z" out)" = 1 &&
	test -d "$TRASH/ic2/$KEY/inboxes" &&
	test "$(cat "$TRASH/ic2/$KEY/done")" = "$LORE_DIR"
'

test_done
