#!/bin/sh
# sched-bench: the env record, spawn and pingpong on this machine, for a
# second or two each: records complete and sane.  No timing assertions.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched write
. "$TESTS/lib-bench.sh"

test_expect_success 'env prints the environment record' '
	"$SCHED_BENCH" env >env.out &&
	check_records env.out &&
	test_grep "^env,kernel_release,$(uname -r)\$" env.out &&
	test_grep "^env,nr_cpus,$(getconf _NPROCESSORS_ONLN)\$" env.out &&
	for k in config_sched_autogroup sched_autogroup_enabled cgroup \
		 cgroup_version autogroup cpufreq_governor isolated_cpus smt_active \
		 sched_schedstats; do
		test_grep "^env,$k,." env.out || { echo "no $k"; exit 1; }
	done
'

test_expect_success 'spawn: records complete, rates positive, CPU time adds up' '
	"$SCHED_BENCH" spawn -c 2 -t 1 --passes 1 --gap 0 >spawn.out 2>spawn.err &&
	check_records spawn.out &&
	test_grep "^spawn: 2 copies" spawn.err &&
	test $(grep -c "^copy,spawn,copies=2 duration=1 passes=1,1,1," spawn.out) = 2 &&
	lps=$(awk -F, "\$1 == \"sample\" && \$5 == 0 && \$6 == \"lps\" { print \$7 }" spawn.out) &&
	positive "$lps" &&
	near "$(util_sum spawn.out)" 100 1 &&
	positive "$(stat_value spawn.out wall_s)" &&
	positive "$(stat_value spawn.out ctx_voluntary)" &&
	positive "$(stat_value spawn.out own_cpu_s)" &&
	f=$(stat_value spawn.out foreign_cpu_pct) &&
	awk -v f="$f" "BEGIN { exit !(f >= 0 && f <= 100) }" &&
	test_grep "^sample,.*,lps,1,free\$" spawn.out
'

test_expect_success 'spawn: the headline is UnixBench'"'"'s aggregate of the passes' '
	"$SCHED_BENCH" spawn -c 1 -t 1 --passes 3 --gap 0 >p3.out 2>/dev/null &&
	check_records p3.out &&
	awk -F, "
		\$1 == \"copy\" { c[\$5] = \$7; e[\$5] = \$8 }
		\$1 == \"sample\" && \$5 == 0 { head = \$7 }
		END {
			# drop the pass with the lowest count (ties: the first)
			lo = 1
			for (p = 2; p <= 3; p++) if (c[p] < c[lo]) lo = p
			s = 0
			for (p = 1; p <= 3; p++) if (p != lo) s += log(c[p] / e[p])
			g = exp(s / 2)
			if (head / g > 1.000001 || head / g < 0.999999) {
				print head \" != \" g; exit 1
			}
		}" p3.out &&
	test "$(stat_value p3.out passes_kept)" = 2
'

test_expect_success 'spawn --child-cpu: share of children on another CPU' '
	"$SCHED_BENCH" spawn -c 1 -t 1 --passes 1 --gap 0 --child-cpu >cc.out 2>/dev/null &&
	check_records cc.out &&
	test_grep "^sample,spawn,copies=1 duration=1 passes=1 child_cpu=1,1,0,lps," cc.out &&
	pct=$(stat_value cc.out child_other_cpu_pct) &&
	awk -v p="$pct" "BEGIN { exit !(p >= 0 && p <= 100) }"
'

test_expect_success 'pingpong pinned: per-second samples, instance on CPU 0' '
	"$SCHED_BENCH" pingpong -n 1 -t 2 --warmup 1 >pp.out 2>pp.err &&
	check_records pp.out &&
	test $(grep -c "^sample,pingpong,[^,]*,1,[12],handoffs," pp.out) = 2 &&
	v=$(awk -F, "\$1 == \"sample\" && \$5 == 0 && \$6 == \"handoffs\" { print \$7 }" pp.out) &&
	positive "$v" &&
	test_grep "^inst,pingpong,[^,]*,1,0,0," pp.out &&
	! grep -E "^(sample|stat)," pp.out | grep -v ",pinned\$" &&
	near "$(util_sum pp.out)" 100 1 &&
	positive "$(stat_value pp.out own_cpu_s)" &&
	positive "$(stat_value pp.out ctx_voluntary)"
'

test_expect_success 'pingpong counts 2 hand-offs per round trip (even per-second totals)' '
	awk -F, "\$1 == \"sample\" && \$5 > 0 && \$6 == \"handoffs\" && \$7 % 2 { print; bad = 1 } END { exit bad }" pp.out
'

test_expect_success 'pingpong --no-pin --threads: placement free everywhere' '
	"$SCHED_BENCH" pingpong -n 1 -t 1 --warmup 0 --no-pin --threads >free.out 2>/dev/null &&
	check_records free.out &&
	test_grep "^inst,pingpong,pairs=1 mode=threads[^,]*,1,0,-1," free.out &&
	! grep -E "^(sample|stat)," free.out | grep -v ",free\$"
'

test_expect_success 'pingpong --apart: free after the start, placement apart' '
	"$SCHED_BENCH" pingpong -n 2 -t 1 --warmup 0 --apart >apart.out 2>apart.err &&
	check_records apart.out &&
	test_grep "^inst,pingpong,pairs=2 mode=processes[^,]*,1,0,-1," apart.out &&
	test_grep "^inst,pingpong,pairs=2 mode=processes[^,]*,1,1,-1," apart.out &&
	test_grep "^sample,pingpong,.*,apart$" apart.out &&
	! grep -E "^(sample|stat)," apart.out | grep -v ",apart\$" &&
	test_grep "2 process pairs, apart," apart.err &&
	"$SCHED_BENCH" pingpong -n 1 -t 1 --warmup 0 --pin --apart --threads \
		>apart-t.out 2>/dev/null &&
	test_grep "^inst,pingpong,pairs=1 mode=threads[^,]*,1,0,-1," apart-t.out &&
	! grep -E "^(sample|stat)," apart-t.out | grep -v ",apart\$"
'

# A loaded machine can stall sched-bench for seconds in its warm-up:
# the measured seconds must still be seconds.  With the sampling
# deadlines kept on the old schedule, they were all past when it woke
# and fired back to back: a run of microseconds and 0 hand-offs.
test_expect_success 'pingpong stalled in its warm-up still measures whole seconds' '
	"$SCHED_BENCH" pingpong -n 1 -t 2 --warmup 1 >stall.out 2>/dev/null &
	pid=$! &&
	sleep 0.3 && kill -STOP $pid && sleep 3 && kill -CONT $pid &&
	wait $pid &&
	wall=$(sed -n "s/^stat,pingpong,[^,]*,1,wall_s,\([^,]*\),.*/\1/p" stall.out) &&
	test -n "$wall" &&
	awk -v w="$wall" "BEGIN { exit !(w >= 2) }" &&
	test $(grep -c "^sample,pingpong,[^,]*,1,[12],handoffs," stall.out) = 2 &&
	test_grep ! "^sample,pingpong,[^,]*,1,[12],handoffs,0," stall.out
'

test_expect_success 'pingpong --sweep runs each instance count' '
	"$SCHED_BENCH" pingpong --sweep 1,2 -t 1 --warmup 0 >sweep.out 2>/dev/null &&
	check_records sweep.out &&
	test $(grep -c "^end,pingpong," sweep.out) = 2 &&
	test $(grep -c "^inst,pingpong,pairs=2 " sweep.out) = 2 &&
	test_grep "^inst,pingpong,pairs=2 [^,]*,1,1,1," sweep.out &&
	# a per-task diagnostic only where it differs from the total,
	# and never a KPI of its own
	grep "^sample," sweep.out >sweep.kpis &&
	test_grep ! ",handoffs_per_task," sweep.kpis &&
	test_grep ! "^stat,pingpong,pairs=1 [^,]*,1,handoffs_per_task," sweep.out &&
	test_grep "^stat,pingpong,pairs=2 [^,]*,1,handoffs_per_task," sweep.out
'

# A wake-up on the waking CPU is one of the wake-ups: ttwu >= ttwu_local,
# and the remote ones are the rest.  sched_info (run time, wait) counts
# whenever the file exists; the rest only while sched_schedstats is on,
# and a kernel that counts nothing gets no schedstat records at all.
schedstat_check() {
	awk -F, -v ss="$2" -v on="$3" '
	$1 == "stat" && $5 ~ /^schedstat\./ {
		k = substr($5, 11); v[k] = $6; n++
		if ($6 < 0) { print "negative: " $0; bad = 1 }
	}
	END {
		if (!ss) { if (n) { print n " schedstat records without /proc/schedstat"; bad = 1 } exit bad }
		if (!("rq_cpu_time" in v) || !("run_delay" in v) || !(v["pcount"] > 0)) {
			print "no sched_info deltas"; bad = 1
		}
		if (!on) { if ("ttwu" in v) { print "ttwu while schedstats are off"; bad = 1 } exit bad }
		if (!(v["ttwu"] > 0) || !("ttwu_local" in v) || v["ttwu"] < v["ttwu_local"]) {
			print "ttwu " v["ttwu"] " ttwu_local " v["ttwu_local"]; bad = 1
		}
		if (v["ttwu_remote"] != v["ttwu"] - v["ttwu_local"]) {
			print "ttwu_remote " v["ttwu_remote"]; bad = 1
		}
		if (!(v["sched_count"] > 0)) { print "no schedule() calls"; bad = 1 }
		exit bad
	}' "$1"
}

test_expect_success 'fixtures name only the metrics sched-bench emits' '
	# the KPIs and per-run figures of the runs above, as a reply or a
	# compare fixture names them: a fixture with a metric of its own
	# would test tables the bot can never print
	cat spawn.out sweep.out | awk -F, "
		\$1 == \"sample\" { print \$2 \".\" \$6 }
		\$1 == \"stat\" { print \$2 \".\" \$5 }" | sort -u >emitted &&
	test_grep "^pingpong.handoffs\$" emitted &&
	test_grep "^spawn.lps\$" emitted &&
	for f in $(grep -rl "^label,kernel,workload,params,run,metric" "$DATA"); do
		awk -F, "NR > 1 && (\$3 == \"pingpong\" || \$3 == \"spawn\") &&
			\$6 !~ /^diag\\./ { print \$3 \".\" \$6 }" "$f"
	done >named &&
	grep -rhoE "\b(pingpong|spawn)\.[a-z_]+" "$DATA" >>named &&
	sort -u named | comm -23 - emitted >unknown &&
	test_cmp /dev/null unknown
'

test_expect_success 'schedstat deltas: sane when the kernel has them, else none' '
	ss=0 on=0 &&
	if test -r /proc/schedstat; then ss=1; fi &&
	if test "$(cat /proc/sys/kernel/sched_schedstats 2>/dev/null)" = 1; then on=1; fi &&
	echo "# /proc/schedstat: $ss, sched_schedstats: $on" &&
	"$SCHED_BENCH" pingpong -n 1 -t 1 --warmup 0 --no-pin >ss.out 2>/dev/null &&
	check_records ss.out &&
	test_grep "^stat,pingpong,.*,wall_s," ss.out &&
	schedstat_check ss.out $ss $on &&
	"$SCHED_BENCH" spawn -c 1 -t 1 --passes 1 --gap 0 >ss-spawn.out 2>/dev/null &&
	check_records ss-spawn.out &&
	schedstat_check ss-spawn.out $ss $on &&
	if test $ss = 0; then
		test_grep ! "^stat,.*,schedstat\." ss.out ss-spawn.out &&
		test_grep ! "^stat,.*,task_wait_ms," ss.out
	fi
'

test_expect_success 'schedstat_check fails on impossible figures' '
	cat >bad.out <<-\EOT &&
	stat,pingpong,x,1,schedstat.rq_cpu_time,10,ms,free
	stat,pingpong,x,1,schedstat.run_delay,1,ms,free
	stat,pingpong,x,1,schedstat.pcount,5,count,free
	stat,pingpong,x,1,schedstat.ttwu,3,count,free
	stat,pingpong,x,1,schedstat.ttwu_local,4,count,free
	stat,pingpong,x,1,schedstat.sched_count,9,count,free
	EOT
	! schedstat_check bad.out 1 1 &&
	! schedstat_check bad.out 0 0 &&
	! schedstat_check bad.out 1 0 &&
	sed -e "s/ttwu,3/ttwu,4/" -e "\$a stat,pingpong,x,1,schedstat.ttwu_remote,0,count,free" bad.out >good.out &&
	schedstat_check good.out 1 1
'

test_expect_failure_code 'bad options are usage errors' 2 \
	'"$SCHED_BENCH" spawn -c 0'
test_expect_failure_code 'bad --autogroup value is a usage error' 2 \
	'"$SCHED_BENCH" pingpong --autogroup maybe'
test_expect_failure_code 'unknown workload is a usage error' 2 \
	'"$SCHED_BENCH" frobnicate'

if [ "$(id -u)" = 0 ] && [ -w /proc/sys/kernel/sched_autogroup_enabled ]; then
	test_expect_success 'autogroup off is applied and restored' '
		before=$(cat /proc/sys/kernel/sched_autogroup_enabled) &&
		"$SCHED_BENCH" env --autogroup off >ag.out &&
		test_grep "^env,sched_autogroup_enabled,0\$" ag.out &&
		test "$(cat /proc/sys/kernel/sched_autogroup_enabled)" = "$before"
	'
fi
if [ "$(id -u)" = 0 ] && test_grep " - cgroup[2]* .*cpu" /proc/self/mountinfo; then
	test_expect_success 'cgroup new: runs in a new cpu cgroup, removed after' '
		"$SCHED_BENCH" env --cgroup new >cg.out &&
		cg=$(sed -n "s/^env,cgroup,//p" cg.out) &&
		case "$cg" in */sched-bench.[0-9]*) ;; *) echo "cgroup $cg"; exit 1 ;; esac &&
		! find /sys/fs/cgroup -maxdepth 3 -name "sched-bench.*" | grep .
	'
	test_expect_success 'cgroup root: runs in the root cpu cgroup' '
		"$SCHED_BENCH" env --cgroup root >root.out &&
		test_grep "^env,cgroup,/\$" root.out
	'
fi

test_done
