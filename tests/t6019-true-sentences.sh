#!/bin/sh
# The identical-binaries reply names what keeps the series' changes out
# of the build: the #ifdef around a changed line that the job's config
# decides against, the obj-$(CONFIG_X) a changed file is built under;
# and nothing when the changed lines are built.  Real jobs on the
# stand-in tree of t7000 (lib-hostile.sh), whose "vmlinux" is the same
# file for every commit: each job builds both kernels in the sandbox,
# finds them alike and boots nothing.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read
. "$TESTS/lib-hostile.sh"

standin_prereqs
cd "$TRASH" || exit 1

CFG=$XDG_CONFIG_HOME/sched-bot/config
standin_job_config "$CFG" || test_fail_all "cannot write the configuration"
cat >>"$CFG" <<EOF
[bot]
	name = Sched Bot
	email = bot@sched-bot.example.org
EOF

# The stand-in tree with a vmlinux (as t6014's), a scheduler file with
# an #ifdef block, and a file the Makefile builds only with an option.
standin_tree || test_fail_all "cannot make the stand-in tree"
cp /bin/true tree/vmlinux.bin &&
sed -i 's|^\t{ head -c 514.*|&\n\tcp vmlinux.bin $(O)/vmlinux|' tree/Makefile &&
printf '%s\n' "int x;" "#ifdef CONFIG_SCHED_CORE" "int core_a;" "#else" \
	"int core_b;" "#endif" \
	"#ifndef CONFIG_SMP" "int up_a;" "#endif" \
	"#if IS_ENABLED(CONFIG_SCHED_CORE) /* core scheduling */" \
	"int core_e;" "#elif defined(CONFIG_SMP)" "int smp_a;" "#endif" \
	>tree/kernel/sched/fair.c &&
echo "int extra;" >tree/kernel/sched/extra.c &&
printf 'obj-y += core.o\nobj-$(CONFIG_SCHED_EXTRA) += extra.o\n' \
	>tree/kernel/sched/Makefile &&
git -C tree add -A && git -C tree -c user.name=t -c user.email=t@t \
	commit -qm "base with a vmlinux" && git -C tree branch -qf base ||
	test_fail_all "cannot make the tree"

# patch NAME SED-SCRIPT [FILE]: a one-patch series on base editing FILE
# (default kernel/sched/fair.c) by SED-SCRIPT, as NAME.mbox
patch() {
	git -C tree checkout -q -B "$1" base &&
	sed -i "$2" "tree/${3:-kernel/sched/fair.c}" &&
	git -C tree -c user.name=Dev -c user.email=dev@example.org \
		commit -qam "sched/fair: $1" &&
	git -C tree format-patch -q -1 --stdout --base=base >"$1.mbox" &&
	sed -i "2i Message-ID: <$1@example.org>\\
To: linux-kernel@vger.kernel.org" "$1.mbox" &&
	git -C tree checkout -q base
}

patch core "s/core_a/core_c/" &&
patch extra "s/extra/extra2/" kernel/sched/extra.c &&
patch built "s/^int core_b;/int core_d;/" &&
patch three "s/^int up_a;/int up_b;/; s/^int core_e;/int core_f;/; s/^int smp_a;/int smp_b;/" &&
git clone -q --bare tree repo.git || test_fail_all "cannot make the series"

# job NAME: the series NAME.mbox tested in job directory NAME, its
# kernels alike; NAME.co the compiled-out paragraph, its lines joined
job() {
	rc=0 &&
	"$SCHED_BOT" test --mbox "$1.mbox" --job-dir "$TRASH/$1" \
		--target local --workloads spawn >"$1.out" 2>"$1.err" ||
		rc=$? &&
	{ test $rc -le 1 || { cat "$1.err"; false; }; } &&
	test_grep "^digest_head=" "$1/state" &&
	test "$(sed -n "s/^digest_base=//p" "$1/state")" = \
		"$(sed -n "s/^digest_head=//p" "$1/state")" &&
	sed -n "/compiled out by/,/^Kernels/p" "$1/reply.eml" | tr -s "\n " "  " >"$1.co"
}

test_expect_success 'a line under an #ifdef the config leaves unset: named' '
	job core &&
	test_grep -F "The change the series makes to C code is compiled out by the config it was built with, likely why the binaries are alike: - kernel/sched/fair.c:3: under #ifdef CONFIG_SCHED_CORE (not set in the config) " core.co
'

test_expect_success 'a file built only with an unset option: named with its Makefile' '
	job extra &&
	test_grep -F -- "- kernel/sched/extra.c: built only with CONFIG_SCHED_EXTRA (kernel/sched/Makefile), not set in the config" extra.co
'

test_expect_success 'a changed line the config builds: nothing claimed' '
	job built &&
	test_grep ! "compiled out" built/reply.eml &&
	test_grep ! "likely" built/reply.eml &&
	test_grep "the patched kernel'"'"'s code" built/reply.eml
'

# sched.config sets CONFIG_SMP; an #elif is not followed: its line is
# not said to be out, and the reply says how many are.
test_expect_success '#ifndef, IS_ENABLED() named; an #elif not claimed' '
	job three &&
	test_grep "^CONFIG_SMP=y$" three/config-patched &&
	cat >expect <<-\EOF &&
	2 of the 3 changes the series makes to C code are compiled out by the config it was built with: - kernel/sched/fair.c:8: under #ifndef CONFIG_SMP (set to y in the config) - kernel/sched/fair.c:11: under #if IS_ENABLED(CONFIG_SCHED_CORE) (not set in the config)
	EOF
	{ sed "s/ *Kernels *\$//" three.co && echo; } >actual &&
	test_cmp expect actual &&
	test_grep ! "likely" three/reply.eml
'

test_done
