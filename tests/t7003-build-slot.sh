#!/bin/sh
# The build's output is hostile too: outside the sandbox the bot (root,
# when run as root) reads the slot's O= directory, whose every entry a
# stranger's Makefile chose.  A stand-in tree (as in t7000) whose
# tinyconfig or bzImage recipe plants links, a FIFO or a huge file
# where the bot reads: nothing outside the slot is written or read, the
# build fails at once with the reason, and the slot stays usable.
. "$(dirname "$0")/lib.sh"
test_tier nokernel
. "$TESTS/lib-hostile.sh"

standin_prereqs

SMTP_PW="smtp-pw-$$-Vb7"
MARK="MARKER-$$-Tr9"
CFGDIR=$XDG_CONFIG_HOME/sched-bot
VAULT=$TRASH/vault
SECRET=$TRASH/secret/marker

mkdir -p "$CFGDIR" "$VAULT" "$TRASH/secret"
echo "$SMTP_PW" >"$CFGDIR/smtp-password"
chmod 600 "$CFGDIR/smtp-password"
# a root-only file (the test's own uid's when not root), /etc/shadow-like
printf 'root:%s:19000:0:99999:7:::\nbin:%s-2:19000::::::\n' "$MARK" "$MARK" \
	>"$SECRET"
chmod 600 "$SECRET"
chmod 700 "$TRASH/secret"
echo "precious $$" >"$VAULT/victim"
chmod 600 "$VAULT/victim"
chmod 700 "$VAULT"
touch -d "2001-02-03 04:05:06" "$VAULT/victim"
: >"$TRASH/empty.config"
cat >"$CFGDIR/config" <<EOF
[smtp]
	user = bot
	passwordFile = $CFGDIR/smtp-password
[build]
	cacheDir = $TRASH/builds
	ccache = false
	jobs = 1
	timeout = 120
EOF

# The stand-in tree (lib-hostile.sh).
standin_tree


# build REV OUT: `sched-bot build` of REV, guarded so a hang fails.
build() {
	rc=0
	timeout 120 "$SCHED_BOT" build --tree tree --rev "$1" \
		--base-config tinyconfig --fragment "$TRASH/empty.config" \
		-o "$2" >"$2.stdout" 2>"$2.stderr" || rc=$?
	echo "exit $rc"
	return 0
}

# Print the errors of a failed build as compiler diagnostics: what a
# build-failed mail quotes.
DIAG='sed "s|^|kernel/sched/fair.c:1:1: error: |"'

# --- 1: a link named like the bot's temporary file -------------------
# The temporary name of the old write_file_atomic() was PATH.tmp.<pid>:
# the bot's pid is known here (perl execs it), so the link is exact.
cat >"$TRASH/mkplant" <<EOF
#!/bin/sh
# mkplant PID: the branch "plant", its link named for that pid
TRASH=$TRASH
. "\$TESTS/lib-hostile.sh"
printf '%s\\n' 'echo "CONFIG_A=y" >\$(O)/.config' \\
	"ln -sf $VAULT/victim \\\$(O)/.config.tmp.\$1" >"\$TRASH/plant.mk"
hostile tinyconfig "\$TRASH/plant.mk" plant
EOF
chmod +x "$TRASH/mkplant"

test_expect_success 'a planted .config.tmp link redirects no write' '
	stat -c "%n %a %s %y" vault/victim >vault.before &&
	ls -A vault >>vault.before &&
	rc=0 &&
	timeout 120 perl -e "system(q($TRASH/mkplant), \$\$) == 0 or die;
		exec @ARGV" "$SCHED_BOT" build --tree tree --rev plant \
		--base-config tinyconfig --fragment "$TRASH/empty.config" \
		>p.stdout 2>p.stderr || rc=$? &&
	git -C tree show plant:Makefile >plant.Makefile &&
	test_grep "ln -sf .*/vault/victim .*config.tmp.[0-9]" plant.Makefile &&
	test $rc -eq 0 &&
	test_grep -x "result: built" p.stdout &&
	echo "precious $$" >expect && test_cmp expect vault/victim &&
	stat -c "%n %a %s %y" vault/victim >vault.after &&
	ls -A vault >>vault.after &&
	test_cmp vault.before vault.after
'

test_expect_success '... and the bot wrote nothing into O=' '
	obj=$(ls -d builds/slot-*/obj) &&
	ls -A "$obj" >in-obj &&
	test_grep -x ".config" in-obj && ! test -h "$obj/.config" &&
	test_grep -x ".config.tmp.[0-9]*" in-obj &&
	test "$(ls -A "$obj" | grep -c "^.config.tmp")" -eq 1
'

# --- 2: .config linked to a root-only file --------------------------
printf '%s\n' "ln -sf $SECRET \$(O)/.config" >"$TRASH/t-shadow"
hostile tinyconfig "$TRASH/t-shadow" shadow
printf '%s\n' "-$DIAG \$(O)/.config" "exit 1" >"$TRASH/b-print"
hostile bzImage "$TRASH/b-print" shadow-print shadow
# the link planted after the bot read the config: as the kernel is made
printf '%s\n' 'mkdir -p $(O)/arch/x86/boot' \
	'{ head -c 514 /dev/zero; echo HdrS kernel; } >$(O)/arch/x86/boot/bzImage' \
	"ln -sf $SECRET \$(O)/.config" >"$TRASH/b-late"
hostile bzImage "$TRASH/b-late" shadow-late
if [ -r /etc/shadow ] && [ "$(head -n 1 /etc/shadow | wc -c)" -gt 8 ]; then
	printf '%s\n' "ln -sf /etc/shadow \$(O)/.config" >"$TRASH/t-etc"
	hostile tinyconfig "$TRASH/t-etc" etc-shadow
	hostile bzImage "$TRASH/b-print" etc-shadow-print etc-shadow
	head -n 1 /etc/shadow >"$TRASH/shadow.line"
fi

# no_art REV: no artefact of REV's tree in the cache
no_art() {
	t=$(git -C tree rev-parse "$1^{tree}" | cut -c1-16) &&
	! ls -d builds/art-"$t"-* 2>/dev/null
}

# no_marker FILE...: no line of the root-only file in any of them
no_marker() {
	test_grep ! -r -F "$MARK" "$@"
}

test_expect_success 'a .config linked to a root-only file is not read' '
	build shadow-print s >rc && test_grep -x "exit 1" rc &&
	test_grep -x "result: build failed" s.stdout &&
	test_grep -x "O/.config: not a regular file (a symlink)" s.stdout &&
	no_marker s.stdout s.stderr s builds
'

test_expect_success '... nor when the link comes after the config' '
	build shadow-late l >rc && test_grep -x "exit 1" rc &&
	test_grep -x "result: build failed" l.stdout &&
	test_grep -x "O/.config: not a regular file (a symlink)" l.stdout &&
	no_marker l.stdout l.stderr l builds &&
	! test -e l/config && no_art shadow-late
'

test_expect_success '/etc/shadow through .config reaches nothing' '
	if [ -f shadow.line ]
	then
		build etc-shadow-print e >rc && test_grep -x "exit 1" rc &&
		test_grep "O/.config: not a regular file (a symlink)" \
			e.stdout &&
		test_grep ! -r -F -f shadow.line e.stdout e.stderr e builds
	else
		echo "/etc/shadow is not readable here: the marker stands in"
	fi
'

# --- 3: .config linked to the bot's password file -------------------
printf '%s\n' "ln -sf $CFGDIR/smtp-password \$(O)/.config" >"$TRASH/t-pw"
hostile tinyconfig "$TRASH/t-pw" pw
printf '%s\n' "-$DIAG \$(O)/.config" \
	"-rev \$(O)/.config | $DIAG" \
	"-base64 \$(O)/.config | $DIAG" "exit 1" >"$TRASH/b-pw"
hostile bzImage "$TRASH/b-pw" pw-print pw

test_expect_success 'the password file is not read: plain, reversed, base64' '
	build pw-print w >rc && test_grep -x "exit 1" rc &&
	test_grep -x "O/.config: not a regular file (a symlink)" w.stdout &&
	rev_pw=$(echo "$SMTP_PW" | rev) &&
	b64_pw=$(echo "$SMTP_PW" | base64) &&
	for s in "$SMTP_PW" "$rev_pw" "$b64_pw"; do
		test_grep ! -r -F "$s" w.stdout w.stderr w builds || return 1
	done
'

# --- 4: a symlinked bzImage -----------------------------------------
printf '%s\n' 'mkdir -p $(O)/arch/x86/boot' \
	"ln -sf $SECRET \$(O)/arch/x86/boot/bzImage" >"$TRASH/b-link"
hostile bzImage "$TRASH/b-link" bz-link
printf '%s\n' 'mkdir -p $(O)/arch/x86/boot' \
	"echo $MARK >\$(O)/arch/x86/boot/bzImage" >"$TRASH/b-fake"
hostile bzImage "$TRASH/b-fake" bz-fake

test_expect_success 'a symlinked bzImage is refused and nothing copied' '
	build bz-link k >rc && test_grep -x "exit 1" rc &&
	test_grep -x "result: build failed" k.stdout &&
	test_grep -x "O/arch/x86/boot/bzImage: not a regular file (a symlink)" \
		k.stdout &&
	! test -e k/bzImage && no_art bz-link &&
	no_marker k.stdout k.stderr k builds
'

test_expect_success 'a bzImage without the boot header is refused' '
	build bz-fake f >rc && test_grep -x "exit 1" rc &&
	test_grep "O/arch/x86/boot/bzImage: not a bzImage" f.stdout &&
	! test -e f/bzImage && no_art bz-fake
'

# --- 5, 6: a FIFO, /dev/zero, a huge file as .config ----------------
printf '%s\n' 'rm -f $(O)/.config' 'mkfifo $(O)/.config' >"$TRASH/t-fifo"
hostile tinyconfig "$TRASH/t-fifo" fifo
printf '%s\n' 'ln -sf /dev/zero $(O)/.config' >"$TRASH/t-zero"
hostile tinyconfig "$TRASH/t-zero" zero
printf '%s\n' 'rm -f $(O)/.config' 'truncate -s 5M $(O)/.config' \
	>"$TRASH/t-huge"
hostile tinyconfig "$TRASH/t-huge" huge

# the slot is free again: a build of base in it works (built, not cached)
slot_usable() {
	t=$(git -C tree rev-parse "base^{tree}" | cut -c1-16) &&
	rm -rf builds/art-"$t"-* &&
	build base ok >rc && test_grep -x "exit 0" rc &&
	test_grep -x "result: built" ok.stdout
}

test_expect_success 'a FIFO as .config fails the build, the slot freed' '
	build fifo q >rc && test_grep -x "exit 1" rc &&
	test_grep -x "O/.config: not a regular file (a FIFO)" q.stdout &&
	slot_usable
'

test_expect_success '/dev/zero as .config fails the build at once' '
	build zero z >rc && test_grep -x "exit 1" rc &&
	test_grep -x "O/.config: not a regular file (a symlink)" z.stdout &&
	slot_usable
'

test_expect_success 'a .config over its bound fails the build' '
	build huge h >rc && test_grep -x "exit 1" rc &&
	test_grep -x "O/.config: larger than 4 MiB" h.stdout &&
	slot_usable
'

test_done
