# tests/lib-bot.sh - helpers for the bot's tests (t6xxx): a real SMTP
# server (postfix's smtp-sink) on 127.0.0.1, job directories made from
# fixtures, and a config for the bot.  Source after lib.sh.

SMTP_SINK_TOOLS=${SCHED_BOT_TOOLS:-/var/cache/sched-bot/tools}
SMTP_SINK=$SMTP_SINK_TOOLS/usr/sbin/smtp-sink

# bot_sink_start [OPTION...]: smtp-sink on a free port; mail lands in
# $TRASH/sink/.  Sets SINK_PORT and SINK_PID.  With OPTIONs (smtp-sink's
# own: -r DATA defers, -f RCPT rejects) it keeps no mail: a server that
# fails on purpose.  The caller skips when smtp-sink is not installed.
bot_sink_start() {
	mkdir -p "$TRASH/sink" && chmod 1777 "$TRASH/sink" || return 1
	SINK_PORT=$(free_port)
	[ $# -gt 0 ] || set -- -d "$TRASH/sink/%Y%m%d%H%M%S."
	LD_LIBRARY_PATH=$SMTP_SINK_TOOLS/usr/lib/postfix "$SMTP_SINK" \
		-u nobody "$@" 127.0.0.1:$SINK_PORT 64 \
		>>"$TRASH/sink.log" 2>&1 &
	SINK_PID=$!
	test_atexit "kill $SINK_PID 2>/dev/null"
	# ready when the port answers (bounded, not a timed assertion)
	i=0
	while [ $i -lt 100 ]; do
		if perl -MIO::Socket::INET -e \
			"exit !IO::Socket::INET->new('127.0.0.1:$SINK_PORT')"
		then
			return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	echo "smtp-sink did not start"
	return 1
}

bot_sink_stop() {
	kill "$SINK_PID" 2>/dev/null
	wait "$SINK_PID" 2>/dev/null
	return 0
}

# Number of mails captured, and of distinct Message-IDs among them.
bot_sink_count() {
	ls "$TRASH/sink" | grep -c . || true
}

bot_sink_msgids() {
	cat "$TRASH"/sink/* 2>/dev/null | grep -i '^Message-ID:' | sort -u |
		grep -c . || true
}

# bot_config FILE [PORT]: a config with a bot identity, state and outbox
# under $TRASH/bot-data, and smtp.url at PORT (default: the sink's).
# No alignment control: it builds two more kernels for every confirmed
# regression; the test of the control (t6014) turns it on.  The
# fixtures' runs (a KVM guest of target qemu) stand in for a machine
# fit to vouch, so that a measured verdict goes to the list as from
# one (target.qemu.vouch); t6018 tests the mail policy without it.
# [job] stays last: scripts append job keys to the file (t6010).
bot_config() {
	cat >"$1" <<-EOC
	[bot]
		name = Sched Bot
		email = bot@sched-bot.example.org
		maxPerHour = 50
	[smtp]
		url = smtp://127.0.0.1:${2:-${SINK_PORT:-1}}
	[state]
		db = $TRASH/bot-data/state.db
	[outbox]
		dir = $TRASH/bot-data/outbox
		checkLore = false
	[compare]
		alignmentControl = off
	[target "qemu"]
		vouch = true
	[job]
		dir = $TRASH/bot-data/jobs
	EOC
}

# bot_job_tree_config FILE: the configuration of the job tests that run
# real stages on the b4 test tree ($TRASH/repo.git, cloned by the test):
# tree, jobs, state, outbox and builds all in $TRASH.
bot_job_tree_config() {
	cat >"$1" <<-EOC
	[compare]
		alignmentControl = off
	[tree]
		path = $TRASH/repo.git
	[job]
		dir = $TRASH/jobs
	[state]
		db = $TRASH/state.db
	[outbox]
		dir = $TRASH/outbox
	[build]
		cacheDir = $TRASH/builds
	EOC
}

# bot_job NAME DIR: a job directory stopped before its reply, from the
# fixture tests/data/bot/NAME and the bundled Chen Yu v3 thread.
bot_job() {
	rm -rf "$2" && mkdir -p "$(dirname "$2")" &&
	cp -R "$DATA/bot/$1" "$2" &&
	cp "$DATA/intake/short-task-wakeup-v3-partial.mbox" "$2/thread.mbox"
}

# The tests against a real lore and smtp-sink (t6005, t6900, t7100,
# t7101, t7200, t8001).  bot_fresh_series OUT [MBOX]: the Chen Yu v3
# thread (or MBOX) with a Received: header of now on every message,
# which lore's rt: reads.  The scripts that build the series (t6900,
# t8001) take short-task-wakeup-v3-sched-only.mbox: the real series
# changes include/linux/sched.h, and a patched kernel that recompiles
# nearly every object would be a second cold kernel build of the suite.
bot_fresh_series() {
	awk -v now="$(date -R)" '
		/^From mboxrd@z / { print; print "Received: from test by 127.0.0.1; " now; next }
		{ print }
	' "${2:-$DATA/intake/short-task-wakeup-v3-complete.mbox}" >"$1"
}

# bot_command_config: $CFG, the configuration those tests share: the
# bot's identity, smtp.url at the running smtp_start sink, fresh lore
# reads and the test DKIM keys; the fixtures' target qemu vouches, as
# in bot_config.  Each test adds its own bot.allow.
bot_command_config() {
	CFG=$XDG_CONFIG_HOME/sched-bot/config
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
	git config -f "$CFG" bot.name "Sched Bot" &&
	git config -f "$CFG" bot.email bot@sched-bot.example.org &&
	git config -f "$CFG" smtp.url "smtp://127.0.0.1:$SMTP_PORT" &&
	git config -f "$CFG" outbox.checkLore false &&
	git config -f "$CFG" lore.cacheMaxAge 0 &&
	git config -f "$CFG" dkim.keyFile "$DKIM_KEYS" &&
	git config -f "$CFG" target.qemu.vouch true
}

# bot_seed_reply: the bot's own reply in the thread, sent to the sink,
# which commands must answer; sets BOTMSG to its Message-ID and empties
# the sink again.
bot_seed_reply() {
	bot_job job-tested "$TRASH/seed" &&
	"$SCHED_BOT" test --job-dir "$TRASH/seed" --send \
		2>"$TRASH/seed.err" &&
	smtp_wait 1 || { cat "$TRASH/seed.err"; return 1; }
	BOTMSG=$(sed -n 's/^Message-ID: <\(.*\)>$/\1/p' "$SMTP_DIR"/*)
	rm -f "$SMTP_DIR"/*
}

# bot_command_setup [--no-series]: the set-up the mail-command tests
# (t6005, t7100, t7101, t7102) share: skip without the DKIM tools; COVER
# (the thread's cover letter) and now; $TRASH/series.mbox
# (bot_fresh_series) unless --no-series; the smtp-sink; $CFG
# (bot_command_config) with dev@kernel.example allowed.
bot_command_setup() {
	bot_have_dkim ||
		test_skip_all "opendkim-tools not installed (contrib/install-deps)"
	COVER=cover.1669862147.git.yu.c.chen@intel.com
	now=$(date -R)
	[ "${1:-}" = --no-series ] || bot_fresh_series "$TRASH/series.mbox"
	smtp_start
	bot_command_config || exit 1
	git config -f "$CFG" --add bot.allow dev@kernel.example
}

# DKIM for mail commands (OpenDKIM's tools, Debian opendkim-tools): a key
# per domain in $TRASH/dkim, its public record in $TRASH/dkim/keys.txt,
# the file the bot reads instead of DNS (dkim.keyFile).
DKIM_GENKEY=$(command -v opendkim-genkey || echo /usr/sbin/opendkim-genkey)
DKIM_TESTMSG=$(command -v opendkim-testmsg || echo /usr/sbin/opendkim-testmsg)
DKIM_KEYS=$TRASH/dkim/keys.txt

bot_have_dkim() {
	[ -x "$DKIM_GENKEY" ] && [ -x "$DKIM_TESTMSG" ] &&
		command -v openssl >/dev/null
}

# bot_dkim_key DOMAIN [SELECTOR]
bot_dkim_key() {
	local sel=${2:-test} p
	mkdir -p "$TRASH/dkim/$1.$sel" &&
	"$DKIM_GENKEY" -b 1024 -D "$TRASH/dkim/$1.$sel" -s "$sel" -d "$1" &&
	p=$(tr -d '\n\t "()' <"$TRASH/dkim/$1.$sel/$sel.txt" |
		sed 's/.*;p=\([A-Za-z0-9+/=]*\).*/\1/') &&
	test -n "$p" &&
	echo "$sel._domainkey.$1 v=DKIM1; k=rsa; p=$p" >>"$DKIM_KEYS"
}

# bot_dkim_sign DOMAIN IN OUT [SELECTOR [KEY [HEADERS]]]: OUT is IN with
# an rsa-sha256 DKIM-Signature (c=relaxed/simple, RFC 6376 3.4) made
# with openssl: opendkim-testmsg signs rsa-sha1 only, which the bot
# refuses (RFC 8301).  KEY: another private key than DOMAIN's published
# one.  HEADERS: the lowercase names it may sign, colon-separated (by
# default from, to, cc, subject, date, message-id, in-reply-to and
# references), of which it signs those IN has.
bot_dkim_sign() {
	local sel=${4:-test} w="$TRASH/dkim/sign" bh sig val
	local key=${5:-$TRASH/dkim/$1.$sel/$sel.private}
	local hdrs=${6:-from:to:cc:subject:date:message-id:in-reply-to:references}
	mkdir -p "$w" &&
	# the header fields, each unfolded on one line; the body as it is
	awk -v H="$w/head" -v B="$w/body" '
		function flush() { if (f != "") print f >H; f = "" }
		inbody { print >B; next }
		{ sub(/\r$/, "") }
		/^$/ { flush(); inbody = 1; printf "" >B; next }
		/^[ \t]/ { f = f $0; next }
		{ flush(); f = $0 }
		END { flush(); if (!inbody) printf "" >B }
	' "$2" &&
	# relaxed header canonicalization of the fields signed
	awk -v L="$w/list" -v H="$hdrs" '
		BEGIN { n = split(H, want, ":") }
		{
			i = index($0, ":"); if (!i) next
			name = tolower(substr($0, 1, i - 1))
			sub(/[ \t]+$/, "", name)
			v = substr($0, i + 1); gsub(/[ \t]+/, " ", v)
			sub(/^ /, "", v); sub(/ $/, "", v)
			if (!(name in got)) got[name] = name ":" v
		}
		END {
			for (k = 1; k <= n; k++)
				if (want[k] in got) {
					printf "%s\r\n", got[want[k]]
					l = l (l == "" ? "" : ":") want[k]
				}
			print l >L
		}
	' "$w/head" >"$w/canon" &&
	# simple body canonicalization: CRLF, no empty lines at the end
	awk '{ sub(/\r$/, ""); l[NR] = $0 }
		END { n = NR; while (n > 0 && l[n] == "") n--
			if (!n) printf "\r\n"
			for (i = 1; i <= n; i++) printf "%s\r\n", l[i] }
	' "$w/body" >"$w/body.c" &&
	bh=$(openssl dgst -sha256 -binary "$w/body.c" | base64 -w0) &&
	val="v=1; a=rsa-sha256; c=relaxed/simple; d=$1; s=$sel; t=$(date +%s)" &&
	val="$val; h=$(cat "$w/list"); bh=$bh; b=" &&
	sig=$({ cat "$w/canon"; printf "dkim-signature:%s" "$val"; } |
		openssl dgst -sha256 -sign "$key" | base64 -w0) &&
	test -n "$sig" &&
	{ printf "DKIM-Signature: %s%s\n" "$val" "$sig"; cat "$2"; } >"$3"
}

# bot_dkim_sign_sha1 DOMAIN IN OUT [SELECTOR]: the same, rsa-sha1, as the
# OpenDKIM tools sign
bot_dkim_sign_sha1() {
	local sel=${4:-test}
	"$DKIM_TESTMSG" -d "$1" -s "$sel" \
		-k "$TRASH/dkim/$1.$sel/$sel.private" <"$2" >"$3"
}

# bot_answer OUT DOMAIN FROM MSGID LINE IN-REPLY-TO SUBJECT: a mail of
# FROM that answers IN-REPLY-TO (the bot's note to the moderators, say)
# with the one LINE, received now, DKIM-signed by DOMAIN (none:
# unsigned).
bot_answer() {
	local now
	now=$(date -R)
	cat >"$1.raw" <<EOM
Received: from test by 127.0.0.1; $now
From: Some One <$3>
To: Sched Bot <bot@sched-bot.example.org>
Subject: $7
Date: $now
Message-ID: <$4>
In-Reply-To: <$6>
References: <$6>

$5
EOM
	if [ "$2" = none ]; then
		cp "$1.raw" "$1"
	else
		bot_dkim_sign "$2" "$1.raw" "$1"
	fi
}

# bot_unsink FILE: a mail smtp-sink kept, without the headers it adds on
# top of what it was given: the mail as the bot sent it.
bot_unsink() {
	sed -e '/^X-Mail-Args: /d' -e '/^X-Rcpt-Args: /d' \
	    -e '/^X-Client-Addr: /d' -e '/^X-Client-Proto: /d' \
	    -e '/^X-Helo-Args: /d' -e '/^Received: /,/^[^ \t]/{/^Received: /d;/^[ \t]/d;}' "$1"
}

# bot_held_attachment FILE: the public mail a note to the moderators
# carries (message/rfc822), as it would be sent.
bot_held_attachment() {
	sed -n "/^Content-Type: message\/rfc822$/,\$p" "$1" |
		sed "1,/^\$/d" | sed "\$d" | sed "\$d"
}

# bot_mail_normalise [FILE]: a reply with its volatile fields replaced,
# for test_cmp against a golden mail: the Date: header, the Message-ID
# (and its local part wherever a header repeats it), the version in
# User-Agent: and the signature, and $TRASH in paths.  Everything else
# (the recipients, the wrapping, every word of the body) is compared.
bot_mail_normalise() {
	sed -e 's/^Date: .*/Date: DATE/' \
	    -e 's/^Message-ID: <[^@]*@/Message-ID: <MSGID@/' \
	    -e 's,^User-Agent: sched-bot/.*,User-Agent: sched-bot/VERSION,' \
	    -e 's/^sched-bot [0-9][0-9.]*\(-[^,]*\)*, /sched-bot VERSION, /' \
	    -e "s,$TRASH,TRASH,g" ${1+"$1"}
}

# bot_mail_orphans [FILE]: the lines of a mail's body that hold one or
# two words and are followed by an indented continuation ("a\n  pipe,"),
# and a reference marker "[1]" alone on its line: what wrapping a text
# twice at two widths leaves.  Code blocks and tables (four blanks or
# more) and quotes are not prose and are skipped.
# Prints them with their line numbers; exit 1 when there is one.
bot_mail_orphans() {
	awk '
		function indent(s) { match(s, /^ */); return RLENGTH }
		!body { if ($0 == "") body = 1; next }
		{
			if (prev != "" && indent(prev) < 4 && prev !~ /^>/ &&
			    split(prev, w, " ") <= 2 && $0 ~ /^ / &&
			    indent($0) < 4 && $0 !~ /^ *$/ ||
			    prev ~ /^\[[0-9]+\]$/ && $0 != "") {
				printf "%d: %s\n", NR - 1, prev
				bad = 1
			}
			prev = $0
		}
		END { exit bad }
	' ${1+"$1"}
}
