#!/bin/sh
# The lava target against a real LAVA on 127.0.0.1 (tests/lib-lava.sh):
# two QEMU devices under TCG, the Debian 6.1 kernel built as the kernel
# tests build it (cached), sched-bot's own initramfs.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"
. "$TESTS/lib-lava.sh"

kernel_prereqs
lava_have || test_skip_all "lava-server/lava-dispatcher not installed (contrib/install-deps)"
command -v qemu-system-x86_64 >/dev/null || test_skip_all "QEMU is not installed"
kernel_repo || test_fail_all "could not make the kernel repository"
kernel_config
"$SCHED_BOT" build --tree "$KREPO" --rev base -o "$TRASH/kbase" >/dev/null ||
	test_fail_all "the base kernel does not build"
KERNEL=$TRASH/kbase/bzImage
lava_start || test_fail_all "LAVA did not start"

echo "not-a-token" >"$TRASH/bad.token"
cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "lava-qemu"]
	type = lava
	url = $LAVA_URL
	tokenFile = $LAVA_TOKEN_FILE
	deviceType = qemu
	pollInterval = 500
	retries = 1
[target "lava-badtoken"]
	type = lava
	url = $LAVA_URL
	tokenFile = $TRASH/bad.token
	deviceType = qemu
[target "lava-panic"]
	type = lava
	url = $LAVA_URL
	tokenFile = $LAVA_TOKEN_FILE
	deviceType = qemu
	pollInterval = 500
	append = rdinit=/no-such-init
EOF

test_expect_success 'boot on a LAVA device gives rows from the job log' '
	"$SCHED_BOT" boot --target lava-qemu --kernel "$KERNEL" \
		--workloads spawn,pingpong --runs 2 -t 1 --workdir w1 \
		-o lava.csv 2>err &&
	test_grep "lava: job [0-9]* submitted" err &&
	head -n 1 lava.csv >header &&
	test $(grep -c ",spawn," lava.csv) -ge 2 &&
	test $(grep -c ",pingpong," lava.csv) -ge 2 &&
	test_grep ",lava-qemu0[12]," lava.csv &&
	test_grep "@@SB END" w1/console.log
'

test_expect_success 'the LAVA run keeps the target`s own env record and commands' '
	test -s w1/env.txt &&
	test_grep "^env,cpu_model," w1/env.txt &&
	test_grep "^env,nr_cpus," w1/env.txt &&
	test_grep ! "^sample," w1/env.txt &&
	test_grep "^sched-bench spawn " w1/commands.txt &&
	test_grep "^sched-bench pingpong " w1/commands.txt
'

test_expect_success 'the rows are the kind the qemu target writes' '
	"$SCHED_BOT" boot --target qemu --kernel "$KERNEL" \
		--workloads spawn --runs 1 -t 1 -o qemu.csv &&
	head -n 1 qemu.csv >qheader &&
	test_cmp qheader header
'

test_expect_success 'a bad token is a configuration error, tried once' '
	rc=0; "$SCHED_BOT" boot --target lava-badtoken --kernel "$KERNEL" \
		--workloads spawn -o bad.csv 2>err || rc=$?
	cat err &&
	test $rc -ne 0 &&
	test_grep "refused the token" err &&
	test_grep ! "try 2" err &&
	test_grep ! "not-a-token" err &&
	test ! -s bad.csv
'

test_expect_success 'a guest that panics is the kernel failing to boot' '
	rc=0; "$SCHED_BOT" boot --target lava-panic --kernel "$KERNEL" \
		--workloads spawn -o panic.csv >out 2>err || rc=$?
	cat out err &&
	test $rc -eq 1 &&
	test_grep -i "panic" out &&
	test_grep ! -i "infrastructure" out &&
	test ! -s panic.csv
'

# A lab whose QEMU will not start (LAVA: Infrastructure, "Connection
# closed"), and a job definition LAVA refuses (a kernel it cannot read:
# a Job error).
sed "s/-no-reboot,/-no-reboot, -no-such-option,/" \
	"$TOP/templates/lava/qemu.yaml" >"$TRASH/broken.yaml"
sed "s|url: '{{kernel_url}}'|url: 'file:///no/such/dir/bzImage'|" \
	"$TOP/templates/lava/qemu.yaml" >"$TRASH/nokernel.yaml"
cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "lava-broken"]
	type = lava
	url = $LAVA_URL
	tokenFile = $LAVA_TOKEN_FILE
	jobTemplate = $TRASH/broken.yaml
	pollInterval = 500
	retries = 1
[target "lava-nokernel"]
	type = lava
	url = $LAVA_URL
	tokenFile = $LAVA_TOKEN_FILE
	jobTemplate = $TRASH/nokernel.yaml
	pollInterval = 500
[target "lava-short"]
	type = lava
	url = $LAVA_URL
	tokenFile = $LAVA_TOKEN_FILE
	pollInterval = 500
	timeout = 3
EOF

test_expect_success 'an infrastructure failure is retried, then said to be the lab' '
	rc=0; "$SCHED_BOT" boot --target lava-broken --kernel "$KERNEL" \
		--workloads spawn -o broken.csv >out 2>err || rc=$?
	cat out err &&
	test $rc -eq 1 &&
	test_grep "try 1 of 2" err &&
	test_grep "^status: infrastructure" out &&
	test_grep "gave up after 2 tries" err &&
	test ! -s broken.csv
'

test_expect_success 'a job LAVA refuses is a clear error, not retried' '
	rc=0; "$SCHED_BOT" boot --target lava-nokernel --kernel "$KERNEL" \
		--workloads spawn -o nok.csv >out 2>err || rc=$?
	cat out err &&
	test $rc -ne 0 &&
	test_grep "LAVA rejected the job (Job): .*bzImage" err &&
	test_grep ! "try 1 of" err
'

lava_job_state() {
	lava_api "jobs/$1/" | sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p"
}

test_expect_success 'our own timeout cancels the LAVA job' '
	rc=0; "$SCHED_BOT" boot --target lava-short --kernel "$KERNEL" \
		--workloads spawn --runs 3 -t 2 -o short.csv >out 2>err || rc=$?
	cat out err &&
	test $rc -ne 0 &&
	id=$(sed -n "s/.*lava: job \([0-9]*\) submitted.*/\1/p" err) &&
	test -n "$id" &&
	test_grep "did not finish in 3 s; cancelled" err &&
	n=0 && while [ "$(lava_job_state $id state)" != Finished ] &&
		[ $n -lt 60 ]; do sleep 1; n=$((n + 1)); done &&
	test "$(lava_job_state $id health)" = Canceled
'

test_expect_success 'a stopped sched-bot cancels its LAVA job' '
	( "$SCHED_BOT" boot --target lava-qemu --kernel "$KERNEL" \
		--workloads spawn --runs 5 -t 2 -o sig.csv >sig.out 2>sig.err &
	  echo $! >pid; wait ) &
	n=0 && until test_grep -q "submitted" sig.err 2>/dev/null ||
		[ $n -ge 60 ]; do sleep 1; n=$((n + 1)); done &&
	kill -TERM $(cat pid) && wait &&
	cat sig.err &&
	id=$(sed -n "s/.*lava: job \([0-9]*\) submitted.*/\1/p" sig.err) &&
	test_grep "stopped by signal 15; LAVA job $id cancelled" sig.err &&
	n=0 && while [ "$(lava_job_state $id state)" != Finished ] &&
		[ $n -lt 60 ]; do sleep 1; n=$((n + 1)); done &&
	test "$(lava_job_state $id health)" = Canceled
'

test_expect_success 'target status lists the devices, health and queue' '
	"$SCHED_BOT" target status lava-qemu >st &&
	test_grep "lava-qemu: $LAVA_URL, 2 devices" st &&
	test_grep "qemu01 .*qemu" st && test_grep "qemu02 .*qemu" st
'

# Last: the harness itself.  lava_stop (run at exit too, then a no-op)
# must leave nothing of the instance: each service ran in a session of
# its own, and the worker's jobs (lava-run, QEMU) name its directory.
test_expect_success 'lava_stop leaves no process of the instance' '
	sids=$(cat "$LAVA_DIR"/*.pid) &&
	test -n "$sids" &&
	for s in $sids; do
		test -d /proc/$s || { echo "service $s was not running"; exit 1; }
	done &&
	lava_stop &&
	for s in $sids; do
		if left=$(pgrep -s "$s"); then
			echo "session $s still has: $left"; exit 1
		fi
	done &&
	if left=$(pgrep -af "$LAVA_DIR"); then
		echo "still running: $left"; exit 1
	fi &&
	test ! -d "$LAVA_DIR"
'

test_done
