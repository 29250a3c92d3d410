#!/bin/sh
# The guest's initramfs: a newc cpio that cpio(1) reads, with the console
# node and sched-bench as /init, the same bytes every time.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read

command -v cpio >/dev/null || test_skip_all "cpio is not installed"

test_expect_success 'boot --make-initramfs writes a gzip newc archive' '
	"$SCHED_BOT" boot --make-initramfs fs.gz --sched-bench "$SCHED_BENCH" &&
	gzip -t fs.gz &&
	zcat fs.gz | cpio -it >list 2>/dev/null &&
	test_grep -x init list &&
	test_grep -x dev/console list &&
	test_grep -x proc list
'

test_expect_success '/init is sched-bench, the console a char device 5,1' '
	mkdir x && (cd x && zcat ../fs.gz | cpio -idm --no-absolute-filenames \
		init 2>/dev/null) &&
	cmp x/init "$SCHED_BENCH" &&
	test -x x/init &&
	zcat fs.gz | cpio -itv 2>/dev/null | grep -E "^c.* 5, +1 .*dev/console$"
'

test_expect_success 'the archive is reproducible' '
	"$SCHED_BOT" boot --make-initramfs fs2.gz --sched-bench "$SCHED_BENCH" &&
	cmp fs.gz fs2.gz
'

test_expect_success 'sched-bench init frames carry valid sequence numbers' '
	"$SCHED_BENCH" init sb.workloads=nosuch sb.runs=1 >frames; \
	head -n 1 frames | test_grep -x "@@SB BEGIN 1" &&
	test_grep "^@@SB [0-9]* [0-9a-f]\{8\} INFO error=unknown workload nosuch$" \
		frames &&
	n=$(grep -c "^@@SB [0-9]" frames) &&
	tail -n 1 frames | test_grep -x "@@SB END $n rc=2"
'

test_expect_failure_code 'boot rejects a bad cgroup name' 2 \
	'"$SCHED_BOT" boot --cgroup "../x" -o out.csv'
test_expect_failure_code 'boot needs -o' 2 '"$SCHED_BOT" boot --target local'
test_expect_failure_code 'boot rejects an unknown target' 2 \
	'"$SCHED_BOT" boot --target nosuch -o out.csv'
test_expect_failure_code 'qemu without a kernel is a failure' 1 \
	'"$SCHED_BOT" boot --target qemu -o out.csv'
test_expect_failure_code 'build needs a source' 2 '"$SCHED_BOT" build'
test_expect_failure_code 'build: --src and --tree exclude each other' 2 \
	'"$SCHED_BOT" build --src . --tree .'
test_expect_failure_code 'build of a missing source is not found' 3 \
	'"$SCHED_BOT" build --src /nonexistent'

test_done
