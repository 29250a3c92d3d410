#!/bin/sh
# soak: `sched-bot cron --send` run poll after poll over a stream of
# series on a real public-inbox, replying through a real smtp-sink,
# while faults are injected before each run, one drawn at random: a
# kill -9 of cron some seconds in, the job directory's tmpfs full for
# the run, the SMTP server down for the run, or none.  Jobs are fast: a
# stand-in kernel tree (tests/lib-hostile.sh) and the local target.
# Then the invariants: every series got exactly one reply (one
# Message-ID, In-Reply-To its patch), none lost; no half file in the
# job directories or the outbox; the state database passes
# integrity_check; the disk stayed under the tmpfs.  Prints the figures.
#   SOAK_SERIES (6) series, SOAK_POLLS (60) runs at most, SOAK_SEED.
# run by hand or by tests/run-bench (which exports BUILD)
BUILD=${BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
export BUILD
. "$(dirname "$0")/../lib.sh"
TESTS=$(cd "$TESTS/.." && pwd)
TOP=$(cd "$TESTS/.." && pwd)
DATA=$TESTS/data
. "$TESTS/lib-hostile.sh"
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

SERIES=${SOAK_SERIES:-6}
POLLS=${SOAK_POLLS:-60}
SEED=${SOAK_SEED:-$$}
FIRST_SEED=$SEED

standin_prereqs
cd "$TRASH" || exit 1
[ "$(id -u)" = 0 ] || test_skip_all "mounting a tmpfs needs root"
command -v sqlite3 >/dev/null || test_skip_all "sqlite3 is not installed"
[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed"
D=$TRASH/disk
mkdir -p "$D"
mount -t tmpfs -o size=16m sched-bot-soak "$D" ||
	test_fail_all "cannot mount a tmpfs"
test_atexit 'umount "$D"'

# the series: one patch each to kernel/sched/fair.c of the stand-in
# tree, on its own branch, received now (lore's rt: reads it)
standin_tree || test_fail_all "cannot make the stand-in tree"
now=$(date -R)
i=1
while [ $i -le "$SERIES" ]; do
	git -C tree checkout -q -B s$i base &&
	echo "int soak$i;" >>tree/kernel/sched/fair.c &&
	git -C tree -c user.name=Dev -c user.email=dev@example.org \
		commit -qam "sched/fair: soak change $i" &&
	git -C tree format-patch -q -1 --stdout --base=base |
		sed -e "1a Received: from test by 127.0.0.1; $now" \
		    -e "1a Message-ID: <soak-$i@example.org>" \
		    -e "1a To: linux-kernel@vger.kernel.org" \
		    -e "s/^Date: .*/Date: $now/" >>series.mbox ||
		test_fail_all "cannot make series $i"
	i=$((i + 1))
done
git -C tree checkout -q base
git clone -q --bare tree repo.git || test_fail_all "cannot clone the tree"
bot_sink_start || test_fail_all "smtp-sink does not start"
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$XDG_CONFIG_HOME/sched-bot"
bot_config "$CFG"
# lore_start adds lore.url to that configuration
lore_start series.mbox || test_fail_all "public-inbox does not start"
while read -r k v; do
	git config -f "$CFG" "$k" "$v" || test_fail_all "cannot set $k"
done <<EOF
bot.runs 2
job.minRuns 2
job.maxRuns 2
bot.workloads pingpong
bot.maxPerHour 0
bot.maxPerDay 0
bot.maxPerThread 0
job.dir $D/jobs
job.target local
job.seconds 1
outbox.dir $D/outbox
tree.path $TRASH/repo.git
build.cacheDir $TRASH/builds
build.ccache false
build.baseConfig tinyconfig
build.fragmentDir $TOP/kernel/configs
cron.buildAhead false
cron.maxAttempts 1000
gc.maxDiskBytes 8000000
EOF
DB=$(git config -f "$CFG" state.db)

# R: a number below $1 from the seeded sequence (not in a subshell)
rand() {
	SEED=$(( (SEED * 1103515245 + 12345) % 2147483648 ))
	R=$(( (SEED / 65536) % $1 ))
}
replied() {
	cat "$TRASH"/sink/* 2>/dev/null |
		sed -n "s/^In-Reply-To: <\(soak-[0-9]*@example.org\)>.*/\1/p" |
		sort -u | grep -c . || true
}

polls=0 kills=0 fulls=0 downs=0 high=0 start=$(date +%s)
while [ $polls -lt "$POLLS" ]; do
	polls=$((polls + 1))
	rand 4
	case $R in
	0)	rc=0
		rand 20
		timeout -s KILL $((R + 1)) "$SCHED_BOT" -q cron --send --max-jobs 1 \
			>>cron.log 2>&1 || rc=$?
		[ $rc -ne 137 ] || kills=$((kills + 1)) ;;
	1)	fulls=$((fulls + 1))
		dd if=/dev/zero of="$D/fill" bs=4k 2>/dev/null
		"$SCHED_BOT" -q cron --send --max-jobs 1 >>cron.log 2>&1
		rm -f "$D/fill" ;;
	2)	downs=$((downs + 1))
		bot_sink_stop
		"$SCHED_BOT" -q cron --send --max-jobs 1 >>cron.log 2>&1
		bot_sink_start >/dev/null &&
		git config -f "$CFG" smtp.url "smtp://127.0.0.1:$SINK_PORT" ;;
	*)	"$SCHED_BOT" -q cron --send --max-jobs 1 >>cron.log 2>&1 ;;
	esac
	used=$(du -sk "$D" | cut -f1)
	[ "$used" -le "$high" ] || high=$used
	queued=$(sqlite3 "$DB" "SELECT count(*) FROM jobs WHERE outcome IS NULL")
	pending=$(sqlite3 "$DB" "SELECT count(*) FROM mails WHERE state = 'intent'")
	if [ "$(replied)" -eq "$SERIES" ] && [ "$queued" -eq 0 ] &&
	   [ "$pending" -eq 0 ]; then
		break
	fi
done

test_expect_success 'every series got exactly one reply' '
	i=1 && lost=0 && dup=0 &&
	while [ $i -le $SERIES ]; do
		n=$(grep -l "^In-Reply-To: <soak-$i@example.org>" sink/* |
			xargs grep -h -i "^Message-ID:" | sort -u | grep -c .) ||
			n=0
		[ "$n" -ge 1 ] || lost=$((lost + 1))
		[ "$n" -le 1 ] || dup=$((dup + n - 1))
		i=$((i + 1))
	done &&
	echo "$lost $dup" >lost-dup &&
	test $lost -eq 0 && test $dup -eq 0
'

test_expect_success 'no half file in the jobs or the outbox' '
	! find "$D" -name "*.tmp.*" | grep . &&
	! find "$D/outbox/tmp" -type f | grep .
'

test_expect_success 'the state database is whole' '
	test "$(sqlite3 "$DB" "PRAGMA integrity_check")" = ok
'

# a process of the bot still there after its runs (a kill -9 orphans
# the workload of a job under way until its time is up)
left=$(pgrep -f "^$SCHED_BOT " | grep -c .) || left=0
set -- $(cat lost-dup 2>/dev/null || echo "? ?")
sent=$(ls sink | grep -c .)
resent=$(cat sink/* | grep -i "^Message-ID:" | sort | uniq -d | grep -c .)
jobs=$(sqlite3 "$DB" "SELECT count(*) FROM jobs")
echo "# soak: seed $FIRST_SEED, $SERIES series, $polls polls in" \
	"$(($(date +%s) - start)) s, $jobs jobs"
echo "# faults: $kills kill -9, $fulls full disk, $downs smtp down"
echo "# replies: $sent mails in the sink, $(replied) series answered," \
	"lost $1, duplicate replies $2, same Message-ID resent $resent"
echo "# disk: high-water $high KiB of the 16 MiB tmpfs" \
	"(gc.maxDiskBytes 8000000); bot processes left: $left"
# before test_done removes the trash: the mount in it first
umount "$D"
test_done
