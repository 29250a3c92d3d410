#!/bin/sh
# --workloads auto in a job: the run stage runs the plan for the thread
# (plan.h) on the target, plan.txt says what ran and why, the reply
# prints it, and the tables come in the thread's own format.  The
# target is this machine (local), so no kernel is built or booted: the
# job starts at its run stage.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-bot.sh"

bot_config "$TRASH/bot.cfg" 1
git config -f "$TRASH/bot.cfg" job.seconds 1
# the pipeline, not the machine: no warm-up (plan.txt says --warmup 0)
git config -f "$TRASH/bot.cfg" job.warmup 0
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# job_at_run DIR MBOX COVER-MSGID [WORKLOADS]: a job whose kernels are
# built, its run stage next, started with WORKLOADS (default auto, what
# a job started with no --workloads gets from bot.workloads).
job_at_run() {
	rm -rf "$1" && mkdir -p "$1" &&
	cp "$2" "$1/thread.mbox" &&
	cat >"$1/state" <<-EOS
	stage=run
	msgid=$3
	target=local
	workloads=${4:-auto}
	runs=2
	runs_fixed=1
	cover_msgid=$3
	subject=a series
	version=1
	nr_patches=1
	base_desc=v6.1-rc6
	base_commit=0123456789abcdef0123456789abcdef01234567
	head_commit=89abcdef0123456789abcdef0123456789abcdef
	EOS
}

test_expect_success 'sched-bot plan prints the plan of the fork regression' '
	"$SCHED_BOT" plan --cpus 2 --seconds 5 \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" >plan &&
	test_grep "^- spawn: " plan &&
	test_grep "^    sched-bench spawn -t 5 -c 2 --autogroup on --setsid$" plan &&
	test_grep "^    sched-bench spawn -t 5 -c 2 --cgroup new$" plan &&
	test_grep "^    sched-bench spawn -t 5 -c 2 --autogroup off$" plan &&
	test_grep "spawn runs with autogroup enabled" plan &&
	test_grep "UnixBench spawn" plan &&
	test_grep "^\[1\] https://lore.kernel.org/all/20250314151345.275739-1-dietmar.eggemann@arm.com/$" plan &&
	"$SCHED_BOT" plan --cpus 2 --init-args \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" >args &&
	test_grep "^workloads=spawn$" args &&
	test_grep "^args=spawn=-c,2,--autogroup,on,--setsid+-c,2,--cgroup,new+-c,2,--autogroup,off$" args
'

test_expect_success 'job.spawnGap other than 3: each cell says its --gap, and runs it' '
	cp "$TRASH/bot.cfg" gap.cfg &&
	git config -f gap.cfg job.spawnGap 0 &&
	SCHED_BOT_CONFIG=$TRASH/gap.cfg "$SCHED_BOT" plan --cpus 2 --seconds 5 \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" >gplan &&
	test_grep "^    sched-bench spawn -t 5 -c 2 --autogroup on --setsid --gap 0$" gplan &&
	test_grep "^    sched-bench spawn -t 5 -c 2 --cgroup new --gap 0$" gplan &&
	test_grep "^    sched-bench spawn -t 5 -c 2 --autogroup off --gap 0$" gplan &&
	SCHED_BOT_CONFIG=$TRASH/gap.cfg "$SCHED_BOT" plan --cpus 2 --init-args \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" >gargs &&
	test_grep "^args=spawn=-c,2,--autogroup,on,--setsid,--gap,0+-c,2,--cgroup,new,--gap,0+-c,2,--autogroup,off,--gap,0$" gargs &&
	"$SCHED_BENCH" init sb.workloads=spawn sb.runs=1 sb.t=1 \
		sb.gap=0 >init.out 2>&1 &&
	test_grep "RUN spawn 1 -t 1 --run 1 --gap 0$" init.out &&
	"$SCHED_BENCH" init sb.workloads=spawn sb.runs=1 sb.t=1 \
		sb.spawn=-c,1,--gap,1 sb.gap=0 >init2.out 2>&1 &&
	test_grep "RUN spawn 1 -t 1 --run 1 -c 1 --gap 1$" init2.out
'

test_expect_success 'sched-bot plan of seed 004: unpinned sweep, hackbench, netperf not run' '
	"$SCHED_BOT" plan --cpus 2 --seconds 5 "$DATA/intake/short-task-wakeup-v3-complete.mbox" >plan &&
	test_grep "^    sched-bench pingpong -t 5 --no-pin --sweep 1,2,4 --warmup 0$" plan &&
	test_grep "No task is bound to any CPU" plan &&
	test_grep "^- hackbench: " plan &&
	test_grep "^Not run:$" plan &&
	test_grep "^- netperf: " plan &&
	"$SCHED_BOT" plan --cpus 8 --seconds 5 "$DATA/intake/short-task-wakeup-v3-complete.mbox" >plan8 &&
	test_grep "sched-bench pingpong -t 5 --no-pin --sweep 1,2,4,8,16 --warmup 0$" plan8
'

test_expect_success 'a diff in kernel/sched/autogroup.c runs spawn with autogroup on' '
	"$SCHED_BOT" plan --target qemu --cpus 4 --seconds 5 \
		"$DATA/plan/autogroup-diff-only.mbox" >plan &&
	test_grep "^- spawn: " plan &&
	test_grep "kernel/sched/autogroup.c" plan &&
	test_grep "^    sched-bench spawn -t 5 -c 4 --autogroup on --setsid$" plan &&
	test_grep "^    sched-bench spawn -t 5 -c 4 --cgroup new$" plan &&
	test_grep "spawn runs with autogroup enabled" plan
'

test_expect_success '... and init runs each cell, its rows naming it' '
	"$SCHED_BENCH" init sb.workloads=spawn sb.t=1 sb.gap=0 \
		"sb.spawn=-c,1,--setsid+-c,1" >frames &&
	test_grep "RUN spawn 1 -t 1 --run 1 -c 1 --setsid --gap 0$" frames &&
	test_grep "RUN spawn 1 -t 1 --run 1 -c 1 --gap 0$" frames &&
	test "$(grep -c " RC 0$" frames)" = 2
'

test_expect_success '... the off cell too, when one boot has the time for it' '
	"$SCHED_BOT" plan --target qemu --cpus 4 --seconds 5 \
		"$DATA/plan/autogroup-diff-only.mbox" >plan &&
	test_grep "^    sched-bench spawn -t 5 -c 4 --autogroup off$" plan &&
	test_grep "in three cells" plan &&
	test_grep ! "budget:" plan
'

# Each cell is a run of the boot, as each sweep point and tool is: 3
# runs of (5 + 10) s do not fit a 40 s timeout, 2 do.
test_expect_success '... and not when it would take the boot past its timeout' '
	git config -f "$TRASH/bot.cfg" target.tight.type qemu &&
	git config -f "$TRASH/bot.cfg" target.tight.smp 4 &&
	git config -f "$TRASH/bot.cfg" target.tight.timeout 40 &&
	"$SCHED_BOT" plan --target tight --seconds 5 \
		"$DATA/plan/autogroup-diff-only.mbox" >plan &&
	test_grep "^    sched-bench spawn -t 5 -c 4 --autogroup on --setsid$" plan &&
	test_grep "^    sched-bench spawn -t 5 -c 4 --cgroup new$" plan &&
	test_grep ! -e "--autogroup off" plan &&
	tr -s " \n" "  " <plan >flat &&
	test_grep "budget: the off cell is left out: with it one boot.s 3 runs take ~45 s, past the 40 s" flat &&
	test_grep "in two cells" flat &&
	test_grep ! "One boot.s runs take" flat &&
	"$SCHED_BOT" plan --target tight --seconds 5 --init-args \
		"$DATA/plan/autogroup-diff-only.mbox" >args &&
	test_grep "^args=spawn=-c,4,--autogroup,on,--setsid+-c,4,--cgroup,new$" args
'

test_expect_success '... a plan past the timeout even so says it' '
	"$SCHED_BOT" plan --target tight --seconds 30 \
		"$DATA/plan/autogroup-diff-only.mbox" >plan &&
	tr -s " \n" "  " <plan >flat &&
	test_grep "One boot.s runs take ~80 s as reckoned (-t + 10 s a run), past the 40 s they may take" flat
'

test_expect_success 'a local job runs spawn as the machine is, in one cell' '
	"$SCHED_BOT" plan --target local --seconds 5 \
		"$DATA/plan/autogroup-diff-only.mbox" >plan &&
	test_grep "the target runs as the machine is" plan &&
	test_grep ! -e "--autogroup on" plan
'

test_expect_success 'a target laid out as 2 x 2C/4T, 2 nodes: the sweep follows it' '
	cat >>"$TRASH/bot.cfg" <<-EOF &&
	[target "box"]
		type = qemu
		smp = 8
		sockets = 2
		threads = 2
		numa = 2
	EOF
	"$SCHED_BOT" plan --target box --seconds 5 \
		"$DATA/intake/short-task-wakeup-v3-complete.mbox" >plan &&
	test_grep "sched-bench pingpong -t 5 --no-pin --sweep 1,4,8,16 --warmup 0$" plan &&
	tr -s " \n" "  " <plan >flat &&
	test_grep "one LLC (4 CPUs), one NUMA node (4), one socket (4)" flat &&
	"$SCHED_BOT" plan --target box --cpus 8 --seconds 5 \
		"$DATA/intake/short-task-wakeup-v3-complete.mbox" >plan8 &&
	test_grep "sched-bench pingpong -t 5 --no-pin --sweep 1,2,4,8,16 --warmup 0$" plan8
'

test_expect_success 'the tables of a run in cells name the cell of each row' '
	b=$DATA/compare/simple-base.csv n=$DATA/compare/simple-new.csv &&
	{
		head -n 1 "$b" &&
		for f in "$b" "$n"; do
			tail -n +2 "$f" | awk -F, -v OFS=, "{
				\$4 = \"copies=4 autogroup=on setsid=1\"; print
				\$4 = \"copies=4 cgroup=new\"; \$19 = 0
				\$20 = \"/sched-bench-1\"; print }"
		done
	} >cells.csv &&
	"$SCHED_BOT" compare cells.csv -f simple >tables &&
	tr -s " \n" "  " <tables >flat &&
	test_grep "spawn copies=4 autogroup=on setsid=1 on m7gd.16xlarge" flat &&
	test_grep "spawn copies=4 cgroup=new on m7gd.16xlarge" flat &&
	test_grep "sched_autogroup_enabled=0, cgroup /sched-bench-1" flat
'

test_expect_failure_code 'sched-bot plan of a missing file: exit 3' 3 '
	"$SCHED_BOT" plan "$TRASH/no-such.mbox"
'

test_expect_success 'sched-bench takes the sweep as init passes it (1:2)' '
	"$SCHED_BENCH" pingpong -t 1 --warmup 0 --no-pin --sweep 1:2 >pp &&
	test_grep "pairs=1 " pp &&
	test_grep "pairs=2 " pp
'

test_expect_failure_code '... and refuses a bad one' 2 '
	"$SCHED_BENCH" pingpong --sweep 1:x 2>err
'

# The jobs below run spawn without its 3 s sleep before each pass
# (UnixBench's): they check the job, not the kernel.
cp "$TRASH/bot.cfg" "$TRASH/job.cfg"
git config -f "$TRASH/job.cfg" job.spawnGap 0
export SCHED_BOT_CONFIG=$TRASH/job.cfg

test_expect_success 'a job on a spawn thread runs spawn with N = CPUs' '
	job_at_run fork \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		20250314151345.275739-1-dietmar.eggemann@arm.com &&
	"$SCHED_BOT" test --job-dir fork >out 2>err || { cat err; exit 1; } &&
	n=$(getconf _NPROCESSORS_ONLN) &&
	test_grep "^    sched-bench spawn -t 1 -c $n --gap 0$" fork/plan.txt &&
	"$SCHED_BOT" config --list --all >cfg &&
	test_grep "^bot.workloads=auto	default$" cfg &&
	cut -d, -f1-3 fork/results.csv >rows &&
	test_grep "spawn" rows &&
	test_grep ! "pingpong" fork/results.csv &&
	test_grep "copies=$n" fork/results.csv &&
	m=$(cat out) &&
	test_grep "^What ran and why$" "$m" &&
	test_grep "^    sched-bench spawn -t 1 -c $n --gap 0$" "$m" &&
	test_grep "autogroup x cgroup" "$m" &&
	test_grep "^- sched: " fork/machine.txt &&
	test_grep "^- sched: " "$m" &&
	test_grep -e "--workloads auto --runs 2" "$m"
'

test_expect_success '... and its tables in the thread format (simple, w/o w/)' '
	test_grep "^table format simple, as in <20250314151345.275739-1-dietmar.eggemann@arm.com>" fork/format.txt &&
	# which format it chose stays in the job, not the mail
	test_grep ! "^table format" "$(cat out)"
'

test_expect_success 'seed 004: unpinned ping-pong over the instance sweep, Intel tables' '
	job_at_run wake "$DATA/intake/short-task-wakeup-v3-complete.mbox" \
		cover.1669862147.git.yu.c.chen@intel.com &&
	"$SCHED_BOT" test --job-dir wake >out 2>err || { cat err; exit 1; } &&
	test_grep "sched-bench pingpong -t 1 --no-pin --sweep 1,2,4 --warmup 0$" wake/plan.txt &&
	test_grep "^sched-bench pingpong -t 1 --run 1 --no-pin --sweep 1:2:4 --warmup 0$" wake/run-1-head/commands.txt &&
	test_grep "pairs=1 mode=processes duration=1 warmup=0" wake/results.csv &&
	test_grep "pairs=1 " wake/results.csv &&
	test_grep "pairs=2 " wake/results.csv &&
	test_grep ",free," wake/results.csv &&
	test_grep ! ",pinned," wake/results.csv &&
	test_grep "^base,[^,]*,hackbench," wake/results.csv &&
	test_grep "^patched,[^,]*,hackbench," wake/results.csv &&
	test_grep "^table format intel" wake/format.txt &&
	m=$(cat out) &&
	test_grep "No task is bound to any CPU" "$m" &&
	test_grep "baseline(std%)" "$m" &&
	test_grep "^- hackbench: " "$m" &&
	test_grep "^- netperf: " "$m"
'

test_expect_success 'explicit workloads still win: no plan' '
	job_at_run given \
		"$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox" \
		20250314151345.275739-1-dietmar.eggemann@arm.com hackbench &&
	"$SCHED_BOT" test --job-dir given >out 2>err || { cat err; exit 1; } &&
	test ! -f given/plan.txt &&
	test_grep "^[^,]*,[^,]*,hackbench," given/results.csv &&
	test_grep ! "spawn" given/results.csv &&
	test_grep ! "What ran and why" "$(cat out)"
'

test_done
