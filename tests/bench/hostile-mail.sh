#!/bin/sh
# tests/bench/hostile-mail.sh - CPU seconds sched-bot spends on a poison
# mail (MIME parts nested thousands deep behind folded, commented
# Content-Types, 1.2 to 6.5 MB) before it gives up on it: the budget is
# mail.parseSeconds (default 2) in a child parser, the whole must stay
# well under 5 s.  Prints figures, asserts nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
SB=$BUILD/sched-bot
. "$top/tests/lib-hostile.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/sched-bot-bench-hostile.XXXXXX")
trap 'rm -rf "$work" || true' EXIT INT TERM
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data
export XDG_CACHE_HOME=$work/cache

if [ ! -x /usr/bin/time ]; then
	echo "hostile-mail: skipped (no /usr/bin/time, Debian package time)"
	exit 0
fi
for levels in 3000 8000 16000; do
	nested_mime "$levels" 6 >"$work/m.mbox"
	size=$(wc -c <"$work/m.mbox")
	/usr/bin/time -f "%U %S %e" -o "$work/t" \
		"$SB" series --mbox "$work/m.mbox" >/dev/null 2>"$work/err"
	why=$(sed -n 's/.*poison mail, read as plain text: //p' "$work/err")
	tail -n 1 "$work/t" | awk -v l="$levels" -v s="$size" -v why="$why" '{
		printf "%6d levels, %7d bytes: %.2f s CPU (user+sys), %.2f s wall: %s\n",
			l, s, $1 + $2, $3, why
	}'
done
