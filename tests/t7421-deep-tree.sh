#!/bin/sh
# A chain of 60,000 nested directories (issue 35): left in O= by a
# stranger's build, it is measured while the next build of the slot
# runs, handed to the sandbox's uid (as root) and emptied away without
# recursion and without a path: the next build neither crashes nor
# fails, and `sched-bot gc` removes the chain, within a memory bound.
# A stand-in tree (tests/lib-hostile.sh) replaces the kernel.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs
command -v perl >/dev/null || test_skip_all "perl is not installed"

M=1048576
DEPTH=60000
# The build cache on a tmpfs where one can be had: a disk mounted with
# discard takes minutes to remove 60,000 directories (a few seconds
# elsewhere).  A tmpfs directory takes no blocks: the bulk the recipe
# leaves is what goes over build.maxDisk below.
mkdir -p "$TRASH/builds"
if [ "$(id -u)" = 0 ] &&
   mount -t tmpfs -o size=1g,nr_inodes=262144 sched-bot-test \
	"$TRASH/builds" 2>/dev/null; then
	test_atexit 'umount "$TRASH/builds"'
fi
: >"$TRASH/empty.config"
CFG=$TRASH/bot.cfg
cat >"$CFG" <<EOF
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	timeout = 300
	maxDisk = $((1024 * M))
[gc]
	keepJobs = 0
[job]
	dir = $TRASH/jobs
EOF
export SCHED_BOT_CONFIG=$CFG

# chain DIR N: N directories "d", each in the one before, below DIR, and
# 64 KiB at the bottom (perl: a shell loop of mkdir and cd takes a
# minute for 60,000)
chain() {
	(cd "$1" && perl -e 'for (1..$ARGV[0]) { mkdir "d" or die "$!\n"; chdir "d" or die "$!\n" } open(my $f, ">", "bottom") or die; print $f "x" x 65536' "$2")
}

# The attack: a bzImage recipe that leaves the chain in O=.
printf '%s\n' "perl -e 'chdir \"\$(O)\" or die; for (1..$DEPTH) { mkdir \"d\" or die; chdir \"d\" or die }'" \
	'dd if=/dev/zero of=$(O)/bulk bs=1M count=40 2>/dev/null' \
	'mkdir -p $(O)/arch/x86/boot' \
	'{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage' \
	>"$TRASH/deep.mk"

# build BRANCH OUT: a build of the branch, its exit code in OUT.rc
build() {
	rc=0
	timeout 600 "$SCHED_BOT" build --tree "$TRASH/tree" --rev "$1" \
		--base-config tinyconfig --fragment "$TRASH/empty.config" \
		>"$TRASH/$2" 2>"$TRASH/$2.err" || rc=$?
	echo $rc >"$TRASH/$2.rc"
}

# depth DIR: how deep the chain of "d" below DIR goes
depth() {
	perl -e 'chdir $ARGV[0] or die; $n = 0; while (chdir "d") { $n++ } print "$n\n"' "$1"
}

test_expect_success 'setup: the stand-in tree and the deep recipe' '
	standin_tree &&
	hostile bzImage "$TRASH/deep.mk" deep &&
	git -C tree show deep:Makefile >deep.Makefile &&
	test_grep "for (1..$DEPTH)" deep.Makefile
'

test_expect_success 'a build leaves a 60,000-deep chain in O=' '
	build deep dout &&
	test "$(cat dout.rc)" -eq 0 &&
	test_grep -x "result: built" dout &&
	obj=$(echo builds/slot-*/obj) &&
	test "$(depth "$obj")" -eq $DEPTH
'

test_expect_success 'the next build of the slot is measured, and builds' '
	git -C tree checkout -q -b next base &&
	echo "int y;" >>tree/kernel/sched/fair.c &&
	git -C tree -c user.name=t -c user.email=t@t commit -qam next &&
	git -C tree checkout -q base &&
	build next nout &&
	test "$(cat nout.rc)" -eq 0 &&
	test_grep -x "result: built" nout &&
	test_grep ! "build.maxDisk" nout nout.err
'

# 40 MiB of bulk (and, on a disk, 60,000 directories of 4 KiB): over 32M
test_expect_success 'O= over build.maxDisk is emptied before the next build' '
	git config -f "$CFG" build.maxDisk $((32 * M)) &&
	git -C tree checkout -q -b third base &&
	echo "int z;" >>tree/kernel/sched/fair.c &&
	git -C tree -c user.name=t -c user.email=t@t commit -qam third &&
	git -C tree checkout -q base &&
	build third tout &&
	test "$(cat tout.rc)" -eq 0 &&
	test_grep -x "result: built" tout &&
	test_grep "obj holds [0-9]* bytes, more than build.maxDisk ($((32 * M))): emptied, the build starts without it" tout.err &&
	obj=$(echo builds/slot-*/obj) &&
	test "$(depth "$obj")" -eq 0
'

# The bound is on what the depth adds: gc over a 10-deep chain first.
# Under ASan (make SANITIZE=1), without its quarantine of freed memory,
# which would hold each directory stream the walk opened again.
ASAN_Q=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0
test_expect_success 'gc removes a 60,000-deep chain, in bounded memory' '
	git config -f "$CFG" build.maxDisk $((1024 * M)) &&
	git config -f "$CFG" gc.maxDiskBytes 1 &&
	mkdir -p builds/slot-shallow/obj &&
	chain builds/slot-shallow/obj 10 &&
	rc=0 && test_peak_rss base.rss env ASAN_OPTIONS="$ASAN_Q" "$SCHED_BOT" gc \
		>base.out 2>base.err ||
		rc=$? &&
	test_grep "^deleted build .*/builds/slot-shallow$" base.out &&
	mkdir -p builds/slot-planted/obj &&
	chain builds/slot-planted/obj $DEPTH &&
	test "$(depth builds/slot-planted/obj)" -eq $DEPTH &&
	rc=0 && test_peak_rss gc.rss env ASAN_OPTIONS="$ASAN_Q" "$SCHED_BOT" gc \
		>gc.out 2>gc.err ||
		rc=$? &&
	cat gc.out gc.err &&
	echo "gc peak RSS: $(cat gc.rss) KiB, $(cat base.rss) KiB at 10 deep" \
		>>figures &&
	test_grep "^deleted build .*/builds/slot-planted$" gc.out &&
	bytes=$(awk "\$NF ~ /slot-planted\$/ { print \$3 }" gc.out) &&
	test "$bytes" -ge 65536 &&
	test_grep ! "cannot delete" gc.err &&
	! test -e builds/slot-planted &&
	test "$(cat gc.rss)" -lt $(($(cat base.rss) + 32 * 1024))
'

test_expect_success 'a build after gc is unaffected' '
	git config -f "$CFG" gc.maxDiskBytes 0 &&
	build base aout &&
	test "$(cat aout.rc)" -eq 0 &&
	test_grep -x "result: built" aout
'

cat "$TRASH/figures" 2>/dev/null | sed "s/^/# /"
test_done
