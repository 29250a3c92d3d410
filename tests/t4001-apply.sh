#!/bin/sh
# sched-bot apply: the b4 sample series onto the base in b4's bundle; the
# commits equal what git am makes of `sched-bot am`'s output; hostile
# patches are refused and nothing is written outside the tree.
. "$(dirname "$0")/lib.sh"
test_tier nokernel

BASE=f435c12df7c0ecf20ab8937859e63cddffacabb4
BRANCH=sched-bot/this-is-a-cover-for-test-series-1-v1
export GIT_CONFIG_NOSYSTEM=1

test_expect_success 'the base repository from b4 bundle' '
	git clone -q --bare "$DATA/intake/b4/gitdir.bundle" b4.git &&
	git -C b4.git rev-parse -q --verify $BASE^{commit}
'

test_expect_success 'apply the series onto its base-commit' '
	"$SCHED_BOT" apply --tree b4.git \
		--mbox "$DATA/apply/shazam-git1-just-series.mbox" >out &&
	cat out &&
	test_grep "^base $BASE $(echo $BASE | cut -c1-12) (base-commit)" out &&
	test_grep "^head [0-9a-f]* refs/heads/$BRANCH" out &&
	test_grep "^applied 4 patches$" out &&
	test "$(git -C b4.git rev-list --count $BASE..$BRANCH)" = 4
'

test_expect_success 'the commits are what git am makes of sched-bot am' '
	"$SCHED_BOT" am --mbox "$DATA/apply/shazam-git1-just-series.mbox" \
		-o series.mbox &&
	git clone -q b4.git am && cd am &&
	git checkout -q $BASE &&
	git -c user.name=x -c user.email=x@y am -q ../series.mbox &&
	fmt="%T%n%an <%ae> %ad%n%B" &&
	git log --format="$fmt" $BASE..HEAD >../want &&
	git -C ../b4.git log --format="$fmt" $BASE..$BRANCH >../got &&
	cd .. && test_cmp want got &&
	test_grep "^Link: " got && test_grep "^Signed-off-by: " got
'

test_expect_success 'the committer is the bot identity' '
	git -C b4.git log -1 --format="%cn <%ce>" $BRANCH >out &&
	test "$(cat out)" = "sched-bot <sched-bot@localhost>" &&
	printf "[bot]\n\tname = Test Bot\n\temail = bot@example.org\n" >cfg &&
	"$SCHED_BOT" --config cfg apply --tree b4.git --branch other \
		--mbox "$DATA/apply/shazam-git1-just-series.mbox" &&
	git -C b4.git log -1 --format="%cn <%ce>" other >out &&
	test "$(cat out)" = "Test Bot <bot@example.org>"
'

test_expect_success '--worktree writes the result, --json describes it' '
	"$SCHED_BOT" apply --tree b4.git --json --worktree wt \
		--mbox "$DATA/apply/shazam-git1-just-series.mbox" >out.json &&
	test_grep "\"ok\": true" out.json &&
	test_grep "\"applied\": 4" out.json &&
	git -C am diff --quiet HEAD -- &&
	diff -r -x .git am wt
'

test_expect_success '--base wins over the base-commit' '
	"$SCHED_BOT" apply --tree b4.git --base $BASE --branch b2 \
		--mbox "$DATA/apply/shazam-git1-just-series.mbox" >out &&
	test_grep "(--base)" out
'

test_expect_failure_code 'an unknown --base is not found' 1 '
	"$SCHED_BOT" apply --tree b4.git --base nosuch \
		--mbox "$DATA/apply/shazam-git1-just-series.mbox"
'

test_expect_failure_code 'a missing tree is not found' 3 '
	"$SCHED_BOT" apply --tree nowhere.git \
		--mbox "$DATA/apply/shazam-git1-just-series.mbox"
'

test_expect_failure_code 'no series argument is a usage error' 2 \
	'"$SCHED_BOT" apply --tree b4.git'

test_expect_success 'an incomplete series is refused, nothing applied' '
	rc=0 && "$SCHED_BOT" apply --tree b4.git --branch partial \
		--mbox "$DATA/intake/short-task-wakeup-v3-partial.mbox" \
		2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "incomplete: patch 2/2 is missing; nothing applied" err &&
	! git -C b4.git rev-parse -q --verify refs/heads/partial
'

# A mail carrying a hostile diff, as format-patch would write it.
mail() {
	cat <<EOF
From mboxrd@z Thu Jan  1 00:00:00 1970
From: Mallory <mallory@example.org>
Date: Tue, 25 Oct 2022 13:38:42 -0400
Subject: [PATCH] $1
Message-Id: <$2@example.org>

Body.

Signed-off-by: Mallory <mallory@example.org>
---
EOF
	cat
}

hostile() {
	# hostile NAME WHAT-IN-THE-REPORT < diff
	mail "$1" "$1" >"$1.mbox" &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base $BASE \
		--mbox "$1.mbox" 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "$2" err &&
	test_grep "patch 1/1 \"$1\" does not apply" err &&
	! git -C b4.git rev-parse -q --verify "refs/heads/sched-bot/$1-v1"
}

test_expect_success 'a path with .. is refused' '
	printf "diff --git a/../evil b/../evil\nnew file mode 100644\n--- /dev/null\n+++ b/../evil\n@@ -0,0 +1 @@\n+evil\n" |
	hostile dotdot "refusing to apply: .\{1,3\}\.\." &&
	test ! -e ../evil && test ! -e evil
'

test_expect_success 'an absolute path is refused' '
	printf "diff --git a//tmp/sched-bot-evil b//tmp/sched-bot-evil\nnew file mode 100644\n--- /dev/null\n+++ b//tmp/sched-bot-evil\n@@ -0,0 +1 @@\n+evil\n" |
	hostile absolute "refusing to apply: absolute path" &&
	test ! -e /tmp/sched-bot-evil
'

test_expect_success 'a path into .git is refused' '
	printf "diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+evil\n" |
	hostile dotgit "path inside .git" &&
	test ! -e b4.git/hooks/post-checkout
'

test_expect_success 'a path through a symlink is refused' '
	git clone -q b4.git withlink && cd withlink &&
	git checkout -q $BASE && ln -s /tmp outside &&
	git add outside &&
	git -c user.name=x -c user.email=x@y commit -q -m link &&
	git push -q origin HEAD:refs/heads/withlink && cd .. &&
	printf "diff --git a/outside/evil b/outside/evil\nnew file mode 100644\n--- /dev/null\n+++ b/outside/evil\n@@ -0,0 +1 @@\n+evil\n" |
	mail symlink symlink >symlink.mbox &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base withlink \
		--mbox symlink.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "symbolic link" err && test ! -e /tmp/evil
'

test_expect_success 'a binary change without its data is refused' '
	printf "diff --git a/file1.txt b/file1.txt\nindex b352682..e69de29 100644\nBinary files a/file1.txt and b/file1.txt differ\n" |
	hostile binary "binary change without its data"
'

test_expect_success 'renames, mode changes, new, deleted, binary files' '
	cd am && git checkout -q $BASE &&
	git mv file1.txt renamed.txt && chmod +x file2.txt &&
	git rm -q lipsum.txt && echo new >new.txt &&
	printf "\001\002\000\377" >blob.bin && git add -A &&
	git -c user.name=x -c user.email=x@y commit -q -m ops &&
	want=$(git rev-parse HEAD^{tree}) &&
	git format-patch -1 --binary -M --stdout |
	sed "1s/^From .*/From mboxrd@z Thu Jan  1 00:00:00 1970/" >../ops.mbox && cd .. &&
	test_grep "rename from file1.txt" ops.mbox &&
	test_grep "GIT binary patch" ops.mbox &&
	"$SCHED_BOT" apply --tree b4.git --base $BASE --branch ops \
		--mbox ops.mbox &&
	test "$(git -C b4.git rev-parse ops^{tree})" = "$want"
'

test_expect_success 'a conflicting patch reports file, hunk and 3-way' '
	cd am && git checkout -q $BASE &&
	sed -i "1s/.*/changed first line/" file1.txt &&
	git -c user.name=x -c user.email=x@y commit -q -am c1 &&
	git push -q origin HEAD:refs/heads/c1 &&
	git checkout -q $BASE &&
	sed -i "1s/.*/another first line/" file1.txt &&
	git -c user.name=x -c user.email=x@y commit -q -am c2 &&
	git format-patch -1 --stdout |
	sed "1s/^From .*/From mboxrd@z Thu Jan  1 00:00:00 1970/" >../c2.mbox && cd .. &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base c1 \
		--mbox c2.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "patch 1/1 \"c2\" does not apply" err &&
	test_grep "file: file1.txt" err &&
	test_grep "hunk 1: @@ -1" err &&
	test_grep "3-way merge: conflicts in file1.txt" err &&
	test_grep "base: c1 (--base)" err
'

test_expect_success 'a moved context falls back to the 3-way merge' '
	cd am && git checkout -q c1 &&
	git checkout -q $BASE &&
	sed -i "3s/.*/third line changed/" file1.txt &&
	git -c user.name=x -c user.email=x@y commit -q -am c3 &&
	git format-patch -1 --stdout |
	sed "1s/^From .*/From mboxrd@z Thu Jan  1 00:00:00 1970/" >../c3.mbox &&
	cd .. &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base c1 --branch strict \
		--no-3way --mbox c3.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "hunk 1: @@ -1,3 +1,3 @@" err && test_grep ! "3-way merge:" err &&
	"$SCHED_BOT" apply --tree b4.git --base c1 --branch merged \
		--mbox c3.mbox >out 2>err &&
	cat out err &&
	test_grep "applied 1 patch (some with a 3-way merge)" out &&
	test_grep "applied with a 3-way merge" err &&
	git -C b4.git show merged:file1.txt >got &&
	printf "changed first line\nIt has a single line.\nthird line changed\n" >want &&
	test_cmp want got
'

test_done
