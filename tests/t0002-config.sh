#!/bin/sh
# The configuration keys: one table (bot/config-keys.c) that the code,
# `config --list --all` and contrib/sched-bot.config agree with.
. "$(dirname "$0")/lib.sh"
test_tier unit

SRC=$TOP/bot
SAMPLE=$TOP/contrib/sched-bot.config
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$XDG_CONFIG_HOME/sched-bot"

# "key=value<TAB>source" -> "key" (wildcards kept)
list_keys() {
	sed 's/[=	].*//' | sort -u
}

# Every key the sources ask for, in the table's spelling: literal keys
# of the getters, and target.*.KEY for the per-target ones.
GETTERS="get|get_int|get_int_or|get_int_range|get_bool|get_number|get_all|is_set"
code_keys() {
	grep -rhoE "config_($GETTERS)\\(\"[^\"]+\"" "$SRC" | sed 's/.*("//; s/"$//'
	grep -rhoE '(target_cfg(_int|_bool|_number)?|target_key)\([a-z>-]+, "[A-Za-z]+"' \
		"$SRC" | sed 's/.*, "/target.*./; s/"$//'
	grep -rhoE '"target\.%s\.[A-Za-z]+"' "$SRC" |
		sed 's/^"target\.%s\./target.*./; s/"$//'
	grep -rhoE '"tree\.%s\.[A-Za-z]+"' "$SRC" |
		sed 's/^"tree\.%s\./tree.*./; s/"$//'
	grep -rhoE '(template_path|tmpl_path|tmpl_load)\([a-z]+, "[^"]+"' "$SRC" |
		sed 's/.*, "//; s/"$//'
	# the sandbox's limits go through a helper of sandbox.c
	grep -rhoE '\<limit\("[^"]+"' "$SRC" | sed 's/^limit("//; s/"$//'
}

# "key=default" of a `config --list --all` output, keys in lower case.
defaults_of() {
	sed -n 's/	default$//p' "$1" |
	awk -F= '{ k = tolower($1); sub(/^[^=]*=/, ""); print k "=" $0 }' |
	sort
}

# "target.*.key=default" of the per-target calls that spell a default.
target_code_defaults() {
	grep -rhoE 'target_cfg(_int)?\([a-z>-]+, "[A-Za-z]+", *("[^"]*"|[0-9]+)\)' \
		"$SRC/target" |
	sed -E 's/.*, "([A-Za-z]+)", *"?([^"]*)"?\)$/target.*.\1=\2/' |
	awk -F= '{ k = tolower($1); sub(/^[^=]*=/, ""); print k "=" $0 }' |
	sort -u
}

# "key=value" of what the sample sets, target.*.key for [target "x"].
sample_values() {
	git config -f "$SAMPLE" --list |
	sed -E 's/^([a-z]+)\.[^=]+\.([a-z0-9]+)=/\1.*.\2=/' | sort
}

test_expect_success 'config --list --all shows every key of the table' '
	"$SCHED_BOT" config --list --all >all &&
	test_grep "^lore.url=https://lore.kernel.org	default$" all &&
	test_grep "^bot.email=sched-bot@localhost	default$" all &&
	test_grep "^target\.\*\.smp=2	default$" all &&
	test_grep "^smtp.user	unset$" all &&
	list_keys <all >table &&
	test "$(wc -l <table)" -gt 50
'

test_expect_success 'every key the code reads is in the table' '
	code_keys | sort -u >code &&
	test "$(wc -l <code)" -gt 50 &&
	comm -23 code table >missing &&
	test_cmp /dev/null missing
'

test_expect_success 'every key of the table is read by the code' '
	comm -13 code table >unused &&
	test_cmp /dev/null unused
'

test_expect_success 'per-target defaults written in the code match the table' '
	target_code_defaults >code-defaults &&
	test "$(wc -l <code-defaults)" -gt 8 &&
	defaults_of all >table-defaults &&
	# a key the table leaves to the code (unset) takes the value in the code
	sed -n "s/	unset\$/=/p" all | tr A-Z a-z >computed &&
	grep -vF -f computed code-defaults >checked &&
	comm -23 checked table-defaults >wrong &&
	test_cmp /dev/null wrong
'

test_expect_success 'a key set in the file shows its source and default' '
	cat >"$CFG" <<-\EOF &&
	[lore]
	retries = 7
	[target "box"]
	smp = 4
	[bogus]
	key = 1
	EOF
	"$SCHED_BOT" config --list --all >all2 &&
	test_grep "^lore.retries=7	file (default: 3)$" all2 &&
	test_grep "^target.box.smp=4	file (default: 2)$" all2 &&
	test_grep "^target\.\*\.smp=2	default$" all2 &&
	test_grep "^bogus.key=1	file (unknown key)$" all2 &&
	test_grep ! "^lore.retries=3" all2
'

test_expect_success 'a bad value falls back to the default in the table' '
	cat >"$CFG" <<-\EOF &&
	[lore]
	retries = many
	maxSize = 0
	[smtp]
	timeout = x
	EOF
	"$SCHED_BOT" config --path >/dev/null 2>err &&
	test_grep "lore.retries = .many. is not a number, using 3" err &&
	test_grep "lore.maxSize = 0 is not in 1..65536, using 256" err &&
	test_grep "smtp.timeout = .x. is not a number, using 60" err
'

test_expect_success 'secrets are masked, also with an @ in the password' '
	cat >"$CFG" <<-\EOF &&
	[lore]
	url = https://bot:p@ss@127.0.0.1:1/x@y
	[smtp]
	password = hun@ter2
	passwordFile = /etc/sched-bot/pw
	[other]
	token = t0k3n
	EOF
	"$SCHED_BOT" config --list >list &&
	"$SCHED_BOT" config --list --all >>list &&
	test_grep "^lore.url=https://<hidden>@127.0.0.1:1/x@y" list &&
	test_grep "^smtp.password=<hidden>" list &&
	test_grep "^other.token=<hidden>" list &&
	test_grep "^smtp.passwordFile=/etc/sched-bot/pw$" list &&
	test_grep ! -e "p@ss" -e "ss@127" -e hun -e ter2 -e t0k3n list
'

test_expect_success '--get shows what the file sets, not a default' '
	printf "[lore]\n\turl = http://127.0.0.1:3\n" >"$CFG" &&
	test "$("$SCHED_BOT" config --get lore.url)" = http://127.0.0.1:3 &&
	rc=0 && "$SCHED_BOT" config --get lore.retries >out || rc=$? &&
	test $rc -eq 3 &&
	test_cmp /dev/null out
'

test_expect_failure_code 'config with a wrong option is a usage error' 2 \
	'"$SCHED_BOT" config --list --bogus'

test_expect_success 'config --keys gives each key a type and a help line' '
	"$SCHED_BOT" config --keys >keys &&
	test_grep "^lore.retries (int, default 3)$" keys &&
	test_grep "^smtp.password (string, secret)$" keys &&
	test_grep "^cron.query (multi, default " keys &&
	test "$(grep -c "^    [^ ]" keys)" -eq "$(wc -l <table)"
'

# The sample: [section] or [section "sub"] (commented out or not), then
# "key = value" lines set, or "#key = value" lines shown as examples.
sample_keys() {
	awk '
	{ line = $0; sub(/^[ \t]*#?[ \t]*/, "", line) }
	line ~ /^\[[A-Za-z]+( "[^"]*")?\]/ {
		sec = line; sub(/^\[/, "", sec); sub(/[ \]].*/, "", sec)
		wild = line ~ /"/
		next
	}
	line ~ /^[A-Za-z][A-Za-z0-9]*[ \t]*=/ && sec != "" {
		k = line; sub(/[ \t]*=.*/, "", k)
		print tolower(sec (wild ? ".*." : ".") k)
	}' "$SAMPLE" | sort -u
}

test_expect_success 'contrib/sched-bot.config names every key, and only those' '
	rm -f "$CFG" &&
	tr A-Z a-z <table | sort >table-lc &&
	sample_keys >sample &&
	comm -3 table-lc sample >drift &&
	test_cmp /dev/null drift
'

test_expect_success 'the values contrib/sched-bot.config sets are the defaults' '
	sample_values >sample-set &&
	test "$(wc -l <sample-set)" -gt 30 &&
	defaults_of all >defaults &&
	comm -23 sample-set defaults >not-default &&
	test_cmp /dev/null not-default
'


test_expect_success 'config --list spells each key as the table does' '
	cat >"$CFG" <<-\EOF &&
	[lore]
	cacheMaxAge = 60
	[target "BigBox"]
	bootTimeout = 300
	[job]
	spawnGap = 0
	EOF
	"$SCHED_BOT" config --list >list &&
	cat >expect <<-\EOF &&
	lore.cacheMaxAge=60
	target.BigBox.bootTimeout=300
	job.spawnGap=0
	EOF
	test_cmp expect list
'

# A typo in a key is otherwise a silent default: bot.moderaton = all
# would leave every report unmoderated.
test_expect_success 'an unknown key warns on every command, naming the nearest known key' '
	cat >"$CFG" <<-\EOF &&
	[bot]
	moderaton = all
	[target "box"]
	bootTimout = 300
	EOF
	for c in "status" "config --path" "plan --help" "gc --dry-run"; do
		"$SCHED_BOT" $c >out 2>err
		test_grep "warning: config .*: unknown key .bot.moderaton. is ignored; did you mean .bot.moderation.?" err &&
		test_grep "unknown key .target.box.boottimout. is ignored; did you mean .target.box.bootTimeout.?" err ||
		{ echo "no warning from: sched-bot $c"; exit 1; }
	done &&
	"$SCHED_BOT" --config "$CFG" status >out 2>err
	test_grep "did you mean .bot.moderation.?" err
'

test_expect_success 'a key far from every known one still names the nearest' '
	printf "[frobnicator]\n\tlevel = 11\n" >"$CFG" &&
	"$SCHED_BOT" config --path >out 2>err &&
	test_grep "unknown key .frobnicator.level. is ignored (the nearest known key is .[a-zA-Z.]*.; .sched-bot config --keys. lists them)" err
'

test_expect_success 'config --check: an unknown key or a bad value is an error' '
	printf "[bot]\n\tmoderaton = all\n" >"$CFG" &&
	rc=0 && "$SCHED_BOT" config --check >out 2>err || rc=$? &&
	test $rc -eq 2 &&
	test_grep "did you mean .bot.moderation.?" err &&
	test_grep "error: config .*: 1 key unknown or not of its type" err &&
	printf "[lore]\n\tretries = many\n[smtp]\n\tsend = perhaps\n" >"$CFG" &&
	rc=0 && "$SCHED_BOT" config --check >out 2>err || rc=$? &&
	test $rc -eq 2 &&
	test_grep "lore.retries = .many. is not a whole number" err &&
	test_grep "smtp.send = .perhaps. is not a boolean" err &&
	test_grep "2 keys unknown or not of their type" err &&
	printf "[bot]\n\tmoderation = all\n[target \"box\"]\n\tsmp = 4\n" >"$CFG" &&
	"$SCHED_BOT" config --check >out 2>err &&
	test_grep "every key known, every value of its type" out &&
	test_cmp /dev/null err &&
	rm "$CFG" &&
	"$SCHED_BOT" config --check >out &&
	test_grep "no such file, the defaults apply" out
'

test_expect_success 'the sample configuration passes config --check' '
	"$SCHED_BOT" --config "$SAMPLE" config --check >out 2>err &&
	test_cmp /dev/null err
'

test_done
