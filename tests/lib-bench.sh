# tests/lib-bench.sh - helpers for the sched-bench / sched-bot run tests.

# check_records FILE: every record line of sched-bench output is well
# formed and each run's end record counts its records.
check_records() {
	awk -F, '
	/^#/ || /^kind,/ { next }
	$1 == "env" { if (NF < 3) { print "short env: " $0; bad = 1 } next }
	$1 == "sample" { n = 10 } $1 == "stat" { n = 8 } $1 == "copy" { n = 9 }
	$1 == "inst" { n = 7 } $1 == "end" { n = 5 }
	{
		if (!n) { print "unknown record: " $0; bad = 1; next }
		if (NF != n) { print "field count: " $0; bad = 1 }
		key = $2 "," $3 "," $4
		if ($1 == "end") {
			if (cnt[key] != $5) { print "count " cnt[key] " != " $0; bad = 1 }
			ended[key] = 1
		} else {
			cnt[key]++
		}
		n = 0
	}
	END {
		for (k in cnt) if (!ended[k]) { print "no end for " k; bad = 1 }
		exit bad
	}' "$1"
}

# stat_value FILE KEY: the value of a stat record (first run).
stat_value() {
	awk -F, -v k="$2" '$1 == "stat" && $5 == k { print $6; exit }' "$1"
}

# util_sum FILE: sum of the cpu_* stat records, to be near 100.
util_sum() {
	awk -F, '$1 == "stat" && $5 ~ /^cpu_/ { s += $6 } END { printf "%.3f\n", s }' "$1"
}

# near A B TOL: |A - B| <= TOL
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		if (d > t) { print a " is not " b " +- " t; exit 1 } }'
}

# positive X
positive() {
	awk -v x="$1" 'BEGIN { if (!(x + 0 > 0)) { print "not positive: " x; exit 1 } }'
}

# csv_check FILE: a results CSV: one header, every row with the header's
# field count (quoted fields may hold commas), ends with a newline.
csv_check() {
	perl -e '
		my ($hdr, $n, $bad) = (undef, 0, 0);
		open my $f, "<", $ARGV[0] or die "cannot open $ARGV[0]\n";
		local $/; my $all = <$f>;
		if ($all ne "" && substr($all, -1) ne "\n") { print "no final newline\n"; exit 1 }
		for my $line (split /\n/, $all) {
			my @f = ($line =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g);
			pop @f if @f && $f[-1] eq "" && $line !~ /,$/;
			if (!defined $hdr) { $hdr = scalar @f; next }
			if ($line =~ /^label,/) { print "second header\n"; $bad = 1 }
			if (@f != $hdr) { print "fields " . scalar(@f) . " != $hdr: $line\n"; $bad = 1 }
			$n++;
		}
		print "$n rows\n"; exit $bad' "$1"
}
