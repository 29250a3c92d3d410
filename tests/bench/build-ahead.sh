#!/bin/sh
# Bases built ahead: the lore-to-outbox wall time of a cron job whose
# base nobody built (cold: the job fetches the base and builds it, then
# the patched kernel) beside one whose base cron built ahead when the
# branch moved (warm: only the patched kernel is built), on the real
# kernel with the QEMU settings of the job tests, and the machine's
# load.  Lore-to-outbox is the cron run that polls the new series up to
# its reply in the outbox.  Both bases are one fair.c commit past the
# last build, so "cold" is an incremental base build, as on a bot that
# builds every day.  Uses the tests' kernel cache; takes minutes.
. "$(dirname "$0")/../lib.sh"
TESTS=$(cd "$TESTS/.." && pwd)
TOP=$(cd "$TESTS/.." && pwd)
DATA=$TESTS/data
test_atexit "rm -rf '$TRASH'"
. "$TESTS/lib-kernel.sh"
kernel_prereqs
command -v qemu-system-x86_64 >/dev/null || test_skip_all "no QEMU"
command -v public-inbox-httpd >/dev/null 2>&1 || {
	echo "public-inbox not installed: no build-ahead figures"
	exit 0
}
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-buildahead.sh"
export GIT_CONFIG_NOSYSTEM=1
CFG=$XDG_CONFIG_HOME/sched-bot/config

now() {
	date +%s%N
}

secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'
}

load() {
	cut -d" " -f1-3 /proc/loadavg
}

fail() {
	echo "$1"
	[ -f "${2:-/dev/null}" ] && tail -n 30 "$2"
	exit 1
}

lore_start || fail "lore_start failed"
ba_serve || fail "cannot serve the tip tree"
test_atexit "kill $BA_DAEMON_PID"
ba_config || fail "cannot configure the bot"
stamp=$(date +%s).$$
box=$XDG_DATA_HOME/sched-bot/outbox/new

# Cron has seen sched/core as it stands (the import): only moves count.
"$SCHED_BOT" cron --no-poll >/dev/null 2>"$TRASH/first.err" ||
	fail "the first cron run failed" "$TRASH/first.err"

# Cold: no build ahead; the job fetches the new base and builds it.
git config -f "$CFG" cron.buildAhead false
c1=$(ba_move "cold-$stamp") || fail "cannot move the branch"
ba_series "$c1" "cold-$stamp" "$TRASH/cold.mbox" || fail "no series"
lore_add "$TRASH/cold.mbox" || fail "lore_add failed"
cold_load0=$(load)
t0=$(now)
"$SCHED_BOT" cron >/dev/null 2>"$TRASH/cold.err" ||
	fail "the cold cron run failed" "$TRASH/cold.err"
t1=$(now)
cold_load1=$(load)
cold=$(secs "$t0" "$t1")
[ "$(ls "$box" | grep -c .)" -eq 1 ] ||
	fail "the cold job left no reply in the outbox" "$TRASH/cold.err"
! grep -q "base build reused" "$TRASH/cold.err" ||
	fail "the cold job's base was built before" "$TRASH/cold.err"

# Warm: the branch moves, cron builds it ahead, then the series comes.
git config -f "$CFG" cron.buildAhead true
c2=$(ba_move "warm-$stamp") || fail "cannot move the branch"
t0=$(now)
"$SCHED_BOT" cron --no-poll >/dev/null 2>"$TRASH/ahead.err" ||
	fail "the build-ahead cron run failed" "$TRASH/ahead.err"
t1=$(now)
ahead=$(secs "$t0" "$t1")
grep -q "build ahead: tip/sched/core $(echo "$c2" | cut -c1-12) built$" \
	"$TRASH/ahead.err" || fail "cron did not build the head" "$TRASH/ahead.err"
git config -f "$CFG" cron.buildAhead false
ba_series "$c2" "warm-$stamp" "$TRASH/warm.mbox" || fail "no series"
lore_add "$TRASH/warm.mbox" || fail "lore_add failed"
warm_load0=$(load)
t0=$(now)
"$SCHED_BOT" cron >/dev/null 2>"$TRASH/warm.err" ||
	fail "the warm cron run failed" "$TRASH/warm.err"
t1=$(now)
warm_load1=$(load)
warm=$(secs "$t0" "$t1")
[ "$(ls "$box" | grep -c .)" -eq 2 ] ||
	fail "the warm job left no reply in the outbox" "$TRASH/warm.err"
grep -q "base build reused: $(echo "$c2" | cut -c1-12)" "$TRASH/warm.err" ||
	fail "the warm job did not reuse the base build" "$TRASH/warm.err"

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
echo "jobs: spawn, 2 runs a side of 2 s, QEMU -smp 2 (TCG unless KVM is there)"
printf 'lore-to-outbox, cold (base built in the job): %7s s  load %s -> %s\n' \
	"$cold" "$cold_load0" "$cold_load1"
printf 'lore-to-outbox, warm (base built ahead):      %7s s  load %s -> %s\n' \
	"$warm" "$warm_load0" "$warm_load1"
printf 'the build ahead (a cron run in idle time):    %7s s\n' "$ahead"
awk -v c="$cold" -v w="$warm" 'BEGIN {
	printf "warm/cold:                                    %7.2f\n", c ? w / c : 0 }'
# How incremental each build was: objects compiled (ccache may hit).
ncc() {
	grep -c "^  CC " "$1" 2>/dev/null || echo "?"
}
jobs=$XDG_DATA_HOME/sched-bot/jobs
echo "objects compiled: cold job base $(ncc "$jobs/job-1/build-base.log")," \
	"head $(ncc "$jobs/job-1/build-head.log");" \
	"ahead $(ncc "$jobs/job-2/build-base.log"), warm job head" \
	"$(ncc "$jobs/job-2/build-head.log")"

# The artefacts of this run's four builds are of commits no run repeats.
for j in 1 2; do
	sed -n "s/^\(base\|head\)_commit=//p" \
		"$XDG_DATA_HOME/sched-bot/jobs/job-$j/state" 2>/dev/null
done | while read -r rev; do
	rm -rf $(ba_art "$rev")
done
