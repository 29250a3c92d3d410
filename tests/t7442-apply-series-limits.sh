#!/bin/sh
# A series of 10,000 patches, each changing one file of its own: refused
# whole under series.maxPatches (and under series.maxSize) before
# anything is applied, with the reason on stderr; reading it costs
# memory linear in its size (the kernel's accounting, never time:
# tests/bench/apply-series.sh has the times).  A series at the limit
# applies, its peak memory the same bound.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

export GIT_CONFIG_NOSYSTEM=1
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "${CFG%/*}"
cd "$TRASH" || exit 1

N=10000
# the repository has the files of the first 1000 patches
many_patches_series repo.git 1000 >limit.mbox &&
many_patches_mbox $N >big.mbox || test_fail_all "cannot make the series"
KB=$(( $(wc -c <big.mbox) / 1024 ))
# what the bot may hold while reading it: its own 64 MiB, and a few
# copies of the mbox (the text, the messages split, the patches)
BOUND=$((65536 + 8 * KB))

no_branch() {
	test -z "$(git -C repo.git for-each-ref refs/heads/sched-bot)"
}

test_expect_success 'the series is what the test says' '
	test "$(grep -c "^Subject: \[PATCH [0-9]*/$N\]" big.mbox)" -eq $N &&
	test "$(grep -c "^diff --git " big.mbox)" -eq $N &&
	test $KB -gt 4000
'

test_expect_success '10,000 patches: refused under series.maxPatches, nothing applied' '
	rc=0 && test_peak_rss rss "$SCHED_BOT" apply --tree repo.git \
		--base base --mbox big.mbox 2>err || rc=$? &&
	cat err && test $rc -eq 1 &&
	echo "sched-bot: error: refusing to apply: the series has $N patches, more than series.maxPatches (1000); nothing applied" >expect &&
	test_cmp expect err &&
	no_branch &&
	echo "peak RSS $(cat rss) KiB, bound $BOUND KiB" &&
	test_rss_below rss $BOUND
'

test_expect_success 'over series.maxSize: refused, nothing applied' '
	git config -f "$CFG" series.maxPatches $N &&
	git config -f "$CFG" series.maxSize 100000 &&
	rc=0 && "$SCHED_BOT" apply --tree repo.git --base base \
		--mbox big.mbox 2>err || rc=$? &&
	cat err && test $rc -eq 1 &&
	test_grep "^sched-bot: error: refusing to apply: the series. diffs are [0-9]* bytes, more than series.maxSize (100000); nothing applied$" err &&
	no_branch &&
	git config -f "$CFG" --unset series.maxPatches &&
	git config -f "$CFG" --unset series.maxSize
'

test_expect_success 'at series.maxPatches the series applies, in the same bound' '
	rc=0 && test_peak_rss rss "$SCHED_BOT" apply --tree repo.git \
		--base base --branch limit --mbox limit.mbox >out 2>err ||
		rc=$? &&
	cat err && test $rc -eq 0 &&
	test_grep "^applied 1000 patches$" out &&
	test "$(git -C repo.git rev-list --count base..limit)" -eq 1000 &&
	git -C repo.git diff --shortstat base limit >stat &&
	test_grep "1000 files changed, 1000 insertions(+), 1000 deletions(-)" stat &&
	echo "peak RSS $(cat rss) KiB, bound $BOUND KiB" &&
	test_rss_below rss $BOUND
'

test_done
