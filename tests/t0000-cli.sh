#!/bin/sh
# The command line: help, version, exit codes, configuration.
. "$(dirname "$0")/lib.sh"

test_expect_success 'version prints the version' '
	"$SCHED_BOT" --version | grep -E "^sched-bot [0-9]+\.[0-9]+"
'

test_expect_success 'help lists every pipeline command' '
	"$SCHED_BOT" help >out &&
	for c in fetch series am tree apply build boot run compare test cron; do
		test_grep "^   $c " out || { echo "missing $c"; exit 1; }
	done
'

test_expect_failure_code 'unknown command is a usage error' 2 \
	'"$SCHED_BOT" frobnicate'

test_expect_failure_code 'no command is a usage error' 2 '"$SCHED_BOT"'

test_expect_success 'config --list reads a git-config file' '
	mkdir -p "$XDG_CONFIG_HOME/sched-bot" &&
	printf "[lore]\n\turl = http://127.0.0.1:1\n[smtp]\n\tpassword = hunter2\n" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	"$SCHED_BOT" config --list >out &&
	test_grep "^lore.url=http://127.0.0.1:1$" out &&
	test_grep "^smtp.password=<hidden>$" out &&
	test_grep ! hunter2 out
'

test_expect_success 'config --list hides credentials inside URLs' '
	printf "[lore]\n\turl = https://bot:s3cret@127.0.0.1:1/x@y\n" \
		>"$XDG_CONFIG_HOME/sched-bot/config" &&
	"$SCHED_BOT" config --list >out &&
	test_grep "^lore.url=https://<hidden>@127.0.0.1:1/x@y$" out &&
	test_grep ! s3cret out
'

test_expect_success '--config FILE overrides the default file' '
	printf "[lore]\n\turl = http://127.0.0.1:2\n" >other &&
	"$SCHED_BOT" --config other config --get lore.url >out &&
	test "$(cat out)" = "http://127.0.0.1:2"
'

test_expect_failure_code 'a missing --config file is a usage error' 2 \
	'"$SCHED_BOT" --config /nonexistent/file config --list'

test_done
