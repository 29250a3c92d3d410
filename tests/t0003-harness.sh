#!/bin/sh
# The harness itself: a check that cannot see what it checks fails, and
# a skip is counted.  test_grep on a file that is not there, or with a
# pattern grep refuses, fails in both forms; test_skip_all counts one
# skip (a failure under CI), test_fail_all one failure; run-tests adds
# a skipped script to its closing line and names it.
. "$(dirname "$0")/lib.sh"

test_expect_success 'test_grep ! PATTERN on a missing file fails' '
	rc=0 && (test_grep ! x missing-file) >out 2>&1 || rc=$? &&
	cat out &&
	test $rc -eq 1 &&
	grep "^test_grep: grep failed (exit 2) for: x missing-file" out
'

test_expect_success 'test_grep PATTERN on a missing file fails' '
	rc=0 && (test_grep x missing-file) >out 2>&1 || rc=$? &&
	cat out &&
	test $rc -eq 1 &&
	grep "^test_grep: grep failed (exit 2) for: x missing-file" out
'

test_expect_success 'test_grep ! with one file of two missing fails' '
	echo a >present &&
	rc=0 && (test_grep ! x present missing-file) >out 2>&1 || rc=$? &&
	cat out &&
	test $rc -eq 1 &&
	grep "grep failed" out
'

test_expect_success 'test_grep with a pattern grep refuses fails, both forms' '
	echo a >present &&
	rc=0 && (test_grep ! "a\\{1" present) >out 2>&1 || rc=$? &&
	cat out && test $rc -eq 1 && grep "grep failed (exit 2)" out &&
	rc=0 && (test_grep "a\\{1" present) >out 2>&1 || rc=$? &&
	cat out && test $rc -eq 1 && grep "grep failed (exit 2)" out
'

test_expect_success 'test_grep: a match passes, a miss fails and shows the file' '
	printf "one\ntwo\n" >f &&
	(test_grep "^two$" f) &&
	rc=0 && (test_grep "^three$" f) >out 2>&1 || rc=$? &&
	cat out &&
	test $rc -eq 1 &&
	grep "^test_grep: no match for: ^three\$ f" out &&
	grep "^| two$" out
'

test_expect_success 'test_grep !: no match passes, a match fails and shows it' '
	printf "one\ntwo\n" >f &&
	(test_grep ! "^three$" f) &&
	rc=0 && (test_grep ! "^two$" f) >out 2>&1 || rc=$? &&
	cat out &&
	test $rc -eq 1 &&
	grep "^test_grep: expected no match for: ^two\$ f" out &&
	grep "^| two$" out
'

test_expect_success 'test_grep reads standard input without a file' '
	echo one | test_grep one &&
	echo one | test_grep ! two &&
	rc=0 && { echo one | test_grep ! one; } >out 2>&1 || rc=$? &&
	test $rc -eq 1 &&
	rc=0 && { echo one | test_grep two; } >out 2>&1 || rc=$? &&
	test $rc -eq 1
'

# A script of the harness's own, run by sh with the harness's lib.sh:
# mkscript NAME BODY
mkscript() {
	mkdir -p "$TRASH/h" "$TRASH/tmp" &&
	cp "$TESTS/lib.sh" "$TESTS/run-tests" "$TRASH/h/" &&
	printf '#!/bin/sh\n. "$(dirname "$0")/lib.sh"\n%s\n' "$2" \
		>"$TRASH/h/$1.sh"
}
# run_script NAME: its exit code in rc, its output in NAME.out
run_script() {
	rc=0
	TMPDIR=$TRASH/tmp CI=${CI_SELF:-false} sh "$TRASH/h/$1.sh" \
		>"$TRASH/$1.out" 2>&1 || rc=$?
	cat "$TRASH/$1.out"
}

test_expect_success 'test_skip_all counts one skip and passes' '
	mkscript t1-skip "test_skip_all \"no frobnicator\"" &&
	run_script t1-skip &&
	test $rc -eq 0 &&
	grep "^1\\.\\.0 # SKIP no frobnicator$" t1-skip.out &&
	grep "^# t1-skip: passed 0 failed 0 skipped 1$" t1-skip.out &&
	# a skipped script leaves no trash behind
	test -d tmp &&
	test -z "$(ls tmp)"
'

test_expect_success 'test_skip_all under CI=true is a failure' '
	mkscript t1-skip "test_skip_all \"no frobnicator\"" &&
	CI_SELF=true run_script t1-skip &&
	test $rc -eq 1 &&
	grep "^not ok - prerequisite missing under CI: no frobnicator$" \
		t1-skip.out &&
	grep "^# t1-skip: passed 0 failed 1 skipped 0$" t1-skip.out
'

test_expect_success 'test_skip_all keeps the tests that ran before it' '
	mkscript t2-late "test_expect_success one true
test_expect_success two false
test_skip_all \"no frobnicator\"" &&
	run_script t2-late &&
	test $rc -eq 1 &&
	grep "^# t2-late: passed 1 failed 1 skipped 1$" t2-late.out
'

test_expect_success 'test_fail_all counts one failure and fails' '
	mkscript t3-fail "test_expect_success one true
test_fail_all \"the base kernel does not build\"
test_expect_success never true" &&
	run_script t3-fail &&
	test $rc -eq 1 &&
	grep "^not ok - the base kernel does not build$" t3-fail.out &&
	grep "^# t3-fail: passed 1 failed 1 skipped 0$" t3-fail.out &&
	test_grep ! never t3-fail.out
'

test_expect_success 'run-tests counts a skipped script and names the skips' '
	rm -rf h && mkdir -p tmp empty-build &&
	mkscript t1-pass "test_expect_success one true
test_done" &&
	mkscript t2-skip "test_skip_all \"no frobnicator\"" &&
	mkscript t3-rest "test_expect_success one true
test_skip_rest \"no widget\"
test_expect_success two true
test_expect_success three true
test_done" &&
	rc=0 &&
	TMPDIR=$TRASH/tmp CI=false BUILD=$TRASH/empty-build \
		sh h/run-tests >run.out 2>&1 || rc=$? &&
	cat run.out &&
	test $rc -eq 0 &&
	test "$(tail -n 1 run.out)" = "2 passed, 0 failed, 3 skipped" &&
	sed -n "/^skipped:$/,/^[^ ]/p" run.out >skips &&
	grep "^  t2-skip: no frobnicator$" skips &&
	grep "^  t3-rest: 2 skipped (no widget)$" skips &&
	test_grep ! t1-pass skips
'

test_expect_success 'run-tests: a script that stops on test_fail_all fails the run' '
	rm -rf h && mkdir -p tmp empty-build &&
	mkscript t1-pass "test_expect_success one true
test_done" &&
	mkscript t2-fail "test_fail_all \"sshd did not start\"" &&
	rc=0 &&
	TMPDIR=$TRASH/tmp CI=false BUILD=$TRASH/empty-build \
		sh h/run-tests >run.out 2>&1 || rc=$? &&
	cat run.out &&
	test $rc -eq 1 &&
	grep "^failed: t2-fail$" run.out &&
	test "$(tail -n 1 run.out)" = "1 passed, 1 failed, 0 skipped"
'

# A cleanup that reads the trash (a pid file) ran after test_done had
# removed it, so the process it was to stop outlived the script.
test_expect_success 'test_atexit cleanups run before the trash is removed' '
	mkscript t4-atexit "" &&
	cat >>h/t4-atexit.sh <<-\EOS &&
	sleep 300 </dev/null >/dev/null 2>&1 &
	echo $! >"$TRASH/sleep.pid"
	echo $! >"$OUTER/sleep.pid"
	test_atexit "cat \"$TRASH/sleep.pid\" >\"$OUTER/seen\" && kill \$(cat \"$TRASH/sleep.pid\")"
	test_expect_success one true
	test_done
	EOS
	export OUTER="$TRASH" &&
	run_script t4-atexit &&
	test $rc -eq 0 &&
	test -s sleep.pid &&
	test_cmp sleep.pid seen ||
	{ kill "$(cat sleep.pid)"; false; }
'

# A server a test body starts (git_serve) registers its cleanup in the
# test's subshell: it must still run when the script ends.
test_expect_success 'a cleanup registered inside a test runs at the end' '
	mkscript t5-atexit "" &&
	cat >>h/t5-atexit.sh <<-\EOS &&
	start_sleeper() {
		sleep 300 </dev/null >/dev/null 2>&1 &
		echo $! >"$OUTER/sleep5.pid"
		test_atexit "kill \$(cat \"$OUTER/sleep5.pid\") && echo done >\"$OUTER/killed\""
	}
	test_expect_success start start_sleeper
	test_done
	EOS
	export OUTER="$TRASH" &&
	run_script t5-atexit &&
	test $rc -eq 0 &&
	test -s sleep5.pid &&
	echo done >expect &&
	test_cmp expect killed ||
	{ kill "$(cat sleep5.pid)"; false; }
'

test_done
