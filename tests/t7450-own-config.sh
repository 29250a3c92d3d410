#!/bin/sh
# The machine's own kernel: a target built from its own config gets only
# what the bot needs there, never the QEMU guests' choices.  An ssh
# target whose kept config has NR_CPUS=64, HZ_1000 and PREEMPT_NONE:
# `build --target box --dry-run -o FILE` writes a .config that keeps all
# three, compiles nothing, and prints every option it changes, which are
# the bot's additions only; an option olddefconfig changes on its own is
# listed too; the fragments a target names replace the defaults, and
# sched.config alone still forces nothing that is measured; a target
# built from tinyconfig keeps sched.config and qemu.config.  A stand-in
# tree (lib-hostile.sh) takes the kernel's place: its olddefconfig
# leaves the merged config as it is, so what is listed is the bot's.
# t7451 runs the real olddefconfig of the Debian 6.1 tree.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs

CFG=$XDG_CONFIG_HOME/sched-bot/config
KEPT=$XDG_DATA_HOME/sched-bot/targets
mkdir -p "$(dirname "$CFG")" "$KEPT"
cat >"$CFG" <<EOF
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	timeout = 120
	fragmentDir = $TOP/kernel/configs
[target "box"]
	type = ssh
	host = 192.0.2.1
	baseConfig = running
[target "guest"]
	type = qemu
EOF

# The machine's config as `target` keeps it once taken over ssh (no
# machine is asked while the kept file is there): a server's choices
# that sched.config and qemu.config used to overwrite, kexec built in,
# no IKCONFIG and no SCHEDSTATS.
cat >"$KEPT/box.config" <<EOF
CONFIG_64BIT=y
CONFIG_SMP=y
CONFIG_NR_CPUS=64
CONFIG_HZ_1000=y
CONFIG_HZ=1000
CONFIG_PREEMPT_NONE=y
# CONFIG_PREEMPT_VOLUNTARY is not set
# CONFIG_DEBUG_KERNEL is not set
CONFIG_KERNEL_XZ=y
# CONFIG_PARAVIRT is not set
CONFIG_KEXEC=y
# CONFIG_IKCONFIG is not set
# CONFIG_SCHEDSTATS is not set
EOF
echo "the machine's own (6.1.0-18-amd64), /proc/config.gz on root@192.0.2.1" \
	>"$KEPT/box.config-origin"

standin_tree

# dry TARGET OUT [WORDS...]: a dry run of the stand-in's base for
# TARGET, its output in OUT.out, bounded so that a hang fails.
dry() {
	t=$1 out=$2
	shift 2
	timeout 120 "$SCHED_BOT" build --tree tree --rev base --target "$t" \
		--dry-run -o "$out" "$@" >"$out.out" 2>"$out.err"
}

test_expect_success 'dry run on the box: its NR_CPUS, HZ and preemption kept' '
	dry box box.config &&
	test_grep -x "CONFIG_NR_CPUS=64" box.config &&
	test_grep -x "CONFIG_HZ_1000=y" box.config &&
	test_grep -x "CONFIG_PREEMPT_NONE=y" box.config &&
	test_grep -x "CONFIG_KERNEL_XZ=y" box.config &&
	test_grep -x "# CONFIG_PARAVIRT is not set" box.config &&
	test_grep ! "CONFIG_NR_CPUS=8\|CONFIG_HZ_250\|CONFIG_PREEMPT_VOLUNTARY=y\|CONFIG_DEBUG_KERNEL=y\|CONFIG_KERNEL_GZIP\|CONFIG_PARAVIRT=y\|CONFIG_KVM_GUEST" \
		box.config
'

test_expect_success '... and prints only what the bot adds' '
	cat >expect <<-\EOF &&
	changed: CONFIG_IKCONFIG: n -> y
	changed: CONFIG_IKCONFIG_PROC: n -> y
	changed: CONFIG_SCHEDSTATS: n -> y
	EOF
	grep "^changed:" box.config.out >actual &&
	test_cmp expect actual &&
	test_grep -x "result: dry-run" box.config.out &&
	test_grep -x "config: box.config" box.config.out &&
	test_grep -x "base-config: the machine'\''s own (6.1.0-18-amd64), /proc/config.gz on root@192.0.2.1" \
		box.config.out &&
	test_grep -x "fragments: machine.config kexec.config" box.config.out
'

test_expect_success '... without building: no kernel, no artifact' '
	test_grep ! "^kernel:" box.config.out &&
	! ls builds/art-* 2>/dev/null &&
	slot=$(ls -d builds/slot-*) &&
	test -f "$slot/obj/.config" &&
	! test -e "$slot/obj/arch/x86/boot/bzImage"
'

test_expect_success 'the build after it: the same config, the same list' '
	timeout 120 "$SCHED_BOT" build --tree tree --rev base --target box \
		-o built >built.out 2>built.err &&
	test_grep -x "result: built" built.out &&
	test_cmp box.config built/config &&
	grep "^changed:" built.out >actual &&
	test_cmp expect actual &&
	dry box again.config &&
	test_cmp box.config again.config &&
	grep "^changed:" again.config.out >actual &&
	test_cmp expect actual
'

# olddefconfig's own doing (an option new to the tree, a dependency) is
# a change of the machine's config too, and is listed.
printf 'echo CONFIG_NEW_IN_TREE=y >>$(O)/.config\n' >"$TRASH/olddef.recipe"
hostile olddefconfig "$TRASH/olddef.recipe" olddef ||
	test_fail_all "cannot make the stand-in's olddefconfig branch"

test_expect_success 'what olddefconfig changes is listed apart from the bot'\''s' '
	timeout 120 "$SCHED_BOT" build --tree tree --rev olddef --target box \
		--dry-run -o olddef.config >olddef.out 2>olddef.err &&
	test_grep -x "CONFIG_NEW_IN_TREE=y" olddef.config &&
	cat >expect-olddef <<-\EOF &&
	changed: CONFIG_IKCONFIG: n -> y
	changed: CONFIG_IKCONFIG_PROC: n -> y
	changed: CONFIG_SCHEDSTATS: n -> y
	olddefconfig: CONFIG_NEW_IN_TREE: n -> y
	EOF
	grep "^changed:\|^olddefconfig:\|^toolchain" olddef.out >actual &&
	test_cmp expect-olddef actual
'

# What kconfig takes from the toolchain (the compiler's version, what
# the assembler supports) differs whenever the machine's config was
# made with another compiler: counted apart, never as the bot's.
cat >"$TRASH/toolchain.recipe" <<\EOF
echo 'CONFIG_CC_VERSION_TEXT="gcc (Stand-in) 13.2.0"' >>$(O)/.config
echo 'CONFIG_GCC_VERSION=130200' >>$(O)/.config
echo 'CONFIG_AS_AVX512=y' >>$(O)/.config
EOF
hostile olddefconfig "$TRASH/toolchain.recipe" toolchain ||
	test_fail_all "cannot make the stand-in's toolchain branch"

test_expect_success 'the toolchain'\''s options: counted apart, the compiler named' '
	timeout 120 "$SCHED_BOT" build --tree tree --rev toolchain --target box \
		--dry-run -o toolchain.config >toolchain.out 2>toolchain.err &&
	cat >expect-toolchain <<-\EOF &&
	changed: CONFIG_IKCONFIG: n -> y
	changed: CONFIG_IKCONFIG_PROC: n -> y
	changed: CONFIG_SCHEDSTATS: n -> y
	toolchain: 3 options follow this machine'\''s compiler, gcc (Stand-in) 13.2.0
	toolchain-changed: CONFIG_AS_AVX512: n -> y
	toolchain-changed: CONFIG_CC_VERSION_TEXT: n -> "gcc (Stand-in) 13.2.0"
	toolchain-changed: CONFIG_GCC_VERSION: n -> 130200
	EOF
	grep "^changed:\|^olddefconfig:\|^toolchain" toolchain.out >actual &&
	test_cmp expect-toolchain actual
'

test_expect_success 'target.NAME.fragments: sched.config forces nothing measured' '
	cp "$CFG" frag.cfg &&
	git config -f frag.cfg target.box.fragments "sched.config, kexec.config" &&
	timeout 120 "$SCHED_BOT" --config frag.cfg build --tree tree --rev base \
		--target box --dry-run -o frag.config >frag.config.out 2>&1 &&
	test_grep -x "fragments: sched.config, kexec.config" frag.config.out &&
	test_grep -x "CONFIG_NR_CPUS=64" frag.config &&
	test_grep -x "CONFIG_HZ_1000=y" frag.config &&
	test_grep -x "CONFIG_PREEMPT_NONE=y" frag.config &&
	test_grep -x "changed: CONFIG_FAIR_GROUP_SCHED: n -> y" frag.config.out &&
	test_grep ! "^changed: CONFIG_\(NR_CPUS\|HZ\|PREEMPT\|DEBUG\|KERNEL_\|PARAVIRT\|KVM\|SCHED_DEBUG\|SLUB\|CC_OPTIMIZE\|NO_HZ\|HIGH_RES\)" \
		frag.config.out
'

test_expect_success '--fragment replaces the target'\''s' '
	printf "CONFIG_ONLY_THIS=y\n" >only.config &&
	dry box only.out.config --fragment "$TRASH/only.config" &&
	test_grep ! "^fragments:" only.out.config.out &&
	grep "^changed:" only.out.config.out >actual &&
	echo "changed: CONFIG_ONLY_THIS: n -> y" >expect-only &&
	test_cmp expect-only actual
'

test_expect_success 'a QEMU guest from tinyconfig: sched.config and qemu.config, no list' '
	dry guest guest.config &&
	test_grep -x "fragments: sched.config qemu.config" guest.config.out &&
	test_grep -x "CONFIG_A=y" guest.config &&
	test_grep -x "CONFIG_NR_CPUS=8" guest.config &&
	test_grep -x "CONFIG_HZ_250=y" guest.config &&
	test_grep -x "CONFIG_SCHEDSTATS=y" guest.config &&
	test_grep ! "^changed:" guest.config.out
'

# A job for the box: its kernels from the stand-in tree, given a vmlinux
# alike on both sides (t5005's recipe), so the job boots nothing (and
# asks no machine: port 1 refuses at once); the job keeps the list, and
# the reply's config line names exactly what the bot changed.
(cd "$TRASH" &&
git -C tree checkout -q --detach base &&
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
standin_job_config "$TRASH/job.cfg" ||
	test_fail_all "cannot write the job's configuration"
cat >>"$TRASH/job.cfg" <<EOF
[build]
	jobs = 1
	timeout = 120
[bot]
	name = Sched Bot
	email = bot@sched-bot.example.org
[job]
	target = box
[target "box"]
	type = ssh
	host = 127.0.0.1
	port = 1
	baseConfig = running
EOF

test_expect_success 'a job on the box: the list kept, the reply names it' '
	timeout 300 "$SCHED_BOT" --config job.cfg test --mbox one.mbox \
		--workloads spawn >jout 2>jerr &&
	state=$(ls jobs/*/state) &&
	dir=${state%/state} &&
	! test -e "$dir/results.csv" &&
	test_grep -x "fragments=machine.config kexec.config" "$state" &&
	sed "s/^changed: //" expect >expect-job &&
	test_cmp expect-job "$dir/config-changes.txt" &&
	tr -s " \n" "  " <"$dir/reply.eml" >reply.flat &&
	test_grep "config: the machine'\''s own (6.1.0-18-amd64), /proc/config.gz on root@192.0.2.1 (config [0-9a-f]*) + IKCONFIG=y, IKCONFIG_PROC=y, SCHEDSTATS=y" \
		reply.flat &&
	test_grep ! "sched.config\|qemu.config" reply.flat
'

test_expect_success '--dry-run wants -o FILE' '
	rc=0 &&
	"$SCHED_BOT" build --tree tree --rev base --target box --dry-run \
		>out 2>err || rc=$? &&
	test $rc -eq 2 &&
	test_grep "dry-run" err
'

test_done
