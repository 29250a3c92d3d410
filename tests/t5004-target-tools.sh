#!/bin/sh
# hackbench and perf bench off the local machine: the guest's initramfs
# holds the tool with the libraries ldd names and the loader the ELF
# asks for, byte for byte the host's; the archive runs them without a
# kernel (chroot); sched-bench's init frames their output and the host
# turns it into the rows `sched-bot run` makes; a tool this host lacks
# is a skip line.  No kernel is booted here (t5000 does).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read

command -v cpio >/dev/null || test_skip_all "cpio is not installed"
command -v hackbench >/dev/null ||
	test_skip_all "hackbench is not installed (package rt-tests)"

HB=$(command -v hackbench)
# The libraries and the loader, as ldd resolves them on this host.
ldd "$HB" | sed -n "s/.*=> \(\/[^ ]*\) .*/\1/p" >"$TRASH/hb-libs"
LOADER=$(ldd "$HB" | sed -n "s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p")

test_expect_success 'boot --make-initramfs --workloads hackbench packs it' '
	"$SCHED_BOT" boot --make-initramfs hb.gz --workloads hackbench \
		--sched-bench "$SCHED_BENCH" 2>err &&
	zcat hb.gz | cpio -it >list 2>/dev/null &&
	test_grep -x init list &&
	test_grep -x dev/console list &&
	test_grep -x "${HB#/}" list &&
	test -s hb-libs &&
	while read -r lib; do
		test_grep -x "${lib#/}" list || exit 1
	done <hb-libs &&
	test -n "$LOADER" && test_grep -x "${LOADER#/}" list &&
	test_grep ! "^skip:" err
'

test_expect_success 'each directory once, each file the host bytes' '
	test "$(sort list | uniq -d)" = "" &&
	mkdir root && (cd root && zcat ../hb.gz |
		cpio -idm --no-absolute-filenames 2>/dev/null) &&
	cmp root/init "$SCHED_BENCH" &&
	cmp "root$HB" "$HB" && test -x "root$HB" &&
	cmp "root$LOADER" "$LOADER" &&
	while read -r lib; do cmp "root$lib" "$lib" || exit 1; done <hb-libs
'

# Without tools: sched-bench and its spawn helper, whose libraries and
# loader are the only ones packed.
test_expect_success 'without tools the archive is the one it always was' '
	"$SCHED_BOT" boot --make-initramfs plain.gz \
		--sched-bench "$SCHED_BENCH" &&
	zcat plain.gz | cpio -it >plain 2>/dev/null &&
	test_grep ! hackbench plain &&
	ldd "$(dirname "$SCHED_BENCH")/sched-bench-spawn" |
		sed -n "s/.*=> \/\([^ ]*\) .*/\1/p; s/^[[:space:]]*\/\([^ ]*\) (.*/\1/p" |
		sort >helper-libs &&
	test -s helper-libs &&
	grep "^lib" plain | while read -r f; do
		test -d "/$f" || echo "$f"; done | sort >plain-libs &&
	test_cmp helper-libs plain-libs &&
	"$SCHED_BOT" boot --make-initramfs plus-hb.gz \
		--workloads spawn,pingpong,hackbench \
		--sched-bench "$SCHED_BENCH" &&
	test "$(wc -c <plain.gz)" -lt "$(wc -c <plus-hb.gz)"
'

# The archive alone must run the tool: no library of the host behind it.
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null; then
	test_expect_success 'in a chroot of the archive, init runs hackbench' '
		chroot root /init sb.workloads=hackbench \
			"sb.exec.hackbench=$HB,-P,-g,1,-l,10" >frames &&
		test_grep "^@@SB [0-9]* [0-9a-f]* RUN hackbench 1 $HB -P -g 1 -l 10$" frames &&
		test_grep "^@@SB [0-9]* [0-9a-f]* OUT env,kernel_release," frames &&
		test_grep "^@@SB [0-9]* [0-9a-f]* OUT Time: [0-9.]*$" frames &&
		test_grep "^@@SB [0-9]* [0-9a-f]* STAT wall_s=[0-9.]*" frames &&
		test_grep "^@@SB [0-9]* [0-9a-f]* RC 0$" frames &&
		tail -n 1 frames | test_grep "^@@SB END [0-9]* rc=0$"
	'
fi

test_expect_success 'init reports a program that is not there' '
	"$SCHED_BENCH" init sb.workloads=gone sb.exec.gone=/nonexistent/x,-a \
		>gone; rc=$?
	test $rc -eq 1 &&
	test_grep "ERR cannot run /nonexistent/x: " gone &&
	test_grep "RC 127$" gone
'

test_expect_success 'boot --target local: the rows of sched-bot run' '
	"$SCHED_BOT" boot --target local --workloads hackbench -t 1 \
		--label same -o boot.csv >boot.out &&
	test_grep -x "status: ok" boot.out &&
	"$SCHED_BOT" run --workloads hackbench --label same -o run.csv &&
	# run goes through the local target: the same rows, perf stat too
	cut -d, -f1-6,8-11,17-22 boot.csv >boot.cols &&
	cut -d, -f1-6,8-11,17-22 run.csv >run.cols &&
	test_cmp run.cols boot.cols &&
	test_grep ",hackbench,.*,time,[0-9.]*,s,0,0,free," boot.csv &&
	test_grep ",hackbench,.*,diag.wall_s,[0-9.]*,s,0,0,free," boot.csv &&
	awk -F, "NR > 1 && !(\$12 + \$13 > 0) { bad = 1 }
		END { exit bad || NR < 2 }" boot.csv
'

if perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1; then
	test_expect_success 'perf bench: one real perf binary, its libraries' '
		"$SCHED_BOT" boot --make-initramfs perf.gz \
			--workloads perf-messaging,perf-pipe \
			--sched-bench "$SCHED_BENCH" &&
		zcat perf.gz | cpio -it >perf.list 2>/dev/null &&
		grep "^usr/.*/perf[^/]*$" perf.list >perf.bin &&
		test "$(wc -l <perf.bin)" -eq 1 &&
		bin=/$(cat perf.bin) &&
		head -c 4 "$bin" | od -An -c | test_grep "177   E   L   F" &&
		ldd "$bin" | sed -n "s/.*=> \(\/[^ ]*\) .*/\1/p" >perf-libs &&
		test "$(wc -l <perf-libs)" -gt 3 &&
		while read -r lib; do
			test_grep -x "${lib#/}" perf.list || exit 1
		done <perf-libs
	'

	test_expect_success 'boot --target local runs perf bench through init' '
		"$SCHED_BOT" boot --target local \
			--workloads perf-pipe,perf-messaging -t 1 --label p \
			-o perf.csv >perf.out &&
		test_grep ",perf-pipe,loops=100000 mode=processes,1,ops,[0-9.]*,roundtrips/s,1,0,free," perf.csv &&
		test_grep ",perf-messaging,groups=4 .*,1,time,[0-9.]*,s,0,0,free," perf.csv
	'
fi

test_expect_success 'a tool this host lacks: a skip line, the rest packed' '
	mkdir -p emptybin &&
	PATH="$TRASH/emptybin" "$SCHED_BOT" boot --make-initramfs skip.gz \
		--workloads spawn,hackbench --sched-bench "$SCHED_BENCH" \
		2>skip.err &&
	test_grep "^skip: hackbench: .hackbench. is not installed on this host (package rt-tests)$" skip.err &&
	zcat skip.gz | cpio -it >skip.list 2>/dev/null &&
	test_grep -x init skip.list && test_grep ! hackbench skip.list &&
	test_grep "not packing sched-bench-spawn" skip.err
'

test_expect_failure_code 'nothing but missing tools: a failure, no rows' 1 '
	PATH="$TRASH/emptybin" "$SCHED_BOT" boot --target local \
		--workloads hackbench -o none.csv >none.out 2>none.err
'

test_expect_success '... that says why' '
	test_grep "^skip: hackbench: " none.err &&
	test_grep "every workload was skipped" none.err &&
	! test -e none.csv
'

test_done
