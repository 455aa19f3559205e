# The two commands of the README: `make run` and `make test`.
SWIFT ?= swift
PORT ?= 8080
DATA_DIR ?= ./wishlist-data

.PHONY: run build release test unit-test browser-test bench clean fuzz sanitize reliability

run: release
	.build/release/wishlist serve --port $(PORT) --data-dir $(DATA_DIR)

release:
	scripts/install-deps
	$(SWIFT) build -c release --product wishlist

build:
	scripts/install-deps
	$(SWIFT) build

test:
	scripts/install-deps test
	scripts/check-docker-context
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build -c release --product wishlist
	/usr/bin/python3 -m pytest -q Tests/Browser
	/usr/bin/python3 -m pytest -q Tests/Reliability

unit-test:
	$(SWIFT) test

browser-test:
	$(SWIFT) build -c release --product wishlist
	/usr/bin/python3 -m pytest -q Tests/Browser

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
	$(SWIFT) build -c release --product wishlist
	/usr/bin/python3 -m pytest -q Tests/Reliability

clean:
	rm -rf .build

# The security and bad-input tests alone (README, "Security").
.PHONY: security-test
security-test:
	$(SWIFT) test --filter 'SecurityTests|BadInputTests|ServePasswordTests|PasswordProtectionTests|MalformedRequestTests|MiddlewareTests'
