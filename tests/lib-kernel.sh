# tests/lib-kernel.sh - the Debian linux-source-6.1 tree as a git
# repository, made once and kept in a cache shared between test runs (and
# CI jobs): $KCACHE (SCHED_BOT_TEST_CACHE, default
# /var/tmp/sched-bot-test-cache) holds
#   tree/       the tarball imported by `sched-bot tree init`
#   kernel.git  branch "base" and the tests' commits, borrowing tree/ objects
#   builds/     build.cacheDir for the tests (slots, O= dirs, artifacts)
#   ccache/     CCACHE_DIR for the tests
# A cold first run costs the extraction, one commit and a full kernel
# build (minutes); later runs reuse all of it.

KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KCACHE=${SCHED_BOT_TEST_CACHE:-/var/tmp/sched-bot-test-cache}
KTREE=$KCACHE/tree/linux-source-6.1.git
KREPO=$KCACHE/kernel.git

# Skip the whole script unless the tarball and the tools are here.
kernel_prereqs() {
	[ -r "$KERNEL_TARBALL" ] ||
		test_skip_all "$KERNEL_TARBALL is missing (apt-get install linux-source-6.1)"
	for t in git make gcc flex bison bc tar xz; do
		command -v $t >/dev/null || test_skip_all "$t is not installed"
	done
}

# Make $KREPO unless it is there: `sched-bot tree init` imports the tarball
# into $KTREE once (shared with t4002 and t6900, never written after), and
# $KREPO borrows its objects (alternates) and holds branch "base" plus the
# tests' own commits.  Serialised with flock.
kernel_repo() {
	mkdir -p "$KCACHE/tree" &&
	"$SCHED_BOT" tree init --tarball "$KERNEL_TARBALL" "$KTREE" \
		>/dev/null || return 1
	(
		flock 9
		if git -C "$KREPO" rev-parse -q --verify base >/dev/null 2>&1
		then
			exit 0
		fi
		base=$(git -C "$KTREE" rev-parse --verify linux-6.1) &&
		rm -rf "$KREPO.tmp" &&
		git init -q --bare "$KREPO.tmp" &&
		echo "$KTREE/objects" >"$KREPO.tmp/objects/info/alternates" &&
		git -C "$KREPO.tmp" update-ref refs/heads/base "$base" &&
		mv "$KREPO.tmp" "$KREPO"
	) 9>"$KCACHE/kernel.git.lock"
}

# kernel_work_repo TARBALL TREE WORK: TREE imported from TARBALL by
# `sched-bot tree init` (once), and WORK, a bare repository with TREE's
# refs that borrows its objects: the tree.path of the end-to-end tests.
kernel_work_repo() {
	mkdir -p "$(dirname "$2")" &&
	"$SCHED_BOT" tree init --tarball "$1" "$2" || return 1
	test -d "$3" && return 0
	rm -rf "$3.tmp" &&
	git init -q --bare "$3.tmp" &&
	echo "$2/objects" >"$3.tmp/objects/info/alternates" &&
	git --git-dir="$2" for-each-ref --format="%(refname) %(objectname)" |
	while read ref oid; do
		git --git-dir="$3.tmp" update-ref "$ref" "$oid" || exit 1
	done &&
	git --git-dir="$3.tmp" symbolic-ref HEAD refs/heads/linux-6.1 &&
	mv "$3.tmp" "$3"
}

# kernel_commit_to REPO REV FILE SED-EXPR SUBJECT: a commit on REV of
# REPO (bare or not) with FILE edited by SED-EXPR, without touching any
# work tree; prints it.  The author is Ada Author unless GIT_AUTHOR_NAME
# and GIT_AUTHOR_EMAIL say otherwise.
kernel_commit_to() {
	idx=$TRASH/kernel-index.$$
	blob=$(git -C "$1" show "$2:$3" | sed "$4" |
		git -C "$1" hash-object -w --stdin) &&
	rm -f "$idx" &&
	GIT_INDEX_FILE=$idx git -C "$1" read-tree "$2" &&
	GIT_INDEX_FILE=$idx git -C "$1" update-index \
		--cacheinfo "100644,$blob,$3" &&
	tree=$(GIT_INDEX_FILE=$idx git -C "$1" write-tree) &&
	rm -f "$idx" &&
	git -C "$1" -c user.name="${GIT_AUTHOR_NAME:-Ada Author}" \
		-c user.email="${GIT_AUTHOR_EMAIL:-ada@example.org}" \
		commit-tree "$tree" -p "$2" -m "$5"
}

# kernel_commit REV FILE SED-EXPR BRANCH: commit REV of the cached tree
# with FILE edited by SED-EXPR as BRANCH, with fixed dates so that the
# commit, and so its cached build, is the same from run to run.
kernel_commit() {
	c=$(GIT_AUTHOR_DATE="1970-01-01T00:00:00Z" \
	    GIT_COMMITTER_DATE="1970-01-01T00:00:00Z" \
	    GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@localhost \
	    GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@localhost \
		kernel_commit_to "$KREPO" "$1" "$2" "$3" "$4") &&
	git -C "$KREPO" branch -f "$4" "$c"
}

# kernel_build_section: the [build] section of the kernel tests'
# configurations: the shared build cache and ccache, the fragments.
kernel_build_section() {
	mkdir -p "$KCACHE/builds" "$KCACHE/ccache"
	cat <<-CFG
	[build]
		cacheDir = $KCACHE/builds
		ccacheDir = $KCACHE/ccache
		fragmentDir = $TOP/kernel/configs
		jobs = 2
	CFG
}

# kernel_config_only: for a script that runs only olddefconfig (build
# --dry-run), never a compiler: the prerequisites, bubblewrap (the
# build's sandbox), the kernel repository, and $CFG with the [build]
# section; not kernel_config, whose kernel_warm builds the base kernel.
kernel_config_only() {
	kernel_prereqs
	command -v bwrap >/dev/null ||
		test_skip_all "bubblewrap is not installed (contrib/install-deps)"
	kernel_repo || test_fail_all "could not make the kernel repository"
	CFG=$XDG_CONFIG_HOME/sched-bot/config
	mkdir -p "$(dirname "$CFG")"
	kernel_build_section >"$CFG"
}

# sched-bot's configuration for the kernel tests.
kernel_config() {
	mkdir -p "$XDG_CONFIG_HOME/sched-bot"
	kernel_build_section >"$XDG_CONFIG_HOME/sched-bot/config"
	cat >>"$XDG_CONFIG_HOME/sched-bot/config" <<-CFG
	[target "qemu"]
		smp = 2
		mem = 512
		timeout = 300
	CFG
	export CCACHE_DIR="$KCACHE/ccache"
	kernel_warm
}

# kernel_job_setup: what a test of whole jobs on QEMU-booted kernels of
# the cached tree needs (t6011, t6016, t6017): the prerequisites (a
# missing tool skips the script, a repository that cannot be made fails
# it), kernel_config, a bot identity (lib-bot.sh's bot_config), and the
# job settings for the pipeline rather than the kernel: 1-second runs,
# spawn without its gap, TCG's spread not called noise (noisyPct), and
# a boot timeout for a loaded host.  Sets CFG to the configuration.
kernel_job_setup() {
	kernel_prereqs
	command -v qemu-system-x86_64 >/dev/null ||
		test_skip_all "QEMU is not installed"
	command -v cpio >/dev/null || test_skip_all "cpio is not installed"
	kernel_repo || test_fail_all "could not make the kernel repository"
	kernel_config
	CFG=$XDG_CONFIG_HOME/sched-bot/config
	bot_config "$TRASH/bot.cfg"
	cat "$TRASH/bot.cfg" >>"$CFG"
	git config -f "$CFG" tree.path "$KREPO"
	git config -f "$CFG" job.seconds 1
	git config -f "$CFG" job.spawnGap 0
	git config -f "$CFG" compare.noisyPct 10000
	git config -f "$CFG" target.qemu.timeout 600
}

# kernel_ccache_misses: the compiles that missed the tests' ccache so far
# (empty without ccache); builds of posted series (untrusted) read it
# without counting.
kernel_ccache_misses() {
	CCACHE_DIR=$KCACHE/ccache ccache --print-stats 2>/dev/null |
		awk '$1 == "cache_miss" { print $2 }'
}

# kernel_warm: the base kernel with the tests' fragments, built once per
# cache before a script builds its own.  The kernel scripts run in
# parallel (tests/run-tests), and two cold builds of the same sources at
# once both miss ccache: the suite's longest part, twice.  Under the lock
# one script builds and the others wait, then theirs (other commits of
# the same sources, the machine's config that is this one) come from
# ccache; a warm cache answers "cached" at once.  Fails the script when
# the base does not build.
# A cold build keeps its ccache misses in $KCACHE/base-misses: the
# size of a whole kernel from nothing, against which tests/run-tests
# counts the cold kernels of a run (nothing else compiles while the
# lock is held: every script that builds calls kernel_warm first).
kernel_warm() {
	kernel_repo || test_fail_all "could not make the kernel repository"
	kernel_build_section >"$TRASH/warm.cfg"
	(
		flock 9
		m0=$(kernel_ccache_misses)
		"$SCHED_BOT" --config "$TRASH/warm.cfg" build --tree "$KREPO" \
			--rev base --trusted >"$TRASH/warm.out" 2>&1 || exit 1
		m1=$(kernel_ccache_misses)
		if grep -qx "result: built" "$TRASH/warm.out" &&
		   [ -n "$m0" ] && [ -n "$m1" ]; then
			echo $((m1 - m0)) >"$KCACHE/base-misses"
		fi
	) 9>"$KCACHE/warm.lock" || {
		tail -n 20 "$TRASH/warm.out"
		test_fail_all "the base kernel did not build (kernel_warm)"
	}
	# the log of the suite says which script built it cold
	sed -n "s/^result: /# kernel_warm: base kernel /p" "$TRASH/warm.out"
}

# kernel_warm_series MBOX NAME: the patches of MBOX, in order, on base
# as branch NAME-<the mbox's blob id> (fixed dates, as kernel_commit;
# a changed mbox is another branch), built once per cache under
# kernel_warm's lock, untrusted as a job builds a posted series:
# incrementally in base's slot, so only what the series changes is
# compiled.  A job that applies the same series on the same base makes
# the same tree, so its patched build is then "cached": the scripts
# that test one series end to end (t6900, t8001) neither build it beside
# each other nor from nothing in slots of their own, and hold no lock
# for their whole run.
kernel_warm_series() {
	kernel_warm
	kws_branch=$2-$(git hash-object "$1" | cut -c1-12)
	(
		flock 9
		if ! git -C "$KREPO" rev-parse -q --verify "$kws_branch" >/dev/null
		then
			rm -rf "$TRASH/series.split" &&
			mkdir "$TRASH/series.split" &&
			git mailsplit -o"$TRASH/series.split" "$1" >/dev/null &&
			idx=$TRASH/series.index &&
			rm -f "$idx" &&
			GIT_INDEX_FILE=$idx git -C "$KREPO" read-tree base &&
			for p in "$TRASH"/series.split/*; do
				grep -q "^diff --git" "$p" || continue
				GIT_INDEX_FILE=$idx git -C "$KREPO" apply \
					--cached "$p" || exit 1
			done &&
			tree=$(GIT_INDEX_FILE=$idx git -C "$KREPO" write-tree) &&
			c=$(GIT_AUTHOR_DATE="1970-01-01T00:00:00Z" \
			    GIT_COMMITTER_DATE="1970-01-01T00:00:00Z" \
			    git -C "$KREPO" -c user.name=test \
				-c user.email=test@localhost commit-tree "$tree" \
				-p base -m "$(basename "$1")") &&
			git -C "$KREPO" branch -f "$kws_branch" "$c" || exit 1
		fi
		"$SCHED_BOT" --config "$TRASH/warm.cfg" build --tree "$KREPO" \
			--rev "$kws_branch" >"$TRASH/warm-series.out" 2>&1
	) 9>"$KCACHE/warm.lock" || {
		tail -n 20 "$TRASH/warm-series.out" 2>/dev/null
		test_fail_all "the series of $1 did not build (kernel_warm_series)"
	}
	sed -n "s/^result: /# kernel_warm_series: $kws_branch /p" "$TRASH/warm-series.out"
}
