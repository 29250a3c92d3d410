#!/bin/sh
# The versions of a series, as cron meets them on a real public-inbox:
# linked by b4's change-id when the cover carries one, else by author
# and subject; two series of one subject by two authors stay apart, and
# a version that matches two series is left unlinked and logged.  A
# version whose patches are an earlier tested version's by patch-id, on
# the same base and target, is neither built nor run: its reply points
# at the earlier result, or, with bot.quiet, there is none.  `sched-bot
# history` shows it all.
#
# The tree is the stand-in of t7000 (lib-hostile.sh), whose "vmlinux"
# is the same file on both sides: each job builds in the sandbox, finds
# base and patched alike in code and data, and boots nothing.
. "$(dirname "$0")/lib.sh"
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-hostile.sh"

standin_prereqs
cd "$TRASH" || exit 1

CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$XDG_CONFIG_HOME/sched-bot"
cat >"$CFG" <<EOF
[bot]
	name = Sched Bot
	email = bot@sched-bot.example.org
	workloads = spawn
[tree]
	path = $TRASH/repo.git
[job]
	dir = $TRASH/jobs
	target = local
[state]
	db = $TRASH/lineage.db
[outbox]
	dir = $TRASH/outbox
	checkLore = false
[build]
	cacheDir = $TRASH/builds
	ccache = false
	baseConfig = tinyconfig
	fragmentDir = $TOP/kernel/configs
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
	test_grep "patches were measured already" dave-jobs/job-3/reply.eml &&
	test_grep "patches of v2 \[1\], by patch-id" dave-jobs/job-3/reply.eml &&
	test_grep "^\[1\] <$(cover_of dave2.mbox)>$" dave-jobs/job-3/reply.eml &&
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
	test_grep "^    same as    the patches of .*job-2, reported in <$(job_state_of 2 reply_msgid)>$" h &&
	test_grep "^    reply      none (bot.quiet)$" h &&
	test_grep "^    target     local, workloads spawn$" h
'

test_done
