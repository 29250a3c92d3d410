#!/bin/sh
# sched-bot am next to b4 am -t (offline, -m local.mbox): the same patches
# with the same trailer sets.  Skipped when b4 is not installed.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-intake.sh"
I=$DATA/intake

command -v b4 >/dev/null 2>&1 || test_skip_all "b4 is not installed"

# b4 reads its settings from git config; keep it offline and quiet.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=3 \
	GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="Test Bot" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=bot@example.org \
	GIT_CONFIG_KEY_2=b4.attestation-policy GIT_CONFIG_VALUE_2=off

# b4 0.12 (Debian 12) drops trailers whose name has [] or a comma;
# t1101 checks those against the reference output of newer b4.
compare() {
	name=$1 mbox=$2
	# b4 0.12 cannot copy folded Subject: lines; unfold them for it.
	perl -0pe '1 while s/^(Subject:[^\n]*)\n[ \t]+/$1 /mg' "$mbox" >"$name.in" &&
	"$SCHED_BOT" series --mbox "$mbox" --json >"$name.json" &&
	msgid=$(tr -d " \n" <"$name.json" |
		sed -E 's/.*"cover":\{"msgid":"([^"]*)".*/\1/; t; s/.*"patches":\[\{"index":[0-9]+,"version":[0-9]+,"msgid":"([^"]*)".*/\1/') &&
	mkdir -p "b4.$name" &&
	b4 -q am -t -m "$name.in" -o "b4.$name" "$msgid" >"$name.b4log" 2>&1 &&
	"$SCHED_BOT" am --mbox "$mbox" -o "$name.ours" --no-link &&
	trailer_sets b4."$name"/*.mbx >"$name.b4sets" &&
	trailer_sets "$name.ours" >"$name.oursets" &&
	test -s "$name.b4sets" &&
	test_cmp "$name.b4sets" "$name.oursets" &&
	test $(grep -c "^diff --git" b4."$name"/*.mbx) -eq \
		$(grep -c "^diff --git" "$name.ours")
}

for t in sched-dl-suspend-v1 sched-dl-suspend-v2 sched-dl-suspend-v3 \
	 sched-dl-suspend-v4 sched-dl-rootdomain-hotplug-v1 \
	 sched-dl-rootdomain-hotplug-v2 sched-numa-stats-rfc sched-numa-stats-v1 \
	 sched-numa-stats-v2 sched-numa-stats-v3 sched-numa-stats-v4 \
	 sched-numa-stats-v5 sched-numa-stats-v6; do
	test_expect_success "same patches and trailers as b4: $t" "
		compare $t \"$I/cgroups/$t.mbox\"
	"
done

test_expect_success 'same as b4: the sched_move_task revert' '
	compare revert "$I/lkml/revert-sched_move_task/thread-with-tip-bot.mbox"
'

test_expect_success 'same as b4: place-deadline v2 in reply to v1' '
	compare place "$I/lkml/place-deadline-initial/thread-partial.mbox"
'

test_expect_success 'same as b4: short-task-wakeup v3 (complete)' '
	compare short "$I/short-task-wakeup-v3-complete.mbox"
'

for t in trailers-followup-with-cover trailers-followup-single \
	 trailers-followup-custody \
	 trailers-followup-bare-address trailers-followup-nore \
	 trailers-followup-with-diffstat trailers-thread-with-followups; do
	test_expect_success "same as b4: its own sample $t" "
		compare $t \"$I/b4/$t.mbox\"
	"
done

test_done
