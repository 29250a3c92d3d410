#!/bin/sh
# The harness itself: a check that cannot see what it checks fails, and
# a skip is counted.  test_grep on a file that is not there, or with a
# pattern grep refuses, fails in both forms; test_skip_all counts one
# skip (a failure under CI), test_fail_all one failure; run-tests adds
# a skipped script to its closing line and names it.
. "$(dirname "$0")/lib.sh"
test_tier unit

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
	cp "$TESTS/lib.sh" "$TESTS/run-tests" "$TESTS/run-one" "$TRASH/h/" &&
	printf '#!/bin/sh\n. "$(dirname "$0")/lib.sh"\ntest_tier unit\n%s\n' "$2" \
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
	T= TMPDIR=$TRASH/tmp CI=false BUILD=$TRASH/empty-build J=1 \
		SCHED_BOT_TEST_CACHE=$TRASH/kcache \
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
	T= TMPDIR=$TRASH/tmp CI=false BUILD=$TRASH/empty-build J=1 \
		SCHED_BOT_TEST_CACHE=$TRASH/kcache \
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

# run_tests ARGS...: h/run-tests over the scripts in h/, its output in
# run.out and its exit code in rc; J_SELF and TIERS_SELF say J and TIERS
# (an assignment before a function call outlives the call in sh).
run_tests() {
	rc=0
	T= TEST_OPTS= TMPDIR=$TRASH/tmp CI=false BUILD=$TRASH/empty-build \
		J=${J_SELF:-1} TIERS=${TIERS_SELF:-unit nokernel kernel} \
		SCHED_BOT_TEST_CACHE=$TRASH/kcache \
		sh h/run-tests "$@" >run.out 2>&1 || rc=$?
	cat run.out
}

# Two scripts whose lines would interleave if printed as they come:
# each prints a line, waits for the other to have started, prints again.
test_expect_success 'run-tests J=2: two scripts at once, each printed whole' '
	rm -rf h kcache && mkdir -p tmp empty-build sync &&
	mkscript t1-a "touch $TRASH/sync/a
test_expect_success a1 true
i=0; while [ ! -e $TRASH/sync/b ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i+1)); done
test_expect_success a2 \"test -e $TRASH/sync/b\"
test_done" &&
	mkscript t2-b "touch $TRASH/sync/b
test_expect_success b1 true
i=0; while [ ! -e $TRASH/sync/a ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i+1)); done
test_expect_success b2 \"test -e $TRASH/sync/a\"
test_done" &&
	J_SELF=2 run_tests &&
	test $rc -eq 0 &&
	test "$(tail -n 1 run.out)" = "4 passed, 0 failed, 0 skipped" &&
	grep "^ok [0-9] - [ab][12]$" run.out | cut -c8 >order &&
	test "$(tr -d "\n" <order)" = aabb ||
	test "$(tr -d "\n" <order)" = bbaa
'

test_expect_success 'run-tests J=1 and J=2 count the same tests' '
	J_SELF=1 run_tests && mv run.out run1.out &&
	J_SELF=2 run_tests &&
	test "$(tail -n 1 run1.out)" = "$(tail -n 1 run.out)"
'

test_expect_success 'run-tests starts the longest script first (the last run times)' '
	rm -rf h kcache && mkdir -p tmp empty-build kcache &&
	mkscript t1-short "test_expect_success short true
test_done" &&
	mkscript t2-long "test_expect_success long true
test_done" &&
	J_SELF=1 run_tests &&
	grep "^ok 1 - " run.out | head -n 1 | grep short &&
	printf "1 t1-short\n90 t2-long\n" >kcache/test-times &&
	J_SELF=1 run_tests &&
	grep "^ok 1 - " run.out | head -n 1 | grep long &&
	# a whole run keeps its times for the next one
	grep " t1-short$" kcache/test-times
'

test_expect_success 'run-tests: TIERS leaves out a tier; a script with no tier fails' '
	rm -rf h && mkdir -p tmp empty-build &&
	mkscript t1-unit "test_expect_success u true
test_done" &&
	mkscript t2-kern "test_expect_success k true
test_done" &&
	sed -i "s/^test_tier unit$/test_tier kernel/" h/t2-kern.sh &&
	TIERS_SELF="unit nokernel" run_tests &&
	test $rc -eq 0 &&
	test "$(tail -n 1 run.out)" = "1 passed, 0 failed, 0 skipped" &&
	test_grep ! "^ok 1 - k$" run.out &&
	TIERS_SELF= run_tests t2 &&
	test "$(tail -n 1 run.out)" = "1 passed, 0 failed, 0 skipped" &&
	sed -i "/^test_tier/d" h/t2-kern.sh &&
	run_tests &&
	test $rc -eq 1 &&
	grep "^# t2-kern: no test_tier line" run.out
'

test_expect_success '--run=2,4- runs only those tests, -i stops at the first failure' '
	mkscript t6-opts "test_expect_success one true
test_expect_success two true
test_expect_success three false
test_expect_success four true
test_expect_success five true
test_done" &&
	rc=0 && TMPDIR=$TRASH/tmp sh h/t6-opts.sh --run=2,4- >opts.out || rc=$? &&
	test $rc -eq 0 &&
	grep "^ok 1 # skip one (--run=2,4-)$" opts.out &&
	grep "^ok 2 - two$" opts.out &&
	grep "^ok 5 - five$" opts.out &&
	grep "^# t6-opts: passed 3 failed 0 skipped 2$" opts.out &&
	rc=0 && TMPDIR=$TRASH/tmp sh h/t6-opts.sh -i >opts.out || rc=$? &&
	test $rc -eq 1 &&
	grep "^not ok 3 - three$" opts.out &&
	test_grep ! "four" opts.out &&
	rm -rf tmp/sched-bot-test.t6-opts.*
'

# A process the script started and did not stop fails the script, and
# is stopped; one that carries another script's mark is not its own.
test_expect_success 'test_done fails a script that leaves a process behind' '
	mkscript t7-leak "" &&
	cat >>h/t7-leak.sh <<-\EOS &&
	sleep 301 </dev/null >/dev/null 2>&1 &
	echo $! >"$OUTER/leak.pid"
	SCHED_BOT_TEST_MARK=another.1 sleep 302 </dev/null >/dev/null 2>&1 &
	echo $! >"$OUTER/other.pid"
	test_expect_success one true
	test_done
	EOS
	export OUTER="$TRASH" &&
	run_script t7-leak &&
	kill "$(cat other.pid)" &&
	test $rc -eq 1 &&
	grep "^not ok - processes left behind by t7-leak:$" t7-leak.out &&
	grep "^#   $(cat leak.pid) sleep 301" t7-leak.out &&
	test_grep ! "sleep 302" t7-leak.out &&
	# killed: gone once init has reaped it
	i=0 && while kill -0 "$(cat leak.pid)" 2>/dev/null && [ $i -lt 50 ]
	do sleep 0.1; i=$((i + 1)); done &&
	! kill -0 "$(cat leak.pid)" 2>/dev/null &&
	grep "^# t7-leak: passed 1 failed 1 skipped 0$" t7-leak.out
'

test_done
