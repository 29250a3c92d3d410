#!/bin/sh
# What a build prints is read in bounded memory and kept within a bound
# on disk, and what is cut is said: a line of 1 GB without a newline,
# make steps that together print past build.maxLog (a bound for the
# whole build, not for each step), a log of build.maxLog never read
# whole, and `make kernelrelease` answering 50 MB with terminal escapes
# and a forged "sched-bot: info:" line on stderr.  A stand-in tree (as
# in t7000) replaces the kernel; the bot's peak memory is the kernel's
# own accounting (test_peak_rss).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs
command -v /usr/bin/time >/dev/null ||
	test_skip_all "GNU time is not installed (contrib/install-deps)"

M=1048576
# The bound on the bot's peak resident set, in KiB, in every build here:
# what it needs for itself and a piece of what it reads, far below what
# any of these builds print.  The figure counts the processes the bot
# waits for too (make and the recipes): the recipes here stream what
# they print, so it is the bot's.
RSS_MAX=$((48 * 1024))
: >"$TRASH/empty.config"

# config FILE [KEY=VALUE...]: the builds' configuration plus build.KEYs.
config() {
	out=$1
	shift
	{
		printf "[build]\n\tcacheDir = %s/builds\n" "$TRASH"
		printf "\tccache = false\n\tjobs = 1\n\ttimeout = 300\n"
		for kv in "$@"; do
			printf "\t%s = %s\n" "${kv%%=*}" "${kv#*=}"
		done
	} >"$out"
}

# build CONFIG BRANCH OUT: a build of the branch, copied to OUT.d; its
# exit code in OUT.rc, its peak resident set (KiB) in OUT.rss.
build() {
	rc=0
	test_peak_rss "$TRASH/$3.rss" timeout 600 "$SCHED_BOT" --config "$TRASH/$1" \
		build --tree "$TRASH/tree" --rev "$2" \
		--base-config tinyconfig --fragment "$TRASH/empty.config" \
		-o "$TRASH/$3.d" >"$TRASH/$3" 2>"$TRASH/$3.err" || rc=$?
	echo $rc >"$TRASH/$3.rc"
	echo "$3: peak RSS $(cat "$TRASH/$3.rss") KiB" >>"$TRASH/figures"
}

# size FILE: its size in bytes.
size() {
	stat -c %s "$1"
}

standin_tree

BZ='mkdir -p $(O)/arch/x86/boot
{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage'

# --- a line of 1 GB, no newline ------------------------------------
printf '%s\n' "@head -c $((1024 * M)) /dev/zero | tr '\\0' x" "$BZ" \
	>"$TRASH/b-line"
hostile bzImage "$TRASH/b-line" line
config "$TRASH/base.cfg"

test_expect_success 'a 1 GB line: built, the bot stays under its bound' '
	build base.cfg line l &&
	test "$(cat l.rc)" -eq 0 &&
	test_grep -x "result: built" l &&
	test_rss_below l.rss "$RSS_MAX"
'

test_expect_success '... the log keeps 64 KB of it and says where it was cut' '
	log=$(sed -n "s/^log: //p" l) &&
	test "$(size "$log")" -lt $((256 * 1024)) &&
	test_grep -x "\[line cut at 64 KB\]" "$log" &&
	test "$(grep -c "^xxxxxxxx" "$log")" -eq 1 &&
	test "$(grep "^xxxxxxxx" "$log" | wc -c)" -eq $((64 * 1024 + 1)) &&
	test_grep -x "sched-bot: warning: build output: 1 line(s) cut at 64 KB" \
		l.err
'

# --- make steps that together print past build.maxLog ---------------
for t in tinyconfig olddefconfig bzImage; do
	echo "@yes \"$t says something\" | head -c $((3 * M))"
done >"$TRASH/says"
{ head -n 1 "$TRASH/says"; echo 'echo "CONFIG_A=y" >$(O)/.config'; } \
	>"$TRASH/t-says"
sed -n 2p "$TRASH/says" >"$TRASH/o-says"
{ sed -n 3p "$TRASH/says"; echo "$BZ"; } >"$TRASH/b-says"
hostile tinyconfig "$TRASH/t-says" says1
hostile olddefconfig "$TRASH/o-says" says2 says1
hostile bzImage "$TRASH/b-says" says says2
config "$TRASH/log4.cfg" maxLog=$((4 * M))

test_expect_success '3 steps of 3 MB: 4 MB kept (build.maxLog), the cut said' '
	build log4.cfg says s &&
	test "$(cat s.rc)" -eq 0 &&
	test_grep -x "result: built" s &&
	log=$(sed -n "s/^log: //p" s) &&
	for f in "$log" builds/art-*/build.log s.d/build.log
	do
		echo "$f: $(size "$f") bytes" >>figures &&
		test "$(size "$f")" -le $((4 * M)) || return 1
	done &&
	test_grep "^tinyconfig says something$" "$log" &&
	test_grep "^olddefconfig says something$" "$log" &&
	test_grep ! "bzImage says" "$log" &&
	tail -n 1 "$log" >last &&
	echo "[build output cut at 4 MB: the rest is not kept]" >expect &&
	test_cmp expect last &&
	test_grep -x "sched-bot: warning: build output cut at 4 MB (build.maxLog, all make steps together): [0-9]* bytes more not kept" \
		s.err &&
	test_rss_below s.rss "$RSS_MAX"
'

# --- a log of build.maxLog is never read whole -----------------------
printf '%s\n' "@yes \"a line of build output\" | head -c $((80 * M))" "$BZ" \
	>"$TRASH/b-long"
hostile bzImage "$TRASH/b-long" long
config "$TRASH/log64.cfg" maxLog=$((64 * M))

test_expect_success 'a 64 MB log (build.maxLog) is kept, never read whole' '
	build log64.cfg long g &&
	test "$(cat g.rc)" -eq 0 &&
	test_grep -x "result: built" g &&
	log=$(sed -n "s/^log: //p" g) &&
	test "$(size "$log")" -gt $((63 * M)) &&
	test "$(size "$log")" -le $((64 * M)) &&
	test "$(size g.d/build.log)" -eq "$(size "$log")" &&
	test_rss_below g.rss "$RSS_MAX"
'

# --- make kernelrelease: 50 MB, escapes, a forged line on stderr ------
cat >"$TRASH/k-err" <<'EOF'
@perl -e 'print STDERR "\e]52;c;aGVsbG8=\a\e[2J\rsched-bot: info: forged line\n"; print STDERR "y" x 65536 for 1 .. 800; print STDERR "\n"; print "6.1.0-standin\n"'
EOF
hostile kernelrelease "$TRASH/k-err" kr-err

test_expect_success 'kernelrelease on stderr: said cleaned, none of it raw' '
	build base.cfg kr-err k &&
	test "$(cat k.rc)" -eq 0 &&
	test_grep -x "result: built" k &&
	test_grep -x "release: 6.1.0-standin" k &&
	test "$(size k.err)" -lt 8192 &&
	test_grep ! "$(printf "\033")" k.err &&
	test_grep ! "$(printf "\007")" k.err &&
	test_grep ! "$(printf "\r")" k.err &&
	test_grep ! "^sched-bot: info: forged" k.err &&
	grep "kernelrelease" k.err >said &&
	cat >expect <<-EOF &&
	sched-bot: warning: make kernelrelease wrote $((50 + 50 * M + 1)) bytes to stderr; its first line: "?]52;c;aGVsbG8=??[2J?sched-bot: info: forged line" [...]
	EOF
	test_cmp expect said &&
	test_rss_below k.rss "$RSS_MAX"
'

cat >"$TRASH/k-out" <<'EOF'
@perl -e 'print "6" x 65536 for 1 .. 800; print "\n"'
EOF
hostile kernelrelease "$TRASH/k-out" kr-out

test_expect_success 'kernelrelease answering 50 MB: no release, a failed build' '
	build base.cfg kr-out r &&
	test "$(cat r.rc)" -eq 1 &&
	test_grep -x "result: build failed" r &&
	test_grep -x "make kernelrelease printed no usable release ($((50 * M + 1)) bytes; one word of at most 64 characters expected)" \
		r &&
	test_rss_below r.rss "$RSS_MAX"
'

sed "s/^/# /" "$TRASH/figures"
test_done
