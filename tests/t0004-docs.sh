#!/bin/sh
# The documents and the tables of the code: every key a document names
# is a key of the table (bot/config-keys.c) and every key is documented
# in a guide, kernel/README.md's key tables hold every build, sandbox
# and target key with the table's default, the man page's CONFIGURATION
# section is the whole table, contrib/pipeline.md's command table is
# every command of the tool, in order; and every command, option and
# exit code a document shows is one the tool has.  README.md is a short
# entry page that links every guide.
. "$(dirname "$0")/lib.sh"
test_tier unit

README=$TOP/README.md
KREADME=$TOP/kernel/README.md
cd "$TRASH" || test_fail_all "no trash directory"

# The table's keys, in lower case: "lore.url", "target.*.smp".
"$SCHED_BOT" config --keys >keys || test_fail_all "config --keys failed"
sed -n 's/^\([^ ]*\) (.*/\1/p' keys | tr A-Z a-z | sort -u >table
test "$(wc -l <table)" -gt 50 || test_fail_all "config --keys lists no keys"

# "key=default" for every key with a default, in lower case keys.
sed -n 's/^\([^ ]*\) ([a-z]*, default \(.*\))$/\1=\2/p' keys |
	awk -F= '{ k = tolower($1); sub(/^[^=]*=/, ""); print k "=" $0 }' |
	sort >defaults

# The sections of the table: lore, bot, target, ...
sed 's/\..*//' table | sort -u >sections

# keys_named FILE: every `section.key` or `section.NAME.key` in a code
# span of FILE whose section is one of the table's, as the table spells
# it (a named middle part becomes *), in lower case.  File names such
# as `compare.json` or `build.log` are not keys.
keys_named() {
	grep -o '`[^`]*`' "$1" | tr -d '`' | sed 's/ = .*//' |
	grep -oE '^[a-z]+\.([A-Za-z0-9_*-]+\.)?[a-z][A-Za-z0-9]*$' |
	grep -vE '\.(json|eml|log|txt|csv|mbox|md|h|c|html|yaml|sh|config|gz|xz|cpio|timer|service|cron)$' |
	awk -F. 'NR == FNR { sec[$1] = 1; next }
		 $1 in sec { print tolower(NF == 3 ? $1 ".*." $3 : $0) }' \
		sections - |
	sort -u
}

test_expect_success 'every key kernel/README.md names is in the table' '
	keys_named "$KREADME" >kreadme-keys &&
	test "$(wc -l <kreadme-keys)" -gt 40 &&
	comm -23 kreadme-keys table >unknown &&
	test_cmp /dev/null unknown
'

# "key|default" of the rows "| `key` | default | meaning |" of
# kernel/README.md's tables, target.NAME.x as target.*.x, in lower case.
kreadme_rows() {
	sed -n 's/^| `\([a-zA-Z]*\.[A-Za-z.]*\)` | \([^|]*\)|.*/\1|\2/p' \
		"$KREADME" |
	awk -F'|' '{
		k = tolower($1); sub(/^target\.name\./, "target.*.", k)
		d = $2; gsub(/`/, "", d); sub(/ +$/, "", d)
		print k "|" d
	}' | sort -u
}

test_expect_success 'kernel/README.md has a row for every build, sandbox and target key' '
	kreadme_rows >rows &&
	cut -d"|" -f1 rows | sort -u >row-keys &&
	grep -E "^(build|sandbox|target)\." table >wanted &&
	comm -23 wanted row-keys >missing &&
	test_cmp /dev/null missing &&
	comm -13 table row-keys >unknown &&
	test_cmp /dev/null unknown
'

# A number with a k, M or G suffix, as the table's int keys take it.
expand_suffix() {
	awk -F'|' '{
		d = $2
		if (d ~ /^[0-9]+[kMG]$/) {
			m = substr(d, length(d)); n = substr(d, 1, length(d) - 1)
			n *= m == "k" ? 1024 : m == "M" ? 1048576 : 1073741824
			d = sprintf("%.0f", n)
		}
		print $1 "|" d
	}'
}

test_expect_success 'the defaults kernel/README.md gives are the table'\''s' '
	kreadme_rows | expand_suffix >rows-expanded &&
	# every key the table gives a default: the row says the same
	awk -F"|" "NR == FNR { def[\$1] = \$2; next }
		   { k = \$1; sub(/=.*/, \"\", k); d = \$0; sub(/^[^=]*=/, \"\", d)
		     if (k in def && def[k] != d) print k \": README \" def[k] \", table \" d }" \
		rows-expanded defaults >wrong &&
	test_cmp /dev/null wrong &&
	test "$(grep -c . rows-expanded)" -gt 40
'

test_expect_success 'the man page lists every key of the table, once' '
	MANWIDTH=200 man -E ascii -l "$BUILD/sched-bot.1" >man.txt 2>/dev/null &&
	sed -n "/^CONFIGURATION/,/^[A-Z]/p" man.txt >config-section &&
	sed -n "s/^       \([a-zA-Z][^ ]*\) (.*/\1/p" config-section |
		tr A-Z a-z >man-keys &&
	sort -u man-keys >man-keys-sorted &&
	test_cmp table man-keys-sorted &&
	test "$(wc -l <man-keys)" -eq "$(wc -l <table)" &&
	test_grep "target\.\*\.smp is smp" config-section
'

test_expect_success 'the man page gives each key the default of the table' '
	sed -n "s/^       \([a-zA-Z][^ ]*\) ([a-z]*, default \(.*\))\$/\1=\2/p" \
		config-section |
	awk -F= "{ k = tolower(\$1); sub(/^[^=]*=/, \"\"); print k \"=\" \$0 }" |
	sed "s/=\"\"\$/=/" | sort >man-defaults &&
	test_cmp defaults man-defaults
'

test_expect_success "contrib/pipeline.md's command table has every command, in order" '
	"$SCHED_BOT" help --list-cmds >cmds &&
	sed -n "/^| command | stage |\$/,/^\$/p" "$TOP/contrib/pipeline.md" |
		awk -F"\140" "NF > 2 { print \$2 }" >readme-cmds &&
	test_cmp cmds readme-cmds
'

# ---- every document: what it names exists ----

# The documents a reader is sent to.
DOCS="README.md CONTRIBUTING.md contrib/one-machine.md contrib/pipeline.md
contrib/operating.md contrib/security.md templates/README.md
bot/README.md bot/statistics.md tests/README.md kernel/README.md"

test_expect_success 'README.md is a short entry page whose map links every guide' '
	test "$(wc -c <"$README")" -lt 15360 &&
	for d in $DOCS; do
		test -f "$TOP/$d" || { echo "$d is missing"; exit 1; }
		test "$(wc -c <"$TOP/$d")" -lt 25600 ||
			{ echo "$d is over 25 KB"; exit 1; }
		test $d = README.md || grep -qF "]($d)" "$README" ||
			{ echo "README.md does not link $d"; exit 1; }
	done &&
	test_grep "GNU GENERAL PUBLIC LICENSE" "$TOP/COPYING" &&
	test_grep "Version 2, June 1991" "$TOP/COPYING"
'

test_expect_success 'every key a document names is in the table' '
	for d in $DOCS; do keys_named "$TOP/$d"; done | sort -u >doc-keys &&
	test "$(wc -l <doc-keys)" -gt 100 &&
	comm -23 doc-keys table >unknown &&
	test_cmp /dev/null unknown
'

# Where a key is documented: the guides, whichever one explains it
# (contrib/operating.md, "Configuration keys", says which), and the
# man page, which prints the whole table.
test_expect_success 'every key of the table is documented in a guide' '
	comm -13 doc-keys table >undocumented &&
	test_cmp /dev/null undocumented
'

# code_of FILE: the code a document shows, one piece a line: the lines
# of its code blocks (fenced or indented) and each `code span` of its
# paragraphs (a span may go on over a line break); a ```text block is
# what a program printed (a mail), not code.
code_of() {
	awk '
		function spans(s) {
			gsub(/\n/, " ", s)
			while (match(s, /`[^`]+`/)) {
				print substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
			}
		}
		/^```/ {
			spans(para); para = ""
			fence = !fence; text = $0 == "```text"; next
		}
		fence && text { next }
		fence || /^(    |\t)/ && para == "" {
			sub(/^[ \t]*(\$ )?/, ""); print; next
		}
		/^[ \t]*$/ { spans(para); para = ""; next }
		{ para = para "\n" $0 }
		END { spans(para) }' "$1"
}

# "CMD WORD..." for each command line the documents show: code that
# starts with sched-bot (its own options before the command become a
# line "- OPTION"), or with a command's name and an option
# ("series --json").  CMDS is the file of command names.
doc_commands() {
	for d in $DOCS; do code_of "$TOP/$d"; done |
	tr -d '[](){}|,"' | sed 's#/--# --#g' |
	awk -v cmdfile="$1" '
		BEGIN { while ((getline c < cmdfile) > 0) is[c] = 1 }
		$1 == "sched-bot" {
			for (i = 2; i <= NF; i++) {
				if ($i !~ /^-/)
					break
				print "- " $i
				if ($i == "--config")
					i++
			}
			if (i > NF)
				next
			# a placeholder: <command>
			if ($i ~ /^</)
				next
			out = $i
			for (i++; i <= NF; i++)
				out = out " " $i
			print out
			next
		}
		is[$1] && $2 ~ /^--?[a-z]/ { print }'
}

test_expect_success 'every command a document shows exists' '
	"$SCHED_BOT" help --list-cmds >cmds &&
	doc_commands cmds >shown &&
	test "$(wc -l <shown)" -gt 60 &&
	awk "\$1 != \"-\" { print \$1 }" shown | sort -u >named &&
	grep -vxF -f cmds named >unknown || :
	test_cmp /dev/null unknown
'

# "CMD OPTION" for each option a shown command line gives its command:
# a word from the second on that starts with - (its value cut
# at =); a bundle of short flags (-vq) is left to the parser.
shown_options() {
	awk '{
		for (i = 2; i <= NF; i++) {
			o = $i
			sub(/=.*/, "", o)
			if (o ~ /^--[a-z][a-z0-9-]*$/ || o ~ /^-[a-zA-Z]$/)
				print $1, o
		}
	}' shown | sort -u
}

test_expect_success 'every option a document gives a command is in its table' '
	shown_options >given &&
	test "$(wc -l <given)" -gt 40 &&
	: >bad &&
	while read c o; do
		if test "$c" = -; then
			"$SCHED_BOT" help --list-options >opts
		else
			"$SCHED_BOT" help --list-options "$c" >opts
		fi || exit 1
		awk "{ print \$1 }" opts | grep -qxF -e "$o" ||
			echo "$c $o" >>bad
	done <given &&
	test_cmp /dev/null bad
'

test_expect_success 'every sched-bench option a document shows is in its table' '
	for d in $DOCS; do code_of "$TOP/$d"; done |
		tr -d "[]()|," | awk "\$1 == \"sched-bench\" && NF > 2" >bench-lines &&
	test -s bench-lines &&
	: >bad &&
	while read prog w rest; do
		"$SCHED_BENCH" $w --help >usage || exit 1
		for o in $rest; do
			case $o in
			-*) o=${o%%=*}
			    grep -qE -e "^ {4,8}(-., )?$o( |\$)" -e "^ {4}$o, " usage ||
				echo "$w $o" >>bad ;;
			esac
		done
	done <bench-lines &&
	test_cmp /dev/null bad
'

# "N" of each value of enum exit_code (bot/util.h), and 137: the exit
# of a crash point (SCHED_BOT_CRASH_AT, bot/state.h).
test_expect_success 'every exit code a document names is one the tool has' '
	sed -n "/^enum exit_code {/,/^};/p" "$TOP/bot/util.h" |
		sed -n "s/.* = \([0-9]*\),.*/\1/p" >codes &&
	test "$(wc -l <codes)" -ge 8 &&
	echo 137 >>codes &&
	for d in $DOCS; do cat "$TOP/$d"; done | tr "\n" " " |
		grep -oE "\<[Ee]xit(s|s with| with| status| code)? [0-9]+" |
		sed "s/.* //" | sort -u >named-codes &&
	test "$(wc -l <named-codes)" -ge 5 &&
	grep -vxF -f codes named-codes >unknown || :
	test_cmp /dev/null unknown
'

test_done
