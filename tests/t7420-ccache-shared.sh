#!/bin/sh
# Nothing one series' build leaves behind stops another series' build
# (issue 35).  A stranger's patch to a (stand-in) kernel tree plants a
# 70-deep directory and 40 MB in the shared ccache, and the same in the
# O= directory the slot's next build shares.  Another series' job
# builds in that slot next: its build is not stopped at build.maxDisk
# and no "did not build" reply is written for it.  The ccache is
# read-only to a series' build: nothing of the attacker's reaches it.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs
command -v ccache >/dev/null ||
	test_skip_all "ccache is not installed (contrib/install-deps)"
command -v perl >/dev/null || test_skip_all "perl is not installed"

M=1048576
CFG=$XDG_CONFIG_HOME/sched-bot/config
standin_job_config "$CFG" || test_fail_all "cannot write the configuration"
git config -f "$CFG" build.ccache true &&
git config -f "$CFG" build.ccacheDir "$TRASH/ccache" &&
git config -f "$CFG" build.maxDisk $((64 * M)) &&
git config -f "$CFG" build.jobs 1 &&
git config -f "$CFG" build.timeout 120 &&
git config -f "$CFG" smtp.url smtp://127.0.0.1:1 ||
	test_fail_all "cannot write the configuration"
mkdir -p "$TRASH/ccache"

# The attack: a patch whose bzImage recipe plants depth and bulk in the
# ccache ($CCACHE_DIR in the sandbox) and in O=, then builds a kernel.
cat >"$TRASH/plant.mk" <<'EOF'
-cd $$CCACHE_DIR && perl -e 'for (1..70) { mkdir "d" or die "$$!\n"; chdir "d" or die }' && echo "ccache: depth planted"
-dd if=/dev/zero of=$$CCACHE_DIR/bulk bs=1M count=40 2>/dev/null && echo "ccache: bulk planted"
cd $(O) && perl -e 'for (1..70) { mkdir "d" or die; chdir "d" or die }'
dd if=/dev/zero of=$(O)/bulk bs=1M count=40 2>/dev/null
mkdir -p $(O)/arch/x86/boot
{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage
EOF
# The victim: a series whose build takes a few seconds (the watcher
# measures it) and writes 20 MB of its own, well within build.maxDisk.
cat >"$TRASH/victim.mk" <<'EOF'
sleep 2
dd if=/dev/zero of=$(O)/victim.o bs=1M count=20 2>/dev/null
mkdir -p $(O)/arch/x86/boot
{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage
EOF

# mail BRANCH MSGID NAME: the patch of BRANCH (one commit on base) as a
# mail from NAME, on stdout
mail() {
	git -C tree format-patch -q -1 --stdout --base=base "$1" |
	sed "2i Message-ID: <$2>\\
To: linux-kernel@vger.kernel.org" |
	sed "s/^From: .*/From: $3 <$3@example.org>/"
}

# job MBOX DIR: `sched-bot test` of MBOX, stopped after its build stage
job() {
	rc=0
	SCHED_BOT_CRASH_AT=after-build timeout 300 "$SCHED_BOT" test \
		--mbox "$1" --job-dir "$2" --runs 1 --workloads spawn \
		>"$2.out" 2>"$2.err" || rc=$?
	echo "exit $rc" >"$2.rc"
}

test_expect_success 'setup: the tree, the attacker'"'"'s and the victim'"'"'s series' '
	standin_tree &&
	hostile bzImage "$TRASH/plant.mk" plant &&
	hostile bzImage "$TRASH/victim.mk" victim &&
	mail plant plant-1@example.org Mallory >plant.mbox &&
	mail victim victim-1@example.org Alice >victim.mbox &&
	test_grep "^From: Alice" victim.mbox &&
	git clone -q --bare tree repo.git
'

test_expect_success 'the attacker'"'"'s series is built: its job goes on' '
	job plant.mbox "$TRASH/A" &&
	test_grep -x "exit 137" A.rc &&
	test_grep -x "stage=run" A/state
'

test_expect_success '... and nothing of it reached the shared ccache' '
	test_grep "Read-only file system" A/build-head.log &&
	test_grep ! -x "ccache: .* planted" A/build-head.log &&
	! test -e ccache/d && ! test -e ccache/bulk
'

test_expect_success '... what it left in O= is there for the next build' '
	obj=$(echo builds/slot-*/obj) &&
	test -d "$obj/d/d/d/d/d/d/d/d/d/d" && test -s "$obj/bulk"
'

test_expect_success 'the victim'"'"'s series builds in the same slot' '
	job victim.mbox "$TRASH/V" &&
	test_grep -x "exit 137" V.rc &&
	test_grep -x "stage=run" V/state &&
	test_grep ! "build.maxDisk" V.err &&
	test_grep ! "build-failed" V/state
'

test_expect_success '... and no failure is recorded or reported for it' '
	test_grep ! "^outcome=" V/state &&
	test_grep ! "^failed_which=" V/state &&
	! test -e V/reply.eml &&
	! ls outbox/new/* 2>/dev/null
'

# What the first fix could leave open: the planted ccache of a bot that
# ran before it (or a trusted build's) is what the victim's build found,
# not what it wrote.
test_expect_success 'depth and bulk already in ccache are not the victim'"'"'s cost' '
	(cd ccache && perl -e "for (1..70) { mkdir q(d) or die; chdir q(d) or die }") &&
	dd if=/dev/zero of=ccache/bulk bs=1M count=40 2>/dev/null &&
	hostile bzImage "$TRASH/victim.mk" victim2 &&
	git -C tree checkout -q victim2 &&
	echo "int z;" >>tree/kernel/sched/fair.c &&
	git -C tree -c user.name=t -c user.email=t@t commit -q --amend -a \
		--no-edit &&
	git -C tree checkout -q base &&
	mail victim2 victim-2@example.org Alice >victim2.mbox &&
	job victim2.mbox "$TRASH/V2" &&
	test_grep -x "exit 137" V2.rc &&
	test_grep -x "stage=run" V2/state &&
	! test -e V2/reply.eml
'

test_done
