# tests/lib-intake.sh - helpers for the intake tests (series, am).

# trailer_sets MBOX: one line per patch, its trailer lines (those before
# the first "---" that name an address), sorted and joined with '|';
# Link: lines and the test user's own sign-off are left out.
trailer_sets() {
	awk '
	/^From git@z / { n++; inbody = 0; done = 0; next }
	!inbody && /^$/ { inbody = 1; next }
	inbody && /^---$/ { done = 1 }
	inbody && !done && /^[A-Za-z][A-Za-z0-9-]*: .*@/ {
		if ($0 !~ /^Link:/ && $0 !~ /bot@example.org|test-override@/)
			t[n, ++c[n]] = $0
	}
	END {
		for (i = 1; i <= n; i++) {
			s = ""
			for (j = 1; j <= c[i]; j++)
				s = s t[i, j] "\n"
			cmd = "sort | tr \"\\n\" \"|\""
			printf "%s", s | cmd
			close(cmd)
			print ""
		}
	}' "$1"
}

# json_flat FILE: the pretty-printed JSON on one line, blanks removed.
json_flat() {
	tr -d " \n" <"$1"
}

# review_trailers MBOX: "subject<TAB>trailer" for every Tested/Reviewed/
# Acked/Reported-by line of every message, the subject without its
# [PATCH ...] or [tip: ...] prefix; sorted, unique.  For checking our am
# output against the tip-bot mails (what the maintainers applied).
review_trailers() {
	perl -ne '
		if (/^From (mboxrd|git)\@z /) { $s = ""; $hdr = 1; $last = ""; next }
		if ($hdr) {
			if (/^\s*$/) { $hdr = 0; next }
			if (/^[ \t]/ && $last eq "s") { chomp; s/^\s+/ /; $s .= $_; next }
			$last = "";
			if (/^Subject:\s*(.*)/i) { $s = $1; $last = "s" }
			next;
		}
		if (/^((Tested|Reviewed|Acked|Reported)-by: .*)/) {
			my $t = $1; my $x = $s;
			$x =~ s/^\s+//;
			$x =~ s/^(\[[^\]]*\]\s*)+//;
			print "$x\t$t\n";
		}' "$1" | sort -u
}

# tip_check OURS TIP: every patch the tip mails name carries exactly the
# trailers tip applied.
tip_check() {
	review_trailers "$1" >ours.rt &&
	review_trailers "$2" >tip.rt &&
	test -s tip.rt &&
	cut -f1 tip.rt | sort -u >tip.subjects &&
	while read -r subj; do
		grep -F "$subj	" tip.rt >want
		grep -F "$subj	" ours.rt >have
		test_cmp want have || return 1
	done <tip.subjects
}
