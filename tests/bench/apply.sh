#!/bin/sh
# tests/bench/apply.sh - wall times of `sched-bot tree init` (import of
# Debian's linux-source-6.1) and of `sched-bot apply` next to `git am`
# for Chen Yu's v3 series on that tree.  Prints figures, asserts nothing.
#
#   BENCH_IMPORT=0  skip the import timing (35 s or more, 520 MB of disk)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
SB=$BUILD/sched-bot
DATA=$top/tests/data/apply
TARBALL=${SCHED_BOT_TEST_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}
TREE=$CACHE/tree/linux-source-6.1.git
MBOX=$top/tests/data/intake/short-task-wakeup-v3-complete.mbox
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C

if [ ! -r "$TARBALL" ]; then
	echo "apply: skipped (no $TARBALL)"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/sched-bot-bench-apply.XXXXXX")
trap 'rm -rf "$work" || true' EXIT INT TERM
export HOME=$work XDG_CACHE_HOME=$work/cache XDG_CONFIG_HOME=$work/config

now() {
	date +%s.%N
}

elapsed() {
	echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'
}

if [ "${BENCH_IMPORT:-1}" != 0 ]; then
	t0=$(now)
	"$SB" tree init --tarball "$TARBALL" "$work/import.git" >"$work/out" ||
		exit 1
	t1=$(now)
	echo "tree init (import of $(basename "$TARBALL")): $(elapsed "$t0" "$t1") s"
	sed 's/^/  /' "$work/out"
	echo "  repository size: $(du -sh "$work/import.git" | cut -f1)"
	rm -rf "$work/import.git"
fi

# The shared test tree (imported once), borrowed by a work repository.
mkdir -p "$CACHE/tree"
"$SB" tree init --tarball "$TARBALL" "$TREE" >/dev/null || exit 1
git init -q --bare "$work/k.git"
echo "$TREE/objects" >"$work/k.git/objects/info/alternates"
git --git-dir="$TREE" for-each-ref --format="%(refname) %(objectname)" |
while read -r ref oid; do
	git --git-dir="$work/k.git" update-ref "$ref" "$oid"
done
git --git-dir="$work/k.git" symbolic-ref HEAD refs/heads/linux-6.1

best() {
	# best PREP CMD: the least wall time of $runs runs of CMD, each
	# after an untimed PREP, in seconds
	prep=$1
	shift
	b=999999
	i=0
	while [ $i -lt $runs ]; do
		$prep >/dev/null 2>&1 || { echo "failed: $prep" >&2; return 1; }
		t0=$(now)
		if ! "$@" >/dev/null 2>"$work/err"; then
			echo "failed: $*" >&2
			cat "$work/err" >&2
			return 1
		fi
		t1=$(now)
		e=$(elapsed "$t0" "$t1")
		b=$(echo "$b $e" | awk '{ print ($2 < $1) ? $2 : $1 }')
		i=$((i + 1))
	done
	echo "$b"
}

sb_apply() {
	"$SB" apply --tree "$work/k.git" --branch bench --mbox "$MBOX"
}

"$SB" am --mbox "$MBOX" -o "$work/cy.mbox" >/dev/null 2>&1 || exit 1
t0=$(now)
git clone -q --shared "$work/k.git" "$work/checkout" || exit 1
t1=$(now)
checkout=$(elapsed "$t0" "$t1")
reset_checkout() {
	git -C "$work/checkout" reset -q --hard origin/linux-6.1
}
git_am() {
	git -C "$work/checkout" -c user.name=b -c user.email=b@b \
		am -q "$work/cy.mbox"
}
git_apply_cached() {
	GIT_INDEX_FILE=$work/index git --git-dir="$work/k.git" \
		read-tree linux-6.1 &&
	git mailsplit -o"$work/split" "$work/cy.mbox" >/dev/null &&
	for m in "$work"/split/*; do
		git mailinfo "$work/msg" "$work/patch" <"$m" >/dev/null &&
		GIT_INDEX_FILE=$work/index git --git-dir="$work/k.git" \
			apply --cached "$work/patch" || return 1
	done
}
clean_split() {
	rm -rf "$work/split" && mkdir "$work/split"
}

runs=${BENCH_RUNS:-3}
a=$(best true sb_apply) || exit 1
g=$(best reset_checkout git_am) || exit 1
c=$(best clean_split git_apply_cached) || exit 1
echo "apply of Chen Yu v3 (2 patches, offsets) on the 6.1 tree, best of $runs:"
echo "  sched-bot apply (object database only): $a s"
echo "  git am (in a ready checkout):            $g s"
echo "  git apply --cached (temporary index):    $c s"
echo "  ratio sched-bot apply / git am:          $(echo "$a $g" | awk '{ printf "%.2f", $1 / $2 }')"
echo "  the checkout git am needs first:         $checkout s"
exit 0
