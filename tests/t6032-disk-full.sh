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
test_tier nokernel
test_host_sched read
. "$TESTS/lib-hostile.sh"
. "$TESTS/lib-bot.sh"

standin_prereqs
[ "$(id -u)" = 0 ] || test_skip_all "mounting a tmpfs needs root"
D=$TRASH/disk
mkdir -p "$D"
mount -t tmpfs -o size=4m,nr_inodes=4096 sched-bot-test "$D" 2>/dev/null ||
	test_skip_all "cannot mount a tmpfs here"
test_atexit 'umount "$D"'

standin_job_config "$XDG_CONFIG_HOME/sched-bot/config" "$D" ||
	test_fail_all "cannot write the configuration"
cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[job]
	seconds = 1
[smtp]
	url = smtp://127.0.0.1:1
EOF

# fill: take every free page of the tmpfs (a file per call, so that
# unfill gives them all back); no temporary file of the bot in the job.
fill() {
	dd if=/dev/zero of="${2:-$D}/fill.$1" bs=4k 2>/dev/null
	test "$(stat -f -c %a "${2:-$D}")" -eq 0
}
unfill() {
	rm -f "${1:-$D}"/fill.*
}
no_half_files() {
	! find "$D" "$TRASH/outbox" -name "*.tmp.*" | grep . &&
	! find "$D/outbox/tmp" "$TRASH/outbox/tmp" -type f 2>/dev/null |
		grep .
}
# crash_at POINT STAGE DIR [OPTION...]: `sched-bot test` of the job in
# DIR (with OPTIONs) is killed at crash point POINT, with STAGE next
crash_at() {
	local point=$1 stage=$2 dir=$3 rc=0
	shift 3
	SCHED_BOT_CRASH_AT=$point "$SCHED_BOT" test --job-dir "$dir" "$@" \
		>out 2>err || rc=$?
	test $rc -eq 137 &&
	test_grep "^stage=$stage$" "$dir/state"
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
	crash_at after-build run "$J" --mbox patch.mbox --target local \
		--runs 2 --workloads pingpong &&
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
	crash_at after-compare reply "$J" &&
	blocks "$J/results.csv" >got &&
	printf "1 base\n1 patched\n2 base\n2 patched\n" >want &&
	test_cmp want got &&
	cp "$J/results.csv" results.before &&
	cp "$J/compare.json" compare.before
'

test_expect_failure_code 'the reply on a full disk: exit 6' 6 '
	fill 2 &&
	"$SCHED_BOT" test --job-dir "$J" >out 2>err
'

test_expect_success '... no reply.eml, the results kept, the stage kept' '
	test_grep "stopped at stage reply" err &&
	test_grep "the file system at $D is full" err &&
	test ! -e "$J/reply.eml" &&
	test_grep "^stage=reply$" "$J/state" &&
	cmp results.before "$J/results.csv" &&
	cmp compare.before "$J/compare.json" &&
	no_half_files
'

# the mails of the outbox (tmp/, new/, cur/), one a line
outbox_mails() {
	find "$D" -path "$D/outbox/*" -type f
}

test_expect_success 'the reply written, then the outbox full: exit 6' '
	unfill &&
	crash_at after-reply send "$J" &&
	cp "$J/reply.eml" reply.before &&
	fill 3 &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J" >out 2>err || rc=$? &&
	test $rc -eq 6 &&
	test_grep "stopped at stage send" err &&
	test_grep "the file system at $D is full" err
'

test_expect_success '... no mail in the outbox, nothing half there' '
	test_grep "^stage=send$" "$J/state" &&
	cmp reply.before "$J/reply.eml" &&
	outbox_mails >mails &&
	test "$(wc -l <mails)" -eq 0 &&
	no_half_files
'

test_expect_success 'space back: the reply goes to the outbox, once' '
	unfill &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J" >out 2>err || rc=$? &&
	test $rc -ne 6 &&
	test_grep "^stage=done$" "$J/state" &&
	m=$(cat out) &&
	cmp reply.before "$m" &&
	outbox_mails >mails &&
	test "$(wc -l <mails)" -eq 1
'

CFG=$XDG_CONFIG_HOME/sched-bot/config
test_expect_failure_code 'below gc.minFree a manual test does not start' 6 '
	git config -f "$CFG" gc.minFree 1125899906842624 &&
	"$SCHED_BOT" test --mbox patch.mbox --job-dir "$TRASH/floor" \
		--target local --runs 2 --workloads pingpong >out 2>err
'

test_expect_success '... naming the path, the bytes free and needed, gc' '
	test_grep "bytes free on $TRASH/builds.s file system, 1125899906842624 needed (gc.minFree)" err &&
	test_grep "sched-bot gc" err &&
	test ! -e "$TRASH/floor/state" &&
	test_grep ! "building the" err
'

test_expect_success 'a job past its builds is not held by the floor' '
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$J" >out 2>err || rc=$? &&
	test $rc -ne 6 &&
	test_grep ! "disk full" err &&
	test_grep "^outcome: " err &&
	git config -f "$CFG" --unset gc.minFree
'

# A build that runs out of space is the machine's failure, not the
# patch's: the build cache on the tmpfs too, branch big of the stand-in
# tree whose bzImage writes 1 MiB more, a patch on it, and 512 KiB free.
# And a Makefile that only prints strerror(ENOSPC), with room on the
# disk, is the patch's failure still.
cat >"$TRASH/big.mk" <<'MK'
mkdir -p $(O)/arch/x86/boot
head -c 1048576 /dev/zero >$(O)/blob
{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage
MK
cat >"$TRASH/liar.mk" <<'MK'
echo "ld: final link failed: No space left on device"
false
MK
# patch_on BRANCH ID: a patch on BRANCH of the stand-in tree, in ID.mbox
patch_on() {
	git -C tree checkout -q -B "$2" "$1" &&
	echo "int $2;" >>tree/kernel/sched/fair.c &&
	git -C tree -c user.name=Dev -c user.email=dev@example.org \
		commit -qam "sched/fair: $2" &&
	git -C tree format-patch -q -1 --stdout --base="$1" >"$2.mbox" &&
	sed -i "2i Message-ID: <$2@example.org>\\
To: linux-kernel@vger.kernel.org" "$2.mbox" &&
	git -C tree checkout -q base &&
	git -C repo.git fetch -q "$TRASH/tree" "$1:refs/heads/$1"
}
B=$D/jobs/big
test_expect_failure_code 'make out of space: exit 6, as a full disk' 6 '
	hostile bzImage "$TRASH/big.mk" big &&
	patch_on big on-big &&
	git config -f "$CFG" build.cacheDir "$D/builds" &&
	dd if=/dev/zero of="$D/fill.6a" bs=4k count=128 2>/dev/null &&
	fill 6 &&
	rm "$D/fill.6a" &&
	"$SCHED_BOT" test --mbox on-big.mbox --job-dir "$B" --target local \
		--runs 2 --workloads pingpong >out 2>err
'

test_expect_success '... not blamed on the patch: no report, O= emptied' '
	test_grep "ran out of space in $D/builds/.*the machine.s failure" err &&
	test_grep "stopped at stage build: the file system at $D is full" err &&
	test_grep "^stage=build$" "$B/state" &&
	test_grep ! "build-failed" "$B/state" &&
	test ! -e "$B/reply.eml" &&
	test "$(find "$D/builds" -name blob | wc -l)" -eq 0 &&
	no_half_files
'

test_expect_success 'space back: the same command builds both kernels' '
	unfill &&
	crash_at after-build run "$B" &&
	rm -rf "$B" "$D/builds"
'

test_expect_success 'ENOSPC printed with room to spare: the patch failed' '
	hostile bzImage "$TRASH/liar.mk" liar &&
	patch_on liar on-liar &&
	git config -f "$CFG" gc.minFree 1 &&
	rc=0 &&
	"$SCHED_BOT" test --mbox on-liar.mbox --job-dir "$D/jobs/liar" \
		--target local --runs 2 --workloads pingpong >out 2>err ||
		rc=$? &&
	git config -f "$CFG" --unset gc.minFree &&
	git config -f "$CFG" build.cacheDir "$TRASH/builds" &&
	test $rc -eq 1 &&
	test_grep ! "ran out of space" err &&
	test_grep "build-failed" "$D/jobs/liar/state" &&
	test_grep "kernel did not build" "$D/jobs/liar/reply.eml" &&
	rm -rf "$D/jobs/liar" "$D/builds"
'

# cron: the job of the fixture stopped before its reply (as in t6001),
# its directory and the outbox on the tmpfs, smtp-sink for the mail.
if [ ! -x "$SMTP_SINK" ]; then
	test_skip_rest "smtp-sink not installed (contrib/install-deps)"
elif ! bot_sink_start; then
	test_fail_all "smtp-sink does not start"
fi
git config -f "$CFG" smtp.url "smtp://127.0.0.1:${SINK_PORT:-1}"
git config -f "$CFG" bot.name "Sched Bot"
git config -f "$CFG" bot.email "bot@sched-bot.example.org"
git config -f "$CFG" cron.buildAhead false
# the fixture's target stands in for a machine fit to vouch, as in
# bot_config: its reply goes to the list
git config -f "$CFG" target.qemu.vouch true
DB=$TRASH/state.db
attempts() {
	sqlite3 "$DB" "SELECT attempts FROM jobs WHERE id = $1"
}
# fixture_job: a queued job whose directory is the fixture stopped
# before its reply; its id in ./id and $id
fixture_job() {
	"$SCHED_BOT" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
	id=$(cat id) &&
	bot_job job-tested "$D/jobs/job-$id"
}

test_expect_success 'cron on a full disk: the job waits as disk-full' '
	fixture_job &&
	fill 4 &&
	rc=0 &&
	"$SCHED_BOT" cron --no-poll --send 2>err || rc=$? &&
	test $rc -eq 6 &&
	test_grep "the file system at $D is full" err &&
	test "$(sqlite3 "$DB" "SELECT stage FROM jobs WHERE id = $id")" = disk-full &&
	test "$(attempts $id)" -eq 0 &&
	test_grep "^stage=reply$" "$D/jobs/job-$id/state" &&
	test "$(bot_sink_count)" -eq 0 &&
	no_half_files
'

test_expect_success '... and again: still no attempt counted, no mail' '
	rc=0 &&
	"$SCHED_BOT" cron --no-poll --send 2>err || rc=$? &&
	test $rc -eq 6 &&
	test "$(attempts $(cat id))" -eq 0 &&
	test "$(bot_sink_count)" -eq 0
'

test_expect_success 'space back: one reply sent, once' '
	unfill &&
	"$SCHED_BOT" cron --no-poll --send 2>err &&
	id=$(cat id) &&
	test_grep "^stage=done$" "$D/jobs/job-$id/state" &&
	test "$(attempts $id)" -eq 1 &&
	test "$(bot_sink_count)" -eq 1 &&
	"$SCHED_BOT" cron --no-poll --send 2>err &&
	test "$(bot_sink_count)" -eq 1
'

# The outbox on a file system of its own: a job's lock file, which its
# end removes, gives back a page of the jobs' file system.
O=$TRASH/outbox
mkdir -p "$O"
mount -t tmpfs -o size=1m sched-bot-test "$O" ||
	test_fail_all "cannot mount a second tmpfs"
test_atexit 'umount "$O"'
git config -f "$CFG" outbox.dir "$O"

test_expect_success 'the outbox full after the intent: nothing sent' '
	fixture_job &&
	rc=0 &&
	SCHED_BOT_CRASH_AT=after-reply "$SCHED_BOT" cron --no-poll --send \
		2>err || rc=$? &&
	test $rc -eq 137 &&
	fill 5 "$O" &&
	rc=0 &&
	"$SCHED_BOT" cron --no-poll --send 2>err || rc=$? &&
	test $rc -eq 6 &&
	test_grep "stopped at stage send" err &&
	test_grep "the file system at $O is full" err &&
	test_grep "job $id: stopped: disk full" err &&
	test "$(bot_sink_count)" -eq 1 &&
	rc=0 &&
	"$SCHED_BOT" cron --no-poll --send 2>err || rc=$? &&
	test $rc -eq 6 &&
	test "$(attempts $id)" -eq 1 &&
	test "$(bot_sink_count)" -eq 1 &&
	no_half_files
'

test_expect_success 'space back: that reply too, exactly once' '
	unfill "$O" &&
	"$SCHED_BOT" cron --no-poll --send 2>err &&
	"$SCHED_BOT" cron --no-poll --send 2>>err &&
	test_grep "^stage=done$" "$D/jobs/job-$(cat id)/state" &&
	test "$(bot_sink_count)" -eq 2 &&
	test "$(bot_sink_msgids)" -eq 2
'

# The state database on a full file system of its own (a copy of it,
# checkpointed): a clear error, exit 6, nothing recorded, nothing sent.
S=$TRASH/statedb
mkdir -p "$S"
mount -t tmpfs -o size=1m sched-bot-test "$S" ||
	test_fail_all "cannot mount a third tmpfs"
test_atexit 'umount "$S"'

test_expect_success 'the state database on a full disk: exit 6, no mail' '
	fixture_job &&
	sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	cp "$DB" "$S/state.db" &&
	git config -f "$CFG" state.db "$S/state.db" &&
	fill 7 "$S" &&
	rc=0 &&
	"$SCHED_BOT" cron --no-poll --send 2>err || rc=$? &&
	test $rc -eq 6 &&
	test_grep "the file system of $S/state.db is full" err &&
	test_grep "nothing of this change is recorded" err &&
	test_grep ! "job $id:" err &&
	test "$(bot_sink_count)" -eq 2 &&
	test_grep "^stage=reply$" "$D/jobs/job-$id/state"
'

test_expect_success 'space back: its reply, exactly once' '
	unfill "$S" &&
	"$SCHED_BOT" cron --no-poll --send 2>err &&
	"$SCHED_BOT" cron --no-poll --send 2>>err &&
	test_grep "^stage=done$" "$D/jobs/job-$(cat id)/state" &&
	test "$(bot_sink_count)" -eq 3 &&
	test "$(bot_sink_msgids)" -eq 3 &&
	test "$(sqlite3 "$S/state.db" "PRAGMA integrity_check")" = ok
'

# before test_done removes the trash: the mounts in it first
umount "$S" "$O" "$D"
test_done
