#!/bin/sh
# The whole kernel path on Debian's linux-source-6.1: build the minimal
# sched kernel from a commit with the fragments, boot it in QEMU running
# spawn and pingpong, then hackbench and perf bench from the initramfs,
# read the rows; commit a one-line change to
# kernel/sched/fair.c, rebuild incrementally and boot again.  Build and
# config failures are results with clear messages.
#
# Heavy: the first run extracts and commits the tree and builds a kernel
# (minutes); the cache (see lib-kernel.sh) makes later runs cheap.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

kernel_prereqs
command -v qemu-system-x86_64 >/dev/null || test_skip_all "QEMU is not installed"
HACKBENCH=$(command -v hackbench) ||
	test_skip_all "hackbench is not installed (package rt-tests)"
command -v perf >/dev/null ||
	test_skip_all "perf is not installed (package linux-perf)"
command -v cpio >/dev/null || test_skip_all "cpio is not installed"
kernel_repo || test_fail_all "could not make the kernel repository"
kernel_config

# Fixed dates in kernel_commit: the same commits (and cache keys) each run.
# The base is this test's own commit (README gains a line): other tests
# build the tree's import too, and a base that came from their cache
# would leave this slot without it, so the patched build would compile
# everything on a cold cache.
kernel_commit base README '$a t5000' t5000-base
kernel_commit t5000-base kernel/sched/fair.c \
	's/sysctl_sched_migration_cost\t= 500000UL;/sysctl_sched_migration_cost\t= 400000UL;/' \
	t5000-patched
kernel_commit t5000-base kernel/sched/fair.c \
	's/sysctl_sched_migration_cost\t= 500000UL;/sysctl_sched_migration_cost\t= 500000UL +;/' \
	t5000-broken

test_expect_success 'the one-line patch really changes one line' '
	git -C "$KREPO" diff --numstat t5000-base t5000-patched >diff &&
	test "$(cat diff)" = "$(printf "1\t1\tkernel/sched/fair.c")"
'

test_expect_success 'build the base kernel from the tree with the fragments' '
	"$SCHED_BOT" build --tree "$KREPO" --rev t5000-base -o base >out &&
	test -s base/bzImage &&
	test_grep "^release: 6\.1\." out &&
	test_grep -x "CONFIG_SCHED_AUTOGROUP=y" base/config &&
	test_grep -x "CONFIG_FAIR_GROUP_SCHED=y" base/config &&
	test_grep -x "CONFIG_SERIAL_8250_CONSOLE=y" base/config &&
	test_grep -x "CONFIG_KERNEL_GZIP=y" base/config
'

test_expect_success 'a second build of the same commit comes from the cache' '
	"$SCHED_BOT" build --tree "$KREPO" --rev t5000-base >out2 &&
	test_grep -x "result: cached" out2 &&
	cmp "$(sed -n "s/^kernel: //p" out2)" base/bzImage
'

test_expect_success 'boot the base kernel in QEMU: spawn and pingpong rows' '
	"$SCHED_BOT" boot --target qemu --kernel base/bzImage \
		--workloads spawn,pingpong --runs 1 -t 1 --label base \
		--workdir boot-base -o rows.csv >boot.out &&
	test_grep "^status: ok" boot.out &&
	test_grep "@@SB END" boot-base/console.log &&
	rel=$(sed -n "s/^release: //p" out) &&
	test_grep ",spawn," rows.csv && test_grep ",pingpong," rows.csv &&
	test_grep "^base,$rel," rows.csv
'

# The sched fragment has CONFIG_SCHEDSTATS and the guest's init turns
# sched_schedstats on: every run has its schedstat deltas, and sane ones.
test_expect_success 'the guest rows carry the schedstat deltas' '
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		\$c[\"metric\"] ~ /^diag\.schedstat\./ {
			k = \$c[\"workload\"] \" \" \$c[\"run\"]
			v[k, substr(\$c[\"metric\"], 16)] = \$c[\"value\"]; runs[k] = 1
			if (\$c[\"value\"] < 0) { print \"negative: \" \$0; bad = 1 }
		}
		END {
			for (k in runs) {
				n++
				if (!(v[k, \"ttwu\"] > 0) || v[k, \"ttwu\"] < v[k, \"ttwu_local\"] ||
				    v[k, \"ttwu_remote\"] != v[k, \"ttwu\"] - v[k, \"ttwu_local\"] ||
				    !((k, \"run_delay\") in v) || !((k, \"dom0.lb_count\") in v)) {
					print k \": ttwu \" v[k, \"ttwu\"] \" local \" v[k, \"ttwu_local\"]; bad = 1
				}
			}
			if (n != 2) { print n \" runs with schedstat rows\"; bad = 1 }
			exit bad
		}" rows.csv
'

# The guest runs Debian's hackbench and perf from the initramfs, packed
# with their libraries and loader; the rows are the local target's.
test_expect_success 'hackbench and perf bench in the guest: their rows' '
	"$SCHED_BOT" boot --target qemu --kernel base/bzImage \
		--workloads hackbench,perf-messaging --runs 1 -t 1 \
		--label tools --workdir boot-tools -o tools.csv >tools.out &&
	test_grep "^status: ok" tools.out &&
	rel=$(sed -n "s/^release: //p" out) &&
	zcat boot-tools/initramfs.cpio.gz | cpio -it 2>/dev/null >tools.list &&
	test_grep -x "${HACKBENCH#/}" tools.list &&
	test_grep "RUN hackbench 1 $HACKBENCH -P -g 4 -l 500.\?$" \
		boot-tools/console.log &&
	test_grep "OUT Time: [0-9.]*" boot-tools/console.log &&
	test_grep "^tools,$rel,hackbench,groups=4 fds=20 loops=500 size=100 mode=process ipc=socket,1,time,[0-9.]*,s,0,0,free," tools.csv &&
	test_grep "^tools,$rel,hackbench,.*,1,diag.wall_s,[0-9.]*,s,0,0,free," tools.csv &&
	test_grep "^tools,$rel,perf-messaging,groups=4 loops=100 mode=process ipc=socket,1,time,[0-9.]*,s,0,0,free," tools.csv &&
	awk -F, "\$3 == \"hackbench\" && \$6 == \"time\" {
		if (!(\$7 > 0) || !(\$12 + \$13 > 0) || \$17 != 2 ||
		    \$21 != \"qemu\" || \$22 !~ /^qemu-(kvm|tcg)-smp2$/) bad = 1
		n++ } END { exit bad || n != 1 }" tools.csv
'

test_expect_success 'the patched build recompiles fair.c and little else' '
	"$SCHED_BOT" build --tree "$KREPO" --rev t5000-patched -o patched \
		>pout &&
	test_grep "^  CC      kernel/sched/fair\.o" patched/build.log &&
	test_grep ! "^  CC      kernel/sched/core\.o" patched/build.log &&
	test "$(grep -c "^  CC " patched/build.log)" -lt 20 &&
	test "$(sed -n "s/^objdir: //p" pout)" = \
		"$(sed -n "s/^objdir: //p" out)" &&
	! cmp -s base/bzImage patched/bzImage
'

test_expect_success 'boot the patched kernel: rows again' '
	"$SCHED_BOT" boot --target qemu --kernel patched/bzImage \
		--workloads spawn,pingpong --runs 1 -t 1 --label patched \
		--workdir boot-patched -o rows.csv >boot2.out &&
	test_grep "^patched,.*,spawn," rows.csv &&
	test_grep "^base,.*,spawn," rows.csv
'

test_expect_success 'a patch that does not compile is a build failure' '
	rc=0; "$SCHED_BOT" build --tree "$KREPO" --rev t5000-broken -o broken \
		>bout 2>berr || rc=$?
	test $rc -eq 1 &&
	test_grep -x "result: build failed" bout &&
	test_grep "^kernel/sched/fair\.c:[0-9]*:[0-9]*: error:" bout &&
	test_grep "build failed" berr &&
	test -s broken/build.log && ! test -e broken/bzImage
'

test_expect_success 'a fragment olddefconfig drops is named' '
	printf "CONFIG_KVM_GUEST=y\n" >kvm.config &&
	rc=0; "$SCHED_BOT" build --tree "$KREPO" --rev base \
		--fragment "$TRASH/kvm.config" 2>cerr || rc=$?
	test $rc -eq 1 &&
	test_grep "CONFIG_KVM_GUEST=y requested by .*kvm.config" cerr
'

test_expect_success 'a kernel that panics is reported as a panic' '
	rc=0; "$SCHED_BOT" boot --target qemu --kernel base/bzImage \
		--sched-bench /dev/null --workdir boot-panic -o none.csv \
		>pboot 2>perr || rc=$?
	test $rc -eq 1 &&
	test_grep "^status: panic" pboot &&
	test_grep "Kernel panic" perr &&
	! test -e none.csv
'

test_done
