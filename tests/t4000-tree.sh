#!/bin/sh
# sched-bot tree: import of a linux-source style tarball, once; status;
# export of a revision to a directory.
. "$(dirname "$0")/lib.sh"
test_tier nokernel

# A small tarball shaped like Debian's: one top directory, a Makefile
# with the version, an executable, a symlink, a name longer than tar's
# 100 bytes, and Debian's .gitignore block that hides everything from
# `git add`.
test_expect_success 'make a small linux-source tarball' '
	mkdir -p src/linux-source-6.1/scripts src/linux-source-6.1/kernel &&
	cd src/linux-source-6.1 &&
	printf "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 7\nEXTRAVERSION =\n" \
		>Makefile &&
	printf "#!/bin/sh\necho hi\n" >scripts/run.sh && chmod +x scripts/run.sh &&
	echo "int x;" >kernel/fair.c &&
	ln -s ../kernel/fair.c scripts/link.c &&
	long=kernel/$(printf "%0120d" 0).c &&
	echo long >"$long" &&
	printf "*.o\n/*\n!/debian/\n" >.gitignore &&
	cd .. && tar cJf ../linux-source-6.1.tar.xz linux-source-6.1
'

test_expect_success 'tree init imports it with a version tag' '
	"$SCHED_BOT" tree init --tarball linux-source-6.1.tar.xz repo.git >out &&
	cat out &&
	test_grep "imported 6 files of Linux 6.1.7" out &&
	git --git-dir=repo.git rev-parse -q --verify refs/tags/v6.1.7 &&
	git --git-dir=repo.git rev-parse -q --verify \
		refs/tags/debian-linux-source-6.1 &&
	test "$(git --git-dir=repo.git symbolic-ref HEAD)" = refs/heads/linux-6.1
'

test_expect_success 'the imported tree is what git add -f -A makes' '
	rm -rf plain && cp -R src/linux-source-6.1 plain && cd plain &&
	git init -q && git add -f -A && want=$(git write-tree) &&
	got=$(git --git-dir=../repo.git rev-parse "v6.1.7^{tree}") &&
	test "$want" = "$got"
'

test_expect_success 'a second init finds it and imports nothing' '
	"$SCHED_BOT" tree init --tarball /nonexistent.tar.xz repo.git >out &&
	test_grep "already there (v6.1.7)" out
'

test_expect_success 'the same tarball gives the same commit' '
	"$SCHED_BOT" tree init --tarball linux-source-6.1.tar.xz again.git &&
	test "$(git --git-dir=again.git rev-parse v6.1.7)" = \
		"$(git --git-dir=repo.git rev-parse v6.1.7)"
'

test_expect_success 'concurrent imports: one imports, the other waits' '
	"$SCHED_BOT" tree init --tarball linux-source-6.1.tar.xz c.git \
		>c1.out 2>c1.err &
	"$SCHED_BOT" tree init --tarball linux-source-6.1.tar.xz c.git \
		>c2.out 2>c2.err &&
	wait $! &&
	cat c1.out c2.out c1.err c2.err &&
	test "$(cat c1.out c2.out | grep -c "imported 6 files")" -le 1 &&
	test "$(git --git-dir=c.git rev-parse v6.1.7)" = \
		"$(git --git-dir=repo.git rev-parse v6.1.7)" &&
	test ! -e c.git.lock && ! ls -d c.git.tmp.* 2>/dev/null
'

test_expect_success 'a stale lock and a killed import are cleaned up' '
	echo 999999999 >s.git.lock &&
	mkdir -p s.git.tmp.999999999/objects &&
	"$SCHED_BOT" tree init --tarball linux-source-6.1.tar.xz s.git \
		>out 2>err &&
	cat out err &&
	test_grep "imported 6 files" out &&
	test_grep "stale lock" err &&
	test ! -e s.git.lock && test ! -e s.git.tmp.999999999
'

test_expect_success 'tree.path is the default DIR' '
	printf "[tree]\n\tpath = %s/repo.git\n" "$TRASH" >cfg &&
	"$SCHED_BOT" --config cfg tree status >out &&
	test_grep "^path $TRASH/repo.git$" out &&
	test_grep "refs/tags/v6.1.7$" out
'

test_expect_success 'with no DIR and no tree.path, a fresh data dir is made' '
	rm -rf "$XDG_DATA_HOME" &&
	XDG_CONFIG_HOME=$TRASH/noconfig "$SCHED_BOT" tree init \
		--tarball linux-source-6.1.tar.xz &&
	git --git-dir="$XDG_DATA_HOME/sched-bot/linux.git" rev-parse -q \
		--verify linux-6.1
'

test_expect_success 'tree export writes the files, no .git' '
	"$SCHED_BOT" tree export --tree repo.git v6.1.7 out-dir &&
	diff -r src/linux-source-6.1 out-dir &&
	test -x out-dir/scripts/run.sh &&
	test "$(readlink out-dir/scripts/link.c)" = ../kernel/fair.c &&
	test ! -e out-dir/.git
'

test_expect_failure_code 'tree export refuses a non-empty directory' 1 \
	'"$SCHED_BOT" tree export --tree repo.git v6.1.7 out-dir'

test_expect_failure_code 'tree export of an unknown revision' 1 \
	'"$SCHED_BOT" tree export --tree repo.git v9.9 other-dir'

test_expect_failure_code 'tree status of a missing tree is not found' 3 \
	'"$SCHED_BOT" tree status nowhere.git'

test_expect_failure_code 'tree init of a missing tarball is not found' 3 \
	'"$SCHED_BOT" tree init --tarball missing.tar.xz new.git'

test_expect_success 'a failed import leaves nothing behind' '
	! ls -d new.git* 2>/dev/null
'

test_expect_failure_code 'a truncated tarball fails cleanly' 1 '
	head -c 300 linux-source-6.1.tar.xz >bad.tar.xz &&
	"$SCHED_BOT" tree init --tarball bad.tar.xz bad.git
'

test_expect_failure_code 'tree fetch without URL or tree.remote' 2 \
	'"$SCHED_BOT" tree fetch --tree repo.git'

test_expect_success 'tree fetch of a local repository (tree.remote)' '
	git clone -q --bare "$DATA/intake/b4/gitdir.bundle" other.git &&
	printf "[tree]\n\tremote = %s/other.git\n" "$TRASH" >fcfg &&
	LSAN_OPTIONS=suppressions=$DATA/apply/lsan.supp \
		"$SCHED_BOT" --config fcfg tree fetch --tree repo.git &&
	test "$(git --git-dir=repo.git rev-parse origin/master)" = \
		"$(git --git-dir=other.git rev-parse master)"
'

test_expect_failure_code 'unknown subcommand is a usage error' 2 \
	'"$SCHED_BOT" tree frob'

test_done
