#!/bin/sh
# The unpaired family (`compare A.csv B.csv`, runs of two files): 20
# KPIs a job, the variances moderated over the family, each KPI's own
# Welch test the guard.  Per setting 10000 simulated jobs (test-verdict,
# fixed seeds): the false-alarm rate of a job with no change (also with
# one KPI at 3 and 10 times the others' CV) and how often one changed
# KPI is found.  Prints figures, asserts nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}

echo "two files, unpaired (per job: regression / improvement / either called"
echo "falsely, the changed KPI found, runs a side):"
start=$(date +%s.%N)
SCHED_BOT_BENCH=unpaired "$BUILD/tests/unit/test-verdict" 2>/dev/null |
	grep ', 10000 jobs:' | sed 's/^# /  /'
end=$(date +%s.%N)
echo "test-verdict (the unit test and 70,000 jobs): $(echo "$end - $start" | bc) s"
