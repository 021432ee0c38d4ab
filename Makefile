# The two commands a new machine needs: `make run` and `make test`.
# Both install the system libraries first when they are missing (Debian: libyaml-dev).
SWIFT ?= swift
APT_PACKAGES = libyaml-dev libsqlite3-dev libedit-dev pkg-config wordnet-base
INTENTS = .build/debug/intents

.PHONY: run test build deps bench clean

deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

# The conversation at a prompt over the bundled Intents/ and the store ./.intents/store.sqlite.
run: build
	$(INTENTS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

bench: deps
	$(SWIFT) build -c release --product intents-bench
	$(SWIFT) build -c release --product intents
	.build/release/intents-bench


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
