#!/bin/sh
# The documents and the key table (bot/config-keys.c): every key a
# README names is a key of the table, kernel/README.md's key tables
# hold every build, sandbox and target key with the table's default,
# the man page's CONFIGURATION section is the whole table, and
# README.md's command table is every command of the tool, in order.
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
	grep -o '`[^`]*`' "$1" | tr -d '`' |
	grep -oE '^[a-z]+\.([A-Za-z0-9_*-]+\.)?[a-z][A-Za-z0-9]*$' |
	grep -vE '\.(json|eml|log|txt|csv|mbox|md|h|c|html|yaml|sh|config|gz|xz|cpio|timer|service|cron)$' |
	awk -F. 'NR == FNR { sec[$1] = 1; next }
		 $1 in sec { print tolower(NF == 3 ? $1 ".*." $3 : $0) }' \
		sections - |
	sort -u
}

test_expect_success 'every key README.md names is in the table' '
	keys_named "$README" >readme-keys &&
	test "$(wc -l <readme-keys)" -gt 40 &&
	comm -23 readme-keys table >unknown &&
	test_cmp /dev/null unknown
'

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

test_expect_success "README.md's command table has every command, in order" '
	"$SCHED_BOT" help --list-cmds >cmds &&
	sed -n "/^| command | stage |\$/,/^\$/p" "$README" |
		awk -F"\140" "NF > 2 { print \$2 }" >readme-cmds &&
	test_cmp cmds readme-cmds
'

test_done
