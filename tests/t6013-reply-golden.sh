#!/bin/sh
# The mail of every kind, whole, as the current code makes it from raw
# inputs: each fixture of tests/data/reply/ holds what a job has before
# its compare stage (the state as the job writes it, the rows of its
# blocks, the target's records, the logs of a failure); the thread is
# the Chen Yu v3 series.  `test --job-dir` runs compare and reply, so
# compare.json, the tables, the verdict and the summary the reply reads
# are made here, never kept, and a golden cannot drift from what the bot
# sends.  Each reply is compared whole with its golden
# (tests/data/golden/KIND.eml), only the volatile fields normalised
# (bot_mail_normalise); and every golden opens with its outcome, keeps
# its prose within 72 columns and never names the bot's own disk.  No
# kernel is built or booted.
#
# To regenerate after a deliberate change of the reply:
#   GOLDEN_UPDATE=1 make check T=t6013
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

GOLDEN=$DATA/golden
REPLY=$DATA/reply
PARTIAL=$DATA/intake/short-task-wakeup-v3-partial.mbox
COMPLETE=$DATA/intake/short-task-wakeup-v3-complete.mbox

bot_config "$TRASH/bot.cfg" 1
cat >>"$TRASH/bot.cfg" <<EOC
[bot]
	contact = Jane Doe <jane@sched-bot.example.org>
[archive]
	url = https://sched-bot.example.org/jobs
[target "box"]
	type = ssh
	host = box.example.org
EOC
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# The plan of the thread, as the plan stage writes it to plan.txt, with
# hackbench the only tool on PATH: what the host has installed must not
# change the plan.
mkdir -p "$TRASH/tools" && : >"$TRASH/tools/hackbench" &&
	chmod +x "$TRASH/tools/hackbench"
job_plan() {
	PATH=$TRASH/tools "$SCHED_BOT" plan "$1/thread.mbox" --cpus 2 \
		--seconds 5 >"$1/plan.txt"
}

# job KIND [complete]: the job directory KIND/ from its fixture, the
# target's record beside the commands it ran, and the thread; with
# "complete", the whole v3 thread (its benchmarks choose the plan) and
# the plan of it.
job() {
	rm -rf "$1" && cp -R "$REPLY/$1" "$1" &&
	if [ -d "$1/run-1-head" ]; then
		cp "$REPLY/env.txt" "$1/run-1-head/env.txt"
	fi &&
	if [ "${2-}" = complete ]; then
		cp "$COMPLETE" "$1/thread.mbox" && job_plan "$1"
	else
		cp "$PARTIAL" "$1/thread.mbox"
	fi
}

# check KIND FILE: FILE, normalised, against tests/data/golden/KIND.eml;
# a moderation note's MIME boundary and the day its hold expires, which
# moves its line breaks, are volatile too
check() {
	bot_mail_normalise "$2" | sed -e 's/sched-bot-held-[0-9a-f]*-/sched-bot-held-X-/' |
		awk '/^signed with DKIM/ { print "EXPIRY"; skip = 1 }
		     skip && /the report is dropped\.$/ { skip = 0; next }
		     !skip' >"$1.eml" &&
	if [ -n "${GOLDEN_UPDATE-}" ]; then cp "$1.eml" "$GOLDEN/$1.eml"; fi &&
	test_cmp "$GOLDEN/$1.eml" "$1.eml" &&
	bot_mail_orphans "$1.eml"
}

# golden KIND [complete]: the job of the fixture to its reply
golden() {
	job "$@" &&
	rc=0 &&
	"$SCHED_BOT" test --job-dir "$1" >/dev/null 2>"$1.err" || rc=$? &&
	case $rc in 0|1|5) ;; *) cat "$1.err"; return 1 ;; esac &&
	check "$1" "$1/reply.eml"
}

test_expect_success 'an improvement: Tested-by, on a substitute base' '
	golden improvement complete &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" \
		improvement.eml &&
	test_grep "^outcome=tested$" improvement/state
'

test_expect_success 'no significant change: Tested-by' '
	golden tested &&
	test_grep "^Tested-by:" tested.eml
'

test_expect_success 'a regression, confirmed and bisected: no Tested-by' '
	golden regression &&
	test_grep "^outcome=regression$" regression/state &&
	test_grep ! "^Tested-by:" regression.eml &&
	# "name = value" is never broken: no line starts at its "="
	test_grep ! "^ *= " regression.eml
'

test_expect_success 'emulated (TCG): no Tested-by' '
	golden emulated &&
	test_grep ! "^Tested-by:" emulated.eml
'

test_expect_success 'noisy: no Tested-by' '
	golden noisy &&
	test_grep ! "^Tested-by:" noisy.eml
'

test_expect_success 'identical binaries: nothing measured, no results offered' '
	golden identical &&
	test_grep ! "^Tested-by:" identical.eml &&
	test_grep ! "results.csv" identical.eml
'

test_expect_success 'on the machine'\''s own config: every option the bot changed' '
	golden own-config &&
	test_grep "^- config:   the machine'\''s own (6.1.0-18-amd64)" own-config.eml &&
	test_grep ! "sched.config\|qemu.config" own-config.eml &&
	"$SCHED_BOT" archive --jobs "$TRASH" --out site-own >/dev/null 2>&1 &&
	test_grep "href=\"own-config/config-changes.txt\"" site-own/own-config.html
'

test_expect_success 'a duplicate: the earlier job, no runs' '
	golden duplicate
'

test_expect_success 'a build failure: the log and a make line, no benchmark' '
	golden build-failed &&
	test_grep "^    make " build-failed.eml &&
	test_grep ! "sched-bench\|sched-bot test" build-failed.eml
'

test_expect_success 'a boot failure: the console' '
	golden boot-failed
'

test_expect_success 'an apply failure: the log and the hint' '
	golden apply-failed &&
	test_grep "^Hint: " apply-failed.eml
'

test_expect_success 'after merge, the regression still there' '
	golden merged-still
'

test_expect_success 'after merge, the regression not seen' '
	golden merged-gone
'

test_expect_success 'a regression held for a moderator: the note' '
	cp "$TRASH/bot.cfg" mod.cfg &&
	git config -f mod.cfg bot.moderation regressions &&
	git config -f mod.cfg bot.moderators mod@kernel.example &&
	job regression &&
	rm -rf "$TRASH/bot-data/outbox" &&
	rc=0 &&
	SCHED_BOT_CONFIG=$TRASH/mod.cfg "$SCHED_BOT" test --job-dir regression \
		>/dev/null 2>mod.err || rc=$? &&
	test $rc -eq 5 &&
	note=$(grep -l "^Message-ID: <moderation\." "$TRASH"/bot-data/outbox/new/*) &&
	check moderation "$note"
'

test_expect_success 'the reply links the job`s page, which links its files' '
	test_grep "^https://sched-bot.example.org/jobs/regression.html$" \
		regression.eml &&
	if [ -n "${GOLDEN_UPDATE-}" ]; then
		cp regression/reproduce.sh "$GOLDEN/reproduce.sh"
	fi &&
	test_cmp "$GOLDEN/reproduce.sh" regression/reproduce.sh &&
	sh -n regression/reproduce.sh &&
	"$SCHED_BOT" archive --jobs "$TRASH" --out site >/dev/null 2>&1 &&
	for f in reproduce.sh config-base results.csv compare.json \
		run-1-head-console.log; do
		test_grep "href=\"regression/$f\"" site/regression.html ||
		case $f in config-base|run-1-head-console.log) ;; *) return 1 ;; esac
	done
'

# The first line of the body after the greeting and the quote (and a
# moderation note's MIME part headers).
first_line() {
	awk '
		!body { if ($0 == "") body = 1; next }
		/^On .* wrote:$/ || /^>/ || /^Hello .*,$/ || /^Hello,$/ || /^$/ { next }
		/^--=_/ || /^Content-/ { next }
		{ print; exit }
	' "$1"
}

test_expect_success 'every golden opens with its outcome' '
	for g in "$GOLDEN"/*.eml; do
		first_line "$g" >first &&
		grep -iE "improvement|regression|no significant|noisy|emulated|identical|did not build|did not boot|could not|did not apply|already|holds|did not run|still|not seen|measured nothing" first ||
		{ echo "$g: $(cat first)"; return 1; }
	done
'

test_expect_success 'no golden has prose over 72 columns, nor JOB-DIR' '
	for g in "$GOLDEN"/*.eml; do
		awk -v f="$g" "
			!body { if (\$0 == \"\") body = 1; next }
			/^Content-Type: message\/rfc822/ { hdr = 2 }
			hdr { if (\$0 == \"\") hdr--; next }
			/^    / || /https?:\/\// { next }
			length(\$0) > 72 { print f \": \" \$0; bad = 1 }
			END { exit bad }
		" "$g" || return 1
	done &&
	! grep -l "JOB-DIR" "$GOLDEN"/*.eml
'

test_expect_success 'no fixture names a metric sched-bench does not emit' '
	cut -d, -f3,6 "$REPLY"/*/*.csv | grep -v "^workload,metric$" |
		sort -u >metrics &&
	printf "%s\n" hackbench,time pingpong,handoffs spawn,lps >expect &&
	test_cmp expect metrics
'

test_expect_success 'the orphan check finds what double wrapping leaves' '
	printf "H: x\n\n- a: b c\n  pipe,\n  unpinned\n[1]\n<id@x>\n" >orphans &&
	! bot_mail_orphans orphans >found &&
	printf "4:   pipe,\n6: [1]\n" >expect &&
	test_cmp expect found
'

test_done
