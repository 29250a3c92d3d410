#!/bin/sh
# tests/bench/intake.sh - how fast sched-bot reads threads: messages/s and
# MB/s for `series` on the largest corpus thread and on a large synthetic
# mbox, peak RSS, and `sched-bot am` next to `b4 am` (when b4 exists).
# Prints figures; asserts nothing about speed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
BOT=$BUILD/sched-bot
I=$top/tests/data/intake
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() {
	date +%s.%N
}

# "peak-RSS-kB cpu-seconds" of one run (GNU time if present).
rss_cpu() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%M %U %S" "$@" 2>&1 >/dev/null | tail -n 1 |
			awk '{ print $1, $2 + $3 }'
	else
		echo "n/a n/a"
	fi
}

# bench NAME MBOX ROUNDS: `series --json` ROUNDS times on MBOX.
bench() {
	name=$1 mbox=$2 rounds=$3
	msgs=$(grep -c "^From mboxrd@z " "$mbox")
	bytes=$(wc -c <"$mbox")
	t0=$(now)
	i=0
	while [ $i -lt "$rounds" ]; do
		"$BOT" series --mbox "$mbox" --json >/dev/null || return 1
		i=$((i + 1))
	done
	t1=$(now)
	set -- $(rss_cpu "$BOT" series --mbox "$mbox" --json)
	rss=$1 cpu=$2
	awk -v n="$name" -v m="$msgs" -v b="$bytes" -v r="$rounds" \
	    -v t0="$t0" -v t1="$t1" -v rss="$rss" -v cpu="$cpu" 'BEGIN {
		s = (t1 - t0) / r
		printf "%-28s %5d msgs %6.2f MB  wall %7.1f ms  %7.0f msgs/s  %6.1f MB/s  (CPU %s s)  peak RSS %s kB\n",
			n, m, b / 1e6, s * 1000, m / s, b / 1e6 / s, cpu, rss
	}'
}

bench "largest thread (rootdomain)" \
	"$I/cgroups/sched-dl-rootdomain-hotplug-v2.mbox" 20

# A large synthetic mbox: the corpus threads 10 times over, Message-IDs
# made unique per copy so nothing is dropped as a duplicate.
for k in 0 1 2 3 4 5 6 7 8 9; do
	for f in "$I"/cgroups/*.mbox; do
		sed -E "s/^(Message-ID|In-Reply-To|References):(.*)@/\1:\2.c$k@/I; s/^([ \t]+<[^@]*)@/\1.c$k@/" "$f"
	done
done >"$tmp/big.mbox"
bench "synthetic (corpus x10)" "$tmp/big.mbox" 3

if command -v b4 >/dev/null 2>&1; then
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=3 \
		GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="Bench" \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=bench@example.org \
		GIT_CONFIG_KEY_2=b4.attestation-policy GIT_CONFIG_VALUE_2=off \
		XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
	for t in sched-dl-suspend-v4 sched-dl-rootdomain-hotplug-v2; do
		mbox=$I/cgroups/$t.mbox
		# b4 0.12 cannot copy folded Subject: lines
		perl -0pe '1 while s/^(Subject:[^\n]*)\n[ \t]+/$1 /mg' "$mbox" >"$tmp/in.mbox"
		msgid=$(sed -n 's/^Message-I[Dd]: *<\(.*\)>.*/\1/p' "$mbox" | head -n 1)
		t0=$(now)
		"$BOT" am --mbox "$mbox" -o "$tmp/ours.mbox" 2>/dev/null
		t1=$(now)
		mkdir -p "$tmp/b4"
		b4 -q am -t -m "$tmp/in.mbox" -o "$tmp/b4" "$msgid" >/dev/null 2>&1
		t2=$(now)
		awk -v n="$t" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
			printf "am %-32s sched-bot %7.1f ms  b4 %7.1f ms  ratio b4/sched-bot %.1fx\n",
				n, (b - a) * 1000, (c - b) * 1000, (c - b) / (b - a)
		}'
	done
else
	echo "b4 not installed: no am comparison"
fi
