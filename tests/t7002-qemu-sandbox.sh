#!/bin/sh
# QEMU boots untrusted kernels, so it runs in the sandbox builds run in:
# a real 6.1 kernel (lib-kernel.sh's cached build) still boots and gives
# rows, while the QEMU process has its own user, PID, mount, IPC, UTS
# and network namespaces, is not root, has no secret in its environment
# and cannot see the bot's config, keys or home.  Killing the bot kills
# QEMU.  A configured secret the guest prints (it is on the kernel's
# command line here) is in no file of the boot.
. "$(dirname "$0")/lib.sh"
test_tier kernel
. "$TESTS/lib-kernel.sh"

kernel_prereqs
command -v qemu-system-x86_64 >/dev/null || test_skip_all "QEMU is not installed"
command -v bwrap >/dev/null ||
	test_skip_all "bubblewrap is not installed (contrib/install-deps)"
command -v cpio >/dev/null || test_skip_all "cpio is not installed"
kernel_repo || test_fail_all "could not make the kernel repository"
kernel_config

SMTP_PW="smtp-pw-$$-Vb7"
ENV_PW="env-pw-$$-Nm8"
KEY="PRIVATE-KEY-$$-Lp9"
CFG=$XDG_CONFIG_HOME/sched-bot/config
mkdir -p "$HOME/.ssh"
echo "$KEY" >"$HOME/.ssh/id_rsa"
chmod 600 "$HOME/.ssh/id_rsa"
git config -f "$CFG" smtp.password "$SMTP_PW"
git config -f "$CFG" target.qemu.accel tcg
# the guest prints its command line: a configured secret on the console
git config -f "$CFG" target.qemu.append "sb_leak=$SMTP_PW"
export SCHED_BOT_SMTP_PASSWORD=$ENV_PW

# qemu_of DIR: the QEMU processes booting with DIR's initramfs
qemu_of() {
	found=1
	for d in /proc/[0-9]*; do
		c=
		read -r c 2>/dev/null <"$d/comm"
		case $c in
		qemu-system-*) ;;
		*) continue ;;
		esac
		if tr "\0" "\n" <"$d/cmdline" 2>/dev/null |
			grep -qx ".*$1/initramfs.cpio.gz"; then
			echo "${d#/proc/}"
			found=0
		fi
	done
	return $found
}

# wait_for CMD...: until CMD succeeds, at most 600 tries (a minute or more)
wait_for() {
	i=0
	while ! "$@" >/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || return 1
		sleep 0.1
	done
}

gone() {
	! test -d "/proc/$1"
}

# whatever happens, no boot of this test outlives it
test_atexit 'test -s "$TRASH/bot.pid" && kill -9 $(cat "$TRASH/bot.pid") 2>/dev/null'

test_expect_success 'the base kernel builds (or comes from the cache)' '
	"$SCHED_BOT" build --tree "$KREPO" --rev base -o base >out &&
	test -s base/bzImage
'

test_expect_success 'a boot in the sandbox gives rows' '
	"$SCHED_BOT" boot --target qemu --kernel base/bzImage \
		--workloads spawn,pingpong --runs 1 -t 1 --label base \
		--workdir boot -o rows.csv >boot.out 2>boot.err &&
	test_grep "^status: ok" boot.out &&
	test_grep "@@SB END" boot/console.log &&
	rel=$(sed -n "s/^release: //p" out) &&
	test_grep "^base,$rel,spawn," rows.csv &&
	test_grep "^base,$rel,pingpong," rows.csv &&
	test_grep ",qemu-tcg-smp2" rows.csv
'

test_expect_success 'the secret the guest printed is hidden in every file' '
	test_grep "Command line: .*sb_leak=<hidden>" boot/console.log &&
	for s in "$SMTP_PW" "$ENV_PW"; do
		test_grep ! -r -F "$s" boot rows.csv boot.out boot.err ||
			return 1
	done
'

test_expect_success 'start a long boot to look at its QEMU' '
	{ "$SCHED_BOT" boot --target qemu --kernel base/bzImage \
		--workloads spawn --runs 20 -t 5 --workdir long \
		-o long.csv >long.out 2>long.err & } &&
	echo $! >bot.pid &&
	wait_for qemu_of "$TRASH/long" &&
	qemu_of "$TRASH/long" >qemu.pid &&
	test $(wc -l <qemu.pid) -eq 1
'

test_expect_success 'QEMU has namespaces of its own, the network too' '
	q=$(cat qemu.pid) &&
	for ns in net pid user mnt ipc uts; do
		mine=$(readlink /proc/$$/ns/$ns) &&
		its=$(readlink /proc/$q/ns/$ns) &&
		test -n "$its" && test "$mine" != "$its" || {
			echo "ns/$ns: $its is ours ($mine)"; return 1; }
	done
'

test_expect_success 'QEMU is not root and has no secret in its environment' '
	q=$(cat qemu.pid) &&
	uid=$(awk "/^Uid:/ { print \$3 }" /proc/$q/status) &&
	test "$uid" != 0 &&
	tr "\0" "\n" </proc/$q/environ >qemu.env &&
	test_grep ! -F "$ENV_PW" qemu.env &&
	test_grep ! "^SCHED_BOT_" qemu.env &&
	test_grep ! "^HOME=$HOME" qemu.env
'

test_expect_success 'QEMU cannot see the bot config, keys or home' '
	q=$(cat qemu.pid) &&
	root=/proc/$q/root &&
	test -e "$root/usr/bin" &&
	test -e "$root$TRASH/base/bzImage" &&
	! test -e "$root$CFG" &&
	! test -e "$root$HOME/.ssh/id_rsa" &&
	! test -e "$root$TRASH/out" &&
	! test -e "$root/etc/shadow"
'

test_expect_success 'the kernel is read-only inside, only the scratch writable' '
	q=$(cat qemu.pid) &&
	awk -v k="$TRASH/base/bzImage" -v s="$TRASH/long/qemu" "
		\$5 == k { kseen = 1; if (\$6 !~ /^ro/) bad = 1 }
		\$5 == s { sseen = 1; if (\$6 !~ /^rw/) bad = 1 }
		END { exit bad || !kseen || !sseen }" /proc/$q/mountinfo
'

test_expect_success 'killing the bot leaves no QEMU running' '
	q=$(cat qemu.pid) &&
	kill -9 "$(cat bot.pid)" &&
	wait_for gone "$q" &&
	! qemu_of "$TRASH/long"
'

test_done
