#!/bin/sh
# The sandbox's tmpfs mounts have inodes in proportion to their bytes
# (issue 35): one for every 16 KiB of sandbox.tmpSize, not the kernel's
# default of half the machine's pages, so a build cannot fill kernel
# memory with millions of empty files in its /tmp.  A build that takes
# every inode is stopped and told so.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs
command -v perl >/dev/null || test_skip_all "perl is not installed"

M=1048576
: >"$TRASH/empty.config"
cat >"$TRASH/bot.cfg" <<EOF
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	timeout = 120
[sandbox]
	tmpSize = $((16 * M))
EOF
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# build BRANCH OUT: a build of the branch, its exit code in OUT.rc
build() {
	rc=0
	timeout 300 "$SCHED_BOT" build --tree "$TRASH/tree" --rev "$1" \
		--base-config tinyconfig --fragment "$TRASH/empty.config" \
		>"$TRASH/$2" 2>"$TRASH/$2.err" || rc=$?
	echo $rc >"$TRASH/$2.rc"
}

# What the build sees of its tmpfs mounts: inodes in all, and bytes.
cat >"$TRASH/df.mk" <<'EOF'
stat -f -c "%c %S %b" /tmp >$(O)/df-tmp
stat -f -c "%c %S %b" /dev/shm >$(O)/df-shm
mkdir -p $(O)/arch/x86/boot
{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage
EOF
# The attack: empty files in /tmp, up to 100,000 (16 KB of data at
# most); cut short, it waits (at most a minute) for the bot to stop it.
cat >"$TRASH/inodes.mk" <<'EOF'
perl -e '$$n = 0; while ($$n < 100000) { open(my $$f, ">", "/tmp/f$$n") or last; close $$f; $$n++ } open(my $$o, ">", "$(O)/files") or die; print $$o "$$n\n"; close $$o; if ($$n < 100000) { for (1..600) { select(undef, undef, undef, 0.1) } }'
mkdir -p $(O)/arch/x86/boot
{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage
EOF

test_expect_success 'setup: the stand-in tree and two recipes' '
	standin_tree &&
	hostile bzImage "$TRASH/df.mk" df &&
	hostile bzImage "$TRASH/inodes.mk" inodes
'

# 16 MiB / 16 KiB = 1024 inodes, in 4 KiB blocks
test_expect_success 'each tmpfs has an inode for every 16 KiB of its size' '
	build df dfout &&
	test "$(cat dfout.rc)" -eq 0 &&
	test_grep -x "result: built" dfout &&
	echo "1024 4096 4096" >expect &&
	test_cmp expect builds/slot-*/obj/df-tmp &&
	test_cmp expect builds/slot-*/obj/df-shm
'

test_expect_success 'a build that takes every inode is stopped, and told so' '
	build inodes iout &&
	test "$(cat iout.rc)" -eq 1 &&
	test_grep -x "result: build failed" iout &&
	test_grep "the build filled every inode of its tmpfs (/tmp or /dev/shm: 1024 inodes for sandbox.tmpSize, $((16 * M)) bytes) and was stopped" iout &&
	n=$(cat builds/slot-*/obj/files) &&
	echo "empty files made: $n" >>figures &&
	test "$n" -lt 1024
'

test_expect_success 'the next build of the slot has its inodes again' '
	rm -rf builds/art-* &&
	build df dfout2 &&
	test "$(cat dfout2.rc)" -eq 0 &&
	test_grep -x "result: built" dfout2 &&
	test_cmp expect builds/slot-*/obj/df-tmp
'

cat "$TRASH/figures" 2>/dev/null | sed "s/^/# /"
test_done
