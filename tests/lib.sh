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
# $SCHED_BENCH are the binaries under test; $TESTS is tests/; $DATA is
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

# Options, as git's t/ takes them (also from $TEST_OPTS through
# tests/run-tests): -v shows every test's output, -i stops at the first
# failure (keeping the trash), --run=3-5,7 runs only those tests (the
# others are counted as skipped), --timer adds each test's wall seconds to
# its line (to find the slow ones; never asserted).
test_verbose=
test_immediate=
test_run=
test_timer=
for test_arg_ in "$@"; do
	case $test_arg_ in
	-v|--verbose) test_verbose=t ;;
	-i|--immediate) test_immediate=t ;;
	--run=*) test_run=${test_arg_#--run=} ;;
	--timer) test_timer=t ;;
	*) echo "$name: unknown option $test_arg_ (-v, -i, --run=RANGES, --timer)" >&2
		exit 2 ;;
	esac
done

# Every process the script starts carries this mark in its environment,
# so test_done finds those it left behind, and only those.
SCHED_BOT_TEST_MARK=$name.$$
export SCHED_BOT_TEST_MARK

test_count=0
test_pass=0
test_fail=0
test_skip=0

# Run a command (one line) when the script ends, whatever happens
# (servers, mounts), the newest first.  Kept in a file of the trash, not
# a variable: a test body runs in a subshell, and a server it starts
# (git_serve) must be stopped by the script all the same.
test_atexit() {
	printf "%s\n" "$1" >>"$TRASH/.cleanups"
}

test_finish_() {
	[ -f "$TRASH/.cleanups" ] || return 0
	eval "$(awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' \
		"$TRASH/.cleanups")" >/dev/null 2>&1
	rm -f "$TRASH/.cleanups"
}
trap 'test_finish_' EXIT
trap 'test_finish_; exit 130' INT TERM

# test_selected_ N: --run names test N (or there is no --run).
test_selected_() {
	[ -z "$test_run" ] && return 0
	echo "$test_run" | tr ',' '\n' | awk -v n="$1" '
		/^[0-9]+$/ && n == $0 { f = 1 }
		/^[0-9]*-[0-9]*$/ {
			split($0, r, "-")
			if ((r[1] == "" || n >= r[1] + 0) &&
			    (r[2] == "" || n <= r[2] + 0)) f = 1
		}
		END { exit !f }'
}

# " # N s" after a test's line under --timer, from its start time $1.
test_timer_() {
	[ -z "$test_timer" ] || echo " # $(($(date +%s) - $1)) s"
}

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -n "${SKIP_REST:-}" ]; then
		test_skip=$((test_skip + 1))
		echo "ok $test_count # skip $1 ($SKIP_REST)"
		return 0
	fi
	if ! test_selected_ $test_count; then
		test_skip=$((test_skip + 1))
		echo "ok $test_count # skip $1 (--run=$test_run)"
		return 0
	fi
	[ -z "$test_timer" ] || test_t0_=$(date +%s)
	if (cd "$TRASH" && eval "$2") >"$TRASH/.out" 2>&1; then
		test_pass=$((test_pass + 1))
		echo "ok $test_count - $1$(test_timer_ "${test_t0_:-}")"
		[ -z "$test_verbose" ] || sed 's/^/#   /' "$TRASH/.out"
	else
		test_fail=$((test_fail + 1))
		echo "not ok $test_count - $1$(test_timer_ "${test_t0_:-}")"
		if [ -n "$test_verbose" ]; then
			sed 's/^/#   /' "$TRASH/.out"
		else
			sed 's/^/#   /' "$TRASH/.out" | tail -n 40
		fi
		if [ -n "$test_immediate" ]; then
			echo "# $name: passed $test_pass failed $test_fail skipped $test_skip"
			echo "# -i: stopped at the first failure; the trash is kept: $TRASH"
			test_finish_
			exit 1
		fi
	fi
}

test_expect_failure_code() {
	# test_expect_failure_code 'desc' CODE 'cmd': cmd must exit with CODE.
	test_expect_success "$1" "
		rc=0; ( $3 ) || rc=\$?
		if [ \$rc -ne $2 ]; then echo \"exit code \$rc, expected $2\"; false; fi
	"
}

# test_skip_all REASON: a prerequisite is not installed; the rest of the
# script does not run.  The script counts as one skip (with the tests
# that ran before it, if any), so the closing line of run-tests shows
# it.  Under CI (CI=true) every prerequisite is installed by .ci/run, so
# a missing one is a failure there, never a silent skip.  Only for what
# is absent from the machine: when the product or the harness fails (a
# kernel that does not build, a server that does not start, a fixture
# missing from tests/data), use test_fail_all.
test_skip_all() {
	if [ "${CI:-}" = true ]; then
		test_fail_all "prerequisite missing under CI: $1"
	fi
	test_skip_script "$1"
}

# test_long: the script boots kernels for many minutes; it runs only when
# asked (SCHED_BOT_TEST_LONG=1, `make check-long`).  A skip by choice,
# not for a missing prerequisite, so it is one skip under CI too.
test_long() {
	[ -n "${SCHED_BOT_TEST_LONG:-}" ] ||
		test_skip_script "long: SCHED_BOT_TEST_LONG=1 (make check-long) runs it"
}

test_skip_script() {
	echo "1..0 # SKIP $1"
	echo "# $name: passed $test_pass failed $test_fail skipped $((test_skip + 1))"
	[ "$test_fail" -eq 0 ] || exit 1
	# nothing of it is wanted: its cleanups, then its trash, as test_done
	test_finish_
	[ -n "${KEEP_TRASH:-}" ] || rm -rf "$TRASH"
	exit 0
}

# test_fail_all REASON: something the rest of the script needs failed
# (the product, its fixtures, a peer the harness starts); stop here and
# count it as one failure, never as a skip.
test_fail_all() {
	echo "not ok - $1"
	echo "# $name: passed $test_pass failed $((test_fail + 1)) skipped $test_skip"
	exit 1
}

# Skip the rest of the script's tests with a reason (still counted).
test_skip_rest() {
	SKIP_REST=$1
}

# test_tier TIER: what the script needs, read by tests/run-tests to
# choose and order scripts (`make check-fast` leaves out kernel):
#   unit      nothing but the tool and its files
#   nokernel  local peers: stand-in trees, fixtures, the local target,
#             sshd, public-inbox, smtp-sink, a git daemon
#   kernel    the real kernel tree, kernel builds, QEMU boots, LAVA
# Run by hand, a script runs whatever its tier.
test_tier() {
	case $1 in
	unit|nokernel|kernel) ;;
	*) test_fail_all "test_tier $1: unit, nokernel or kernel" ;;
	esac
}

# test_host_sched write|read: the script changes (write) or records
# (read) the machine's own scheduler settings, sched_autogroup_enabled
# above all: sched-bench's --autogroup off flips the sysctl for its run.
# Scripts run in parallel, and a row recorded while another script had
# it off says autogroup_enabled 0 where its twin says 1.  A writer holds
# the lock alone for its life, readers share it (fd 6); bounded, so a
# process that kept it slows a script down, never hangs the suite.
test_host_sched() {
	# run-one holds it for a bundle of writers (tests/run-one)
	[ -z "${SCHED_BOT_HOST_SCHED_HELD:-}" ] || return 0
	mkdir -p "${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}"
	exec 6>"${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}/host-sched.lock"
	case $1 in
	write) flock -x -w 1800 6 ;;
	*) flock -s -w 1800 6 ;;
	esac || echo "# test_host_sched: the lock not had in 30 minutes, going on"
}

# The processes that carry this script's mark, or sit in its process
# group when it leads one (tests/run-one), and are not the caller's own
# ancestors: what the script left running.  /proc is read, no process
# name is matched, so another script's or another sched-bot's processes
# never count.
test_leftovers_() {
	perl -e '
		my ($mark, $lead, $re) = @ARGV;
		my %mine;
		for (my $p = $$; $p > 1; ) {
			$mine{$p} = 1;
			open(my $s, "<", "/proc/$p/stat") or last;
			my $l = <$s>;
			$l =~ s/^.*\) //;
			$p = (split / /, $l)[1];
		}
		opendir(my $d, "/proc") or exit 0;
		for my $p (grep { /^\d+$/ } readdir $d) {
			next if $mine{$p};
			open(my $s, "<", "/proc/$p/stat") or next;
			my $l = <$s> // next;
			$l =~ s/^.*\) //;
			my ($state, $ppid, $pgid) = split / /, $l;
			next if $state eq "Z";
			my $hit = $lead && $pgid == $lead;
			if (!$hit && open(my $e, "<", "/proc/$p/environ")) {
				my $env;
				read($e, $env, 1 << 20);
				$hit = defined $env &&
					index("\0$env", "\0SCHED_BOT_TEST_MARK=$mark\0") >= 0;
			}
			next unless $hit;
			open(my $c, "<", "/proc/$p/cmdline") or next;
			my $cmd;
			read($c, $cmd, 200);
			$cmd = "" unless defined $cmd;
			$cmd =~ s/\0/ /g;
			next if defined $re && $cmd !~ $re;
			print "$p $cmd\n";
		}' "$SCHED_BOT_TEST_MARK" "$(test_group_lead_)" "$@"
}

# test_procs REGEX: this script's own processes whose command line matches
# the (Perl) REGEX, as "PID COMMAND" lines (never another script's: see above).
test_procs() {
	test_leftovers_ "$1"
}

# The script's pid where it leads its process group, else 0.
test_group_lead_() {
	pg=$(sed 's/^.*) //' /proc/$$/stat | cut -d" " -f3)
	[ "$pg" = "$$" ] && echo $$ || echo 0
}

# After the cleanups: a process the script started must be gone.  A
# process the cleanups signalled may take a moment to exit, so the
# check waits for them a while (bounded); those still there then are
# listed, stopped, and fail the script.
test_check_leftovers_() {
	i=0
	while left=$(test_leftovers_) && [ -n "$left" ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	[ -n "$left" ] || return 0
	test_fail=$((test_fail + 1))
	echo "not ok - processes left behind by $name:"
	echo "$left" | sed 's/^/#   /'
	echo "$left" | while read -r pid rest; do
		kill -KILL "$pid" 2>/dev/null
	done
	return 0
}

test_done() {
	# The cleanups first: they may read what the trash holds (a pid
	# file), and a process they cannot find outlives the script.
	test_finish_
	test_check_leftovers_
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
# lines that did.  Without FILE it reads standard input.  Either form
# fails when grep itself does (exit 2: a missing or unreadable file, a
# bad pattern): a file that is not there matches nothing, and that
# must not pass for an absence.
test_grep() {
	tg_rc=0
	if [ "$1" = "!" ]; then
		shift
		grep "$@" >"$TRASH/.grep" 2>"$TRASH/.grep-err" || tg_rc=$?
		case $tg_rc in
		0)
			echo "test_grep: expected no match for: $*"
			sed "s/^/| /" "$TRASH/.grep" | head -n 20
			return 1 ;;
		1)
			return 0 ;;
		esac
	else
		grep "$@" >/dev/null 2>"$TRASH/.grep-err" || tg_rc=$?
		[ "$tg_rc" -ne 0 ] || return 0
		if [ "$tg_rc" -eq 1 ]; then
			echo "test_grep: no match for: $*"
			eval "tg_last=\${$#}"
			if [ $# -gt 1 ] && [ -f "$tg_last" ]; then
				echo "test_grep: $tg_last holds:"
				sed "s/^/| /" "$tg_last" | head -n 40
			fi
			return 1
		fi
	fi
	echo "test_grep: grep failed (exit $tg_rc) for: $*"
	sed "s/^/| /" "$TRASH/.grep-err" | head -n 20
	return 1
}

# Free TCP port on 127.0.0.1 (bind to 0 and let the kernel choose).
free_port() {
	perl -MIO::Socket::INET -e \
		'print IO::Socket::INET->new(Listen=>1,LocalAddr=>"127.0.0.1:0")->sockport' 
}

# git_serve DIR REPO: git daemon on 127.0.0.1 serving the bare
# repositories under DIR (killed at exit), once it answers for REPO
# (bounded, not a timed assertion); sets PORT and writes it to ./port,
# REPO's refs to ./refs.
git_serve() {
	PORT=$(free_port) && echo $PORT >port &&
	git daemon --base-path="$1" --export-all --reuseaddr \
		--listen=127.0.0.1 --port=$PORT --pid-file="$PWD/daemon.pid" \
		--detach &&
	test_atexit "kill \$(cat \"$PWD/daemon.pid\")" || return 1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		git ls-remote git://127.0.0.1:$PORT/$2 >refs 2>/dev/null &&
			return 0
		sleep 0.2
	done
	return 1
}

# test_peak_rss FILE CMD...: run CMD (its exit status is returned) and
# write to FILE the peak resident set of CMD and the children it waited
# for, in KiB, as the kernel accounted it (getrusage's ru_maxrss through
# GNU time): a memory bound a test can state without timing anything.
test_peak_rss() {
	_rss_file=$1
	shift
	/usr/bin/time -o "$_rss_file.time" -f %M "$@"
	_rss_rc=$?
	tail -n 1 "$_rss_file.time" >"$_rss_file"
	rm -f "$_rss_file.time"
	return $_rss_rc
}

# test_rss_below FILE MAX: the peak resident set test_peak_rss wrote to
# FILE was under MAX KiB; else say both figures and fail.
test_rss_below() {
	_rss=$(cat "$1") &&
	test -n "$_rss" &&
	if test "$_rss" -ge "$2"
	then
		echo "peak RSS $_rss KiB ($1), bound $2 KiB"
		return 1
	fi
}

# test_wait_port FILE PID ERRFILE: wait until the server started in the
# background as PID has written the port it listens on to FILE; if it
# dies first, show ERRFILE and fail.  Bounded (10 s), never a hang.
test_wait_port() {
	_wp_i=0
	while [ ! -s "$1" ]; do
		kill -0 "$2" 2>/dev/null || {
			cat "$3" >&2
			return 1
		}
		sleep 0.02
		_wp_i=$((_wp_i + 1))
		[ $_wp_i -lt 500 ] || return 1
	done
}
