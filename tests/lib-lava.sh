# tests/lib-lava.sh - a real LAVA (Debian 12's lava-server and
# lava-dispatcher 2023.01) on 127.0.0.1 for the lava target's tests.
#
#   . "$TESTS/lib-lava.sh"
#   lava_start || test_skip_all "..."     # fresh instance, two QEMU devices
#   ... $LAVA_URL, $LAVA_TOKEN_FILE, devices qemu01 and qemu02 ...
#   (lava_stop runs at exit)
#
# The first start in a cache provisions a database (admin user, API
# token, worker w1, device type qemu, devices qemu01/qemu02) and keeps
# it as a PostgreSQL template; every later start copies the template
# (createdb -T), so a fresh, empty instance costs seconds.  The
# services run as the unit files would start them, in their own
# sessions, with PID files in $LAVA_DIR; lava_stop kills them and
# every descendant (lava-run and qemu leave the worker's group).
#
# Nothing listens beyond loopback: gunicorn on 127.0.0.1:LAVA_PORT, the
# publisher on the next port, its event socket on the one after;
# PostgreSQL keeps Debian's listen_addresses = localhost.

LAVA_CACHE=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}/lava
# Bump the number when what lava_provision makes changes.
LAVA_TEMPLATE=sched_bot_lava_template_2
LAVA_DEVICES="qemu01 qemu02"
# Outside $TRASH: test_done removes that before the exit trap stops us.
LAVA_DIR=${TMPDIR:-/tmp}/sched-bot-lava.$$

# Run as Debian's python3 finds LAVA's Django (another python3 on PATH
# does not); the entry points already name /usr/bin/python3.
lava_path() {
	PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

lava_psql() {
	lava_path su postgres -c "psql -XAtq -c \"$1\"" 2>/dev/null
}

lava_have() {
	[ -x /usr/bin/lava-server ] && [ -x /usr/bin/lava-worker ] &&
		[ -x /usr/bin/gunicorn3 ] && command -v pg_ctlcluster >/dev/null
}

# PostgreSQL outlives the script: it must not inherit the instance lock
# (fd 8, lava_start) nor the other scripts' locks (6, 7: lib.sh,
# lib-kernel.sh), or every later script that takes one waits in vain.
lava_pg_start() {
	pg_lsclusters -h 2>/dev/null | awk '$4 == "online"' | grep -q . ||
		lava_path pg_ctlcluster 15 main start 6>&- 7>&- 8>&-
}

lava_device_dicts() {
	lava_n=0
	mkdir -p /etc/lava-server/dispatcher-config/devices
	for d in $LAVA_DEVICES; do
		lava_n=$((lava_n + 1))
		# no_kvm: /dev/kvm exists here but a KVM guest aborts or
		# hangs; TCG works.
		cat >"/etc/lava-server/dispatcher-config/devices/$d.jinja2" <<EOF
{% extends 'qemu.jinja2' %}
{% set mac_addr = '52:54:00:12:34:5$lava_n' %}
{% set memory = 1024 %}
{% set netdevice = 'user' %}
{% set no_kvm = True %}
EOF
	done
}

# The once-per-cache part: the database and its template.
lava_provision() {
	mkdir -p "$LAVA_CACHE"
	if [ -s "$LAVA_CACHE/worker.token" ] &&
	   [ "$(lava_psql "SELECT 1 FROM pg_database WHERE datname='$LAVA_TEMPLATE'")" = 1 ]; then
		return 0
	fi
	echo "# lava: provisioning a template database (once per cache)"
	lava_psql "DROP DATABASE IF EXISTS $LAVA_TEMPLATE"
	lava_psql "DROP DATABASE IF EXISTS lavaserver"
	# LAVA's own set-up: role, database, settings, migrations.
	lava_path /usr/bin/python3 /usr/share/lava-server/postinst.py \
		>"$LAVA_CACHE/postinst.log" 2>&1 || return 1
	LAVA_TOKEN=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
	lava_path lava-server manage users add --superuser --staff \
		--passwd "$LAVA_TOKEN" admin >/dev/null 2>&1 || return 1
	lava_path lava-server manage tokens add --user admin \
		--secret "$LAVA_TOKEN" >/dev/null 2>&1 || return 1
	lava_path lava-server manage workers add w1 2>/dev/null |
		sed -n 's/^Token: //p' >"$LAVA_CACHE/worker.token.new"
	[ -s "$LAVA_CACHE/worker.token.new" ] || return 1
	lava_path lava-server manage device-types add qemu >/dev/null 2>&1 ||
		return 1
	for d in $LAVA_DEVICES; do
		# LAVA 2023.01 has no per-job device request: a tag
		# named like the device is how a job pins one.
		lava_path lava-server manage devices add --device-type qemu \
			--worker w1 --tags "$d" -- "$d" >/dev/null 2>&1 ||
			return 1
	done
	lava_psql "CREATE DATABASE $LAVA_TEMPLATE TEMPLATE lavaserver" ||
		return 1
	printf '%s\n' "$LAVA_TOKEN" >"$LAVA_CACHE/api.token"
	mv "$LAVA_CACHE/worker.token.new" "$LAVA_CACHE/worker.token"
}

lava_spawn() {
	lava_name=$1
	shift
	# The service writes its own PID (its session id too): setsid forks
	# when the caller leads a process group, so $! would be wrong.
	( exec 6>&- 7>&- 8>&- && cd "$LAVA_DIR" && PATH=/usr/sbin:/usr/bin:/sbin:/bin &&
	  exec setsid sh -c 'echo $$ >"$0"; exec "$@"' \
		"$LAVA_DIR/$lava_name.pid" "$@" \
		>"$LAVA_DIR/$lava_name.log" 2>&1 </dev/null ) &
}

lava_api() {
	curl -sf --max-time 10 -H "Authorization: Token $(cat "$LAVA_TOKEN_FILE")" \
		"$LAVA_URL/api/v0.2/$1"
}

# Kill a process and all its descendants, deepest first.
lava_kill_tree() {
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		lava_kill_tree "$c"
	done
	kill -9 "$1" 2>/dev/null
}

lava_stop() {
	[ -d "$LAVA_DIR" ] || return 0
	lava_sids=
	for f in "$LAVA_DIR"/*.pid; do
		[ -f "$f" ] || continue
		lava_pid=$(cat "$f")
		lava_sids="$lava_sids $lava_pid"
		lava_kill_tree "$lava_pid"
		rm -f "$f"
	done
	# Then the services' sessions, and the worker's jobs, which run in
	# sessions of their own (lava-run, QEMU: they name $LAVA_DIR), until
	# pkill finds none of them.  SIGKILL is not instant: a process being
	# torn down, or a child forked just before its parent died, is still
	# there when pkill returns.  Up to 10 s, so that a test after us
	# finds the ports and files free.
	lava_i=0
	while [ $lava_i -lt 100 ]; do
		lava_left=
		for s in $lava_sids; do
			pkill -9 -s "$s" 2>/dev/null && lava_left=1
		done
		pkill -9 -f "(lava-run|qemu-system).*$LAVA_DIR" 2>/dev/null &&
			lava_left=1
		[ -z "$lava_left" ] && break
		sleep 0.1
		lava_i=$((lava_i + 1))
	done
	rm -rf "$LAVA_DIR"
	return 0
}

# A fresh instance: copy the template, start the services, wait until
# the API answers and both devices are idle.  Sets LAVA_URL,
# LAVA_TOKEN_FILE (the admin's API token), LAVA_PORT.
lava_start() {
	lava_t0=$(date +%s)
	lava_have || { echo "# lava: lava-server/lava-dispatcher not installed"; return 1; }
	# One instance on the machine at a time: it is one database
	# (lavaserver), one settings file and one job-output directory, and
	# the scripts run in parallel.  The script holds the lock (fd 8) for
	# its life; the services do not inherit it (lava_spawn).
	mkdir -p "$LAVA_CACHE"
	exec 8>"$LAVA_CACHE/instance.lock"
	flock -w 1800 8 || { echo "# lava: another instance held the lock for 30 minutes"; return 1; }
	lava_pg_start || return 1
	mkdir -p "$LAVA_DIR/worker"
	lava_device_dicts
	lava_provision || { echo "# lava: provisioning failed"; return 1; }
	test_atexit lava_stop
	LAVA_PORT=$(free_port)
	pub_port=$(free_port)
	ev_port=$(free_port)
	# A template copy needs nobody connected to either database.
	lava_psql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname='lavaserver'" >/dev/null
	lava_psql "DROP DATABASE IF EXISTS lavaserver" || return 1
	lava_psql "CREATE DATABASE lavaserver TEMPLATE $LAVA_TEMPLATE OWNER lavaserver" ||
		return 1
	# Old job logs would be appended to by new jobs of the same id.
	rm -rf /var/lib/lava-server/default/media/job-output/*
	cat >/etc/lava-server/settings.d/50-sched-bot-test.yaml <<EOF
EVENT_NOTIFICATION: true
EVENT_SOCKET: "tcp://127.0.0.1:$ev_port"
EOF
	LAVA_URL=http://127.0.0.1:$LAVA_PORT
	cp "$LAVA_CACHE/api.token" "$LAVA_DIR/api.token"
	LAVA_TOKEN_FILE=$LAVA_DIR/api.token
	export LAVA_URL LAVA_TOKEN_FILE LAVA_PORT
	lava_spawn gunicorn gunicorn3 lava_server.wsgi -u lavaserver \
		-g lavaserver --worker-class eventlet --workers 2 \
		--bind "127.0.0.1:$LAVA_PORT"
	lava_spawn publisher lava-server manage lava-publisher \
		--host 127.0.0.1 --port "$pub_port"
	lava_spawn scheduler lava-server manage lava-scheduler \
		--event-url "tcp://127.0.0.1:$ev_port"
	lava_spawn worker lava-worker --name w1 --url "$LAVA_URL/" \
		--token "$(cat "$LAVA_CACHE/worker.token")" \
		--ws-url "http://127.0.0.1:$pub_port/ws/" \
		--worker-dir "$LAVA_DIR/worker"
	lava_i=0
	while [ $lava_i -lt 120 ]; do
		if lava_api system/version/ >/dev/null &&
		   lava_api workers/w1/ 2>/dev/null | grep -q '"state":"Online"'; then
			echo "# lava: up in $(($(date +%s) - lava_t0)) s"
			return 0
		fi
		sleep 0.5
		lava_i=$((lava_i + 1))
	done
	echo "# lava: services did not come up; logs:"
	tail -n 5 "$LAVA_DIR"/*.log | sed 's/^/#   /'
	return 1
}
