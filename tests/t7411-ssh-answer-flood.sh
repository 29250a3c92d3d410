#!/bin/sh
# An ssh machine that answers without end: a real OpenSSH server on
# 127.0.0.1 whose key runs a forced command (authorized_keys'
# command=), a machine that answers the run (sched-bench init) with
# lines, with one line without a newline or on its stderr, and the
# bot's own questions (uname -r) without end.  The bot reads
# target.NAME.maxConsole bytes of the run's stdout and stderr together,
# 1 MB of any other answer, closes the session, says so, and its memory
# stays near that budget (without the bound: the run's answer was held
# whole, 2 GB killed the bot, and stderr went on to the bot's own).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-sshd.sh"

start_sshd || test_fail_all "sshd did not start"

MB=1048576
# the stated bound: a 4 MB budget, four copies of it and the bot itself
RSS_MAX_KB=65536

# The machine: every command as a shell runs it, but for what MODE says.
cat >"$TRASH/machine" <<EOF
#!/bin/sh
mode=\$(cat "$TRASH/mode")
case \$mode:\$SSH_ORIGINAL_COMMAND in
lines:*"/sched-bench' init "*)
	exec yes "a machine that never stops answering" ;;
oneline:*"/sched-bench' init "*)
	yes | tr -d "\\n"; exit ;;
stderr:*"/sched-bench' init "*)
	exec yes "a machine that never stops complaining" >&2 ;;
uname:"uname -r"*)
	exec yes "6.1.0" ;;
esac
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOF
chmod 755 "$TRASH/machine"
echo none >"$TRASH/mode"
sed -i "s|^|command=\"$TRASH/machine\" |" "$TRASH/sshd/authorized_keys"

mkdir -p "$XDG_CONFIG_HOME/sched-bot"
cat >"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "lab"]
	type = ssh
	host = 127.0.0.1
	port = $SSHD_PORT
	user = root
	identity = $SSH_ID
	sshOptions = $SSH_OPTS
	remoteDir = $TRASH/remote
	timeout = 300
	maxConsole = 4M
EOF

# run MODE: a run on the machine answering so, its peak memory in
# MODE.rss, its exit code in MODE.rc.
run() {
	echo "$1" >"$TRASH/mode"
	rc=0
	test_peak_rss "$TRASH/$1.rss" "$SCHED_BOT" boot --target lab \
		--workloads spawn --runs 1 -t 1 -o "$TRASH/$1.csv" \
		>"$TRASH/$1.out" 2>"$TRASH/$1.err" || rc=$?
	echo $rc >"$TRASH/$1.rc"
	echo none >"$TRASH/mode"
}

test_expect_success 'the machine as it is: rows' '
	"$SCHED_BOT" boot --target lab --workloads spawn --runs 1 -t 1 \
		-o ok.csv >ok.out &&
	test_grep "^status: ok" ok.out &&
	test_grep ",spawn," ok.csv
'

run lines
run oneline
run stderr
run uname

test_expect_success 'a run answered without end: cut at maxConsole, said' '
	test "$(cat lines.rc)" -eq 1 &&
	test_grep "^status: no-init" lines.out &&
	test_grep "lab: no-init: console output cut at 4 MB (target.lab.maxConsole): the kernel never started" lines.err &&
	test_grep "warning: lab: console output cut at 4 MB (target.lab.maxConsole)" lines.err &&
	test_grep "a machine that never stops answering" lines.err &&
	! test -e lines.csv &&
	echo "peak RSS $(cat lines.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below lines.rss $RSS_MAX_KB
'

test_expect_success 'one line without end: cut, memory bounded' '
	test "$(cat oneline.rc)" -eq 1 &&
	test_grep "console output cut at 4 MB (target.lab.maxConsole): the kernel never started sched-bench.s init (1 console line over 8 KB cut)" oneline.err &&
	echo "peak RSS $(cat oneline.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below oneline.rss $RSS_MAX_KB
'

test_expect_success "stderr without end: counted in the budget, its last lines shown" '
	test "$(cat stderr.rc)" -eq 1 &&
	test_grep "console output cut at 4 MB (target.lab.maxConsole)" stderr.err &&
	# its last 20 lines, the one the cut ended among them
	n=$(grep -c "^a machine that never stops complaining$" stderr.err) &&
	test "$n" -ge 19 && test "$n" -le 20 &&
	test "$(wc -c <stderr.err)" -lt 65536 &&
	echo "peak RSS $(cat stderr.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below stderr.rss $RSS_MAX_KB
'

test_expect_success "the bot's own question answered without end: 1 MB, then cut" '
	test "$(cat uname.rc)" -eq 1 &&
	test_grep "warning: ssh root@127.0.0.1: the answer passed 1048576 bytes and was cut: uname -r" uname.err &&
	test_grep "cannot reach root@127.0.0.1 over ssh" uname.err &&
	echo "peak RSS $(cat uname.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below uname.rss $RSS_MAX_KB
'

test_done
