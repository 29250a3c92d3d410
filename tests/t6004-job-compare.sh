#!/bin/sh
# The compare and reply stages of a job: from results.csv (base and
# patched runs) to tables, verdict and the reply, Tested-by only when no
# metric regressed, exit 5 when one did.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

[ -f "$DATA/compare/simple-base.csv" ] || test_fail_all "compare's test data is missing"

bot_config "$TRASH/bot.cfg" 1
export SCHED_BOT_CONFIG=$TRASH/bot.cfg

# job_at_compare DIR BASE.csv NEW.csv: a job stopped before compare,
# the runs of BASE labelled base and those of NEW labelled patched.
# With --runs 5 (fixed): the injected runs are all there is.
job_at_compare() {
	bot_job job-tested "$1" &&
	rm -f "$1/tables.txt" "$1/verdict.txt" "$1/regressions.txt" &&
	sed -i -e 's/^stage=reply$/stage=compare/' -e '/^outcome=/d' "$1/state" &&
	echo runs_fixed=1 >>"$1/state" &&
	{
		head -n 1 "$2"
		tail -n +2 "$2" | sed 's/^[^,]*,/base,/'
		tail -n +2 "$3" | sed 's/^[^,]*,/patched,/'
	} >"$1/results.csv"
}

test_expect_success 'an improvement: tables, verdict and Tested-by' '
	job_at_compare better "$DATA/compare/simple-base.csv" \
		"$DATA/compare/simple-new.csv" &&
	echo requested_by=dev@kernel.example >>better/state &&
	"$SCHED_BOT" test --job-dir better >out &&
	m=$(cat out) &&
	test -s better/compare.json &&
	test_grep "spawn.lps" better/tables.txt &&
	test_grep "^    .*spawn.lps" "$m" &&
	test_grep "^Verdict: improvement" "$m" &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" "$m" &&
	test_grep "^This test was requested by dev@kernel.example.$" "$m" &&
	# --runs 5 is a fixed design: no adaptive budget is spoken of
	tr "\n" " " <better/verdict.txt >verdict.flat &&
	test_grep "Rule: runs paired by number (5 blocks)" verdict.flat &&
	test_grep ! "Adaptive runs" verdict.flat &&
	test_grep ! "budget" "$m" &&
	test_grep "\"design\": \"fixed\"" better/compare.json &&
	test_grep "^outcome=tested$" better/state
'

# Five pairs whose means rise (+3.3%) while the paired estimate the
# test judges falls (-4.9%: run 4's 448 against 991.6): the reply's
# table, its legend and compare.json show the change the verdict
# judged, never the other sign.
test_expect_success 'the change shown is the one the verdict judged, its sign too' '
	grep -e "^label," -e "^base," "$DATA/compare/noisy.csv" >nb.csv &&
	grep -e "^label," -e "^patched," "$DATA/compare/noisy.csv" >np.csv &&
	job_at_compare sign nb.csv np.csv &&
	"$SCHED_BOT" test --job-dir sign >out &&
	m=$(cat out) &&
	test_grep "^ *1019 ± *3% *-4.9% *1052 ± 41% *spawn.lps.copies=4$" sign/tables.txt &&
	test_grep ! "+3.3%" sign/tables.txt &&
	test_grep "^%change: the paired change judged; higher is better$" sign/tables.txt &&
	test_grep -F "    %change: the paired change judged" "$m" &&
	test_grep "\"change_pct\": -4.88" sign/compare.json &&
	test_grep ! "\"change_pct\": 3.3" sign/compare.json
'

test_expect_failure_code 'the same runs the other way round: a regression, exit 5' 5 '
	job_at_compare worse "$DATA/compare/simple-new.csv" \
		"$DATA/compare/simple-base.csv" &&
	cp worse/results.csv worse/confirm.csv &&
	sed -i "s/^nr_patches=2$/nr_patches=1/" worse/state &&
	"$SCHED_BOT" test --job-dir worse >out
'

test_expect_success '... reported without Tested-by, naming the metric' '
	m=$(cat out) &&
	test_grep ! "Tested-by" "$m" &&
	test_grep "^Verdict: regression" "$m" &&
	test_grep "^- spawn lps (m7gd.16xlarge): -22.4%, higher is better$" "$m" &&
	test_grep "^The first round (5 blocks):$" "$m" &&
	test_grep "^The confirmation (a fresh round of 5 blocks):$" "$m" &&
	test "$(grep -c "^Verdict: regression" "$m")" -eq 2 &&
	test_grep "^confirmed=1$" worse/state &&
	test_grep "^outcome=regression$" worse/state
'

test_expect_success 'a regression the confirmation does not repeat is not reported' '
	job_at_compare once "$DATA/compare/simple-new.csv" \
		"$DATA/compare/simple-base.csv" &&
	{
		head -n 1 "$DATA/compare/simple-new.csv"
		tail -n +2 "$DATA/compare/simple-new.csv" | sed "s/^[^,]*,/base,/"
		tail -n +2 "$DATA/compare/simple-new.csv" | sed "s/^[^,]*,/patched,/"
	} >once/confirm.csv &&
	"$SCHED_BOT" test --job-dir once >out &&
	m=$(cat out) &&
	test_grep "^outcome=tested$" once/state &&
	test_grep "^confirmed=2$" once/state &&
	test_grep "^The confirmation did not repeat" "$m" &&
	test_grep ! "noticed a" "$m"
'

test_expect_success 'lkp: the commit: block names the job`s commits and subjects' '
	git init -q tree &&
	git -C tree -c user.name=A -c user.email=a@example.org commit -q \
		--allow-empty -m "sched/fair: the base of the series" &&
	git -C tree -c user.name=A -c user.email=a@example.org commit -q \
		--allow-empty -m "sched/fair: Choose the CPU of the short task" &&
	b=$(git -C tree rev-parse HEAD~1) && h=$(git -C tree rev-parse HEAD) &&
	cp "$TRASH/bot.cfg" lkp.cfg &&
	git config -f lkp.cfg reply.format lkp &&
	git config -f lkp.cfg tree.path "$TRASH/tree" &&
	job_at_compare lkp "$DATA/compare/simple-base.csv" \
		"$DATA/compare/simple-new.csv" &&
	sed -i -e "s/^base_commit=.*/base_commit=$b/" \
		-e "s/^head_commit=.*/head_commit=$h/" lkp/state &&
	SCHED_BOT_CONFIG=lkp.cfg "$SCHED_BOT" test --job-dir lkp >out &&
	m=$(cat out) &&
	b10=$(echo $b | cut -c1-10) && h10=$(echo $h | cut -c1-10) &&
	test_grep "^commit:$" lkp/tables.txt &&
	test_grep "^  $b10 (\"sched/fair: the base of the series\")$" lkp/tables.txt &&
	test_grep "^  $h10 (\"sched/fair: Choose the CPU of the short task\")$" lkp/tables.txt &&
	test_grep "^$(echo $b | cut -c1-16) $(echo $h | cut -c1-27)$" lkp/tables.txt &&
	test_grep ! "^  base$" lkp/tables.txt &&
	test_grep ! "^  patched$" lkp/tables.txt &&
	test_grep "^      $b10 (\"sched/fair: the base of the series\")$" "$m"
'

test_expect_success '... the verdict said once, by the sentence' '
	m=$(cat out) &&
	test_grep ! "^ *verdict:" lkp/tables.txt &&
	test_grep ! "^ *(rule: " lkp/tables.txt &&
	test_grep ! "^ *verdict:" "$m" &&
	test "$(grep -c "^Verdict:" "$m")" -eq 1 &&
	! sed "1,/^\$/d" "$m" | grep -v "^>" | awk "length > 100" | test_grep .
'


# schedstat_csv LABEL FACTOR OUT: the pingpong runs of the schedstat
# fixture as LABEL, handoffs times FACTOR (a KPI that regresses), and
# perf-pipe's "ops" a second KPI, 8% faster when FACTOR is not 1 (one
# that improves); the diagnostics as they are (three that move).
schedstat_csv() {
	awk -F, -v OFS=, -v want="$1" -v f="$2" '
		NR == 1 { print; next }
		$1 != want { next }
		$6 == "handoffs" {
			v = $7; $7 = v * f; print
			$3 = "perf-pipe"; $4 = "loops=100000 mode=processes"
			$6 = "ops"; $7 = f == 1 ? v : v * 1.08; $8 = "roundtrips/s"
		}
		{ print }
	' "$DATA/compare/schedstat.csv" >"$3"
}

test_expect_failure_code 'a regression reply: the robot`s summary first' 5 '
	schedstat_csv base 1 ss-base.csv &&
	schedstat_csv patched 0.9 ss-new.csv &&
	job_at_compare frame ss-base.csv ss-new.csv &&
	cp frame/results.csv frame/confirm.csv &&
	sed -i "s/^nr_patches=2$/nr_patches=1/" frame/state &&
	"$SCHED_BOT" test --job-dir frame >out
'

test_expect_success '... what, on which commit and machine, by how much, the rule' '
	m=$(cat out) &&
	sed -n "/^Hello/,/^The regressions with their tests:/p" "$m" >frame.txt &&
	test_grep "^- pingpong handoffs" "$m" &&
	cat >expect <<-\EOT &&
	Hello Chen Yu,

	sched-bot noticed a -10.0% regression of pingpong.handoffs (pairs=1) on:

	- commit:   89abcdef0123 ("sched/fair: Choose the CPU where short task
	            is running during wake up"), base + 1 patch of v3
	- base:     v6.1-rc6, commit 0123456789ab
	- testcase: pingpong
	- params:   pairs=1
	- machine:  qemu (QEMU, 2 vCPUs, 1024 MB, kvm), on Intel(R) Xeon(R) CPU
	            (host: 2 CPUs, 3900 MB)
	- rule:     change >= 2%, paired t on 5 blocks, Holm over 2 KPIs at 1%

	Every KPI that moved:

	- -10.0% regression of pingpong.handoffs (pairs=1)
	- +8.0% improvement of perf-pipe.ops (loops=100000 mode=processes)

	Why it changed, the scheduler statistics that moved most:

	- run-queue wait +120% (pingpong pairs=1)
	- failed load balancing (domain level 0) +50% (pingpong pairs=1)
	- wake-ups to another CPU -41% (pingpong pairs=1)

	The regressions with their tests:
	EOT
	test_cmp expect frame.txt
'

# profile_csv OUT: a profile of the pingpong cell, base and patched, as
# a job with job.profile keeps it (profile.csv).
profile_csv() {
	{
		head -n 1 ss-base.csv
		for r in "base,default_idle,self,61.5" "base,kernel_clone,children,3" \
			"patched,default_idle,self,20.25" \
			"patched,slow_fork_wait,self,41.2" \
			"patched,kernel_clone,children,45" \
			"patched,slow_fork_wait,children,44.9"; do
			IFS=, read l f k v <<-EOR
			$r
			EOR
			echo "$l,6.1.0,pingpong,pairs=1,1,diag.profile.$k.$f,$v,%cpu-clock,0,0,free,,,,,,2,y,0,/,qemu,,"
		done
	} >"$1"
}

test_expect_failure_code 'a profile (job.profile): its block after the why' 5 '
	job_at_compare prof ss-base.csv ss-new.csv &&
	cp prof/results.csv prof/confirm.csv &&
	sed -i "s/^nr_patches=2$/nr_patches=1/" prof/state &&
	profile_csv prof/profile.csv &&
	"$SCHED_BOT" test --job-dir prof >out
'

test_expect_success '... the robot`s perf-profile lines, the clock event said' '
	m=$(cat out) &&
	sed -n "/^The functions whose share/,/^The regressions with their tests:/p" "$m" >prof.txt &&
	cat >expect <<-\EOT &&
	The functions whose share of the samples changed most, perf record -e
	cpu-clock (the software clock event: the machine has no PMU, as under
	QEMU TCG) of a run of each kernel in the confirmation, base and patched
	in % of the samples, the change in points (a function perf report did
	not list counts 0):

	    pingpong pairs=1:

	        base   change  patched
	       61.50   -41.25    20.25  perf-profile.self.cpu-clock.default_idle
	        0.00   +41.20    41.20  perf-profile.self.cpu-clock.slow_fork_wait
	        0.00   +44.90    44.90  perf-profile.children.cpu-clock.slow_fork_wait
	        3.00   +42.00    45.00  perf-profile.children.cpu-clock.kernel_clone

	The regressions with their tests:
	EOT
	test_cmp expect prof.txt
'

test_expect_failure_code 'bisected: the summary is on the first patch that shows it' 5 '
	git init -q btree &&
	for s in "the base" "sched/fair: Introduce short duration task check" \
		"sched/fair: Choose the CPU where short task is running"; do
		git -C btree -c user.name=A -c user.email=a@example.org \
			commit -q --allow-empty -m "$s" || return 1
	done &&
	b=$(git -C btree rev-parse HEAD~2) && h=$(git -C btree rev-parse HEAD) &&
	cp "$TRASH/bot.cfg" bisect.cfg &&
	git config -f bisect.cfg tree.path "$TRASH/btree" &&
	job_at_compare bis ss-base.csv ss-new.csv &&
	cp bis/results.csv bis/confirm.csv &&
	schedstat_csv patched 0.8 ss-p1.csv &&
	{
		head -n 1 ss-base.csv
		tail -n +2 ss-base.csv
		tail -n +2 ss-p1.csv | sed "s/^[^,]*,/base+1,/"
	} >bis/bisect-1.csv &&
	sed -i -e "s/^base_commit=.*/base_commit=$b/" \
		-e "s/^head_commit=.*/head_commit=$h/" bis/state &&
	printf "bisect_lo=0\nbisect_hi=1\n" >>bis/state &&
	SCHED_BOT_CONFIG=bisect.cfg "$SCHED_BOT" test --job-dir bis >out
'

test_expect_success '... its commit and subject, with its own numbers' '
	m=$(cat out) &&
	p1=$(git -C btree rev-parse --short=12 HEAD~1) &&
	test_grep "^sched-bot noticed a -20.0% regression of pingpong.handoffs (pairs=1) on:$" "$m" &&
	test_grep "^- commit:   $p1 (\"\[PATCH 1/2\] sched/fair: Introduce short$" "$m" &&
	test_grep "^            duration task check\"), the first patch that shows it (the$" "$m" &&
	test_grep "^            numbers: patch 1 on the base)$" "$m" &&
	test_grep "^- -20.0% regression of pingpong.handoffs (pairs=1)$" "$m" &&
	test_grep "^The first patch that shows the change is 1/2:$" "$m"
'
test_expect_failure_code 'unreadable results stop the job at compare' 1 '
	job_at_compare broken "$DATA/compare/simple-base.csv" \
		"$DATA/compare/simple-new.csv" &&
	echo "garbage,line" >>broken/results.csv &&
	"$SCHED_BOT" test --job-dir broken 2>err
'

test_expect_success '... which is resumable, nothing sent' '
	test_grep "^stage=compare$" broken/state &&
	test ! -f broken/reply.eml
'

test_done
