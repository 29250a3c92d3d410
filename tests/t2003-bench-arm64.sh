#!/bin/sh
# The target programs of an arm64 machine: `make` cross-builds them with
# Debian's aarch64 toolchain from the sources of the host's own (a
# static sched-bench, the dynamic spawn helper beside it), so that an
# arm64 target is never handed an x86 binary.  Each is checked by its
# ELF header, as a loader would: machine, class, linking.
. "$(dirname "$0")/lib.sh"
test_tier unit

A64=$BUILD/arm64
command -v aarch64-linux-gnu-gcc >/dev/null ||
	test_skip_all "no aarch64 cross compiler (gcc-aarch64-linux-gnu)"

# elf_of FILE: "CLASS MACHINE TYPE" of FILE's ELF header
elf_of() {
	LC_ALL=C readelf -h "$1" | awk -F: '
		$1 ~ /^ *Class$/ { gsub(/ /, "", $2); c = $2 }
		$1 ~ /^ *Machine$/ { sub(/^ */, "", $2); m = $2 }
		$1 ~ /^ *Type$/ { sub(/^ */, "", $2); sub(/ .*/, "", $2); t = $2 }
		END { print c, m, t }'
}

test_expect_success 'sched-bench for arm64: a static AArch64 executable' '
	test -x "$A64/sched-bench" &&
	echo "ELF64 AArch64 EXEC" >want &&
	elf_of "$A64/sched-bench" >got &&
	test_cmp want got &&
	LC_ALL=C readelf -l "$A64/sched-bench" >phdr &&
	test_grep ! "Requesting program interpreter" phdr
'

test_expect_success 'its spawn helper: AArch64, dynamic, the aarch64 loader' '
	test -x "$A64/sched-bench-spawn" &&
	echo "ELF64 AArch64 DYN" >want &&
	elf_of "$A64/sched-bench-spawn" >got &&
	test_cmp want got &&
	LC_ALL=C readelf -l "$A64/sched-bench-spawn" >phdr &&
	test_grep "program interpreter: /lib/ld-linux-aarch64.so.1" phdr
'

test_expect_success 'the host sched-bench stays x86_64' '
	echo "ELF64 Advanced Micro Devices X86-64 EXEC" >want &&
	elf_of "$SCHED_BENCH" >got &&
	test_cmp want got
'

test_done
