#!/bin/sh
# An arm64 target's kernel on the real tree, from this x86_64 host:
# `build --target a64 --dry-run -o FILE` (target.a64.arch = arm64)
# runs the tree's own olddefconfig with ARCH=arm64 and Debian's aarch64
# cross compiler, in the build's sandbox, and the .config it writes is
# an arm64 one with qemu-arm64.config's requests held (each checked by
# the build, as for x86): the PL011 console, the generic PCI host,
# clusters, kexec (with the suspend it needs on arm64), the guest's
# CPUs, tick and preemption model; nothing of x86's.  Only olddefconfig
# runs, never a compiler.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

command -v aarch64-linux-gnu-gcc >/dev/null ||
	test_skip_all "no aarch64 cross compiler (gcc-aarch64-linux-gnu)"
kernel_config_only
cat >>"$CFG" <<EOF
[target "a64"]
	type = qemu
	arch = arm64
[target "bad"]
	type = qemu
	arch = sparc64
	type = qemu
	arch = arm64
[target "bad"]
	type = qemu
	arch = sparc64
EOF

test_expect_success 'dry run for a64: an arm64 .config from the cross toolchain' '
	"$SCHED_BOT" build --tree "$KREPO" --rev base --target a64 \
		--dry-run -o a64.config >a64.out 2>a64.err &&
	test_grep -x "result: dry-run" a64.out &&
	test_grep -x "fragments: sched.config qemu-arm64.config" a64.out &&
	test_grep -x "CONFIG_ARM64=y" a64.config &&
	test_grep ! "^CONFIG_X86" a64.config &&
	test_grep -x "CONFIG_CC_VERSION_TEXT=\"aarch64-linux-gnu-gcc.*\"" a64.config
'

test_expect_success '... qemu-arm64.config held: console, PCI, clusters, kexec' '
	for o in SERIAL_AMBA_PL011_CONSOLE PCI_HOST_GENERIC VIRTIO_NET \
		 SCHED_CLUSTER SCHED_MC SCHEDSTATS KEXEC SUSPEND; do
		test_grep -x "CONFIG_$o=y" a64.config || return 1
	done &&
	test_grep -x "CONFIG_NR_CPUS=8" a64.config &&
	test_grep -x "CONFIG_HZ=250" a64.config &&
	test_grep -x "CONFIG_PREEMPT_VOLUNTARY=y" a64.config
'

test_expect_success '... its own config hash: never an x86 build of the same commit' '
	"$SCHED_BOT" build --tree "$KREPO" --rev base --dry-run \
		-o x86.config >x86.out 2>x86.err &&
	test_grep -x "CONFIG_X86_64=y" x86.config &&
	a=$(sed -n "s/^config-hash: //p" a64.out) &&
	x=$(sed -n "s/^config-hash: //p" x86.out) &&
	test -n "$a" && test -n "$x" && test "$a" != "$x"
'

test_expect_failure_code 'an architecture sched-bot does not know: a usage error' 2 '
	"$SCHED_BOT" build --tree "$KREPO" --rev base --target bad \
		--dry-run -o bad.config >bad.out 2>bad.err
'

test_expect_success '... saying which, and what it knows' '
	test_grep "target.bad.arch: .sparc64. is not an architecture sched-bot builds (x86_64, arm64)" bad.err &&
	! test -e bad.config
'

test_done
