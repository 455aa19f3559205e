# The two commands of the README: `make run` and `make test`.
SWIFT ?= swift
PORT ?= 8080
DATA_DIR ?= ./wishlist-data

.PHONY: run build release test check browser-test bench clean fuzz sanitize reliability

# The release binary the browser and reliability suites run: the one scripts/check-docker-context
# builds from exactly what the Dockerfile's build stage copies, so `make test` compiles the app in
# release mode once. `--durations` names the slowest tests in every run's output.
E2E_BINARY := .build/docker-context/.build/release/wishlist
PYTEST := env WISHLIST_BINARY=$(CURDIR)/$(E2E_BINARY) /usr/bin/python3 -m pytest -q --durations=10

run: release
	.build/release/wishlist serve --port $(PORT) --data-dir $(DATA_DIR)

release:
	scripts/install-deps
	$(SWIFT) build -c release --product wishlist

build:
	scripts/install-deps
	$(SWIFT) build

test:
	@rm -f .build/test-steps.tsv
	scripts/step "Debian packages" scripts/install-deps test
	scripts/step "release build (the Docker stage's)" scripts/check-docker-context
	scripts/step "debug build with tests" $(SWIFT) build --build-tests
	scripts/step "Swift tests" $(SWIFT) test --skip-build
	scripts/step "browser tests" $(PYTEST) Tests/Browser
	scripts/step "reliability tests" $(PYTEST) Tests/Reliability
	@scripts/step --summary

# The daily loop: every Swift test (units and the web layer in process), built incrementally.
check:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

browser-test:
	scripts/check-docker-context
	$(PYTEST) Tests/Browser

bench:
	scripts/install-deps bench
	Benchmarks/run

# Robustness checks (docs/RELIABILITY.md). Fuzzing and sanitizers take minutes and run on their
# own; the reliability suite (~1 min) is also part of `make test`.
FUZZ_SECONDS ?= 60
SANITIZERS := Tests/Reliability/sanitizers
SANITIZER_ENV := SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/$(SANITIZERS)/lsan.supp \
	TSAN_OPTIONS=suppressions=$(CURDIR)/$(SANITIZERS)/tsan.supp

fuzz:
	Fuzz/run $(FUZZ_SECONDS)

sanitize:
	$(SANITIZER_ENV) $(SWIFT) test --sanitize=address --build-path .build-asan
	$(SANITIZER_ENV) $(SWIFT) test --sanitize=thread --build-path .build-tsan

reliability:
	scripts/check-docker-context
	$(PYTEST) Tests/Reliability

clean:
	rm -rf .build

# The security and bad-input tests alone (README, "Security").
.PHONY: security-test
security-test:
	$(SWIFT) test --filter 'SecurityTests|BadInputTests|ServePasswordTests|PasswordProtectionTests|MalformedRequestTests|MiddlewareTests'
