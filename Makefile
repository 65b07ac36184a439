# The set-up commands of the README. Each installs what is missing first.
#   make demo      build release and replay the talk's walkthrough on catalogs/
#   make test      run the whole test suite
#   make portable-check   build the iOS configuration on Linux and run the suites that differ there
#   make install   install zinc, its shell completions and its manual page under PREFIX

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps s3-server chromium build demo test portable-check fuzz manual install uninstall

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

# `make install PREFIX=/usr DESTDIR=/tmp/stage` stages a package's files.
PREFIX ?= /usr/local
ZINC := .build/release/zinc
BINDIR = $(DESTDIR)$(PREFIX)/bin
BASH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
INSTALLED = $(BINDIR)/zinc $(BASH_COMPLETIONS)/zinc $(ZSH_COMPLETIONS)/_zinc $(FISH_COMPLETIONS)/zinc.fish $(MAN1DIR)/zinc.1

# zinc.1 and the completion scripts come from the commands themselves, so they never
# drift from `zinc --help`. The manual is written by swift-argument-parser's own
# generate-manual tool, built from the copy the package already resolved (no
# download), and dated by the last commit so that a rebuild gives the same page.
manual: build
	swift build -c release --package-path .build/checkouts/swift-argument-parser \
		--scratch-path .build/generate-manual --product generate-manual
	@mkdir -p .build/share/man .build/share/completions
	.build/generate-manual/release/generate-manual $(ZINC) --output-directory .build/share/man \
		--date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)"
	$(ZINC) --generate-completion-script bash >.build/share/completions/zinc.bash
	$(ZINC) --generate-completion-script zsh >.build/share/completions/_zinc
	$(ZINC) --generate-completion-script fish >.build/share/completions/zinc.fish

# The binary is installed stripped: its symbols are more than half of its size (51 MB
# unstripped, 22 MB stripped) and only a debugger needs them (.build/release/zinc keeps them).
install: manual
	install -d $(BINDIR) $(BASH_COMPLETIONS) $(ZSH_COMPLETIONS) $(FISH_COMPLETIONS) $(MAN1DIR)
	install -m 0755 -s $(ZINC) $(BINDIR)/zinc
	install -m 0644 .build/share/completions/zinc.bash $(BASH_COMPLETIONS)/zinc
	install -m 0644 .build/share/completions/_zinc $(ZSH_COMPLETIONS)/_zinc
	install -m 0644 .build/share/completions/zinc.fish $(FISH_COMPLETIONS)/zinc.fish
	install -m 0644 .build/share/man/zinc.1 $(MAN1DIR)/zinc.1

uninstall:
	rm -f $(INSTALLED)

demo: build
	Examples/walkthrough.sh

# The S3 tests start a real S3 API server on loopback: moto's, from PyPI.
s3-server:
	@command -v moto_server >/dev/null 2>&1 || python3 -m pip install --quiet "moto[server]"

# The catalog browser's tests drive Debian's headless Chromium.
chromium:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

# The whole suite, in a temporary folder of its own that must be empty afterwards.
test: deps s3-server chromium
	.ci/test-leaves-nothing

# The configuration of an iOS app, built and tested on Linux (see Package.swift): Zinc
# on swift-crypto (CryptoKit's API) instead of OpenSSL, and ZincClient without libcurl.
# Its own build folder, so neither configuration rebuilds the other. It runs the suites
# that differ there: crypto known answers, signing, and the client through URLSession.
PORTABLE_SUITES := ZincTests\.CryptoKnownAnswerTests|ZincTests\.SigningTests|ZincClientTests\.

portable-check: deps
	ZINC_PORTABLE=1 SCRATCH_PATH=.build-portable .ci/test-leaves-nothing --filter '$(PORTABLE_SUITES)'
	@# What an iOS app could not link is not linked: OpenSSL's libcrypto is no dependency.
	@! readelf -d .build-portable/debug/ZincPackageTests.xctest | grep 'NEEDED.*libcrypto' \
		|| { echo "the portable build links OpenSSL's libcrypto"; exit 1; }

# Every parser of outside bytes under libFuzzer (its runtime ships with the toolchain),
# FUZZ_SECONDS each, starting from the committed seeds in Fuzz/corpus/<target>. New
# inputs go to .build-fuzz/corpus/<target>; a crash stops the run, its input saved as
# .build-fuzz/crashes/<target>-crash-*, and `swift run ZincFuzz TARGET FILE` replays it.
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := json index manifest flavorspec tar gzip http-range http-date http-etag client-index client-state client-links client-stamps seed-description lock-record s3-xml http-head http-multipart signature chunk-list content-sizes chunk-inflate lmfo-record manifest-chunks digest-list manifest-table rollout

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
