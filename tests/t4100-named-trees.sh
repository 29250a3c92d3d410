#!/bin/sh
# Named trees: a "tip" tree served by a real git daemon on 127.0.0.1, a
# bot tree that lacks it, and a series whose base is only there.  The
# base is fetched on demand and the series applied on exactly that
# commit; a series with no base line lands where its blob hashes match;
# a base no tree has is said; a fetch that cannot finish fails in time
# and leaves no temporary pack.  The trees of the lists a series was
# sent to are tried before those of its paths.
# Mails that are no [PATCH] series (tip-bot, a diff in a reply) apply
# as one commit.
. "$(dirname "$0")/lib.sh"
test_tier nokernel

export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL=ada@example.org
export GIT_COMMITTER_NAME="Ada Author" GIT_COMMITTER_EMAIL=ada@example.org
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$XDG_CONFIG_HOME/sched-bot"

# A fresh bot tree: one unrelated "import" commit, as `tree init` makes.
fresh_tree() {
	rm -rf k.git imp &&
	git init -q imp &&
	mkdir -p imp/kernel/sched &&
	echo "VERSION = 6" >imp/Makefile &&
	printf "int import;\n" >imp/kernel/sched/fair.c &&
	git -C imp add . &&
	git -C imp commit -q -m "Import linux-source" &&
	git -C imp tag v6.1.5 &&
	git clone -q --bare imp k.git &&
	rm -rf imp
}

# kernel/sched/fair.c with line n changed: every commit a new blob.
fair() {
	i=1
	while [ $i -le 30 ]; do
		if [ $i = "$1" ]; then
			echo "int line$i = $2;"
		else
			echo "int line$i;"
		fi
		i=$((i + 1))
	done
}

test_expect_success 'a tip tree with sched/core, served by git daemon' '
	git init -q -b master up &&
	mkdir -p up/kernel/sched &&
	echo "VERSION = 6" >up/Makefile &&
	fair 1 1 >up/kernel/sched/fair.c &&
	git -C up add . && git -C up commit -q -m "Linux 6.13" &&
	git -C up tag v6.13 &&
	git -C up checkout -q -b sched/core &&
	fair 5 5 >up/kernel/sched/fair.c &&
	git -C up commit -q -am "sched/fair: the second state" &&
	B=$(git -C up rev-parse HEAD) &&
	fair 9 9 >up/kernel/sched/fair.c &&
	git -C up commit -q -am "sched/fair: Rework the tip head" &&
	C=$(git -C up rev-parse HEAD) &&
	echo "$B" >B && echo "$C" >C &&
	mkdir srv && git clone -q --bare up srv/tip.git &&
	git_serve "$PWD/srv" tip.git &&
	test_grep "refs/heads/sched/core" refs &&
	cat >"$CFG" <<-EOF
	[tree]
		path = $TRASH/k.git
		fetchTimeout = 30
	[tree "tip"]
		url = git://127.0.0.1:$PORT/tip.git
		branches = sched/core master
		lists = linux-kernel@vger.kernel.org
		paths = kernel/sched/
	EOF
'

# A patch on the commit $1 of up, written by format-patch with $2...
make_patch() {
	at=$1 && shift &&
	rm -rf w && git clone -q up w && git -C w checkout -q "$at" &&
	fair 20 20 >w/kernel/sched/fair.c &&
	git -C w commit -q -am "sched/fair: Change line 20" &&
	git -C w format-patch -q --stdout "$@" -1 HEAD >series.mbox
}

# The same on a commit of w's own that no tree has.
make_private_patch() {
	rm -rf w && git clone -q up w && git -C w checkout -q "$1" &&
	fair 25 25 >w/kernel/sched/fair.c &&
	git -C w commit -q -am "private: only here" &&
	fair 20 20 >w/kernel/sched/fair.c &&
	git -C w commit -q -am "sched/fair: Change line 20" &&
	git -C w format-patch -q --stdout -1 HEAD >series.mbox
}

test_expect_success 'base-commit: the tip head, fetched, applied on it' '
	fresh_tree &&
	C=$(cat C) &&
	make_patch "$C" --base="$C" &&
	test_grep "^base-commit: $C" series.mbox &&
	! git -C k.git cat-file -e "$C" 2>/dev/null &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "fetching tree tip" err &&
	test_grep "^base $C tip/sched/core $(echo $C | cut -c1-12) (sched/fair: Rework the tip head)$" out &&
	test "$(git -C k.git rev-parse sched-bot/sched-fair-change-line-20-v1^)" = "$C" &&
	test "$(git -C k.git rev-parse refs/remotes/tip/sched/core)" = "$C"
'

test_expect_success 'tree status lists the tree, its heads and last fetch' '
	"$SCHED_BOT" tree status >out &&
	cat out &&
	test_grep "^tree tip git://127.0.0.1:.*/tip.git$" out &&
	test_grep "^  sched/core $(cut -c1-12 C) (sched/fair: Rework the tip head)$" out &&
	test_grep "^  master [0-9a-f]\{12\} (Linux 6.13)$" out &&
	test_grep "^  path kernel/sched/$" out &&
	test_grep "^  list linux-kernel@vger.kernel.org$" out &&
	test_grep ! "last fetch never" out &&
	test_grep "^  last fetch 2" out
'

test_expect_success 'tree status says which heads have a kernel in the cache' '
	T=$(git -C k.git rev-parse "$(cat C)^{tree}" | cut -c1-16) &&
	mkdir -p "$XDG_CACHE_HOME/sched-bot/builds/art-$T-0123" &&
	: >"$XDG_CACHE_HOME/sched-bot/builds/art-$T-0123/bzImage" &&
	"$SCHED_BOT" tree status >out &&
	test_grep "^  sched/core $(cut -c1-12 C) (sched/fair: Rework the tip head), built$" out &&
	test_grep "^  master [0-9a-f]\{12\} (Linux 6.13)$" out &&
	rm -r "$XDG_CACHE_HOME/sched-bot/builds/art-$T-0123"
'

test_expect_success '"tip:sched/core at commit <short sha>" in the cover' '
	fresh_tree &&
	C=$(cat C) && SHORT=$(echo $C | cut -c1-12) &&
	make_patch "$C" &&
	git -C w format-patch -q --stdout --cover-letter -1 HEAD |
		sed "s/^\*\*\* BLURB HERE \*\*\*$/This is based on tip:sched\/core at commit $SHORT./" \
		>series.mbox &&
	test_grep "at commit $SHORT" series.mbox &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "^base $C tip/sched/core $SHORT (sched/fair: Rework the tip head)$" out &&
	test "$(git -C k.git rev-parse "refs/heads/sched-bot/$(sed -n "s/^head [0-9a-f]* refs\/heads\/sched-bot\///p" out)^")" = "$C"
'

test_expect_success 'no base line: the commit whose blobs the patch has' '
	fresh_tree &&
	B=$(cat B) &&
	make_patch "$B" &&
	test_grep ! "^base-commit:" series.mbox &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "^base $B tip/sched/core $(echo $B | cut -c1-12) (sched/fair: the second state), found by the patches. blob hashes$" out &&
	test "$(git -C k.git rev-parse sched-bot/sched-fair-change-line-20-v1^)" = "$B"
'

test_expect_success 'a base no configured tree has: the stated fallback' '
	fresh_tree &&
	make_private_patch "$(cat C)" &&
	printf "\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n" \
		>>series.mbox &&
	rc=0 && "$SCHED_BOT" apply --mbox series.mbox --json >out 2>err ||
		rc=$? &&
	cat out err &&
	test_grep "fetching tree tip" err &&
	test_grep "base-commit 0123456789ab, which this tree lacks: the stated base is in no configured tree; tested on HEAD instead" err &&
	test_grep "\"base_warning\": \"the series says base-commit 0123456789ab, .*tested on HEAD instead\"" out &&
	test_grep "\"base_desc\": \"HEAD (default base)\"" out &&
	test_grep "\"failure\"" out
'

test_expect_success 'the version tag a series names is fetched and used' '
	fresh_tree &&
	rm -rf w && git clone -q up w && git -C w checkout -q v6.13 &&
	fair 20 20 >w/kernel/sched/fair.c &&
	git -C w commit -q -am "sched/fair: Change line 20" &&
	git -C w format-patch -q --stdout --cover-letter -1 HEAD |
		sed "s/^\*\*\* BLURB HERE \*\*\*$/This series is based on v6.13./" \
		>series.mbox &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "^base $(git -C up rev-parse v6.13) v6.13 [0-9a-f]\{12\} (Linux 6.13)$" out
'

test_expect_success 'a job fetches the base and keeps where it applied' '
	fresh_tree &&
	C=$(cat C) &&
	make_patch "$C" --base="$C" &&
	rc=0 && "$SCHED_BOT" test --mbox series.mbox --job-dir job1 \
		--workloads spawn --runs 1 2>err || rc=$? &&
	cat err job1/apply.log &&
	test_grep "^base $C tip/sched/core $(echo $C | cut -c1-12) (sched/fair: Rework the tip head)$" job1/apply.log &&
	test_grep "^base_desc=tip/sched/core $(echo $C | cut -c1-12) (sched/fair: Rework the tip head)$" job1/state &&
	test_grep ! "^warning:" job1/apply.log
'

test_expect_success 'a job on a base no tree has states what it used' '
	fresh_tree &&
	make_private_patch HEAD~1 &&
	printf "\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n" \
		>>series.mbox &&
	rc=0 && "$SCHED_BOT" test --mbox series.mbox --job-dir job2 \
		--workloads spawn --runs 1 2>err || rc=$? &&
	cat err &&
	test_grep "^base_warning=the series says base-commit 0123456789ab, which this tree lacks: the stated base is in no configured tree; tested on HEAD instead$" job2/state
'

test_expect_success 'cron notices a moved branch and builds its new head once' '
	fresh_tree &&
	rc=0 && "$SCHED_BOT" cron --no-poll 2>err || rc=$? &&
	cat err &&
	test_grep "build ahead: tip/sched/core moved to $(cut -c1-12 C)" err &&
	test_grep "build ahead: tip/master moved to " err &&
	test_grep "build ahead: tip/sched/core $(cut -c1-12 C) could not be built" err &&
	fair 12 12 >up/kernel/sched/fair.c &&
	git -C up commit -q -am "sched/fair: Move the head" &&
	git -C up push -q "$TRASH/srv/tip.git" sched/core &&
	rc=0 && "$SCHED_BOT" cron --no-poll 2>err2 || rc=$? &&
	cat err2 &&
	test_grep "build ahead: tip/sched/core moved to $(git -C up rev-parse --short=12 HEAD)" err2 &&
	test_grep ! "build ahead: tip/master moved" err2
'

test_expect_success 'a "net" tree whose lists are netdev, no paths' '
	PORT=$(cat port) &&
	git -C up checkout -q master &&
	fair 15 15 >up/kernel/sched/fair.c &&
	git -C up commit -q -am "net: A commit only net has" &&
	git -C up rev-parse HEAD >N &&
	git clone -q --bare up srv/net.git &&
	git --git-dir=srv/net.git branch -q -f main "$(cat N)" &&
	git -C up reset -q --hard HEAD~1 &&
	git -C up checkout -q sched/core &&
	test "$(git -C up rev-parse master)" != "$(cat N)" &&
	cat >>"$CFG" <<-EOF
	[tree "net"]
		url = git://127.0.0.1:$PORT/net.git
		branches = main
		lists = netdev@vger.kernel.org
	EOF
'

# A patch on net's commit, with format-patch options $@.
make_net_patch() {
	rm -rf w && git clone -q "$TRASH/srv/net.git" w &&
	git -C w checkout -q "$(cat N)" &&
	fair 20 20 >w/kernel/sched/fair.c &&
	git -C w commit -q -am "sched/fair: Change line 20" &&
	git -C w format-patch -q --stdout "$@" -1 HEAD >series.mbox
}

test_expect_success 'without the list: the tree of the paths is fetched first' '
	fresh_tree &&
	N=$(cat N) &&
	make_net_patch --base="$N" &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	sed -n "s/^fetching tree \([a-z]*\) .*/\1/p" err >order &&
	printf "tip\nnet\n" >want &&
	test_cmp want order &&
	test_grep "^base $N net/main " out
'

test_expect_success 'sent to netdev: the base is looked for in net first' '
	fresh_tree &&
	N=$(cat N) &&
	make_net_patch --base="$N" --to="Net Dev <NetDev@vger.kernel.org>" &&
	test_grep "^To: Net Dev <NetDev@vger.kernel.org>" series.mbox &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "fetching tree net " err &&
	test_grep ! "fetching tree tip" err &&
	test_grep "^base $N net/main $(echo $N | cut -c1-12) (net: A commit only net has)$" out &&
	test "$(git -C k.git rev-parse sched-bot/sched-fair-change-line-20-v1^)" = "$N"
'

test_expect_success 'the blob guess fetches the tree of the lists too' '
	fresh_tree &&
	N=$(cat N) &&
	make_net_patch --cc=netdev@vger.kernel.org &&
	test_grep ! "^base-commit:" series.mbox &&
	"$SCHED_BOT" apply --mbox series.mbox >out 2>err &&
	cat out err &&
	test_grep "fetching tree net " err &&
	test_grep "^base $N net/main $(echo $N | cut -c1-12) (net: A commit only net has), found by the patches. blob hashes$" out
'

test_expect_success 'the blob guess without the list: net is not tried' '
	fresh_tree &&
	make_net_patch &&
	rc=0 && "$SCHED_BOT" apply --mbox series.mbox >out 2>err || rc=$? &&
	cat out err &&
	test_grep "fetching tree tip " err &&
	test_grep ! "fetching tree net" err &&
	test_grep ! "^base $(cat N) " out
'

test_expect_success 'a closed port: a clear error, at once' '
	fresh_tree &&
	CLOSED=$(free_port) &&
	printf "[tree \"closed\"]\n\turl = git://127.0.0.1:$CLOSED/x.git\n" \
		>>"$CFG" &&
	rc=0 && "$SCHED_BOT" tree fetch closed 2>err || rc=$? &&
	cat err &&
	test $rc -ne 0 &&
	test_grep "fetch of tree closed from git://127.0.0.1:$CLOSED/x.git failed: " err
'

test_expect_success 'a listener that never answers' '
	SILENT=$(free_port); echo $SILENT >silent.port
	perl -MIO::Socket::INET -e "
		my \$s = IO::Socket::INET->new(Listen => 5, ReuseAddr => 1,
			LocalAddr => \"127.0.0.1:$SILENT\") or die;
		\$SIG{ALRM} = sub { exit 0 }; alarm 60;
		my @c; while (my \$c = \$s->accept) { push @c, \$c }" &
	echo $! >silent.pid
	test_atexit "kill \$(cat \"$TRASH/silent.pid\")" &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		perl -MIO::Socket::INET -e "exit !IO::Socket::INET->new(
			\"127.0.0.1:$SILENT\")" && break
		sleep 0.2
	done &&
	printf "[tree \"silent\"]\n\turl = git://127.0.0.1:$SILENT/x.git\n" \
		>>"$CFG" &&
	printf "[tree]\n\tfetchTimeout = 2\n" >>"$CFG"
'

test_expect_success 'is stopped by the timeout, with an error that says so' '
	SILENT=$(cat silent.port) &&
	rc=0 && "$SCHED_BOT" --config "$CFG" tree fetch silent 2>err ||
		rc=$? &&
	cat err &&
	test $rc -ne 0 &&
	test_grep "fetch of tree silent from git://127.0.0.1:$SILENT/x.git timed out after 2 s (tree.fetchTimeout): the remote did not answer (a connection or a transfer that hung)" err
'

test_expect_success 'a fetch killed while the pack comes leaves no temp pack' '
	PORT=$(cat port); STALL=$(free_port); echo $STALL >stall.port
	perl -MIO::Socket::INET -MIO::Select -e "
		my \$l = IO::Socket::INET->new(Listen => 5, ReuseAddr => 1,
			LocalAddr => \"127.0.0.1:$STALL\") or die;
		\$SIG{ALRM} = sub { exit 0 }; alarm 60;
		# relay to git daemon until the pack starts, then hang
		while (my \$c = \$l->accept) {
			my \$s = IO::Socket::INET->new(\"127.0.0.1:$PORT\") or die;
			my \$sel = IO::Select->new(\$c, \$s);
			my \$stalled = 0;
			CONN: while (my @r = \$sel->can_read) {
				for my \$h (@r) {
					my \$n = sysread(\$h, my \$buf, 65536);
					if (!\$n && \$h == \$s && \$stalled) {
						\$sel->remove(\$s); next
					}
					last CONN unless \$n;
					if (\$h == \$c) { syswrite(\$s, \$buf); next }
					next if \$stalled;
					my \$at = index(\$buf, \"PACK\");
					if (\$at >= 0) {
						\$buf = substr(\$buf, 0, \$at + 12);
						\$stalled = 1;
					}
					syswrite(\$c, \$buf);
				}
			}
			close(\$s); close(\$c);
		}" &
	echo $! >stall.pid &&
	test_atexit "kill \$(cat \"$TRASH/stall.pid\")" &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		perl -MIO::Socket::INET -e "exit !IO::Socket::INET->new(
			\"127.0.0.1:$STALL\")" && break
		sleep 0.2
	done &&
	printf "[tree \"stall\"]\n\turl = git://127.0.0.1:$STALL/tip.git\n" \
		>>"$CFG" &&
	fresh_tree &&
	rc=0 && "$SCHED_BOT" tree fetch stall 2>err || rc=$? &&
	cat err &&
	test $rc -ne 0 &&
	test_grep "fetch of tree stall from git://127.0.0.1:$STALL/tip.git timed out after 2 s" err &&
	test_grep "removed the temporary pack .*/objects/pack/pack_git" err &&
	ls -a k.git/objects/pack >packs &&
	test_grep ! "pack_git" packs &&
	test_grep ! "tmp_pack" packs &&
	! git -C k.git cat-file -e "$(cat C)" 2>/dev/null
'

test_expect_success 'a tip-bot notification applies as one commit by its author' '
	fresh_tree &&
	BLOB=$(git -C k.git rev-parse HEAD:kernel/sched/fair.c | cut -c1-12) &&
	cat >tip.mbox <<-EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: "tip-bot2 for Bea Coder" <tip-bot2@linutronix.de>
	To: linux-tip-commits@vger.kernel.org
	Subject: [tip: sched/core] sched/fair: Import more
	In-Reply-To: <20250314151345.1-bea@example.org>
	Message-ID: <1.tip-bot2@tip-bot2>
	Date: Fri, 14 Mar 2025 20:24:53 -0000

	The following commit has been merged into the sched/core branch of tip:

	Commit-ID:     3b15262e0019eb4bb212215951a45559d29381fc
	Gitweb:        https://git.kernel.org/tip/3b15262e0019eb4bb212215951a45559d29381fc
	Author:        Bea Coder <bea@example.org>
	AuthorDate:    Fri, 14 Mar 2025 16:13:45 +01:00
	Committer:     Peter Zijlstra <peterz@infradead.org>
	CommitterDate: Fri, 14 Mar 2025 21:13:19 +01:00

	sched/fair: Import more

	One more import.

	Signed-off-by: Bea Coder <bea@example.org>
	Signed-off-by: Peter Zijlstra (Intel) <peterz@infradead.org>
	Link: https://lore.kernel.org/r/20250314151345.1-bea@example.org
	---
	 kernel/sched/fair.c | 1 +
	 1 file changed, 1 insertion(+)

	diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
	index $BLOB..1111111 100644
	--- a/kernel/sched/fair.c
	+++ b/kernel/sched/fair.c
	@@ -1 +1,2 @@
	 int import;
	+int more;
	EOF
	"$SCHED_BOT" apply --mbox tip.mbox --no-fetch >out 2>err &&
	cat out err &&
	test_grep "^applied 1 patch$" out &&
	BR=$(sed -n "s/^head [0-9a-f]* //p" out) &&
	git -C k.git log -1 --format="%an <%ae>%n%s%n%b" "$BR" >log &&
	cat log &&
	test_grep "^Bea Coder <bea@example.org>$" log &&
	test_grep "^sched/fair: Import more$" log &&
	test_grep "^One more import.$" log &&
	test_grep ! "following commit has been merged" log &&
	test "$(git -C k.git rev-list --count HEAD.."$BR")" = 1 &&
	git -C k.git show "$BR:kernel/sched/fair.c" | test_grep "^int more;$"
'

test_expect_success 'a diff inline in a reply applies the same way' '
	fresh_tree &&
	BLOB=$(git -C k.git rev-parse HEAD:kernel/sched/fair.c | cut -c1-12) &&
	cat >reply.mbox <<-EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Vic Reviewer <vic@example.org>
	To: Bea Coder <bea@example.org>
	Subject: Re: [PATCH] sched/fair: Something slow
	In-Reply-To: <20250314151345.1-bea@example.org>
	Message-ID: <2.vic@example.org>
	Date: Sat, 15 Mar 2025 10:00:00 +0000

	On Fri, Mar 14, 2025, Bea Coder wrote:
	> It got slower.

	Can you rerun with:

	diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
	index $BLOB..2222222 100644
	--- a/kernel/sched/fair.c
	+++ b/kernel/sched/fair.c
	@@ -1 +1,2 @@
	 int import;
	+int faster;
	EOF
	"$SCHED_BOT" apply --mbox reply.mbox --no-fetch >out 2>err &&
	cat out err &&
	test_grep "^applied 1 patch$" out &&
	BR=$(sed -n "s/^head [0-9a-f]* //p" out) &&
	git -C k.git log -1 --format="%an <%ae>%n%s%n%b" "$BR" >log &&
	cat log &&
	test_grep "^Vic Reviewer <vic@example.org>$" log &&
	test_grep "^sched/fair: Something slow$" log &&
	test_grep "^Can you rerun with:$" log &&
	test_grep ! "It got slower" log &&
	git -C k.git show "$BR:kernel/sched/fair.c" | test_grep "^int faster;$"
'

test_done
