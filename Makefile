# The two commands a new user needs: `make demo` and `make test`. Each does
# its own set-up (scripts/setup.sh: wasm target, wasm-bindgen-cli, npm dev
# dependencies; skipped when already there), so a fresh machine with Rust,
# Node and npm needs nothing else.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

.PHONY: help setup setup-browser pkg test test-rust test-js corpus-records test-consumers test-peers demo clean

help:
	@echo "make demo   build the package, then normalize examples/github-tools-list.json for every target"
	@echo "make test   every test: Rust, the JS package in each runtime, consumers, peers"
	@echo "make pkg    build pkg/ (the npm package) only"
	@echo "make clean  remove pkg/ and build/"

setup:
	scripts/setup.sh

# Debian's chromium for the browser suite (apt, root); skipped when present.
setup-browser:
	scripts/setup-browser.sh

pkg: setup
	scripts/build-pkg.sh

demo: pkg
	scripts/demo.sh

test: test-rust test-js test-consumers test-peers
	@echo "make test: all suites passed"

test-rust:
	cargo test

test-js: pkg setup-browser
	node --test --test-reporter=spec tests/js/*.test.mjs

# Both hooks read the corpus run through the core; their scripts never build
# it themselves, so that they judge exactly the dump they are given.
corpus-records:
	cargo run --release --example corpus -- target/corpus-records.json

# Real consumers: Google's Schema protos and 2020-12 meta-validation (Python venv).
test-consumers: corpus-records
	scripts/test-consumers.sh target/corpus-records.json

# Side by side with the pi-ai normalizer on the corpus.
test-peers: corpus-records
	scripts/test-peers.sh target/corpus-records.json

clean:
	rm -rf pkg build
