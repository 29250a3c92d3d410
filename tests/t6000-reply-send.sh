#!/bin/sh
# The reply of `sched-bot test`: composed from a job directory, written
# to the outbox (dry run) or sent to a real SMTP server (smtp-sink),
# threaded under the cover letter, with Tested-by only when nothing
# regressed; SMTP down keeps it in the outbox for the next run; the
# password never appears in any output.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-bot.sh"

[ -x "$SMTP_SINK" ] || test_skip_all "smtp-sink not installed (contrib/install-deps)"
bot_sink_start || test_fail_all "smtp-sink does not start"

CFG=$TRASH/bot.cfg
bot_config "$CFG"
export SCHED_BOT_CONFIG=$CFG
COVER=cover.1669862147.git.yu.c.chen@intel.com

test_expect_success 'dry run writes the reply to the outbox and prints it' '
	bot_job job-tested dry &&
	"$SCHED_BOT" test --job-dir dry >out 2>err &&
	path=$(cat out) &&
	case "$path" in */bot-data/outbox/new/*) ;; *) false ;; esac &&
	test -f "$path" &&
	test "$(bot_sink_count)" -eq 0 &&
	test_grep "^In-Reply-To: <$COVER>$" "$path"
'

test_expect_success 'the dry-run reply is well formed' '
	m=$(cat out) &&
	test_grep "^From: Sched Bot <bot@sched-bot.example.org>$" "$m" &&
	test_grep "^To: Chen Yu <yu.c.chen@intel.com>$" "$m" &&
	# reply.cc = all (the default): every To and Cc, the list first
	test_grep "^Cc: linux-kernel@vger.kernel.org," "$m" &&
	test_grep "<tim.c.chen@intel.com>" "$m" &&
	test_grep "peterz@infradead.org" "$m" &&
	test_grep "^Subject: Re: \[PATCH v3 0/2\] sched/fair: Choose the CPU" "$m" &&
	test_grep "^References: <$COVER>$" "$m" &&
	grep -Eq "^Message-ID: <[0-9]{14}\.[0-9a-f]{16}@sched-bot.example.org>$" "$m" &&
	test_grep "^Content-Type: text/plain; charset=utf-8$" "$m" &&
	test_grep "^> The main purpose of this change" "$m" &&
	test_grep ! "^> This patch set inhibits" "$m" &&
	test_grep "spawn.lps" "$m" &&
	test_grep "^Verdict: no significant change" "$m" &&
	test_grep "^    sched-bot test .$COVER. " "$m" &&
	test "$(grep -c "^Tested-by: Sched Bot <bot@sched-bot.example.org>$" "$m")" -eq 1 &&
	! awk "length > 998" "$m" | test_grep . &&
	! sed "1,/^\$/d" "$m" | grep -v "^    " | grep -v "^>" | awk "length > 72" | test_grep .
'

test_expect_success '--send delivers one mail to the SMTP server' '
	bot_job job-tested sent &&
	"$SCHED_BOT" test --job-dir sent --send &&
	test "$(bot_sink_count)" -eq 1 &&
	m=$(ls sink/*) &&
	test_grep "^X-Mail-Args: <bot@sched-bot.example.org>" "$m" &&
	test_grep "^X-Rcpt-Args: <yu.c.chen@intel.com>" "$m" &&
	test_grep "^X-Rcpt-Args: <linux-kernel@vger.kernel.org>" "$m" &&
	test_grep "^In-Reply-To: <$COVER>" "$m" &&
	test_grep "^Tested-by: Sched Bot <bot@sched-bot.example.org>" "$m" &&
	from=$(sed -n "s/^From: .*<\(.*\)>$/\1/p" "$m") &&
	tb=$(sed -n "s/^Tested-by: .*<\(.*\)>$/\1/p" "$m") &&
	test "$from" = "$tb" &&
	ls bot-data/outbox/cur | test_grep ":2,S$"
'

test_expect_success 'running the finished job again sends nothing' '
	"$SCHED_BOT" test --job-dir sent --send &&
	test "$(bot_sink_count)" -eq 1
'

test_expect_success 'a regression gets a report without Tested-by' '
	rm -f sink/* &&
	bot_job job-regression reg &&
	rc=0 && "$SCHED_BOT" test --job-dir reg --send || rc=$? &&
	test $rc -eq 5 &&
	m=$(ls sink/*) &&
	test_grep ! "Tested-by" "$m" &&
	test_grep "^sched-bot noticed a -12.4% regression of spawn.lps on:$" "$m" &&
	test_grep "^- spawn lps: -12.4%" "$m" &&
	test_grep "^    sched-bot test" "$m"
'

test_expect_success 'SMTP refusing: the mail stays in the outbox' '
	rm -f sink/* &&
	bot_job job-tested down &&
	bot_config down.cfg "$(free_port)" &&
	rc=0 && SCHED_BOT_CONFIG=down.cfg "$SCHED_BOT" test --job-dir down --send 2>err || rc=$? &&
	test $rc -eq 4 &&
	test_grep "stays in" err &&
	mid=$(sed -n "s/^reply_msgid=//p" down/state) &&
	test -f "bot-data/outbox/new/$mid" &&
	test "$(bot_sink_count)" -eq 0
'

test_expect_success '... and the next run delivers it, once' '
	mid=$(sed -n "s/^reply_msgid=//p" down/state) &&
	"$SCHED_BOT" test --job-dir down --send &&
	test "$(bot_sink_count)" -eq 1 &&
	test_grep "^Message-ID: <$mid>" sink/* &&
	test ! -f "bot-data/outbox/new/$mid" &&
	"$SCHED_BOT" test --job-dir down --send &&
	test "$(bot_sink_count)" -eq 1
'

test_expect_success 'the SMTP password is never printed or stored' '
	bot_job job-tested pw &&
	bot_config pw.cfg &&
	git config -f pw.cfg smtp.user bot &&
	git config -f pw.cfg smtp.tls none &&
	git config -f pw.cfg bot.maxPerThread 0 &&
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=s3cr3t-Pa55 SCHED_BOT_CONFIG=pw.cfg \
		"$SCHED_BOT" -v test --job-dir pw --send >pw.out 2>pw.err || rc=$? &&
	test $rc -ne 0 &&
	test_grep "smtp: sending to" pw.err &&
	test_grep ! -r "s3cr3t-Pa55" pw.out pw.err bot-data pw &&
	echo "s3cr3t-FiLe" >pwfile &&
	git config -f pw.cfg smtp.passwordFile "$TRASH/pwfile" &&
	# the same refused login, with the password read from the file:
	# the absence below is in the output of a send that was tried
	rc=0 &&
	SCHED_BOT_CONFIG=pw.cfg "$SCHED_BOT" -v test --job-dir pw --send \
		>pw.out 2>pw.err || rc=$? &&
	test $rc -ne 0 &&
	test_grep "smtp: sending to" pw.err &&
	SCHED_BOT_CONFIG=pw.cfg "$SCHED_BOT" config --list >>pw.out 2>&1 &&
	test_grep "^smtp.passwordFile=$TRASH/pwfile" pw.out &&
	test_grep ! -r "s3cr3t-FiLe" pw.out pw.err bot-data pw
'

test_expect_success 'with a password, smtp:// insists on STARTTLS: nothing sent in clear' '
	rm -f sink/* &&
	bot_job job-tested tls &&
	bot_config tls.cfg &&
	git config -f tls.cfg smtp.user bot &&
	git config -f tls.cfg bot.maxPerThread 0 &&
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=s3cr3t-TlS SCHED_BOT_CONFIG=tls.cfg \
		"$SCHED_BOT" test --job-dir tls --send 2>tls.err || rc=$? &&
	test $rc -eq 4 &&
	test_grep "STARTTLS" tls.err &&
	test "$(bot_sink_count)" -eq 0 &&
	test_grep ! s3cr3t-TlS tls.err &&
	test_grep ! "s3cr3t" "$TRASH/sink.log"
'


# reply_body MAIL: the body of a composed mail.
reply_body() {
	sed "1,/^\$/d" "$1"
}

test_expect_success 'an emulated (TCG) run: no Tested-by, it tests the pipeline' '
	bot_job job-tested tcg &&
	sed -i "s/, kvm)/, tcg)/" tcg/machine.txt &&
	"$SCHED_BOT" test --job-dir tcg >out &&
	m=$(cat out) &&
	test_grep ! "^Tested-by:" "$m" &&
	reply_body "$m" | tr "\n" " " >flat &&
	test_grep "tests the pipeline, not the kernel" flat
'

test_expect_success 'a TCG machine column in results.csv is emulated too' '
	bot_job job-tested tcgcsv &&
	printf "%s\n" "label,kernel,workload,params,run,metric,value,unit,higher_is_better,sample,machine" \
		"patched,6.1,spawn,,1,lps,1,lps,1,0,qemu-tcg-smp2" >tcgcsv/results.csv &&
	"$SCHED_BOT" test --job-dir tcgcsv >out &&
	test_grep ! "^Tested-by:" "$(cat out)" &&
	reply_body "$(cat out)" | tr "\n" " " >flat &&
	test_grep "tests the pipeline, not the kernel" flat
'

test_expect_success 'a noisy verdict: no Tested-by' '
	bot_job job-tested noisy &&
	echo "Verdict: no significant regression, but some results were too noisy to judge changes below 10%." >noisy/verdict.txt &&
	"$SCHED_BOT" test --job-dir noisy >out &&
	m=$(cat out) &&
	test_grep ! "^Tested-by:" "$m" &&
	test_grep "^Too noisy to vouch for this series (v3, 2 patches), no Tested-by:$" "$m" &&
	test "$(grep -c "^Verdict:" "$m")" -eq 1
'

test_expect_success 'a placeholder bot.email: --send refused (exit 2), no Tested-by' '
	rm -f sink/* &&
	bot_config ph.cfg &&
	git config -f ph.cfg bot.email sched-bot@localhost &&
	bot_job job-tested ph &&
	rc=0 && SCHED_BOT_CONFIG=ph.cfg "$SCHED_BOT" test --job-dir ph --send 2>err || rc=$? &&
	test $rc -eq 2 &&
	test_grep "bot.email" err &&
	test "$(bot_sink_count)" -eq 0 &&
	git config -f ph.cfg bot.email bot@example.org &&
	rc=0 && SCHED_BOT_CONFIG=ph.cfg "$SCHED_BOT" cron --send 2>err || rc=$? &&
	test $rc -eq 2 &&
	test_grep "bot.email" err &&
	git config -f ph.cfg --unset bot.email &&
	SCHED_BOT_CONFIG=ph.cfg "$SCHED_BOT" test --job-dir ph >out 2>err &&
	test_grep ! "^Tested-by:" "$(cat out)" &&
	test_grep "placeholder" err &&
	test "$(bot_sink_count)" -eq 0
'

test_expect_success 'the greeting is the display name as written' '
	test_grep "^Hello Chen Yu,$" "$(cat out)" &&
	bot_job job-tested utf &&
	sed -i "s/^From: *Chen Yu <yu.c.chen@intel.com>/From: =?UTF-8?Q?J=C3=B6rg_M=C3=BCller-L=C3=BCdenscheidt?= <yu.c.chen@intel.com>/" utf/thread.mbox &&
	"$SCHED_BOT" test --job-dir utf >out &&
	test_grep "^Hello Jörg Müller-Lüdenscheidt,$" "$(cat out)"
'

test_expect_success 'the facts: base and stated base, compiler, config, the target' '
	bot_job job-tested facts &&
	sed -i "s/^base_desc=.*/base_desc=v6.1.192 (default base)/" facts/state &&
	echo series_base=v6.1-rc6 >>facts/state &&
	printf "%s\n" "CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"" \
		CONFIG_HZ=250 CONFIG_SCHED_AUTOGROUP=y CONFIG_PREEMPT_VOLUNTARY=y \
		CONFIG_NO_HZ_IDLE=y CONFIG_FAIR_GROUP_SCHED=y >kconfig &&
	echo "config_head=$TRASH/kconfig" >>facts/state &&
	mkdir facts/run-1-head &&
	printf "%s\n" "env,cpu_model,AMD EPYC 7713 64-Core Processor" env,sockets,2 \
		env,cores_per_socket,64 env,threads_per_core,2 env,smt_active,1 \
		env,numa_nodes,8 env,mem_total_kb,263921408 \
		env,cpufreq_governor,performance "env,cmdline,BOOT_IMAGE=/vmlinuz ro quiet" \
		>facts/run-1-head/env.txt &&
	echo "sched-bench spawn -c 2 -t 5 --run 1" >facts/run-1-head/commands.txt &&
	"$SCHED_BOT" test --job-dir facts >out &&
	m=$(cat out) &&
	reply_body "$m" | tr -s " \n" "  " >flat &&
	test_grep "the series names v6.1-rc6 as its base, but it was tested on v6.1.192" flat &&
	test_grep "^- base: *v6.1.192 (default base), commit 0123456789ab" "$m" &&
	test_grep "^- compiler: gcc (Debian 12.2.0-14) 12.2.0$" "$m" &&
	test_grep "CONFIG_SCHED_AUTOGROUP=y" flat &&
	test_grep "CONFIG_PREEMPT_VOLUNTARY=y" flat &&
	test_grep "CONFIG_HZ=250" flat &&
	test -f facts/config-patched &&
	test_grep "AMD EPYC 7713 64-Core Processor" flat &&
	test_grep "2 x 64C/128T AMD EPYC 7713 64-Core Processor, 8 NUMA nodes, SMT on" flat &&
	test_grep "4 per socket (NPS4)" flat &&
	test_grep "257735 MB" flat &&
	test_grep "governor performance" flat &&
	test_grep "BOOT_IMAGE=/vmlinuz ro quiet" flat &&
	test_grep "^    sched-bench spawn -c 2 -t 5 --run 1$" "$m" &&
	test_grep ! "Intel(R) Xeon(R) CPU (host" "$m"
'

test_expect_success 'a cmdline word longer than a line is cut with "..."' '
	bot_job job-tested longword &&
	mkdir longword/run-1-head &&
	word=$(printf "x%.0s" $(seq 1 120)) &&
	printf "%s\n" "env,cpu_model,AMD EPYC 7713 64-Core Processor" \
		"env,cmdline,ro sb.exec.hackbench=/usr/bin/hackbench,$word quiet" \
		>longword/run-1-head/env.txt &&
	"$SCHED_BOT" test --job-dir longword >out &&
	m=$(cat out) &&
	reply_body "$m" | perl -CS -ne "print if length(\$_) > 73" >long &&
	test ! -s long &&
	test_grep "^ *sb.exec.hackbench=/usr/bin/hackbench,xxx*\.\.\.$" "$m" &&
	test_grep "^ *quiet$" "$m"
'

test_expect_success 'every body line fits 72 columns, indented ones too' '
	: >long &&
	for m in $(ls bot-data/outbox/new/* bot-data/outbox/cur/* 2>/dev/null); do
		reply_body "$m" | perl -CS -ne "print if length(\$_) > 73" >>long
	done &&
	test ! -s long
'

test_expect_success 'the reproduce line is safe in sh with a hostile Message-ID' '
	bot_job job-tested evil &&
	sed -i "s/^msgid=.*/msgid=x'\''\$(touch F)'\''@e/" evil/state &&
	"$SCHED_BOT" test --job-dir evil >out &&
	m=$(cat out) &&
	sed -n "/^    sched-bot test /,/[^\\\\]\$/p" "$m" >repro &&
	test_grep "sched-bot test" repro &&
	# the target is for the reader to name: a word in its place
	{ echo "sched_bot() { printf \"%s\\n\" \"\$2\" >arg; }"; sed -e "s/^ *//" -e "s/^sched-bot/sched_bot/" -e "s/<your machine>/mine/" repro; } >repro.sh &&
	sh repro.sh &&
	test ! -e F &&
	echo "x'\''\$(touch F)'\''@e" >expect &&
	test_cmp expect arg
'
# The password of the tests below, reversed and base64-encoded.
PW=s3cr3t-Pa55-Env
PW_REV=vnE-55aP-t3rc3s
PW_B64=$(printf %s "$PW" | base64)

# own_config FILE NAME [PORT]: bot_config with a state database and an
# outbox of its own, so that no mail left pending by the tests above is
# sent with it; no per-thread cap (every job here is the same thread).
own_config() {
	bot_config "$1" ${3:-} &&
	git config -f "$1" state.db "$TRASH/$2.db" &&
	git config -f "$1" outbox.dir "$TRASH/$2-outbox" &&
	git config -f "$1" bot.maxPerThread 0
}

test_expect_success 'a reply that would carry the password reversed is refused' '
	rm -f sink/* &&
	bot_job job-tested rev &&
	own_config rev.cfg rev &&
	# an RFC 2047 subject: the filter sees only its base64
	sed -i "s/^Subject: \[PATCH v3 0\/2\] sched\/fair: Choose the CPU.*/Subject: [PATCH v3 0\/2] =?UTF-8?Q?J=C3=B6rg?= $PW_REV/" rev/thread.mbox &&
	test_grep "$PW_REV" rev/thread.mbox &&
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=$PW SCHED_BOT_CONFIG=rev.cfg \
		"$SCHED_BOT" test --job-dir rev --send >rev.out 2>rev.err ||
		rc=$? &&
	test $rc -eq 1 &&
	test_grep "is not sent: it carries the SMTP password (\$SCHED_BOT_SMTP_PASSWORD), reversed" rev.err &&
	test "$(bot_sink_count)" -eq 0 &&
	mid=$(sed -n "s/^reply_msgid=//p" rev/state) &&
	test -n "$mid" &&
	! ls rev-outbox/new rev-outbox/cur 2>/dev/null | test_grep . &&
	! grep -r -e "$PW" -e "$PW_REV" rev.out rev.err
'

test_expect_success '... and the step runs again once the cause is gone' '
	sed -i "s/^Subject: .*/Subject: Re: [PATCH v3 0\/2] fixed/" rev/reply.eml &&
	SCHED_BOT_SMTP_PASSWORD=$PW SCHED_BOT_CONFIG=rev.cfg \
		"$SCHED_BOT" test --job-dir rev --send &&
	test "$(bot_sink_count)" -eq 1
'

test_expect_success 'a queued mail that carries the password base64-encoded is not sent' '
	rm -f sink/* &&
	bot_job job-tested b64 &&
	own_config b64.cfg b64 &&
	own_config b64-down.cfg b64 "$(free_port)" &&
	sed -i "s/^The main purpose of this change/The main purpose $PW_B64 of this change/" b64/thread.mbox &&
	# queued while the server is down and the password not yet set
	rc=0 && SCHED_BOT_CONFIG=b64-down.cfg \
		"$SCHED_BOT" test --job-dir b64 --send 2>/dev/null || rc=$? &&
	test $rc -eq 4 &&
	mid=$(sed -n "s/^reply_msgid=//p" b64/state) &&
	test_grep "$PW_B64" "b64-outbox/new/$mid" &&
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=$PW SCHED_BOT_CONFIG=b64.cfg \
		"$SCHED_BOT" test --job-dir b64 --send >b64.out 2>b64.err ||
		rc=$? &&
	test $rc -ne 0 &&
	test_grep "<$mid> is not sent: it carries the SMTP password (\$SCHED_BOT_SMTP_PASSWORD), base64-encoded" b64.err &&
	test "$(bot_sink_count)" -eq 0 &&
	test -f "b64-outbox/new/$mid" &&
	! grep -e "$PW" -e "$PW_B64" b64.out b64.err
'

test_expect_success 'SMTP AUTH uses the password of the environment' '
	bot_job job-tested auth &&
	own_config auth.cfg auth &&
	git config -f auth.cfg smtp.user bot &&
	git config -f auth.cfg smtp.tls none &&
	# smtp-sink offers no AUTH: curl fails at it, after the bot gave
	# it the password that the tool took out of its environment
	rc=0 &&
	SCHED_BOT_SMTP_PASSWORD=$PW SCHED_BOT_CONFIG=auth.cfg \
		"$SCHED_BOT" test --job-dir auth --send 2>auth.err || rc=$? &&
	test $rc -ne 0 &&
	test_grep ! "no password" auth.err &&
	test_grep "smtp: sending to" auth.err &&
	rc=0 && SCHED_BOT_CONFIG=auth.cfg \
		"$SCHED_BOT" test --job-dir auth --send 2>noauth.err || rc=$? &&
	test $rc -ne 0 &&
	test_grep "smtp.user is set but no password" noauth.err
'


test_done
