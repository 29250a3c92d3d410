#!/bin/sh
# `sched-bot check`, b4 review's external check: a patch (or cover
# letter) on stdin, the verdict of the job that tested its series out, as
# the JSON array b4 reads.  Jobs come from job directory fixtures
# (tests/data/bot/job-*), run to the end by `cron` where the state
# database must know them.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

command -v jq >/dev/null || test_skip_all "jq not installed (contrib/install-deps)"

CFG=$TRASH/bot.cfg
bot_config "$CFG" 1
export SCHED_BOT_CONFIG=$CFG
V3=$DATA/intake/lkml/short-task-wakeup-v3
PD=$DATA/intake/lkml/place-deadline-initial
REVERT=$DATA/intake/lkml/revert-sched_move_task/01-PATCH-revert.eml
JOBS=$TRASH/bot-data/jobs

# b4's schema: an array of {tool, status pass|warn|fail, summary[, url,
# details]}, all strings, nothing else.
valid() {
	jq -e 'type == "array" and all(.[];
		(.tool | type) == "string" and
		(.status | IN("pass", "warn", "fail")) and
		(.summary | type) == "string" and
		((.url // "") | type) == "string" and
		((.details // "") | type) == "string" and
		(keys - ["tool", "status", "summary", "url", "details"] == []))' \
		"$1" >/dev/null || { echo "not b4 check JSON:"; cat "$1"; false; }
}

# field OUT KEY: the one result's KEY
field() {
	jq -r ".[0].$2 // empty" "$1"
}

# job NAME DIR [KEY=VALUE...]: a fixture job directory, state keys replaced
job() {
	name=$1 dir=$2
	shift 2
	bot_job "$name" "$dir" &&
	for kv in "$@"; do
		sed -i "/^${kv%%=*}=/d" "$dir/state" && echo "$kv" >>"$dir/state"
	done
}

test_expect_success 'no job: a "not tested" warning, and no database made' '
	"$SCHED_BOT" check <"$V3/01-PATCH-v3-1-2.eml" >out &&
	valid out &&
	test "$(jq length out)" = 1 &&
	test "$(field out tool)" = sched-bot &&
	test "$(field out status)" = warn &&
	test_grep "\"summary\": \"not tested" out &&
	test ! -e bot-data/state.db
'

test_expect_success '--untested empty: [], b4 for nothing to report' '
	"$SCHED_BOT" check --untested empty <"$V3/01-PATCH-v3-1-2.eml" >out &&
	valid out &&
	test "$(jq -c . out)" = "[]"
'

test_expect_success 'a queued job: warn, queued' '
	"$SCHED_BOT" cron --add "<cover.1669862147.git.yu.c.chen@intel.com>" >id &&
	test "$(cat id)" = 1 &&
	"$SCHED_BOT" check <"$V3/01-PATCH-v3-1-2.eml" >out &&
	valid out &&
	test "$(field out status)" = warn &&
	test "$(field out summary)" = "queued for testing"
'

test_expect_success 'a tested series: pass, the verdict and the job link' '
	bot_job job-tested "$JOBS/job-1" &&
	"$SCHED_BOT" cron --no-poll 2>err &&
	test_grep "^stage=done" "$JOBS/job-1/state" &&
	"$SCHED_BOT" check <"$V3/01-PATCH-v3-1-2.eml" >out &&
	valid out &&
	test "$(field out status)" = pass &&
	test "$(field out summary)" = \
		"v3, 2 patches: no significant change in the 2 metrics measured." &&
	test "$(field out url)" = "file://$JOBS/job-1" &&
	field out details >details &&
	test_grep "^Verdict: no significant change" details &&
	test_grep "%stddev     %change         %stddev" details &&
	test_grep "spawn.lps" details
'

test_expect_success 'the cover letter (a series check) gets the same answer' '
	"$SCHED_BOT" check <"$V3/00-PATCH-v3-0-2-cover.eml" >cover &&
	valid cover &&
	test_cmp out cover
'

# A pass is the Tested-by of the reply: a tested job whose reply carries
# none (emulated, noisy, identical binaries, a regression of one code
# layout only) is a warning that says why.  Each fixture in turn is
# job-1, its reply written by `test --job-dir` as a job writes it.
for c in "job-tcg::measured under emulation (TCG)" \
	 "job-noisy::too noisy to call" \
	 "job-identical::identical binaries, nothing measured" \
	 "job-tested:aligned=2:a regression of one code layout only"
do
	fixture=${c%%:*} why=${c##*:} kv=${c#*:}
	kv=${kv%%:*}
	test_expect_success "b4 check of $fixture${kv:+ $kv}: warn, no Tested-by: $why" '
		job $fixture "$JOBS/job-1" $kv &&
		rc=0 &&
		"$SCHED_BOT" test --job-dir "$JOBS/job-1" >/dev/null 2>err || rc=$? &&
		test $rc -le 1 &&
		test_grep ! "^Tested-by:" "$JOBS/job-1/reply.eml" &&
		"$SCHED_BOT" check <"$V3/01-PATCH-v3-1-2.eml" >out &&
		valid out &&
		test "$(field out status)" = warn &&
		field out summary >summary &&
		test_grep -F "No Tested-by: $why." summary
	'
done
rm -rf "$JOBS/job-1" && bot_job job-tested "$JOBS/job-1"

test_expect_success 'archive.url: the link is the job page of `sched-bot archive`' '
	cp "$CFG" cfg2 &&
	printf "[archive]\n\turl = https://bot.example.org/sched/\n" >>cfg2 &&
	SCHED_BOT_CONFIG=$TRASH/cfg2 "$SCHED_BOT" check \
		--mbox "$V3/01-PATCH-v3-1-2.eml" >out &&
	valid out &&
	test "$(field out url)" = "https://bot.example.org/sched/job-1.html"
'

test_expect_success 'a regression, from a job directory the database never saw' '
	job job-regression "$JOBS/revert" \
		msgid=20250314151345.275739-1-dietmar.eggemann@arm.com \
		cover_msgid=20250314151345.275739-1-dietmar.eggemann@arm.com \
		version=1 nr_patches=1 &&
	"$SCHED_BOT" check <"$REVERT" >out &&
	valid out &&
	test "$(field out status)" = fail &&
	test "$(field out summary)" = "v1, 1 patch: regression, 1 of 2 metrics got significantly worse (at least 2%, Welch p < 0.01)." &&
	field out details >details &&
	test_grep "^- spawn lps: -12.4%" details
'

test_expect_success 'a series that does not apply: fail, with the log' '
	job job-tested "$JOBS/pd-v1" \
		msgid=20231004011737.188682-1-daniel.m.jordan@oracle.com \
		cover_msgid=20231004011737.188682-1-daniel.m.jordan@oracle.com \
		version=1 nr_patches=1 outcome=apply-failed &&
	echo "error: patch failed: kernel/sched/fair.c:4911" \
		>"$JOBS/pd-v1/failure.txt" &&
	"$SCHED_BOT" check <"$PD/01-PATCH-v1.eml" >out &&
	valid out &&
	test "$(field out status)" = fail &&
	test "$(field out summary)" = \
		"v1, 1 patch: the series does not apply (apply-failed)" &&
	test "$(field out details)" = \
		"error: patch failed: kernel/sched/fair.c:4911"
'

test_expect_success 'v2 sent in reply to v1: the v2 job answers, not v1' '
	job job-tested "$JOBS/pd-v2" \
		msgid=20231004130908.238992-1-daniel.m.jordan@oracle.com \
		cover_msgid=20231004130908.238992-1-daniel.m.jordan@oracle.com \
		version=2 nr_patches=1 outcome= stage=build &&
	"$SCHED_BOT" check <"$PD/02-PATCH-v2-in-reply-to-v1.eml" >out &&
	valid out &&
	test "$(field out status)" = warn &&
	test "$(field out summary)" = "v2, 1 patch: testing, at stage build" &&
	rm -r "$JOBS/pd-v2" &&
	"$SCHED_BOT" check <"$PD/02-PATCH-v2-in-reply-to-v1.eml" >out &&
	test "$(field out summary)" = \
		"v1, 1 patch: the series does not apply (apply-failed)"
'

test_expect_success 'garbage or an empty message: still an answer, exit 0' '
	head -c 3000 /dev/urandom >junk &&
	"$SCHED_BOT" check <junk >out &&
	valid out &&
	test "$(field out status)" = warn &&
	"$SCHED_BOT" check </dev/null >out &&
	valid out &&
	test_grep "no Message-ID" out
'

test_expect_failure_code 'an argument is a usage error' 2 \
	'"$SCHED_BOT" check "$V3/01-PATCH-v3-1-2.eml"'

test_expect_failure_code 'a bad --untested is a usage error' 2 \
	'"$SCHED_BOT" check --untested maybe </dev/null'

test_expect_failure_code 'a missing --mbox file is "not found", as in every command' 3 \
	'"$SCHED_BOT" check --mbox nosuch.eml'

test_done
