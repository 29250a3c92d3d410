#!/bin/sh
# A kernel that floods its serial console: a stand-in QEMU (the kernel
# under test is what writes the console, so the stand-in is the attack)
# prints without end, lines or one line without a newline.  The bot
# reads target.NAME.maxConsole bytes of it, no more, keeps them in
# console.log, stops QEMU, says "console output cut at 4 MB", and its
# own memory stays near that budget (without the bound: console.log
# grew by the gigabyte and the bot's memory with a line without end).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs

MB=1048576
# the stated bound: a 4 MB budget, four copies of it and the bot itself
RSS_MAX_KB=65536

# fake_qemu NAME COMMAND: a QEMU whose console is what COMMAND prints,
# run in QEMU's sandbox as the real one would be.
fake_qemu() {
	printf '#!/bin/sh\n%s\n' "$2" >"$TRASH/qemu-$1"
	chmod 755 "$TRASH/qemu-$1"
}
fake_qemu lines 'exec yes "[    1.000000] a kernel that never stops talking"'
fake_qemu oneline 'yes | tr -d "\\n"'

mkdir -p "$XDG_CONFIG_HOME/sched-bot"
for t in lines oneline; do
	cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "$t"]
	type = qemu
	qemu = $TRASH/qemu-$t
	accel = tcg
	maxConsole = 4M
	timeout = 300
EOF
done
printf 'not really a kernel\n' >"$TRASH/bzImage"

# boot TARGET: a boot on it, its peak memory in TARGET.rss.
boot() {
	rc=0
	test_peak_rss "$TRASH/$1.rss" "$SCHED_BOT" boot --target "$1" \
		--kernel "$TRASH/bzImage" --workloads spawn --runs 1 -t 1 \
		--workdir "$TRASH/$1" -o "$TRASH/$1.csv" \
		>"$TRASH/$1.out" 2>"$TRASH/$1.err" || rc=$?
	echo $rc >"$TRASH/$1.rc"
}

boot lines
boot oneline

test_expect_success 'a flood of lines: cut at maxConsole, said, no rows' '
	test "$(cat lines.rc)" -eq 1 &&
	test_grep "^status: no-init" lines.out &&
	test_grep "lines: no-init: console output cut at 4 MB (target.lines.maxConsole): the kernel never started" lines.err &&
	test_grep "warning: lines: console output cut at 4 MB (target.lines.maxConsole)" lines.err &&
	! test -e lines.csv
'

test_expect_success 'console.log holds the budget, then says it was cut' '
	size=$(wc -c <lines/console.log) &&
	test "$size" -gt $((4 * MB - 100)) &&
	test "$size" -le $((4 * MB + 100)) &&
	tail -n 1 lines/console.log >last &&
	echo "[sched-bot: console output cut at 4 MB (target.lines.maxConsole)]" >want &&
	test_cmp want last &&
	head -n 1 lines/console.log | test_grep -x "\[    1.000000\] a kernel that never stops talking"
'

test_expect_success "the bot's memory stays near the budget (lines)" '
	echo "peak RSS $(cat lines.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below lines.rss $RSS_MAX_KB
'

test_expect_success 'one line without end: cut, its head shown, memory bounded' '
	test "$(cat oneline.rc)" -eq 1 &&
	test_grep "oneline: no-init: console output cut at 4 MB (target.oneline.maxConsole): the kernel never started sched-bench.s init (1 console line over 8 KB cut)" oneline.err &&
	size=$(wc -c <oneline/console.log) &&
	test "$size" -le $((4 * MB + 100)) &&
	test_grep "^yyyyyyyy*\.\.\.$" oneline.err &&
	echo "peak RSS $(cat oneline.rss) KiB, bound $RSS_MAX_KB KiB" &&
	test_rss_below oneline.rss $RSS_MAX_KB
'

test_done
