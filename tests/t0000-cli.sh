#!/bin/sh
# The command line: help, version, exit codes, configuration.
. "$(dirname "$0")/lib.sh"
test_tier unit

test_expect_success 'version prints the version' '
	"$SCHED_BOT" --version | grep -E "^sched-bot [0-9]+\.[0-9]+"
'

# Built in a git checkout (make check rebuilds main.o when HEAD moves),
# --version names HEAD as git describe does ("v0.1-3-gabc1234-dirty"
# or "abc1234"); from a tarball, the version alone.
test_expect_success 'version names the commit the tool was built from' '
	"$SCHED_BOT" --version >out &&
	if git -C "$TOP" rev-parse --verify -q HEAD >head
	then
		sed -n "s/^sched-bot [0-9.]* (\(.*\))\$/\1/p" out |
			sed -e "s/-dirty\$//" -e "s/.*-g//" >commit &&
		test -s commit &&
		git -C "$TOP" rev-parse --verify -q "$(cat commit)^{commit}" \
			>built &&
		test_cmp head built
	else
		test_grep -E "^sched-bot [0-9.]+\$" out
	fi
'

test_expect_success 'help lists every pipeline command' '
	"$SCHED_BOT" help >out &&
	for c in fetch series am tree apply build boot run compare test cron; do
		test_grep "^   $c " out || { echo "missing $c"; exit 1; }
	done
'

test_expect_failure_code 'unknown command is a usage error' 2 \
	'"$SCHED_BOT" frobnicate'

test_expect_failure_code 'no command is a usage error' 2 '"$SCHED_BOT"'

test_expect_success 'config --list reads a git-config file' '
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
	printf "[lore]\n\turl = http://127.0.0.1:1\n[smtp]\n\tpassword = hunter2\n" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	"$SCHED_BOT" config --list >out &&
	test_grep "^lore.url=http://127.0.0.1:1$" out &&
	test_grep "^smtp.password=<hidden>$" out &&
	test_grep ! hunter2 out
'

test_expect_success 'config --list hides credentials inside URLs' '
	printf "[lore]\n\turl = https://bot:s3cret@127.0.0.1:1/x@y\n" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	"$SCHED_BOT" config --list >out &&
	test_grep "^lore.url=https://<hidden>@127.0.0.1:1/x@y$" out &&
	test_grep ! s3cret out
'

test_expect_success '--config FILE overrides the default file' '
	printf "[lore]\n\turl = http://127.0.0.1:2\n" >other &&
	"$SCHED_BOT" --config other config --get lore.url >out &&
	test "$(cat out)" = "http://127.0.0.1:2"
'

test_expect_failure_code 'a missing --config file is a usage error' 2 \
	'"$SCHED_BOT" --config /nonexistent/file config --list'

# ---- one option table per command: help, man page, completion ----

test_expect_success 'every command is listed by --list-cmds and help' '
	"$SCHED_BOT" help --list-cmds >cmds &&
	test_grep -x fetch cmds && test_grep -x config cmds &&
	test_grep -x check cmds && test_grep -x target cmds &&
	test_grep -x plan cmds &&
	test_grep -x history cmds &&
	test $(wc -l <cmds) -eq 20 &&
	"$SCHED_BOT" help >out &&
	while read c; do
		test_grep "^   $c " out || exit 1
	done <cmds
'

# The shared options a source uses, by the OPT__X() macros of
# bot/workload-opts.h: each macro's long name, read from its definition.
shared_longs() {
	awk '/^#define OPT__[A-Z_]*\(/ { m = $2; sub(/\(.*/, "", m) }
	     m && /OPT_CALLBACK\(0, "/ {
		n = $0; sub(/.*OPT_CALLBACK\(0, "/, "", n); sub(/".*/, "", n)
		print m, n; m = ""
	     }' "$TOP/bot/workload-opts.h" |
	while read -r macro long; do
		grep -q "$macro(" "$1" && echo "$long"
	done
	:
}

# The long options of a command as its source's table names them:
# OPT_*(short, "long", ...), the shared OPT__X() of bot/workload-opts.h,
# OPT__VERBOSITY() for -v/-q, and the --help every table gets.
source_longs() {
	{
		sed -n "s/.*OPT_[A-Z][A-Z_]*([^,]*, \"\([a-z0-9-]*\)\".*/\1/p" "$1"
		shared_longs "$1"
		grep -q "OPT__VERBOSITY()" "$1" && printf "verbose\nquiet\n"
		echo help
	} | sort -u
}

test_expect_success 'each --help shows every option of its table, and only the table has options' '
	"$SCHED_BOT" help --list-cmds >cmds &&
	while read c; do
		"$SCHED_BOT" help --list-options $c |
			sed -n "s/^--\([^ ]*\).*/\1/p" | sort >tool-$c &&
		source_longs "$TOP/bot/builtin/$c.c" >src-$c &&
		test_cmp src-$c tool-$c || exit 1
		"$SCHED_BOT" $c --help >help-$c || exit 1
		"$SCHED_BOT" help $c >help2-$c &&
		test_cmp help-$c help2-$c || exit 1
		while read o; do
			test_grep -e "--$o\b" help-$c || exit 1
		done <tool-$c
		test_grep "^usage: sched-bot $c" help-$c || exit 1
	done <cmds
'

test_expect_success 'the tool'\''s own options are its table, in help too' '
	"$SCHED_BOT" help --list-options | sed -n "s/^--\([^ ]*\).*/\1/p" |
		sort >tool-main &&
	source_longs "$TOP/bot/builtin/main.c" >src-main &&
	test_cmp src-main tool-main &&
	"$SCHED_BOT" --help >help-main &&
	while read o; do test_grep -e "--$o\b" help-main || exit 1; done <tool-main
'

test_expect_success 'no command parses an option outside its table' '
	test_grep ! -n -E "getopt|strn?cmp\(argv[^,]*, *\"-|argv\[[^]]*\]\[0\] == .-" \
		"$TOP"/bot/builtin/*.c
'

test_expect_success '-v, -q and -h mean the same after every command' '
	"$SCHED_BOT" help --list-cmds >cmds &&
	while read c; do
		"$SCHED_BOT" help --list-options $c >opts &&
		test_grep -x -- "-v" opts && test_grep -x -- "-q" opts &&
		test_grep -x -- "-h" opts &&
		"$SCHED_BOT" $c -vq -h >out || exit 1
		test_grep "^usage: sched-bot $c" out || exit 1
	done <cmds
'

test_expect_success 'a short option means one thing in every command' '
	"$SCHED_BOT" help --list-cmds >cmds &&
	while read c; do
		"$SCHED_BOT" help --list-options $c |
			awk -v c=$c "/^--/ { long = \$1 } /^-[^-]/ { print \$1, long }"
	done <cmds | sort -u >pairs &&
	awk "{ print \$1 }" pairs | uniq -d >clashes &&
	test_cmp /dev/null clashes
'

test_expect_failure_code 'help of an unknown command is a usage error' 2 \
	'"$SCHED_BOT" help frobnicate'

test_expect_failure_code 'an unknown option is a usage error' 2 \
	'"$SCHED_BOT" series --frobnicate'

# ---- one integer parser ----

test_expect_success 'run --runs 3x and test --runs 3x: exit 2, the same message' '
	rc=0; "$SCHED_BOT" run --workloads spawn --runs 3x 2>run.err || rc=$?
	test $rc -eq 2 &&
	rc=0; "$SCHED_BOT" test --runs 3x x@y 2>test.err || rc=$?
	test $rc -eq 2 &&
	head -n 1 run.err >run.msg && head -n 1 test.err >test.msg &&
	echo "sched-bot: error: --runs: '\''3x'\'' is not a whole number" >expect &&
	test_cmp expect run.msg &&
	test_cmp run.msg test.msg
'

test_expect_success 'every --runs refuses the same values the same way' '
	for v in 3x "" 0 1001 99999999999999999999 " 3" -1; do
		for c in run test boot cron; do
			rc=0
			"$SCHED_BOT" $c --runs="$v" 2>err || rc=$?
			test $rc -eq 2 || { echo "$c --runs=$v: exit $rc"; exit 1; }
			head -n 1 err >msg-$c
		done
		test_grep -e "--runs: '\''$v'\''" msg-run &&
		test_cmp msg-run msg-test && test_cmp msg-run msg-boot &&
		test_cmp msg-run msg-cron || exit 1
	done
'

test_expect_success 'other whole-number options go through the same parser' '
	for a in "build --jobs 2x" "boot -t 5s" "cron --max-jobs 1.5" \
		 "cron --since yesterday" "series --revision v2"; do
		rc=0; "$SCHED_BOT" $a 2>err || rc=$?
		test $rc -eq 2 || { echo "$a: exit $rc"; exit 1; }
		test_grep "is not a whole number" err || exit 1
	done &&
	rc=0; "$SCHED_BOT" boot --autogroup 2 2>err || rc=$?
	test $rc -eq 2 && test_grep -e "--autogroup: '\''2'\'' must be on or off" err
'

# ---- the options several commands share: one spec each ----

# "command<TAB>--option<TAB>ARG<TAB>help" for each option of the man
# page, whose sections and option lines are the option tables.
man_options() {
	"$SCHED_BOT" help --man | sed -e 's/\\f[BIR]//g' -e 's/\\-/-/g' |
	awk '/^\.SS / { cmd = $3; sub(/"$/, "", cmd) }
	     tp == 2 { print cmd "\t" opt "\t" arg "\t" $0; tp = 0 }
	     tp == 1 { opt = $1; arg = $2; tp = 2 }
	     /^\.TP$/ { tp = 1 }'
}

# shared_option OPTION CMDS: the commands (sorted, space-separated)
# whose table has OPTION are CMDS, and its argument and help are the
# same words in each, up to the first ";" (what follows is the
# command's own default).
shared_option() {
	awk -F "\t" -v o="$1" '$2 == o' man-opts >lines-$1 &&
	test "$(cut -f1 lines-$1 | sort | tr "\n" " ")" = "$2 " || {
		echo "$1 is in: $(cut -f1 lines-$1 | tr "\n" " ")"; return 1
	}
	cut -f3 lines-$1 | sort -u >args-$1 &&
	test $(wc -l <args-$1) = 1 &&
	cut -f4 lines-$1 | sed -e "s/;.*//" -e "s/, or auto: .*//" |
		sort -u >help-$1 &&
	test $(wc -l <help-$1) = 1 || { cat lines-$1; return 1; }
}

test_expect_success 'shared options: the same words and meaning in every command' '
	man_options >man-opts &&
	shared_option --autogroup "boot run" &&
	test "$(cat args---autogroup)" = "on|off" &&
	test_grep "on or off (1 and 0 are the same)" help---autogroup &&
	shared_option --cgroup "boot run" &&
	test "$(cat args---cgroup)" = "root|new" &&
	shared_option --workloads "boot cron run target test" &&
	test "$(cat args---workloads)" = LIST &&
	# auto only where a thread chooses them
	awk -F "\t" "/ or auto: /{ print \$1 }" lines---workloads | sort |
		tr "\n" " " >auto &&
	test "$(cat auto)" = "cron test "
'

# bad_value CMD OPTION VALUE TEXT: a usage error, TEXT in its first line.
bad_value() {
	rc=0
	"$SCHED_BOT" "$1" "$2=$3" >out 2>err || rc=$?
	if [ $rc -ne 2 ] || ! head -n 1 err | grep -qF -- "$4"; then
		echo "$1 $2=$3: exit $rc, expected 2 and: $4"
		cat err
		return 1
	fi
}

test_expect_success 'a bad --autogroup, --cgroup or --workloads exits 2 in every command that takes it' '
	"$SCHED_BOT" help --list-cmds >cmds &&
	known=$("$SCHED_BOT" help --list-workloads | paste -s -d, |
		sed "s/,/, /g") &&
	: >checked &&
	while read c; do
		"$SCHED_BOT" help --list-options $c >opts
		if grep -q "^--autogroup " opts; then
			for v in maybe 2 ""; do
				bad_value $c --autogroup "$v" \
					"error: --autogroup: '\''$v'\'' must be on or off" ||
					exit 1
			done
			echo $c autogroup >>checked
		fi
		if grep -q "^--cgroup " opts; then
			for v in ../x NAME ""; do
				bad_value $c --cgroup "$v" \
					"error: --cgroup: '\''$v'\'' must be root or new" ||
					exit 1
			done
			echo $c cgroup >>checked
		fi
		if grep -q "^--workloads " opts; then
			bad_value $c --workloads spawn,frob \
				"error: --workloads: unknown workload '\''frob'\'' (the workloads: $known" &&
			bad_value $c --workloads spawn,,pingpong \
				"has an empty name (the workloads: $known" &&
			bad_value $c --workloads "" "empty name" || exit 1
			echo $c workloads >>checked
		fi
	done <cmds &&
	test $(grep -c autogroup checked) = 2 &&
	test $(grep -c cgroup checked) = 2 &&
	test $(grep -c workloads checked) = 5
'

# ---- the exit code of "cannot read FILE" ----

# not_found CMD...: exits 3 saying "cannot read" the path.
not_found() {
	rc=0
	"$SCHED_BOT" "$@" >out 2>err || rc=$?
	if [ $rc -ne 3 ]; then
		echo "exit $rc, expected 3, from: $*"
		cat err
		return 1
	fi
	test_grep "error: cannot read " err
}

test_expect_success 'an input file that does not exist exits 3 in every command' '
	not_found series --mbox missing.mbox &&
	not_found am --mbox missing.mbox -o out.mbox &&
	not_found apply --mbox missing.mbox &&
	not_found test --mbox missing.mbox --job-dir job &&
	not_found compare missing.csv &&
	not_found compare "$DATA/compare/simple-base.csv" missing.csv &&
	not_found build --src missing-dir &&
	not_found build --tree missing.git &&
	mkdir src &&
	not_found build --src src --base-config ./missing.config &&
	not_found build --src src --fragment ./missing.config &&
	not_found build --src src --fragment no-such.config &&
	not_found boot --target local --kernel missing-bzImage -o x.csv &&
	not_found boot --sched-bench missing --make-initramfs x.cpio &&
	not_found tree init --tarball missing.tar.xz new.git &&
	not_found archive --jobs missing-jobs --out html &&
	test_grep "cannot read missing-jobs" err &&
	! test -e job && ! test -e new.git && ! test -e html
'

test_expect_success 'an input that cannot be read (a directory) exits 3 too' '
	mkdir -p adir &&
	not_found series --mbox adir &&
	test_grep "cannot read adir: Is a directory" err &&
	not_found am --mbox adir -o out.mbox &&
	not_found compare adir &&
	not_found test --mbox adir --job-dir job &&
	not_found boot --target local --kernel adir -o x.csv &&
	not_found build --src src --base-config ./adir &&
	touch plain &&
	not_found build --src plain &&
	test_grep "cannot read plain: Not a directory" err &&
	not_found archive --jobs plain
'

test_expect_success 'the exit codes are one rule, the same in help and the guide' '
	"$SCHED_BOT" help | sed -n "/^Exit codes/,\$p" >tool-codes &&
	sed -n "/^    Exit codes/,/^\$/p" "$TOP/contrib/pipeline.md" |
		sed -e "/^\$/d" -e "s/^    //" >guide-codes &&
	test_cmp tool-codes guide-codes &&
	test_grep "^    3  not found" tool-codes
'

# "N NAME" of each value of enum exit_code in bot/util.h.
enum_exit_codes() {
	sed -n "/^enum exit_code {/,/^};/p" "$TOP/bot/util.h" |
	sed -n "s/^[[:space:]]*\(EXIT_[A-Z]*\) = \([0-9]*\),.*/\2 \1/p"
}

test_expect_success 'help lists every exit code of enum exit_code, and no other' '
	enum_exit_codes >enum &&
	test "$(wc -l <enum)" -ge 8 &&
	cut -d" " -f1 enum >enum-codes &&
	"$SCHED_BOT" help | sed -n "/^Exit codes/,\$p" |
		sed -n "s/^    \([0-9][0-9]*\)  .*/\1/p" >help-codes &&
	test_cmp enum-codes help-codes &&
	"$SCHED_BOT" help >help-out &&
	test_grep "^    7  busy" help-out &&
	"$SCHED_BOT" help --man >man.1 &&
	MANWIDTH=120 man -E ascii -l man.1 2>/dev/null |
		sed -n "/^EXIT STATUS/,/^[A-Z]/p" >man-exit &&
	test_grep -E "^ *7 +busy" man-exit
'

# ---- the man page ----

test_expect_success 'build/sched-bot.1 is what help --man prints' '
	"$SCHED_BOT" help --man >man.1 &&
	test_cmp man.1 "$BUILD/sched-bot.1" &&
	test_grep "^\.TH SCHED\\\\-BOT 1 " man.1
'

test_expect_success 'man renders sched-bot.1 without warnings, every command and option in it' '
	MANWIDTH=120 man --warnings -E ascii -l "$BUILD/sched-bot.1" \
		>man.txt 2>man.err &&
	test_cmp /dev/null man.err &&
	test_grep "^NAME" man.txt && test_grep "^EXIT STATUS" man.txt &&
	"$SCHED_BOT" help --list-cmds >cmds &&
	while read c; do
		test_grep "^   sched-bot $c\$" man.txt || exit 1
		"$SCHED_BOT" help --list-options $c | awk "{ print \$1 }" >o &&
		sed -n "/^   sched-bot $c\$/,/^   sched-bot /p" man.txt >sect &&
		while read o; do
			test_grep -e "^       $o\b" -e ", $o\b" sect || exit 1
		done <o
	done <cmds
'

# ---- sched-bench(1), from sched-bench's option table ----

test_expect_success 'build/sched-bench.1 is what sched-bench --man prints' '
	"$SCHED_BENCH" --man >bench.1 &&
	test_cmp bench.1 "$BUILD/sched-bench.1" &&
	test_grep "^\.TH SCHED\\\\-BENCH 1 " bench.1
'

test_expect_success 'man renders sched-bench.1 without warnings: every option, its meaning and default' '
	MANWIDTH=120 man --warnings -E ascii -l "$BUILD/sched-bench.1" \
		>bench.txt 2>bench.err &&
	test_cmp /dev/null bench.err &&
	test_grep "^DEFAULTS UNDER SCHED-BOT" bench.txt &&
	for w in spawn pingpong env health; do
		"$SCHED_BENCH" $w --help >usage-$w &&
		sed -n "s/^ \{4,8\}\(-., \)*\(--[a-z-]*\).*/\2/p" usage-$w >opts-$w &&
		test -s opts-$w || exit 1
		sed -n "/^   sched-bench $w\$/,/^   sched-bench /p" bench.txt \
			>sect-$w &&
		while read o; do
			# from the option tag to the next: its meaning and default
			awk -v o="$o" "
				/^       -/ { inb = \$0 ~ (\"^       (-., )?\" o \"( |\$)\") }
				inb { text = text \$0 \"\\n\" }
				END { exit !(text ~ /Default: [^ ]/ && split(text, w, \" \") > 5) }" \
				sect-$w ||
			{ echo "$w $o: no meaning or default"; exit 1; }
		done <opts-$w
	done &&
	test_grep -e "--copies N" sect-spawn &&
	sed -n "/--copies N/,/Default/p" sect-spawn >copies &&
	test_grep "Default: the online CPUs\." copies
'

test_expect_success 'each sched-bench usage says every option'\''s default' '
	for w in spawn pingpong env health; do
		"$SCHED_BENCH" $w --help >usage-$w || exit 1
		test "$(grep -c "^ \{4,8\}-" usage-$w)" -eq \
			"$(grep -c "; default: " usage-$w)" || exit 1
	done &&
	test_grep "gap S" usage-spawn &&
	test_grep "seconds of sync and sleep before each pass, as UnixBench.s Run; default: 3$" usage-spawn
'

# ---- the completion asks the tool ----

complete_words() {
	bash -c '
		_init_completion() {
			words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
			cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
		}
		_filedir() { COMPREPLY=("<files$*>"); }
		complete() { :; }
		. "$TOP/contrib/sched-bot.bash-completion"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_sched_bot "$SCHED_BOT"
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$@"
}

test_expect_success 'bash completion: commands and options from the tool' '
	complete_words sched-bot "" >out &&
	"$SCHED_BOT" help --list-cmds >cmds &&
	test_cmp cmds out &&
	complete_words sched-bot test --re >out &&
	echo --restart >expect && test_cmp expect out &&
	complete_words sched-bot --config x series --revision 1 --m >out &&
	echo --mbox >expect && test_cmp expect out &&
	complete_words sched-bot test --job-dir "" >out &&
	echo "<files-d>" >expect && test_cmp expect out &&
	complete_words sched-bot tree "" >out &&
	printf "init\nstatus\nexport\nfetch\n" >expect && test_cmp expect out &&
	complete_words sched-bot boot --autogroup "" >out &&
	printf "on\noff\n" >expect && test_cmp expect out &&
	complete_words sched-bot run --cgroup n >out &&
	echo new >expect && test_cmp expect out
'


test_expect_success 'target list: the configured targets, then those that need none' '
	printf "[target \"box\"]\n\ttype = ssh\n\thost = box.example.org\n[target \"lab\"]\n\ttype = lava\n" \
		>targets.cfg &&
	"$SCHED_BOT" --config targets.cfg target list >out &&
	printf "box ssh\nlab lava\nqemu qemu\nlocal local\n" >expect &&
	test_cmp expect out
'

test_expect_success 'bash completion: --target offers the configured targets' '
	complete_words sched-bot --config targets.cfg test --target "" >out &&
	printf "box\nlab\nqemu\nlocal\n" >expect && test_cmp expect out &&
	complete_words sched-bot --config targets.cfg boot --target b >out &&
	echo box >expect && test_cmp expect out &&
	complete_words sched-bot --config targets.cfg target "" >out &&
	printf "list\nstatus\nclear\ncheck\n" >expect && test_cmp expect out &&
	complete_words sched-bot --config targets.cfg target status l >out &&
	printf "lab\nlocal\n" >expect && test_cmp expect out
'

test_done
