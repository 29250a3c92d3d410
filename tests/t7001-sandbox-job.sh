#!/bin/sh
# The attack of issue 14 through the whole job: a posted patch to the
# top Makefile of a (stand-in) kernel tree prints the SMTP password from
# the environment and the password file, and the lore credentials, into
# what looks like a compiler error.  `sched-bot test` applies it, builds
# base and patched kernels in the sandbox, and writes the build-failed
# reply: no secret in the reply, the outbox, the job's files or the
# bot's output.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs

SMTP_PW="smtp-pw-$$-Qa1"
ENV_PW="env-pw-$$-Ws2"
LORE_PW="lore-pw-$$-Ed3"
LEAKED="kernel/sched/fair.c:1:5: error: leaked"
CFGDIR=$XDG_CONFIG_HOME/sched-bot
mkdir -p "$CFGDIR"
echo "$SMTP_PW" >"$CFGDIR/smtp-password"
standin_job_config "$CFGDIR/config" ||
	test_fail_all "cannot write the configuration"
cat >>"$CFGDIR/config" <<EOF
[smtp]
	url = smtp://127.0.0.1:1
	user = bot
	passwordFile = $CFGDIR/smtp-password
[lore]
	url = http://reader:$LORE_PW@127.0.0.1:1/
EOF
export SCHED_BOT_SMTP_PASSWORD=$ENV_PW

# The stand-in tree (base), and the patch: a bzImage recipe that leaks.
standin_tree || test_fail_all "cannot make the stand-in tree"
cat >"$TRASH/leak.mk" <<EOF
bzImage:
	-cat $CFGDIR/smtp-password $CFGDIR/config
	@echo "$LEAKED [\$\$SCHED_BOT_SMTP_PASSWORD] [\$\$(cat $CFGDIR/smtp-password 2>/dev/null)]"
	@echo "$LEAKED [] [$SMTP_PW]"
	env
	exit 1
EOF

test_expect_success 'setup: the tree and the hostile patch mail' '
	sed -i "/^bzImage:/,\$d" tree/Makefile &&
	cat leak.mk >>tree/Makefile &&
	git -C tree -c user.name=Dev -c user.email=dev@example.org \
		commit -qam "sched/fair: faster ($SMTP_PW)" &&
	git -C tree format-patch -q -1 --stdout --base=base >patch.mbox &&
	sed -i "2i Message-ID: <hostile-1@example.org>\\
To: linux-kernel@vger.kernel.org" patch.mbox &&
	test_grep "^To: linux-kernel" patch.mbox &&
	git clone -q --bare tree repo.git
'

test_expect_success 'the job ends in a build-failed reply' '
	rc=0 &&
	"$SCHED_BOT" test --mbox patch.mbox --job-dir "$TRASH/J" --runs 1 \
		--workloads spawn >out 2>err || rc=$? &&
	test $rc -eq 1 &&
	test_grep -x "outcome: build-failed" err &&
	test_grep "did not build" J/reply.eml
'

test_expect_success 'the reply quotes the error, with nothing it read' '
	test_grep -x "    $LEAKED \[\] \[\]" J/reply.eml
'

test_expect_success 'a secret printed anyway is hidden in mail and logs' '
	test_grep -x "    $LEAKED \[\] \[<hidden>\]" J/reply.eml &&
	test_grep -x "$LEAKED \[\] \[<hidden>\]" J/build-head.log
'

test_expect_success 'no secret in the reply, outbox, job files or output' '
	for s in "$SMTP_PW" "$ENV_PW" "$LORE_PW"; do
		# thread.mbox is the attacker'"'"'s own mail, verbatim
		test_grep ! -r -F --exclude=thread.mbox "$s" J outbox out err ||
			return 1
	done &&
	ls outbox/new | grep -q .
'

test_expect_success 'the secret in the subject is hidden in the job files' '
	test_grep -F "$SMTP_PW" J/thread.mbox &&
	test_grep -r -F "faster (<hidden>)" J/reply.eml &&
	test_grep ! -r -F --exclude=thread.mbox "$SMTP_PW" J
'

test_expect_success 'no secret in the archive pages of the job' '
	mkdir -p jobs && cp -R J jobs/J &&
	"$SCHED_BOT" archive --jobs jobs --out A >aout 2>aerr &&
	ls A | grep -q html &&
	for s in "$SMTP_PW" "$ENV_PW" "$LORE_PW"; do
		test_grep ! -r -F "$s" A aout aerr || return 1
	done
'

test_done
