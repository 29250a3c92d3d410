#!/bin/sh
# sched-bot apply on the real kernel tree (Debian's linux-source-6.1):
# Chen Yu's v3 series applies with line offsets, like git apply; the
# sched_move_task revert (code from v6.4) fails with a clear report.
#
# The tree is imported once into $SCHED_BOT_TEST_CACHE (default
# /var/tmp/sched-bot-test-cache) and shared by every run; each run works
# in its own repository that borrows those objects (alternates), so the
# cache is never written after the import.
. "$(dirname "$0")/lib.sh"
test_tier kernel

TARBALL=${SCHED_BOT_TEST_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}
TREE=$CACHE/tree/linux-source-6.1.git
[ -r "$TARBALL" ] || test_skip_all "no $TARBALL (apt-get install linux-source-6.1)"
export GIT_CONFIG_NOSYSTEM=1
BRANCH=sched-bot/sched-fair-choose-the-cpu-where-short-ta-v3

test_expect_success 'the cached 6.1 tree (imported on first use)' '
	mkdir -p "$CACHE/tree" &&
	"$SCHED_BOT" tree init --tarball "$TARBALL" "$TREE" &&
	git --git-dir="$TREE" rev-parse -q --verify debian-linux-source-6.1
'

test_expect_success 'a work repository borrowing the cached objects' '
	git init -q --bare k.git &&
	echo "$TREE/objects" >k.git/objects/info/alternates &&
	git --git-dir="$TREE" for-each-ref --format="%(refname) %(objectname)" |
	while read ref oid; do
		git --git-dir=k.git update-ref "$ref" "$oid" || exit 1
	done &&
	git --git-dir=k.git symbolic-ref HEAD refs/heads/linux-6.1 &&
	VERSION=$(git --git-dir=k.git tag -l "v6.1.*") &&
	test -n "$VERSION"
'

test_expect_success 'Chen Yu v3 applies to 6.1 with offsets' '
	"$SCHED_BOT" apply --tree k.git \
		--mbox "$DATA/intake/short-task-wakeup-v3-complete.mbox" \
		>out 2>err &&
	cat out err &&
	test_grep "^applied 2 patches$" out &&
	test_grep "^head [0-9a-f]* refs/heads/$BRANCH$" out &&
	test_grep "(nearest to v6.1-rc6)" out &&
	test_grep "based on v6.1-rc6, which this tree lacks" err &&
	test_grep "kernel/sched/core.c: .*(offset +47)" err &&
	test_grep "kernel/sched/fair.c: .*(offset +184)" err &&
	test_grep "kernel/sched/fair.c: .*(offset +261)" err &&
	git --git-dir=k.git show $BRANCH:kernel/sched/features.h |
		test_grep "SCHED_FEAT(SIS_SHORT, true)"
'

test_expect_success 'the same trees as git apply of sched-bot am output' '
	"$SCHED_BOT" am --mbox "$DATA/intake/short-task-wakeup-v3-complete.mbox" \
		-o cy.mbox &&
	mkdir split && git mailsplit -osplit cy.mbox >/dev/null &&
	GIT_INDEX_FILE=$TRASH/index &&
	export GIT_INDEX_FILE &&
	git --git-dir=k.git read-tree linux-6.1 &&
	for n in 1 2; do
		git mailinfo msg patch <split/000$n >/dev/null &&
		git --git-dir=k.git apply --cached patch &&
		test "$(git --git-dir=k.git write-tree)" = \
		     "$(git --git-dir=k.git rev-parse $BRANCH~$((2 - n))^{tree})" ||
		exit 1
	done
'

test_expect_success 'commits carry author, date, subject and trailers' '
	git --git-dir=k.git log -2 --format="%an <%ae> %aI|%s" $BRANCH >log &&
	cat log &&
	test_grep "^Chen Yu <yu.c.chen@intel.com> 2022-12-01T16:4.*+08:00|sched/fair: Introduce short duration task check$" log &&
	git --git-dir=k.git log -1 --format=%B $BRANCH~1 >msg &&
	test_grep "^Suggested-by: Vincent Guittot <vincent.guittot@linaro.org>$" msg &&
	test_grep "^Signed-off-by: Chen Yu <yu.c.chen@intel.com>$" msg
'

test_expect_failure_code 'the sched_move_task revert does not apply' 1 '
	"$SCHED_BOT" apply --tree k.git \
		--mbox "$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" 2>err
'

test_expect_success 'and the report says which patch, file, hunk and why' '
	cat err &&
	test_grep "patch 1/1 \"Revert \"sched/core: Reduce cost of sched_move_task" err &&
	test_grep "file: kernel/sched/core.c" err &&
	test_grep "hunk 1: @@ -[0-9]*,[0-9]* +[0-9]*,[0-9]* @@" err &&
	test_grep "base: HEAD (default base), commit [0-9a-f]\{12\}" err &&
	test_grep "pre-image blob [0-9a-f]* of kernel/sched/core.c is not in this tree" err &&
	test_grep "hint: " err &&
	git --git-dir=k.git for-each-ref refs/heads/sched-bot >refs &&
	test_grep ! -i revert refs
'

test_expect_success 'the cache itself was not written' '
	test -z "$(git --git-dir="$TREE" for-each-ref refs/heads/sched-bot)"
'

test_done
