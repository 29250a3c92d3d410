#!/bin/sh
# sched-bot compare: golden tables per format, JSON, exit codes, and
# clear errors for bad CSVs.
. "$(dirname "$0")/lib.sh"
test_tier unit

C=$DATA/compare
E=$C/expect
HDR='label,kernel,workload,params,run,metric,value,unit,higher_is_better,sample'

# golden NAME EXIT ARGS...: the output must match $E/NAME.txt exactly.
golden() {
	name=$1 code=$2
	shift 2
	rc=0
	"$SCHED_BOT" compare "$@" >"$name.out" || rc=$?
	test_cmp "$E/$name.txt" "$name.out" &&
	if [ $rc -ne "$code" ]; then echo "exit $rc, expected $code"; false; fi
}

test_expect_success 'matrix: fork table with (N% drop) and %Cpu(s)' '
	golden matrix 5 "$C/fork-matrix.csv" --format matrix
'

test_expect_success 'simple: w/o patch and w/ patch columns, two files' '
	golden simple 0 "$C/simple-base.csv" "$C/simple-new.csv"
'

for f in intel amd lkp mmtests plot; do
	test_expect_success "$f: golden table of a sweep" "
		golden $f 0 \"\$C/sweep.csv\" -f $f
	"
done

test_expect_success 'intel: three kernels, first is the baseline' '
	golden three-intel 5 "$C/three.csv" -f intel
'

test_expect_success 'mmtests: three kernels, *pct%* on significant rows' '
	golden three-mmtests 5 "$C/three.csv" --format=mmtests
'

test_expect_success 'noisy data: ±NN% in lkp, (noisy) in matrix, exit 0' '
	golden noisy-lkp 0 "$C/noisy.csv" -f lkp &&
	golden noisy-matrix 0 "$C/noisy.csv" -f matrix &&
	test_grep "^verdict: noisy" noisy-lkp.out
'

test_expect_success 'real A/A: sched-bench pingpong twice on one kernel is no change' '
	# 5 interleaved runs per label, 2 s each, on a busy 2-CPU VM
	"$SCHED_BOT" compare "$C/aa-real.csv" -f mmtests >out &&
	test_grep ! "^verdict: \(regression\|improvement\)" out &&
	test_grep ! "\*" out
'

test_expect_success 'two-kernel tables fit 72 columns (lkp: its 89-column rule, 100 at most)' '
	for f in intel amd lkp mmtests matrix simple plot noisy-lkp noisy-matrix; do
		max=72
		case $f in *lkp) max=100 ;; esac
		expand "$E/$f.txt" | awk -v f=$f -v max=$max "length > max { print f\": \"\$0; bad = 1 }
			END { exit bad }" || exit 1
	done &&
	test_grep "^=\{89\}$" "$E/lkp.txt"
'

test_expect_success 'three-kernel tables fit 72 columns too' '
	for f in three-intel three-mmtests; do
		expand "$E/$f.txt" | awk -v f=$f "length > 72 { print f\": \"\$0; bad = 1 }
			END { exit bad }" || exit 1
	done &&
	test_grep "^hackbench (v2 against v6.1)$" "$E/three-intel.txt" &&
	test_grep "^hackbench (v3 against v6.1)$" "$E/three-intel.txt"
'

test_expect_success 'plot fits 72 columns' '
	expand "$E/plot.txt" | awk "length > 72 { bad = 1 } END { exit bad }"
'

test_expect_success 'every table states the direction' '
	for f in intel amd lkp mmtests matrix simple plot; do
		test_grep -i "\(higher\|lower\) is better" "$E/$f.txt" ||
		{ echo "$f: no direction"; exit 1; }
	done
'

test_expect_success 'the layout comes from templates.dir' '
	mkdir tmpl &&
	cp "$TOP"/templates/report-*.txt tmpl/ &&
	sed "s/^Test          :/Benchmark     :/" "$TOP/templates/report-amd.txt" \
		>tmpl/report-amd.txt &&
	printf "[templates]\n\tdir = %s/tmpl\n" "$PWD" >cfg &&
	"$SCHED_BOT" --config cfg compare "$C/sweep.csv" -f amd >out &&
	test_grep "^Benchmark     : hackbench" out &&
	test_grep ! "^Test          :" out
'

test_expect_success '--json has the documented fields' '
	rc=0 &&
	"$SCHED_BOT" compare "$C/fork-matrix.csv" --json >out.json || rc=$? &&
	test $rc -eq 5 &&
	for k in kernels metrics workload params metric unit higher_is_better \
		stats kernel n mean stddev cv ci_low ci_high change_pct p_value \
		verdict; do
		test_grep "\"$k\":" out.json || { echo "no $k"; exit 1; }
	done &&
	test_grep "\"verdict\": \"regression\"" out.json &&
	test_grep "\"base\"" out.json && test_grep "\"patched\"" out.json
'

test_expect_success '--min-effect and --alpha change the verdict' '
	"$SCHED_BOT" compare "$C/fork-matrix.csv" --min-effect 40 >out &&
	test_grep "^verdict: no significant change" out &&
	"$SCHED_BOT" compare "$C/fork-matrix.csv" --alpha 1e-40 >out &&
	test_grep "^verdict: no significant change" out
'

test_expect_success 'diag.* rows: shown when they changed, never judged' '
	"$SCHED_BOT" compare "$C/simple-base.csv" "$C/simple-new.csv" -f lkp >out &&
	test_grep "+99.6%.*spawn.diag.wall_s$" out &&
	test_grep "^verdict: improvement" out &&
	"$SCHED_BOT" compare "$C/simple-base.csv" "$C/simple-new.csv" --json >j &&
	test_grep "\"diagnostic\": true" j &&
	# a changed diagnostic is in every format, said to be one
	test_grep "diag.wall_s \[s\]," "$E/simple.txt" &&
	test_grep "not judged (a diagnostic)" "$E/simple.txt" &&
	test_grep ! "diag.wall_s.*improvement" "$E/simple.txt"
'

test_expect_success 'diag.* rows that did not change are left out, --diag shows them' '
	for f in intel amd lkp mmtests matrix simple; do
		"$SCHED_BOT" compare "$C/aa-real.csv" -f $f >$f.out &&
		test_grep ! "diag\." $f.out &&
		"$SCHED_BOT" compare "$C/aa-real.csv" -f $f --diag >$f.all &&
		test_grep "diag.migrations" $f.all || exit 1
	done &&
	test_grep "pingpong.handoffs.pairs=1$" lkp.out
'

# A count that moves by a factor, noisy as a percentage on both sides
# (t6016's wake-ups to another CPU: a few a run, then thousands): shown,
# the sides apart on the log scale; one whose runs overlap: not shown.
test_expect_success 'a count that moves by a factor is shown, noisy or not' '
	echo "label,kernel,workload,params,run,metric,value,unit,higher_is_better,sample" >f.csv &&
	for r in 1:3:5475:50000:50100:9:11 2:2:8916:50200:50300:30:12 \
		 3:2:4333:50100:50000:2:40 4:6:3426:50300:50200:60:25; do
		IFS=: read -r n b p kb kp mb mp <<-EOF
		$r
		EOF
		printf "%s,6.1,pingpong,pairs=8,%s,%s,%s,%s,%s,0\\n" \
			base $n handoffs $kb handoffs/s 1 \
			patched $n handoffs $kp handoffs/s 1 \
			base $n diag.schedstat.ttwu_remote $b count 0 \
			patched $n diag.schedstat.ttwu_remote $p count 0 \
			base $n diag.migrations $mb count 0 \
			patched $n diag.migrations $mp count 0 >>f.csv || return 1
	done &&
	"$SCHED_BOT" compare f.csv >f.out &&
	test_grep "^    wake-ups to another CPU +[0-9]*% (pingpong pairs=8)$" f.out &&
	test_grep ! "^    migrations " f.out &&
	test_grep "^verdict: no significant change" f.out
'

test_expect_success 'schedstat diagnostics: named under the tables, never a verdict' '
	"$SCHED_BOT" compare "$C/schedstat.csv" >ss.out &&
	test_grep "^Scheduler statistics that changed (diagnostics, not judged):$" ss.out &&
	test_grep "^    wake-ups to another CPU -41% (pingpong pairs=1)$" ss.out &&
	test_grep "^    run-queue wait +120% (pingpong pairs=1)$" ss.out &&
	test_grep "^    failed load balancing (domain level 0) +50% (pingpong pairs=1)$" ss.out &&
	# unchanged, or without a scheduler name: not in the block
	sed -n "/^Scheduler statistics/,/^\$/p" ss.out >block &&
	test $(wc -l <block) = 5 &&
	test_grep ! "^    wake-ups [-+]" block &&
	test_grep ! "harness" block &&
	# the KPI decides, the diagnostics do not
	test_grep "^verdict: no significant change" ss.out &&
	"$SCHED_BOT" compare "$C/schedstat.csv" --json >ss.json &&
	test "$(jq -r ".verdict" ss.json)" = "no significant change" &&
	test "$(jq ".job.kpis_judged" ss.json)" = 1 &&
	test "$(jq -c "[.metrics[] | select(.diagnostic) | .verdict] | unique" ss.json)" = "[\"no significant change\"]" &&
	for f in intel amd lkp mmtests matrix simple; do
		"$SCHED_BOT" compare "$C/schedstat.csv" -f $f >ss.$f &&
		test_grep "^    wake-ups to another CPU -41%" ss.$f || exit 1
	done
'

test_expect_success 'no schedstat block when no diagnostic changed' '
	for f in lkp simple; do
		"$SCHED_BOT" compare "$C/aa-real.csv" -f $f --diag >$f.nodiag &&
		test_grep "diag.migrations" $f.nodiag &&
		test_grep ! "Scheduler statistics" $f.nodiag || exit 1
	done
'

test_expect_success '%Cpu(s) (us, sy, id) for every workload in every format' '
	# intel and amd: the mean over the rows of a table; simple: its row
	"$SCHED_BOT" compare "$C/aa-real.csv" -f simple >simple.cpu &&
	test_grep "^    %Cpu(s) w/o patch: 73.9 us, 25.7 sy,  0.0 id$" simple.cpu &&
	test_grep "^    %Cpu(s) w/ patch: 70.3 us, 29.4 sy,  0.0 id$" simple.cpu &&
	for f in intel amd; do
		"$SCHED_BOT" compare "$C/aa-real.csv" -f $f >$f.cpu &&
		test_grep "^ *%Cpu(s) [a-z/ ]*: 46.6 us, 53.1 sy,  0.0 id$" $f.cpu &&
		test_grep "^ *%Cpu(s) [a-z/ ]*: 44.3 us, 55.5 sy,  0.0 id$" $f.cpu ||
		exit 1
	done &&
	"$SCHED_BOT" compare "$C/aa-real.csv" -f lkp >lkp.cpu &&
	test_grep "^      46.61             -2.3      44.35        mpstat.cpu.all.usr%$" lkp.cpu &&
	test_grep "mpstat.cpu.all.idle%$" lkp.cpu &&
	"$SCHED_BOT" compare "$C/aa-real.csv" -f mmtests >mm.cpu &&
	test_grep "^%Cpu(s)   sys%        53.09                  55.45$" mm.cpu &&
	"$SCHED_BOT" compare "$C/aa-real.csv" -f matrix >mx.cpu &&
	test_grep "| 73.9 us, 25.7 sy,  0.0 id$" mx.cpu
'

test_expect_success 'two files with the same label are told apart by name' '
	sed "s/^patched,/base,/" "$C/simple-new.csv" >new.csv &&
	cp "$C/simple-base.csv" old.csv &&
	"$SCHED_BOT" compare old.csv new.csv --format mmtests >out &&
	test_grep " old  *new$" out
'

# session FILE LABEL BASEVALUE: runs 1..4 of one label, as one boot writes.
session() {
	{ echo "$HDR"
	  for r in 1 2 3 4; do
		echo "$2,6.1,w,,$r,ops,$(($3 + r)),ops/s,1,0"
	  done; } >"$1"
}

test_expect_success 'two files a label, runs 1..4 each: every run counts' '
	session base-1.csv base 1000 && session base-2.csv base 1010 &&
	session new-1.csv new 1000 && session new-2.csv new 1010 &&
	"$SCHED_BOT" compare base-1.csv base-2.csv new-1.csv new-2.csv \
		--json >two.json &&
	test "$(jq "[.metrics[0].stats[].n]" -c two.json)" = "[8,8]" &&
	test "$(jq -c "[.metrics[0].stats[].files[] | [.file, .runs]]" two.json)" = \
		"[[\"base-1.csv\",4],[\"base-2.csv\",4],[\"new-1.csv\",4],[\"new-2.csv\",4]]" &&
	test "$(jq -r ".kernels | join(\" \")" two.json)" = "base new" &&
	# the mean is over the 8 runs (1000+..., 1010+...), not the last file
	test "$(jq ".metrics[0].stats[0].mean" two.json)" = 1007.5
'

test_expect_success 'two sessions of both kernels pair only within a file' '
	{ cat base-1.csv; tail -n +2 new-1.csv; } >s1.csv &&
	{ cat base-2.csv; tail -n +2 new-2.csv; } >s2.csv &&
	printf "[compare]\n\tpairing = paired\n" >paired.cfg &&
	"$SCHED_BOT" --config paired.cfg compare s1.csv s2.csv --json >s.json &&
	test "$(jq ".job.comparisons[0].pairs" s.json)" = 8 &&
	test "$(jq ".job.comparisons[0].paired" s.json)" = true &&
	"$SCHED_BOT" compare s1.csv s2.csv --json >u.json &&
	test "$(jq "[.metrics[0].stats[].n]" -c u.json)" = "[8,8]"
'

test_expect_failure_code 'an improvement exits 0' 0 \
	'"$SCHED_BOT" compare "$C/simple-base.csv" "$C/simple-new.csv"'

test_expect_failure_code 'a regression exits 5' 5 \
	'"$SCHED_BOT" compare "$C/simple-new.csv" "$C/simple-base.csv"'

test_expect_failure_code 'an unknown format is a usage error' 2 \
	'"$SCHED_BOT" compare "$C/sweep.csv" -f html'

test_expect_failure_code 'no file is a usage error' 2 '"$SCHED_BOT" compare'

# bad NAME 'expected error' : compare NAME must exit 1 saying so.
bad() {
	rc=0
	"$SCHED_BOT" compare "$@" >out 2>err || rc=$?
	cat err
	test $rc -eq 1 && test ! -s out
}

test_expect_success 'missing column: file, line and column named' '
	printf "label,kernel,workload,params,run,metric,unit,higher_is_better\n" >nocol.csv &&
	bad nocol.csv && test_grep "nocol.csv:1: column .value.: missing from the header" err
'

test_expect_success 'non-numeric value: file, line and column named' '
	{ echo "$HDR"
	  echo "a,k,w,,1,m,1.5,s,1,0"
	  echo "a,k,w,,2,m,fast,s,1,0"; } >nan.csv &&
	bad nan.csv && test_grep "nan.csv:3: column .value.: not a number" err
'

test_expect_success 'a kernel with one run: file, line and column named' '
	{ echo "$HDR"
	  echo "a,k,w,,1,m,1.5,s,1,0"
	  echo "a,k,w,,2,m,1.6,s,1,0"
	  echo "b,k,w,,1,m,1.7,s,1,0"; } >one.csv &&
	bad one.csv &&
	test_grep "one.csv:4: column .run.: kernel .b. has one run of w m" err
'

test_expect_success 'a diagnostic with one run on a side is not judged, and stops nothing' '
	{ echo "$HDR"
	  echo "a,k,w,,1,m,1.5,s,1,0"
	  echo "a,k,w,,2,m,1.6,s,1,0"
	  echo "a,k,w,,2,diag.own_cpu_s,1.1,s,0,0"
	  echo "b,k,w,,1,m,1.5,s,1,0"
	  echo "b,k,w,,2,m,1.6,s,1,0"
	  echo "b,k,w,,1,diag.own_cpu_s,1.2,s,0,0"
	  echo "b,k,w,,2,diag.own_cpu_s,1.3,s,0,0"; } >onediag.csv &&
	"$SCHED_BOT" compare onediag.csv -f intel >out 2>err &&
	test_cmp /dev/null err &&
	test_grep "^verdict: no significant change" out &&
	test_grep ! "own_cpu_s" out
'

test_expect_success 'one run in the second file is found there' '
	{ echo "$HDR"
	  echo "a,k,w,,1,m,1.5,s,1,0"
	  echo "a,k,w,,2,m,1.6,s,1,0"; } >a.csv &&
	{ echo "$HDR"
	  echo "b,k,w,,1,m,1.7,s,1,1"
	  echo "b,k,w,,1,m,1.8,s,1,2"; } >b.csv &&
	bad a.csv b.csv && test_grep "b.csv:2: column .run.: kernel .b." err
'

test_expect_success 'empty file and header-only file' '
	: >empty.csv &&
	bad empty.csv && test_grep "empty.csv: empty file" err &&
	echo "$HDR" >hdr.csv &&
	bad hdr.csv && test_grep "hdr.csv: no samples" err
'

test_expect_success 'a single label is nothing to compare' '
	{ echo "$HDR"
	  echo "a,k,w,,1,m,1.5,s,1,0"
	  echo "a,k,w,,2,m,1.6,s,1,0"; } >single.csv &&
	bad single.csv && test_grep "nothing to compare" err
'

test_expect_success 'a metric one kernel lacks is shown as -, not judged' '
	{ echo "$HDR"
	  echo "a,k,w,,1,m,10,s,1,0"
	  echo "a,k,w,,2,m,10.1,s,1,0"
	  echo "b,k,w,,1,m,10,s,1,0"
	  echo "b,k,w,,2,m,10.1,s,1,0"
	  echo "b,k,w,,1,x,1,s,1,0"
	  echo "b,k,w,,2,x,9,s,1,0"; } >miss.csv &&
	for f in intel amd lkp mmtests matrix simple plot; do
		"$SCHED_BOT" compare miss.csv -f $f >$f.out || exit 1
	done &&
	t=$(printf "\t") &&
	test_grep "^x  *$t-  *$t-$t-$" intel.out &&
	test_grep "^verdict: no significant change" intel.out
'

test_expect_success 'a missing file is "not found" (3), not a crash' '
	rc=0
	"$SCHED_BOT" compare nonexistent.csv >out 2>err || rc=$?
	test $rc -eq 3 && test ! -s out &&
	test_grep "cannot read nonexistent.csv" err
'

test_done
