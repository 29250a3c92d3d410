#!/bin/sh
# Bases built ahead, on the real kernel.  "tip" is Debian's 6.1 import
# served by git daemon on 127.0.0.1; cron notices its sched/core, the
# branch moves by a commit to kernel/sched/fair.c, and the next cron
# run fetches the new head and builds it (incrementally).  A series
# whose base-commit: is that head then arrives on a local public-inbox:
# the job cron runs for it reuses the base build, as its log says, and
# builds only the patched kernel; both boot in QEMU and the reply is
# left in the outbox.
#
# The tree and the builds are those of t6900 (tests/lib-buildahead.sh);
# each run's two commits are new, so both builds are real, and their
# artefacts are removed at the end.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

kernel_prereqs
kernel_warm
command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed"
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-buildahead.sh"
export GIT_CONFIG_NOSYSTEM=1

lore_start
STAMP=$(date +%s).$$

test_expect_success 'tip over git daemon, sched/core at the import' '
	ba_serve &&
	ba_config &&
	git ls-remote "git://127.0.0.1:$BA_PORT/tip.git" >refs &&
	test_grep "$(git --git-dir="$KTREE" rev-parse linux-6.1)	refs/heads/sched/core" refs
'

test_expect_success 'cron notices sched/core and has its build' '
	"$SCHED_BOT" cron --no-poll >out 2>err || { cat err; false; } &&
	cat err &&
	L=$(git --git-dir="$KTREE" rev-parse --short=12 linux-6.1) &&
	test_grep "build ahead: tip/sched/core moved to $L" err &&
	test_grep "build ahead: tip/sched/core $L \(built\|was built already\)$" err
'

test_expect_success 'the branch moves: cron fetches and builds the new head' '
	C=$(ba_move "$STAMP") && echo "$C" >C &&
	"$SCHED_BOT" cron --no-poll >out 2>err || { cat err; false; } &&
	cat err &&
	S=$(echo "$C" | cut -c1-12) &&
	test_grep "fetched tree tip" err &&
	test_grep "build ahead: tip/sched/core moved to $S" err &&
	test_grep "build ahead: tip/sched/core $S built$" err &&
	test "$(git --git-dir="$BA_WORK" rev-parse refs/remotes/tip/sched/core)" = "$C" &&
	ba_art "$C" >art && test -s "$(cat art)/bzImage"
'

test_expect_success 'a run with nothing moved builds nothing' '
	"$SCHED_BOT" cron --no-poll >out 2>err || { cat err; false; } &&
	cat err &&
	test_grep ! "build ahead:" err
'

test_expect_success 'a series on the new head arrives on lore' '
	C=$(cat C) &&
	ba_series "$C" "$STAMP" series.mbox &&
	test_grep "^base-commit: $C$" series.mbox &&
	test_grep "^Message-ID: <ba-$STAMP@example.org>$" series.mbox &&
	lore_add series.mbox
'

test_expect_success 'its job reuses the base build and builds the patched one' '
	C=$(cat C) && S=$(echo "$C" | cut -c1-12) &&
	"$SCHED_BOT" cron >out 2>err || { cat err; false; } &&
	cat err &&
	test_grep "queued job 1: v1 sched/fair: Lower the migration cost ($STAMP) <ba-$STAMP@example.org>" err &&
	test_grep "^base $C tip/sched/core $S (sched/fair: Move the head $STAMP)$" \
		"$XDG_DATA_HOME/sched-bot/jobs/job-1/apply.log" &&
	test_grep "building the base kernel ($S)" err &&
	test_grep "base build reused: $S " err &&
	test_grep "building the head kernel" err &&
	test_grep ! "head build reused" err
'

test_expect_success 'both kernels ran and the reply is in the outbox' '
	j=$XDG_DATA_HOME/sched-bot/jobs/job-1 &&
	test_grep "^stage=done" "$j/state" &&
	test_grep "^base," "$j/results.csv" &&
	test_grep "^patched," "$j/results.csv" &&
	test_grep "^- base:    $(cut -c1-12 C) " "$j/kernels.txt" &&
	ls "$XDG_DATA_HOME/sched-bot/outbox/new" >box &&
	test "$(grep -c . box)" -eq 1 &&
	test_grep "^In-Reply-To: <ba-$STAMP@example.org>$" \
		"$XDG_DATA_HOME/sched-bot/outbox/new/$(cat box)"
'

# This run's two builds are of commits no later run makes again.
for rev in "$(cat "$TRASH/C" 2>/dev/null)" \
	"$(sed -n "s/^head_commit=//p" \
		"$XDG_DATA_HOME/sched-bot/jobs/job-1/state" 2>/dev/null)"; do
	[ -n "$rev" ] && rm -rf $(ba_art "$rev")
done
[ -f "$TRASH/ba-daemon.pid" ] && kill "$(cat "$TRASH/ba-daemon.pid")" 2>/dev/null
test_done
