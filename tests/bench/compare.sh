#!/bin/sh
# How long `sched-bot compare` takes on a large results CSV: 2 kernels x
# 40 metrics x 10 runs x 60 per-second samples (48,000 rows), and the
# 1000-trial statistical unit test.  Prints figures, asserts nothing.
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
