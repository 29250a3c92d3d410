#!/bin/sh
# The shape of the code: the stage order of bot/README.md and the line
# between the library and the tool, checked on the real tree and on
# the built archive, and shown to fail when broken.
. "$(dirname "$0")/lib.sh"
test_tier unit

test_expect_success 'no module includes a header of a later stage' '
	sh "$TESTS/check-layering" "$TOP"
'

test_expect_success 'a later-stage include is caught' '
	mkdir -p tree/bot/target &&
	cp "$TOP/bot/README.md" tree/bot/ &&
	printf "#include \"job.h\"\n" >tree/bot/lore.c &&
	! sh "$TESTS/check-layering" tree 2>err &&
	grep "lore.c (stage 1) includes job.h (stage 10, later)" err
'

test_expect_success 'a module missing from the table is caught' '
	mkdir -p tree2/bot/target &&
	cp "$TOP/bot/README.md" tree2/bot/ &&
	: >tree2/bot/newstage.c &&
	! sh "$TESTS/check-layering" tree2 2>err &&
	grep "newstage.c is in no stage" err
'

test_expect_success 'a target backend header outside bot/target/ is caught' '
	mkdir -p tree3/bot/target tree3/bot/builtin &&
	cp "$TOP/bot/README.md" tree3/bot/ &&
	printf "#include \"target/target.h\"\n" >tree3/bot/plan.c &&
	printf "#include \"target/common.h\"\n" >tree3/bot/target/qemu.c &&
	printf "#include \"target/target.h\"\n" >tree3/bot/builtin/boot.c &&
	sh "$TESTS/check-layering" tree3 &&
	printf "#include \"target/lava.h\"\n" >tree3/bot/builtin/target.c &&
	printf "#include \"target/common.h\"\n" >tree3/bot/plan.c &&
	! sh "$TESTS/check-layering" tree3 2>err &&
	grep "bot/builtin/target.c includes target/lava.h: only target/target.h" err &&
	grep "bot/plan.c includes target/common.h: only target/target.h" err &&
	! grep "qemu.c\|boot.c" err
'

test_expect_success 'the library archive holds no builtin symbol' '
	sh "$TESTS/check-lib" "$BUILD/libsched-bot.a" &&
	! nm "$BUILD/libsched-bot.a" | grep -E " [TtU] cmd_[a-z]+$"
'

test_expect_success 'check-lib refuses an archive that reaches a builtin' '
	printf "int cmd_fake(void);\nint f(void) { return cmd_fake(); }\n" >bad.c &&
	cc -c -o bad.o bad.c && ar rcs bad.a bad.o &&
	! sh "$TESTS/check-lib" bad.a 2>err &&
	grep "cmd_fake" err && test ! -e bad.a
'

test_expect_success 'only the allowlisted objects read the configuration' '
	sh "$TESTS/check-config" "$BUILD/libsched-bot.a" \
		"$TESTS/config-at-bottom.txt"
'

test_expect_success 'check-config refuses a new reader and a stale allowlist' '
	printf "const char *config_get(const char *k);\n" >cfg.c &&
	printf "const char *f(void) { return config_get(\"a.b\"); }\n" >>cfg.c &&
	cc -c -o reader.o cfg.c && ar rcs cfg.a reader.o &&
	: >empty.txt &&
	! sh "$TESTS/check-config" cfg.a empty.txt 2>err &&
	grep "^	reader.o$" err && test ! -e cfg.a &&
	ar rcs cfg.a reader.o &&
	printf "# shrink me\nreader.o\n" >allow.txt &&
	sh "$TESTS/check-config" cfg.a allow.txt &&
	printf "reader.o\ngone.o\n" >allow.txt &&
	! sh "$TESTS/check-config" cfg.a allow.txt 2>err &&
	grep "^	gone.o$" err
'

# One way to start a program, the filtered one (bot/subproc.h): no exec
# that passes our environment (execl, execlp, execv, execvp use
# environ), and environ read only where the allowlists are.  sched-bench
# (bot/workloads/) runs with the environment it was given and is not
# the bot.
test_expect_success 'no child is started with our whole environment' '
	(cd "$TOP" && grep -nE "\<(execlp?|execvp?|system|popen)[[:space:]]*\(" \
		bot/*.c bot/target/*.c bot/builtin/*.c) >execs || true &&
	test_cmp /dev/null execs &&
	(cd "$TOP" && grep -lw environ bot/*.c bot/target/*.c bot/builtin/*.c) >env-users &&
	printf "%s\n" bot/sandbox.c bot/subproc.c >expect &&
	test_cmp expect env-users
'

test_done
