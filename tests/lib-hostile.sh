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

# many_files_patch DIR N: a repository DIR (bare, one commit on branch
# base) with N files and, on stdout, one mail with a patch changing
# every one of them.
many_files_patch() {
	local dir=$1 n=$2
	rm -rf "$dir.work" "$dir" &&
	git init -q "$dir.work" &&
	# no gc in the background while the clone copies objects
	git -C "$dir.work" config gc.auto 0 &&
	awk -v n="$n" -v d="$dir.work" 'BEGIN {
		for (i = 0; i < n; i++) {
			f = sprintf("%s/d%03d/f%05d.c", d, i % 100, i)
			if (i < 100)
				system("mkdir -p " d "/d" sprintf("%03d", i))
			print "int x" i " = 1;" >f
			close(f)
		}
	}' &&
	git -C "$dir.work" add -A &&
	git -C "$dir.work" -c user.name=x -c user.email=x@y commit -q -m base &&
	git -C "$dir.work" branch -q -M base &&
	git -C "$dir.work" ls-files -z |
		(cd "$dir.work" && xargs -0 sed -i "s/= 1;/= 2;/") &&
	git -C "$dir.work" -c user.name=x -c user.email=x@y commit -q -am "sched: change $n files" &&
	git -C "$dir.work" format-patch -1 --stdout |
		sed "1s/^From .*/From mboxrd@z Thu Jan  1 00:00:00 1970/" &&
	git clone -q --bare "$dir.work" "$dir" &&
	git -C "$dir" update-ref refs/heads/base "$(git -C "$dir" rev-parse HEAD~1)" &&
	rm -rf "$dir.work"
}

# many_patches_mbox N: an mbox of a series of N patches, patch i
# changing file i (d<i % 100>/f<i>.c) only, each in reply to patch 1:
# the work of applying patch i is the same for every i.
many_patches_mbox() {
	awk -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++) {
			f = sprintf("d%03d/f%05d.c", i % 100, i)
			print "From mboxrd@z Thu Jan  1 00:00:00 1970"
			print "From: Mallory <mallory@example.org>"
			print "Date: Tue, 25 Oct 2022 13:38:42 -0400"
			printf "Subject: [PATCH %d/%d] sched: change file %d\n", i, n, i
			printf "Message-Id: <many.%d@example.org>\n", i
			if (i > 1)
				print "In-Reply-To: <many.1@example.org>"
			print ""
			printf "Change %d.\n\n", i
			print "Signed-off-by: Mallory <mallory@example.org>"
			print "---"
			printf "diff --git a/%s b/%s\n", f, f
			print "index 1234567..89abcde 100644"
			printf "--- a/%s\n+++ b/%s\n", f, f
			print "@@ -1 +1 @@"
			printf "-int x%d = 1;\n+int x%d = 2;\n\n", i, i
		}
	}'
}

# many_patches_series DIR N: a repository DIR (bare, one commit on
# branch base) with the N files many_patches_mbox N changes, in 100
# directories, and that mbox on stdout.
many_patches_series() {
	local dir=$1 n=$2
	rm -rf "$dir.work" "$dir" &&
	git init -q "$dir.work" &&
	git -C "$dir.work" config gc.auto 0 &&
	awk -v n="$n" -v d="$dir.work" 'BEGIN {
		for (i = 1; i <= n; i++) {
			if (i <= 100)
				system("mkdir -p " d "/d" sprintf("%03d", i % 100))
			f = sprintf("%s/d%03d/f%05d.c", d, i % 100, i)
			print "int x" i " = 1;" >f
			close(f)
		}
	}' &&
	git -C "$dir.work" add -A &&
	git -C "$dir.work" -c user.name=x -c user.email=x@y commit -q -m base &&
	git -C "$dir.work" branch -q -M base &&
	git clone -q --bare "$dir.work" "$dir" &&
	rm -rf "$dir.work" &&
	many_patches_mbox "$n"
}

# standin_tree: $TRASH/tree, a git repository on branch base whose
# Makefile answers what `sched-bot build` asks (tinyconfig, olddefconfig,
# kernelrelease, and a bzImage with the boot protocol's magic at 0x202,
# which the bot checks): the kernel's place where the build, not the
# kernel, is under test.
standin_tree() {
	git init -q "$TRASH/tree" &&
	mkdir -p "$TRASH/tree/kernel/sched" &&
	echo "int x;" >"$TRASH/tree/kernel/sched/fair.c" &&
	cat >"$TRASH/tree/Makefile" <<'MK' &&
O ?= .
tinyconfig:
	echo "CONFIG_A=y" >$(O)/.config
olddefconfig:
	@true
kernelrelease:
	@echo 6.1.0-standin
bzImage:
	mkdir -p $(O)/arch/x86/boot
	{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage
MK
	git -C "$TRASH/tree" add -A &&
	git -C "$TRASH/tree" -c user.name=t -c user.email=t@t commit -qm base &&
	git -C "$TRASH/tree" branch -q base
}

# standin_job_config FILE [DIR]: to FILE, the configuration of jobs on
# the stand-in tree (its bare clone $TRASH/repo.git, made by the test):
# the jobs and the outbox in DIR (default $TRASH), the state and the
# builds in $TRASH, the tree's tinyconfig with kernel/configs on top,
# no lore asked, pingpong without its warm-up (job.warmup 0: these jobs
# check the pipeline); the local target, where these jobs run, stands in for
# a machine fit to vouch (target.local.vouch: contrib/operating.md, "Who gets which
# mail").  A test appends its own keys, or sets one of these with git
# config -f FILE (each is set once).
standin_job_config() {
	mkdir -p "$(dirname "$1")" &&
	cat >"$1" <<-EOC
	[tree]
		path = $TRASH/repo.git
	[job]
		dir = ${2:-$TRASH}/jobs
		warmup = 0
	[state]
		db = $TRASH/state.db
	[outbox]
		dir = ${2:-$TRASH}/outbox
		checkLore = false
	[build]
		cacheDir = $TRASH/builds
		ccache = false
		baseConfig = tinyconfig
		fragmentDir = $TOP/kernel/configs
	[target "local"]
		vouch = true
	EOC
}

# hostile TARGET RECIPE-FILE BRANCH [FROM]: branch BRANCH of the stand-in
# tree, FROM (default base) with TARGET's recipe replaced by the lines of
# RECIPE-FILE: what a patch to the top Makefile makes of a kernel tree.
hostile() {
	git -C "$TRASH/tree" checkout -q -B "$3" "${4:-base}" &&
	awk -v t="$1:" -v f="$2" '
		skip && /^\t/ { next }
		{ skip = 0 }
		$0 == t { print; while ((getline l < f) > 0) print "\t" l;
			  skip = 1; next }
		{ print }' "$TRASH/tree/Makefile" >"$TRASH/mk" &&
	cp "$TRASH/mk" "$TRASH/tree/Makefile" &&
	git -C "$TRASH/tree" -c user.name=t -c user.email=t@t \
		commit -qam "$3" &&
	git -C "$TRASH/tree" checkout -q base
}

# standin_prereqs: what a stand-in tree's build needs here (a sandbox and
# make), or the whole script is skipped (a failure under CI).
standin_prereqs() {
	command -v bwrap >/dev/null ||
		test_skip_all "bubblewrap is not installed (contrib/install-deps)"
	command -v make >/dev/null || test_skip_all "make is not installed"
}

# elf_script FILE: to FILE, a perl program "mkelf OUT SIZE SECTION..."
# that writes OUT, an ELF64 x86-64 executable of SIZE bytes (sparse: what
# no section header put there reads as zeroes) with the section headers
# SECTION..., each NAME:TYPE:FLAGS:OFFSET:SIZE (TYPE progbits, nobits or
# strtab; FLAGS of a (alloc), w, x; "-" for none); its section names at
# byte 64, its section headers after them.  What a hostile make may link
# as vmlinux, where only the headers matter: made inside the sandbox by
# a Makefile, or by a test.
elf_script() {
	cat >"$1" <<'PL'
use strict;
my ($out, $size, @spec) = @ARGV;
my %type = (progbits => 1, symtab => 2, strtab => 3, nobits => 8);
my $names = "\0.shstrtab\0";
my @sh;
for (@spec) {
	my ($n, $t, $f, $off, $sz) = split /:/;
	my $fl = 0;
	$fl |= 1 if $f =~ /w/;
	$fl |= 2 if $f =~ /a/;
	$fl |= 4 if $f =~ /x/;
	die "mkelf: type $t?\n" unless $type{$t};
	push @sh, [length($names), $type{$t}, $fl, $off, $sz];
	$names .= "$n\0";
}
my $shoff = (64 + length($names) + 7) & ~7;
my $eh = pack("a16 S S L Q Q Q L S S S S S S", "\x7fELF\x02\x01\x01", 2, 62,
	      1, 0, 0, $shoff, 0, 64, 56, 0, 64, @sh + 2, 1);
my $shdrs = pack("x64") . pack("L L Q Q Q Q L L Q Q", 1, 3, 0, 0, 64,
			       length($names), 0, 0, 1, 0);
$shdrs .= pack("L L Q Q Q Q L L Q Q", $_->[0], $_->[1], $_->[2],
	       0x1000000 + $_->[3], $_->[3], $_->[4], 0, 0, 16, 0) for @sh;
open(my $fh, ">", $out) or die "mkelf: $out: $!\n";
binmode $fh;
print $fh $eh, $names;
seek($fh, $shoff, 0);
print $fh $shdrs;
close $fh or die "mkelf: $out: $!\n";
truncate($out, $size) or die "mkelf: $out: $!\n";
PL
}

# elf_file OUT SIZE SECTION...: elf_script's program run.
elf_file() {
	elf_script "$TRASH/mkelf.pl" && perl "$TRASH/mkelf.pl" "$@"
}

# hostile_file BRANCH PATH FILE: FILE committed as PATH on BRANCH (made by
# hostile()): a tool the branch's Makefile runs in the sandbox.
hostile_file() {
	git -C "$TRASH/tree" checkout -q "$1" &&
	mkdir -p "$(dirname "$TRASH/tree/$2")" &&
	cp "$3" "$TRASH/tree/$2" &&
	git -C "$TRASH/tree" add "$2" &&
	git -C "$TRASH/tree" -c user.name=t -c user.email=t@t \
		commit -qm "$1: $2" &&
	git -C "$TRASH/tree" checkout -q base
}
