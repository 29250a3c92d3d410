#!/bin/sh
# The local target: sched-bench's init on the running kernel, framed like
# on a QEMU console, parsed into the same rows.
. "$(dirname "$0")/lib.sh"

test_expect_success 'boot --target local returns spawn and pingpong rows' '
	"$SCHED_BOT" boot --target local --workloads spawn,pingpong --runs 1 \
		-t 1 --label here -o rows.csv >out &&
	test_grep -x "status: ok" out &&
	test_grep "^here,$(uname -r),spawn,.*,local," rows.csv &&
	test_grep "^here,$(uname -r),pingpong,.*,local," rows.csv &&
	test "$(sed -n "s/^rows: //p" out)" -eq "$(($(wc -l <rows.csv) - 1))"
'

test_expect_success 'rows are appended to an existing file' '
	"$SCHED_BOT" boot --target local --workloads spawn --runs 1 -t 1 \
		--label again -o rows.csv >out2 &&
	test "$(head -n 1 rows.csv | cut -c1-6)" = "label," &&
	test "$(grep -c "^label," rows.csv)" -eq 1 &&
	test_grep "^again," rows.csv && test_grep "^here," rows.csv
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
		echo "exec \"$SCHED_BENCH\" \"\$@\""
	} >bench-env &&
	chmod +x bench-env &&
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
	printf "[run]\n\tschedBench = %s/bench-env\n" "$TRASH" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	SCHED_BOT_SMTP_PASSWORD=pw-Of-The-Bot-42 NOT_ALLOWED=1 \
		"$SCHED_BOT" boot --target local --workloads spawn --runs 1 \
		-t 1 --label env -o env.csv >out3 &&
	rm -f "$XDG_CONFIG_HOME/sched-bot/config" &&
	test_grep "^env," env.csv &&
	test_grep "^PATH=" local.env &&
	test_grep "^HOME=" local.env &&
	test_grep ! "SCHED_BOT_SMTP_PASSWORD" local.env &&
	test_grep ! "pw-Of-The-Bot-42" local.env &&
	test_grep ! "^NOT_ALLOWED=" local.env &&
	test_grep ! "^TRASH=" local.env &&
	test_grep ! "^XDG_" local.env
'

test_done
