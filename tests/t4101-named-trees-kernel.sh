#!/bin/sh
# A named tree on the real kernel: "tip" is Debian's 6.1 import plus two
# scheduler commits, served by git daemon on 127.0.0.1; the bot's tree
# is the import alone.  A series whose base-commit: is tip's head is
# applied on exactly that commit after the fetch, which carries only the
# two commits (the import is common history).
#
# The import is the one of t4002, cached in $SCHED_BOT_TEST_CACHE and
# only read here: both repositories borrow its objects (alternates).
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

TARBALL=${SCHED_BOT_TEST_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}
TREE=$CACHE/tree/linux-source-6.1.git
[ -r "$TARBALL" ] || test_skip_all "no $TARBALL (apt-get install linux-source-6.1)"
export GIT_CONFIG_NOSYSTEM=1
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$XDG_CONFIG_HOME/sched-bot"

# A bare repository with the import's refs, borrowing its objects.
borrow() {
	git init -q --bare "$1" &&
	echo "$TREE/objects" >"$1/objects/info/alternates" &&
	git --git-dir="$TREE" for-each-ref --format="%(refname) %(objectname)" |
	while read ref oid; do
		git --git-dir="$1" update-ref "$ref" "$oid" || exit 1
	done &&
	git --git-dir="$1" symbolic-ref HEAD refs/heads/linux-6.1
}

test_expect_success 'the cached 6.1 tree (imported on first use)' '
	mkdir -p "$CACHE/tree" &&
	"$SCHED_BOT" tree init --tarball "$TARBALL" "$TREE" &&
	git --git-dir="$TREE" rev-parse -q --verify debian-linux-source-6.1
'

test_expect_success 'tip: the import plus two commits, over git daemon' '
	mkdir srv && borrow srv/tip.git &&
	c1=$(kernel_commit_to srv/tip.git linux-6.1 kernel/sched/fair.c \
		"1s|^|// tip: first\n|" "sched/fair: A first tip commit") &&
	c2=$(kernel_commit_to srv/tip.git $c1 kernel/sched/fair.c \
		"2s|^|// tip: second\n|" "sched/fair: The tip head") &&
	git --git-dir=srv/tip.git update-ref refs/heads/sched/core $c2 &&
	echo $c2 >C &&
	p=$(kernel_commit_to srv/tip.git $c2 kernel/sched/fair.c \
		"3s|^|// the series\n|" "sched/fair: The series") &&
	git --git-dir=srv/tip.git format-patch -q --stdout --base=$c2 \
		-1 $p >series.mbox &&
	test_grep "^base-commit: $c2" series.mbox &&
	PORT=$(free_port) &&
	git daemon --base-path="$PWD/srv" --export-all --reuseaddr \
		--listen=127.0.0.1 --port=$PORT --pid-file="$PWD/daemon.pid" \
		--detach &&
	test_atexit "kill \$(cat \"$TRASH/daemon.pid\")" &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		git ls-remote git://127.0.0.1:$PORT/tip.git >refs 2>/dev/null &&
			break
		sleep 0.2
	done &&
	test_grep "refs/heads/sched/core" refs &&
	borrow k.git &&
	cat >"$CFG" <<-EOF
	[tree]
		path = $TRASH/k.git
	[tree "tip"]
		url = git://127.0.0.1:$PORT/tip.git
		branches = sched/core
		paths = kernel/sched/
	EOF
'

test_expect_success 'the series is applied on the tip head after the fetch' '
	C=$(cat C) &&
	! git --git-dir=k.git cat-file -e $C 2>/dev/null &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "fetched tree tip" err &&
	test_grep "^base $C tip/sched/core $(echo $C | cut -c1-12) (sched/fair: The tip head)$" out &&
	test "$(git --git-dir=k.git rev-parse sched-bot/sched-fair-the-series-v1^)" = $C &&
	git --git-dir=k.git show sched-bot/sched-fair-the-series-v1:kernel/sched/fair.c |
		head -3 >top &&
	printf "%s\n" "// tip: first" "// tip: second" "// the series" >want &&
	test_cmp want top
'

test_expect_success 'the fetch carried the two commits, not the import' '
	git --git-dir=k.git count-objects -v >count &&
	cat count &&
	n=$(sed -n "s/^in-pack: //p" count) &&
	loose=$(sed -n "s/^count: //p" count) &&
	test $((n + loose)) -gt 0 &&
	test $((n + loose)) -lt 100
'

test_done
