# tests/lib-buildahead.sh - bases built ahead on the real kernel, for
# t4102 and tests/bench/build-ahead.sh: a "tip" tree served by git
# daemon on 127.0.0.1 (Debian's 6.1 import, its sched/core moved by
# commits to kernel/sched/fair.c), the bot's configuration, and series
# on a head of it as lore would serve them.  Source after lib.sh,
# lib-kernel.sh and lib-lore.sh.
#
# The bot's tree is a work repository of its own beside the end-to-end
# tests' (t6900, t8001): its build slot holds a built O= directory, so a
# commit that changes one file builds incrementally, as a bot's tree
# does day to day.  The tree and builds are in $KCACHE; the state, the
# jobs and the outbox in $TRASH.

BA_WORK=$KCACHE/bot-ahead.git
BA_SRV=$TRASH/srv/tip.git

# ba_commit REV SED-EXPR SUBJECT: REV of the served tree with
# kernel/sched/fair.c edited by SED-EXPR, committed; prints it.
ba_commit() {
	kernel_commit_to "$BA_SRV" "$1" kernel/sched/fair.c "$2" "$3"
}

# ba_serve: the served tree, borrowing the import's objects, with
# sched/core at the import; git daemon on it.  Sets BA_PORT and
# BA_DAEMON_PID (the pid file is $TRASH/ba-daemon.pid).
ba_serve() {
	kernel_work_repo "$KERNEL_TARBALL" "$KTREE" "$BA_WORK" >/dev/null &&
	mkdir -p "$TRASH/srv" &&
	git init -q --bare "$BA_SRV" &&
	echo "$KTREE/objects" >"$BA_SRV/objects/info/alternates" &&
	git --git-dir="$BA_SRV" update-ref refs/heads/sched/core \
		"$(git --git-dir="$KTREE" rev-parse linux-6.1)" &&
	BA_PORT=$(free_port) &&
	git daemon --base-path="$TRASH/srv" --export-all --reuseaddr \
		--listen=127.0.0.1 --port=$BA_PORT \
		--pid-file="$TRASH/ba-daemon.pid" --detach || return 1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		git ls-remote "git://127.0.0.1:$BA_PORT/tip.git" \
			>/dev/null 2>&1 && break
		sleep 0.2
	done
	BA_DAEMON_PID=$(cat "$TRASH/ba-daemon.pid")
	git ls-remote "git://127.0.0.1:$BA_PORT/tip.git" | grep -q sched/core
}

# ba_move STAMP: sched/core moves by one commit, a comment at the top
# of fair.c; prints the new head.
ba_move() {
	c=$(ba_commit "$(git --git-dir="$BA_SRV" rev-parse sched/core)" \
		"1s|^|// built ahead $1\n|" "sched/fair: Move the head $1") &&
	git --git-dir="$BA_SRV" update-ref refs/heads/sched/core "$c" &&
	echo "$c"
}

# ba_config: the bot's configuration (lore_start wrote lore.*): the job
# on QEMU with the fewest runs the job tests use.  ccache is named in the
# configuration, not by CCACHE_DIR: ba_config runs inside a test, a
# subshell, and the cron runs of the next tests would build into
# builds/ccache, which no other kernel test reads (a second cold build).
ba_config() {
	cfg=$XDG_CONFIG_HOME/sched-bot/config
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" "$KCACHE/builds" "$KCACHE/ccache"
	git config -f "$cfg" bot.name "Sched Bot" &&
	git config -f "$cfg" bot.email bot@sched-bot.example.org &&
	git config -f "$cfg" bot.workloads spawn &&
	git config -f "$cfg" job.minRuns 2 &&
	git config -f "$cfg" job.maxRuns 2 &&
	git config -f "$cfg" job.seconds 2 &&
	git config -f "$cfg" job.spawnGap 0 &&
	git config -f "$cfg" job.target qemu &&
	git config -f "$cfg" target.qemu.smp 2 &&
	git config -f "$cfg" target.qemu.mem 512 &&
	git config -f "$cfg" target.qemu.timeout 600 &&
	git config -f "$cfg" outbox.checkLore false &&
	git config -f "$cfg" lore.cacheMaxAge 0 &&
	git config -f "$cfg" tree.path "$BA_WORK" &&
	git config -f "$cfg" build.cacheDir "$KCACHE/builds" &&
	git config -f "$cfg" build.ccacheDir "$KCACHE/ccache" &&
	git config -f "$cfg" build.fragmentDir "$TOP/kernel/configs" &&
	git config -f "$cfg" build.jobs 2 &&
	git config -f "$cfg" tree.tip.url "git://127.0.0.1:$BA_PORT/tip.git" &&
	git config -f "$cfg" tree.tip.branches sched/core &&
	git config -f "$cfg" tree.tip.lists linux-kernel@vger.kernel.org &&
	git config -f "$cfg" tree.tip.paths kernel/sched/
}

# ba_series BASE STAMP OUT: a one-patch series on BASE (a real change:
# the migration cost, different each STAMP), base-commit: BASE, as
# lore serves it, freshly received; Message-ID <ba-STAMP@example.org>.
ba_series() {
	cost=$((400000 + $(echo "$2" | cksum | cut -d" " -f1) % 90000)) &&
	p=$(ba_commit "$1" \
		"s/sysctl_sched_migration_cost\t= 500000UL;/sysctl_sched_migration_cost\t= ${cost}UL;/" \
		"sched/fair: Lower the migration cost ($2)") &&
	git --git-dir="$BA_SRV" format-patch -q --stdout --base="$1" \
		--to=linux-kernel@vger.kernel.org \
		--add-header="Message-ID: <ba-$2@example.org>" -1 "$p" |
	awk -v now="$(date -R)" '
		NR == 1 && /^From / {
			print "From mboxrd@z Thu Jan  1 00:00:00 1970"
			print "Received: from test by 127.0.0.1; " now
			next
		}
		{ print }' >"$3" &&
	grep -q "^+.*sysctl_sched_migration_cost.*= ${cost}UL;" "$3"
}

# ba_art REV: the build artefact directories of REV of the bot's tree.
ba_art() {
	t=$(git --git-dir="$BA_WORK" rev-parse "$1^{tree}" 2>/dev/null |
		cut -c1-16) &&
	[ -n "$t" ] && ls -d "$KCACHE/builds/art-$t-"* 2>/dev/null
}
