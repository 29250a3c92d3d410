#!/bin/sh
# A "#sched-bot test" command that carries a diff ("can you rerun
# with:") is tested on top of the series it answers, the way syzbot's
# "#syz test" takes a patch: the patched kernel is the series plus that
# diff as one more commit, by the command's sender.  `sched-bot test
# --on-top MSGID` does what cron does for such a command.  b4's test
# repository stands in for the kernel tree: the series applies, the
# build then fails (it is not a kernel), which is where these stop.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

MBOX=$DATA/apply/shazam-git1-just-series.mbox
COVER=20221025-test1-v1-0-e4f28f57990c@linuxfoundation.org
BASE=f435c12df7c0ecf20ab8937859e63cddffacabb4
[ -f "$DATA/intake/b4/gitdir.bundle" ] || test_fail_all "tests/data/intake/b4/gitdir.bundle is missing"
command -v make >/dev/null || test_skip_all "make is not installed"
export GIT_CONFIG_NOSYSTEM=1

bot_job_tree_config "$TRASH/bot.cfg"
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# command_mail FILE MSGID DIFF-FILE: a reviewer's reply to the cover
# with the command and (unless DIFF-FILE is empty) a diff.
command_mail() {
	{
		cat <<-EOM
		From mboxrd@z Thu Jan  1 00:00:00 1970
		From: Vic Reviewer <vic@example.org>
		To: Konstantin Ryabitsev <konstantin@linuxfoundation.org>
		Subject: Re: [PATCH 0/4] This is a cover for test series 1
		In-Reply-To: <$COVER>
		References: <$COVER>
		Message-ID: <$2>
		Date: Wed, 26 Oct 2022 10:00:00 +0000

		> This is a cover

		Can you rerun with:

		#sched-bot test spawn

		EOM
		[ -z "$3" ] || cat "$3"
	} >"$1"
}

test_expect_success 'setup: the tree, the series head by git am, a diff on it' '
	git clone -q --bare "$DATA/intake/b4/gitdir.bundle" repo.git &&
	git clone -q repo.git w &&
	git -C w checkout -q $BASE &&
	# the cover letter has no diff: git am stops on it, then skips it
	! git -C w -c user.name=T -c user.email=t@example.org am -q "$MBOX" \
		2>/dev/null &&
	git -C w -c user.name=T -c user.email=t@example.org am -q --skip &&
	test "$(git -C w rev-list --count $BASE..HEAD)" -eq 4 &&
	F=$(git -C w diff --name-only $BASE HEAD | head -n 1) &&
	echo "$F" >F &&
	echo "a line on top" >>"w/$F" &&
	git -C w diff >on-top.diff &&
	test_grep "^+a line on top$" on-top.diff &&
	git -C w checkout -q -- "$F" &&
	command_mail cmd.mbox rerun.1@example.org on-top.diff &&
	cat "$MBOX" cmd.mbox >thread.mbox
'

test_expect_failure_code 'the command with a diff: applied, then the build stops' 1 '
	"$SCHED_BOT" test --mbox thread.mbox --on-top "<rerun.1@example.org>" \
		--job-dir jobs/one --runs 1 --workloads spawn 2>err
'

test_expect_success '... the diff is one commit on top, by its sender' '
	cat err &&
	J=jobs/one &&
	test_grep "applied the diff of <rerun.1@example.org> on top of the series" err &&
	test_grep "^on_top=rerun.1@example.org$" $J/state &&
	test_grep "^on_top_applied=1$" $J/state &&
	test_grep "^base_commit=$BASE$" $J/state &&
	head=$(sed -n "s/^head_commit=//p" $J/state) &&
	test "$(git --git-dir=repo.git rev-list --count $BASE..$head)" -eq 5 &&
	git --git-dir=repo.git log -1 --format="%an <%ae>" $head >author &&
	test_grep "^Vic Reviewer <vic@example.org>$" author &&
	git --git-dir=repo.git show "$head:$(cat F)" | tail -n 1 >last &&
	echo "a line on top" >want &&
	test_cmp want last &&
	test "$(git --git-dir=repo.git rev-parse $head^^{tree})" = \
		"$(git -C w rev-parse HEAD^{tree})" &&
	test_grep "^on top: the diff of <rerun.1@example.org>$" $J/apply.log
'

test_expect_success 'resumed without --on-top: the job keeps it' '
	rc=0 && "$SCHED_BOT" test --job-dir jobs/one 2>err2 || rc=$? &&
	test_grep "resuming job" err2 &&
	test_grep "^on_top=rerun.1@example.org$" jobs/one/state
'

test_expect_success 'a command without a diff tests the series alone' '
	command_mail cmd2.mbox rerun.2@example.org "" &&
	cat "$MBOX" cmd2.mbox >thread2.mbox &&
	rc=0 && "$SCHED_BOT" test --mbox thread2.mbox \
		--on-top rerun.2@example.org --job-dir jobs/two --runs 1 \
		--workloads spawn 2>err || rc=$? &&
	cat err &&
	test_grep "^on_top=rerun.2@example.org$" jobs/two/state &&
	test_grep ! "^on_top_applied=" jobs/two/state &&
	head=$(sed -n "s/^head_commit=//p" jobs/two/state) &&
	test "$(git --git-dir=repo.git rev-list --count $BASE..$head)" -eq 4 &&
	test_grep ! "^on top:" jobs/two/apply.log
'

test_expect_success 'a diff that does not apply on the series is reported' '
	sed "s/^ /X/" on-top.diff >bad.diff &&
	command_mail cmd3.mbox rerun.3@example.org bad.diff &&
	cat "$MBOX" cmd3.mbox >thread3.mbox &&
	rc=0 && "$SCHED_BOT" test --mbox thread3.mbox \
		--on-top rerun.3@example.org --job-dir jobs/three --runs 1 \
		--workloads spawn >out 2>err || rc=$? &&
	cat err &&
	test $rc -eq 1 &&
	test_grep "^outcome=apply-failed$" jobs/three/state &&
	test_grep "the diff of <rerun.3@example.org>, on top" jobs/three/apply.log
'

test_done
