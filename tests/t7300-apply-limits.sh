#!/bin/sh
# sched-bot apply on hostile patches: files per patch, total size and
# the size a binary blob inflates to are limited (apply.maxFiles,
# apply.maxPatchSize, apply.maxBlobSize); symlinks that point out of the
# tree, .gitmodules and every spelling of .git that git's verify_path
# refuses are refused; nothing is written to a branch.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

BASE=f435c12df7c0ecf20ab8937859e63cddffacabb4
export GIT_CONFIG_NOSYSTEM=1
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "${CFG%/*}"

test_expect_success 'the base repository from b4 bundle' '
	git clone -q --bare "$DATA/intake/b4/gitdir.bundle" b4.git &&
	git -C b4.git rev-parse -q --verify $BASE^{commit}
'

# A mail carrying a diff from stdin, as format-patch would write it.
mail() {
	cat <<EOF
From mboxrd@z Thu Jan  1 00:00:00 1970
From: Mallory <mallory@example.org>
Date: Tue, 25 Oct 2022 13:38:42 -0400
Subject: [PATCH] $1
Message-Id: <$1@example.org>

Body.

Signed-off-by: Mallory <mallory@example.org>
---
EOF
	cat
}

# refused NAME WHAT-IN-THE-REPORT < diff
refused() {
	mail "$1" >"$1.mbox" &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base $BASE \
		--mbox "$1.mbox" 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "$2" err &&
	test_grep "patch 1/1 \"$1\" does not apply" err &&
	test_must_fail_ref "refs/heads/sched-bot/$1-v1"
}

test_must_fail_ref() {
	! git -C b4.git rev-parse -q --verify "$1" >/dev/null
}

# new_file PATH [MODE] [CONTENT]: a diff creating one file
new_file() {
	printf "diff --git a/%s b/%s\nnew file mode %s\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+%s\n\\\\ No newline at end of file\n" \
		"$1" "$1" "${2:-100644}" "$1" "${3:-evil}"
}

test_expect_success 'more files than apply.maxFiles: refused before parsing' '
	many_files_patch many.git 30 >many.mbox &&
	git config -f "$CFG" apply.maxFiles 20 &&
	rc=0 && "$SCHED_BOT" apply --tree many.git --base base \
		--mbox many.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "the patch changes more than 20 files (apply.maxFiles)" err &&
	git config -f "$CFG" apply.maxFiles 30 &&
	"$SCHED_BOT" apply --tree many.git --base base --mbox many.mbox >out &&
	test_grep "^applied 1 patch" out
'

test_expect_success 'a patch bigger than apply.maxPatchSize is refused' '
	git config -f "$CFG" apply.maxPatchSize 1000 &&
	rc=0 && "$SCHED_BOT" apply --tree many.git --base base --branch big \
		--mbox many.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "more than apply.maxPatchSize (1000)" err &&
	git config -f "$CFG" --unset apply.maxPatchSize &&
	git config -f "$CFG" --unset apply.maxFiles
'

test_expect_success 'a binary patch that inflates past apply.maxBlobSize' '
	git clone -q b4.git zeros && cd zeros &&
	git checkout -q $BASE &&
	head -c 16777216 /dev/zero >zeros.bin && git add zeros.bin &&
	git -c user.name=x -c user.email=x@y commit -q -m zeros &&
	git format-patch -1 --binary --stdout |
	sed "1s/^From .*/From mboxrd@z Thu Jan  1 00:00:00 1970/" >../zeros.mbox &&
	cd .. &&
	test $(wc -c <zeros.mbox) -lt 100000 &&
	test_grep "^literal 16777216" zeros.mbox &&
	git config -f "$CFG" apply.maxBlobSize 1048576 &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base $BASE --branch zeros \
		--mbox zeros.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "inflates past apply.maxBlobSize" err &&
	test_must_fail_ref refs/heads/zeros
'

test_expect_success 'a binary patch that lies about its size stops at the lie' '
	sed "s/^literal 16777216/literal 100/" zeros.mbox >lie.mbox &&
	rc=0 && "$SCHED_BOT" apply --tree b4.git --base $BASE --branch lie \
		--mbox lie.mbox 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	test_grep "does not inflate to its stated size" err &&
	test_must_fail_ref refs/heads/lie
'

test_expect_success 'within apply.maxBlobSize the binary patch applies' '
	git config -f "$CFG" apply.maxBlobSize 16777216 &&
	"$SCHED_BOT" apply --tree b4.git --base $BASE --branch zeros \
		--mbox zeros.mbox &&
	test "$(git -C b4.git rev-parse zeros^{tree})" = \
		"$(git -C zeros rev-parse HEAD^{tree})" &&
	git config -f "$CFG" --unset apply.maxBlobSize
'

test_expect_success 'a symlink to an absolute path is refused' '
	new_file evil-link 120000 /etc/passwd |
	refused abslink "a symbolic link to an absolute path"
'

test_expect_success 'a symlink climbing out of the tree is refused' '
	new_file sub/dir/evil-link 120000 ../../../etc |
	refused uplink "a symbolic link that points outside the tree"
'

test_expect_success 'a symlink into .git is refused' '
	new_file hooks 120000 .git/hooks |
	refused gitlink "a symbolic link into .git"
'

test_expect_success 'a symlink inside the tree applies' '
	new_file sub/dir/ok-link 120000 ../../file1.txt | mail oklink >ok.mbox &&
	"$SCHED_BOT" apply --tree b4.git --base $BASE --branch oklink \
		--mbox ok.mbox &&
	git -C b4.git ls-tree oklink:sub/dir >out &&
	test_grep "^120000 blob .*	ok-link$" out
'

test_expect_success '.gitmodules with a -oProxyCommand URL is refused' '
	printf "diff --git a/.gitmodules b/.gitmodules\nnew file mode 100644\n--- /dev/null\n+++ b/.gitmodules\n@@ -0,0 +1,3 @@\n+[submodule \"x\"]\n+\tpath = x\n+\turl = ssh://-oProxyCommand=touch\$IFS/tmp/pwned/x\n" |
	refused gitmodules ".gitmodules (submodule configuration)"
'

test_expect_success '.gitmodules in its NTFS and HFS+ spellings is refused' '
	new_file sub/GITMOD~1 | refused gitmod-short ".gitmodules" &&
	new_file gi7eba~1 | refused gitmod-hash ".gitmodules" &&
	new_file ".gitmodules. ." | refused gitmod-dots ".gitmodules" &&
	new_file "$(printf ".git\342\200\214modules")" |
	refused gitmod-hfs ".gitmodules"
'

for p in ".git./config" ".GIT /config" "git~1/config" "GIT~1/hooks/x" \
	 ".git::\$INDEX_ALLOCATION/config" "sub/.git. . /hooks/x" \
	 "$(printf ".g\342\200\214it/config")" \
	 "$(printf "\357\273\277.git/config")" \
	 "$(printf ".gi\342\200\256t/hooks/x")"
do
	test_expect_success "a .git look-alike is refused: $p" '
		new_file "$p" | refused lookalike "path inside .git"
	'
done

test_expect_success 'names that only look near .git still apply' '
	new_file ".gitignore-not" | mail near >near.mbox &&
	"$SCHED_BOT" apply --tree b4.git --base $BASE --branch near \
		--mbox near.mbox &&
	new_file "git~10/x" | mail near2 >near2.mbox &&
	"$SCHED_BOT" apply --tree b4.git --base $BASE --branch near2 \
		--mbox near2.mbox
'

test_done
