#!/bin/sh
# A "[PATCH v2]" that someone else posts into an author's thread, against
# a real public-inbox: it is not the newest version of the author's
# series, neither whole nor as a partial re-roll backfilled with the
# author's patches; asked for by its own Message-ID it is a series of
# its own, its sender's, in a lineage of its own even with the author's
# change-id copied.  A co-developer the author's patches vouch for
# (Co-developed-by, Signed-off-by) may post the next version.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-lore.sh"

cd "$TRASH" || exit 1
mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
git config -f "$XDG_CONFIG_HOME/sched-bot/config" lore.cacheMaxAge 0 ||
	exit 1
NOW=$(date -R)
CID=20261201-tweak-wakeup-0123abcd
ALICE="Alice Doe <alice@example.org>"
CAROL="Carol Poe <carol@example.org>"
MALLORY="Mallory Roe <mallory@attacker.example>"
EVE="Eve Moe <eve@attacker.example>"

# msg FROM MSGID SUBJECT IN-REPLY-TO REFERENCES BODY [LINE]: one mail of
# an mboxrd, received now; with LINE, a diff adding it to fair.c
msg() {
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	echo "Received: from test by 127.0.0.1; $NOW"
	echo "From: $1"
	echo "To: linux-kernel@vger.kernel.org"
	echo "Subject: $3"
	echo "Date: $NOW"
	echo "Message-ID: <$2>"
	[ -z "$4" ] || echo "In-Reply-To: <$4>"
	[ -z "$5" ] || echo "References: $5"
	echo
	printf '%s\n' "$6"
	if [ -n "${7:-}" ]; then
		cat <<EOF
---
 kernel/sched/fair.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
index 1234567..89abcde 100644
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -1,3 +1,4 @@
 a
 b
 c
+$7
EOF
	fi
	echo
}

SOB="Co-developed-by: $CAROL
Signed-off-by: $CAROL
Signed-off-by: $ALICE"

# Alice's v1, its patches co-developed by Carol
{
	msg "$ALICE" a0@example.org "[PATCH 0/2] sched/fair: tweak wakeup" \
		"" "" "The series.

change-id: $CID"
	msg "$ALICE" a1@example.org "[PATCH 1/2] sched/fair: alice one" \
		a0@example.org "<a0@example.org>" "One.

$SOB" "int a1;"
	msg "$ALICE" a2@example.org "[PATCH 2/2] sched/fair: alice two" \
		a0@example.org "<a0@example.org>" "Two.

$SOB" "int a2;"
} >alice.mbox

# Eve's partial "re-roll" of patch 2, in reply to Alice's patch 2,
# claiming Alice's sign-off
msg "$EVE" e2@attacker.example "[PATCH v2 2/2] sched/fair: alice two" \
	a2@example.org "<a0@example.org> <a2@example.org>" "Two, better.

Signed-off-by: $ALICE
Signed-off-by: $EVE" "int evil;" >partial.mbox

# Mallory's whole "v2", a cover with Alice's change-id and one patch
{
	msg "$MALLORY" m0@attacker.example \
		"[PATCH v2 0/1] sched/fair: tweak wakeup" a0@example.org \
		"<a0@example.org>" "The series, again.

change-id: $CID"
	msg "$MALLORY" m1@attacker.example \
		"[PATCH v2 1/1] sched/fair: alice one" m0@attacker.example \
		"<a0@example.org> <m0@attacker.example>" "One.

Signed-off-by: $MALLORY" "int evil;"
} >mallory.mbox

# Carol's v3 of Alice's series, in the same thread
{
	msg "$CAROL" c0@example.org "[PATCH v3 0/2] sched/fair: tweak wakeup" \
		a0@example.org "<a0@example.org>" "The series, v3.

change-id: $CID"
	msg "$CAROL" c1@example.org "[PATCH v3 1/2] sched/fair: alice one" \
		c0@example.org "<a0@example.org> <c0@example.org>" "One.

$SOB" "int c1;"
	msg "$CAROL" c2@example.org "[PATCH v3 2/2] sched/fair: alice two" \
		c0@example.org "<a0@example.org> <c0@example.org>" "Two.

$SOB" "int c2;"
} >carol.mbox

# the lines of `series` a reader goes by
summary() {
	grep -e "^  \[" -e "^Total patches" -e "^Author" -e "^Versions seen" "$1"
}

test_expect_success 'a partial v2 by someone else is not the series'"'"' newest' '
	cat alice.mbox partial.mbox >thread.mbox &&
	"$SCHED_BOT" series --mbox thread.mbox >out &&
	summary out >actual &&
	cat >expect-alice <<-EOF &&
	  [PATCH 0/2] sched/fair: tweak wakeup
	  [PATCH 1/2] sched/fair: alice one
	  [PATCH 2/2] sched/fair: alice two
	Total patches: 2
	Author: $ALICE
	Versions seen: v1*
	EOF
	test_cmp expect-alice actual
'

test_expect_failure_code '... nor a revision of it to ask for' 1 '
	"$SCHED_BOT" series --mbox thread.mbox --revision 2
'

lore_start alice.mbox partial.mbox || test_fail_all "lore does not start"

test_expect_success 'cron queues Alice'"'"'s v1, not the partial v2 as hers' '
	"$SCHED_BOT" cron --poll-only 2>poll1 &&
	cat poll1 &&
	test_grep "queued job [0-9]*: v1 sched/fair: tweak wakeup <a0@example.org>$" poll1 &&
	test "$(grep -c "queued job" poll1)" -eq 1 &&
	test_grep "<a0@example.org>: v1 of series [0-9]* (first with its change-id)$" poll1 &&
	"$SCHED_BOT" series a0@example.org >out &&
	summary out >actual &&
	test_cmp expect-alice actual
'

test_expect_success 'asked by its own Message-ID, the partial v2 is Eve'"'"'s alone' '
	"$SCHED_BOT" series e2@attacker.example >out &&
	summary out >actual &&
	cat >expect <<-EOF &&
	  [PATCH v2 2/2] sched/fair: alice two
	Total patches: 1 (missing: 1/2)
	Author: $EVE
	Versions seen: v2*
	EOF
	test_cmp expect actual
'

test_expect_success 'Mallory'"'"'s v2 with Alice'"'"'s change-id: a series and lineage of its own' '
	lore_add mallory.mbox &&
	"$SCHED_BOT" series a0@example.org >out &&
	summary out >actual &&
	test_cmp expect-alice actual &&
	"$SCHED_BOT" series m0@attacker.example >out &&
	summary out >actual &&
	cat >expect <<-EOF &&
	  [PATCH v2 0/1] sched/fair: tweak wakeup
	  [PATCH v2] sched/fair: alice one
	Total patches: 1
	Author: $MALLORY
	Versions seen: v2*
	EOF
	test_cmp expect actual &&
	"$SCHED_BOT" cron --poll-only 2>poll2 &&
	cat poll2 &&
	test_grep "queued job [0-9]*: v2 sched/fair: tweak wakeup <m0@attacker.example>$" poll2 &&
	test "$(grep -c "queued job" poll2)" -eq 1 &&
	test_grep "<m0@attacker.example>: v2 of series [0-9]* (first of its subject and author; its change-id is series [0-9]*.s, whose authors neither sent nor signed off this one)$" poll2 &&
	a=$(sed -n "s/.*<a0@example.org>: v1 of series \([0-9]*\) .*/\1/p" poll1) &&
	m=$(sed -n "s/.*<m0@attacker.example>: v2 of series \([0-9]*\) .*/\1/p" poll2) &&
	test -n "$a" && test -n "$m" && test "$a" != "$m"
'

test_expect_success 'a v3 by the co-developer is the newest, of Alice'"'"'s lineage' '
	lore_add carol.mbox &&
	"$SCHED_BOT" series a0@example.org >out &&
	summary out >actual &&
	cat >expect <<-EOF &&
	  [PATCH v3 0/2] sched/fair: tweak wakeup
	  [PATCH v3 1/2] sched/fair: alice one
	  [PATCH v3 2/2] sched/fair: alice two
	Total patches: 2
	Author: $CAROL
	Versions seen: v1 v3*
	EOF
	test_cmp expect actual &&
	"$SCHED_BOT" cron --poll-only 2>poll3 &&
	cat poll3 &&
	test_grep "queued job [0-9]*: v3 sched/fair: tweak wakeup <c0@example.org>$" poll3 &&
	a=$(sed -n "s/.*<a0@example.org>: v1 of series \([0-9]*\) .*/\1/p" poll1) &&
	test_grep "<c0@example.org>: v3 of series $a (change-id)$" poll3
'

test_done
