#!/bin/sh
# Who gets which mail (bot/mailpolicy.h, contrib/operating.md "Who gets which
# mail"), with smtp.send = true against a real SMTP server (smtp-sink):
# an emulated (TCG) result, a noisy one, identical binaries, a
# duplicate and an apply failure on the bot's default tree reach no
# list: each stays in the outbox, and the job and `status` say why;
# reply.emulated = list sends the emulated one to every To and Cc of
# the patch mail, reply.emulated = author to the author alone, once a
# thread.  A target vouches only when it is fit (target.NAME.vouch);
# a reply to all holds the patch mail's To and Cc, lists first, up to
# reply.maxRecipients.  No kernel is built or booted: the jobs are the
# fixtures of tests/data/bot, stopped before their reply.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed (contrib/install-deps)"
bot_sink_start || test_fail_all "smtp-sink does not start"

COVER=cover.1669862147.git.yu.c.chen@intel.com

# policy_config FILE NAME: bot_config with sending on, a state and an
# outbox of NAME's own, no per-thread cap (every job is one thread), and
# no target declared fit to vouch: the defaults a new operator has.
policy_config() {
	bot_config "$1" &&
	git config -f "$1" --unset target.qemu.vouch &&
	git config -f "$1" smtp.send true &&
	git config -f "$1" state.db "$TRASH/$2.db" &&
	git config -f "$1" outbox.dir "$TRASH/$2-outbox" &&
	git config -f "$1" bot.maxPerThread 0
}

# run_job CFG FIXTURE DIR: `test --job-dir DIR` of the fixture with
# CFG, its stderr in DIR.err; the exit code is the outcome's.
run_job() {
	bot_job "$2" "$3" &&
	rc=0 &&
	SCHED_BOT_CONFIG=$1 "$SCHED_BOT" test --job-dir "$3" \
		>"$3.out" 2>"$3.err" || rc=$? &&
	case $rc in 0|1|5) ;; *) cat "$3.err"; return 1 ;; esac
}

# state_of DIR KEY: a value of the job's state file.
state_of() {
	sed -n "s/^$2=//p" "$1/state"
}

# The addresses of the cover letter's From, To and Cc, lower case, one a
# line, sorted: whom a reply to all answers.
cover_addresses() {
	awk -v id="<$COVER>" '
		/^From mboxrd@z / { if (hit) exit; head = 1; h = ""; next }
		head && /^$/ { head = 0; if (h ~ id) { hit = 1; print h }; next }
		head { h = h "\n" $0 }
	' "$DATA/intake/short-task-wakeup-v3-partial.mbox" |
	awk '/^(From|To|Cc):/ { on = 1 } /^[A-Za-z-]+:/ && !/^(From|To|Cc):/ { on = 0 } on' |
	grep -o "[A-Za-z0-9._+-]*@[A-Za-z0-9.-]*" | tr A-Z a-z | sort -u
}

# The first job runs as the unattended bot runs it, by cron, so that
# status (which reads cron's jobs) has it.
J=bot-data/jobs/job-1
test_expect_success 'an emulated (TCG) result with smtp.send = true: nothing is sent' '
	policy_config tcg.cfg tcg &&
	SCHED_BOT_CONFIG=tcg.cfg "$SCHED_BOT" cron --add "<$COVER>" >id &&
	test "$(cat id)" = 1 &&
	bot_job job-tcg $J &&
	SCHED_BOT_CONFIG=tcg.cfg "$SCHED_BOT" cron --no-poll 2>tcg.err &&
	test_grep "^stage=done" $J/state &&
	test "$(bot_sink_count)" -eq 0 &&
	test "$(state_of $J mail)" = outbox &&
	echo "emulated (QEMU TCG): its numbers say nothing of the kernel (reply.emulated = outbox)" >expect &&
	state_of $J mail_why >actual &&
	test_cmp expect actual &&
	test_grep "the reply stays in the outbox, sent to no one: emulated (QEMU TCG)" tcg.err
'

test_expect_success '... the outbox holds it, unsent, and nothing is pending' '
	mid=$(state_of $J reply_msgid) &&
	test -f "tcg-outbox/new/$mid" &&
	test_grep "^Message-ID: <$mid>$" "tcg-outbox/new/$mid" &&
	test_grep ! "^Tested-by:" "tcg-outbox/new/$mid" &&
	SCHED_BOT_CONFIG=tcg.cfg "$SCHED_BOT" cron --no-poll --send 2>cron.err &&
	test "$(bot_sink_count)" -eq 0 &&
	test -f "tcg-outbox/new/$mid"
'

test_expect_success '... and status shows it, where it went and why' '
	rc=0 &&
	SCHED_BOT_CONFIG=tcg.cfg "$SCHED_BOT" status >st.out || rc=$? &&
	test $rc -le 1 &&
	grep "^off the list:" st.out >actual &&
	echo "off the list: job 1 <$COVER>: outbox, emulated (QEMU TCG): its numbers say nothing of the kernel (reply.emulated = outbox)" >expect &&
	test_cmp expect actual &&
	rc=0 &&
	SCHED_BOT_CONFIG=tcg.cfg "$SCHED_BOT" status --json >st.json || rc=$? &&
	test $rc -le 1 &&
	jq -r ".off_list[] | \"\(.job) \(.mail) \(.msgid)\"" st.json >actual &&
	echo "1 outbox $COVER" >expect &&
	test_cmp expect actual
'

test_expect_success 'reply.emulated = list: sent to every To and Cc of the patch mail' '
	rm -f sink/* &&
	policy_config tcglist.cfg tcglist &&
	git config -f tcglist.cfg reply.emulated list &&
	git config -f tcglist.cfg reply.maxRecipients 0 &&
	run_job tcglist.cfg job-tcg tcglist &&
	test "$(state_of tcglist mail)" = list &&
	test "$(bot_sink_count)" -eq 1 &&
	m=$(ls sink/*) &&
	sed -n "s/^X-Rcpt-Args: <\(.*\)>.*/\1/p" "$m" | sort -u >actual &&
	cover_addresses >expect &&
	test "$(wc -l <expect)" -gt 20 &&
	test_cmp expect actual &&
	test_grep "^Cc: linux-kernel@vger.kernel.org, Peter Zijlstra <peterz@infradead.org>,$" "$m" &&
	test_grep ! "^Tested-by:" "$m"
'

test_expect_success 'a reply to all is capped at reply.maxRecipients, the lists kept first' '
	rm -f sink/* &&
	policy_config cap.cfg cap &&
	git config -f cap.cfg reply.emulated list &&
	git config -f cap.cfg reply.maxRecipients 4 &&
	run_job cap.cfg job-tcg cap &&
	m=$(ls sink/*) &&
	sed -n "s/^X-Rcpt-Args: <\(.*\)>.*/\1/p" "$m" | sort >actual &&
	printf "%s\n" linux-kernel@vger.kernel.org peterz@infradead.org \
		vincent.guittot@linaro.org yu.c.chen@intel.com >expect &&
	test_cmp expect actual
'

test_expect_success 'reply.emulated = author: to the author alone, once a thread' '
	rm -f sink/* &&
	policy_config priv.cfg priv &&
	git config -f priv.cfg reply.emulated author &&
	run_job priv.cfg job-tcg priv1 &&
	test "$(state_of priv1 mail)" = author &&
	test "$(bot_sink_count)" -eq 1 &&
	m=$(ls sink/*) &&
	sed -n "s/^X-Rcpt-Args: <\(.*\)>.*/\1/p" "$m" >actual &&
	echo yu.c.chen@intel.com >expect &&
	test_cmp expect actual &&
	test_grep ! "^Cc:" "$m" &&
	run_job priv.cfg job-tcg priv2 &&
	test "$(bot_sink_count)" -eq 1 &&
	test "$(state_of priv2 mail)" = outbox &&
	echo "the author had this series'\'' one private mail already, <$(state_of priv1 reply_msgid)>" >expect &&
	state_of priv2 mail_why >actual &&
	test_cmp expect actual
'

# kind FIXTURE-EDIT: what the policy says of each, its reason whole.
test_expect_success 'noisy, identical binaries, a duplicate: nothing reaches a list' '
	rm -f sink/* &&
	policy_config quiet.cfg quiet &&
	git config -f quiet.cfg target.qemu.vouch true &&
	run_job quiet.cfg job-noisy noisy &&
	run_job quiet.cfg job-identical identical &&
	bot_job job-tested dup &&
	sed -i "s/^outcome=.*/outcome=duplicate/" dup/state &&
	echo "same_as=$TRASH/noisy" >>dup/state &&
	echo "Its patches were measured as job 2." >dup/failure.txt &&
	rc=0 && SCHED_BOT_CONFIG=quiet.cfg "$SCHED_BOT" test --job-dir dup \
		>dup.out 2>dup.err || rc=$? &&
	test $rc -le 1 &&
	test "$(bot_sink_count)" -eq 0 &&
	for j in noisy identical dup; do
		echo "$j $(state_of $j mail): $(state_of $j mail_why)"
	done >actual &&
	cat >expect <<-EOF &&
	noisy outbox: too noisy to call: nothing to vouch for
	identical outbox: identical binaries: nothing was measured
	dup outbox: a duplicate: its patches were tested as $TRASH/noisy
	EOF
	test_cmp expect actual
'

test_expect_success 'an apply failure on the default tree reaches no list' '
	rm -f sink/* &&
	policy_config apply.cfg apply &&
	run_job apply.cfg job-apply-failed applydef &&
	test "$(bot_sink_count)" -eq 0 &&
	echo "outbox: an apply failure on HEAD (default base), a base the series did not name" >expect &&
	echo "$(state_of applydef mail): $(state_of applydef mail_why)" >actual &&
	test_cmp expect actual &&
	test_grep "^Adding a base-commit: line" applydef/reply.eml
'

test_expect_success 'one on the base the series names goes to the list, no base-commit: advice' '
	rm -f sink/* &&
	bot_job job-apply-failed applynamed &&
	sed -i "s/^base_desc=.*/base_desc=v6.1-rc6 (base-commit)/" applynamed/state &&
	sed -i "/^base_hint=/d" applynamed/state &&
	printf "%s\n" series_base=v6.1-rc6 base_named=1 >>applynamed/state &&
	rc=0 && SCHED_BOT_CONFIG=apply.cfg "$SCHED_BOT" test \
		--job-dir applynamed 2>applynamed.err || rc=$? &&
	test $rc -eq 1 &&
	test "$(state_of applynamed mail)" = list &&
	test "$(bot_sink_count)" -eq 1 &&
	m=$(ls sink/*) &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep ! "base-commit:" "$m"
'

test_expect_success 'a build failure of the patched kernel is listed; of the base, kept' '
	rm -f sink/* &&
	policy_config build.cfg build &&
	run_job build.cfg job-build-failed bpatched &&
	test "$(state_of bpatched mail)" = list &&
	test "$(bot_sink_count)" -eq 1 &&
	# a boot failure: the patched kernel did not run where the base did
	bot_job job-build-failed boot &&
	sed -i -e "s/^outcome=.*/outcome=boot-failed/" -e "/^failed_which=/d" boot/state &&
	rc=0 && SCHED_BOT_CONFIG=build.cfg "$SCHED_BOT" test --job-dir boot \
		2>boot.err || rc=$? &&
	test $rc -eq 1 &&
	test "$(state_of boot mail)" = list &&
	test "$(bot_sink_count)" -eq 2 &&
	bot_job job-build-failed bbase &&
	sed -i "s/^failed_which=.*/failed_which=base/" bbase/state &&
	rc=0 && SCHED_BOT_CONFIG=build.cfg "$SCHED_BOT" test --job-dir bbase \
		2>bbase.err || rc=$? &&
	test $rc -eq 1 &&
	test "$(bot_sink_count)" -eq 2 &&
	echo "outbox: the base kernel failed too: not the patch'\''s fault" >expect &&
	echo "$(state_of bbase mail): $(state_of bbase mail_why)" >actual &&
	test_cmp expect actual
'

test_expect_success 'a KVM guest does not vouch unless declared: no Tested-by, not listed' '
	rm -f sink/* &&
	policy_config fit.cfg fit &&
	run_job fit.cfg job-tested kvm &&
	test "$(bot_sink_count)" -eq 0 &&
	echo "outbox: target qemu is not fit to vouch (target.qemu.vouch)" >expect &&
	echo "$(state_of kvm mail): $(state_of kvm mail_why)" >actual &&
	test_cmp expect actual &&
	test_grep ! "^Tested-by:" kvm/reply.eml &&
	git config -f fit.cfg target.qemu.vouch true &&
	run_job fit.cfg job-tested kvmfit &&
	test "$(state_of kvmfit mail)" = list &&
	test "$(bot_sink_count)" -eq 1 &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" sink/*
'

test_expect_success '... its regression goes to the moderators when there are some' '
	rm -f sink/* &&
	policy_config mod.cfg mod &&
	git config -f mod.cfg bot.moderators mod@kernel.example &&
	run_job mod.cfg job-regression modreg &&
	test "$(state_of modreg mail)" = moderators &&
	test "$(bot_sink_count)" -eq 1 &&
	m=$(ls sink/*) &&
	sed -n "s/^X-Rcpt-Args: <\(.*\)>.*/\1/p" "$m" >actual &&
	echo mod@kernel.example >expect &&
	test_cmp expect actual &&
	sed "1,/^\$/d" "$m" | tr -s "\n" " " >note &&
	test_grep "holds a report for a moderator. Why: target qemu is not fit to vouch (target.qemu.vouch). The mail attached" note
'

test_expect_success 'an ssh machine vouches by default' '
	rm -f sink/* &&
	policy_config ssh.cfg ssh &&
	git config -f ssh.cfg target.box.type ssh &&
	bot_job job-tested box &&
	sed -i "s/^target=.*/target=box/" box/state &&
	SCHED_BOT_CONFIG=ssh.cfg "$SCHED_BOT" test --job-dir box 2>box.err &&
	test "$(state_of box mail)" = list &&
	test "$(bot_sink_count)" -eq 1 &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" sink/*
'

test_expect_success 'a bad reply.emulated is refused: nothing sent' '
	rm -f sink/* &&
	policy_config bad.cfg bad &&
	git config -f bad.cfg reply.emulated lists &&
	bot_job job-tcg badj &&
	rc=0 && SCHED_BOT_CONFIG=bad.cfg "$SCHED_BOT" test --job-dir badj \
		2>bad.err || rc=$? &&
	test $rc -ne 0 &&
	test_grep "reply.emulated must be outbox, author or list, not .lists." bad.err &&
	test "$(bot_sink_count)" -eq 0
'

test_done
