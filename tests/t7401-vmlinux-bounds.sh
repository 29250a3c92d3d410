#!/bin/sh
# The vmlinux a build links is the build's file: the identical-binaries
# digest (vmlinux.h) refuses one whose sections overlap or leave the
# file, and reads the sections of any other a piece at a time.  A
# stand-in tree (as in t7000) whose bzImage recipe also writes a sparse
# vmlinux with the section headers a test gives: 16 sections that each
# claim the same 2 GiB, a section past the end of the file, one section
# of 512 MiB.  The build goes on each time; the bot's peak memory (the
# kernel's own accounting, test_peak_rss) stays under a stated bound.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs
command -v /usr/bin/time >/dev/null ||
	test_skip_all "GNU time is not installed (contrib/install-deps)"

M=1048576
G=$((1024 * M))
# The bound on the bot's peak resident set, in KiB: itself and a piece
# of a section, far below any section here.
RSS_MAX=$((48 * 1024))
: >"$TRASH/empty.config"
cat >"$TRASH/base.cfg" <<EOF
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	timeout = 300
EOF

standin_tree
elf_script "$TRASH/mkelf.pl"

# vmlinux_branch BRANCH SIZE SECTION...: a branch whose bzImage recipe
# also links a vmlinux of SIZE bytes with these sections (elf_script).
vmlinux_branch() {
	b=$1
	shift
	{
		echo 'mkdir -p $(O)/arch/x86/boot'
		echo '{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage'
		echo "perl scripts/mkelf.pl \$(O)/vmlinux $*"
	} >"$TRASH/b-$b" &&
	hostile bzImage "$TRASH/b-$b" "$b" &&
	hostile_file "$b" scripts/mkelf.pl "$TRASH/mkelf.pl"
}

# build BRANCH OUT: a build of the branch; its exit code in OUT.rc, its
# peak resident set (KiB) in OUT.rss.
build() {
	rc=0
	test_peak_rss "$TRASH/$2.rss" timeout 600 "$SCHED_BOT" \
		--config "$TRASH/base.cfg" build --tree "$TRASH/tree" \
		--rev "$1" --base-config tinyconfig \
		--fragment "$TRASH/empty.config" \
		>"$TRASH/$2" 2>"$TRASH/$2.err" || rc=$?
	echo $rc >"$TRASH/$2.rc"
	echo "$2: peak RSS $(cat "$TRASH/$2.rss") KiB" >>"$TRASH/figures"
}

# digest_of BRANCH: the digest the build of BRANCH kept ("" for none).
digest_of() {
	t=$(git -C tree rev-parse "$1^{tree}" | cut -c1-16) &&
	cat builds/art-"$t"-*/digest
}

# 16 sections, each the same 2 GiB less 8 KiB at 4 KiB, of a sparse file
secs=".text:progbits:ax:4096:$((2 * G - 8192))"
for i in $(seq 2 16); do
	secs="$secs .data$i:progbits:aw:4096:$((2 * G - 8192))"
done
# shellcheck disable=SC2086
vmlinux_branch overlap $((2 * G)) $secs
vmlinux_branch outside $((64 * 1024)) .text:progbits:ax:4096:4096 \
	.data:progbits:aw:8192:$((2 * G))
vmlinux_branch big $((512 * M + 8192)) .text:progbits:ax:4096:$((512 * M))

test_expect_success '16 sections over the same 2 GiB: refused, the build goes on' '
	build overlap o &&
	test "$(cat o.rc)" -eq 0 &&
	test_grep -x "result: built" o &&
	grep "O/vmlinux" o.err >said &&
	cat >expect <<-\EOF &&
	sched-bot: warning: O/vmlinux: sections 2 (.text) and 3 (.data2) overlap in the file: no digest taken, could not compare binaries
	EOF
	test_cmp expect said &&
	test "$(digest_of overlap)" = "" &&
	test_rss_below o.rss "$RSS_MAX"
'

test_expect_success 'a section past the end of the file: refused, said' '
	build outside x &&
	test "$(cat x.rc)" -eq 0 &&
	test_grep -x "result: built" x &&
	grep "O/vmlinux" x.err >said &&
	cat >expect <<-EOF &&
	sched-bot: warning: O/vmlinux: section 3 (.data) lies outside the file (bytes 8192 to $((8192 + 2 * G)) of 65536): no digest taken, could not compare binaries
	EOF
	test_cmp expect said &&
	test "$(digest_of outside)" = "" &&
	test_rss_below x.rss "$RSS_MAX"
'

# git's blob id of ".text 536870912\n" and the section's bytes, streamed
# through sha1sum as "git hash-object" would hash them
hdr=".text $((512 * M))"
blob_id() {
	{ printf "blob %d\000" $((${#hdr} + 1 + 512 * M)) &&
	  printf "%s\n" "$hdr" && head -c $((512 * M)) /dev/zero; } |
		sha1sum | cut -d" " -f1
}

test_expect_success 'a 512 MiB section: digested a piece at a time, as git hashes it' '
	build big b &&
	test "$(cat b.rc)" -eq 0 &&
	test_grep -x "result: built" b &&
	test_grep ! "O/vmlinux" b.err &&
	blob_id >expect &&
	digest_of big >actual &&
	echo >>actual &&
	test_cmp expect actual &&
	test_rss_below b.rss "$RSS_MAX"
'

sed "s/^/# /" "$TRASH/figures"
test_done
