#!/bin/sh
# The ssh target against a machine (tests/lib-machine.sh: a QEMU guest
# on its own default kernel, the tests' base build, with sshd and
# kexec-tools): a real kexec into the patched build, proved by its token
# in /proc/cmdline, rows, and the default kernel back after the reboot;
# a kernel that panics is the kernel's failure with its console lines,
# the machine power-cycled back; a machine that stays down is marked
# unhealthy and refused until cleared; `target check` finds it idle,
# with its noise figures, then busy while a loop spins there; a whole
# job runs base and patched there in 2 blocks of kexecs, saying the
# machine was busy and too noisy, and replies with its facts.  One
# machine boot for them all.
#
# Heavy on a cold cache: the base and patched builds are t5000's (same
# commits, same cache keys), so whichever test runs first builds them.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"
. "$TESTS/lib-machine.sh"
. "$TESTS/lib-hostile.sh"

kernel_prereqs
machine_prereqs
kernel_repo || test_skip_all "could not make the kernel repository"
kernel_config

kernel_commit base README '$a t5000' t5000-base
kernel_commit t5000-base kernel/sched/fair.c \
	's/sysctl_sched_migration_cost\t= 500000UL;/sysctl_sched_migration_cost\t= 400000UL;/' \
	t5000-patched

test_expect_success 'the base and patched builds (t5000s)' '
	"$SCHED_BOT" build --tree "$KREPO" --rev t5000-base -o base >bout &&
	"$SCHED_BOT" build --tree "$KREPO" --rev t5000-patched -o patched \
		>pout &&
	test_grep -x "CONFIG_KEXEC=y" base/config &&
	test_grep -x "CONFIG_VIRTIO_NET=y" base/config &&
	! cmp -s base/bzImage patched/bzImage
'

if ! test -s "$TRASH/base/bzImage" || ! machine_start "$TRASH/base/bzImage"
then
	test_skip_rest "the machine did not come up"
fi

REL=$(sed -n "s/^release: //p" "$TRASH/bout")
TOKEN=sched_bot.build=$(git hash-object "$TRASH/patched/bzImage" | cut -c1-16)
cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "box"]
	type = ssh
	host = 127.0.0.1
	port = ${MACHINE_PORT:-1}
	user = root
	identity = ${MACHINE_ID:-none}
	sshOptions = ${MACHINE_OPTS:-}
	remoteDir = /tmp/sched-bot
	initrd = /boot/initrd.img
	console = ${MACHINE_CONSOLE:-none}
	powerCommand = ${MACHINE_POWER:-false}
	bootTimeout = 300
	timeout = 300
EOF

test_expect_success 'the machine runs its default kernel, no token' '
	machine_ssh "uname -r; cat /proc/sys/kernel/random/boot_id /proc/cmdline" \
		>own &&
	test "$(sed -n 1p own)" = "$REL" &&
	sed -n 3p own >own.cmdline &&
	test_grep "console=ttyS0" own.cmdline &&
	test_grep ! "sched_bot\." own.cmdline
'

test_expect_success 'boot kexecs into the patched kernel: rows carry its token' '
	start=$(date +%s) &&
	"$SCHED_BOT" -v boot --target box --kernel patched/bzImage \
		--release "$REL" --workloads spawn,pingpong --runs 1 -t 1 \
		--label patched --workdir kexec -o rows.csv >out 2>err &&
	echo $(($(date +%s) - start)) >"$TRASH/kexec.seconds" &&
	test_grep "^status: ok" out &&
	test_grep -x "kernel: $REL $TOKEN" out &&
	test_grep "runs $REL ($TOKEN), up in" err &&
	test_grep "^patched,$REL $TOKEN,spawn," rows.csv &&
	test_grep "^patched,$REL $TOKEN,pingpong," rows.csv &&
	test_grep "Command line:.*$TOKEN" "$MACHINE_CONSOLE"
'
[ -s "$TRASH/kexec.seconds" ] &&
	echo "# kexec, run and reboot back: $(cat "$TRASH/kexec.seconds")s"

test_expect_success 'afterwards the machine is back on its default kernel' '
	machine_ssh "cat /proc/sys/kernel/random/boot_id /proc/cmdline" >after &&
	test "$(sed -n 2p after)" = "$(cat own.cmdline)" &&
	test "$(sed -n 1p after)" != "$(sed -n 2p own)" &&
	test_grep ! "sched_bot\." after
'

# baseConfig = running: the machine's own config, taken over ssh and kept
# with the release it runs, only what the bot needs on top (machine.config,
# kexec.config: the machine has them all, so nothing changes).  What is
# shown is where the base comes from,
# so a stand-in tree (lib-hostile.sh: its make writes a tinyconfig of
# one line and builds in no time) takes the place of a kernel build.
{ cat "$XDG_CONFIG_HOME/sched-bot/config" && cat <<EOF; } >"$TRASH/own.config"
[build]
	cacheDir = $TRASH/standin-builds
[target "box"]
	baseConfig = running
EOF
standin_tree

test_expect_success 'baseConfig = running: built from the machine'\''s own config' '
	"$SCHED_BOT" --config "$TRASH/own.config" -v build --tree tree \
		--rev base --target box -o mine >oout 2>oerr &&
	test_grep -x "base-config: the machine'\''s own ($REL), /proc/config.gz on root@127.0.0.1" oout &&
	test_grep -x "fragments: machine.config kexec.config" oout &&
	test_grep ! "^changed:" oout &&
	machine_ssh "cat /proc/config.gz" | gzip -dc >guest.config &&
	test_cmp guest.config "$XDG_DATA_HOME/sched-bot/targets/box.config" &&
	test_grep "^CONFIG_CC_VERSION_TEXT=" mine/config &&
	test_grep -x "CONFIG_KEXEC=y" mine/config &&
	test_grep ! -x "CONFIG_A=y" mine/config &&
	"$SCHED_BOT" --config "$TRASH/own.config" build --tree tree --rev base \
		-o tiny >tout &&
	test_grep -x "CONFIG_A=y" tiny/config &&
	test "$(sed -n "s/^config-hash: //p" oout)" != \
	     "$(sed -n "s/^config-hash: //p" tout)"
'

test_expect_success '... taken once: a second build does not ask the machine' '
	"$SCHED_BOT" --config "$TRASH/own.config" -v build --tree tree \
		--rev base --target box >oout2 2>oerr2 &&
	test_grep -x "result: cached" oout2 &&
	test_grep ! "taking the kernel config" oerr2 &&
	test_grep "taking the kernel config of target box" oerr
'

# A job for the box with baseConfig = running: its kernels from the
# stand-in tree, given a vmlinux alike on both sides (t6014's recipe),
# so the job finds them alike, boots nothing, and its reply says
# where the config came from; the state keeps its origin and hash.
(cd "$TRASH" &&
cp /bin/true tree/vmlinux.bin &&
sed -i 's|^\t{ head -c 514.*|&\n\tcp vmlinux.bin $(O)/vmlinux|' tree/Makefile &&
git -C tree add -A && git -C tree -c user.name=t -c user.email=t@t \
	commit -qm "base with a vmlinux" && git -C tree branch -qf base &&
git -C tree checkout -q -B work base && echo "int y;" >>tree/kernel/sched/fair.c &&
git -C tree -c user.name=t -c user.email=t@t commit -qam "sched/fair: one more line" &&
git -C tree -c user.name=t -c user.email=t@t format-patch -q --stdout --thread -1 \
	--base=base >one.mbox &&
git -C tree checkout -q base && git clone -q --bare tree repo.git) ||
	test_fail_all "cannot make the stand-in series"
# own.config after the stand-in's: its builds and the box's baseConfig
# (running) are the ones taken.
standin_job_config "$TRASH/own-job.config" &&
	cat "$TRASH/own.config" >>"$TRASH/own-job.config" ||
	test_fail_all "cannot write the job's configuration"
cat >>"$TRASH/own-job.config" <<EOF
[bot]
	name = Sched Bot
	email = bot@sched-bot.example.org
[job]
	target = box
EOF

test_expect_success 'a job on the box: the reply names the machine'\''s own config' '
	"$SCHED_BOT" --config "$TRASH/own-job.config" test --mbox one.mbox \
		--workloads spawn >jout 2>jerr &&
	state=$(ls jobs/*/state) &&
	! test -e "${state%/state}/results.csv" &&
	test_grep -x "config_origin=the machine'\''s own ($REL), /proc/config.gz on root@127.0.0.1" "$state" &&
	test_grep -x "fragments=machine.config kexec.config" "$state" &&
	test -f "${state%/state}/config-changes.txt" &&
	! test -s "${state%/state}/config-changes.txt" &&
	hash=$(sed -n "s/^config_hash=//p" "$state") &&
	test -n "$hash" &&
	test "$hash" = "$(sed -n "s/^config-hash: //p" oout)" &&
	reply=$(ls jobs/*/reply.eml) &&
	tr -s " \n" "  " <"$reply" >reply.flat &&
	test_grep "config: the machine'\''s own ($REL), /proc/config.gz on root@127.0.0.1 (config $hash), unchanged" reply.flat
'

# No init at all ("Requested init /nonexistent failed"), then panic=0
# after panic=-1: the kernel hangs in its panic, as a real
# server without a reboot-on-panic would, until the power button.  The
# console shows the panic, so the bot does not wait out bootTimeout.
{ cat "$XDG_CONFIG_HOME/sched-bot/config" && cat <<EOF; } >"$TRASH/panic.config"
[target "box"]
	append = rdinit=/nonexistent init=/nonexistent panic=0
	bootTimeout = 300
EOF

test_expect_success 'a kernel that panics: its console lines, power-cycled back' '
	rc=0; "$SCHED_BOT" --config "$TRASH/panic.config" boot --target box \
		--kernel patched/bzImage --workloads spawn --runs 1 -t 1 \
		--workdir panic -o panic.csv >pout 2>perr || rc=$?
	test $rc -eq 1 &&
	test_grep "^status: panic" pout &&
	test_grep "did not come back: its console shows a kernel panic" perr &&
	test_grep "(not waiting out bootTimeout)" perr &&
	test_grep "Kernel panic" perr &&
	test_grep "Kernel panic" panic/console.log &&
	test_grep "Command line:.*init=/nonexistent panic=0 $TOKEN" panic/console.log &&
	test_grep "power-cycling" perr &&
	test_grep "back on its default kernel" perr &&
	! test -e panic.csv &&
	machine_ssh cat /proc/cmdline >now &&
	test_cmp own.cmdline now &&
	"$SCHED_BOT" target status box >st &&
	test_grep -x "box: healthy" st
'

# The same kernel, and a powerCommand that does nothing: the machine
# stays down.  bootTimeout is what is waited for it to come back before
# it is marked, in vain here, so a short one: each poll of a guest that
# does not answer takes its own seconds anyway (the ssh attempt), and
# whether the panic is seen first or the time runs out, the power
# cycle that brings nothing back is what marks it.
{ cat "$XDG_CONFIG_HOME/sched-bot/config" && cat <<EOF; } >"$TRASH/dead.config"
[target "box"]
	append = rdinit=/nonexistent init=/nonexistent panic=0
	bootTimeout = 2
	powerCommand = true
EOF

test_expect_success 'a machine that stays down is marked unhealthy, then refused' '
	rc=0; "$SCHED_BOT" --config "$TRASH/dead.config" boot --target box \
		--kernel patched/bzImage --workloads spawn --runs 1 -t 1 \
		-o dead.csv >dout 2>derr || rc=$?
	test $rc -eq 1 &&
	test_grep "box is marked unhealthy" derr &&
	"$SCHED_BOT" target status box >st &&
	test_grep "^box: unhealthy since .*after powerCommand" st &&
	rc=0; "$SCHED_BOT" boot --target box --workloads spawn --runs 1 -t 1 \
		-o refused.csv 2>refused || rc=$?
	test $rc -eq 1 &&
	test_grep "target box is marked unhealthy" refused &&
	test_grep "sched-bot target status box" refused &&
	test_grep "sched-bot target clear box" refused &&
	! test -e refused.csv
'

test_expect_success 'the operator resets it and clears the mark' '
	$MACHINE_POWER &&
	machine_wait 300 &&
	machine_ssh cat /proc/cmdline >now2 &&
	test_cmp own.cmdline now2 &&
	"$SCHED_BOT" target clear box &&
	"$SCHED_BOT" target status box >st2 &&
	test_grep -x "box: healthy" st2
'

# target check: the machine's settings, load and noise on its default
# kernel.  The noise of TCG runs is high: a change of 50% is the one to
# find here, so that only the load decides idle or busy.
cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<EOF2
[compare]
	detect = 50
[target "box"]
	prepare = true
EOF2

test_expect_success 'target check: idle, its settings and noise figures' '
	start=$(date +%s) &&
	"$SCHED_BOT" target check --quick --runs 3 -t 1 \
		--workloads spawn,pingpong box >idle 2>idle.err &&
	echo $(($(date +%s) - start)) >"$TRASH/check.seconds" &&
	cat idle &&
	test_grep -x "box: prepare: no cpufreq: no governor to set" idle &&
	test_grep "^box: no cpufreq, boost .*, SMT .*, THP " idle &&
	test_grep "^box: load average [0-9.]* [0-9.]* [0-9.]* .* on 2 CPUs$" idle &&
	test_grep "^box: noise: spawn lps: CV [0-9.]*% over 3 runs; " idle &&
	test_grep "^box: noise: pingpong handoffs: CV [0-9.]*% over 3 runs; " idle &&
	test_grep -x "box: idle, fit to measure on" idle &&
	kept=$XDG_DATA_HOME/sched-bot/targets/box.check &&
	test_grep "^noise spawn lps [0-9.]* 3$" "$kept" &&
	test_grep ! "^busy" "$kept" &&
	test_grep "^env,kernel_release,$REL$" \
		"$XDG_DATA_HOME/sched-bot/targets/box-check/env.txt"
'
[ -s "$TRASH/check.seconds" ] &&
	echo "# target check, 2 workloads x 3 quick runs: $(cat "$TRASH/check.seconds")s"

# A loop that spins until the next boot takes it away.
test_expect_success 'target check: busy while a loop spins there, naming it' '
	machine_ssh "sh -c \"while :; do :; done\" </dev/null >/dev/null 2>&1 &
		echo \$!" >loop.pid &&
	loop=$(cat loop.pid) &&
	test -n "$loop" &&
	rc=0; "$SCHED_BOT" target check --quick --runs 3 -t 1 box >busy \
		2>busy.err || rc=$?
	cat busy &&
	test $rc -eq 1 &&
	test_grep "^box: top: *[0-9.]*% of a CPU, pid $loop (sh)$" busy &&
	test_grep "^box: busy: .*pid $loop (sh) takes [0-9]*% of a CPU" busy &&
	test_grep -x "box: noise not measured: the machine is busy" busy &&
	test_grep ! "idle, fit" busy &&
	test_grep "^busy .*pid $loop (sh)" \
		"$XDG_DATA_HOME/sched-bot/targets/box.check"
'

# A whole job on the machine, from its run stage with t5000's builds
# (the series' builds are not this machine's kernels): base and patched
# in 2 interleaved blocks, each boot a kexec, 4 round trips.  The loop
# above still spins, so the job's look finds the machine busy; with
# compare.detect = 0.1 the kept noise puts the change out of 2 runs' reach
# (at 1% a pingpong CV of 0.35%, once measured here, was within it).
BTOKEN=sched_bot.build=$(git hash-object "$TRASH/base/bzImage" | cut -c1-16)
{ cat "$XDG_CONFIG_HOME/sched-bot/config" && cat <<EOF2; } >"$TRASH/job.config"
[compare]
	detect = 0.1
[job]
	seconds = 1
	spawnGap = 0
EOF2

test_expect_success 'test: a job on the machine, each block a kexec, the reply its facts' '
	loop=$(cat loop.pid) &&
	rm -rf boxjob && cp -R "$DATA/bot/job-tested" boxjob &&
	cp "$DATA/intake/short-task-wakeup-v3-partial.mbox" boxjob/thread.mbox &&
	rm -f boxjob/tables.txt boxjob/verdict.txt boxjob/regressions.txt \
		boxjob/machine.txt &&
	sed -i -e "s/^stage=reply$/stage=run/" -e "/^outcome=/d" \
		-e "s/^target=qemu$/target=box/" \
		-e "s/^workloads=.*/workloads=pingpong/" \
		-e "s/^runs=5$/runs=2/" boxjob/state &&
	cat >>boxjob/state <<-EOF3 &&
	kernel_base=$TRASH/base/bzImage
	release_base=$REL
	kernel_head=$TRASH/patched/bzImage
	release_head=$REL
	runs_fixed=1
	EOF3
	start=$(date +%s) &&
	"$SCHED_BOT" --config "$TRASH/job.config" test --job-dir boxjob \
		>job.out 2>job.err &&
	echo $(($(date +%s) - start)) >"$TRASH/job.seconds" &&
	m=$(cat job.out) &&
	test_grep "target box: busy before the runs: .*pid $loop (sh)" job.err &&
	test_grep "too noisy to find or exclude a 0.1% change in 2 runs a side" job.err &&
	test "$(grep -c "runs $REL ($BTOKEN), up in" job.err)" -eq 2 &&
	test "$(grep -c "runs $REL ($TOKEN), up in" job.err)" -eq 2 &&
	test "$(grep -c "^base,$REL $BTOKEN,pingpong," boxjob/results.csv)" -ge 2 &&
	test "$(grep -c "^patched,$REL $TOKEN,pingpong," boxjob/results.csv)" -ge 2 &&
	test_grep "^- health: *busy before the runs: " "$m" &&
	test_grep "^busy before the runs: .*pid $loop (sh) takes" boxjob/health.txt &&
	test_grep "^- health: *too noisy to find or exclude a 0.1% change" "$m" &&
	test_grep "pingpong handoffs: CV .*past --runs 2" boxjob/health.txt &&
	test_grep ! "spawn" boxjob/health.txt &&
	test_grep ! "^Tested-by:" "$m"
'
[ -s "$TRASH/job.seconds" ] &&
	echo "# a job of 2 blocks on the machine: $(cat "$TRASH/job.seconds")s"

test_expect_success '... and the machine is back on its default kernel' '
	machine_ssh cat /proc/cmdline >now3 &&
	test_cmp own.cmdline now3
'

test_done
