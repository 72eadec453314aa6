# draftline: `make run` to use it, `make test` to test it. Both set the machine up first.

SWIFT      ?= swift
DATA_DIR   ?=
PREFIX     ?= /usr/local
# More options for `make run`: ARGS="--demo" or ARGS="--as alice".
ARGS       ?=
RUN_FLAGS  := $(if $(DATA_DIR),--data-dir $(DATA_DIR),) $(ARGS)
# Root installs packages directly; anyone else through sudo.
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup test-setup build release run test test-examples lint format bench fuzz fuzz-build docs man install uninstall clean

FUZZ_TARGETS := $(sort $(basename $(notdir $(wildcard Fuzz/*.swift))))
FUZZ_SECONDS ?= 60

all: build

# Installs what the build needs from Debian's packages, only when it is missing.
setup:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libedit || ! pkg-config --exists openssl; then \
		echo "draftline: installing libedit-dev, libssl-dev and pkg-config with apt"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libedit-dev libssl-dev pkg-config; \
	fi

# What the tests need beyond the build: Python's pexpect (the QA guide's terminal example,
# Documentation/QA.md, which a test runs), from Debian's python3-pexpect when missing; and
# for the network tests (Documentation/Network.md) the IRC servers InspIRCd and ngircd, the
# clients irssi and WeeChat, tmux to drive irssi, and openssl to make a test certificate.
test-setup: setup
	@if ! command -v strace >/dev/null 2>&1; then \
		echo "draftline: installing strace with apt (tests count system calls with it)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq strace; \
	fi
	@if ! python3 -c 'import pexpect' >/dev/null 2>&1; then \
		echo "draftline: installing python3-pexpect with apt"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pexpect; \
	fi
	@missing=""; for tool in ngircd:ngircd inspircd:inspircd irssi:irssi weechat-headless:weechat-headless \
		tmux:tmux openssl:openssl; do \
		command -v $${tool%%:*} >/dev/null 2>&1 || [ -x /usr/sbin/$${tool%%:*} ] || missing="$$missing $${tool#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "draftline: installing$$missing with apt (IRC servers and clients for the network tests)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq$$missing; \
	fi

build: setup
	$(SWIFT) build

# Starts the REPL on the default data directory (or DATA_DIR=...). Scripts/run-draftline
# runs it as a job of its own, so that a Ctrl-C reaches draftline and not make.
run: build
	@Scripts/run-draftline "$$($(SWIFT) build --show-bin-path)/draftline" $(RUN_FLAGS)

# Lints, builds everything, then runs every test: the core as data, the binary through a
# pseudo-terminal, and the binary on a pipe.
#
# The random-keystroke test holds the program to "no stall over 5 s", which means something
# only when nothing else competes for the two cores: it runs alone, after the rest.
# Timing-sensitive tests that drive many terminals each; they run on their own, after the rest.
LONG_TESTS = RandomKeystrokeTests|EndToEndTests\.ConservationTests
# The tests against real IRC servers (InspIRCd, ngircd, irssi, WeeChat: processes of their
# own, with their own timers and flood control) wait up to 10 s for a line: run beside five
# hundred other tests on two cores, a starved server stood in for a lost line (the quit test
# failed so in the parallel run and never alone). They run on their own, last.
SERVER_TESTS = IRCTests\.|NetworkEndToEndTests

test: test-setup lint
	$(SWIFT) build --build-tests
	FUZZ_OPTIMIZATION=-Onone $(MAKE) --no-print-directory fuzz-build
	$(SWIFT) test --skip-build --skip "$(LONG_TESTS)|$(SERVER_TESTS)"
	$(SWIFT) test --skip-build --filter "$(LONG_TESTS)"
	$(SWIFT) test --skip-build --filter "$(SERVER_TESTS)"

# Runs every ```sh example of the README and of the guides in Documentation/, as written
# (`swift run draftline` standing for the built binary), each with a scratch HOME.
test-examples: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter ReadmeExamplesTests

# The benchmark: release build, figures and ratios printed (takes a few minutes).
bench: setup
	$(SWIFT) build -c release
	$(SWIFT) run -c release --skip-build draftline-bench

# Coverage-guided fuzzing with libFuzzer: Scripts/build-fuzzers compiles the package's
# library modules once with coverage instrumentation (swiftc -sanitize=fuzzer), then each
# target in Fuzz/ over them; each runs FUZZ_SECONDS (default 60), every target its full
# time whatever the others found; an input slower than 60 s counts as a failure. A failing
# input is written to .build/fuzz/<target>-crash-* (or -timeout-*); the corpus grows in
# .build/fuzz/corpus-<target>. The failed targets are named at the end (status 1).
fuzz: fuzz-build
	@failed=""; for target in $(FUZZ_TARGETS); do \
		mkdir -p .build/fuzz/corpus-$$target; \
		echo "fuzz: running $$target for $(FUZZ_SECONDS) s (log: .build/fuzz/$$target.log)"; \
		SWIFT_BACKTRACE=enable=no .build/fuzz/$$target -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=60 \
			-print_final_stats=1 -artifact_prefix=.build/fuzz/$$target- \
			.build/fuzz/corpus-$$target Fuzz/seeds/$$target > .build/fuzz/$$target.log 2>&1; \
		status=$$?; \
		grep -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb|Fatal error|ERROR|Test unit written" .build/fuzz/$$target.log; \
		test $$status -eq 0 || { echo "fuzz: $$target FAILED (exit $$status): see .build/fuzz/$$target.log"; \
			failed="$$failed $$target"; }; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi; echo "fuzz: every target ran its full time"

# Builds every fuzz target (no run); `make test` does it, so a fuzzer cannot rot unnoticed,
# unoptimised (FUZZ_OPTIMIZATION=-Onone: about 45 s on two cores, where -O takes 3 min).
fuzz-build: setup
	Scripts/build-fuzzers $(FUZZ_TARGETS)

# The DraftKit documentation (DocC): .build/docs/index.html.
docs: setup
	$(SWIFT) build --target DraftKit -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc .build/symbol-graphs
	docc convert Sources/DraftKit/DraftKit.docc --additional-symbol-graph-dir .build/symbol-graphs \
		--fallback-display-name DraftKit --fallback-bundle-identifier org.draftline.DraftKit \
		--output-path .build/docs --analyze

# Rewrites the command tables of the man page and the README from the command declarations
# (a test checks both).
man: setup
	$(SWIFT) run draftline-man Documentation/draftline.1 README.md

# A binary for CI: a release build with the Swift runtime and Foundation linked in, so the
# machine that runs it needs only libedit, libstdc++ and libbsd (Documentation/QA.md).
# It fails if the binary still needs a Swift library.
RELEASE_DIR := .build/static
release: setup
	$(SWIFT) build -c release --static-swift-stdlib --product draftline --scratch-path $(RELEASE_DIR)
	@bin="$$($(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_DIR) --show-bin-path)/draftline"; \
	if ldd "$$bin" | grep -i swift; then echo "release: $$bin still needs the Swift libraries above"; exit 1; fi; \
	echo "release: $$bin"; ldd "$$bin" | awk '{print "  " $$1}'

# Installs draftline and its man page under PREFIX (default /usr/local).
install: setup
	$(SWIFT) build -c release --product draftline
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/draftline" $(DESTDIR)$(PREFIX)/bin/draftline
	install -m 644 Documentation/draftline.1 $(DESTDIR)$(PREFIX)/share/man/man1/draftline.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/draftline $(DESTDIR)$(PREFIX)/share/man/man1/draftline.1

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Examples Fuzz

format:
	$(SWIFT) format --in-place --recursive --parallel Package.swift Sources Tests Examples Fuzz

clean:
	$(SWIFT) package clean
