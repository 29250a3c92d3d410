#!/bin/sh
# sched-bench spawn forks from sched-bench-spawn, a small dynamically
# linked helper, as UnixBench's spawn forks from a dynamically linked
# program: fork() copies the forking address space, and the static
# sched-bench forks faster than the program LKML testers run.  The QEMU
# initramfs carries the helper with its libc and loader.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read

HELPER=$(dirname "$SCHED_BENCH")/sched-bench-spawn
# spawn_params OUT: the params of spawn's headline sample
spawn_params() {
	awk -F, '$1 == "sample" && $5 == 0 { print $3; exit }' "$1"
}

test_expect_success 'the helper is built dynamically linked next to sched-bench' '
	test -x "$HELPER" &&
	readelf -l "$HELPER" >phdr &&
	test_grep "Requesting program interpreter" phdr &&
	readelf -d "$HELPER" >dyn &&
	test_grep "NEEDED.*libc\.so" dyn &&
	readelf -l "$SCHED_BENCH" >phdr.sb &&
	test_grep ! "Requesting program interpreter" phdr.sb
'

test_expect_success 'each copy runs the helper, given copy, time, flags and fd' '
	cat >wrap <<-EOF &&
	#!/bin/sh
	echo "\$@" >>"$TRASH/calls"
	exec "$HELPER" "\$@"
	EOF
	chmod +x wrap &&
	"$SCHED_BENCH" spawn -c 2 -t 0.2 --passes 1 --gap 0 \
		--helper "$TRASH/wrap" >out 2>err &&
	test $(wc -l <calls) = 2 &&
	test_grep "^0 0.2 0 [0-9][0-9]*$" calls &&
	test_grep "^1 0.2 0 [0-9][0-9]*$" calls &&
	test "$(spawn_params out)" = "copies=2 duration=0.2 passes=1" &&
	awk -F, "\$1 == \"copy\" && \$7 > 0 { n++ } END { exit n != 2 }" out
'

test_expect_success 'by default the helper next to sched-bench is used' '
	"$SCHED_BENCH" spawn -c 1 -t 0.2 --passes 1 --gap 0 >out 2>err &&
	test "$(spawn_params out)" = "copies=1 duration=0.2 passes=1" &&
	test_grep ! "forking from sched-bench itself" err
'

test_expect_success 'SCHED_BENCH_SPAWN names the helper (the ssh target sets it)' '
	: >calls &&
	SCHED_BENCH_SPAWN=$TRASH/wrap "$SCHED_BENCH" spawn -c 1 -t 0.2 \
		--passes 1 --gap 0 >out 2>err &&
	test $(wc -l <calls) = 1
'

test_expect_success 'without a helper spawn forks from itself, and says so' '
	mkdir alone && cp "$SCHED_BENCH" alone/ &&
	alone/sched-bench spawn -c 1 -t 0.2 --passes 1 --gap 0 >out 2>err &&
	test_grep "no sched-bench-spawn next to sched-bench" err &&
	test "$(spawn_params out)" = \
		"copies=1 duration=0.2 passes=1 forker=static" &&
	"$SCHED_BENCH" spawn -c 1 -t 0.2 --passes 1 --gap 0 --helper none \
		>out 2>err &&
	test "$(spawn_params out)" = \
		"copies=1 duration=0.2 passes=1 forker=static"
'

test_expect_failure_code 'a helper that cannot run is an error' 2 \
	'"$SCHED_BENCH" spawn -c 1 -t 0.2 --passes 1 --helper /nonexistent'

test_expect_success 'a helper that fails fails the pass' '
	printf "#!/bin/sh\nexit 0\n" >bad && chmod +x bad &&
	test_must_fail() { ! "$@"; } &&
	test_must_fail "$SCHED_BENCH" spawn -c 1 -t 0.2 --passes 1 --gap 0 \
		--helper "$TRASH/bad" >out 2>err &&
	test_grep "a copy failed" err
'

command -v cpio >/dev/null || test_skip_rest "cpio is not installed"

test_expect_success 'the initramfs has the helper next to /init, with libc and loader' '
	"$SCHED_BOT" boot --make-initramfs fs.gz --sched-bench "$SCHED_BENCH" &&
	zcat fs.gz | cpio -it >list 2>/dev/null &&
	test_grep -x sched-bench-spawn list &&
	interp=$(readelf -l "$HELPER" |
		sed -n "s/.*program interpreter: \/\(.*\)\]/\1/p") &&
	test_grep -x "$interp" list &&
	test_grep "libc\.so" list &&
	mkdir x && (cd x && zcat ../fs.gz |
		cpio -idm --no-absolute-filenames 2>/dev/null) &&
	cmp x/sched-bench-spawn "$HELPER"
'

test_expect_success 'without spawn among the workloads the helper stays out' '
	"$SCHED_BOT" boot --make-initramfs pp.gz --workloads pingpong \
		--sched-bench "$SCHED_BENCH" &&
	zcat pp.gz | cpio -it >pp.list 2>/dev/null &&
	test_grep -x init pp.list &&
	test_grep ! sched-bench-spawn pp.list &&
	test_grep ! "libc\.so" pp.list
'

test_expect_success 'the packed loader and libc run the helper on their own' '
	interp=$(readelf -l "$HELPER" |
		sed -n "s/.*program interpreter: \/\(.*\)\]/\1/p") &&
	libc=$(grep "libc\.so" list | head -n 1) &&
	x/$interp --library-path "x/${libc%/*}" x/sched-bench-spawn \
		0 0.1 0 1 >res &&
	test -s res
'

test_done
