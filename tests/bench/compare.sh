#!/bin/sh
# How long `sched-bot compare` takes on a large results CSV: 2 kernels x
# 40 metrics x 10 runs x 60 per-second samples (48,000 rows); the
# per-metric figures of the rule (test-compare, one KPI, unpaired) and
# the job-level ones (test-verdict: 20 KPIs a job, the false-alarm rate
# of a job, the power and the mean runs of the adaptive rule, 10000
# simulated jobs a setting).  Prints figures, asserts nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk 'BEGIN {
	print "label,kernel,workload,params,run,metric,value,unit,higher_is_better,sample"
	srand(1)
	for (k = 0; k < 2; k++)
		for (m = 0; m < 40; m++)
			for (r = 1; r <= 10; r++)
				for (s = 1; s <= 60; s++)
					printf "%s,6.1,pingpong,pairs=%d,%d,ops,%.3f,ops/s,1,%d\n",
						k ? "patched" : "base", m + 1, r,
						1000 * (m + 1) * (1 + (rand() - 0.5) / 50), s
}' >"$tmp/big.csv"
rows=$(($(wc -l <"$tmp/big.csv") - 1))

for f in simple lkp plot; do
	start=$(date +%s.%N)
	"$BUILD/sched-bot" compare "$tmp/big.csv" -f $f >/dev/null
	end=$(date +%s.%N)
	echo "compare -f $f: $rows rows in $(echo "$end - $start" | bc) s"
done
start=$(date +%s.%N)
"$BUILD/tests/unit/test-compare" 2>/dev/null | grep '^# [0-9A-C]'
end=$(date +%s.%N)
echo "test-compare (7000 comparisons): $(echo "$end - $start" | bc) s"
echo "job level (per job: regression / improvement / either called falsely, the"
echo "changed KPI found, runs a side):"
start=$(date +%s.%N)
SCHED_BOT_BENCH=1 "$BUILD/tests/unit/test-verdict" 2>/dev/null |
	grep ', 10000 jobs:' | sed 's/^# /  /'
end=$(date +%s.%N)
echo "test-verdict (the unit test and 260,000 jobs): $(echo "$end - $start" | bc) s"
