#!/bin/sh
# The ssh target against a real OpenSSH server on 127.0.0.1: the kernel
# and sched-bench are copied over, the boot step is a no-op (kexec cannot
# run here), uname -r is checked, and the workloads come back as rows.
. "$(dirname "$0")/lib.sh"
. "$TESTS/lib-sshd.sh"

start_sshd || test_skip_all "sshd did not start"

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
	bootTimeout = 20
	timeout = 120
EOF2
printf 'not really a kernel\n' >"$TRASH/bzImage"

test_expect_success 'the kernel is copied and the boot command run' '
	"$SCHED_BOT" boot --target lab --kernel "$TRASH/bzImage" \
		--release "$(uname -r)" --workloads spawn,pingpong --runs 1 \
		-t 1 --label lab -o out.csv >stdout 2>stderr; \
	cmp "$TRASH/remote/bzImage" "$TRASH/bzImage" &&
	test_grep -x "booting $TRASH/remote/bzImage" "$TRASH/booted" &&
	test_grep -x restored "$TRASH/restored" &&
	cmp "$TRASH/remote/sched-bench" "$SCHED_BENCH" &&
	test_grep "^status: ok" stdout &&
	test_grep "^lab,$(uname -r),spawn,.*,lab," out.csv &&
	test_grep "^lab,$(uname -r),pingpong,.*,lab," out.csv
'

test_expect_failure_code 'a machine on another kernel is a failure' 1 '
	"$SCHED_BOT" boot --target lab --kernel "$TRASH/bzImage" \
		--release 0.0.0-not-this -t 1 -o out2.csv 2>err;
	rc=$?; grep "boot did not take" err >&2 && exit $rc
'

test_expect_failure_code 'an unreachable host is a failure' 1 '
	printf "[target \"dead\"]\n\ttype = ssh\n\thost = 127.0.0.1\n\tport = 1\n" >dead &&
	"$SCHED_BOT" --config dead boot --target dead -t 1 -o x.csv
'

test_done
