# tests/lib-machine.sh - a QEMU guest that plays the ssh target's box:
# it boots its own default kernel (the tests' base build) with a small
# root in an initramfs holding this host's OpenSSH sshd, kexec-tools,
# dash as /bin/sh and the few tools the ssh target runs, each with its
# shared libraries and loader (ldd), as target/tools.c ships them.
# Its init brings up eth0 (10.0.2.15/24, QEMU's user network, which
# only forwards one port of 127.0.0.1 to its sshd: restrict=on) and
# runs sshd with the test's key.  The console goes to a file, across
# reboots; QEMU's monitor socket takes system_reset, the power button.
#
# After `. lib-machine.sh`, `machine_prereqs` and `machine_start BZIMAGE`:
#   $MACHINE_PORT     the host port of its sshd (127.0.0.1)
#   $MACHINE_ID       the private key its root accepts
#   $MACHINE_OPTS     ssh options that trust its host key only
#   $MACHINE_CONSOLE  its serial console, a file
#   $MACHINE_POWER    a command that power-cycles it (system_reset)
#   $MACHINE_INITRD   its initramfs, also inside it as /boot/initrd.img
#                     (the initrd a kernel kexec'ed there boots with)
#   $MACHINE_UP_SECONDS  QEMU start to sshd answering
# `machine_ssh CMD` runs CMD on it as root; the guest is stopped when
# the test ends.  Root only (sshd and the guest's root files).

machine_prereqs() {
	[ "$(id -u)" = 0 ] || test_skip_all "the test machine needs root here"
	for t in qemu-system-x86_64 cpio ssh ssh-keygen perl ldd dash ip; do
		command -v $t >/dev/null || test_skip_all "$t is not installed"
	done
	[ -x /usr/sbin/sshd ] || test_skip_all "OpenSSH's sshd is not installed"
	[ -x /usr/sbin/kexec ] ||
		test_skip_all "kexec-tools is not installed (contrib/install-deps)"
}

# machine_copy ROOT FILE...: each program with its libraries and loader
# at their host paths under ROOT.
machine_copy() {
	mc_root=$1
	shift
	for mc_f in "$@"; do
		for mc_p in "$mc_f" $(ldd "$mc_f" 2>/dev/null |
				      sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p
					      s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'); do
			cp -L --parents "$mc_p" "$mc_root/" || return 1
		done
	done
}

# machine_root DIR: the guest's initramfs, gzip'ed newc cpio, as
# DIR/initrd.img: the root, then a second archive holding the first as
# /boot/initrd.img (the kernel unpacks both).
machine_root() {
	mr_r=$1/root
	rm -rf "$mr_r" && mkdir -p "$mr_r" || return 1
	for mr_d in bin sbin lib lib64; do
		if [ -L /$mr_d ]; then
			mkdir -p "$mr_r/$(readlink /$mr_d)" &&
			ln -s "$(readlink /$mr_d)" "$mr_r/$mr_d"
		else
			mkdir -p "$mr_r/$mr_d"
		fi
	done
	mkdir -p "$mr_r/dev" "$mr_r/proc" "$mr_r/sys" "$mr_r/tmp" "$mr_r/root" "$mr_r/run/sshd" \
		"$mr_r/etc/ssh" "$mr_r/boot" "$mr_r/usr/bin" "$mr_r/usr/sbin" || return 1
	mknod "$mr_r/dev/console" c 5 1 || return 1
	mr_tools="/usr/sbin/sshd /usr/sbin/kexec $(command -v dash) $(command -v ip)"
	for mr_t in mount uname cat chmod mv mkdir rm sleep ls; do
		mr_tools="$mr_tools $(command -v $mr_t)" || return 1
	done
	machine_copy "$mr_r" $mr_tools || return 1
	ln -sf "$(command -v dash)" "$mr_r/bin/sh"
	# A reboot that returns, as a real one does: the reset comes later.
	cat >"$mr_r/sbin/reboot" <<-'EOF'
	#!/bin/sh
	{ sleep 1; echo b >/proc/sysrq-trigger; } >/dev/null 2>&1 </dev/null &
	EOF
	printf 'root:x:0:0:root:/root:/bin/sh\nsshd:x:100:65534::/run/sshd:/bin/false\n' \
		>"$mr_r/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$mr_r/etc/group"
	cp "$1/host_key" "$mr_r/etc/ssh/host_key" &&
	cp "$1/id.pub" "$mr_r/etc/ssh/authorized_keys" || return 1
	chmod 600 "$mr_r/etc/ssh/host_key" "$mr_r/etc/ssh/authorized_keys"
	cat >"$mr_r/etc/ssh/sshd_config" <<-'EOF'
	Port 22
	HostKey /etc/ssh/host_key
	AuthorizedKeysFile /etc/ssh/authorized_keys
	PidFile /run/sshd.pid
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	UseDNS no
	EOF
	cat >"$mr_r/init" <<-'EOF'
	#!/bin/sh
	export PATH=/usr/sbin:/usr/bin:/sbin:/bin
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	ip link set lo up
	ip addr add 10.0.2.15/24 dev eth0
	ip link set eth0 up
	ip route add default via 10.0.2.2
	echo "machine: up, boot $(cat /proc/sys/kernel/random/boot_id)"
	while :; do
		/usr/sbin/sshd -D -e -f /etc/ssh/sshd_config
		sleep 1
	done
	EOF
	chmod 755 "$mr_r/init" "$mr_r/sbin/reboot"
	(cd "$mr_r" && find . | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$1/root.img" || return 1
	rm -rf "$1/boot-root" && mkdir -p "$1/boot-root/boot" &&
	cp "$1/root.img" "$1/boot-root/boot/initrd.img" &&
	(cd "$1/boot-root" && find . | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$1/boot.img" &&
	cat "$1/root.img" "$1/boot.img" >"$1/initrd.img"
}

machine_ssh() {
	ssh -o BatchMode=yes -o ConnectTimeout=10 -p "$MACHINE_PORT" \
		-i "$MACHINE_ID" $MACHINE_OPTS root@127.0.0.1 "$@"
}

# machine_wait SECONDS: until its sshd answers.
machine_wait() {
	mw_end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt $mw_end ]; do
		machine_ssh true 2>/dev/null && return 0
		kill -0 "$machine_pid" 2>/dev/null || return 1
		sleep 1
	done
	return 1
}

machine_start() {
	MACHINE_DIR=$TRASH/machine
	d=$MACHINE_DIR
	mkdir -p "$d" &&
	ssh-keygen -q -t ed25519 -N "" -f "$d/host_key" &&
	ssh-keygen -q -t ed25519 -N "" -f "$d/id" &&
	machine_root "$d" || return 1
	MACHINE_INITRD=$d/initrd.img
	MACHINE_PORT=$(free_port)
	MACHINE_CONSOLE=$d/console.log
	MACHINE_ID=$d/id
	printf '[127.0.0.1]:%s %s\n' "$MACHINE_PORT" "$(cat "$d/host_key.pub")" \
		>"$d/known_hosts"
	MACHINE_OPTS="-o UserKnownHostsFile=$d/known_hosts -o StrictHostKeyChecking=yes"
	# The power button: system_reset on QEMU's monitor.
	cat >"$d/power" <<-EOF
	exec perl -MIO::Socket::UNIX -e '
		my \$s = IO::Socket::UNIX->new(Peer => "$d/monitor.sock")
			or die "monitor: \$!\n";
		print \$s "system_reset\n";
		sleep 1;'
	EOF
	MACHINE_POWER="sh $d/power"
	ms_start=$(date +%s)
	# TCG only: KVM guests hang on these hosts.  No -no-reboot: a
	# reset (reboot, panic=-1, system_reset) boots the default kernel
	# again, as a real machine's firmware would.
	qemu-system-x86_64 -accel tcg -smp 2 -m 512 -nodefaults \
		-display none -kernel "$1" -initrd "$MACHINE_INITRD" \
		-append "console=ttyS0 panic=-1" \
		-serial "file:$MACHINE_CONSOLE" \
		-monitor "unix:$d/monitor.sock,server=on,wait=off" \
		-netdev "user,id=n,restrict=on,hostfwd=tcp:127.0.0.1:$MACHINE_PORT-:22" \
		-device virtio-net-pci,netdev=n,romfile= \
		>"$d/qemu.log" 2>&1 &
	machine_pid=$!
	test_atexit "kill $machine_pid"
	if ! machine_wait 300; then
		echo "# the machine did not come up; its console:"
		tail -n 30 "$MACHINE_CONSOLE" "$d/qemu.log" | sed 's/^/# /'
		return 1
	fi
	MACHINE_UP_SECONDS=$(($(date +%s) - ms_start))
	echo "# machine: up in ${MACHINE_UP_SECONDS}s"
}
