#!/bin/sh
# The kernel's own style checker, scripts/checkpatch.pl, over every C
# file of bot/: no finding but the kinds tests/checkpatch.conf excuses,
# each there with its reason.  A message split across lines is one of
# its findings (SPLIT_STRING): grep finds a message only when it is
# whole.  The checker and its two data files come from Debian's kernel
# source tarball, taken out once into the test cache.
. "$(dirname "$0")/lib.sh"
test_tier unit

KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CONF=$TESTS/checkpatch.conf
top=$(basename "$KERNEL_TARBALL" .tar.xz)
CPDIR=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}/checkpatch/$top
CHECKPATCH=$CPDIR/checkpatch.pl

[ -r "$KERNEL_TARBALL" ] ||
	test_skip_all "$KERNEL_TARBALL is missing (apt-get install linux-source-6.1)"
for t in perl tar xz; do
	command -v $t >/dev/null || test_skip_all "$t is not installed"
done

# Only the three files checkpatch.pl reads, out of the whole tarball
# (scanning it takes tens of seconds): into a directory of its own, then
# renamed into place, so that a script running beside this one sees the
# files whole or not at all.
if [ ! -f "$CHECKPATCH" ]; then
	mkdir -p "${CPDIR%/*}" &&
	tmp=$(mktemp -d "${CPDIR%/*}/.new.XXXXXX") &&
	tar -xJf "$KERNEL_TARBALL" -C "$tmp" --occurrence=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" ||
		test_fail_all "cannot take scripts/checkpatch.pl out of $KERNEL_TARBALL"
	# a rename onto a directory another script made first fails: theirs
	# is the same
	mv -T "$tmp/$top/scripts" "$CPDIR" 2>/dev/null
	rm -rf "$tmp"
	[ -f "$CHECKPATCH" ] || test_fail_all "no $CHECKPATCH"
fi

# The excuses: "ignore TYPE", "typedef NAME" (a library's type, so that
# `git_config *cfg` is not read as a product) and "skip FILE".
conf() {
	sed -n "s/^$1[ 	]\{1,\}\([^ 	#]*\).*/\1/p" "$CONF"
}
# Each ends with \b: checkpatch.pl joins them into a pattern without
# word boundaries, where git_tree would match git_tree_entry.
conf typedef | sed 's/$/\\b/' >"$TRASH/typedefs"

# checkpatch FILE...: every finding, one a line ("FILE:LINE: LEVEL:TYPE:
# text"), sorted; as many checkers as there are CPUs, each writing a
# file of its own.  The excused kinds are left out by excused_out, so
# that a kind no longer found shows.  The findings of a file are kept
# in the test cache under a digest of its path, its bytes and the
# checker's (checkpatch.pl, its data files, the typedefs): the same
# inputs give the same findings, so a run checks only the files that
# changed.
FINDINGS=${CPDIR%/*}/findings
checkpatch() {
	rm -rf "$TRASH/cp" && mkdir -p "$TRASH/cp" "$FINDINGS" &&
	tool=$(cat "$CHECKPATCH" "$CPDIR/spelling.txt" \
		"$CPDIR/const_structs.checkpatch" "$TRASH/typedefs" |
		sha1sum | cut -d" " -f1) &&
	: >"$TRASH/cp.todo" && : >"$TRASH/cp.keys" &&
	for f in "$@"; do
		k=$({ echo "$tool $f"; cat "$f"; } | sha1sum | cut -d" " -f1)
		echo "$k $f" >>"$TRASH/cp.keys"
		# touched: in use, not pruned below
		touch -c "$FINDINGS/$k"
		[ -f "$FINDINGS/$k" ] || echo "$f" >>"$TRASH/cp.todo"
	done &&
	: >"$TRASH/cp.other" &&
	if [ -s "$TRASH/cp.todo" ]; then
		xargs -n 16 -P "$(nproc)" sh -c '
			perl "$0" --no-tree --file --terse --show-types --no-summary \
				--typedefsfile "$TRASH/typedefs" "$@" >"$TRASH/cp/$$" 2>&1
			# 1: findings, which the caller reads
			[ $? -le 1 ]' "$CHECKPATCH" <"$TRASH/cp.todo" &&
		cat "$TRASH/cp"/* >"$TRASH/cp.new" &&
		# what names no file (a warning of perl's): shown, never kept
		awk -F: 'NR == FNR { f[$0]; next } !($1 in f)' \
			"$TRASH/cp.todo" "$TRASH/cp.new" >"$TRASH/cp.other" &&
		while read -r k f; do
			grep -qxF "$f" "$TRASH/cp.todo" || continue
			awk -F: -v f="$f" '$1 == f' "$TRASH/cp.new" >"$FINDINGS/.$k.$$" &&
			mv "$FINDINGS/.$k.$$" "$FINDINGS/$k" || return 1
		done <"$TRASH/cp.keys"
	fi &&
	# what no file of the tree has been for a month
	find "$FINDINGS" -type f -mtime +30 -delete 2>/dev/null
	{
		cat "$TRASH/cp.other" &&
		while read -r k f; do
			cat "$FINDINGS/$k" || return 1
		done <"$TRASH/cp.keys"
	} | sort -t: -k1,1 -k2,2n
}
export TRASH

excused_out() {
	grep -v -E ": (ERROR|WARNING|CHECK):($(conf ignore | paste -sd'|' -)):"
	[ $? -le 1 ]
}

test_expect_success 'every excuse of checkpatch.conf comes with its reason' '
	awk "/^#/ { why = 1; next }
	     /^[a-z]/ && !why { print FILENAME \":\" FNR \": no reason: \" \$0; bad = 1 }
	     /^\$/ { why = 0 }
	     END { exit bad }" "$CONF" &&
	conf ignore >ignored &&
	test -s ignored &&
	for f in $(conf skip); do
		test -f "$TOP/$f" || { echo "skip $f: no such file"; exit 1; }
	done
'

test_expect_success 'checkpatch.pl finds a split message and an assignment in if' '
	cp "$TOP/bot/util.c" planted.c &&
	checkpatch planted.c | excused_out >before &&
	n=$(wc -l <planted.c) &&
	printf "%b\n" "" \
		"static volatile sig_atomic_t stopped;" \
		"" \
		"int planted(int a)" \
		"{" \
		"\tint b;" \
		"" \
		"\tif ((b = a))" \
		"\t\treturn error(\"a message split \"" \
		"\t\t\t\t\"across lines\");" \
		"\treturn stopped;" \
		"}" >>planted.c &&
	checkpatch planted.c | excused_out >actual &&
	cat >expect <<-EOF &&
	planted.c:$((n + 8)): ERROR:ASSIGN_IN_IF: do not use assignment in if condition
	planted.c:$((n + 10)): WARNING:SPLIT_STRING: quoted string split across lines
	EOF
	test_cmp /dev/null before &&
	test_cmp expect actual
'

test_expect_success 'bot/ has no finding but the excused kinds' '
	conf skip | sort >skipped &&
	(cd "$TOP" && find bot -name "*.[ch]" | sort) >all &&
	comm -23 all skipped >files &&
	test "$(wc -l <files)" -gt 100 &&
	(cd "$TOP" && checkpatch $(cat "$TRASH/files")) >raw &&
	excused_out <raw >findings &&
	test_cmp /dev/null findings
'

test_expect_success 'every excused kind is still found somewhere' '
	for t in $(conf ignore); do
		grep -q ":$t:" raw || echo "ignore $t: no longer found"
	done >stale &&
	test_cmp /dev/null stale
'

test_done
