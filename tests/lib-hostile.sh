# lib-hostile.sh - hostile input made on the fly, for tests and benches.

# nested_mime LEVELS PADLINES [MSGID]: one mbox message whose MIME parts
# nest LEVELS deep, each Content-Type folded and commented (so a search
# for "multipart/" in the text misses them), PADLINES lines of text in
# each.  3000 levels with 6 lines are 1.2 MB, 16000 are 6.5 MB.
nested_mime() {
	awk -v n="$1" -v pad="$2" -v id="${3:-nested-$1@evil.example}" \
	    -v now="$(date -R)" 'BEGIN {
		print "From mboxrd@z Thu Jan  1 00:00:00 1970"
		print "Received: from test by 127.0.0.1; " now
		print "From: Mallory <mallory@evil.example>"
		print "To: linux-kernel@vger.kernel.org"
		print "Subject: [PATCH] sched/fair: nested"
		print "Message-ID: <" id ">"
		print "Date: " now
		print "MIME-Version: 1.0"
		print "Content-Type:\n multipart/mixed (c);\n\tboundary=\"b0\""
		print ""
		for (i = 0; i < n; i++) {
			print "--b" i
			print "Content-Type: multipart/mixed (part " i ");\n boundary=\"b" i + 1 "\""
			print ""
			for (k = 0; k < pad; k++)
				print "padding padding padding padding padding padding padding"
		}
	}'
}
