#!/bin/sh
# The whole bot, end to end, with real peers only: a public-inbox-httpd
# on 127.0.0.1 serves Chen Yu's v3 series (sched/fair, two patches with
# a cover letter); `sched-bot cron` finds it with a dfn:kernel/sched/
# search, applies it to Debian's linux-source-6.1 tree, builds the base
# and the patched kernel, boots both in QEMU (runs interleaved), runs
# spawn and ping-pong, compares, and sends the reply to smtp-sink.  The
# captured mail is checked; a second cron run sends nothing.
#
# The series is the thread as lore has it with patch 1/2 rewritten to
# change kernel/sched/ only (tests/data/intake/README.md): the real 1/2
# adds two fields to struct sched_entity in include/linux/sched.h,
# which nearly every object includes, and its patched kernel was the
# suite's second cold kernel build.  This one's base is kernel_warm's
# (the one cold build) and its patched kernel kernel_warm_series's,
# built once in base's slot (kernel/sched/ recompiled): the job finds
# both in the build cache.
# The tree and the builds are kept in $SCHED_BOT_TEST_CACHE (default
# /var/tmp/sched-bot-test-cache) and shared with t4002 and t5000.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

TARBALL=${SCHED_BOT_TEST_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}
TREE=$CACHE/tree/linux-source-6.1.git
WORK=$CACHE/bot-e2e.git
COVER=cover.1669862147.git.yu.c.chen@intel.com

# Every prerequisite, with the reason when one is missing.
[ -r "$TARBALL" ] || test_skip_all "no $TARBALL (apt-get install linux-source-6.1)"
command -v qemu-system-x86_64 >/dev/null ||
	test_skip_all "qemu-system-x86_64 is not installed"
for t in make gcc flex bison bc; do
	command -v $t >/dev/null || test_skip_all "$t is not installed"
done
. "$TESTS/lib-lore.sh"
. "$TESTS/lib-bot.sh"
[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed (contrib/install-deps)"
export GIT_CONFIG_NOSYSTEM=1
SERIES=$DATA/intake/short-task-wakeup-v3-sched-only.mbox
# its patched kernel built once, before the job (t8001 reuses it too)
kernel_warm_series "$SERIES" e2e-chen-yu-v3

# lore's rt: is the time of the top Received: header: the series
# freshly received, as a poll would see it on lore
bot_fresh_series "$TRASH/series.mbox" "$SERIES"
lore_start "$TRASH/series.mbox"
smtp_start

CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$CACHE/builds" "$CACHE/ccache"
export CCACHE_DIR=$CACHE/ccache
git config -f "$CFG" bot.name "Sched Bot"
git config -f "$CFG" bot.email bot@sched-bot.example.org
git config -f "$CFG" bot.workloads spawn,pingpong
git config -f "$CFG" bot.runs 2
# no alignment control: a chance regression would build two more kernels
git config -f "$CFG" compare.alignmentControl off
# the runs are adaptive unless a command fixes them: keep them few here
git config -f "$CFG" job.minRuns 2
git config -f "$CFG" job.maxRuns 3
git config -f "$CFG" smtp.url "smtp://127.0.0.1:$SMTP_PORT"
git config -f "$CFG" smtp.send true
# the reply of a TCG run stays in the outbox unless asked: this test
# follows it through SMTP to the sink, so it asks (reply.emulated)
git config -f "$CFG" reply.emulated list
git config -f "$CFG" outbox.checkLore false
# every address of the thread (the default, lists, leaves out peterz)
git config -f "$CFG" reply.cc all
git config -f "$CFG" tree.path "$WORK"
git config -f "$CFG" build.cacheDir "$CACHE/builds"
git config -f "$CFG" build.fragmentDir "$TOP/kernel/configs"
git config -f "$CFG" build.jobs 2
git config -f "$CFG" job.target qemu
git config -f "$CFG" job.seconds 3
git config -f "$CFG" job.spawnGap 0
git config -f "$CFG" target.qemu.smp 2
git config -f "$CFG" target.qemu.mem 512
git config -f "$CFG" target.qemu.timeout 600

test_expect_success 'the cached 6.1 tree and a work repository borrowing it' '
	kernel_work_repo "$TARBALL" "$TREE" "$WORK" &&
	test -d "$WORK/objects" &&
	test_grep -x "$TREE/objects" "$WORK/objects/info/alternates"
'

test_expect_success 'cron finds the series on lore, tests it and replies' '
	"$SCHED_BOT" cron >cron.out 2>cron.err || { cat cron.err; false; } &&
	test_grep "queued job 1: v3 " cron.err &&
	smtp_wait 1 &&
	test "$(ls "$SMTP_DIR" | grep -c .)" -eq 1
'

test_expect_success 'the reply is threaded under the cover letter' '
	m=$(ls "$SMTP_DIR"/*) &&
	test_grep "^In-Reply-To: <$COVER>$" "$m" &&
	test_grep "^References: <$COVER>$" "$m" &&
	test_grep "^Subject: Re: \[PATCH v3 0/2\] sched/fair: Choose the CPU" "$m" &&
	test_grep "^From: Sched Bot <bot@sched-bot.example.org>$" "$m" &&
	test_grep "^To: Chen Yu <yu.c.chen@intel.com>$" "$m" &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep "^X-Rcpt-Args: <peterz@infradead.org>" "$m"
'

test_expect_success 'it has the machine, kernels, tables, verdict and reproduce block' '
	m=$(ls "$SMTP_DIR"/*) &&
	test_grep "^- target: *qemu (qemu-" "$m" &&
	test_grep "^- placement: spawn free; pingpong pinned$" "$m" &&
	test_grep "^- base: " "$m" &&
	test_grep "^- patched: " "$m" &&
	test_grep "spawn" "$m" &&
	test_grep "pingpong" "$m" &&
	test_grep "^Verdict: " "$m" &&
	test_grep "^    sched-bot test .$COVER. " "$m"
'

test_expect_success 'Tested-by only for a clear result on a real machine' '
	m=$(ls "$SMTP_DIR"/*) &&
	j=$XDG_DATA_HOME/sched-bot/jobs/job-1 &&
	if test_grep ",qemu-tcg-" "$j/results.csv"; then
		# TCG numbers test the pipeline, not the kernel: no Tested-by
		test_grep ! "^Tested-by:" "$m" &&
		test_grep "tests the pipeline, not" "$m"
	elif test_grep "^Verdict: regression" "$m"; then
		test_grep ! "^Tested-by:" "$m" &&
		test_grep "^sched-bot noticed a -[0-9.]*% regression of " "$m"
	else
		test "$(grep -c "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" "$m")" -eq 1
	fi
'

test_expect_success 'the job directory kept every stage' '
	j=$(ls -d "$XDG_DATA_HOME"/sched-bot/jobs/job-1) &&
	for f in thread.mbox series.json apply.log build-base.log \
		 build-head.log results.csv compare.json reply.eml; do
		test -s "$j/$f" || { echo "no $f"; exit 1; }
	done &&
	test_grep "^stage=done" "$j/state" &&
	test_grep "^base," "$j/results.csv" &&
	test_grep "^patched," "$j/results.csv"
'

# What the patched kernel recompiles is what the series changes: two
# files of kernel/sched/, no header outside it (the real 1/2's
# include/linux/sched.h made it nearly the whole kernel); and the job
# built neither kernel: both were in the build cache.
test_expect_success 'the patched kernel differs in kernel/sched/ only, built before' '
	test_grep "base build reused" cron.err &&
	test_grep "head build reused" cron.err &&
	j=$XDG_DATA_HOME/sched-bot/jobs/job-1 &&
	b=$(sed -n "s/^base_commit=//p" "$j/state") &&
	h=$(sed -n "s/^head_commit=//p" "$j/state") &&
	test -n "$b" && test -n "$h" &&
	git --git-dir="$WORK" diff --name-only "$b" "$h" >changed &&
	printf "%s\n" kernel/sched/fair.c kernel/sched/features.h >expect &&
	test_cmp expect changed
'

test_expect_success 'a second cron run sends nothing' '
	"$SCHED_BOT" cron 2>cron2.err &&
	test_grep ! "queued job" cron2.err &&
	test "$(ls "$SMTP_DIR" | grep -c .)" -eq 1
'

test_done
