#!/bin/sh
# sched-bot am: an mbox git am applies, with collected trailers and Link:,
# and a clear error for an incomplete series.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-intake.sh"
I=$DATA/intake

export GIT_AUTHOR_NAME="Test Bot" GIT_AUTHOR_EMAIL=bot@example.org \
	GIT_COMMITTER_NAME="Test Bot" GIT_COMMITTER_EMAIL=bot@example.org

test_expect_success 'an incomplete series: "missing 2/2", exit 1, no file' '
	rc=0
	"$SCHED_BOT" am --mbox "$I/short-task-wakeup-v3-partial.mbox" \
		-o out.mbox 2>err || rc=$?
	test $rc -eq 1 &&
	test_grep "missing 2/2" err &&
	test ! -e out.mbox
'

test_expect_success 'the complete series: 2 patches, Link: from lore.url' '
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
	printf "[lore]\n\turl = http://127.0.0.1:1/\n" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	"$SCHED_BOT" am --mbox "$I/short-task-wakeup-v3-complete.mbox" -o st.mbox &&
	rm "$XDG_CONFIG_HOME/sched-bot/config" &&
	test $(grep -c "^From git@z " st.mbox) -eq 2 &&
	test_grep "^Link: http://127.0.0.1:1/all/7621888af45a89c3963b39e062695602a3b9499f.1669862147.git.yu.c.chen@intel.com/$" st.mbox &&
	test_grep "^Subject: \[PATCH v3 2/2\] sched/fair: Choose the CPU where short task is running during wake up$" st.mbox &&
	test_grep "^Tested-by: kernel test robot <yujie.liu@intel.com>$" st.mbox
'

test_expect_success 'git am applies it to the v6.1 sources' '
	tarball=/usr/src/linux-source-6.1.tar.xz
	if [ ! -r $tarball ]; then
		echo "# no $tarball: only checking the mbox parses for git"
		mkdir split && git mailsplit -osplit st.mbox >n && test "$(cat n)" = 2
		exit
	fi
	tar xf $tarball linux-source-6.1/kernel/sched \
		linux-source-6.1/include/linux/sched.h &&
	cd linux-source-6.1 && git init -q && git add -A &&
	git commit -qm base &&
	git am ../st.mbox &&
	test $(git rev-list --count HEAD) -eq 3 &&
	git log -1 --format=%B | test_grep "^Signed-off-by: Chen Yu <yu.c.chen@intel.com>$" &&
	git diff --shortstat HEAD~2 | test_grep "4 files changed, 34 insertions(+)"
'

test_expect_success 'b4 sample series applies on its bundle, cover skipped' '
	git clone -q "$I/b4/gitdir.bundle" repo &&
	"$SCHED_BOT" am --mbox "$I/b4/shazam-git1-just-series.mbox" -o sh.mbox &&
	cd repo && git am -q ../sh.mbox &&
	test $(git rev-list --count f435c12..HEAD) -eq 4 &&
	test $(git log --format=%B f435c12..HEAD | grep -c "^Link: https://lore.kernel.org/all/20221025-test1-v1-[1-4]-e4f28f57990c@linuxfoundation.org/$") -eq 4
'

test_expect_success 'am -o - writes to stdout, --no-link leaves Link: out' '
	"$SCHED_BOT" am --mbox "$I/b4/shazam-git1-just-series.mbox" -o - \
		--no-link >out &&
	test $(grep -c "^From git@z " out) -eq 4 &&
	test_grep ! "^Link:" out
'

# b4's own expected output (a newer b4 than Debian's) for its samples.
for t in bare-address name-parens nore single with-cover with-diffstat partial-reroll \
	 htmljunk stripped-lines; do
	test_expect_success "trailers as in b4's reference: $t" "
		\"\$SCHED_BOT\" am --mbox \"\$I/b4/trailers-followup-$t.mbox\" \
			-o $t.mbox --no-link &&
		trailer_sets \"\$I/b4/trailers-followup-$t-ref-defaults.txt\" >exp &&
		trailer_sets $t.mbox >act &&
		test -s exp && test_cmp exp act
	"
done

test_expect_success 'a pasted format-patch From line does not split a patch' '
	{
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		echo "From: A U Thor <author@example.org>"
		echo "Subject: [PATCH] add a line"
		echo "Message-ID: <pasted@example.org>"
		echo "Date: Mon, 1 Jan 2024 00:00:00 +0000"
		echo
		echo "The reproducer was sent as"
		echo ">From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001"
		echo "From: Someone <s@example.org>"
		echo
		echo "Signed-off-by: A U Thor <author@example.org>"
		echo "---"
		echo "diff --git a/f b/f"
		echo "new file mode 100644"
		echo "index 0000000..e69de29"
		echo "--- /dev/null"
		echo "+++ b/f"
		echo "@@ -0,0 +1 @@"
		echo "+line"
		echo
	} >p.mbox &&
	"$SCHED_BOT" series --mbox p.mbox --json >j &&
	json_flat j | test_grep "\"total\":1" &&
	"$SCHED_BOT" am --mbox p.mbox -o am.mbox &&
	git init -q r && cd r && git commit -q --allow-empty -m base &&
	git am -q ../am.mbox &&
	# mboxo output: git am keeps the line, quoted once, in one commit.
	test $(git rev-list --count HEAD) -eq 2 &&
	git log -1 --format=%B | test_grep "^>From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17" &&
	git log -1 --format=%B | test_grep "^From: Someone <s@example.org>$" &&
	test "$(git log -1 --format=%an)" = "A U Thor"
'

test_expect_success 'an in-body From: names the author, not the sender' '
	"$SCHED_BOT" am --mbox "$I/patchwork/series/revision-basic.mbox" -o pw.mbox &&
	test $(grep -c "^From: Stephen Finucane <stephenfinucane@hotmail.com>$" pw.mbox) -eq 2 &&
	test_grep ! "^From: .*@gmail.com" pw.mbox &&
	test_grep "^Subject: \[PATCH v2 2/2\] test: Convert to Markdown$" pw.mbox
'

test_expect_failure_code 'am without -o is a usage error' 2 \
	'"$SCHED_BOT" am --mbox "$I/short-task-wakeup-v3-complete.mbox"'

test_done
