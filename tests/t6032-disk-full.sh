#!/bin/sh
# A full disk is a state, not a crash (issue 25).  The job directory and
# the outbox live on a small tmpfs, filled to the last page at the
# moments a job writes: the results, the job's state, the reply, the
# outbox.  Each time the job stops with exit 6, naming the file system;
# nothing it had recorded is lost, no half file is left (no temporary,
# no half row, no mail), and once the space is back the same command
# resumes and finishes, with every block measured once.  Then cron:
# a job stopped by a full disk waits as "disk-full" with no attempt
# counted and nothing sent, and sends exactly one reply once there is
# room.  Last, gc.minFree is checked before a manual test builds.
# A stand-in kernel tree (tests/lib-hostile.sh) and the local target
# make a job take seconds.
. "$(dirname "$0")/lib.sh"
. "$TESTS/lib-hostile.sh"
. "$TESTS/lib-bot.sh"

standin_prereqs
[ "$(id -u)" = 0 ] || test_skip_all "mounting a tmpfs needs root"
D=$TRASH/disk
mkdir -p "$D"
mount -t tmpfs -o size=4m,nr_inodes=4096 sched-bot-test "$D" 2>/dev/null ||
	test_skip_all "cannot mount a tmpfs here"
test_atexit 'umount "$D"'

mkdir -p "$XDG_CONFIG_HOME/sched-bot"
cat >"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[tree]
	path = $TRASH/repo.git
[job]
	dir = $D/jobs
	seconds = 1
[state]
	db = $TRASH/state.db
[outbox]
	dir = $D/outbox
	checkLore = false
[build]
	cacheDir = $TRASH/builds
	ccache = false
	baseConfig = tinyconfig
	fragmentDir = $TOP/kernel/configs
[smtp]
	url = smtp://127.0.0.1:1
EOF

# fill: take every free page of the tmpfs (a file per call, so that
# unfill gives them all back); no temporary file of the bot in the job.
fill() {
	dd if=/dev/zero of="$D/fill.$1" bs=4k 2>/dev/null
	test "$(stat -f -c %a "$D")" -eq 0
}
unfill() {
	rm -f "$D"/fill.*
}
no_half_files() {
	! find "$D" -name "*.tmp.*" | grep . &&
	! find "$D/outbox/tmp" -type f 2>/dev/null | grep .
}
# blocks FILE: the block numbers of results.csv, each with its rows
# (two labels, base first), as "block label" lines
blocks() {
	awk -F, 'NR > 1 { print $5, $1 }' "$1" | sort -u
}

test_expect_success 'setup: a stand-in tree and a patch to it' '
	standin_tree &&
	echo "int y;" >>tree/kernel/sched/fair.c &&
	git -C tree -c user.name=Dev -c user.email=dev@example.org \
		commit -qam "sched/fair: a change" &&
	git -C tree format-patch -q -1 --stdout --base=base >patch.mbox &&
	sed -i "2i Message-ID: <full-1@example.org>\\
To: linux-kernel@vger.kernel.org" patch.mbox &&
	git clone -q --bare tree repo.git &&
	git -C repo.git update-ref refs/heads/base \
		"$(git -C tree rev-parse base)"
'

J=$D/jobs/one
test_expect_success 'the job builds, then is killed after the build' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-build "$SCHED_BOT" test --mbox patch.mbox \
		--job-dir "$J" --target local --runs 2 --workloads spawn \
		>out 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "^stage=run$" "$J/state" &&
	cp "$J/state" state.before
'

test_expect_failure_code 'a full disk at the first results: exit 6' 6 '
	fill 1 &&
	"$SCHED_BOT" test --job-dir "$J" >out 2>err
'

test_expect_success '... naming the file system, nothing half written' '
	test_grep "the file system at $D is full" err &&
	test_grep "stopped at stage run" err &&
	test_grep "sched-bot gc" err &&
	test_grep "^stage=run$" "$J/state" &&
	no_half_files &&
	test ! -e "$J/results.csv" &&
	test ! -e "$J/reply.eml"
'

test_expect_success 'space back: the same command measures both blocks' '
	unfill &&
	"$SCHED_BOT" test --job-dir "$J" >out 2>err.5 ||
	{ rc=$?; test $rc -ne 6 || false; } &&
	test_grep "^stage=done$" "$J/state" &&
	blocks "$J/results.csv" >got &&
	test "$(cut -d" " -f1 got | sort -u | tr "\n" " ")" = "1 2 " &&
	test "$(wc -l <got)" -eq 4 &&
	m=$(cat out) &&
	test -f "$m" &&
	test_grep "^Message-ID: <" "$m"
'

J2=$D/jobs/two
test_expect_success 'a second job, killed after its compare' '
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-compare "$SCHED_BOT" test --mbox patch.mbox \
		--job-dir "$J2" --target local --runs 2 --workloads spawn \
		>out 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "^stage=reply$" "$J2/state" &&
	cp "$J2/results.csv" results.before &&
	cp "$J2/compare.json" compare.before
'

test_expect_failure_code 'the reply on a full disk: exit 6' 6 '
	fill 2 &&
	"$SCHED_BOT" test --job-dir "$J2" >out 2>err
'

test_expect_success '... no reply.eml, the results kept, the stage kept' '
	test_grep "stopped at stage reply" err &&
	test ! -e "$J2/reply.eml" &&
	test_grep "^stage=reply$" "$J2/state" &&
	cmp results.before "$J2/results.csv" &&
	cmp compare.before "$J2/compare.json" &&
	no_half_files
'

test_expect_success 'the reply written, then the outbox full: exit 6' '
	unfill &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-reply "$SCHED_BOT" test --job-dir "$J2" \
		>out 2>err || rc=$? &&
	test $rc -eq 137 &&
	test_grep "^stage=send$" "$J2/state" &&
	cp "$J2/reply.eml" reply.before &&
	ls "$D/outbox/new" >outbox.before &&
	fill 3 &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J2" >out 2>err || rc=$? &&
	test $rc -eq 6 &&
	test_grep "stopped at stage send" err &&
	test_grep "the file system at $D is full" err
'

test_expect_success '... no mail in the outbox, nothing half there' '
	test_grep "^stage=send$" "$J2/state" &&
	cmp reply.before "$J2/reply.eml" &&
	ls "$D/outbox/new" >outbox.after &&
	test_cmp outbox.before outbox.after &&
	no_half_files
'

test_expect_success 'space back: the reply goes to the outbox, once' '
	unfill &&
	"$SCHED_BOT" test --job-dir "$J2" >out 2>err ||
	{ rc=$?; test $rc -ne 6 || false; } &&
	test_grep "^stage=done$" "$J2/state" &&
	m=$(cat out) &&
	cmp reply.before "$m" &&
	test "$(ls "$D/outbox/new" | wc -l)" -eq \
		$(($(wc -l <outbox.before) + 1))
'

test_done
