#!/bin/sh
# Lore figures against the local public-inbox: server start-up (import,
# extindex, first answer), thread fetch time and MB/s cold and cached,
# and a search, for the largest corpus thread.
. "$(dirname "$0")/../lib.sh"
TESTS=$(cd "$TESTS/.." && pwd)
DATA=$TESTS/data
. "$TESTS/lib-lore.sh"

MBOX=$DATA/intake/cgroups/sched-dl-rootdomain-hotplug-v2.mbox
MID=20241114142810.794657-1-juri.lelli@redhat.com
RUNS=${RUNS:-5}

now() {
	date +%s%N
}

# ms between two now() stamps
ms() {
	echo $(( ($2 - $1) / 1000000 ))
}

median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

command -v public-inbox-httpd >/dev/null 2>&1 || {
	echo "public-inbox not installed: no lore figures"
	exit 0
}
nmsg=$(grep -c '^From mboxrd@z' "$MBOX")
bytes=$(wc -c <"$MBOX")

export LORE_INBOX_CACHE=$TRASH/inbox-cache
t0=$(now)
lore_start "$MBOX" || { echo "lore_start failed"; exit 1; }
t1=$(now)
echo "lore_start ($nmsg messages, $bytes bytes), building the inbox: $(ms "$t0" "$t1") ms"
lore_stop
t0=$(now)
lore_start "$MBOX" || { echo "lore_start failed"; exit 1; }
t1=$(now)
echo "lore_start, the same inbox from the cache: $(ms "$t0" "$t1") ms"

# the parts, on a second inbox: import rate, extindex, server start
t0=$(now)
lore_add "$DATA/lore/sched-dl-suspend-v4.mbox" "$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox"
t1=$(now)
echo "lore_add (14 messages, import + extindex + HUP + searchable): $(ms "$t0" "$t1") ms"
lore_stop
t0=$(now)
perl "$LORE_DIR/listen.pl" "$LORE_DIR/port2" public-inbox-httpd -W0 \
	-1 "$LORE_DIR/httpd.out" -2 "$LORE_DIR/httpd.err" \
	</dev/null >>"$LORE_DIR/httpd.err" 2>&1 &
LORE_PID=$!
while [ ! -s "$LORE_DIR/port2" ]; do sleep 0.01; done
LORE_PORT=$(cat "$LORE_DIR/port2")
LORE_URL=http://127.0.0.1:$LORE_PORT
lore_http GET "$LORE_URL/all/new.atom" >/dev/null
t1=$(now)
echo "public-inbox-httpd start to first answer: $(ms "$t0" "$t1") ms"
git config -f "$XDG_CONFIG_HOME/sched-bot/config" lore.url "$LORE_URL"

out=$(mktemp)
: >"$TRASH/cold"
: >"$TRASH/warm"
i=0
while [ $i -lt "$RUNS" ]; do
	t0=$(now)
	"$SCHED_BOT" -q fetch --no-cache -o "$out" "$MID" || exit 1
	t1=$(now)
	ms "$t0" "$t1" >>"$TRASH/cold"
	t0=$(now)
	"$SCHED_BOT" -q fetch -o "$out" "$MID" || exit 1
	t1=$(now)
	ms "$t0" "$t1" >>"$TRASH/warm"
	i=$((i + 1))
done
size=$(wc -c <"$out")
gz=$(lore_http GET "$LORE_URL/all/$MID/t.mbox.gz" "$TRASH/t.gz" >/dev/null;
	wc -c <"$TRASH/t.gz")
cold=$(median <"$TRASH/cold")
warm=$(median <"$TRASH/warm")
rate() {
	awk -v b="$size" -v ms="$1" \
		'BEGIN { if (ms < 1) ms = 1; printf "%.1f", b / 1e6 / (ms / 1e3) }'
}
echo "fetch $MID ($nmsg messages, $size bytes, $gz gzip'd), median of $RUNS:"
echo "  cold (server, gunzip, cache write): $cold ms, $(rate "$cold") MB/s"
echo "  cached:                             $warm ms, $(rate "$warm") MB/s"

: >"$TRASH/search"
i=0
while [ $i -lt "$RUNS" ]; do
	t0=$(now)
	"$SCHED_BOT" -q fetch -o "$out" --search "dfn:kernel/sched/ AND s:PATCH" ||
		exit 1
	t1=$(now)
	ms "$t0" "$t1" >>"$TRASH/search"
	i=$((i + 1))
done
echo "search 'dfn:kernel/sched/ AND s:PATCH' ($(grep -c '^From ' "$out") hits): $(median <"$TRASH/search") ms"
rm -f "$out"
lore_stop
rm -rf "$TRASH"
