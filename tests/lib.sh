# tests/lib.sh - a small harness for tests/t*.sh, in the manner of git's t/.
#
#   . ./lib.sh            (from a test script, after cd to its directory)
#   test_expect_success 'what it shows' '
#           cmd1 &&
#           cmd2
#   '
#   test_done
#
# Each script runs in its own trash directory ($TRASH); $SCHED_BOT and
# $SCHED_BENCH are the binaries under test; $TESTS is tests/; $SHARED is
# the read-only data shipped in tests/data.  Nothing here talks to any
# address but 127.0.0.1.

set -u
TESTS=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$TESTS/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SCHED_BOT=$BUILD/sched-bot
SCHED_BENCH=$BUILD/sched-bench
DATA=$TESTS/data
name=$(basename "$0" .sh)
TRASH=${TMPDIR:-/tmp}/sched-bot-test.$name.$$
rm -rf "$TRASH"
mkdir -p "$TRASH/home" "$TRASH/cache" "$TRASH/config"
export HOME="$TRASH/home" XDG_CACHE_HOME="$TRASH/cache" \
	XDG_CONFIG_HOME="$TRASH/config" XDG_DATA_HOME="$TRASH/home/data"
export SCHED_BOT SCHED_BENCH TESTS TOP DATA TRASH
unset SCHED_BOT_CONFIG
export LC_ALL=C TZ=UTC

test_count=0
test_pass=0
test_fail=0
test_skip=0
test_cleanups=""

# Run a command when the script ends, whatever happens (servers, mounts).
test_atexit() {
	test_cleanups="$1; $test_cleanups"
}

test_finish_() {
	eval "$test_cleanups" >/dev/null 2>&1
	test_cleanups=""
}
trap 'test_finish_' EXIT
trap 'test_finish_; exit 130' INT TERM

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -n "${SKIP_REST:-}" ]; then
		test_skip=$((test_skip + 1))
		echo "ok $test_count # skip $1 ($SKIP_REST)"
		return 0
	fi
	if (cd "$TRASH" && eval "$2") >"$TRASH/.out" 2>&1; then
		test_pass=$((test_pass + 1))
		echo "ok $test_count - $1"
	else
		test_fail=$((test_fail + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | tail -n 40
	fi
}

test_expect_failure_code() {
	# test_expect_failure_code 'desc' CODE 'cmd': cmd must exit with CODE.
	test_expect_success "$1" "
		rc=0; ( $3 ) || rc=\$?
		if [ \$rc -ne $2 ]; then echo \"exit code \$rc, expected $2\"; false; fi
	"
}

# test_skip_all REASON: the prerequisite is missing; count nothing as run.
# Under CI (CI=true) every prerequisite is installed by .ci/run, so a
# missing one is a failure there, never a silent skip.
test_skip_all() {
	if [ "${CI:-}" = true ]; then
		echo "not ok - prerequisite missing under CI: $1"
		echo "# $name: passed 0 failed 1 skipped 0"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	echo "# $name: passed 0 failed 0 skipped 0"
	exit 0
}

# Skip the rest of the script's tests with a reason (still counted).
test_skip_rest() {
	SKIP_REST=$1
}

test_done() {
	echo "# $name: passed $test_pass failed $test_fail skipped $test_skip"
	if [ "$test_fail" -eq 0 ] && [ -z "${KEEP_TRASH:-}" ]; then
		rm -rf "$TRASH"
	fi
	[ "$test_fail" -eq 0 ]
}

# test_cmp EXPECTED ACTUAL: equal files, else the diff (git's habit).
test_cmp() {
	diff -u "$1" "$2"
}

# test_grep [GREP-OPTIONS] PATTERN [FILE]: grep that, on a miss, says
# what it looked for and shows the file, so a failed check explains
# itself.  "test_grep ! ..." asserts no line matches and shows the
# lines that did.  Without FILE it reads standard input.
test_grep() {
	if [ "$1" = "!" ]; then
		shift
		if grep "$@" >"$TRASH/.grep" 2>&1; then
			echo "test_grep: expected no match for: $*"
			sed "s/^/| /" "$TRASH/.grep" | head -n 20
			return 1
		fi
		return 0
	fi
	grep "$@" >/dev/null 2>&1 && return 0
	echo "test_grep: no match for: $*"
	eval "tg_last=\${$#}"
	if [ $# -gt 1 ] && [ -f "$tg_last" ]; then
		echo "test_grep: $tg_last holds:"
		sed "s/^/| /" "$tg_last" | head -n 40
	fi
	return 1
}

# Free TCP port on 127.0.0.1 (bind to 0 and let the kernel choose).
free_port() {
	perl -MIO::Socket::INET -e \
		'print IO::Socket::INET->new(Listen=>1,LocalAddr=>"127.0.0.1:0")->sockport' 
}
