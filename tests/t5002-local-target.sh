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

test_done
