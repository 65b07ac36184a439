# The two set-up commands of the README. Both install what is missing first.
#   make demo   build release and replay the talk's walkthrough on catalogs/
#   make test   run the whole test suite

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps s3-server build demo test fuzz

# zlib, OpenSSL libcrypto and libcurl headers, through the system package manager.
# libcurl itself is not linked: `zinc` loads it when a client first fetches over HTTP.
deps:
	@missing=""; \
	for pkg in zlib1g-dev libssl-dev libcurl4-openssl-dev pkg-config; do \
		dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; \
	fi

# A static Swift runtime: each command starts in about 6.5 ms instead of 12.5, which is
# a quarter of an unchanged re-import.
build: deps
	swift build -c release --static-swift-stdlib

demo: build
	Examples/walkthrough.sh

# The S3 tests start a real S3 API server on loopback: moto's, from PyPI.
s3-server:
	@command -v moto_server >/dev/null 2>&1 || python3 -m pip install --quiet "moto[server]"

test: deps s3-server
	swift test

# Every parser of outside bytes under libFuzzer (its runtime ships with the toolchain),
# FUZZ_SECONDS each, starting from the committed seeds in Fuzz/corpus/<target>. New
# inputs go to .build-fuzz/corpus/<target>; a crash stops the run, its input saved as
# .build-fuzz/crashes/<target>-crash-*, and `swift run ZincFuzz TARGET FILE` replays it.
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := json index manifest flavorspec tar gzip http-range http-date http-etag client-index client-state lock-record s3-xml http-head

fuzz: deps
	@# The linker warns about every sanitizer symbol it cannot export; only errors matter.
	@swift build --scratch-path .build-fuzz --product ZincFuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING \
		>.build-fuzz.log 2>&1 || { grep -v 'Cannot export local symbol' .build-fuzz.log; exit 1; }
	@grep -v 'Cannot export local symbol' .build-fuzz.log | tail -n 1
	@mkdir -p .build-fuzz/crashes
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$target; \
		echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
		ZINC_FUZZ_TARGET=$$target .build-fuzz/debug/ZincFuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -max_len=65536 -artifact_prefix=.build-fuzz/crashes/$$target- -print_final_stats=1 \
			.build-fuzz/corpus/$$target Fuzz/corpus/$$target 2>.build-fuzz/$$target.log \
			|| { tail -n 40 .build-fuzz/$$target.log; echo "fuzz target $$target failed"; exit 1; }; \
		grep -E '^stat::number_of_executed_units' .build-fuzz/$$target.log; \
	done
