#!/bin/sh
# The versions of a series, as cron meets them on a real public-inbox:
# linked by b4's change-id when the cover carries one, else by author
# and subject; two series of one subject by two authors stay apart, and
# a version that matches two series is left unlinked and logged.  A
# version whose patches are an earlier tested version's by patch-id, on
# the same base and target, is neither built nor run: its reply points
# at the earlier result, or, with bot.quiet, there is none.  A served
# tip tree that gains v1's patches gets the merge recorded once and a
# recheck of v1's regression, replied under v1's report (see "After
# merge" below for the part that is a fixture).  `sched-bot history`
# shows it all.  Last, the whole life in one cron flow with sending on
# to smtp-sink, under bot.moderation = regressions: v1's report held
# for the moderator, released by a signed command and by nothing
# forged, v2 saying v1's regression is gone and v3 not built (both
# measured nothing: the mail policy keeps their replies in the outbox),
# and another report judged invalid in the tally (see "sending on"
# below).
#
# The tree is the stand-in of t7000 (lib-hostile.sh), whose "vmlinux"
# is the same file on both sides: each job builds in the sandbox, finds
# base and patched alike in code and data, and boots nothing.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-hostile.sh"
. "$TESTS/lib-bot.sh"

standin_prereqs
cd "$TRASH" || exit 1

CFG=$XDG_CONFIG_HOME/sched-bot/config
standin_job_config "$CFG" || test_fail_all "cannot write the configuration"
cat >>"$CFG" <<EOF
[bot]
	name = Sched Bot
	email = bot@sched-bot.example.org
	workloads = spawn
[job]
	target = local
[lore]
	cacheMaxAge = 0
EOF

# The stand-in tree, its bzImage recipe also leaving a vmlinux (an ELF64
# x86-64 file, the same for every commit).
standin_tree || test_fail_all "cannot make the stand-in tree"
cp /bin/true tree/vmlinux.bin &&
sed -i 's|^\t{ head -c 514.*|&\n\tcp vmlinux.bin $(O)/vmlinux|' tree/Makefile &&
git -C tree add -A && git -C tree -c user.name=t -c user.email=t@t \
	commit -qm "base with a vmlinux" && git -C tree branch -qf base &&
git clone -q --bare tree repo.git || test_fail_all "cannot make the tree"
BASE=$(git -C tree rev-parse base)
NOW=$(date -R)

# series OUT "NAME <EMAIL>" VERSION COVER-SUBJECT CHANGE-ID SUBJECT=LINE...
# A series by that author, sent now: a cover letter (with b4's change-id:
# unless CHANGE-ID is "-") and one patch for each SUBJECT=LINE, which
# appends LINE to kernel/sched/fair.c.
series() {
	out=$1 who=$2 v=$3 cover=$4 cid=$5
	shift 5
	aname=${who% <*} aemail=${who#*<}
	aemail=${aemail%>}
	git -C tree checkout -q -B work base &&
	for p in "$@"; do
		echo "${p#*=}" >>tree/kernel/sched/fair.c &&
		GIT_AUTHOR_NAME=$aname GIT_AUTHOR_EMAIL=$aemail \
		GIT_COMMITTER_NAME=$aname GIT_COMMITTER_EMAIL=$aemail \
			git -C tree commit -qam "${p%%=*}" || return 1
	done &&
	GIT_COMMITTER_NAME=$aname GIT_COMMITTER_EMAIL=$aemail \
		git -C tree format-patch -q --stdout --cover-letter --thread \
		${SERIES_TO:+--to="$SERIES_TO"} \
		-v "$v" --base="$BASE" base..work >"$out.raw" &&
	git -C tree checkout -q base &&
	awk -v now="$NOW" -v cover="$cover" -v cid="$cid" '
		/^From [0-9a-f]+ / { print; print "Received: from test by 127.0.0.1; " now; next }
		/^Subject: .*\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, cover) }
		/^\*\*\* BLURB HERE \*\*\*$/ { print "The series."; next }
		/^base-commit: / && cid != "-" { print; print "change-id: " cid; next }
		{ print }' "$out.raw" |
	# format-patch names a cover by the second it was made in: one
	# Message-ID of its own for each series
	sed "/^\(Message-I[Dd]\|In-Reply-To\|References\):/s/\.git\./.git.${out%.mbox}./g" >"$out"
}

# the Message-ID of the cover letter of a series file
cover_of() {
	lore_msgids "$1" | head -n 1
}

ALICE="Alice Doe <alice@example.org>"
BOB="Bob Roe <bob@example.org>"
CAROL="Carol Poe <carol@example.org>"
ERIN="Erin Moe <erin@example.org>"
DAVE="Dave Loe <dave@example.org>"

series alice.mbox "$ALICE" 1 "sched/fair: tweak wakeup" - \
	"sched/fair: alice one=int a1;" "sched/fair: alice two=int a2;" &&
series bob.mbox "$BOB" 1 "sched/fair: tweak wakeup" - \
	"sched/fair: bob one=int b1;" "sched/fair: bob two=int b2;" &&
series carol1.mbox "$CAROL" 1 "sched/fair: an old name" 20261201-old-name-0123abcd \
	"sched/fair: carol one=int c1;" "sched/fair: carol two=int c2;" &&
series carol2.mbox "$CAROL" 2 "sched/fair: a new name" 20261201-old-name-0123abcd \
	"sched/fair: carol first=int c1;" "sched/fair: carol second=int c3;" &&
series erin-a.mbox "$ERIN" 1 "sched/fair: the same words" 20261201-words-aaaa1111 \
	"sched/fair: erin a=int ea;" "sched/fair: erin b=int eb;" &&
series erin-b.mbox "$ERIN" 1 "sched/fair: the same words" 20261201-words-bbbb2222 \
	"sched/fair: erin c=int ec;" "sched/fair: erin d=int ed;" &&
series erin2.mbox "$ERIN" 2 "sched/fair: the same words" - \
	"sched/fair: erin a=int ea;" "sched/fair: erin b=int eb2;" ||
	test_fail_all "cannot write the series"

lore_start alice.mbox bob.mbox carol1.mbox carol2.mbox erin-a.mbox erin-b.mbox ||
	test_fail_all "lore does not start"

test_expect_success 'cron polls six series and links the two of carol by change-id' '
	"$SCHED_BOT" cron --poll-only 2>poll1 &&
	test "$(grep -c "^queued job" poll1)" -eq 6 &&
	# lore gives them in either order: the second is linked to the first
	c1=$(cover_of carol1.mbox) c2=$(cover_of carol2.mbox) &&
	grep -e "^<$c1>: v1 of series" -e "^<$c2>: v2 of series" poll1 >carol &&
	test "$(grep -c "(first with its change-id)$" carol)" -eq 1 &&
	test "$(grep -c "(change-id)$" carol)" -eq 1
'

# the series a version is in, as history prints it
series_of() {
	"$SCHED_BOT" history "$1" | sed -n "s/^Series \([0-9]*\):$/\1/p"
}

test_expect_success 'carol v1 and v2 are one series, across the subject change' '
	a=$(series_of "$(cover_of carol1.mbox)") &&
	test -n "$a" &&
	test "$(series_of "$(cover_of carol2.mbox)")" = "$a" &&
	"$SCHED_BOT" history 20261201-old-name-0123abcd >h &&
	test_grep "^v1 <$(cover_of carol1.mbox)> sched/fair: an old name$" h &&
	test_grep "^v2 <$(cover_of carol2.mbox)> sched/fair: a new name$" h &&
	test_grep "^  change-id  20261201-old-name-0123abcd$" h &&
	test "$(grep -c "^v[0-9]" h)" -eq 2
'

test_expect_success 'one subject, two authors: two series' '
	a=$(series_of "$(cover_of alice.mbox)") &&
	b=$(series_of "$(cover_of bob.mbox)") &&
	test -n "$a" && test -n "$b" && test "$a" != "$b" &&
	"$SCHED_BOT" history "$(cover_of alice.mbox)" >h &&
	test "$(grep -c "^v[0-9]" h)" -eq 1
'

# lore threads the two covers of one subject, neither with References,
# as one thread: asked for bob's, the series is bob's, not alice's.
test_expect_success 'one thread, two authors: the series asked for is its own' '
	"$SCHED_BOT" fetch -o both.mbox "$(cover_of bob.mbox)" &&
	test_grep "^From: $ALICE" both.mbox &&
	test_grep "^From: $BOB" both.mbox &&
	"$SCHED_BOT" series "$(cover_of bob.mbox)" >bs &&
	test_grep "bob one" bs && test_grep "bob two" bs &&
	test_grep ! "alice" bs &&
	"$SCHED_BOT" series "$(cover_of alice.mbox)" >as &&
	test_grep "alice one" as && test_grep ! "bob" as
'

test_expect_success 'a version that two series match is left unlinked, and logged' '
	lore_add erin2.mbox &&
	"$SCHED_BOT" cron --poll-only 2>poll2 &&
	test "$(grep -c "^queued job" poll2)" -eq 1 &&
	test_grep "<$(cover_of erin2.mbox)>: v2 left unlinked: ambiguous: 2 series of erin@example.org match by cover subject" poll2 &&
	"$SCHED_BOT" history "$(cover_of erin2.mbox)" >h &&
	test_grep "^A version linked to no series:$" h &&
	test_grep "^  linked     not linked: ambiguous" h
'

test_expect_failure_code 'history of an unknown name: exit 3' 3 '
	"$SCHED_BOT" history no-such-thing@example.org
'

# Dave's v1, v2 (patch 2 changed) and v3 (v2's changes reworded), each
# polled and run by cron in turn, in a state of their own.
series dave1.mbox "$DAVE" 1 "sched/fair: faster idle" - \
	"sched/fair: pick idle=int d1;" "sched/fair: slow path=int d2;" &&
series dave2.mbox "$DAVE" 2 "sched/fair: faster idle" - \
	"sched/fair: pick idle=int d1;" "sched/fair: fast path=int d2fixed;" &&
series dave3.mbox "$DAVE" 3 "sched/fair: faster idle" - \
	"sched/fair: pick an idle CPU=int d1;" "sched/fair: the fast path=int d2fixed;" &&
series dave4.mbox "$DAVE" 4 "sched/fair: faster idle" - \
	"sched/fair: pick an idle CPU first=int d1;" "sched/fair: fast path again=int d2fixed;" ||
	test_fail_all "cannot write dave's series"
git config -f "$CFG" state.db "$TRASH/dave.db"
# the poll of this state looks at dave's mail only
git config -f "$CFG" cron.query "dfn:kernel/sched/ AND s:PATCH AND f:dave@example.org AND rt:<since>.."
git config -f "$CFG" job.dir "$TRASH/dave-jobs"

# poll_run MBOX: the series into lore, one poll, the queue run
poll_run() {
	lore_add "$1" &&
	"$SCHED_BOT" cron --poll-only 2>>dave.err &&
	"$SCHED_BOT" cron --no-poll 2>>dave.err
}

job_state_of() {
	sed -n "s/^$2=//p" "dave-jobs/job-$1/state"
}

test_expect_success 'v1 is built and tested' '
	poll_run dave1.mbox &&
	test "$(job_state_of 1 outcome)" = tested
'

# The series names its base-commit: in full, the job states it in 12
# digits: one commit, no substitution to speak of.
test_expect_success '... on the base-commit: it names, and says no other' '
	test "$(job_state_of 1 series_base)" = "$BASE" &&
	test "$(job_state_of 1 base_commit)" = "$BASE" &&
	test_grep -x -F -- "- stated:   $BASE" dave-jobs/job-1/reply.eml &&
	test_grep ! "^Note: " dave-jobs/job-1/reply.eml &&
	test_grep ! "as its" dave-jobs/job-1/reply.eml &&
	test_grep ! "tested on" dave-jobs/job-1/reply.eml
'

test_expect_success '... b4 check: a warning, the binaries identical, no Tested-by' '
	mkdir dave1.split && git mailsplit -odave1.split dave1.mbox >/dev/null &&
	"$SCHED_BOT" check <dave1.split/0002 >check.json &&
	test_grep "\"status\": \"warn\"" check.json &&
	test_grep -F "No Tested-by: identical binaries, nothing measured.\"" check.json &&
	test_grep ! "^Tested-by:" dave-jobs/job-1/reply.eml
'

# What v1 would have written had it measured a regression (a real one
# needs a kernel with a planted slowdown: t6011): the KPI v2's reply
# has to look back at.
cat >dave-jobs/job-1/compare.json <<EOF
{
  "metrics": [
    { "workload": "spawn", "params": "", "metric": "lps",
      "diagnostic": false, "change_pct": -12.4, "verdict": "regression" },
    { "workload": "spawn", "params": "", "metric": "cpu",
      "diagnostic": true, "change_pct": -30.0, "verdict": "regression" }
  ],
  "verdict": "regression"
}
EOF

test_expect_success 'v2 is tested, linked by author and subject, and its reply remembers v1' '
	poll_run dave2.mbox &&
	test "$(job_state_of 2 outcome)" = tested &&
	test -s dave-jobs/job-2/build-head.log &&
	test_grep "<$(cover_of dave2.mbox)>: v2 of series 1 (author and cover subject)" dave.err &&
	v1reply=$(job_state_of 1 reply_msgid) &&
	test_grep -x "The regressions v1 reported, in v2:" dave-jobs/job-2/earlier.txt &&
	test_grep -x "    $LORE_URL/all/$v1reply/" dave-jobs/job-2/earlier.txt &&
	test_grep -x -F -- "- v1 regressed spawn lps by -12.4%; in v2: the patched kernel'"'"'s code and data are the base'"'"'s: gone" dave-jobs/job-2/earlier.txt &&
	test_grep ! "spawn cpu" dave-jobs/job-2/earlier.txt &&
	test_grep -F "v1 regressed spawn lps by -12.4%" dave-jobs/job-2/reply.eml &&
	test ! -e dave-jobs/job-1/earlier.txt
'

test_expect_success 'v3, v2 by patch-id: not built, the reply points at v2' '
	: >dave.err &&
	poll_run dave3.mbox &&
	test_grep "<$(cover_of dave3.mbox)>: v3 of series 1 (author and cover subject)" dave.err &&
	test "$(job_state_of 3 outcome)" = duplicate &&
	test "$(job_state_of 3 patch_ids)" = "$(job_state_of 2 patch_ids)" &&
	test "$(job_state_of 3 patch_ids)" != "$(job_state_of 1 patch_ids)" &&
	test ! -e dave-jobs/job-3/build-base.log &&
	test ! -e dave-jobs/job-3/build-head.log &&
	v2reply=$(job_state_of 2 reply_msgid) &&
	test -n "$v2reply" &&
	test_grep "has the result of these patches already" dave-jobs/job-3/reply.eml &&
	test_grep "patches of v2 \[1\], by patch-id" dave-jobs/job-3/reply.eml &&
	# job 2 measured nothing: its verdict repeated in one line, and
	# no "measured" of it
	sed -n "/^They are the patches/,/^\$/p" dave-jobs/job-3/reply.eml |
		tr -s "\n " "  " >dup &&
	test_grep -F "Job 2'"'"'s verdict on them [2]: nothing measured, the patched kernel'"'"'s code and data were the base'"'"'s. " dup &&
	test_grep ! "measured them" dave-jobs/job-3/reply.eml &&
	test_grep ! "measured already" dave-jobs/job-3/reply.eml &&
	test_grep "^\[1\] $LORE_URL/all/$(cover_of dave2.mbox)/$" dave-jobs/job-3/reply.eml &&
	test_grep "^\[2\] $LORE_URL/all/$v2reply/$" dave-jobs/job-3/reply.eml &&
	test_grep "^In-Reply-To: <$(cover_of dave3.mbox)>" dave-jobs/job-3/reply.eml
'

test_expect_success 'with bot.quiet, a v4 like v2 gets no reply at all' '
	git config -f "$CFG" bot.quiet true &&
	ls outbox/new >before &&
	poll_run dave4.mbox &&
	test "$(job_state_of 4 outcome)" = duplicate &&
	test_grep "^stage=done" dave-jobs/job-4/state &&
	test ! -e dave-jobs/job-4/reply.eml &&
	ls outbox/new >after &&
	test_cmp before after &&
	git config -f "$CFG" --unset bot.quiet
'

test_expect_success 'history lists the versions, their jobs and verdicts' '
	"$SCHED_BOT" history "$(cover_of dave1.mbox)" >h &&
	cat h &&
	test_grep "^Series 1:$" h &&
	test "$(grep -c "^v[0-9] <" h)" -eq 4 &&
	test_grep "^  job 2: tested$" h &&
	test_grep "^  job 3: duplicate$" h &&
	test_grep "^    same as    the patches of job-2, reported in <$(job_state_of 2 reply_msgid)>$" h &&
	test_grep "^    reply      none (bot.quiet)$" h &&
	test_grep "^    target     local, workloads spawn$" h
'

# After merge.  The served "tip" tree gains v1's two patches as they
# were sent (git am, patch 2 and its slowdown included), and the next
# poll finds them by patch-id, records the merge once and, v1 having
# reported a regression, queues a recheck: the merged commit against
# the parent of the first, on v1's target and workloads.  The stand-in
# tree's kernels are alike in code and data, so the recheck measures
# nothing: its "still a regression" is a FIXTURE, like v1's
# compare.json above.  The recheck is stopped after its compare stage
# (the crash point after-compare) and given the result files a real
# kernel with the slowdown would leave; t6011 is the real-kernel path.
# Everything else (the fetch, the scan, the state, the queue, the
# reply, its threading and lines, history) is the real code on real
# peers.
test_expect_success 'the tip tree gains v1 as it was sent, served by git daemon' '
	mkdir -p srv && git init -q --bare srv/tip.git &&
	git -C tree checkout -q -B tip-core base &&
	mkdir split && git mailsplit -osplit dave1.mbox >/dev/null &&
	GIT_COMMITTER_NAME="Tip Bot" GIT_COMMITTER_EMAIL=tip@example.org \
		git -C tree am -q ../split/0002 ../split/0003 &&
	git -C tree push -q ../srv/tip.git tip-core:refs/heads/sched/core &&
	git -C tree checkout -q base &&
	git --git-dir=srv/tip.git rev-parse sched/core >tip &&
	test "$(git --git-dir=srv/tip.git rev-parse sched/core~2)" = "$BASE" &&
	git_serve "$PWD/srv" tip.git &&
	test_grep "refs/heads/sched/core" refs &&
	git config -f "$CFG" tree.tip.url git://127.0.0.1:$PORT/tip.git &&
	git config -f "$CFG" tree.tip.branches sched/core &&
	git config -f "$CFG" cron.buildAhead false
'

TIP12=$(cut -c1-12 tip 2>/dev/null)
BASE12=$(echo "$BASE" | cut -c1-12)

test_expect_success 'a poll killed once the merge is recorded: merge and recheck are there' '
	rc=0 &&
	{ SCHED_BOT_CRASH_AT=merge-recorded "$SCHED_BOT" cron --poll-only \
		2>merge1.err || rc=$?; } &&
	test "$rc" -eq 137 &&
	test_grep "merged: the patches of job 1 are in tip/sched/core as $TIP12; it reported a regression: a recheck is queued" merge1.err &&
	test_grep "queued job 5: <$(cover_of dave1.mbox)> again, $TIP12 against $BASE12" merge1.err &&
	test "$(grep -c "merged: " merge1.err)" -eq 1
'

test_expect_success 'the next polls record nothing and queue nothing again' '
	"$SCHED_BOT" cron --poll-only 2>merge2.err &&
	test_grep "fetched tree tip" merge2.err &&
	test_grep ! "merged: " merge2.err &&
	test_grep ! "queued job" merge2.err &&
	"$SCHED_BOT" cron --poll-only 2>merge3.err &&
	test_grep ! "merged: " merge3.err &&
	"$SCHED_BOT" history "$(cover_of dave1.mbox)" >h &&
	test "$(grep -c "^    merged     into tip/sched/core as $TIP12 (.*), rechecked by job 5$" h)" -eq 1
'

test_expect_success 'the recheck runs the merged commit against its parent' '
	rc=0 &&
	{ SCHED_BOT_CRASH_AT=after-compare "$SCHED_BOT" cron --no-poll \
		2>recheck.err || rc=$?; } &&
	test "$rc" -eq 137 &&
	test "$(job_state_of 5 head)" = "$(cat tip)" &&
	test "$(job_state_of 5 base_commit)" = "$BASE" &&
	test "$(job_state_of 5 head_commit)" = "$(cat tip)" &&
	test "$(job_state_of 5 merged_into)" = tip/sched/core &&
	test "$(job_state_of 5 report)" = "$(job_state_of 1 reply_msgid)" &&
	test "$(job_state_of 5 target)" = local &&
	test -z "$(job_state_of 5 patch_ids)" &&
	test_grep "the series as merged into tip/sched/core" dave-jobs/job-5/apply.log
'

# regression_fixture DIR PCT: the result files a job stopped at the
# crash point after-compare would have left on a real kernel whose
# spawn lps is PCT% off the base's, its outcome a regression (the
# FIXTURE each use explains: the stand-in kernels measure alike).  Such
# a kernel's vmlinux is not the base's: the stand-ins' equal digests go,
# or the mail policy would keep the report as identical binaries.
regression_fixture() {
	sed -i "/^digest_\(base\|head\)=/d" "$1/state" &&
	cat >"$1/compare.json" <<EOF &&
{
  "metrics": [
    { "workload": "spawn", "params": "", "metric": "lps",
      "diagnostic": false, "change_pct": $2, "verdict": "regression" }
  ],
  "verdict": "regression"
}
EOF
	awk -v p="$2" 'BEGIN { printf "spawn lps   base 41234.0   " \
		"patched %.1f   %s%%\n", 41234 * (1 + p / 100), p }' \
		>"$1/tables.txt" &&
	printf 'Verdict: a regression of spawn lps, %s%%, confirmed.\n' "$2" >"$1/verdict.txt" &&
	printf -- '- spawn lps: %s%%\n' "$2" >"$1/regressions.txt" &&
	cat >"$1/summary.txt" <<EOF &&
lead: $2% regression of spawn.lps
testcase: spawn
params: 
rule: change >= 5%, p < 0.01, the family's alpha
moved: $2% regression of spawn.lps
EOF
	sed -i "s/^outcome=tested$/outcome=regression/" "$1/state"
}

# The fixture: what the recheck would have written on a real kernel
# with v1's slowdown (see above).
J5=dave-jobs/job-5
if test -d $J5; then
	regression_fixture $J5 -11.8
fi

# Moderation applies as to any report: this one is held (t7103 is the
# moderators' part; history's row of their decision, test-lineage).
test_expect_success 'still a regression: the reply under the report, with Reported-by and Closes' '
	grep -q "^outcome=regression$" $J5/state &&
	git config -f "$CFG" bot.moderation regressions &&
	git config -f "$CFG" bot.moderators mod@example.org &&
	"$SCHED_BOT" cron --no-poll 2>recheck2.err &&
	git config -f "$CFG" bot.moderation none &&
	test_grep "held for the moderators" recheck2.err &&
	r=$J5/reply.eml &&
	cat $r &&
	v1reply=$(job_state_of 1 reply_msgid) &&
	test_grep "^Still a regression on tip/sched/core $TIP12: " $r &&
	test_grep -x "In-Reply-To: <$v1reply>" $r &&
	test_grep "^References: .*<$(cover_of dave1.mbox)>" $r &&
	test_grep -F -- "-11.8%" $r &&
	test_grep -F "change >= 5%, p < 0.01" $r &&
	test_grep -F "sched-bot test" $r &&
	test_grep -x "Reported-by: Sched Bot <bot@sched-bot.example.org>" $r &&
	test_grep -x "Closes: $LORE_URL/all/$v1reply/" $r &&
	test_grep -x "#regzbot introduced: $BASE12..$TIP12" $r &&
	test "$(job_state_of 5 stage)" = done
'

test_expect_success 'history shows the merge, the recheck and its reply' '
	"$SCHED_BOT" history "$(cover_of dave1.mbox)" >h &&
	cat h &&
	test_grep "^  job 5: regression$" h &&
	test_grep "^    merged     a recheck on tip/sched/core $TIP12 against $BASE12$" h &&
	test_grep "^    reply      <$(job_state_of 5 reply_msgid)>$" h &&
	test "$(grep -c "rechecked by job 5$" h)" -eq 1
'

# The same commits in two more served trees, with no fixture this
# time: the recheck finds the merged kernel's code and data the
# parent's, so it measured nothing: the regression could not be
# rechecked there, never "gone"; under bot.quiet that is said to nobody.
test_expect_success 'nothing measured after merge: "could not be rechecked", or, with bot.quiet, nothing' '
	git clone -q --bare srv/tip.git srv/next.git &&
	git clone -q --bare srv/tip.git srv/mm.git &&
	git config -f "$CFG" tree.next.url git://127.0.0.1:$(cat port)/next.git &&
	git config -f "$CFG" tree.next.branches sched/core &&
	"$SCHED_BOT" cron 2>next.err &&
	test_grep "merged: the patches of job 1 are in next/sched/core as $TIP12; it reported a regression: a recheck is queued" next.err &&
	test_grep ! "are in tip/sched/core" next.err &&
	test "$(job_state_of 6 merged_into)" = next/sched/core &&
	test "$(job_state_of 6 outcome)" = tested &&
	r=dave-jobs/job-6/reply.eml &&
	test_grep -x "Could not be rechecked on next/sched/core $TIP12: the merged" $r &&
	sed -n "/^Could not be rechecked on/,/^\$/p" $r | tr -s "\n " "  " >why &&
	test_grep -F "Could not be rechecked on next/sched/core $TIP12: the merged kernel'"'"'s code and data are its parent'"'"'s, so nothing was booted or measured. " why &&
	test_grep ! "gone" $r &&
	test_grep ! "not seen" $r &&
	test_grep -x "In-Reply-To: <$(job_state_of 1 reply_msgid)>" $r &&
	test_grep ! "^Reported-by:" $r &&
	git config -f "$CFG" bot.quiet true &&
	git config -f "$CFG" tree.mm.url git://127.0.0.1:$(cat port)/mm.git &&
	git config -f "$CFG" tree.mm.branches sched/core &&
	ls outbox/new >before &&
	"$SCHED_BOT" cron 2>mm.err &&
	test_grep "merged: the patches of job 1 are in mm/sched/core" mm.err &&
	test_grep "could not be rechecked on mm/sched/core (identical binaries, nothing measured); no reply (bot.quiet)" mm.err &&
	test "$(job_state_of 7 stage)" = done &&
	test ! -e dave-jobs/job-7/reply.eml &&
	ls outbox/new >after &&
	test_cmp before after &&
	git config -f "$CFG" --unset bot.quiet
'

# Job 6 as it would have ended had the merged kernel differed and been
# measured under TCG, or too noisily (the FIXTURE: its compare.json and
# machine.txt; the stand-in measures nothing): not "gone" either.
recheck_as() {
	rm -rf "$1" && cp -R dave-jobs/job-6 "$1" &&
	rm -f "$1/reply.eml" "$1/lock" &&
	sed -i -e "/^digest_head=/d" -e "/^reply_msgid=/d" -e "/^outbox=/d" \
		-e "s/^stage=.*/stage=reply/" "$1/state" &&
	printf "{\n  \"verdict\": \"%s\"\n}\n" "$2" >"$1/compare.json"
}

test_expect_success 'a recheck under TCG or too noisy: "could not be rechecked", why' '
	recheck_as tcg6 "no significant change" &&
	echo "- target:  qemu (QEMU, 2 vCPUs, 1024 MB, tcg)" >tcg6/machine.txt &&
	"$SCHED_BOT" test --job-dir tcg6 >/dev/null 2>tcg6.err &&
	sed -n "/^Could not be rechecked on/,/^\$/p" tcg6/reply.eml | tr -s "\n " "  " >why &&
	test_grep -F "Could not be rechecked on next/sched/core $TIP12: the target was emulated (QEMU TCG), whose numbers say nothing of the kernel'"'"'s speed. " why &&
	test_grep ! "gone" tcg6/reply.eml &&
	recheck_as noisy6 noisy &&
	"$SCHED_BOT" test --job-dir noisy6 >/dev/null 2>noisy6.err &&
	sed -n "/^Could not be rechecked on/,/^\$/p" noisy6/reply.eml | tr -s "\n " "  " >why &&
	test_grep -F "Could not be rechecked on next/sched/core $TIP12: the runs were too noisy to call a change either way. " why &&
	test_grep ! "gone" noisy6/reply.eml &&
	recheck_as seen6 "no significant change" &&
	"$SCHED_BOT" test --job-dir seen6 >/dev/null 2>seen6.err &&
	test_grep "^Not seen on next/sched/core $TIP12: this series" seen6/reply.eml
'

# The whole life, sending on, in one cron flow: Fay's v1 (patch 2
# the slow path), v2 (patch 2 fixed) and v3 (v2's changes reworded),
# sent to the list, under bot.moderation = regressions, each mail cron
# sends going to smtp-sink, the moderators' commands DKIM-signed mail
# on the lore.  v1's regression is the FIXTURE of the merge part: the
# stand-in's kernels measure alike, so v1's job is stopped at the crash
# point after-compare and given the result files a kernel with the
# slowdown would leave (regression_fixture), then resumed; t6011 is
# the real-kernel path of a planted slowdown.  The rest (the hold, the
# note, the release, v2's look back, v3's patch-ids, history, the
# tally) is the real code on real peers.  Gina's v1, held the same way,
# is the report judged invalid.
bot_have_dkim ||
	test_skip_all "opendkim-tools not installed (contrib/install-deps)"
command -v sqlite3 >/dev/null ||
	test_skip_all "sqlite3 is not installed (contrib/install-deps)"
smtp_start || test_fail_all "smtp-sink does not start"
bot_dkim_key kernel.example && bot_dkim_key attacker.example ||
	test_fail_all "cannot make the DKIM keys"
MOD=mod@kernel.example
LIST=linux-kernel@vger.kernel.org
FAY="Fay Noe <fay@example.org>"
GINA="Gina Voe <gina@example.org>"
SERIES_TO=$LIST
series fay1.mbox "$FAY" 1 "sched/fair: quicker balance" - \
	"sched/fair: balance early=int f1;" "sched/fair: slow walk=int f2;" &&
series fay2.mbox "$FAY" 2 "sched/fair: quicker balance" - \
	"sched/fair: balance early=int f1;" "sched/fair: short walk=int f2fixed;" &&
series fay3.mbox "$FAY" 3 "sched/fair: quicker balance" - \
	"sched/fair: balance a little early=int f1;" "sched/fair: the short walk=int f2fixed;" &&
series gina1.mbox "$GINA" 1 "sched/fair: keep the cache warm" - \
	"sched/fair: warm one=int g1;" "sched/fair: warm two=int g2;" ||
	test_fail_all "cannot write fay's and gina's series"
unset SERIES_TO
for t in tip next mm; do
	git config -f "$CFG" --remove-section tree.$t
done
git config -f "$CFG" state.db "$TRASH/fay.db"
git config -f "$CFG" job.dir "$TRASH/fay-jobs"
git config -f "$CFG" outbox.dir "$TRASH/fay-outbox"
git config -f "$CFG" cron.query "dfn:kernel/sched/ AND s:PATCH AND (f:fay@example.org OR f:gina@example.org) AND rt:<since>.."
git config -f "$CFG" smtp.url "smtp://127.0.0.1:$SMTP_PORT"
git config -f "$CFG" dkim.keyFile "$DKIM_KEYS"
git config -f "$CFG" bot.moderation regressions
git config -f "$CFG" bot.moderators $MOD
FDB=$TRASH/fay.db

fay_state() {
	sed -n "s/^$2=//p" "fay-jobs/job-$1/state"
}

# held_run MBOX JOB PCT: the series polled and its job run by cron,
# sending on, stopped after its compare stage, given the regression
# fixture of PCT% and resumed: the report is held; the one mail sent,
# the note to the moderators, is left in hold-JOB.eml
held_run() {
	lore_add "$1" &&
	"$SCHED_BOT" cron --poll-only --send 2>>fay.err &&
	rc=0 &&
	{ SCHED_BOT_CRASH_AT=after-compare "$SCHED_BOT" cron --no-poll \
		--send 2>>fay.err || rc=$?; } &&
	test "$rc" -eq 137 &&
	test "$(smtp_count)" -eq 0 &&
	regression_fixture fay-jobs/job-$2 $3 &&
	"$SCHED_BOT" cron --no-poll --send 2>held-$2.err &&
	test_grep "held for the moderators" held-$2.err &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	cp "$SMTP_DIR"/* hold-$2.eml &&
	rm -f "$SMTP_DIR"/*
}

# fay_cmd NAME DOMAIN FROM LINE IN-REPLY-TO: a command answering the
# note, into the lore, and one poll of cron, sending on
fay_cmd() {
	bot_answer "$1" "$2" "$3" "$1@cmd.example" "$4" "$5" \
		"Re: [sched-bot moderation] the held report" &&
	lore_add "$1" &&
	"$SCHED_BOT" cron --poll-only --send 2>"$1.err"
}

test_expect_success 'fay v1 regresses: cron sends its report to the moderator only' '
	held_run fay1.mbox 1 -12.4 &&
	pub=$(fay_state 1 reply_msgid) &&
	test -n "$pub" &&
	test "$(fay_state 1 outcome)" = regression &&
	m=hold-1.eml &&
	test "$(grep -c "^X-Rcpt-Args: " $m)" -eq 1 &&
	test_grep "^X-Rcpt-Args: <$MOD>" $m &&
	test_grep "^To: $MOD$" $m &&
	test_grep "^Message-ID: <moderation.$pub>$" $m &&
	test_grep "^Content-Type: message/rfc822$" $m &&
	test_grep "^Message-ID: <$pub>$" $m &&
	test_grep "^In-Reply-To: <$(cover_of fay1.mbox)>$" $m &&
	test_grep -F -- "-12.4%" $m &&
	test "$(sqlite3 "$FDB" "SELECT status FROM moderation WHERE public_msgid = '\''$pub'\''")" = held
'
PUB1=$(fay_state 1 reply_msgid 2>/dev/null)

test_expect_success 'unsigned, forged and non-moderator releases send nothing' '
	fay_cmd unsigned none $MOD "#sched-bot release" "moderation.$PUB1" &&
	fay_cmd forged attacker.example $MOD "#sched-bot release" "moderation.$PUB1" &&
	fay_cmd notmod kernel.example dev@kernel.example "#sched-bot release" "moderation.$PUB1" &&
	test_grep "from $MOD ignored: no DKIM signature of kernel.example that verifies: no DKIM signature" unsigned.err &&
	test_grep "from $MOD ignored: no DKIM signature of kernel.example that verifies: DKIM signature of attacker.example does not align" forged.err &&
	test_grep "from dev@kernel.example ignored: sender dev@kernel.example is not in bot.moderators" notmod.err &&
	test_grep ! "released" unsigned.err forged.err notmod.err &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$FDB" "SELECT status FROM moderation WHERE public_msgid = '\''$PUB1'\''")" = held
'

test_expect_success 'a signed release sends it to the list once, unchanged and threaded' '
	fay_cmd rel1 kernel.example $MOD "#sched-bot release" "moderation.$PUB1" &&
	test_grep "report <$PUB1> released by $MOD" rel1.err &&
	smtp_wait 1 &&
	test "$(smtp_count)" -eq 1 &&
	m=$(ls "$SMTP_DIR"/*) &&
	test_grep "^X-Rcpt-Args: <$LIST>" $m &&
	test_grep "^X-Rcpt-Args: <fay@example.org>" $m &&
	test_grep ! "^X-Rcpt-Args: <$MOD>" $m &&
	test_grep "^Message-ID: <$PUB1>$" $m &&
	test_grep "^In-Reply-To: <$(cover_of fay1.mbox)>$" $m &&
	bot_held_attachment hold-1.eml >attached &&
	bot_unsink $m >sent &&
	test_cmp attached sent &&
	rm -f "$SMTP_DIR"/* &&
	fay_cmd rel2 kernel.example $MOD "#sched-bot release" "moderation.$PUB1" &&
	test_grep "report <$PUB1> was released already" rel2.err &&
	test "$(smtp_count)" -eq 0
'

# v2 and v3 measure nothing (v2's kernel is the base's, v3 is v2 by
# patch-id): the mail policy keeps their replies in the outbox, off the
# list (contrib/operating.md, "Who gets which mail"); what they say is read there.
test_expect_success 'v2, identical binaries: its reply says v1'"'"'s regression is gone, in the outbox' '
	lore_add fay2.mbox &&
	"$SCHED_BOT" cron --send 2>fay2.err &&
	test "$(fay_state 2 outcome)" = tested &&
	test -s fay-jobs/job-2/build-head.log &&
	# what v1 regressed is run first (plan.h; test-plan the order)
	test "$(fay_state 2 run_first)" = spawn &&
	test "$(fay_state 2 run_first_version)" = 1 &&
	test_grep "run first: spawn, which v1 regressed" fay2.err &&
	test "$(fay_state 2 mail)" = outbox &&
	test_grep "sent to no one: identical binaries" fay2.err &&
	test "$(smtp_count)" -eq 0 &&
	m=fay-outbox/new/$(fay_state 2 reply_msgid) &&
	test_grep "^In-Reply-To: <$(cover_of fay2.mbox)>$" $m &&
	test_grep -x "The regressions v1 reported, in v2:" $m &&
	test_grep -F "v1 regressed spawn lps by -12.4%" $m &&
	test_grep -x "    $LORE_URL/all/$PUB1/" $m &&
	# the line as the mail wraps it, joined again
	sed -n "/^- v1 regressed/,/^\$/p" $m | tr -s "\n " "  " >gone &&
	test_grep -F "v1 regressed spawn lps by -12.4%; in v2: the patched kernel'"'"'s code and data are the base'"'"'s: gone" gone &&
	cp $m v2.eml
'

test_expect_success 'v3, v2 by patch-id: nothing built or run, the reply points at v2' '
	find builds -type f | sort >builds.before &&
	lore_add fay3.mbox &&
	"$SCHED_BOT" cron --send 2>fay3.err &&
	test "$(fay_state 3 outcome)" = duplicate &&
	test ! -e fay-jobs/job-3/build-base.log &&
	test ! -e fay-jobs/job-3/build-head.log &&
	test ! -e fay-jobs/job-3/results.csv &&
	find builds -type f | sort >builds.after &&
	test_cmp builds.before builds.after &&
	test "$(fay_state 3 mail)" = outbox &&
	test "$(smtp_count)" -eq 0 &&
	m=fay-outbox/new/$(fay_state 3 reply_msgid) &&
	test_grep "^In-Reply-To: <$(cover_of fay3.mbox)>$" $m &&
	test_grep "patches of v2 \[1\], by patch-id" $m &&
	test_grep "^\[2\] $LORE_URL/all/$(fay_state 2 reply_msgid)/$" $m
'

test_expect_success 'history: the versions, the moderators'"'"' decision, the links' '
	"$SCHED_BOT" history "$(cover_of fay1.mbox)" >h &&
	cat h &&
	test "$(grep -c "^v[0-9] <" h)" -eq 3 &&
	test_grep "^  job 1: regression$" h &&
	test_grep "^    moderation released by $MOD$" h &&
	test_grep "^    reply      <$PUB1>$" h &&
	test_grep "^  job 2: tested$" h &&
	test_grep "^    reply      <$(fay_state 2 reply_msgid)>$" h &&
	test_grep "^  job 3: duplicate$" h &&
	test_grep "^    same as    the patches of job-2, reported in <$(fay_state 2 reply_msgid)>$" h
'

test_expect_success '#sched-bot invalid drops a held report; the tally shows 1 invalid' '
	held_run gina1.mbox 4 -9.5 &&
	pub=$(fay_state 4 reply_msgid) &&
	test_grep "^X-Rcpt-Args: <$MOD>" hold-4.eml &&
	fay_cmd inv kernel.example $MOD "#sched-bot invalid a noisy host" "moderation.$pub" &&
	test_grep "report <$pub> judged invalid by $MOD: a noisy host" inv.err &&
	test "$(smtp_count)" -eq 0 &&
	test "$(sqlite3 "$FDB" "SELECT COUNT(*) FROM mails WHERE message_id = '\''$pub'\''")" -eq 0 &&
	"$SCHED_BOT" history "$(cover_of gina1.mbox)" >h &&
	test_grep "^    moderation invalid by $MOD: a noisy host$" h &&
	rc=0 && "$SCHED_BOT" status --json >st.json 2>st.err || rc=$? &&
	test $rc -le 1 &&
	test "$(jq -r ".moderation | length" st.json)" -eq 1 &&
	test "$(jq -r ".moderation[0].invalid" st.json)" -eq 1 &&
	test "$(jq -r ".moderation[0].released" st.json)" -eq 1 &&
	test "$(jq -r ".moderation[0].held" st.json)" -eq 0 &&
	# a duplicate is no failure of the bot
	test "$(jq -r ".jobs.done_day" st.json)" -eq 4 &&
	test "$(jq -r ".jobs.failed_day" st.json)" -eq 0
'

test_expect_success 'the archive: a page per series, its versions and jobs linked' '
	"$SCHED_BOT" archive --jobs fay-jobs --out arch 2>arch.err &&
	f=$(series_of "$(cover_of fay1.mbox)") &&
	test -n "$f" &&
	p=arch/series-$f.html &&
	test_grep "<h1>Series $f: sched/fair: quicker balance</h1>" $p &&
	for v in 1 2 3; do
		test_grep "^<li>v$v <a href=\"$LORE_URL/all/$(cover_of fay$v.mbox)/\">" $p ||
			return 1
	done &&
	test_grep "<a href=\"job-1.html\">job 1</a>: <span class=\"regression\">regression</span>" $p &&
	test_grep "<a href=\"job-2.html\">job 2</a>: <span class=\"tested\">tested</span>" $p &&
	test_grep "<a href=\"job-3.html\">job 3</a>: <span class=\"duplicate\">duplicate</span>" $p &&
	test_grep ! "job-4.html" $p &&
	test_grep "^    moderation released by $MOD$" $p &&
	test_grep "^    kpis       spawn lps: -12.4% regression$" $p &&
	test_grep "^    same as    the patches of job-2, reported in " $p &&
	test_grep ! "$TRASH" $p &&
	test_grep "<li>series: <a href=\"series-$f.html\">series $f</a>, v2</li>" arch/job-2.html &&
	test_grep "<li><a href=\"series-$f.html\">series $f</a>: sched/fair: quicker balance</li>" arch/index.html &&
	test "$(grep -c "^<li><a href=\"series-" arch/index.html)" -eq 2 &&
	test_grep "invalid by $MOD: a noisy host" arch/series-$(series_of "$(cover_of gina1.mbox)").html
'

test_done
