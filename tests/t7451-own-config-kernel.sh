#!/bin/sh
# The machine's own kernel on the real tree: an ssh target whose kept
# config (a defconfig server with CONFIG_NR_CPUS=64, HZ_1000 and
# PREEMPT_NONE, no IKCONFIG, no SCHEDSTATS, made here by the tree's own
# olddefconfig) gets, from `build --target box --dry-run -o FILE`, a
# .config that keeps all three, and the printed list holds only what
# the bot adds (and what kconfig turns on with it).  Only olddefconfig
# runs (seconds, in the build's sandbox), never a compiler: the slots'
# checkouts stay in the kernel cache for the next run.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

kernel_config_only
KEPT=$XDG_DATA_HOME/sched-bot/targets
mkdir -p "$KEPT"
cat >>"$CFG" <<EOF
[target "box"]
	type = ssh
	host = 192.0.2.1
	baseConfig = running
EOF

cat >"$TRASH/server.frag" <<EOF
CONFIG_NR_CPUS=64
CONFIG_HZ_1000=y
CONFIG_PREEMPT_NONE=y
# CONFIG_IKCONFIG is not set
# CONFIG_SCHEDSTATS is not set
EOF

test_expect_success 'the server'\''s config: defconfig as it would run' '
	"$SCHED_BOT" build --tree "$KREPO" --rev base --base-config defconfig \
		--fragment "$TRASH/server.frag" --dry-run -o server.config \
		>server.out 2>server.err &&
	test_grep -x "CONFIG_NR_CPUS=64" server.config &&
	test_grep -x "CONFIG_HZ_1000=y" server.config &&
	test_grep -x "CONFIG_PREEMPT_NONE=y" server.config &&
	test_grep -x "# CONFIG_SCHEDSTATS is not set" server.config &&
	test_grep ! "^changed:" server.out &&
	cp server.config "$KEPT/box.config" &&
	echo "the machine'\''s own (6.1.0-18-amd64), /proc/config.gz on root@192.0.2.1" \
		>"$KEPT/box.config-origin"
'

test_expect_success 'dry run on the box: NR_CPUS=64, HZ_1000, PREEMPT_NONE kept' '
	"$SCHED_BOT" build --tree "$KREPO" --rev base --target box \
		--dry-run -o box.config >box.out 2>box.err &&
	test_grep -x "result: dry-run" box.out &&
	test_grep -x "fragments: machine.config kexec.config" box.out &&
	test_grep -x "CONFIG_NR_CPUS=64" box.config &&
	test_grep -x "CONFIG_HZ_1000=y" box.config &&
	test_grep -x "CONFIG_HZ=1000" box.config &&
	test_grep -x "CONFIG_PREEMPT_NONE=y" box.config &&
	test_grep -x "CONFIG_SCHEDSTATS=y" box.config &&
	test_grep -x "CONFIG_IKCONFIG_PROC=y" box.config
'

test_expect_success '... the list: only what the bot adds' '
	cat >expect <<-\EOF &&
	changed: CONFIG_IKCONFIG: n -> y
	changed: CONFIG_IKCONFIG_PROC: n -> y
	changed: CONFIG_SCHEDSTATS: n -> y
	EOF
	grep "^changed:" box.out >actual &&
	test_cmp expect actual
'

test_expect_success '... and nothing built' '
	src=$(sed -n "s/^source: //p" box.out) &&
	hash=$(sed -n "s/^config-hash: //p" box.out) &&
	test -n "$src" && test -n "$hash" &&
	! test -e "$KCACHE/builds/art-$(echo "$src" | cut -c1-16)-$hash"
'

test_done
