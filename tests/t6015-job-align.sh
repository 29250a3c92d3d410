#!/bin/sh
# The alignment control of a confirmed regression (compare.alignment-
# Control): base and patched are built again with functions aligned
# (KCFLAGS=-falign-functions=64, and CONFIG_DEBUG_FORCE_FUNCTION_-
# ALIGNMENT_64B since the tree has that option) and measured in a fresh
# round, align.csv.  A regression that survives is reported "also seen
# with functions aligned to 64 bytes"; one that vanishes gets "not seen
# with forced alignment", no regression verdict, no regression report
# and no Tested-by.
#
# The builds are real, of a stand-in tree (lib-hostile.sh) in the
# sandbox, whose bzImage records the KCFLAGS and .config it was built
# with: the flags reach make and the option the config.  The rounds are
# the job's files, as t6004 gives them: results.csv and confirm.csv
# with spawn 22% slower, and align.csv either the same slowdown (one
# the alignment does not remove) or none (one it compiled out).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"
. "$TESTS/lib-bot.sh"

standin_prereqs

standin_tree || test_fail_all "cannot make the stand-in tree"
# what the control's builds were given, in the image; the option the
# control turns on where a tree has it
sed -i 's|HdrS kernel; }|HdrS kernel; echo "KCFLAGS=$(KCFLAGS)"; cat $(O)/.config; }|' \
	"$TRASH/tree/Makefile"
mkdir -p "$TRASH/tree/lib" &&
printf 'config DEBUG_FORCE_FUNCTION_ALIGNMENT_64B\n\tbool "Force all function address 64B aligned"\n' \
	>"$TRASH/tree/lib/Kconfig.debug" &&
git -C "$TRASH/tree" add -A &&
git -C "$TRASH/tree" -c user.name=t -c user.email=t@t commit -qm base2 &&
echo "int y;" >"$TRASH/tree/kernel/sched/fair.c" &&
git -C "$TRASH/tree" -c user.name=t -c user.email=t@t commit -qam patched ||
	test_fail_all "cannot commit to the stand-in tree"
B=$(git -C "$TRASH/tree" rev-parse HEAD~1)
H=$(git -C "$TRASH/tree" rev-parse HEAD)

mkdir -p "$TRASH/frags" && : >"$TRASH/frags/sched.config" &&
	: >"$TRASH/frags/qemu.config"
bot_config "$TRASH/bot.cfg" 1
git config -f "$TRASH/bot.cfg" compare.alignmentControl -falign-functions=64
git config -f "$TRASH/bot.cfg" tree.path "$TRASH/tree"
git config -f "$TRASH/bot.cfg" build.cacheDir "$TRASH/builds"
git config -f "$TRASH/bot.cfg" build.ccache false
git config -f "$TRASH/bot.cfg" build.baseConfig tinyconfig
git config -f "$TRASH/bot.cfg" build.fragmentDir "$TRASH/frags"
git config -f "$TRASH/bot.cfg" build.jobs 1
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# rows LABEL FILE: FILE's runs, relabelled
rows() {
	tail -n +2 "$2" | sed "s/^[^,]*,/$1,/"
}

# job_confirmed DIR ALIGN-PATCHED: a job at compare whose runs and
# confirmation regressed (spawn -22%), on the stand-in commits, the
# control's patched runs those of ALIGN-PATCHED.
job_confirmed() {
	base=$DATA/compare/simple-new.csv slow=$DATA/compare/simple-base.csv &&
	bot_job job-tested "$1" &&
	rm -f "$1/tables.txt" "$1/verdict.txt" "$1/regressions.txt" &&
	sed -i -e 's/^stage=reply$/stage=compare/' -e '/^outcome=/d' \
		-e "s/^base_commit=.*/base_commit=$B/" \
		-e "s/^head_commit=.*/head_commit=$H/" \
		-e 's/^nr_patches=2$/nr_patches=1/' "$1/state" &&
	echo runs_fixed=1 >>"$1/state" &&
	{ head -n 1 "$base"; rows base "$base"; rows patched "$slow"; } \
		>"$1/results.csv" &&
	cp "$1/results.csv" "$1/confirm.csv" &&
	{ head -n 1 "$base"; rows base "$base"; rows patched "$2"; } \
		>"$1/align.csv"
}

test_expect_success 'compiled out by the alignment: not seen, nothing reported' '
	job_confirmed gone "$DATA/compare/simple-new.csv" &&
	"$SCHED_BOT" test --job-dir gone >out 2>err &&
	m=$(cat out) &&
	test_grep "^aligned=2$" gone/state &&
	test_grep "^outcome=tested$" gone/state &&
	test_grep "^not seen with forced alignment (functions aligned to 64 bytes, a fresh$" "$m" &&
	test_grep "^round of 5 blocks): likely code layout, not the patch.  No regression is$" "$m" &&
	test_grep "^alignment: likely code layout, not the patch." "$m" &&
	test_grep ! "^Verdict: regression" "$m" &&
	test_grep ! "noticed a" "$m" &&
	test_grep ! "^Tested-by:" "$m" &&
	test ! -s gone/regressions.txt &&
	test_grep "\"verdict\": \"no significant change\"" gone/compare.json
'

test_expect_success '... the cost: both kernels built again, aligned, one more round' '
	m=$(cat out) &&
	test_grep "the alignment control: building the base kernel with KCFLAGS=-falign-functions=64 and CONFIG_DEBUG_FORCE_FUNCTION_ALIGNMENT_64B=y" err &&
	test_grep "the alignment control: building the patched kernel with" err &&
	grep -l "^KCFLAGS=-falign-functions=64$" builds/art-*/bzImage >aligned &&
	test "$(wc -l <aligned)" -eq 2 &&
	for k in $(cat aligned); do
		test_grep "^CONFIG_DEBUG_FORCE_FUNCTION_ALIGNMENT_64B=y$" "$k" ||
			return 1
	done &&
	test_grep "^    The alignment control, base and patched built again with$" "$m" &&
	test_grep "^    KCFLAGS=-falign-functions=64, a fresh round of 5 blocks:$" "$m"
'

test_expect_failure_code 'not compiled out: also seen, reported' 5 '
	job_confirmed kept "$DATA/compare/simple-base.csv" &&
	"$SCHED_BOT" test --job-dir kept >out 2>err
'

test_expect_success '... "also seen with functions aligned to 64 bytes"' '
	m=$(cat out) &&
	test_grep "^aligned=1$" kept/state &&
	test_grep "^outcome=regression$" kept/state &&
	test_grep "^sched-bot noticed a -2[0-9.]*% regression of spawn.lps" "$m" &&
	test_grep "^- control:  also seen with functions aligned to 64 bytes$" "$m" &&
	test_grep "^The regression is also seen with functions aligned to 64 bytes.$" "$m" &&
	test_grep ! "^Tested-by:" "$m" &&
	test_grep "the alignment control: building the base kernel" err &&
	test "$(grep -l "^KCFLAGS=-falign-functions=64$" builds/art-*/bzImage | wc -l)" -eq 2
'

test_expect_success 'off: no control, no builds, the regression reported' '
	job_confirmed off "$DATA/compare/simple-new.csv" &&
	rm off/align.csv &&
	cp "$TRASH/bot.cfg" off.cfg &&
	git config -f off.cfg compare.alignmentControl off &&
	rc=0 && SCHED_BOT_CONFIG=off.cfg "$SCHED_BOT" test --job-dir off \
		>out 2>err || rc=$? &&
	test $rc -eq 5 &&
	test_grep ! "alignment control" err &&
	test_grep ! "^aligned=" off/state &&
	test_grep "^outcome=regression$" off/state
'

test_done
