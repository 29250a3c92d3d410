#!/bin/sh
# A kernel under test says it has 4096 CPUs: on a LAVA device (the
# stand-in lab of lib-hostile-lab.sh, a Perl script, not LAVA) its
# run's env record claims them.  A patched kernel's record never
# becomes the device's facts, so the next plan for the lab is scaled to
# what its facts said before (a base kernel's record), not to 4096
# pinned instances (without the rule: every run on the lab replaced the
# facts, whatever kernel made them).
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile-lab.sh"

hostile_lab_start || test_fail_all "the stand-in lab did not start"
echo facts >"$HOSTILE_LAB/mode"

echo sekrit-token >"$TRASH/token"
mkdir -p "$XDG_CONFIG_HOME/sched-bot"
cat >"$XDG_CONFIG_HOME/sched-bot/config" <<EOF
[target "lab"]
	type = lava
	url = $HOSTILE_LAB_URL
	tokenFile = $TRASH/token
	pollInterval = 100
	retries = 0
	timeout = 300
EOF
printf 'not really a kernel\n' >"$TRASH/bzImage"
FACTS=$XDG_DATA_HOME/sched-bot/targets/lab.facts

test_expect_success 'a patched kernel claiming 4096 CPUs: its rows, no facts' '
	"$SCHED_BOT" boot --target lab --kernel bzImage --workloads spawn \
		--runs 1 -t 1 --label patched --workdir w1 -o p1.csv >out1 &&
	test_grep "^status: ok" out1 &&
	test_grep "^patched,6.1.0-hostile,spawn," p1.csv &&
	test_grep -x "env,nr_cpus,4096" w1/env.txt &&
	! test -e "$FACTS"
'

test_expect_success 'the plan for the lab: its CPUs are not known, not 4096' '
	"$SCHED_BOT" plan --target lab --seconds 5 \
		"$DATA/plan/wakeup-diff-only.mbox" >plan1 2>err1 &&
	test_grep "the CPUs of target .lab. are not known" err1 &&
	test_grep ! 4096 plan1
'

test_expect_success 'facts a base kernel left are not replaced by the claim' '
	mkdir -p "$(dirname "$FACTS")" &&
	printf "env,nr_cpus,2\nenv,sockets,1\nenv,threads_per_core,1\nenv,numa_nodes,1\nenv,llc_cpus,0-1\n" >"$FACTS" &&
	cp "$FACTS" facts.before &&
	"$SCHED_BOT" boot --target lab --kernel bzImage --workloads spawn \
		--runs 1 -t 1 --label patched --workdir w2 -o p2.csv >out2 &&
	test_grep "^status: ok" out2 &&
	test_cmp facts.before "$FACTS"
'

test_expect_success 'the next plan goes by those facts: 2 CPUs, not 4096' '
	"$SCHED_BOT" plan --target lab --seconds 5 \
		"$DATA/plan/wakeup-diff-only.mbox" >plan2 &&
	tr -s " \n" "  " <plan2 >flat &&
	test_grep "for the target.s 2 CPUs.*, as the machine reports them:" flat &&
	test_grep ! 4096 plan2
'

test_done
