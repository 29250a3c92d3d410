#!/bin/sh
# lore.kernel.org is HTTPS: fetch over TLS from a public-inbox-httpd with
# a self-signed certificate, refused until lore.caInfo trusts it.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"

LORE_TLS=1 lore_start "$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" || {
	echo "lore_start failed"
	exit 1
}
MID=20250314151345.275739-1-dietmar.eggemann@arm.com
CFG=$XDG_CONFIG_HOME/sched-bot/config

test_expect_success 'the server speaks HTTPS on loopback' '
	case $LORE_URL in https://127.0.0.1:[0-9]*) ;; *) false ;; esac
'

test_expect_success 'fetch over HTTPS with lore.caInfo' '
	"$SCHED_BOT" fetch "$MID" >out &&
	test "$(grep -c "^From mboxrd@z" out)" = 4
'

test_expect_success 'search over HTTPS' '
	"$SCHED_BOT" fetch --search "m:$MID" --threads >out &&
	test "$(grep -c "^From mboxrd@z" out)" = 4
'

test_expect_failure_code 'an untrusted certificate exits 4' 4 '
	git config -f "$CFG" --unset lore.caInfo &&
	"$SCHED_BOT" fetch --no-cache "$MID" >out 2>err
'

test_expect_success 'and says it is the certificate, without retrying' '
	"$SCHED_BOT" fetch --no-cache "$MID" >out 2>err
	test_grep -i "certificate" err &&
	test_grep "after 1 attempt)" err &&
	test ! -s out
'

test_done
