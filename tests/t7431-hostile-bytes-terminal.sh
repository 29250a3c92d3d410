#!/bin/sh
# Bytes from strangers that reach the operator's terminal: a build whose
# make prints OSC 52 (sets the clipboard), OSC 0 (the title), clear
# screen and BEL draws its status line on a real terminal (a pty that
# script(1) records), and `sched-bot status` lists a job whose
# Message-ID carries them.  The only escape on the terminal is the
# status line's own "\r ESC[K"; the hostile text is shown with '?'.
# The build is the stand-in tree's (lib-hostile.sh): no kernel.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs
command -v script >/dev/null ||
	test_skip_all "script (util-linux) is not installed"
command -v sqlite3 >/dev/null || test_skip_all "sqlite3 is not installed"

export LC_ALL=C
# Every control character but tab and newline, as a grep bracket (C).
CTL=$(printf '[\001-\010\013-\037\177]')
# How the status line starts each drawing: CR, ESC [K (erase the line).
REDRAW="$(printf '\r\033')\\[K"

CFGDIR=$XDG_CONFIG_HOME/sched-bot
mkdir -p "$CFGDIR"
cat >"$CFGDIR/config" <<EOF
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	timeout = 120
[state]
	db = $TRASH/state.db
[lore]
	url = http://127.0.0.1:1
EOF
: >"$TRASH/empty.config"

standin_tree
# make's first line, "Entering directory", is drawn at once; the next
# within 0.2 s are not (progress.h): the hostile line comes a dozen
# times, half a second apart over 6 s, and so is drawn (unless the bot
# stalls for all of those 6 s: the unit test draw_hostile in
# test-progress checks the cleaning with no clock at all).
printf '%s\n' \
	'@for i in 1 2 3 4 5 6 7 8 9 10 11 12; do \' \
	"	printf '\\033]52;c;cHdu\\007\\033]0;owned\\007\\033[2J\\033[3Jevil\\rmake line\\n'; \\" \
	'	sleep 0.5; \' \
	'done' \
	'mkdir -p $(O)/arch/x86/boot' \
	'{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage' \
	>"$TRASH/evil.mk"
hostile bzImage "$TRASH/evil.mk" evil

# on_tty FILE CMD...: CMD with stdin, stdout and stderr on a pty, all it
# wrote to the terminal in FILE, its exit code kept.
on_tty() {
	out=$1
	shift
	script -q -e -c "$*" "$out" </dev/null >/dev/null
}

# terminal_text FILE: the terminal's bytes with each of the status
# line's own "\r ESC[K" as a line break and the pty's CRLF line ends as
# LF: what is left is the text drawn, a drawing a line
terminal_text() {
	perl -pe 's/\r\e\[K/\n/g; s/\r\n/\n/g' "$1"
}

test_expect_success 'the build draws its status line on the terminal' '
	on_tty build.tty "timeout 120 \"$SCHED_BOT\" build --tree tree --rev evil \
		--base-config tinyconfig --fragment \"$TRASH/empty.config\" \
		-o out" &&
	test_grep "make line" build.tty &&
	test_grep "$REDRAW" build.tty
'

test_expect_success 'no escape of make`s reaches the terminal' '
	terminal_text build.tty >drawn &&
	test_grep ! "$CTL" drawn &&
	test_grep "^\[ *[0-9]*s\] ?\]52;c;cHdu??\]0;owned??\[2J?\[3Jevil?make line$" drawn
'

SQL="UPDATE jobs SET msgid = 'evil' || char(27) || ']0;owned' || char(7) ||
	char(27) || '[2J@evil.example', mail = 'outbox', mail_why = 'a test',
	updated_at = strftime('%s', 'now')"

test_expect_success 'status: a Message-ID with escapes is shown as text' '
	"$SCHED_BOT" cron --add cover.1669862147.git.yu.c.chen@intel.com >id &&
	sqlite3 "$TRASH/state.db" "$SQL" &&
	rc=0 && on_tty status.tty "\"$SCHED_BOT\" status" || rc=$? &&
	test $rc -le 1 &&
	terminal_text status.tty >status.out &&
	test_grep "^off the list: job [0-9]* <evil?\]0;owned??\[2J@evil.example>: outbox, a test$" status.out &&
	test_grep ! "$CTL" status.out
'

test_done
