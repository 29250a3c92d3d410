# sched-bot - test Linux scheduler patches from lore, report on-list.
#
#   make                 build sched-bot and sched-bench (and, where the
#                        aarch64 cross compiler is, sched-bench for arm64)
#   make arm64           sched-bench and its spawn helper for an arm64 target
#   make check           every test; ends with "N passed, N failed"
#   make check SANITIZE=1  the same with ASan+UBSan
#   make bench           benchmarks that print figures
#   make fuzz            each libFuzzer target for FUZZ_SECONDS
#   make install PREFIX=/usr/local   (binaries, man pages, completion)
#   make demo            the main job on the bundled series (README.md)

VERSION := 0.1
# The commit the tool is built from, for --version: git describe in a
# checkout of this tree (not of a repository this tree merely sits in),
# nothing outside one (a release tarball), where the version alone is said.
GIT_COMMIT := $(shell test "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" && \
	git describe --always --dirty 2>/dev/null)
PREFIX ?= /usr/local
CC ?= cc
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30

PKGS := libcurl libgit2 libcmark zlib sqlite3 libetpan json-c opendkim libelf \
	libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# libetpan's .pc drags in a dpkg linker spec and its own dependencies'
# flags; take only the library names.
PKG_LIBS := $(filter -l%,$(shell pkg-config --libs $(PKGS)))

WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -D_GNU_SOURCE \
	-DSCHED_BOT_VERSION='"$(VERSION)"' -Ibot $(PKG_CFLAGS) -MMD -MP
LIBS := $(PKG_LIBS) -lcsv -lm

ifdef SANITIZE
BUILD := build-san
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
ALL_CFLAGS += $(SAN)
LDFLAGS += $(SAN)
else
BUILD := build
endif

# git's LIB_OBJS / BUILTIN_OBJS split: the library is everything but
# bot/builtin/, and no library object may need a builtin (check-lib).
LIB_SRCS := $(wildcard bot/*.c bot/target/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
BUILTIN_SRCS := $(wildcard bot/builtin/*.c)
BUILTIN_OBJS := $(BUILTIN_SRCS:%.c=$(BUILD)/%.o)
# The libc-only library modules that sched-bench is built with too.
BENCH_SHARED := bot/procstat.c bot/benchcalc.c bot/interleave.c bot/benchopts.c
# sched-bench-spawn, the dynamic helper spawn forks from, is its own program.
SPAWN_HELPER_SRCS := bot/workloads/spawn-helper.c bot/workloads/spawn-copy.c
BENCH_SRCS := $(filter-out bot/workloads/spawn-helper.c,$(wildcard bot/workloads/*.c))
BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/%.o) \
	$(BENCH_SHARED:bot/%.c=$(BUILD)/bench-shared/%.o)
UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_BINS := $(FUZZ_SRCS:%.c=build-fuzz/%)

all: $(BUILD)/sched-bot $(BUILD)/sched-bench $(BUILD)/sched-bench-spawn \
	$(BUILD)/sched-bot.1 $(BUILD)/sched-bench.1 \
	sched-bot sched-bench sched-bot.1 sched-bench.1

sched-bot sched-bench sched-bot.1 sched-bench.1: %: $(BUILD)/%
	ln -sf $< $@

# The manual pages are printed from the option tables, like --help: one
# source for both (sched-bench's is bot/benchopts.c).
$(BUILD)/sched-bot.1: $(BUILD)/sched-bot
	$< help --man >$@
$(BUILD)/sched-bench.1: $(BUILD)/sched-bench
	$< --man >$@

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Only main.c says the commit (--version): it alone is rebuilt when the
# commit changes, which GIT-COMMIT, rewritten only then, tells make.
$(BUILD)/GIT-COMMIT: FORCE
	@mkdir -p $(dir $@)
	@echo "$(GIT_COMMIT)" | cmp -s - $@ || echo "$(GIT_COMMIT)" >$@
$(BUILD)/bot/builtin/main.o: $(BUILD)/GIT-COMMIT
$(BUILD)/bot/builtin/main.o: ALL_CFLAGS += -DSCHED_BOT_COMMIT='"$(GIT_COMMIT)"'

# The allowlist is a prerequisite: shrinking it re-runs check-config.
$(BUILD)/libsched-bot.a: $(LIB_OBJS) tests/config-at-bottom.txt
	rm -f $@
	ar rcs $@ $(LIB_OBJS)
	@sh tests/check-lib $@
	@sh tests/check-config $@ tests/config-at-bottom.txt

$(BUILD)/sched-bot: $(BUILTIN_OBJS) $(BUILD)/libsched-bot.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# sched-bench runs inside a tiny initramfs and over SSH: static, libc only,
# never sanitized (it forks thousands of times a second).
BENCH_CFLAGS := -std=gnu11 $(WARN) -O2 -g -D_GNU_SOURCE -MMD -MP
$(BUILD)/bot/workloads/%.o: bot/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<
$(BUILD)/bench-shared/%.o: bot/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -Ibot -c -o $@ $<

$(BUILD)/sched-bench: $(BENCH_OBJS)
	$(CC) -static -o $@ $^ -lm

# UnixBench's pgms/spawn is a small dynamically linked program, and fork
# copies the forking address space: the spawn loop runs in this helper,
# linked dynamically against libc (shipped with its loader to the QEMU
# initramfs and ssh targets), so that it forks what UnixBench forks.
$(BUILD)/sched-bench-spawn: $(SPAWN_HELPER_SRCS:%.c=$(BUILD)/%.o) \
	$(BUILD)/bench-shared/procstat.o
	$(CC) -o $@ $^

# The target programs for an arm64 machine, cross-built with Debian's
# toolchain (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross): the same
# sources and flags, so that an arm64 target runs what an x86_64 one
# runs, never an x86 binary.  Built with the rest where the cross
# compiler is installed; `make arm64` asks for them.
CROSS_arm64 ?= aarch64-linux-gnu-
ARM64 := $(BUILD)/arm64
ARM64_BENCH_OBJS := $(BENCH_SRCS:%.c=$(ARM64)/%.o) \
	$(BENCH_SHARED:bot/%.c=$(ARM64)/bench-shared/%.o)
ARM64_PROGS := $(ARM64)/sched-bench $(ARM64)/sched-bench-spawn
$(ARM64)/bot/workloads/%.o: bot/workloads/%.c
	@mkdir -p $(dir $@)
	$(CROSS_arm64)gcc $(BENCH_CFLAGS) -c -o $@ $<
$(ARM64)/bench-shared/%.o: bot/%.c
	@mkdir -p $(dir $@)
	$(CROSS_arm64)gcc $(BENCH_CFLAGS) -Ibot -c -o $@ $<
$(ARM64)/sched-bench: $(ARM64_BENCH_OBJS)
	$(CROSS_arm64)gcc -static -o $@ $^ -lm
$(ARM64)/sched-bench-spawn: $(SPAWN_HELPER_SRCS:%.c=$(ARM64)/%.o) \
	$(ARM64)/bench-shared/procstat.o
	$(CROSS_arm64)gcc -o $@ $^
arm64: $(ARM64_PROGS)
ifneq ($(shell command -v $(CROSS_arm64)gcc),)
all: $(ARM64_PROGS)
endif

# The unit tests link the library, and the tool's one file that fills
# the library's options from the configuration (no command in it).
UNIT_TOOL_OBJS := $(BUILD)/bot/builtin/config-opts.o
$(BUILD)/tests/unit/%: tests/unit/%.c $(UNIT_TOOL_OBJS) $(BUILD)/libsched-bot.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< \
		$(UNIT_TOOL_OBJS) $(BUILD)/libsched-bot.a $(LIBS)

units: $(UNIT_BINS)

# The tests run J at a time (default: the CPU count), the longest first
# (tests/run-tests); T=PATTERN picks scripts, TEST_OPTS="-v -i --run=3-5"
# is handed to each.  check-fast leaves out the kernel tier (builds and
# boots of real kernels); check-long adds the long kernel scripts.
TEST_ENV = BUILD=$(abspath $(BUILD)) J="$(J)" T="$(T)" \
	TEST_OPTS="$(TEST_OPTS)"

check: all units
	@$(TEST_ENV) sh tests/run-tests

check-fast: all units
	@$(TEST_ENV) TIERS="unit nokernel" sh tests/run-tests

# The long kernel tests too (t6016: a wake-up placement change on real
# kernels, 7.5 minutes; t6017: the alignment control on kernels, 21
# from a cold ccache), which make check counts as skipped.
check-long: all units
	@$(TEST_ENV) SCHED_BOT_TEST_LONG=1 sh tests/run-tests

# One script by its number: `make t6013` (git's `make t1234-foo.sh`).
TEST_IDS := $(sort $(patsubst tests/%,%,$(foreach t,$(wildcard tests/t[0-9]*.sh),\
	$(firstword $(subst -, ,$(t))))))
$(TEST_IDS): all units
	@$(TEST_ENV) T=$@- sh tests/run-tests

# The fuzzers link the library sources, compiled by clang with libFuzzer:
# the library alone, as the unit tests do.  It is compiled once,
# instrumented, and each target linked to it.
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -Ibot $(PKG_CFLAGS) \
	-DSCHED_BOT_VERSION='"$(VERSION)"' -DFUZZING \
	-fsanitize=address,undefined
FUZZ_OBJS := $(patsubst %.c,build-fuzz/%.o,$(LIB_SRCS))
build-fuzz/bot/%.o: bot/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
build-fuzz/libfuzz.a: $(FUZZ_OBJS)
	rm -f $@
	ar rcs $@ $^
# With the tool's file that fills the library's options, as the unit tests.
build-fuzz/%: %.c build-fuzz/bot/builtin/config-opts.o build-fuzz/libfuzz.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< \
		build-fuzz/bot/builtin/config-opts.o build-fuzz/libfuzz.a $(LIBS)

fuzz: $(FUZZ_BINS)
	@sh tests/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BINS)

# UNIXBENCH=DIR WILL_IT_SCALE=DIR: builds of the originals to compare
# sched-bench with (tests/bench/workloads.sh says how to make them).
bench: all units
	@BUILD=$(abspath $(BUILD)) UNIXBENCH="$(UNIXBENCH)" \
		WILL_IT_SCALE="$(WILL_IT_SCALE)" sh tests/run-bench $(B)

# cron over a stream of series with faults injected: tests/t6033-soak.sh
# at 300 series (tests/bench/soak.sh, also run by `make bench`; make check
# runs it at 20, make check-long at 40): SOAK_SERIES, SOAK_SEED.
soak: all
	@BUILD=$(abspath $(BUILD)) sh tests/bench/soak.sh

demo: all
	sh contrib/demo

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/sched-bot
	install -m 755 $(BUILD)/sched-bot $(BUILD)/sched-bench \
		$(BUILD)/sched-bench-spawn \
		$(DESTDIR)$(PREFIX)/bin/
	cp -R templates kernel $(DESTDIR)$(PREFIX)/share/sched-bot/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(BUILD)/sched-bot.1 $(BUILD)/sched-bench.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 contrib/sched-bot.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/sched-bot

clean:
	rm -rf build build-san build-fuzz sched-bot sched-bench sched-bot.1 sched-bench.1

.PHONY: FORCE all arm64 check check-fast check-long $(TEST_IDS) units fuzz bench soak demo install clean
.DELETE_ON_ERROR:

-include $(shell find build build-san -name '*.d' 2>/dev/null)
