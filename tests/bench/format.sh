#!/bin/sh
# tests/bench/format.sh - how fast the table-format scan reads a thread:
# `compare -f auto --thread` (scan and render) next to `compare -f lkp`
# (render only) on the largest corpus thread, a large synthetic mbox and
# hostile ones (one 64 MB line; 200000 tiny tables), with peak RSS.
# Prints figures; asserts nothing about speed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
BOT=$BUILD/sched-bot
I=$top/tests/data/intake
CSV=$top/tests/data/compare/sweep.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() {
	date +%s.%N
}

# "peak-RSS-kB" of one run (GNU time if present).
rss() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -n 1
	else
		echo "n/a"
	fi
}

# ms of ROUNDS runs of a command, per run
per_run() {
	rounds=$1
	shift
	t0=$(now)
	i=0
	while [ $i -lt "$rounds" ]; do
		"$@" >/dev/null 2>&1
		i=$((i + 1))
	done
	t1=$(now)
	echo "$t0 $t1 $rounds" | awk '{ printf "%.1f", ($2 - $1) * 1000 / $3 }'
}

# bench NAME MBOX ROUNDS
bench() {
	name=$1 mbox=$2 rounds=$3
	bytes=$(wc -c <"$mbox")
	base=$(per_run "$rounds" "$BOT" compare "$CSV" -f lkp)
	scan=$(per_run "$rounds" "$BOT" compare "$CSV" -f auto --thread "$mbox")
	kb=$(rss "$BOT" compare "$CSV" -f auto --thread "$mbox")
	pick=$("$BOT" compare "$CSV" -f auto --thread "$mbox" 2>&1 >/dev/null |
		sed -n 's/^table format \([a-z]*\).*/\1/p')
	awk -v n="$name" -v b="$bytes" -v base="$base" -v scan="$scan" \
	    -v kb="$kb" -v p="$pick" 'BEGIN {
		d = scan - base
		rate = d > 0 ? b / 1e6 / (d / 1000) : 0
		printf "%-26s %7.2f MB  scan %7.1f ms  (%6.1f MB/s)  peak RSS %s kB  -> %s\n",
			n, b / 1e6, d, rate, kb, p
	}'
}

bench "largest thread (rootdomain)" \
	"$I/cgroups/sched-dl-rootdomain-hotplug-v2.mbox" 10

for k in 0 1 2 3 4 5 6 7 8 9; do
	for f in "$I"/cgroups/*.mbox "$I"/lkml/*/*.mbox; do
		sed -E "s/^(Message-ID|In-Reply-To|References):(.*)@/\1:\2.c$k@/I; s/^([ \t]+<[^@]*)@/\1.c$k@/" "$f"
	done
done >"$tmp/big.mbox"
bench "synthetic (corpus x10)" "$tmp/big.mbox" 3

{
	printf 'From: a@x\nMessage-ID: <line@x>\n\n'
	head -c 67108864 /dev/zero | tr '\0' '|'
	printf '\n'
} >"$tmp/line.eml"
bench "hostile: one 64 MB line" "$tmp/line.eml" 1

{
	printf 'From: a@x\nMessage-ID: <many@x>\n\n'
	awk 'BEGIN { for (i = 0; i < 200000; i++)
		printf "w/o patch\tw/ patch\n%d\t%d\n\n", i, i }'
} >"$tmp/many.eml"
bench "hostile: 200000 tables" "$tmp/many.eml" 1
