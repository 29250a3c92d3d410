#!/bin/sh
# tests/bench/apply-files.sh - CPU seconds of `sched-bot apply` for one
# patch changing N files (N = 2500 ... 20000, apply.maxFiles lifted):
# linear in N means the time per file stays flat.  Then the same patch
# under the default apply.maxFiles, refused before libgit2 parses it.
# Prints figures, asserts nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
SB=$BUILD/sched-bot
. "$top/tests/lib-hostile.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/sched-bot-bench-files.XXXXXX")
trap 'rm -rf "$work" || true' EXIT INT TERM
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data
export XDG_CACHE_HOME=$work/cache GIT_CONFIG_NOSYSTEM=1

if [ ! -x /usr/bin/time ]; then
	echo "apply-files: skipped (no /usr/bin/time, Debian package time)"
	exit 0
fi
printf '[apply]\n\tmaxFiles = 0\n' >"$work/nolimit"
for n in 2500 5000 10000 20000; do
	many_files_patch "$work/r" "$n" >"$work/p.mbox" || exit 1
	/usr/bin/time -f "%U %S" -o "$work/t" "$SB" --config "$work/nolimit" \
		apply --tree "$work/r" --base base --mbox "$work/p.mbox" \
		>/dev/null 2>&1
	tail -n 1 "$work/t" | awk -v n="$n" '{
		printf "%6d files: %6.2f s CPU, %5.0f us per file\n",
			n, $1 + $2, ($1 + $2) * 1e6 / n
	}'
done
/usr/bin/time -f "%U %S" -o "$work/t" "$SB" apply --tree "$work/r" \
	--base base --mbox "$work/p.mbox" >/dev/null 2>"$work/err"
tail -n 1 "$work/t" | awk '{
	printf "20000 files, default apply.maxFiles: refused in %.2f s CPU\n",
		$1 + $2 }'
grep "reason:" "$work/err"
