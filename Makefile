# The two commands of the README: `make run` and `make test`.
SWIFT ?= swift
PORT ?= 8080
DATA_DIR ?= ./wishlist-data

.PHONY: run build release test unit-test browser-test bench clean

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
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build -c release --product wishlist
	/usr/bin/python3 -m pytest -q Tests/Browser

unit-test:
	$(SWIFT) test

browser-test:
	$(SWIFT) build -c release --product wishlist
	/usr/bin/python3 -m pytest -q Tests/Browser

bench:
	scripts/install-deps bench
	Benchmarks/run

clean:
	rm -rf .build

# The security and bad-input tests alone (README, "Security").
.PHONY: security-test
security-test:
	$(SWIFT) test --filter 'SecurityTests|BadInputTests|ServePasswordTests|PasswordProtectionTests|MalformedRequestTests|MiddlewareTests'
