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
