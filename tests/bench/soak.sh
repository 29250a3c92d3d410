#!/bin/sh
# soak: the soak test (tests/t6033-soak.sh) at bench size, 300 series
# by default: its invariants checked, its figures printed (series,
# faults by kind, replies, duplicates, lost, peak disk, peak RSS).
#   SOAK_SERIES (300), SOAK_SEED.
# run by hand, by `make soak` or by tests/run-bench (which exports BUILD)
BUILD=${BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
SOAK_SERIES=${SOAK_SERIES:-300}
export BUILD SOAK_SERIES
exec sh "$(dirname "$0")/../t6033-soak.sh"
