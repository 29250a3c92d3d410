#!/bin/sh
# The soak (issue 25): `sched-bot cron --send` run after run over a
# stream of series on a real public-inbox, replying through a real
# smtp-sink, while faults are injected into the runs, each drawn from
# the seeded sequence on its own: lore answering 5xx, dropping the
# connection or hanging (the scripted server of lib-lore.sh in its
# place for the run); the SMTP server deferring (4xx), rejecting (5xx),
# hanging or gone (smtp-sink told to, or no server); a kill -9 at one
# of the bot's crash points (SCHED_BOT_CRASH_AT, bot/state.h) or at a
# random moment; the job directory's tmpfs full for the run.  Series
# arrive in batches while earlier ones are being worked on; some are
# re-rolled to v2, some do not apply.  Jobs take about a second: the
# stand-in kernel tree (tests/lib-hostile.sh), the local target with
# two jobs at once, and a stand-in hackbench that answers at once; every
# other run only polls and sends, which costs a tenth of one with jobs.
# Then: every revision got exactly one reply (one Message-ID,
# In-Reply-To its patch; or, where the mail policy keeps it off the
# list, its job's mail= recorded), or none and is quarantined (mail the bot
# stopped twice on in a poll: a recorded permanent failure), none
# lost; a Message-ID resent only in the window bot/state.h documents (a
# kill between SMTP's 250 and the outbox's rename); no half file;
# integrity_check ok; no process left over.  The figures (faults by
# kind, each counted where it took effect; replies; peak disk; peak
# RSS) are printed, not asserted.
#   SOAK_SERIES (20; 40 with SCHED_BOT_TEST_LONG), SOAK_SEED;
#   tests/bench/soak.sh runs 300.  Each run of the suite draws a new
#   seed, so the faults it covers add up over runs.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-hostile.sh"
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"

SERIES=${SOAK_SERIES:-$([ -n "${SCHED_BOT_TEST_LONG:-}" ] && echo 40 || echo 20)}
SEED=${SOAK_SEED:-$$}
FIRST_SEED=$SEED
BATCHES=4
# the runs it may take: each series needs a few, most runs carry a fault
POLLS=$((SERIES * 8 + 40))

standin_prereqs
cd "$TRASH" || exit 1
[ "$(id -u)" = 0 ] || test_skip_all "mounting a tmpfs needs root"
command -v sqlite3 >/dev/null || test_skip_all "sqlite3 is not installed"
[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed"
CC=${CC:-cc}
command -v "$CC" >/dev/null || test_skip_all "no C compiler ($CC)"
# The job directory and the outbox on a tmpfs: a finished job keeps
# about 100 KiB that gc never deletes (its results, reply, the runs'
# records, in 4 KiB pages), so it grows with the series; gc's budget is
# half of it.
MIB=$((SERIES / 5 + 16))
BUDGET=$((MIB * 524288))
D=$TRASH/disk
mkdir -p "$D"
mount -t tmpfs -o size=${MIB}m sched-bot-soak "$D" ||
	test_fail_all "cannot mount a tmpfs"
test_atexit 'umount "$D"'

# The stand-in hackbench: the local target runs the tools on PATH and
# takes only ELF programs (they are shipped to guests too), so a C one;
# a "Time:" a little different each run, as a real one prints.
mkdir -p bin
cat >bin/hackbench.c <<'EOF'
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("Time: 1.%03d\n", (int)(getpid() % 97));
	return 0;
}
EOF
"$CC" -o bin/hackbench bin/hackbench.c ||
	test_fail_all "cannot compile the stand-in hackbench"
PATH=$TRASH/bin:$PATH
export PATH

# R: a number below $1 from the seeded sequence (not in a subshell)
rand() {
	SEED=$(( (SEED * 1103515245 + 12345) % 2147483648 ))
	R=$(( (SEED / 65536) % $1 ))
}

# The series: one patch each to kernel/sched/fair.c of the stand-in
# tree, on its own branch; every eighth names a file the tree does not
# have (it does not apply); every fifth of the others comes again as
# v2, a batch later.  msg/N.eml without Received: (added when its batch
# is fed, so that lore's rt: is the feeding time), batch/K the files of
# batch K.
standin_tree || test_fail_all "cannot make the stand-in tree"
mkdir -p msg batch
git -C tree config user.name Dev
git -C tree config user.email dev@example.org
i=1
while [ $i -le "$SERIES" ]; do
	b=$(( (i - 1) * BATCHES / SERIES + 1 ))
	git -C tree checkout -q -B s$i base &&
	echo "int soak$i;" >>tree/kernel/sched/fair.c &&
	git -C tree commit -qam "sched/fair: soak change $i" &&
	git -C tree format-patch -q -1 --stdout --base=base |
		sed -e "1a Message-ID: <soak-$i@example.org>" \
		    -e "1a To: linux-kernel@vger.kernel.org" >msg/$i.eml ||
		test_fail_all "cannot make series $i"
	if [ $((i % 8)) -eq 4 ]; then
		sed -i "s,kernel/sched/fair\.c,kernel/sched/gone.c,g" msg/$i.eml
	elif [ $((i % 5)) -eq 0 ] && [ $b -lt $BATCHES ]; then
		echo "int soak${i}_v2;" >>tree/kernel/sched/fair.c &&
		git -C tree commit -q --amend -am "sched/fair: soak change $i" &&
		git -C tree format-patch -q -1 --stdout --base=base \
			--subject-prefix="PATCH v2" |
			sed -e "1a Message-ID: <soak-$i-v2@example.org>" \
			    -e "1a To: linux-kernel@vger.kernel.org" \
			>msg/$i-v2.eml ||
			test_fail_all "cannot make v2 of series $i"
		echo $i-v2 >>batch/$((b + 1))
	fi
	echo $i >>batch/$b
	i=$((i + 1))
done
git -C tree checkout -q base
git clone -q --bare tree repo.git || test_fail_all "cannot clone the tree"

# batch_mbox K: batch K's mails, received now
batch_mbox() {
	local now n
	now=$(date -R)
	: >feed.mbox
	while read -r n; do
		sed -e "1a Received: from test by 127.0.0.1; $now" \
		    -e "s/^Date: .*/Date: $now/" msg/$n.eml >>feed.mbox
		echo "soak-$n@example.org" >>expected
	done <batch/$1
}

# The SMTP servers: the one that keeps mail (sink/), and three that
# fail every mail on purpose: 4xx to DATA, 5xx to RCPT, no answer to
# DATA (a hang, with smtp.timeout 1 for that run); and a port where
# nothing listens.
bot_sink_start -r DATA || test_fail_all "smtp-sink does not start"
SMTP_DEFER=smtp://127.0.0.1:$SINK_PORT
bot_sink_start -f RCPT || test_fail_all "smtp-sink does not start"
SMTP_REJECT=smtp://127.0.0.1:$SINK_PORT
bot_sink_start -W DATA:30 || test_fail_all "smtp-sink does not start"
SMTP_HANG=smtp://127.0.0.1:$SINK_PORT
SMTP_DOWN=smtp://127.0.0.1:$(free_port)
bot_sink_start || test_fail_all "smtp-sink does not start"
SMTP_OK=smtp://127.0.0.1:$SINK_PORT
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$XDG_CONFIG_HOME/sched-bot"
bot_config "$CFG"
fake_http_start || test_fail_all "the scripted HTTP server does not start"
batch_mbox 1
# lore_start adds lore.url to that configuration
lore_start feed.mbox || test_fail_all "public-inbox does not start"
LORE=$LORE_URL
while read -r k v; do
	git config -f "$CFG" "$k" "$v" || test_fail_all "cannot set $k"
done <<EOF
bot.runs 2
job.minRuns 2
job.maxRuns 2
bot.workloads hackbench
bot.maxPerHour 0
bot.maxPerDay 0
bot.maxPerThread 0
bot.maxRecipientsPerHour 0
bot.maxRecipientsPerDay 0
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
gc.maxDiskBytes $BUDGET
target.local.maxLoad 1000
target.local.perf false
target.local.parallel 2
target.local.vouch true
EOF
DB=$(git config -f "$CFG" state.db)
fed=1

set_cfg() {
	git config -f "$CFG" "$1" "$2"
}

# the revisions whose reply the mail policy kept off the list (the
# stand-in's kernels are alike: identical binaries stay in the outbox,
# contrib/operating.md "Who gets which mail"), one line each
kept() {
	sqlite3 "$DB" "SELECT msgid FROM jobs WHERE mail IS NOT NULL AND mail != 'list'" 2>/dev/null |
		sort -u
}

# what the sink holds, and what the policy kept: the series answered,
# one line each
answered() {
	{ cat sink/* 2>/dev/null |
		sed -n "s/^In-Reply-To: <\(soak-[0-9v-]*@example.org\)>.*/\1/p"
	  kept; } | sort -u
}

# mail the bot stopped twice while handling (a kill in a poll) is
# quarantined as poison (mail.h): a recorded permanent failure
quarantined() {
	sqlite3 "$DB" "SELECT msgid FROM quarantine"
}

POINTS="poll-message poll-handled after-fetch after-series after-apply
after-build after-run after-compare after-reply after-send before-intent
intent-recorded smtp-sending smtp-accepted outbox-moved"
set -- $POINTS
NPOINTS=$#
: >faults
polls=0 high=0 start=$(date +%s)
while [ $polls -lt $POLLS ]; do
	polls=$((polls + 1))
	queued=0
	[ ! -f "$DB" ] || queued=$(sqlite3 "$DB" \
		"SELECT count(*) FROM jobs WHERE outcome IS NULL")
	if [ "$queued" -eq 0 ] && [ $fed -lt $BATCHES ]; then
		fed=$((fed + 1))
		batch_mbox $fed
		lore_add feed.mbox >/dev/null ||
			test_fail_all "cannot feed batch $fed to lore"
	fi
	# the faults of this run, each drawn on its own: lore, SMTP, a
	# kill, the disk (a hang costs its timeout, a second: seldom)
	lore= smtp= crash= kill= full= only=
	# every other run only polls and sends (--poll-only): the faults
	# of lore and SMTP at a tenth of the cost of a run with jobs
	rand 2
	[ $R -ne 0 ] || only=--poll-only
	rand 4
	case $R in
	0) lore=lore-5xx; fake_http_script "503 -" ;;
	1) lore=lore-drop; fake_http_script close ;;
	2) rand 4; [ $R -ne 0 ] || { lore=lore-hang; fake_http_script "sleep 2"; } ;;
	esac
	[ -z "$lore" ] || set_cfg lore.url "$FAKE_URL"
	[ "$lore" != lore-hang ] || set_cfg lore.timeout 1
	rand 5
	case $R in
	0) smtp=smtp-defer; set_cfg smtp.url "$SMTP_DEFER" ;;
	1) smtp=smtp-reject; set_cfg smtp.url "$SMTP_REJECT" ;;
	2) smtp=smtp-down; set_cfg smtp.url "$SMTP_DOWN" ;;
	3) rand 6
	   [ $R -ne 0 ] || { smtp=smtp-hang; set_cfg smtp.url "$SMTP_HANG"
			     set_cfg smtp.timeout 1; } ;;
	esac
	rand 12
	case $R in
	0|1|2|3|4) rand $NPOINTS; shift $R; crash=$1; set -- $POINTS ;;
	5|6) rand 15; kill=$(( (R + 1) / 10 )).$(( (R + 1) % 10 )) ;;
	esac
	rand 10
	if [ $R -eq 0 ]; then
		full=disk-full
		dd if=/dev/zero of="$D/fill" bs=4k 2>/dev/null
	fi
	reqs=$(wc -l <"$FAKE_LOG")
	rc=0
	SCHED_BOT_CRASH_AT=$crash timeout -s KILL "${kill:-600}" \
		"$SCHED_BOT" cron --send $only --max-jobs 4 >run.log 2>&1 ||
		rc=$?
	cat run.log >>cron.log
	echo "$polls $rc $(($(date +%s) - start)) $only $lore $smtp $crash $kill $full" \
		>>runs
	rm -f "$D/fill"
	set_cfg lore.url "$LORE"
	set_cfg smtp.url "$SMTP_OK"
	git config -f "$CFG" --unset lore.timeout
	git config -f "$CFG" --unset smtp.timeout
	# each fault counted where it took effect: every answer of the
	# scripted lore, every mail the SMTP server refused
	if [ -n "$lore" ]; then
		tail -n +$((reqs + 1)) "$FAKE_LOG" | sed "s/.*/$lore/" >>faults
	fi
	if [ -n "$smtp" ]; then
		grep "stays in .* for the next run" run.log |
			sed "s/.*/$smtp/" >>faults
	fi
	if [ -n "$crash" ] && grep -q "crash point '$crash' reached" run.log
	then
		echo "crash-$crash" >>faults
	elif [ -n "$kill" ] && [ $rc -eq 137 ]; then
		echo "kill-9" >>faults
	fi
	if [ -n "$full" ] && grep -q -i "disk full\|is full" run.log; then
		echo "$full" >>faults
	fi
	used=$(du -sk "$D" | cut -f1)
	[ "$used" -le "$high" ] || high=$used
	queued=$(sqlite3 "$DB" "SELECT count(*) FROM jobs WHERE outcome IS NULL")
	pending=$(sqlite3 "$DB" "SELECT count(*) FROM mails WHERE state = 'intent'")
	if [ $fed -eq $BATCHES ] && [ "$queued" -eq 0 ] &&
	   [ "$pending" -eq 0 ] &&
	   [ $(( $(answered | grep -c .) + $(quarantined | grep -c .) )) \
	     -ge "$(grep -c . expected)" ]; then
		break
	fi
done
secs=$(($(date +%s) - start))

test_expect_success 'each revision: one reply (sent, or kept by the policy), or quarantined and none' '
	quarantined >quarantined &&
	kept >kept &&
	lost=0 dup=0 &&
	while read -r m; do
		n=$(grep -l "^In-Reply-To: <$m>" sink/* |
			xargs grep -h -i "^Message-ID:" | sort -u | grep -c .) ||
			n=0
		q=$(grep -c -x -F "$m" quarantined) || q=0
		k=$(grep -c -x -F "$m" kept) || k=0
		n=$((n + k))
		[ $((n + q)) -ge 1 ] || { echo "lost: $m"; lost=$((lost + 1)); }
		[ $((n + q)) -le 1 ] ||
			{ echo "$n replies, $q quarantined: $m"
			  dup=$((dup + n + q - 1)); }
	done <expected &&
	echo "$lost $dup" >lost-dup &&
	test $lost -eq 0 && test $dup -eq 0
'

# bot/state.h: a kill between the server's 250 and the outbox's rename
# sends the mail again, with the same Message-ID (which lore and b4
# deduplicate); nowhere else
test_expect_success 'a reply resent only after a kill at smtp-accepted' '
	cat sink/* | grep -i "^Message-ID:" | sort | uniq -d >resent &&
	test $(grep -c . resent) -le $(grep -c "^crash-smtp-accepted$" faults)
'

test_expect_success 'no reply to anything but the series' '
	test $(grep -l "^In-Reply-To: <soak-" sink/* | grep -c .) -eq \
		$(ls sink | grep -c .)
'

test_expect_success 'no half file in the jobs or the outbox' '
	! find "$D" -name "*.tmp.*" | grep . &&
	! find "$D/outbox/tmp" -type f | grep .
'

test_expect_success 'the state database is whole' '
	test "$(sqlite3 "$DB" "PRAGMA integrity_check")" = ok
'

test_expect_success 'no process of the bot outlived its run' '
	# the processes of this script only: another sched-bot may be running
	test -z "$(test_procs "^\Q$SCHED_BOT\E ")" &&
	test -z "$(test_procs "^\Q$TRASH/bin/hackbench\E")"
'

set -- $(cat lost-dup 2>/dev/null || echo "? ?")
peak_rss() {
	sed -n "s/^$1[0-9 ]*: peak RSS \([0-9]*\) KiB$/\1/p" cron.log |
		sort -n | tail -n 1
}
echo "# soak: seed $FIRST_SEED, $(grep -c . expected) series revisions" \
	"($SERIES series), $polls runs in $secs s," \
	"$(sqlite3 "$DB" "SELECT count(*) FROM jobs") jobs"
echo "# faults: $(grep -c . faults):" \
	$(sort faults | uniq -c | awk '{ printf "%s %s,", $1, $2 }' |
	  sed 's/,$//')
echo "# replies: $(ls sink | grep -c .) mails in the sink," \
	"$(answered | grep -c .) revisions answered," \
	"$(grep -c . quarantined || true) quarantined, lost $1," \
	"duplicate replies $2, same Message-ID resent" \
	"$(cat resent 2>/dev/null | grep -c . || true)"
echo "# peak disk $high KiB of the $MIB MiB tmpfs (gc.maxDiskBytes" \
	"$BUDGET); peak RSS $(peak_rss cron) KiB of cron," \
	"$(peak_rss job) KiB of a job's process"
# before test_done removes the trash: the mount in it first
umount "$D"
test_done
