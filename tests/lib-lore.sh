# tests/lib-lore.sh - real local peers for tests: a public-inbox-httpd
# serving mail like lore.kernel.org, postfix's smtp-sink, and a tiny
# HTTP server for the faults a real lore will not produce on demand.
# Source it after lib.sh, and call the start functions at the top level
# of a test script (not inside test_expect_success: they export
# variables; a watchdog still stops a server started in a subshell when
# the script ends).
#
#   . "$TESTS/lib-lore.sh"
#   lore_start [FILE...]    a fresh inbox holding FILEs, served; skips
#       all tests if public-inbox is missing.  Exports LORE_URL
#       (http://127.0.0.1:PORT, no trailing slash), LORE_PORT, LORE_PID,
#       LORE_DIR; sets lore.url, lore.retries=2, lore.retryDelay=50 in
#       $XDG_CONFIG_HOME/sched-bot/config.  LORE_TLS=1: HTTPS with a
#       self-signed certificate (LORE_CA; lore.caInfo set too).
#       Built inboxes are kept in $LORE_INBOX_CACHE (default
#       $BUILD/lore-inboxes, "none" to turn off): ~1 s to start again.
#   lore_add FILE...        import more mail into the running server;
#                           returns once /all/ search finds it
#   lore_stop               stop it (also done when the script ends)
#   lore_msgids FILE...     the Message-IDs in mboxes/.eml files, no <>
#   lore_http METHOD URL [OUT]  prints the HTTP status (000: no answer),
#                           the body into OUT
#
#   smtp_start              exports SMTP_PORT, SMTP_DIR (one file per
#                           mail, envelope in X-Mail-Args:/X-Rcpt-Args:),
#                           SMTP_PID
#   smtp_wait N             wait until SMTP_DIR holds N messages
#   smtp_count              how many it holds
#   smtp_stop
#
#   fake_http_start         exports FAKE_URL, FAKE_PORT, FAKE_LOG
#   fake_http_script LINE...  what it answers (see fake_http_start)
#   fake_http_stop
#
# Files given to lore_start/lore_add are mboxrd ("From " lines, as lore
# serves them) or single raw messages.  The inbox is public-inbox v2
# named "test" (list test-list@example.org) with an extindex giving
# /all/, exactly lore's URL layout.  lore's rt: (received time) comes
# from the top Received: header, else Date: give polled mail a fresh
# Received: line.  Everything listens on 127.0.0.1.

LORE_DIR=$TRASH/lore
SMTP_SINK=${SCHED_BOT_TOOLS:-/var/cache/sched-bot/tools}/usr/sbin/smtp-sink

# The importer: public-inbox's own V2Writable, ~80 messages/s, where
# public-inbox-mda costs ~0.5 s for each.  Prints the Message-IDs added.
lore_write_helpers_() {
	mkdir -p "$LORE_DIR"
	cat >"$LORE_DIR/import.pl" <<'EOF'
use strict;
use warnings;
use PublicInbox::Config;
use PublicInbox::InboxWritable;
use PublicInbox::MboxReader;
use PublicInbox::Eml;

my $cfg = PublicInbox::Config->new;
my $ibx = $cfg->lookup_name('test') or die "no inbox 'test'\n";
$ibx = PublicInbox::InboxWritable->new($ibx);
my $im = $ibx->importer(0);
my $add = sub {
	my ($eml) = @_;
	my $mid = $eml->header_raw('Message-ID') // '';
	$mid =~ s/^\s*<?//;
	$mid =~ s/>?\s*$//;
	print "$mid\n" if defined $im->add($eml);
};
for my $f (@ARGV) {
	open my $fh, '<', $f or die "$f: $!\n";
	my $first = <$fh> // '';
	seek($fh, 0, 0);
	if ($first =~ /^From /) {
		PublicInbox::MboxReader->mboxrd($fh, $add);
	} else {
		# not "local $/" around add(): Import reads lines from git
		my $raw = do { local $/; <$fh> };
		$add->(PublicInbox::Eml->new(\$raw));
	}
}
$im->done;
EOF
	# Socket activation (see sd_listen_fds(3)): the port is bound here,
	# so it is known before the server starts and nothing races for it;
	# connections made before the server is up simply wait in the queue.
	cat >"$LORE_DIR/listen.pl" <<'EOF'
use strict;
use warnings;
use IO::Socket::INET;
use Fcntl qw(F_SETFD);
use POSIX ();

my $portfile = shift;
my $s = IO::Socket::INET->new(Listen => 1024, ReuseAddr => 1,
			      LocalAddr => '127.0.0.1:0')
	or die "listen on 127.0.0.1: $!\n";
$s->blocking(0);
open my $fh, '>', "$portfile.tmp" or die "$portfile.tmp: $!\n";
print $fh $s->sockport, "\n";
close $fh;
rename("$portfile.tmp", $portfile) or die "rename: $!\n";
if (fileno($s) != 3) {
	POSIX::dup2(fileno($s), 3) or die "dup2: $!\n";
} else {
	fcntl($s, F_SETFD, 0) or die "fcntl: $!\n";
}
$ENV{LISTEN_FDS} = 1;
$ENV{LISTEN_PID} = $$;
# @PORT@ in an argument: the port bound here (for -l https://...)
my $port = $s->sockport;
s/\@PORT\@/$port/g for @ARGV;
exec @ARGV or die "exec $ARGV[0]: $!\n";
EOF
	cat >"$LORE_DIR/http.pl" <<'EOF'
use strict;
use warnings;
use IO::Socket::INET;

my ($method, $url, $out) = @ARGV;
my ($tls, $host, $port, $path) = $url =~ m{^http(s?)://([^/:]+):(\d+)(/.*)?$}
	or die "bad URL $url\n";
die "not loopback: $host\n" unless $host eq '127.0.0.1';
$path //= '/';
my $s;
if ($tls) {
	require IO::Socket::SSL;
	$s = IO::Socket::SSL->new(PeerAddr => $host, PeerPort => $port,
		Timeout => 30, SSL_ca_file => $ENV{LORE_CA});
} else {
	$s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port,
				   Timeout => 30);
}
unless ($s) { print "000\n"; exit 0; }
print $s "$method $path HTTP/1.0\r\nHost: $host:$port\r\n",
	"Content-Length: 0\r\nConnection: close\r\n\r\n";
local $/;
my $resp = <$s> // '';
my ($code) = $resp =~ m{^HTTP/\d\.\d (\d+)};
if (defined $out) {
	my $body = $resp =~ s/\A.*?\r\n\r\n//sr;
	open my $fh, '>', $out or die "$out: $!\n";
	print $fh $body;
	close $fh;
}
print(($code // '000'), "\n");
EOF
}

# Stop server PID when the test script ends, even when the script was
# killed and no test_atexit cleanup ran: a watchdog polling the
# script's own pid ($$ is the same in subshells).
lore_watchdog_() {
	(
		while kill -0 "$$" 2>/dev/null && kill -0 "$1" 2>/dev/null; do
			sleep 1
		done
		kill "$1" 2>/dev/null
	) </dev/null >/dev/null 2>&1 &
}

lore_http() {
	perl "$LORE_DIR/http.pl" "$@"
}

lore_msgids() {
	perl -ne 'if (/^$/) { $h = 0 } elsif (/^From /) { $h = 1 }
		if ($h && /^message-id:\s*<?([^>\s]+)>?/i) { print "$1\n" }
		BEGIN { $h = 1 }' "$@"
}

lore_import_() {
	PI_CONFIG="$LORE_DIR/pi-config" perl "$LORE_DIR/import.pl" "$@" \
		>>"$LORE_DIR/imported" 2>>"$LORE_DIR/import.err" &&
	PI_CONFIG="$LORE_DIR/pi-config" public-inbox-extindex --all \
		"$LORE_DIR/extindex-all" >>"$LORE_DIR/import.err" 2>&1
}

# Wait until /all/ search sees the last Message-ID imported.
lore_wait_searchable_() {
	local mid q i code
	mid=$(tail -n 1 "$LORE_DIR/imported")
	[ -n "$mid" ] || return 0
	q=$(printf '%s' "m:$mid" | perl -pe 's/([^A-Za-z0-9_.~@-])/sprintf("%%%02X", ord $1)/ge')
	i=0
	while [ $i -lt 100 ]; do
		code=$(lore_http POST "$LORE_URL/all/?q=$q&x=m")
		[ "$code" = 200 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "lore: $mid not searchable after import" >&2
	return 1
}

# The inbox for a set of files is built once and kept under
# $LORE_INBOX_CACHE (default $BUILD/lore-inboxes; "none" turns it off),
# keyed by the files' contents, the importer and public-inbox's own
# code.  Only the extindex's git alternates and the config hold
# absolute paths (the newsgroup name keys the extindex), so a copy is
# usable once those are rewritten.
lore_cache_key_() {
	local pm f
	pm=$(perl -MPublicInbox::V2Writable \
		-e 'print $INC{"PublicInbox/V2Writable.pm"}')
	{
		echo "lib-lore v1"
		stat -c '%s %Y' "$pm" "$(command -v public-inbox-httpd)"
		cat "$LORE_DIR/import.pl"
		for f in "$@"; do
			sha1sum <"$f"
		done
	} | sha1sum | cut -c1-20
}

lore_build_inbox_() {
	public-inbox-init -V2 -j1 test "$LORE_DIR/inboxes/test" \
		http://127.0.0.1/test test-list@example.org \
		>"$LORE_DIR/init.log" 2>&1 || {
		cat "$LORE_DIR/init.log" >&2
		return 1
	}
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none &&
	git config -f "$PI_CONFIG" publicinbox.test.newsgroup test.inbox &&
	git config -f "$PI_CONFIG" extindex.all.topdir "$LORE_DIR/extindex-all" &&
	git config -f "$PI_CONFIG" extindex.all.url all || return 1
	: >"$LORE_DIR/imported"
	if [ $# -gt 0 ]; then
		lore_import_ "$@" || { cat "$LORE_DIR/import.err" >&2; return 1; }
	else
		public-inbox-extindex --all "$LORE_DIR/extindex-all" \
			>>"$LORE_DIR/import.err" 2>&1 || return 1
	fi
}

# Inputs made at run time (a fresh Received: date) give a new key each
# run: keep the 24 inboxes used last, and any used within the hour (a
# parallel test may be copying it).
lore_prune_inboxes_() {
	local d
	find "$1" -mindepth 1 -maxdepth 1 -name 'tmp.*' -mmin +60 \
		-exec rm -rf {} + 2>/dev/null
	ls -1t "$1" 2>/dev/null | grep -v '^tmp\.' | tail -n +25 |
	while read -r d; do
		if [ -n "$(find "$1/$d" -maxdepth 0 -mmin +60)" ]; then
			rm -rf "${1:?}/$d"
		fi
	done
}

lore_prepare_inbox_() {
	local root key old tmp=
	root=${LORE_INBOX_CACHE:-$BUILD/lore-inboxes}
	if [ "$root" = none ]; then
		lore_build_inbox_ "$@"
		return
	fi
	key=$(lore_cache_key_ "$@") || return 1
	if [ -r "$root/$key/done" ] &&
	   cp -a "$root/$key/inboxes" "$root/$key/extindex-all" \
		"$root/$key/pi-config" "$root/$key/imported" \
		"$LORE_DIR/" 2>/dev/null; then
		touch "$root/$key" 2>/dev/null
		old=$(cat "$root/$key/done")
		sed -i "s|$old|$LORE_DIR|g" "$PI_CONFIG" \
			"$LORE_DIR/extindex-all/ALL.git/objects/info/alternates"
		return
	fi
	# not cached, broken, or not readable by us: build it afresh
	[ -e "$root/$key" ] && rm -rf "$root/$key" 2>/dev/null
	rm -rf "$LORE_DIR/inboxes" "$LORE_DIR/extindex-all" "$LORE_DIR/imported"
	rm -f "$PI_CONFIG"
	lore_build_inbox_ "$@" || return 1
	# publish atomically: a parallel test may build the same key
	mkdir -p "$root" &&
	tmp=$(mktemp -d "$root/tmp.XXXXXX") &&
	chmod 755 "$tmp" &&
	cp -a "$LORE_DIR/inboxes" "$LORE_DIR/extindex-all" \
		"$LORE_DIR/pi-config" "$LORE_DIR/imported" "$tmp/" &&
	echo "$LORE_DIR" >"$tmp/done" &&
	mv -T "$tmp" "$root/$key" 2>/dev/null || rm -rf "${tmp:-}"
	lore_prune_inboxes_ "$root"
	return 0
}

# A self-signed certificate for 127.0.0.1, for LORE_TLS=1 lore_start.
lore_make_cert_() {
	command -v openssl >/dev/null 2>&1 ||
		test_skip_all "openssl is not installed"
	mkdir -p "$LORE_DIR/tls"
	LORE_CA=$LORE_DIR/tls/cert.pem
	export LORE_CA
	openssl req -x509 -newkey rsa:2048 -nodes -days 3650 \
		-subj /CN=127.0.0.1 \
		-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
		-keyout "$LORE_DIR/tls/key.pem" -out "$LORE_CA" \
		>"$LORE_DIR/tls/log" 2>&1 || {
		cat "$LORE_DIR/tls/log" >&2
		return 1
	}
}

lore_start() {
	local code cfg listen
	command -v public-inbox-httpd >/dev/null 2>&1 ||
		test_skip_all "public-inbox is not installed"
	# a fresh inbox each time (lore_stop; lore_start starts over)
	lore_stop
	rm -rf "$LORE_DIR"
	lore_write_helpers_
	export PI_CONFIG="$LORE_DIR/pi-config"
	lore_prepare_inbox_ "$@" || return 1
	rm -f "$LORE_DIR/port"
	# -l names the inherited socket (@PORT@ is filled in by listen.pl)
	listen=http://127.0.0.1:@PORT@
	if [ -n "${LORE_TLS:-}" ]; then
		lore_make_cert_ || return 1
		listen="https://127.0.0.1:@PORT@?cert=$LORE_CA,key=$LORE_DIR/tls/key.pem"
	fi
	perl "$LORE_DIR/listen.pl" "$LORE_DIR/port" public-inbox-httpd -W0 \
		-l "$listen" \
		-1 "$LORE_DIR/httpd.out" -2 "$LORE_DIR/httpd.err" \
		</dev/null >>"$LORE_DIR/httpd.err" 2>&1 &
	LORE_PID=$!
	lore_watchdog_ "$LORE_PID"
	test_atexit lore_stop
	test_wait_port "$LORE_DIR/port" "$LORE_PID" "$LORE_DIR/httpd.err" ||
		return 1
	LORE_PORT=$(cat "$LORE_DIR/port")
	LORE_URL=http${LORE_TLS:+s}://127.0.0.1:$LORE_PORT
	export LORE_PORT LORE_URL LORE_PID LORE_DIR
	# an empty /all/ has no new.atom (404): any answer but 5xx will do
	code=$(lore_http GET "$LORE_URL/all/new.atom")
	case $code in [234]??) ;; *) false ;; esac || {
		echo "lore: server gave $code for new.atom" >&2
		cat "$LORE_DIR/httpd.err" >&2
		return 1
	}
	mkdir -p "$XDG_CONFIG_HOME/sched-bot"
	cfg=$XDG_CONFIG_HOME/sched-bot/config
	git config -f "$cfg" lore.url "$LORE_URL" &&
	git config -f "$cfg" lore.retries 2 &&
	git config -f "$cfg" lore.retryDelay 50
	if [ -n "${LORE_TLS:-}" ]; then
		git config -f "$cfg" lore.caInfo "$LORE_CA"
	fi
}

lore_add() {
	[ -n "${LORE_PID:-}" ] || { echo "lore_add: no server" >&2; return 1; }
	lore_import_ "$@" || { cat "$LORE_DIR/import.err" >&2; return 1; }
	kill -HUP "$LORE_PID" &&
	lore_wait_searchable_
}

lore_stop() {
	[ -n "${LORE_PID:-}" ] || return 0
	kill "$LORE_PID" 2>/dev/null
	wait "$LORE_PID" 2>/dev/null
	LORE_PID=
}

smtp_start() {
	local tries i
	[ -x "$SMTP_SINK" ] || test_skip_all "no smtp-sink at $SMTP_SINK"
	SMTP_DIR=$TRASH/smtp
	mkdir -p "$SMTP_DIR" && chmod 1777 "$SMTP_DIR" || return 1
	# smtp-sink cannot take an inherited socket: pick a port and retry
	# if somebody else took it meanwhile.
	tries=0
	while [ $tries -lt 5 ]; do
		SMTP_PORT=$(free_port)
		LD_LIBRARY_PATH=${SMTP_SINK%/sbin/smtp-sink}/lib/postfix \
			"$SMTP_SINK" -u nobody -d "$SMTP_DIR/%Y%m%d%H%M%S." \
			"127.0.0.1:$SMTP_PORT" 64 \
			</dev/null >"$TRASH/smtp-sink.log" 2>&1 &
		SMTP_PID=$!
		lore_watchdog_ "$SMTP_PID"
		i=0
		while [ $i -lt 100 ]; do
			kill -0 "$SMTP_PID" 2>/dev/null || break
			if perl -MIO::Socket::INET -e '
				my $s = IO::Socket::INET->new(
					PeerAddr => "127.0.0.1:$ARGV[0]") or exit 1;
				my $l = <$s>; exit(($l // "") =~ /^220/ ? 0 : 1)' \
				"$SMTP_PORT" 2>/dev/null; then
				export SMTP_PORT SMTP_DIR SMTP_PID
				test_atexit smtp_stop
				return 0
			fi
			sleep 0.02
			i=$((i + 1))
		done
		kill "$SMTP_PID" 2>/dev/null
		wait "$SMTP_PID" 2>/dev/null
		tries=$((tries + 1))
	done
	cat "$TRASH/smtp-sink.log" >&2
	return 1
}

smtp_count() {
	find "$SMTP_DIR" -type f | wc -l
}

smtp_wait() {
	local i
	i=0
	while [ "$(smtp_count)" -lt "$1" ]; do
		sleep 0.05
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
	done
}

smtp_stop() {
	[ -n "${SMTP_PID:-}" ] || return 0
	kill "$SMTP_PID" 2>/dev/null
	wait "$SMTP_PID" 2>/dev/null
	SMTP_PID=
}

# fake_http_start: a one-process HTTP server on 127.0.0.1 for the
# faults a real public-inbox will not produce on demand.
# fake_http_script LINE... sets what it answers: request N gets line N
# (the last line repeats; a new script starts again at line 1):
#   STATUS FILE [TYPE]   answer STATUS with FILE ("-": empty) as body
#   redirect URL         302 to URL
#   close                close the connection without an answer
#   sleep SECONDS        answer nothing for SECONDS, then close
#   retry-after SECONDS  503 with a Retry-After header
#   short FILE           announce FILE's length, send half, close
# Exports FAKE_URL, FAKE_PORT, FAKE_PID, FAKE_LOG (one line per request:
# "METHOD PATH-AND-QUERY<TAB>User-Agent[<TAB>user:password]").
fake_http_start() {
	local i
	FAKE_DIR=$TRASH/fake-http
	mkdir -p "$FAKE_DIR"
	cat >"$FAKE_DIR/server.pl" <<'EOF'
use strict;
use warnings;
use IO::Socket::INET;

my ($script, $portfile, $log) = @ARGV;
my $s = IO::Socket::INET->new(Listen => 64, ReuseAddr => 1,
			      LocalAddr => '127.0.0.1:0')
	or die "listen on 127.0.0.1: $!\n";
open my $pf, '>', "$portfile.tmp" or die;
print $pf $s->sockport, "\n";
close $pf;
rename("$portfile.tmp", $portfile) or die;
my ($i, $old) = (0, q());
$SIG{PIPE} = 'IGNORE';
while (my $c = $s->accept) {
	my $req = '';
	while (defined(my $l = <$c>)) {
		$req .= $l;
		last if $l =~ /^\r?\n$/;
	}
	my ($m, $p) = $req =~ /^(\S+) (\S+)/;
	my ($ua) = $req =~ /^User-Agent: ([^\r\n]*)/mi;
	my ($auth) = $req =~ /^Authorization: Basic ([^\r\n]*)/mi;
	if (defined $auth) {
		require MIME::Base64;
		$auth = MIME::Base64::decode_base64($auth);
	}
	if (open my $lf, '>>', $log) {
		print $lf ($m // q(?)), q( ), ($p // q(?)), "\t", ($ua // q()),
			(defined $auth ? "\t$auth" : q()), "\n";
		close $lf;
	}
	open my $sf, q(<), $script or die "$script: $!\n";
	my $text = do { local $/; <$sf> };
	close $sf;
	if ($text ne $old) {
		($i, $old) = (0, $text);
	}
	my @lines = grep { /\S/ && !/^#/ } split(/\n/, $text);
	my $line = $lines[$i < @lines ? $i : $#lines] // '500 -';
	$i++;
	my ($cmd, $arg, $type) = split ' ', $line;
	$type //= 'application/gzip';
	my $body = '';
	if (defined $arg && $arg ne q(-) && $cmd !~ /^(redirect|sleep|retry-after)$/) {
		open my $bf, '<', $arg or die "$arg: $!\n";
		binmode $bf;
		local $/;
		$body = <$bf>;
	}
	if ($cmd eq q(close)) {
	} elsif ($cmd eq q(sleep)) {
		sleep($arg);
	} elsif ($cmd eq q(retry-after)) {
		print $c "HTTP/1.1 503 Busy\r\nRetry-After: $arg\r\n",
			"Content-Length: 0\r\nConnection: close\r\n\r\n";
	} elsif ($cmd eq 'redirect') {
		print $c "HTTP/1.1 302 Found\r\nLocation: $arg\r\n",
			"Content-Length: 0\r\nConnection: close\r\n\r\n";
	} elsif ($cmd eq 'short') {
		print $c "HTTP/1.1 200 OK\r\nContent-Type: $type\r\n",
			"Content-Length: ", length($body), "\r\n",
			"Connection: close\r\n\r\n",
			substr($body, 0, int(length($body) / 2));
	} else {
		print $c "HTTP/1.1 $cmd X\r\nContent-Type: $type\r\n",
			"Content-Length: ", length($body), "\r\n",
			"Connection: close\r\n\r\n", $body;
	}
	close $c;
}
EOF
	rm -f "$FAKE_DIR/port"
	FAKE_LOG=$FAKE_DIR/log
	: >"$FAKE_LOG"
	fake_http_script "500 -"
	perl "$FAKE_DIR/server.pl" "$FAKE_DIR/script" "$FAKE_DIR/port" "$FAKE_LOG" \
		</dev/null >"$FAKE_DIR/err" 2>&1 &
	FAKE_PID=$!
	lore_watchdog_ "$FAKE_PID"
	test_atexit fake_http_stop
	test_wait_port "$FAKE_DIR/port" "$FAKE_PID" "$FAKE_DIR/err" || return 1
	FAKE_PORT=$(cat "$FAKE_DIR/port")
	FAKE_URL=http://127.0.0.1:$FAKE_PORT
	export FAKE_URL FAKE_PORT FAKE_PID FAKE_LOG
}

fake_http_stop() {
	[ -n "${FAKE_PID:-}" ] || return 0
	kill "$FAKE_PID" 2>/dev/null
	wait "$FAKE_PID" 2>/dev/null
	FAKE_PID=
}

fake_http_script() {
	{
		echo "# $(date +%s%N)"
		printf '%s\n' "$@"
	} >"$FAKE_DIR/script.tmp" && mv "$FAKE_DIR/script.tmp" "$FAKE_DIR/script"
}
