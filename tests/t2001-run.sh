#!/bin/sh
# sched-bot run: interleaved runs into one CSV, append, a killed run,
# missing tools.  Workloads run for about a second each.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched write
. "$TESTS/lib-bench.sh"

test_expect_success 'run writes a valid CSV with interleaved runs' '
	"$SCHED_BOT" run --workloads spawn,pingpong --runs 2 --duration 1 \
		--label base -o res.csv 2>err &&
	csv_check res.csv &&
	test $(grep -c "^label," res.csv) = 1 &&
	awk -F, "NR > 1 && \$10 == 0 && (\$6 == \"lps\" || \$6 == \"handoffs\") { print \$3 \$5 }" res.csv >order &&
	printf "spawn1\npingpong1\nspawn2\npingpong2\n" >expect &&
	test_cmp expect order &&
	! grep -v "^label," res.csv | grep -v "^base,$(uname -r),"
'

test_expect_success 'rows carry utilisation and environment columns' '
	awk -F, "FNR == NR { if (\$6 == \"diag.cpu_other\") other[\$3, \$5] = \$7; next }
	FNR > 1 && \$6 == \"lps\" && \$10 == 0 {
		s = \$12 + \$13 + \$14 + \$15 + \$16 + other[\$3, \$5]
		if (s < 95 || s > 100.5) { print \"util \" s; bad = 1 }
		if (\$7 <= 0) { print \"rate \" \$7; bad = 1 }
		if (\$17 != n) { print \"nr_cpus \" \$17; bad = 1 }
		if (\$18 == \"\" || \$21 != \"local\" || \$23 == \"\") { print; bad = 1 }
		rows++
	} END { exit bad || rows != 2 }" n=$(getconf _NPROCESSORS_ONLN) res.csv res.csv
'

test_expect_success 'no progress output when stderr is not a TTY' '
	test_grep ! "run 1/2" err
'

test_expect_success 'appending keeps one header and both labels' '
	before=$(wc -l <res.csv) &&
	"$SCHED_BOT" run --workloads spawn --runs 1 --duration 1 \
		--label patched -o res.csv &&
	csv_check res.csv &&
	test $(grep -c "^label," res.csv) = 1 &&
	test $(wc -l <res.csv) -gt "$before" &&
	test_grep "^patched,.*,spawn," res.csv
'

test_expect_success 'CSV on stdout without -o' '
	"$SCHED_BOT" run --workloads spawn --duration 1 >stdout.csv &&
	csv_check stdout.csv &&
	head -n 1 stdout.csv | test_grep "^label,kernel,workload,params,run,"
'

test_expect_success 'pingpong options reach sched-bench: --copies, --no-pin' '
	"$SCHED_BOT" run --workloads pingpong --copies 2 --no-pin --duration 1 \
		-o free.csv &&
	csv_check free.csv &&
	test_grep ",pingpong,pairs=2 mode=processes duration=1 warmup=2,1,handoffs,[0-9.]*,handoffs/s,1,0,free," free.csv
'

test_expect_success 'spawn options reach sched-bench through the local target' '
	"$SCHED_BOT" run --workloads spawn --autogroup off --cgroup new \
		--duration 1 -o env.csv 2>env.err &&
	csv_check env.csv &&
	test_grep ",spawn,[^,]* autogroup=off cgroup=new,1,lps," env.csv &&
	awk -F, "NR > 1 && \$6 == \"lps\" && \$20 !~ /^\\/sched-bench/ { bad = 1 }
		END { exit bad || NR < 2 }" env.csv &&
	test_grep ! "own autogroup and cgroup" env.err
'

test_expect_success 'kill -9 in the middle leaves whole rows' '
	"$SCHED_BOT" run --workloads spawn,pingpong --runs 100 \
		--duration 1 -o killed.csv 2>/dev/null &
	pid=$! &&
	i=0 &&
	while [ $(cat killed.csv 2>/dev/null | wc -l) -lt 20 ] && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done &&
	kill -9 $pid; wait $pid 2>/dev/null
	csv_check killed.csv &&
	test $(wc -l <killed.csv) -ge 20
'

test_expect_success 'a missing tool is a skip, not a failure' '
	mkdir -p emptybin &&
	PATH="$TRASH/emptybin" "$SCHED_BOT" run --workloads hackbench,schbench \
		-o skip.csv 2>skip.err &&
	test_grep "^skip: hackbench: .hackbench. is not installed" skip.err &&
	test_grep "^skip: schbench: " skip.err &&
	! test -s skip.csv
'

if command -v hackbench >/dev/null && command -v perf >/dev/null &&
   perf bench sched pipe -l 10 >/dev/null 2>&1; then
	test_expect_success 'hackbench and perf bench rows' '
		"$SCHED_BOT" run --workloads hackbench,perf-pipe,perf-messaging \
			-o tools.csv &&
		csv_check tools.csv &&
		test_grep ",hackbench,.*,time,[0-9.]*,s,0,0," tools.csv &&
		test_grep ",perf-pipe,.*,ops,[0-9.]*,roundtrips/s,1,0,free," tools.csv &&
		test_grep ",perf-messaging,.*,time,[0-9.]*,s,0,0," tools.csv
	'
fi

# dump_env_wrapper FILE DUMP REAL: FILE records its environment in DUMP,
# then runs REAL with its arguments (REAL empty: prints a hackbench
# result instead).  DUMP is written into the script: no variable of the
# test's may be needed to find it.
dump_env_wrapper() {
	{
		echo "#!/bin/sh"
		echo "env >>\"$2\""
		echo "echo ---- >>\"$2\""
		if [ -n "$3" ]; then
			echo "exec \"$3\" \"\$@\""
		else
			echo "echo \"Time: 1.25\""
		fi
	} >"$1" &&
	chmod +x "$1"
}

test_expect_success 'workloads get the allowlisted environment, no password' '
	dump_env_wrapper "$TRASH/bench-env" "$TRASH/bench.env" "$SCHED_BENCH" &&
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" wrapbin &&
	printf "[run]\n\tschedBench = %s/bench-env\n" "$TRASH" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	dump_env_wrapper wrapbin/hackbench "$TRASH/tool.env" "" &&
	SCHED_BOT_SMTP_PASSWORD=pw-Of-The-Bot-42 NOT_ALLOWED=1 \
	PATH="$TRASH/wrapbin:$PATH" \
		"$SCHED_BOT" run --workloads spawn,hackbench --duration 1 \
		-o envrun.csv 2>envrun.err &&
	rm -f "$XDG_CONFIG_HOME/sched-bot/config" &&
	test_grep ",spawn," envrun.csv &&
	test_grep ",hackbench,.*,time,1.25," envrun.csv &&
	# sched-bench env, the spawn run, hackbench: each ran
	test "$(grep -c "^----" bench.env)" -ge 2 &&
	test_grep "^----" tool.env &&
	for f in bench.env tool.env; do
		test_grep "^PATH=" $f &&
		test_grep "^HOME=" $f &&
		test_grep ! "SCHED_BOT_SMTP_PASSWORD" $f &&
		test_grep ! "pw-Of-The-Bot-42" $f &&
		test_grep ! "^NOT_ALLOWED=" $f &&
		test_grep ! "^TRASH=" $f &&
		test_grep ! "^XDG_" $f || return 1
	done
'

test_expect_success 'run --help lists every workload the tool knows' '
	"$SCHED_BOT" help --list-workloads >names &&
	test $(wc -l <names) -ge 6 &&
	test_grep "^spawn$" names && test_grep "^schbench$" names &&
	"$SCHED_BOT" run --help >help &&
	while read -r w; do
		test_grep "^    $w  " help || exit 1
	done <names &&
	# the list is for the completion, not for people
	"$SCHED_BOT" help >all &&
	test_grep ! "list-workloads" all
'

test_expect_success 'an unknown workload is named, with the list' '
	rc=0 && "$SCHED_BOT" run --workloads frob 2>err || rc=$? &&
	test $rc -eq 2 &&
	known=$("$SCHED_BOT" help --list-workloads | paste -s -d, |
		sed "s/,/, /g") &&
	head -n 1 err >msg &&
	test_grep -F "unknown workload '\''frob'\'' (the workloads: $known)" msg
'

test_expect_failure_code 'unknown workload is a usage error' 2 \
	'"$SCHED_BOT" run --workloads spawn,frob'
test_expect_failure_code 'missing --workloads is a usage error' 2 \
	'"$SCHED_BOT" run'
test_expect_failure_code 'only the local target runs here' 2 \
	'"$SCHED_BOT" run --target qemu --workloads spawn'
test_expect_failure_code 'a sched-bench that fails is a failure' 1 \
	'mkdir -p "$XDG_CONFIG_HOME/sched-bot" && printf "#!/bin/sh\nexit 3\n" >fake && chmod +x fake &&
	 printf "[run]\n\tschedBench = %s/fake\n" "$TRASH" >"$XDG_CONFIG_HOME/sched-bot/config" &&
	 "$SCHED_BOT" run --workloads spawn --duration 1 -o fail.csv'

test_done
