#!/bin/sh
# A hostile kernel tree: its Makefile tries what an attacker's patch
# would (read the SMTP password file in the bot's config directory and
# ~/.ssh/id_rsa, print the environment, write outside its build slot
# and into the tree, connect to a listener on 127.0.0.1, leave a child
# running, hang) and gets none of it.  A stand-in tree, a git repository
# with a Makefile that answers the targets `sched-bot build` asks for,
# replaces the kernel: the sandbox is the same.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs

# Unique per run: what must not appear anywhere, and the markers of
# the processes that must not survive.
SMTP_PW="smtp-pw-$$-Zq8"
ENV_PW="env-pw-$$-Kx3"
LORE_PW="lore-pw-$$-Jw5"
KEY="PRIVATE-KEY-$$-Hn2"
SLEEP_BG=$((30000 + $$ % 10000)).25
SLEEP_HANG=$((30000 + $$ % 10000)).75
CFGDIR=$XDG_CONFIG_HOME/sched-bot

mkdir -p "$CFGDIR" "$HOME/.ssh"
echo "$SMTP_PW" >"$CFGDIR/smtp-password"
chmod 600 "$CFGDIR/smtp-password"
echo "$KEY" >"$HOME/.ssh/id_rsa"
chmod 600 "$HOME/.ssh/id_rsa"
: >"$TRASH/empty.config"
cat >"$CFGDIR/config" <<EOF
[smtp]
	user = bot
	passwordFile = $CFGDIR/smtp-password
[lore]
	url = http://reader:$LORE_PW@127.0.0.1:1/
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	# a sandbox that let the build's child keep its output open would
	# hang the build: fail, not hang, the test
	timeout = 120
EOF
export SCHED_BOT_SMTP_PASSWORD=$ENV_PW

# A listener that records any connection (and says when it listens).
PORT=$(free_port)
perl -MIO::Socket::INET -e '
	my ($port, $dir) = @ARGV;
	my $l = IO::Socket::INET->new(Listen => 5, ReuseAddr => 1,
		LocalAddr => "127.0.0.1:$port") or die "listen: $!";
	open(my $r, ">", "$dir/listening"); close($r);
	while (my $c = $l->accept) {
		open(my $f, ">>", "$dir/connections"); print $f "one\n";
		close($f); close($c);
	}' "$PORT" "$TRASH" &
LISTENER=$!
test_atexit "kill $LISTENER"
i=0
while [ ! -e "$TRASH/listening" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done

# The stand-in tree (lib-hostile.sh).
standin_tree


cat >"$TRASH/attack" <<EOF
-cat $CFGDIR/smtp-password
-cat $CFGDIR/config
-cat \$\$HOME/.ssh/id_rsa $HOME/.ssh/id_rsa
-ls -la $HOME $CFGDIR /root
@echo "uid inside: \$\$(id -u)"
env
-echo planted >$TRASH/outside
-echo planted >>\$(CURDIR)/kernel/sched/fair.c
-echo planted >\$(CURDIR)/planted.c
-perl -MIO::Socket::INET -e 'IO::Socket::INET->new("127.0.0.1:$PORT") or print "connect: \$\$!\\n"'
(sleep $SLEEP_BG &); true
exit 1
EOF
hostile bzImage "$TRASH/attack" attack

# Every file the bot wrote or printed; none may hold a secret.
no_secret() {
	for s in "$SMTP_PW" "$ENV_PW" "$LORE_PW" "$KEY"; do
		test_grep ! -r -F "$s" "$@" || return 1
	done
}

test_expect_success 'the hostile build fails and is reported as failed' '
	rc=0 &&
	"$SCHED_BOT" build --tree tree --rev attack --base-config tinyconfig \
		--fragment "$TRASH/empty.config" -o out >stdout 2>stderr ||
		rc=$? &&
	test $rc -eq 1 &&
	test_grep -x "result: build failed" stdout &&
	log=$(sed -n "s/^log: //p" stdout) && cp "$log" build.log &&
	test_grep "exit 1" build.log
'

test_expect_success 'no secret in its output, log, excerpt or cache' '
	no_secret stdout stderr build.log out builds
'

test_expect_success 'it read neither the password file nor the ssh key' '
	test_grep "smtp-password: No such file" build.log &&
	test_grep "id_rsa: No such file" build.log &&
	test_grep ! "^SCHED_BOT_SMTP_PASSWORD=" build.log
'

test_expect_success 'its environment is the allowlist, HOME a scratch dir' '
	test_grep -x "HOME=/tmp/home" build.log &&
	test_grep "^PATH=" build.log &&
	test_grep ! "^XDG_" build.log &&
	test_grep ! "^SCHED_BOT" build.log &&
	test_grep ! "^TRASH=" build.log
'

test_expect_success 'it did not run as root' '
	test_grep "^uid inside: [0-9]" build.log &&
	test_grep ! "^uid inside: 0$" build.log
'

test_expect_success 'nothing written outside its slot, nor into the tree' '
	! test -e outside &&
	test_grep -e "fair.c: Read-only file system" -e "fair.c: Permission denied" build.log &&
	src=$(ls -d builds/slot-*/src) &&
	! test -e "$src/planted.c" &&
	echo "int x;" >expect && test_cmp expect "$src/kernel/sched/fair.c"
'

test_expect_success 'no connection reached the listener on 127.0.0.1' '
	test_grep "^connect: " build.log &&
	! test -e connections &&
	# the listener does record one from outside the sandbox
	perl -MIO::Socket::INET -e "IO::Socket::INET->new(q(127.0.0.1:$PORT))" &&
	# as soon as it is there; the bound only keeps a broken listener
	# from hanging the test (the old 5 s is short on a loaded machine)
	i=0 && while [ ! -e connections ] && [ $i -lt 1200 ]; do
		sleep 0.05; i=$((i + 1)); done &&
	test_grep -x one connections
'

test_expect_success 'no process of the build is left' '
	test_grep "sleep $SLEEP_BG" build.log &&
	test_grep ! -F "sleep $SLEEP_BG" <<-EOF
	$(ps -eo args)
	EOF
'

cat >"$TRASH/hang" <<EOF
(sleep $SLEEP_HANG &); true
sleep $SLEEP_HANG
EOF
hostile bzImage "$TRASH/hang" hang

sed "s/timeout = 120/timeout = 3/" "$CFGDIR/config" >"$TRASH/timeout.cfg"

test_expect_success 'a build that hangs is stopped at build.timeout' '
	rc=0 &&
	"$SCHED_BOT" --config "$TRASH/timeout.cfg" build --tree tree \
		--rev hang --base-config tinyconfig \
		--fragment "$TRASH/empty.config" >hout 2>herr || rc=$? &&
	test $rc -eq 1 &&
	test_grep -x "result: build failed" hout &&
	test_grep "did not finish within build.timeout (3 s)" hout
'

test_expect_success '... and none of its processes is left' '
	test_grep ! -F "sleep $SLEEP_HANG" <<-EOF
	$(ps -eo args)
	EOF
'

# A build that prints what it should never know (as if it had found a
# way): the excerpt that may be mailed holds compiler diagnostics on
# tree files only, and no secret.
cat >"$TRASH/leak" <<EOF
@echo "kernel/sched/fair.c:1:5: error: leaked $SMTP_PW and $LORE_PW"
@printf "kernel/sched/fair.c:2:5: error: \\\\033[2Jcleared\\\\n"
@echo "/root/.ssh/id_rsa:1:1: error: $KEY"
@echo "kernel/nosuchfile.c:1:1: error: made up"
@echo "SCHED_BOT_SMTP_PASSWORD=$ENV_PW"
exit 1
EOF
hostile bzImage "$TRASH/leak" leak

test_expect_success 'the excerpt: tree diagnostics only, secrets hidden' '
	rc=0 &&
	"$SCHED_BOT" build --tree tree --rev leak --base-config tinyconfig \
		--fragment "$TRASH/empty.config" >lout 2>lerr || rc=$? &&
	test $rc -eq 1 &&
	sed -n "/^errors:/,\$p" lout >excerpt &&
	test_grep -x "kernel/sched/fair.c:1:5: error: leaked <hidden> and <hidden>" excerpt &&
	test_grep -x "kernel/sched/fair.c:2:5: error: ?\[2Jcleared" excerpt &&
	test "$(wc -l <excerpt)" -eq 3 &&
	no_secret excerpt lerr
'

test_expect_success 'each build starts from a tree equal to its commit' '
	src=$(ls -d builds/slot-*/src) &&
	echo "int planted;" >>"$src/kernel/sched/fair.c" &&
	echo "int planted;" >"$src/kernel/sched/planted.c" &&
	mkdir "$src/stray" && echo x >"$src/stray/file" &&
	"$SCHED_BOT" build --tree tree --rev base --base-config tinyconfig \
		--fragment "$TRASH/empty.config" >bout 2>berr &&
	test_grep -x "result: built" bout &&
	! test -e "$src/kernel/sched/planted.c" &&
	! test -e "$src/stray" &&
	echo "int x;" >expect && test_cmp expect "$src/kernel/sched/fair.c" &&
	git -C tree ls-files | sort >files.commit &&
	# and the tree id stamp an older sched-bot reads, nothing else
	(cd "$src" && find . -type f ! -path ./.sched-bot-tree |
		sed "s|^\./||" | sort) >files.slot &&
	git -C tree rev-parse base^{tree} >expect &&
	test_cmp expect "$src/.sched-bot-tree" &&
	test_cmp files.commit files.slot
'

cat >"$TRASH/envdump" <<EOF
env >$TRASH/env.out
EOF
hostile bzImage "$TRASH/envdump" envdump
printf "[build]\n\tsandbox = false\n\tcacheDir = %s/b2\n" "$TRASH" \
	>"$TRASH/nosandbox.cfg"

test_expect_success 'unsandboxed: refused as root; else no secret in make' '
	rc=0 &&
	"$SCHED_BOT" --config "$TRASH/nosandbox.cfg" build --tree tree \
		--rev envdump --base-config tinyconfig \
		--fragment "$TRASH/empty.config" >nout 2>nerr || rc=$? &&
	if [ "$(id -u)" = 0 ]
	then
		test $rc -eq 1 &&
		test_grep "refusing to build as root without the sandbox" nerr &&
		! test -e env.out
	else
		test_grep "^HOME=" env.out &&
		test_grep ! "SCHED_BOT_SMTP_PASSWORD" env.out &&
		no_secret env.out
	fi
'

test_done
