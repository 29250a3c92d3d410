#!/bin/sh
# The local target: sched-bench's init on the running kernel, framed like
# on a QEMU console, parsed into the same rows.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
test_host_sched read

test_expect_success 'boot --target local returns spawn and pingpong rows' '
	"$SCHED_BOT" boot --target local --workloads spawn,pingpong --runs 1 \
		-t 1 --spawn-gap 0 --label here -o rows.csv >out &&
	test_grep -x "status: ok" out &&
	test_grep "^here,$(uname -r),spawn,.*,local," rows.csv &&
	test_grep "^here,$(uname -r),pingpong,.*,local," rows.csv &&
	test "$(sed -n "s/^rows: //p" out)" -eq "$(($(wc -l <rows.csv) - 1))"
'

# The second boot without perf on PATH (the tools run from PATH): no
# perf stat rows, said once.
test_expect_success 'rows are appended to an existing file' '
	PATH=/nonexistent "$SCHED_BOT" boot --target local --workloads spawn \
		--runs 1 -t 1 --spawn-gap 0 --label again -o rows.csv >out2 2>err2 &&
	test "$(head -n 1 rows.csv | cut -c1-6)" = "label," &&
	test "$(grep -c "^label," rows.csv)" -eq 1 &&
	test_grep "^again," rows.csv && test_grep "^here," rows.csv
'

test_expect_success '... without perf: no perf stat rows, and it says so once' '
	test "$(grep -c "perf is not installed on this machine" err2)" -eq 1 &&
	test_grep "^again,.*,spawn," rows.csv &&
	test_grep ! "^again,.*,diag\.perf\." rows.csv
'

test_expect_failure_code 'an unknown workload is a usage error, before any run' 2 '
	"$SCHED_BOT" boot --target local --workloads nosuch -o bad.csv 2>err
'

test_expect_success '... and says which one, with the known ones' '
	test_grep "unknown workload .nosuch. (the workloads: spawn, " err &&
	! test -e bad.csv
'

test_expect_success 'its sched-bench gets the allowlisted environment' '
	{
		echo "#!/bin/sh" &&
		echo "env >>\"$TRASH/local.env\"" &&
		echo "echo \"\$*\" >>\"$TRASH/local.args\"" &&
		echo "exec \"$SCHED_BENCH\" \"\$@\""
	} >bench-env &&
	chmod +x bench-env &&
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
	printf "[run]\n\tschedBench = %s/bench-env\n" "$TRASH" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	SCHED_BOT_SMTP_PASSWORD=pw-Of-The-Bot-42 NOT_ALLOWED=1 \
		"$SCHED_BOT" boot --target local --workloads spawn --runs 1 \
		-t 1 --spawn-gap 0 --label env -o env.csv >out3 &&
	rm -f "$XDG_CONFIG_HOME/sched-bot/config" &&
	test_grep "^env," env.csv &&
	# --spawn-gap reaches its init: no 3 s sleeps before the passes
	test_grep "^init .*sb.gap=0" local.args &&
	test_grep "^PATH=" local.env &&
	test_grep "^HOME=" local.env &&
	test_grep ! "SCHED_BOT_SMTP_PASSWORD" local.env &&
	test_grep ! "pw-Of-The-Bot-42" local.env &&
	test_grep ! "^NOT_ALLOWED=" local.env &&
	test_grep ! "^TRASH=" local.env &&
	test_grep ! "^XDG_" local.env
'

# perf stat where this machine can count (perf installed, and
# perf_event_paranoid letting a user count its own tasks)
perf stat -x, -e task-clock -- true >/dev/null 2>&1 ||
	test_skip_rest "perf stat cannot count here"

test_expect_success 'perf stat around every run: diag.perf rows, once each' '
	for w in spawn pingpong; do
		for e in context-switches cpu-migrations task-clock; do
			test "$(grep -c "^here,[^,]*,$w,[^,]*,1,diag\.perf\.$e,[0-9.]*," rows.csv)" \
				-eq 1 || return 1
		done
	done &&
	test_grep "^here,[^,]*,pingpong,[^,]*,1,diag\.perf\.task-clock,[0-9.]*,ms,0," rows.csv
'

# A profile where this machine lets perf record sample
perf record -q -e cpu-clock -o "$TRASH/probe.data" -- true >/dev/null 2>&1 ||
	test_skip_rest "perf record cannot sample here"

test_expect_success 'boot --profile: each workload again under perf record' '
	"$SCHED_BOT" boot --target local --workloads pingpong --runs 1 -t 1 \
		--label prof --profile -o prof.csv >pout &&
	n=$(sed -n "s/^profile-rows: //p" pout) &&
	test "$n" -gt 0 &&
	test "$(grep -c ",diag\.profile\." prof.csv)" -eq "$n" &&
	test_grep "^prof,[^,]*,pingpong,[^,]*,1,diag\.profile\.self\.[A-Za-z0-9_.]*,[0-9.]*,%\(cpu-clock\|cycles\),0,0," \
		prof.csv &&
	test_grep "^prof,[^,]*,pingpong,[^,]*,1,diag\.profile\.children\." prof.csv &&
	# the profiled run measures nothing: the run has its one summary row
	test "$(grep -c "^prof,[^,]*,pingpong,[^,]*,1,handoffs,[0-9.]*,handoffs/s,1,0," prof.csv)" -eq 1 &&
	test_grep ! "diag\.profile\.[a-z]*\.0x" prof.csv
'

test_done
