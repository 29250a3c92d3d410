#!/bin/sh
# tests/bench/workloads.sh - sched-bench next to the reference tools, in
# one run: pingpong (1 pair) vs perf bench sched pipe with the same
# placement, spawn vs stress-ng --fork with the same copies; ratios,
# run-to-run CV over RUNS runs, and sched-bench's own CPU use.
#
#   RUNS=5 SECONDS_PER_RUN=2 sh tests/bench/workloads.sh
#
# Units: sched-bench pingpong counts hand-offs (2 per round trip, as
# will-it-scale context_switch1); perf's "ops" are round trips, so the
# pingpong figure is divided by 2 before the ratio.  stress-ng's fork
# bogo op is one child reaped, like one spawn loop.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
SB=$BUILD/sched-bench
RUNS=${RUNS:-5}
T=${SECONDS_PER_RUN:-2}
ncpu=$(getconf _NPROCESSORS_ONLN)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have() { command -v "$1" >/dev/null 2>&1; }

# stats FILE: "mean cv%" of the numbers in FILE
stats() {
	awk '{ x[NR] = $1; s += $1 } END {
		if (!NR) { print "nan nan"; exit }
		m = s / NR; v = 0
		for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2
		sd = NR > 1 ? sqrt(v / (NR - 1)) : 0
		printf "%.1f %.1f\n", m, m ? 100 * sd / m : 0 }' "$1"
}

# value OUT WORKLOAD METRIC: the headline (sample 0) of a sched-bench run
value() {
	awk -F, -v m="$2" '$1 == "sample" && $5 == 0 && $6 == m { print $7; exit }' "$1"
}

stat_of() {
	awk -F, -v k="$2" '$1 == "stat" && $5 == k { print $6; exit }' "$1"
}

# harness OUT: sched-bench's own CPU time as % of the run's wall time
# foreign OUT: other load during the run, % of the machine
foreign() {
	awk -F, '$1 == "stat" && $5 == "foreign_cpu_pct" { printf "%.1f\n", $6; exit }' "$1"
}

harness() {
	awk -F, '$1 == "stat" && $5 == "harness_cpu_s" { c = $6 }
		 $1 == "stat" && $5 == "wall_s" { w = $6 }
		 END { if (w > 0) printf "%.3f\n", 100 * c / w }' "$1"
}

row() {
	# row NAME SB_FILE REF_FILE
	set -- "$1" $(stats "$2") $(stats "$3")
	ratio=$(awk -v a="$2" -v b="$4" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')
	printf "%-34s %12s %6s%% %12s %6s%% %7s\n" "$1" "$2" "$3" "$4" "$5" "$ratio"
}

echo "machine: $ncpu CPUs, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "NOTE: this machine may be shared with other jobs: figures are noisy;"
echo "      $RUNS runs of ${T} s each, sched-bench and the reference interleaved."
[ -x "$SB" ] || { echo "no $SB: run make first"; exit 1; }

: >"$tmp/harness"
: >"$tmp/foreign"
# A stand-in for UnixBench pgms/spawn built here (same method: alarm(),
# fork, child exit(0), parent wait(), COUNT line from the handler).
ub=""
if have cc; then
	cat >"$tmp/ubspawn.c" <<'SRC'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static unsigned long iter;
static void done(int sig)
{
	(void)sig;
	fprintf(stderr, "COUNT|%lu|1|lps\n", iter);
	exit(0);
}
int main(int argc, char **argv)
{
	int status;

	signal(SIGALRM, done);
	alarm(argc > 1 ? atoi(argv[1]) : 10);
	for (;;) {
		pid_t p = fork();
		if (p == 0)
			exit(0);
		if (p < 0 || wait(&status) < 0 || status)
			exit(2);
		iter++;
	}
}
SRC
	# UnixBench builds it dynamically linked; a static build shows how
	# much of any difference is the address space fork copies.
	cc -O2 -o "$tmp/ubspawn" "$tmp/ubspawn.c" && ub="$tmp/ubspawn"
	cc -O2 -static -o "$tmp/ubspawn-static" "$tmp/ubspawn.c" 2>/dev/null ||
		cp "$tmp/ubspawn" "$tmp/ubspawn-static"
fi

# ubspawn_run N PROG: N copies of PROG started back to back; summed COUNT / T
ubspawn_run() {
	for c in $(seq "$1"); do
		"$2" "$T" 2>"$tmp/cnt.$c" &
	done
	wait
	cat "$tmp"/cnt.* | awk -F"|" -v t="$T" '{ s += $2 } END { printf "%.1f\n", s / t }'
	rm -f "$tmp"/cnt.*
}
# -- ping-pong: pinned to CPU 0 (both tools), then free --------------
for place in pinned free; do
	: >"$tmp/sb.$place"
	: >"$tmp/perf.$place"
	for i in $(seq "$RUNS"); do
		if [ $place = pinned ]; then
			taskset -c 0 "$SB" pingpong -n 1 -t "$T" --warmup 1 \
				>"$tmp/out" 2>/dev/null
		else
			"$SB" pingpong -n 1 -t "$T" --warmup 1 --no-pin \
				>"$tmp/out" 2>/dev/null
		fi
		v=$(value "$tmp/out" handoffs)
		[ -n "$v" ] && echo "$v / 2" | bc -l >>"$tmp/sb.$place"
		harness "$tmp/out" >>"$tmp/harness"
		foreign "$tmp/out" >>"$tmp/foreign"
		if have perf; then
			loops=$((T * 100000))
			if [ $place = pinned ]; then
				taskset -c 0 perf bench sched pipe -l $loops >"$tmp/p" 2>&1
			else
				perf bench sched pipe -l $((loops / 4)) >"$tmp/p" 2>&1
			fi
			awk '/ ops\/sec/ { print $1 }' "$tmp/p" >>"$tmp/perf.$place"
		fi
	done
done

# -- spawn: 1 copy and all CPUs vs stress-ng --fork ------------------
for n in 1 "$ncpu"; do
	: >"$tmp/sb.spawn$n"
	: >"$tmp/ng.spawn$n"
	: >"$tmp/ub.spawn$n"
	: >"$tmp/ubs.spawn$n"
	for i in $(seq "$RUNS"); do
		"$SB" spawn -c "$n" -t "$T" --passes 1 --gap 0 >"$tmp/out" 2>/dev/null
		value "$tmp/out" lps >>"$tmp/sb.spawn$n"
		harness "$tmp/out" >>"$tmp/harness"
		foreign "$tmp/out" >>"$tmp/foreign"
		if [ -n "$ub" ]; then
			ubspawn_run "$n" "$ub" >>"$tmp/ub.spawn$n"
			ubspawn_run "$n" "$ub-static" >>"$tmp/ubs.spawn$n"
		fi
		if have stress-ng; then
			stress-ng --fork "$n" -t "$T" --metrics-brief 2>&1 |
				awk '$4 == "fork" && $5 ~ /^[0-9]/ { print $9 }' \
				>>"$tmp/ng.spawn$n"
		fi
	done
	[ "$ncpu" = 1 ] && break
done

echo
printf "%-34s %12s %7s %12s %7s %7s\n" "comparison (unit)" "sched-bench" "CV" \
	"reference" "CV" "ratio"
row "pingpong 1 pair, CPU 0 (rt/s)" "$tmp/sb.pinned" "$tmp/perf.pinned"
echo "    vs: taskset -c 0 perf bench sched pipe (ops/s = round trips/s)"
row "pingpong 1 pair, free (rt/s)" "$tmp/sb.free" "$tmp/perf.free"
echo "    vs: perf bench sched pipe, unpinned"
row "spawn -c 1 (lps)" "$tmp/sb.spawn1" "$tmp/ub.spawn1"
echo "    vs: UnixBench-method spawn (alarm-timed, built here, dynamic like UnixBench)"
row "spawn -c 1 (lps)" "$tmp/sb.spawn1" "$tmp/ubs.spawn1"
echo "    vs: the same, linked statically like sched-bench"
row "spawn -c 1 (lps)" "$tmp/sb.spawn1" "$tmp/ng.spawn1"
echo "    vs: stress-ng --fork 1 (bogo ops/s, real time)"
if [ "$ncpu" != 1 ]; then
	row "spawn -c $ncpu (lps)" "$tmp/sb.spawn$ncpu" "$tmp/ub.spawn$ncpu"
	echo "    vs: UnixBench-method spawn, $ncpu copies"
	row "spawn -c $ncpu (lps)" "$tmp/sb.spawn$ncpu" "$tmp/ubs.spawn$ncpu"
	echo "    vs: the same, linked statically"
	row "spawn -c $ncpu (lps)" "$tmp/sb.spawn$ncpu" "$tmp/ng.spawn$ncpu"
	echo "    vs: stress-ng --fork $ncpu"
fi
set -- $(stats "$tmp/sb.pinned") $(stats "$tmp/sb.free")
echo
echo "pinned / free pingpong (sched-bench): $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", b ? a / b : 0 }')x"
set -- $(stats "$tmp/sb.spawn1") $(stats "$tmp/sb.spawn$ncpu")
echo "spawn -c $ncpu / -c 1 (sched-bench): $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", a ? b / a : 0 }')x"
echo "other load during the sched-bench runs: $(stats "$tmp/foreign" | cut -d" " -f1)% of the machine on average"
echo "sched-bench's own CPU (sampling, records): $(sort -n "$tmp/harness" | tail -n 1)% of one CPU at most"
have perf || echo "perf not installed: perf columns empty"
have stress-ng || echo "stress-ng not installed: stress-ng columns empty"
