#!/bin/sh
# The ssh target against a real OpenSSH server on 127.0.0.1 (this host:
# kexec cannot run here, t5005 boots a QEMU machine for that): the
# workloads come back as rows, tools are shipped; a boot command that
# boots nothing is a kernel that did not come back, and the machine,
# still in the same boot after powerCommand, is marked unhealthy.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-sshd.sh"

start_sshd || test_fail_all "sshd did not start"

mkdir -p "$XDG_CONFIG_HOME/sched-bot"
cat >"$XDG_CONFIG_HOME/sched-bot/config" <<EOF2
[target "lab"]
	type = ssh
	host = 127.0.0.1
	port = $SSHD_PORT
	user = root
	identity = $SSH_ID
	sshOptions = $SSH_OPTS
	remoteDir = $TRASH/remote
	bootCommand = echo booting {kernel} >$TRASH/booted
	restoreCommand = echo restored >$TRASH/restored
	console = echo the console says hello
	powerCommand = echo power >$TRASH/power
	bootTimeout = 4
	timeout = 120
EOF2
printf 'not really a kernel\n' >"$TRASH/bzImage"

test_expect_success 'a boot command that boots nothing: marked unhealthy' '
	rc=0; "$SCHED_BOT" boot --target lab --kernel "$TRASH/bzImage" \
		--workloads spawn,pingpong --runs 1 -t 1 --label lab \
		--workdir w -o out.csv >stdout 2>stderr || rc=$?
	test $rc -eq 1 &&
	cmp "$TRASH/remote/bzImage" "$TRASH/bzImage" &&
	test_grep -x "booting $TRASH/remote/bzImage" "$TRASH/booted" &&
	test_grep "^status: timeout" stdout &&
	test_grep "did not come back within 4s" stderr &&
	test_grep "the console says hello" stderr &&
	test_grep -x "the console says hello" w/console.log &&
	test_grep -x power "$TRASH/power" &&
	test_grep "lab is marked unhealthy" stderr &&
	! test -e out.csv
'

test_expect_success 'an unhealthy target: status says so, boot refuses it' '
	"$SCHED_BOT" target status lab >st &&
	test_grep -x "lab: type ssh" st &&
	test_grep "^lab: unhealthy since .*: the kernel under test did not come up; it did not come back on its default kernel after powerCommand" st &&
	rc=0; "$SCHED_BOT" boot --target lab --workloads spawn --runs 1 \
		-t 1 -o refused.csv 2>refused || rc=$?
	test $rc -eq 1 &&
	test_grep "target lab is marked unhealthy" refused &&
	test_grep "sched-bot target status lab" refused &&
	test_grep "sched-bot target clear lab" refused &&
	! test -e refused.csv
	{ cat "$XDG_CONFIG_HOME/sched-bot/config" &&
	  printf "[job]\n\ttarget = lab\n"; } >cron.config &&
	"$SCHED_BOT" --config cron.config cron --no-poll >cout 2>cerr;
	test_grep "target lab is marked unhealthy since" cerr
'

test_expect_success 'target clear makes it healthy again' '
	"$SCHED_BOT" target clear lab >cl &&
	test_grep -x "lab: cleared, healthy again" cl &&
	"$SCHED_BOT" target status lab >st2 &&
	test_grep -x "lab: healthy" st2 &&
	"$SCHED_BOT" boot --target lab --workloads spawn,pingpong --runs 1 \
		-t 1 --spawn-gap 0 --label lab -o out.csv >stdout &&
	test_grep "^status: ok" stdout &&
	test_grep "^lab,$(uname -r),spawn,.*,lab," out.csv &&
	test_grep "^lab,$(uname -r),pingpong,.*,lab," out.csv &&
	cmp "$TRASH/remote/sched-bench" "$SCHED_BENCH"
'

# What the machine says of itself: the check keeps its env record, and
# a plan for it is scaled to the CPUs it reported (this host's).
test_expect_success 'target check keeps the facts a plan for the machine uses' '
	rc=0 &&
	"$SCHED_BOT" target check --quick --runs 2 -t 1 --workloads spawn \
		lab >check.out 2>&1 || rc=$? &&
	test $rc -le 1 &&
	facts=$XDG_DATA_HOME/sched-bot/targets/lab.facts &&
	test_grep "^env,nr_cpus,$(getconf _NPROCESSORS_ONLN)$" "$facts" &&
	test_grep "^env,kernel_release,$(uname -r)$" "$facts" &&
	test_grep ! "^health," "$facts" &&
	"$SCHED_BOT" plan --target lab --seconds 5 \
		"$DATA/plan/wakeup-diff-only.mbox" >plan &&
	tr -s " \n" "  " <plan >flat &&
	test_grep "for the target.s $(getconf _NPROCESSORS_ONLN) CPUs.*, as the machine reports them:" flat
'

# The remote is this machine: it has hackbench, so "auto" runs its own;
# "always" copies it with its libraries and loader, as for a machine
# without rt-tests.
if command -v hackbench >/dev/null; then
	test_expect_success 'hackbench on the remote: its own, rows as local' '
		"$SCHED_BOT" -v boot --target lab --workloads hackbench --runs 1 \
			-t 1 --label own -o own.csv >own.out 2>own.err &&
		test_grep "^status: ok" own.out &&
		test_grep "init .*sb.exec.hackbench=$(command -v hackbench),-P," own.err &&
		test_grep "^own,$(uname -r),hackbench,groups=4 .*,1,time,[0-9.]*,s,0,0,free," own.csv &&
		test_grep ",hackbench,.*,diag.wall_s," own.csv &&
		! test -e "$TRASH/remote/tools"
	'

	test_expect_success 'shipTools = always copies hackbench, libraries, loader' '
		{ cat "$XDG_CONFIG_HOME/sched-bot/config" &&
		  printf "\tshipTools = always\n"; } >ship.config &&
		"$SCHED_BOT" --config ship.config -v boot --target lab \
			--workloads hackbench,spawn --runs 1 -t 1 --spawn-gap 0 --label shipped \
			-o shipped.csv >shipped.out 2>shipped.err &&
		test_grep "^status: ok" shipped.out &&
		test_grep "init .*sb.exec.hackbench=$TRASH/remote/tools/ld-[^,]*,--library-path,$TRASH/remote/tools,$TRASH/remote/tools/hackbench,-P," shipped.err &&
		cmp "$TRASH/remote/tools/hackbench" "$(command -v hackbench)" &&
		for lib in $(ldd "$(command -v hackbench)" | sed -n "s/.*=> \(\/[^ ]*\) .*/\1/p"); do
			cmp "$TRASH/remote/tools/${lib##*/}" "$lib" || exit 1
		done &&
		loader=$(ldd "$(command -v hackbench)" | sed -n "s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p") &&
		test -n "$loader" && cmp "$TRASH/remote/tools/${loader##*/}" "$loader" &&
		test_grep "^shipped,$(uname -r),hackbench,groups=4 .*,1,time,[0-9.]*,s,0,0,free," shipped.csv &&
		test_grep "^shipped,$(uname -r),spawn," shipped.csv &&
		# spawn forked from the helper shipped with its loader
		cmp "$TRASH/remote/spawn/sched-bench-spawn" \
			"$(dirname "$SCHED_BENCH")/sched-bench-spawn" &&
		test_grep "SCHED_BENCH_SPAWN=.*$TRASH/remote/spawn/ld-" shipped.err &&
		test_grep ! "forker=static" shipped.csv
	'
fi

test_expect_failure_code 'an unreachable host is a failure' 1 '
	printf "[target \"dead\"]\n\ttype = ssh\n\thost = 127.0.0.1\n\tport = 1\n" >dead &&
	"$SCHED_BOT" --config dead boot --target dead -t 1 -o x.csv
'

test_done
