#!/bin/sh
# The sandbox has a size: a hostile build that fills /dev/shm, forks and
# allocates, writes without end into its O= directory, or writes to the
# sandbox's / and /dev is stopped at sandbox.memoryMax, sandbox.pidsMax,
# sandbox.tmpSize and build.maxDisk, leaves no process and no cgroup
# behind, and is reported as a failed build that names the limit.  A
# stand-in tree (as in t7000) replaces the kernel.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs

MARK=limits-$$-Wq4
M=1048576
: >"$TRASH/empty.config"

# config FILE [SECTION.KEY=VALUE...]: the base configuration plus these.
config() {
	out=$1
	shift
	{
		printf "[build]\n\tcacheDir = %s/builds\n" "$TRASH"
		printf "\tccache = false\n\tjobs = 1\n\ttimeout = 120\n"
		for kv in "$@"; do
			k=${kv%%=*}
			printf "[%s]\n\t%s = %s\n" "${k%%.*}" "${k#*.}" "${kv#*=}"
		done
	} >"$out"
}
config "$TRASH/base.cfg"

standin_tree


# build CONFIG BRANCH OUT: a build of the branch; its exit code in OUT.rc.
build() {
	rc=0
	timeout 300 "$SCHED_BOT" --config "$1" build --tree "$TRASH/tree" \
		--rev "$2" --base-config tinyconfig \
		--fragment "$TRASH/empty.config" >"$TRASH/$3" \
		2>"$TRASH/$3.err" || rc=$?
	echo $rc >"$TRASH/$3.rc"
}

# The sandbox's cgroups of sched-bot process PID (none when it is gone).
cgroups_of() {
	find /sys/fs/cgroup -maxdepth 8 -type d -name "run-$1-*" 2>/dev/null
}

# A build of the base tree: with no cgroup to be had here, skip.
build "$TRASH/base.cfg" base probe
if grep -q "no cgroup for the sandbox" "$TRASH/probe.err"; then
	why=$(sed -n 's/.*no cgroup for the sandbox (\(.*\)): its.*/\1/p' \
		"$TRASH/probe.err")
	test_skip_all "cgroups cannot be made here ($why)"
fi

test_expect_success 'a build of a plain tree still works, with no warning' '
	test "$(cat probe.rc)" -eq 0 &&
	test_grep -x "result: built" probe &&
	test_grep ! -i "warning" probe.err
'

cat >"$TRASH/wait" <<'EOF'
touch $(O)/running
i=0; while [ ! -e $(O)/go ] && [ $$i -lt 600 ]; do sleep 0.1; i=$$((i+1)); done
EOF
hostile bzImage "$TRASH/wait" wait
config "$TRASH/wait.cfg" sandbox.memoryMax=$((300 * M)) sandbox.pidsMax=77

test_expect_success 'each run has its cgroup with the limits, gone after' '
	rm -f builds/slot-*/obj/running builds/slot-*/obj/go &&
	build "$TRASH/wait.cfg" wait wout &
	i=0 &&
	while ! test -e builds/slot-*/obj/running && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1)); done &&
	bot=$(test_procs "rev wait" | sort -n | tail -n 1 | cut -d" " -f1) &&
	test -n "$bot" &&
	cgroups_of "$bot" >during &&
	obj=$(echo builds/slot-*/obj) && touch "$obj/go" &&
	wait &&
	test "$(cat wout.rc)" -eq 0 &&
	test_grep -x "result: built" wout &&
	test -s during &&
	for d in $(cat during); do
		if test -e "$d/memory.limit_in_bytes"; then
			test "$(cat "$d/memory.limit_in_bytes")" -eq $((300 * M)) &&
			{ ! test -e "$d/memory.memsw.limit_in_bytes" ||
			  test "$(cat "$d/memory.memsw.limit_in_bytes")" -eq $((300 * M)); } || exit 1
		fi
		if test -e "$d/memory.max"; then
			test "$(cat "$d/memory.max")" -eq $((300 * M)) &&
			test "$(cat "$d/memory.swap.max")" = 0 || exit 1
		fi
		if test -e "$d/pids.max"; then
			test "$(cat "$d/pids.max")" = 77 || exit 1
		fi
	done &&
	grep -q "memory" during &&
	cgroups_of "$bot" >after &&
	test_cmp /dev/null after
'

cat >"$TRASH/shm" <<'EOF'
i=0; while [ $$i -lt 96 ]; do dd if=/dev/zero of=/dev/shm/f$$i bs=1M count=16 2>/dev/null || break; i=$$((i+1)); echo $$i >$(O)/shm-chunks; done
@echo "shm: wrote $$(cat $(O)/shm-chunks) chunks"
EOF
hostile bzImage "$TRASH/shm" shm
config "$TRASH/shm.cfg" sandbox.memoryMax=$((256 * M)) \
	sandbox.tmpSize=$((2048 * M))

test_expect_success '1.5G into /dev/shm: stopped at sandbox.memoryMax' '
	rm -f builds/slot-*/obj/shm-chunks &&
	build "$TRASH/shm.cfg" shm sout &&
	test "$(cat sout.rc)" -eq 1 &&
	test_grep -x "result: build failed" sout &&
	test_grep "the build used more than sandbox.memoryMax (268435456 bytes of memory) and was stopped" sout &&
	# 16M chunks: 96 would be 1.5G, 16 are the whole 256M
	n=$(cat builds/slot-*/obj/shm-chunks) &&
	echo "chunks written: $n" >>"$TRASH/figures" &&
	test "$n" -ge 1 && test "$n" -le 16
'

config "$TRASH/shmsize.cfg" sandbox.tmpSize=$((64 * M))

test_expect_success '... and at sandbox.tmpSize, its size' '
	rm -f builds/slot-*/obj/shm-chunks &&
	build "$TRASH/shmsize.cfg" shm zout &&
	test "$(cat zout.rc)" -eq 0 &&
	test_grep -x "result: built" zout &&
	test "$(cat builds/slot-*/obj/shm-chunks)" -le 4
'

cat >"$TRASH/forkmem" <<EOF
perl -e '\$\$0 = "$MARK-mem"; for (1..100000) { my \$\$p = fork; if (defined \$\$p && !\$\$p) { my \$\$x = "x" x (32 << 20); sleep 300; exit } } sleep 300'
EOF
hostile bzImage "$TRASH/forkmem" forkmem
config "$TRASH/forkmem.cfg" sandbox.memoryMax=$((256 * M)) sandbox.pidsMax=512

test_expect_success 'fork and allocate: stopped at sandbox.memoryMax' '
	build "$TRASH/forkmem.cfg" forkmem fout &&
	test "$(cat fout.rc)" -eq 1 &&
	test_grep -x "result: build failed" fout &&
	test_grep "the build used more than sandbox.memoryMax (268435456 bytes of memory) and was stopped" fout
'

test_expect_success '... and no process of it is left' '
	test_grep ! -F "$MARK-mem" <<-EOF
	$(ps -eo args)
	EOF
'

cat >"$TRASH/forkbomb" <<EOF
perl -e '\$\$0 = "$MARK-pids"; while (1) { my \$\$p = fork; if (defined \$\$p && !\$\$p) { sleep 300; exit } }'
EOF
hostile bzImage "$TRASH/forkbomb" forkbomb
config "$TRASH/forkbomb.cfg" sandbox.pidsMax=40

test_expect_success 'a fork bomb: stopped at sandbox.pidsMax, none left' '
	build "$TRASH/forkbomb.cfg" forkbomb pout &&
	test "$(cat pout.rc)" -eq 1 &&
	test_grep -x "result: build failed" pout &&
	test_grep "the build ran more than sandbox.pidsMax (40) processes and was stopped" pout &&
	test_grep ! -F "$MARK-pids" <<-EOF
	$(ps -eo args)
	EOF
'

cat >"$TRASH/fill" <<'EOF'
i=0; while [ $$i -lt 200 ]; do i=$$((i+1)); dd if=/dev/zero of=$(O)/fill.$$i bs=1M count=50 2>/dev/null || break; done
EOF
hostile bzImage "$TRASH/fill" fill
config "$TRASH/fill.cfg" build.maxDisk=$((200 * M))

# The watcher measures every half second, so how far past the limit the
# writer gets depends on the disk and the load (655 MB past it once, on
# a loaded machine): a figure, not an assertion.  What must hold is
# that it was stopped: had it not been, all 200 x 50 MB would be there.
ALL=$((200 * 50 * M))
test_expect_success 'a writer into O=: stopped at build.maxDisk' '
	build "$TRASH/fill.cfg" fill cout &&
	test "$(cat cout.rc)" -eq 1 &&
	test_grep -x "result: build failed" cout &&
	test_grep "the build used more than build.maxDisk (209715200 bytes) and was stopped" cout &&
	used=$(du -sk builds/slot-*/obj | cut -f1) &&
	echo "O= after: $((used / 1024)) MB" >>"$TRASH/figures" &&
	test $((used * 1024)) -gt $((200 * M)) &&
	test $((used * 1024)) -lt $ALL &&
	rm -f builds/slot-*/obj/fill.*
'

cat >"$TRASH/rootfs" <<'EOF'
-echo planted >/planted
-mkdir /planted-dir
-echo planted >/dev/planted
-echo planted >/dev/shm/ok && echo "shm writable"
-echo planted >/dev/null && echo "null writable"
EOF
hostile bzImage "$TRASH/rootfs" rootfs

test_expect_success 'the sandbox cannot write to / or /dev' '
	build "$TRASH/base.cfg" rootfs rout &&
	test "$(cat rout.rc)" -eq 0 &&
	log=$(sed -n "s/^log: //p" rout) &&
	test_grep "/planted: Read-only file system" "$log" &&
	test_grep "/planted-dir.*Read-only file system" "$log" &&
	test_grep "/dev/planted: Read-only file system" "$log" &&
	test_grep -x "shm writable" "$log" &&
	test_grep -x "null writable" "$log"
'

# A cgroup is left when the bot that made it (run-PID-N) is gone: one of a
# bot that still runs beside this test (another build) is its own.
test_expect_success 'no cgroup of any of these runs is left' '
	find /sys/fs/cgroup -maxdepth 8 -type d -name "run-*" \
		-path "*sched-bot*" 2>/dev/null >all &&
	while read -r cg; do
		pid=${cg##*/run-}; pid=${pid%%-*}
		kill -0 "$pid" 2>/dev/null || echo "$cg"
	done <all >left &&
	test_cmp /dev/null left
'

cat "$TRASH/figures" 2>/dev/null | sed "s/^/# /"
test_done
