# tests/lib-hostile-lab.sh - a hostile LAVA lab made on the fly, for the
# tests of what a lab sends back (t7412, t7413).

# hostile_lab_start: a stand-in for a LAVA lab on 127.0.0.1 (a Perl
# script, not LAVA: a real lab will not serve a log this hostile on
# demand), one job (id 7) whatever is submitted; exports HOSTILE_LAB_URL
# and HOSTILE_LAB (its directory: "requests" logs "METHOD PATH" lines,
# "mode" says what the job's log is):
#   flood    20 reads of 40 MB each of console lines, then the job ends
#            (a lab's log that grows 800 MB in 20 polls)
#   oneline  20 reads of 40 MB each of one console line without an end
#   facts    init's frames of a run whose env record claims 4096 CPUs
#            (a kernel under test saying what it likes of the machine)
# A cancel ends the job (Canceled).  It stops by itself after 900 s or
# 2000 requests, and with the script.
hostile_lab_start() {
	HOSTILE_LAB=$TRASH/hostile-lab
	mkdir -p "$HOSTILE_LAB"
	echo flood >"$HOSTILE_LAB/mode"
	: >"$HOSTILE_LAB/requests"
	cat >"$HOSTILE_LAB/lab.pl" <<'EOF'
use strict;
use warnings;
use IO::Socket::INET;
use Compress::Zlib qw(crc32);

my ($dir) = @ARGV;
my $s = IO::Socket::INET->new(Listen => 16, ReuseAddr => 1,
			      LocalAddr => '127.0.0.1:0')
	or die "listen on 127.0.0.1: $!\n";
open my $pf, '>', "$dir/port.tmp" or die;
print $pf $s->sockport, "\n";
close $pf;
rename("$dir/port.tmp", "$dir/port") or die;
$SIG{PIPE} = 'IGNORE';
alarm 900;

my ($reads, $cancelled, $requests) = (0, 0, 0);
my $yes = 'y' x (1 << 20);
my $chunk = '';
while (length($chunk) < (1 << 20)) {
	$chunk .= '- {"dt": "2026-01-01T00:00:00", "lvl": "target", "msg": "'
		. ('a lab log that never ends ' x 8) . "\"}\n";
}

sub frames {
	my @p = ('INFO release=6.1.0-hostile', 'INFO seconds=1',
		 'RUN spawn 1 -c 2 -t 1 --run 1',
		 'OUT kind,workload,params,run,sample,metric,value,unit,hib,placement',
		 'OUT env,nr_cpus,4096', 'OUT env,sockets,1',
		 'OUT sample,spawn,copies=2 duration=1,1,0,lps,6812.5,lps,1,',
		 'OUT end,spawn,copies=2 duration=1,1,1', 'RC 0');
	my @l = ('@@SB BEGIN 1');
	my $seq = 0;
	for my $p (@p) {
		$seq++;
		push @l, sprintf('@@SB %d %08x %s', $seq, crc32("$seq $p"), $p);
	}
	push @l, "\@\@SB END $seq rc=0";
	return join('', map { "- {\"lvl\": \"target\", \"msg\": \"$_\"}\n" } @l);
}

sub answer {
	my ($c, $code, $body) = @_;
	print $c "HTTP/1.1 $code X\r\nContent-Type: application/json\r\n",
		"Content-Length: ", length($body), "\r\nConnection: close\r\n\r\n",
		$body;
}

while (my $c = $s->accept) {
	last if ++$requests > 2000;
	my $line = <$c>;
	next unless defined $line;
	my ($m, $p) = $line =~ /^(\S+) (\S+)/;
	($m, $p) = ($m // '?', $p // '?');
	my ($len, $expect) = (0, 0);
	while (defined(my $l = <$c>)) {
		last if $l =~ /^\r?\n$/;
		$len = $1 if $l =~ /^Content-Length:\s*(\d+)/i;
		$expect = 1 if $l =~ /^Expect:\s*100/i;
	}
	print $c "HTTP/1.1 100 Continue\r\n\r\n" if $expect;
	read($c, my $body, $len) if $len;
	if (open my $lf, '>>', "$dir/requests") {
		print $lf ($m // '?'), ' ', ($p // '?'), "\n";
		close $lf;
	}
	open my $mf, '<', "$dir/mode" or die;
	chomp(my $mode = <$mf> // 'flood');
	close $mf;
	my $over = $cancelled || $mode eq 'facts' || $reads >= 20;
	if (($m // '') eq 'POST' && $p =~ m{/api/v0\.2/jobs/$}) {
		($reads, $cancelled) = (0, 0);
		answer($c, 201, '{"job_ids": [7]}');
	} elsif ($p =~ m{/api/v0\.2/jobs/7/cancel/$}) {
		$cancelled = 1;
		answer($c, 200, '{}');
	} elsif ($p =~ m{/api/v0\.2/jobs/7/logs/\?start=(\d+)}) {
		my $start = $1;
		if ($mode eq 'facts') {
			answer($c, 200, $start ? '' : frames());
		} elsif ($over) {
			answer($c, 200, '');
		} else {
			$reads++;
			print $c "HTTP/1.1 200 OK\r\nContent-Type: text/yaml\r\n",
				"Connection: close\r\n\r\n";
			my $one = $mode eq 'oneline';

			print $c '- {"lvl": "target", "msg": "' if $one;
			for (1 .. 40) {
				print $c ($one ? $yes : $chunk) or last;
			}
		}
	} elsif ($p =~ m{/api/v0\.2/jobs/7/$}) {
		answer($c, 200, sprintf('{"id": 7, "state": "%s", "health": "%s", "actual_device": "qemu01"}',
			$over ? 'Finished' : 'Running',
			$cancelled ? 'Canceled' : $over ? 'Complete' : 'Unknown'));
	} else {
		answer($c, 404, '{"detail": "not found"}');
	}
	close $c;
}
EOF
	perl "$HOSTILE_LAB/lab.pl" "$HOSTILE_LAB" </dev/null \
		>"$HOSTILE_LAB/err" 2>&1 &
	hostile_lab_pid=$!
	test_atexit "kill $hostile_lab_pid"
	test_wait_port "$HOSTILE_LAB/port" "$hostile_lab_pid" "$HOSTILE_LAB/err" ||
		return 1
	HOSTILE_LAB_URL=http://127.0.0.1:$(cat "$HOSTILE_LAB/port")
	export HOSTILE_LAB HOSTILE_LAB_URL
}
