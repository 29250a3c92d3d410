#!/bin/sh
# One job on several targets (job.target or --target a comma-separated
# list): each target runs base and patched interleaved, its rows kept
# in the job's results.csv with its name in the target column, each
# judged on its own, and one reply whose tables have a row per machine,
# named by what it is (arch, CPUs), with a verdict per machine and a
# headline that says where.  Two local targets run for real (no kernel:
# the job starts at its run stage); the reply of a regression on two
# QEMU targets of 2 and 4 CPUs is made from fixed rows
# (tests/data/reply/multi-target, as t6013's) and compared whole.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-bot.sh"

GOLDEN=$DATA/golden
REPLY=$DATA/reply

bot_config "$TRASH/bot.cfg" 1
cat >>"$TRASH/bot.cfg" <<EOC
[job]
	seconds = 1
	warmup = 0
[bot]
	contact = Jane Doe <jane@sched-bot.example.org>
[archive]
	url = https://sched-bot.example.org/jobs
[target "a"]
	type = local
[target "b"]
	type = local
[target "q2"]
	type = qemu
	smp = 2
	vouch = true
[target "q4"]
	type = qemu
	smp = 4
	vouch = true
EOC
export SCHED_BOT_CONFIG=$TRASH/bot.cfg
cp "$TRASH/bot.cfg" "$TRASH/other.cfg" &&
	git config -f "$TRASH/other.cfg" target.q3.type qemu &&
	git config -f "$TRASH/other.cfg" target.q3.fragments sched.config ||
	test_fail_all "cannot write other.cfg"

# job_at_run DIR TARGETS: a job whose kernels are built (none: the
# targets are this machine), its run stage next, two fixed blocks of
# pingpong (1 s, no warm-up) on each target.
job_at_run() {
	rm -rf "$1" && mkdir -p "$1" &&
	cp "$DATA/intake/short-task-wakeup-v3-partial.mbox" "$1/thread.mbox" &&
	cat >"$1/state" <<-EOS
	stage=run
	msgid=cover.1669862147.git.yu.c.chen@intel.com
	target=$2
	workloads=pingpong
	runs=2
	runs_fixed=1
	cover_msgid=cover.1669862147.git.yu.c.chen@intel.com
	subject=a series
	version=3
	nr_patches=2
	base_desc=v6.1-rc6
	base_commit=0123456789abcdef0123456789abcdef01234567
	head_commit=89abcdef0123456789abcdef0123456789abcdef
	EOS
}

test_expect_success 'two targets: each runs both kernels, its rows named' '
	job_at_run two "a, b" &&
	"$SCHED_BOT" test --job-dir two >out 2>err || { cat err; exit 1; } &&
	# "label target run" of every row, in the order they were written
	awk -F, "NR > 1 { print \$1, \$21, \$5 }" two/results.csv | uniq >rows &&
	cat >expect <<-\EOF &&
	base a 1
	patched a 1
	base a 2
	patched a 2
	base b 1
	patched b 1
	base b 2
	patched b 2
	EOF
	sort rows >rows.sorted && sort expect >expect.sorted &&
	test_cmp expect.sorted rows.sorted &&
	test_grep "^a	" two/machines.txt &&
	test_grep "^b	" two/machines.txt &&
	test -f two/on-a/run-1-head/env.txt &&
	test -f two/on-b/run-2-base/env.txt
'

test_expect_success '... rows of one target are one block after another' '
	awk -F, "NR > 1 { print \$21 }" two/results.csv | uniq >order &&
	printf "a\nb\n" >expect &&
	test_cmp expect order
'

test_expect_success '... one reply: a row per machine, a verdict per machine' '
	n=$(getconf _NPROCESSORS_ONLN) &&
	arch=$(uname -m) &&
	m=$(cat out) &&
	# the same machine twice: the target names tell them apart
	test_grep "^On $arch ($n CPUs\{0,1\}, target a):$" "$m" &&
	test_grep "^On $arch ($n CPUs\{0,1\}, target b):$" "$m" &&
	test_grep "^- target:  *a (" "$m" &&
	test_grep "^- target:  *b (" "$m" &&
	test_grep "^Verdict on $arch ($n CPUs\{0,1\}, target a): " "$m" &&
	test_grep "^Verdict on $arch ($n CPUs\{0,1\}, target b): " "$m" &&
	# every cell stays visible, each machine its own
	test $(grep -c "^- sched: " "$m") = 2 &&
	# this machine is not one a Tested-by may stand for
	test_grep ! "^Tested-by:" "$m"
'

test_expect_success 'one target: the job is as it was, no per-target files' '
	job_at_run one a &&
	"$SCHED_BOT" test --job-dir one >out1 2>err1 || { cat err1; exit 1; } &&
	test ! -e one/on-a &&
	test ! -e one/machines.txt &&
	test -f one/run-1-head/env.txt &&
	test_grep ! "^Verdict on " "$(cat out1)" &&
	test_grep "^Verdict: " "$(cat out1)"
'

test_expect_success 'a target list the job was not started with is refused' '
	rc=0 &&
	"$SCHED_BOT" test --job-dir two --target a 2>err || rc=$? &&
	test $rc = 2 &&
	test_grep "was started with --target a, b" err
'

test_expect_success 'targets that would build other kernels are refused before a build' '
	job_at_run other q2,q3 &&
	sed -i "s/^stage=run$/stage=build/" other/state &&
	rc=0 &&
	SCHED_BOT_CONFIG=$TRASH/other.cfg "$SCHED_BOT" test --job-dir other \
		>/dev/null 2>err || rc=$? &&
	test $rc = 1 &&
	test_grep "targets q2 and q3 build their kernels from different configs" err &&
	test_grep "^stage=build$" other/state &&
	test ! -e other/build-base.log
'

# multi_job DIR: the fixture of a regression on q2 and q4 at its
# compare stage, each target's env record beside its commands.
multi_job() {
	rm -rf "$1" && cp -R "$REPLY/multi-target" "$1" &&
	cp "$DATA/intake/short-task-wakeup-v3-partial.mbox" "$1/thread.mbox" &&
	mkdir -p "$1/on-q2/run-1-head" "$1/on-q4/run-1-head" &&
	cp "$REPLY/env.txt" "$1/on-q2/run-1-head/env.txt" &&
	sed -e "s/^env,nr_cpus,2$/env,nr_cpus,4/" \
	    -e "s/^env,cpus_online,0-1$/env,cpus_online,0-3/" \
		"$REPLY/env.txt" >"$1/on-q4/run-1-head/env.txt"
}

test_expect_success 'q2,q4: one reply, a row per machine in each table' '
	multi_job multi &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir multi >/dev/null 2>err || rc=$? &&
	{ test $rc = 5 || { cat err; false; }; } &&
	bot_mail_normalise multi/reply.eml >multi-target.eml &&
	if [ -n "${GOLDEN_UPDATE-}" ]; then
		cp multi-target.eml "$GOLDEN/multi-target.eml"
	fi &&
	test_cmp "$GOLDEN/multi-target.eml" multi-target.eml &&
	bot_mail_orphans multi-target.eml
'

test_expect_success '... the headline says where, the verdict is per machine' '
	test_grep "^lead: -12.0% regression of spawn.lps on x86_64 (2 CPUs), -3.9% on x86_64 (4 CPUs)$" \
		multi/summary.txt &&
	test_grep "^sched-bot noticed a -12.0% regression of spawn.lps on x86_64 (2 CPUs),$" \
		multi-target.eml &&
	# each machine: its Machine block and its verdict
	test $(grep -c "^On x86_64 (2 CPUs):$" multi-target.eml) = 2 &&
	test $(grep -c "^On x86_64 (4 CPUs):$" multi-target.eml) = 2 &&
	test_grep "^outcome=regression$" multi/state &&
	test_grep "\"target\": \"q4\", \"machine\": \"x86_64 (4 CPUs)\"" multi/compare.json
'

# tested_job DIR MACHINE: the no-change fixture of t6013 on q2 (KVM)
# and on q4 as MACHINE, the same rows on each.
tested_job() {
	multi_job "$1" &&
	rm -f "$1/confirm.csv" "$1/bisect-1.csv" &&
	sed -e "s/^bisect_lo=.*//" -e "s/^bisect_hi=.*//" \
		"$REPLY/multi-target/state" >"$1/state" &&
	{
		sed "s/,qemu,vm,/,q2,qemu-kvm-smp2,/" "$REPLY/tested/results.csv" &&
		sed -e 1d -e "s/,qemu,vm,/,q4,$2,/" -e "s/,copies=2 /,copies=4 /" \
			"$REPLY/tested/results.csv"
	} >"$1/results.csv"
}

test_expect_success 'no change on two KVM guests that vouch: Tested-by' '
	tested_job kvm qemu-kvm-smp4 &&
	"$SCHED_BOT" test --job-dir kvm >/dev/null 2>err || { cat err; exit 1; } &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" kvm/reply.eml &&
	test_grep "^With this series (v3, 2 patches), sched-bot measured on x86_64 (2 CPUs):$" \
		kvm/reply.eml
'

test_expect_success '... and none when one of them is TCG' '
	tested_job tcg qemu-tcg-smp4 &&
	"$SCHED_BOT" test --job-dir tcg >/dev/null 2>err || { cat err; exit 1; } &&
	test_grep ! "^Tested-by:" tcg/reply.eml &&
	test_grep "emulated: QEMU TCG" tcg/reply.eml
'

test_done
