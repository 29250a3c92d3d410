#!/bin/sh
# A QEMU guest laid out as a server (target.NAME.sockets, .threads,
# .numa, .cpu): 2 sockets x 2 cores x 2 threads, 2 NUMA nodes.  Its
# Machine block says what the guest measured, in the testers' words,
# and the plan's sweep follows the layout.  The kernel is t5000's base
# build (from the cache), booted once with the shortest workload; then
# a job on two guests of 2 and 4 CPUs (job.target q2,q4) boots it as
# both of its kernels, twice on each guest; and a guest of 8 CPUs cut
# to the 4 its reporter measured on (matchReporter).
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"
. "$TESTS/lib-bot.sh"

kernel_prereqs
command -v qemu-system-x86_64 >/dev/null || test_skip_all "QEMU is not installed"
command -v cpio >/dev/null || test_skip_all "cpio is not installed"
kernel_repo || test_fail_all "could not make the kernel repository"
kernel_config
cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<CFG
[target "box"]
	type = qemu
	smp = 8
	sockets = 2
	threads = 2
	numa = 2
	cpu = kvm64
	mem = 512
	timeout = 300
CFG
kernel_commit base README '$a t5000' t5000-base

test_expect_success 'the base kernel (t5000s, cached)' '
	"$SCHED_BOT" build --tree "$KREPO" --rev t5000-base -o base >out &&
	test -s base/bzImage
'

test_expect_success 'a 2 x 2C/4T guest with 2 nodes measures itself so' '
	"$SCHED_BOT" boot --target box --kernel base/bzImage \
		--workloads spawn --runs 1 -t 1 --workdir boot \
		-o rows.csv >out 2>err || { cat err; exit 1; } &&
	grep -a "OUT env," boot/console.log | tr -d "\r" |
		sed "s/^.* OUT //" >env.txt &&
	test_grep "^env,sockets,2$" env.txt &&
	test_grep "^env,cores_per_socket,2$" env.txt &&
	test_grep "^env,threads_per_core,2$" env.txt &&
	test_grep "^env,smt_active,1$" env.txt &&
	test_grep "^env,llc_cpus,0-3 4-7$" env.txt &&
	test_grep "^env,numa_nodes,2$" env.txt &&
	test_grep "^env,node_cpus,0-3 4-7$" env.txt &&
	test_grep "^env,nr_cpus,8$" env.txt
'

test_expect_success '... and its Machine block says it in the testers words' '
	bot_config "$TRASH/bot.cfg" 1 &&
	bot_job job-tested job &&
	mkdir -p job/run-1-head &&
	cp env.txt job/run-1-head/env.txt &&
	SCHED_BOT_CONFIG=$TRASH/bot.cfg "$SCHED_BOT" test --job-dir job >mout &&
	tr -s " \n" "  " <"$(cat mout)" >flat &&
	test_grep "2 x 2C/4T Common KVM processor, 2 NUMA nodes, 2 LLCs of 4 CPUs, SMT on" flat &&
	test_grep "node 0: CPUs 0-3" flat &&
	test_grep "1 per socket (NPS1)" flat
'

test_expect_success 'the plan for the box sweeps 1, an LLC, a node, a socket, all, 2x' '
	"$SCHED_BOT" plan --target box --seconds 1 \
		"$DATA/plan/wakeup-diff-only.mbox" >plan &&
	test_grep "sched-bench pingpong -t 1 --apart --sweep 1,4,8,16$" plan &&
	tr -s " \n" "  " <plan >flat &&
	test_grep "8 CPUs (2 sockets, 2 NUMA nodes, LLCs of 4)" flat
'

# One job on two guests of 2 and 4 CPUs (job.target a list): the same
# kernel on both sides, two blocks on each guest, one reply.
test_expect_success 'a job on q2,q4: a row per guest in each table, a verdict each' '
	bot_config "$TRASH/multi.cfg" 1 &&
	cat >>"$TRASH/multi.cfg" <<-EOC &&
	[job]
		seconds = 1
		spawnGap = 0
	[target "q2"]
		type = qemu
		smp = 2
		mem = 512
		timeout = 300
	[target "q4"]
		type = qemu
		smp = 4
		mem = 512
		timeout = 300
	EOC
	rm -rf multi && mkdir multi &&
	cp "$DATA/intake/short-task-wakeup-v3-partial.mbox" multi/thread.mbox &&
	cat >multi/state <<-EOS &&
	stage=run
	msgid=cover.1669862147.git.yu.c.chen@intel.com
	target=q2,q4
	workloads=spawn
	runs=2
	runs_fixed=1
	cover_msgid=cover.1669862147.git.yu.c.chen@intel.com
	subject=a series
	version=3
	nr_patches=2
	base_desc=v6.1-rc6
	base_commit=0123456789abcdef0123456789abcdef01234567
	head_commit=89abcdef0123456789abcdef0123456789abcdef
	kernel_base=$TRASH/base/bzImage
	kernel_head=$TRASH/base/bzImage
	EOS
	SCHED_BOT_CONFIG=$TRASH/multi.cfg "$SCHED_BOT" test --job-dir multi \
		--target q2,q4 >mout 2>merr || { cat merr; exit 1; } &&
	awk -F, "NR > 1 { print \$21, \$22 }" multi/results.csv | sort -u |
		sed "s/qemu-[a-z]*-smp/qemu-ACCEL-smp/" >pairs &&
	printf "q2 qemu-ACCEL-smp2\nq4 qemu-ACCEL-smp4\n" >expect &&
	test_cmp expect pairs &&
	m=$(cat mout) &&
	test_grep "^On x86_64 (2 CPUs):$" "$m" &&
	test_grep "^On x86_64 (4 CPUs):$" "$m" &&
	# one spawn table, each guest a base and a patched row in it
	test $(grep -c "^    spawn " "$m") = 1 &&
	test_grep "^    x86_64 (2 CPUs) | base " "$m" &&
	test_grep "^    x86_64 (2 CPUs) | patched " "$m" &&
	test_grep "^    x86_64 (4 CPUs) | base " "$m" &&
	test_grep "^    x86_64 (4 CPUs) | patched " "$m" &&
	test_grep "^Verdict on x86_64 (2 CPUs): " "$m" &&
	test_grep "^Verdict on x86_64 (4 CPUs): " "$m" &&
	test_grep ! "^Tested-by:" "$m"
'

# The reporter's size on a real guest (t6045 shows the plan and the
# words on a stand-in QEMU's command line): seed 001's thread says "4
# vCPUs and 16 GiB RAM", so a job on an 8-CPU guest with matchReporter
# boots it with maxcpus=4 nr_cpus=4; the guest's own record shows them
# on its command line and 4 CPUs, and the reply says so.  Both kernels
# are the base build, two runs of spawn each (compare needs two).
test_expect_success 'a guest cut to the reporter'\''s 4 CPUs: its cmdline has the words' '
	cat >>"$TRASH/bot.cfg" <<-CFG &&
	[target "cut"]
		type = qemu
		smp = 8
		mem = 512
		timeout = 300
		matchReporter = true
	[job]
		seconds = 1
		spawnGap = 0
	CFG
	id=20250314151345.275739-1-dietmar.eggemann@arm.com &&
	mkdir -p cutjob &&
	cp "$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		cutjob/thread.mbox &&
	cat >cutjob/state <<-EOS &&
	stage=run
	msgid=$id
	target=cut
	workloads=spawn
	runs=2
	runs_fixed=1
	cover_msgid=$id
	subject=a series
	version=1
	nr_patches=1
	base_desc=v6.1
	base_commit=0123456789abcdef0123456789abcdef01234567
	head_commit=89abcdef0123456789abcdef0123456789abcdef
	kernel_base=$TRASH/base/bzImage
	kernel_head=$TRASH/base/bzImage
	EOS
	rc=0 &&
	SCHED_BOT_CONFIG=$TRASH/bot.cfg "$SCHED_BOT" test --job-dir cutjob \
		>cout 2>cerr || rc=$? &&
	case $rc in 0|1|5) ;; *) cat cerr; exit 1 ;; esac &&
	for side in base head; do
		test_grep "^env,cmdline,console=ttyS0 panic=-1 .* maxcpus=4 nr_cpus=4$" \
			cutjob/run-1-$side/env.txt &&
		test_grep "^env,nr_cpus,4$" cutjob/run-1-$side/env.txt || return 1
	done &&
	tr -s " \n" "  " <cutjob/reply.eml >flat &&
	test_grep "size: cut to the reporter.s 4 CPUs (maxcpus=4 nr_cpus=4); the reporter.s 16 GiB not applied, the target has less" flat
'

test_done
