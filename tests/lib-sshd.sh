# tests/lib-sshd.sh - an OpenSSH server of the test's own on 127.0.0.1,
# for the ssh target.  After `. lib-sshd.sh` and `start_sshd`:
#   $SSHD_PORT   its port
#   $SSH_ID      the private key it accepts (for root, the test's user)
#   $SSH_OPTS    ssh options that trust its host key and nothing else
# The server is stopped when the test ends.

start_sshd() {
	command -v ssh >/dev/null && command -v ssh-keygen >/dev/null &&
		[ -x /usr/sbin/sshd ] || test_skip_all "OpenSSH is not installed"
	[ "$(id -u)" = 0 ] || test_skip_all "sshd needs root here"
	# sshd refuses to start without its privilege separation directory.
	mkdir -p /run/sshd
	d=$TRASH/sshd
	mkdir -p "$d"
	ssh-keygen -q -t ed25519 -N "" -f "$d/host_key" || return 1
	ssh-keygen -q -t ed25519 -N "" -f "$d/id" || return 1
	cp "$d/id.pub" "$d/authorized_keys"
	chmod 600 "$d/authorized_keys"
	SSHD_PORT=$(free_port)
	cat >"$d/sshd_config" <<-CFG
	ListenAddress 127.0.0.1
	Port $SSHD_PORT
	HostKey $d/host_key
	AuthorizedKeysFile $d/authorized_keys
	PidFile $d/sshd.pid
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	CFG
	/usr/sbin/sshd -D -f "$d/sshd_config" -E "$d/sshd.log" &
	sshd_pid=$!
	test_atexit "kill $sshd_pid"
	printf '127.0.0.1 %s\n' "$(cat "$d/host_key.pub")" |
		sed "s/^127.0.0.1 /[127.0.0.1]:$SSHD_PORT /" >"$d/known_hosts"
	SSH_ID=$d/id
	SSH_OPTS="-o UserKnownHostsFile=$d/known_hosts -o StrictHostKeyChecking=yes"
	# Wait (bounded) until it answers.
	i=0
	while [ $i -lt 50 ]; do
		ssh -o BatchMode=yes -p "$SSHD_PORT" -i "$SSH_ID" $SSH_OPTS \
			root@127.0.0.1 true 2>/dev/null && return 0
		sleep 0.2
		i=$((i + 1))
	done
	cat "$d/sshd.log"
	return 1
}
