# The two commands a new machine needs: `make run` and `make test`.
# Both install the system libraries first when they are missing (Debian: libyaml-dev), and WordNet
# (wordnet-base), which the learned stage reads for words the definitions do not have.
# `make test` also installs postgresql (the tests start a private server of their own, docs/store.md)
# and chromium (the console's browser tests).
SWIFT ?= swift
APT_PACKAGES = libyaml-dev libsqlite3-dev libedit-dev pkg-config wordnet-base
# What only the tests need: PostgreSQL for the second store backend's suite, and headless Chromium
# with chromedriver for the web console's browser tests (docs/console.md).
TEST_APT_PACKAGES = postgresql chromium chromium-driver
INTENTS = .build/debug/intents

.PHONY: run test test-fast lint build deps bench bench-build bench-check bench-record clean

deps:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	  echo "error: '$(SWIFT)' is not on PATH. Install Swift 6.1 or later from https://www.swift.org/install/linux/"; \
	  echo "       (or run make with SWIFT=/path/to/swift)."; exit 1; }
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing the system packages the build needs (Debian):$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

# The conversation at a prompt over the bundled Intents/ and the store ./.intents/store.sqlite.
run: build
	$(INTENTS)

test: deps
	@$(MAKE) --no-print-directory APT_PACKAGES="$(TEST_APT_PACKAGES)" deps
	@$(MAKE) --no-print-directory lint
	$(SWIFT) build --build-tests
	$(SWIFT) test

# The inner loop: every test but those tagged `.slow` (many runs of the binary, 200,000-name
# stores, killed processes, the browser). `make test` still runs everything.
test-fast: deps
	$(SWIFT) build --build-tests
	INTENTS_TEST_FAST=1 $(SWIFT) test

# The house style: swift-format as the toolchain ships it (`swift format`), with the rules in
# .swift-format, strict (a finding fails `make test`). `swift format -i -r` on the same paths fixes
# nearly everything it reports (CONTRIBUTING.md, "Style").
LINT_PATHS = Sources Tests Benchmarks Package.swift
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(LINT_PATHS)

bench: deps
	$(SWIFT) build -c release --product intents-bench
	$(SWIFT) build -c release --product intents
	.build/release/intents-bench

# The regression guard (issue 25, docs/benchmarks.md): instruction counts of cold say, compile,
# match and import against Benchmarks/instructions.tsv; fails when one grew by more than 5 %.
# Minutes under callgrind: not part of `make test`; run it before submitting a hot-path change.
bench-build: deps
	$(SWIFT) build -c release --product intents-bench
	$(SWIFT) build -c release --product intents

bench-check: bench-build
	Benchmarks/instructions.sh check

# Writes the baseline anew: after a change that is meant to cost more, with the reason in the commit.
bench-record: bench-build
	Benchmarks/instructions.sh record


clean:
	rm -rf .build

# Coverage-guided fuzzing (libFuzzer, in the Swift toolchain): every target under Fuzz/Sources/,
# each for FUZZ_SECONDS, from a corpus seeded out of the bundled examples. Not part of `make test`.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?= -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
FUZZERS = $(notdir $(wildcard Fuzz/Sources/Fuzz*))
FUZZ_BUILD = $(SWIFT) build --package-path Fuzz -c release --sanitize=fuzzer

.PHONY: fuzz fuzz-build
# The build plan is made again each time: SwiftPM does not notice a source file added to the root
# package (a path dependency here) and would link without it.
fuzz-build: deps
	rm -f Fuzz/.build/release.yaml
	$(FUZZ_BUILD)

fuzz: fuzz-build
	@bin=$$($(FUZZ_BUILD) --show-bin-path); \
	for fuzzer in $(FUZZERS); do \
	  corpus=Fuzz/.build/corpus/$$fuzzer; \
	  mkdir -p $$corpus Fuzz/.build/artifacts; \
	  Fuzz/seed $$fuzzer $$corpus; \
	  echo "== $$fuzzer for $(FUZZ_SECONDS)s"; \
	  $$bin/$$fuzzer $$corpus -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) \
	    -artifact_prefix=Fuzz/.build/artifacts/$$fuzzer- || exit 1; \
	done
