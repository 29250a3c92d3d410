#!/bin/sh
# tests/bench/apply-series.sh - CPU seconds and peak memory of `sched-bot
# apply` for a series of N patches (series.maxPatches lifted), in two
# shapes: each patch changing one file of its own (linear in N: the
# time per patch stays flat), and each adding a file to one directory
# (that directory's tree is written whole by every commit, as git does:
# the time grows with N squared, the memory must not).  Then 10000
# under the default series.maxPatches, refused before anything is
# applied.  Prints figures, asserts nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
SB=$BUILD/sched-bot
. "$top/tests/lib-hostile.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/sched-bot-bench-series.XXXXXX")
trap 'rm -rf "$work" || true' EXIT INT TERM
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data
export XDG_CACHE_HOME=$work/cache GIT_CONFIG_NOSYSTEM=1

if [ ! -x /usr/bin/time ]; then
	echo "apply-series: skipped (no /usr/bin/time, Debian package time)"
	exit 0
fi
printf '[series]\n\tmaxPatches = 0\n\tmaxSize = 0\n' >"$work/nolimit"

# figures N WHAT: the last /usr/bin/time line as a row
figures() {
	tail -n 1 "$work/t" | awk -v n="$1" -v what="$2" '{
		printf "%6d patches, %s: %6.2f s CPU, %5.0f us per patch, peak RSS %6.1f MiB\n",
			n, what, $1 + $2, ($1 + $2) * 1e6 / n, $3 / 1024
	}'
}

# one_dir N: N patches, patch i adding d/n<i>.c
one_dir() {
	awk -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++) {
			print "From mboxrd@z Thu Jan  1 00:00:00 1970"
			print "From: Mallory <mallory@example.org>"
			print "Date: Tue, 25 Oct 2022 13:38:42 -0400"
			printf "Subject: [PATCH %d/%d] sched: add %d\n", i, n, i
			printf "Message-Id: <dir.%d@example.org>\n\n", i
			print "Add.\n\nSigned-off-by: Mallory <mallory@example.org>\n---"
			printf "diff --git a/d/n%05d.c b/d/n%05d.c\nnew file mode 100644\n", i, i
			printf "index 0000000..89abcde\n--- /dev/null\n+++ b/d/n%05d.c\n", i
			printf "@@ -0,0 +1 @@\n+int n%d;\n\n", i
		}
	}'
}

for n in 1250 2500 5000 10000; do
	many_patches_series "$work/r" "$n" >"$work/s.mbox" || exit 1
	/usr/bin/time -f "%U %S %M" -o "$work/t" "$SB" --config "$work/nolimit" \
		apply --tree "$work/r" --base base --mbox "$work/s.mbox" \
		>/dev/null 2>&1
	figures "$n" "a file each"
done
for n in 1000 2000 4000; do
	one_dir "$n" >"$work/d.mbox"
	/usr/bin/time -f "%U %S %M" -o "$work/t" "$SB" --config "$work/nolimit" \
		apply --tree "$work/r" --base base --branch "dir$n" \
		--mbox "$work/d.mbox" >/dev/null 2>&1
	figures "$n" "one directory"
done
/usr/bin/time -f "%U %S %M" -o "$work/t" "$SB" apply --tree "$work/r" \
	--base base --mbox "$work/s.mbox" >/dev/null 2>"$work/err"
tail -n 1 "$work/t" | awk '{
	printf "10000 patches, default series.maxPatches: refused in %.2f s CPU, peak RSS %.1f MiB\n",
		$1 + $2, $3 / 1024 }'
grep "refusing" "$work/err"
