#!/bin/sh
# The reporter's size (target.NAME.matchReporter): where a thread states
# the machine it measured on (seed 001's "4 vCPUs and 16 GiB RAM"), a
# larger target is cut down to it with maxcpus= nr_cpus= (and mem=) on
# the kernel command line, never up.  `sched-bot plan` quotes the
# sentence with its message and says what is cut and why; a job boots
# its guest with the words (a stand-in QEMU shows its command line, no
# kernel is built or booted), an ssh machine kexecs with them (this
# host over the test's sshd, its boot command booting nothing), and the
# reply says what the machine was cut to, when the kernel's own record
# shows the words, and how to reproduce it so.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"
. "$TESTS/lib-hostile.sh"

FORK=$DATA/intake/lkml/revert-sched_move_task/thread-with-tip-bot.mbox
FORK_MSGID=20250314151345.275739-1-dietmar.eggemann@arm.com

bot_config "$TRASH/bot.cfg" 1
cat >>"$TRASH/bot.cfg" <<EOC
[target "q8"]
	type = qemu
	smp = 8
	matchReporter = true
[target "q8off"]
	type = qemu
	smp = 8
[target "q4"]
	type = qemu
	smp = 4
	matchReporter = true
[target "q8big"]
	type = qemu
	smp = 8
	mem = 32768
	matchReporter = true
[target "local"]
	matchReporter = true
[target "box"]
	type = ssh
	host = box.example.org
	matchReporter = true
EOC
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# The plan with hackbench the only tool on PATH, as t6013's: what this
# host has installed must not change it.
mkdir -p "$TRASH/tools" && : >"$TRASH/tools/hackbench" &&
	chmod +x "$TRASH/tools/hackbench"
plan() {
	PATH=$TRASH/tools "$SCHED_BOT" plan --seconds 5 "$@"
}

test_expect_success 'seed 001: an 8-CPU guest cut to the reporter'\''s 4 CPUs' '
	plan --target q8 "$FORK" >out &&
	test_cmp "$DATA/plan/reporter-cut-q8.txt" out
'

test_expect_success '... and without matchReporter, nothing is cut or said' '
	plan --target q8off "$FORK" >off &&
	test_grep "^target.s 8 CPUs" off &&
	test_grep "sched-bench spawn -t 5 -c 8 --autogroup on --setsid$" off &&
	test_grep ! "reporter" off &&
	PATH=$TRASH/tools "$SCHED_BOT" plan --target q8 --seconds 5 \
		--init-args "$FORK" >args &&
	test_grep "^args=spawn=-c,4,--autogroup,on,--setsid+-c,4" args
'

test_expect_success 'a thread that says 64 CPUs on a 4-CPU target: said, not applied' '
	plan --target q4 "$DATA/plan/reporter-64cpus.mbox" >out &&
	test_cmp "$DATA/plan/reporter-64cpus-q4.txt" out
'

test_expect_success 'a guest with more memory than the reporter'\''s: mem= too' '
	plan --target q8big "$FORK" >out &&
	test_grep "^The reporter.s machine (matchReporter): maxcpus=4 nr_cpus=4 mem=16G$" out &&
	tr -s " \n" "  " <out >flat &&
	test_grep "memory: 16 GiB there, 32 GiB here: mem=16G" flat
'

test_expect_success 'the maintainer'\''s kernel words, across a line break, say it too' '
	cat >cut.mbox <<-\EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Dee Example <dee@example.org>
	To: linux-kernel@vger.kernel.org
	Subject: Re: [PATCH] sched/fair: a revert
	Date: Thu, 6 Mar 2025 10:00:00 +0000
	Message-Id: <cut-1@example.org>

	'\''./Run -c 4 spawn'\'' on AWS instance (m7gd.16xlarge) with v6.13, '\''mem=16G
	maxcpus=4 nr_cpus=4'\'' and Ubuntu '\''22.04.5 LTS'\'':
	EOF
	plan --target q8big cut.mbox >out &&
	test_grep "^The reporter.s machine (matchReporter): maxcpus=4 nr_cpus=4 mem=16G$" out &&
	tr -s " \n" "  " <out >flat &&
	test_grep "maxcpus=4 nr_cpus=4. and Ubuntu .22.04.5 LTS.:\" (Dee Example, a reply \[1\])" flat
'

test_expect_success 'the local target runs as it is: not cut' '
	plan --target local "$FORK" >out &&
	test_grep "^The reporter.s machine (matchReporter): not cut$" out &&
	test_grep "the target runs as the machine is (local): nothing is cut" out
'

test_expect_success 'a thread that states no machine: not cut, and said' '
	plan --target q8 "$DATA/plan/autogroup-diff-only.mbox" >out &&
	test_grep "^The reporter.s machine (matchReporter): not cut$" out &&
	tr -s " \n" "  " <out >flat &&
	test_grep "the thread states no machine it measured on" flat &&
	test_grep "for the target.s 8 CPUs" flat
'

test_expect_success 'an ssh machine: its CPUs and memory from its record' '
	mkdir -p "$XDG_DATA_HOME/sched-bot/targets" &&
	{
		cat "$DATA/plan/facts-2s8c2t.txt" &&
		echo "env,mem_total_kb,131072000"
	} >"$XDG_DATA_HOME/sched-bot/targets/box.facts" &&
	plan --target box "$FORK" >out &&
	test_grep "^The reporter.s machine (matchReporter): maxcpus=4 nr_cpus=4 mem=16G$" out &&
	tr -s " \n" "  " <out >flat &&
	test_grep "CPUs: 4 there, 32 here" flat &&
	test_grep "memory: 16 GiB there, 125 GiB here: mem=16G" flat
'

# A job at its run stage on q8, whose QEMU is a stand-in that prints
# its command line on the console and stops: the boot fails (no init),
# and the console log holds what QEMU was given.
standin_prereqs
printf '#!/bin/sh\nfor a in "$@"; do printf "qemu-arg %%s\\n" "$a"; done\n' \
	>"$TRASH/qemu-args" && chmod 755 "$TRASH/qemu-args"
printf 'not really a kernel\n' >"$TRASH/bzImage"
cp "$TRASH/bot.cfg" "$TRASH/job.cfg"
git config -f "$TRASH/job.cfg" target.q8.qemu "$TRASH/qemu-args"
git config -f "$TRASH/job.cfg" target.q8.accel tcg
git config -f "$TRASH/job.cfg" job.seconds 1

job_at_run() {
	rm -rf "$1" && mkdir -p "$1" &&
	cp "$FORK" "$1/thread.mbox" &&
	cat >"$1/state" <<-EOS
	stage=run
	msgid=$FORK_MSGID
	target=$2
	workloads=${3:-auto}
	runs=1
	runs_fixed=1
	cover_msgid=$FORK_MSGID
	subject=a series
	version=1
	nr_patches=1
	base_desc=v6.1-rc6
	base_commit=0123456789abcdef0123456789abcdef01234567
	head_commit=89abcdef0123456789abcdef0123456789abcdef
	kernel_base=$TRASH/bzImage
	kernel_head=$TRASH/bzImage
	release_base=6.1.0
	release_head=6.1.0
	EOS
}

test_expect_success 'a job boots its guest with the reporter'\''s words' '
	job_at_run cutjob q8 &&
	! SCHED_BOT_CONFIG=$TRASH/job.cfg "$SCHED_BOT" test --job-dir cutjob \
		>out 2>err &&
	cat cutjob/run-1-*/console.log >console &&
	test_grep "^qemu-arg -append$" console &&
	grep -A1 "^qemu-arg -append$" console | sed -n 2p >append &&
	test_grep "^qemu-arg console=ttyS0 panic=-1 .* maxcpus=4 nr_cpus=4$" append &&
	printf "%s\n" "maxcpus=4 nr_cpus=4" \
		"cut to the reporter'\''s 4 CPUs (maxcpus=4 nr_cpus=4); the reporter'\''s 16 GiB not applied, the target has less" >expect &&
	test_cmp expect cutjob/cut.txt &&
	test_grep "^The reporter.s machine (matchReporter): maxcpus=4 nr_cpus=4$" cutjob/plan.txt &&
	test_grep "cut to the reporter.s 4 CPUs" err
'

test_expect_success '... the workloads given, the cut all the same' '
	job_at_run given q8 spawn &&
	! SCHED_BOT_CONFIG=$TRASH/job.cfg "$SCHED_BOT" test --job-dir given \
		>out 2>err &&
	cat given/run-1-*/console.log >console &&
	grep -A1 "^qemu-arg -append$" console | sed -n 2p >append &&
	test_grep "sb.workloads=spawn .*maxcpus=4 nr_cpus=4$" append &&
	test -f given/cut.txt
'

test_expect_success '... and none without matchReporter' '
	job_at_run plain q8 &&
	git config -f "$TRASH/job.cfg" target.q8.matchReporter false &&
	! SCHED_BOT_CONFIG=$TRASH/job.cfg "$SCHED_BOT" test --job-dir plain \
		>out 2>err &&
	cat plain/run-1-*/console.log >console &&
	grep -A1 "^qemu-arg -append$" console | sed -n 2p >append &&
	test_grep "^qemu-arg console=ttyS0 panic=-1 " append &&
	test_grep ! "maxcpus" append &&
	! test -e plain/cut.txt
'

# The reply of a tested job (t6013's fixture) run on a guest cut to the
# reporter's size: what its Machine section says of the cut, whole.
reply_job() {
	rm -rf "$1" && cp -R "$DATA/reply/tested" "$1" &&
	cp "$DATA/intake/short-task-wakeup-v3-partial.mbox" "$1/thread.mbox" &&
	sed -e "s/^env,cmdline,.*/env,cmdline,$2/" -e "s/^env,nr_cpus,.*/env,nr_cpus,4/" \
		"$DATA/reply/env.txt" >"$1/run-1-head/env.txt" &&
	printf "%s\n" "maxcpus=4 nr_cpus=4" \
		"cut to the reporter's 4 CPUs (maxcpus=4 nr_cpus=4); the reporter's 16 GiB not applied, the target has less" \
		>"$1/cut.txt" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$1" >/dev/null 2>"$1.err" || rc=$? &&
	case $rc in 0|1|5) ;; *) cat "$1.err"; return 1 ;; esac &&
	sed -n "/^Machine$/,/^Results$/p" "$1/reply.eml" >"$1.machine" &&
	sed -n "/^- size:/,/^$/p" "$1/reply.eml" >"$1.size"
}

test_expect_success 'the reply says the machine was cut to the reporter'\''s 4 CPUs' '
	reply_job cut "console=ttyS0 panic=-1 sb.workloads=spawn,pingpong sb.runs=1 maxcpus=4 nr_cpus=4" &&
	cat >expect <<-\EOF &&
	- size:     cut to the reporter'\''s 4 CPUs (maxcpus=4 nr_cpus=4); the
	            reporter'\''s 16 GiB not applied, the target has less

	EOF
	test_cmp expect cut.size &&
	tr -s " \n" "  " <cut.machine >flat &&
	test_grep "cmdline: console=ttyS0 panic=-1 [^-]* maxcpus=4 nr_cpus=4 - sched:" flat
'

test_expect_success '... and how to reproduce it says the kernels were booted so' '
	cat >expect <<-\EOF &&
	Each kernel ran, booted with maxcpus=4 nr_cpus=4 (the reporter'\''s size),
	in this cell:

	    # autogroup on, cgroup /, unpinned, copies=2
	    sched-bench spawn -c 2 -t 5 --passes 1 --gap 1 --run 1
	EOF
	sed -n "/^Each kernel ran/,/^    sched-bench spawn/p" cut/reply.eml >actual &&
	test_cmp expect actual &&
	test_grep "^# (the kernels were booted with maxcpus=4 nr_cpus=4, the reporter.s size)$" \
		cut/reproduce.sh &&
	sh -n cut/reproduce.sh
'

test_expect_success '... and not when the kernel'\''s record lacks the words' '
	reply_job nocut "console=ttyS0 panic=-1 sb.workloads=spawn,pingpong sb.runs=1 maxcpus=40" &&
	tr -s " \n" "  " <nocut.machine >flat &&
	test_grep "size: the reporter.s size was asked for (maxcpus=4 nr_cpus=4), but the kernel.s record of its command line does not show it" flat &&
	test_grep ! "cut to the reporter" nocut.machine
'

# An ssh machine (this host, over the test's own sshd): its kexec
# command line is its own, then the reporter's words.  Its boot command
# writes the command line it was given and boots nothing, so the job
# stops there.  The thread's machine is one vCPU and 512 MB: smaller
# than any host that runs the tests, whatever it has.
. "$TESTS/lib-sshd.sh"
start_sshd || test_fail_all "sshd did not start"

test_expect_success 'an ssh machine kexecs with its own words, then the reporter'\''s' '
	cat >>"$TRASH/job.cfg" <<-EOF &&
	[target "mach"]
		type = ssh
		host = 127.0.0.1
		port = $SSHD_PORT
		user = root
		identity = $SSH_ID
		sshOptions = $SSH_OPTS
		remoteDir = $TRASH/remote
		bootCommand = echo {cmdline} >$TRASH/kexec-cmdline
		restoreCommand = true
		powerCommand = true
		bootTimeout = 2
		matchReporter = true
	EOF
	job_at_run sshjob mach &&
	cat >sshjob/thread.mbox <<-EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Cy Example <cy@example.org>
	To: linux-kernel@vger.kernel.org
	Subject: [PATCH] sched/fair: a change
	Date: Thu, 6 Mar 2025 10:00:00 +0000
	Message-Id: <$FORK_MSGID>

	hackbench loses 3% on a guest with 1 vCPU and 512 MB RAM.
	EOF
	! SCHED_BOT_CONFIG=$TRASH/job.cfg "$SCHED_BOT" test --job-dir sshjob \
		>out 2>err &&
	own=$(sed -e "s/BOOT_IMAGE=[^ ]* *//" -e "s/ *$//" /proc/cmdline) &&
	case " $own " in
	*" -- "*) kern=${own%% -- *} init=" -- ${own#* -- }" ;;
	*) kern=$own init= ;;
	esac &&
	echo "$kern${kern:+ }maxcpus=1 nr_cpus=1 mem=512M sched_bot.build=TOKEN$init" >expect &&
	sed "s/sched_bot.build=[0-9a-f]\{16\}/sched_bot.build=TOKEN/" \
		"$TRASH/kexec-cmdline" >kexec &&
	test_cmp expect kexec &&
	printf "%s\n" "maxcpus=1 nr_cpus=1 mem=512M" "cut to the reporter'\''s 1 CPU and 512 MB (maxcpus=1 nr_cpus=1 mem=512M)" >expect &&
	test_cmp expect sshjob/cut.txt
'

test_done
