#!/bin/sh
# tests/bench/kbuild.sh - kernel build and boot figures:
#   full build (fresh O= directory, no ccache), incremental rebuild after
#   a one-line change to kernel/sched/fair.c, their ratio, QEMU start to
#   /init, and spawn/pingpong inside the guest next to the host's.
# Uses the tests' kernel cache (SCHED_BOT_TEST_CACHE); takes minutes.
# KBUILD_BENCH_CCACHE=1 measures the full build with ccache instead.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
SCHED_BOT=$BUILD/sched-bot
SCHED_BENCH=$BUILD/sched-bench
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/kbuild-bench.XXXXXX")
TOP=$top
trap 'rm -rf "$TRASH"' EXIT
export HOME=$TRASH XDG_CACHE_HOME=$TRASH/cache XDG_CONFIG_HOME=$TRASH/config
export LC_ALL=C
test_skip_all() {
	echo "skipped: $1"
	exit 0
}
. "$top/tests/lib-kernel.sh"
kernel_prereqs
command -v qemu-system-x86_64 >/dev/null || test_skip_all "no QEMU"
kernel_repo || { echo "cannot make the kernel repository"; exit 1; }
kernel_config
# A build directory of its own, so that "full" means full.
cfg=$XDG_CONFIG_HOME/sched-bot/config
sed -i "s|cacheDir = .*|cacheDir = $TRASH/builds|" "$cfg"
[ "${KBUILD_BENCH_CCACHE:-0}" = 1 ] || printf '\tccache = false\n' >>"$cfg"
stamp=$(date +%s)
kernel_commit base kernel/sched/fair.c \
	"s/sysctl_sched_migration_cost\t= 500000UL;/sysctl_sched_migration_cost\t= 400000UL;/" \
	"bench-$stamp" || exit 1

secs() { sed -n 's/^seconds: //p' "$1"; }

"$SCHED_BOT" -q build --tree "$KREPO" --rev base -o "$TRASH/base" \
	>"$TRASH/b1" || { echo "base build failed"; exit 1; }
full=$(secs "$TRASH/b1")
"$SCHED_BOT" -q build --tree "$KREPO" --rev "bench-$stamp" \
	-o "$TRASH/patched" >"$TRASH/b2" || { echo "patched build failed"; exit 1; }
incr=$(secs "$TRASH/b2")
git -C "$KREPO" branch -D "bench-$stamp" >/dev/null
recompiled=$(grep -c '^  CC ' "$TRASH/patched/build.log")
printf 'full build:          %6.1f s (%s)\n' "$full" \
	"$([ "${KBUILD_BENCH_CCACHE:-0}" = 1 ] && echo "with ccache" || echo "no ccache")"
printf 'incremental rebuild: %6.1f s (%d objects compiled)\n' "$incr" "$recompiled"
awk -v f="$full" -v i="$incr" 'BEGIN { printf "ratio full/incr:     %6.1f x\n", f / i }'

"$SCHED_BOT" -q boot --target qemu --kernel "$TRASH/base/bzImage" \
	--workloads spawn,pingpong --runs 3 -t 5 --label guest \
	-o "$TRASH/guest.csv" >"$TRASH/boot" || { cat "$TRASH/boot"; echo "boot failed"; exit 1; }
printf 'qemu start to /init: %6.2f s (accel %s)\n' \
	"$(sed -n 's/^boot-seconds: //p' "$TRASH/boot")" \
	"$(sed -n 's/^accel: //p' "$TRASH/boot")"
"$SCHED_BOT" -q boot --target local --workloads spawn,pingpong --runs 3 \
	-t 5 --label host -o "$TRASH/host.csv" >/dev/null ||
	{ echo "local run failed"; exit 1; }
# Headline (sample 0) values: mean per workload and metric, guest vs host.
for f in guest host; do
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["sample"] == 0 && $c["metric"] !~ /^diag/ {
			k = $c["workload"] " " $c["metric"]
			s[k] += $c["value"]; n[k]++ }
		END { for (k in s) printf "%s %.1f\n", k, s[k] / n[k] }' \
		"$TRASH/$f.csv" | sort >"$TRASH/$f.mean"
done
echo "workload metric              guest (qemu -smp 2)   host     guest/host"
awk 'NR == FNR { g[$1 " " $2] = $3; next }
	($1 " " $2) in g { k = $1 " " $2; printf "%-28s %12.1f %12.1f %8.2f\n", k, g[k], $3, $3 ? g[k] / $3 : 0 }' \
	"$TRASH/guest.mean" "$TRASH/host.mean"
