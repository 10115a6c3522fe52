# The two commands a new user needs: `make demo` and `make test`. Each does
# its own set-up (scripts/setup.sh: wasm target, wasm-bindgen-cli, npm dev
# dependencies; skipped when already there), so a fresh machine with Rust,
# Node and npm needs nothing else.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

.PHONY: help setup setup-browser setup-suite pkg test test-rust test-js corpus-records test-consumers test-peers bench bench-quick bench-fuel bench-phases fuel-setup demo playground clean

help:
	@echo "make demo   build the package, then normalize examples/github-tools-list.json for every target"
	@echo "make test   every test: Rust (native and wasm), the package in Node/Bun/Deno/workerd/Chromium, real consumers and grammar compilers, peers"
	@echo "make pkg    build pkg/ (the npm package) only"
	@echo "make playground  build the package and serve the playground page on http://127.0.0.1:8642/ (PORT=N for another port)"
	@echo "make bench  benchmarks against the peers, the cache, the boundary, scaling, start-up, the native core (minutes)"
	@echo "make bench-fuel [BASE=old.wasm]  the wasm core's operator count per call: deterministic, for small changes"
	@echo "make bench-phases  the same count split by phase of a call (parse, upgrade, rules, check, answer)"
	@echo "make fuzz   a longer fuzzing run (FUZZ_SECONDS, default 600)"
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

# The playground page (examples/playground/) with the package's browser entry,
# assembled into build/playground/ and served on 127.0.0.1 until Ctrl-C.
PORT ?= 8642
playground: pkg
	node scripts/playground.mjs --port $(PORT)

test: test-rust test-js test-wasm test-web test-consumers test-grammars test-peers test-linear fuzz-quick bench-quick
	@echo "make test: all suites passed"

# setup: the wasm32 target, for the check of the bench-only module below.
test-rust: setup
	cargo test
	# The boundary experiments (src/wasm_bench.rs) are built only by make bench:
	# checked here so that they keep compiling as the core changes.
	RUSTFLAGS="--cfg toolschema_bench" CARGO_TARGET_DIR=$(CURDIR)/target/check-bench \
	  cargo check --quiet --target wasm32-unknown-unknown --lib

# The JSON-Schema-Test-Suite for the argument validator (PyPI's jsonschema sdist).
setup-suite:
	scripts/setup-suite.sh

test-js: pkg setup-browser setup-suite
	node --test --test-reporter=spec tests/js/*.test.mjs

.PHONY: test-wasm test-web test-grammars test-linear

# The core compiled to wasm32 under wasm-bindgen-test: tests/wasm_node.rs in
# Node, tests/wasm_browser.rs in headless Chromium (chromedriver). The runner
# exits 0 when it skipped every test (a suite run in the other mode), so each
# suite must also report more than 0 passed.
test-wasm: setup setup-browser
	@mkdir -p target/test-wasm
	@for suite in wasm_node wasm_browser; do \
	  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner CHROMEDRIVER=/usr/bin/chromedriver \
	    cargo test --target wasm32-unknown-unknown --test $$suite 2>&1 | tee target/test-wasm/$$suite.log; \
	  passed=$$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' target/test-wasm/$$suite.log | tail -n 1); \
	  [ "$${passed:-0}" -gt 0 ] || { echo "test-wasm: $$suite ran 0 tests"; exit 1; }; \
	done

# Every fixture through the packed package in Node, headless Chromium and workerd.
test-web: pkg setup-browser
	node web-tests/run.mjs

# Both hooks read the corpus run through the core (with default options, and
# again with the opt-in `compact`, whose outputs are held to the same consumers); their scripts never build
# it themselves, so that they judge exactly the dump they are given.
corpus-records:
	cargo run --release --example corpus -- target/corpus-records.json
	TOOLSCHEMA_OPTIONS='{"compact":true}' cargo run --release --example corpus -- target/corpus-records-compact.json

# Real consumers: Google's Schema protos and 2020-12 meta-validation (Python venv).
test-consumers: corpus-records
	scripts/test-consumers.sh target/corpus-records.json
	scripts/test-consumers.sh target/corpus-records-compact.json

# The real grammar compilers (llama.cpp's converter and GBNF parser, xgrammar,
# llguidance) on every grammar target's output, beside mcp-schema-normalize.
test-grammars: corpus-records
	scripts/test-grammars.sh target/corpus-records.json
	scripts/test-grammars.sh target/corpus-records-compact.json

# The core's work linear in size and depth: wasm operators counted by
# wasmtime's fuel at n and 4n for each scaling shape (deterministic, untimed).
test-linear: pkg fuel-setup
	.venv/bin/python tests/linearity.py pkg/toolschema_bg.wasm

# Side by side with the pi-ai normalizer on the corpus.
test-peers: corpus-records
	scripts/test-peers.sh target/corpus-records.json

# Benchmarks (bench/): each script prints its tables and ratios, then
# bench/report.mjs prints the goals and writes bench/RESULTS.md (and
# scaling.mjs bench/scaling.svg). Minutes: run it on a quiet machine.
BENCH_NODE := node --expose-gc
bench: pkg
	scripts/setup-peers.sh
	bench/build-boundary.sh
	$(BENCH_NODE) bench/compare.mjs
	$(BENCH_NODE) bench/text.mjs
	$(BENCH_NODE) bench/cache.mjs
	$(BENCH_NODE) bench/boundary.mjs
	$(BENCH_NODE) bench/scaling.mjs
	$(BENCH_NODE) bench/memory.mjs
	node bench/startup.mjs
	cargo bench --bench core
	CARGO_TARGET_DIR=$(CURDIR)/target/bench-llmshim cargo bench --manifest-path bench/llmshim/Cargo.toml
	node bench/report.mjs

# The same scripts in seconds and without thresholds, so that they keep
# working (make test runs it); the boundary and criterion runs need their own
# builds and are left to make bench (bench/llmshim, a whole LLM gateway as a
# dependency, is its own workspace: only make bench builds it).
bench-quick: pkg fuel-setup
	scripts/setup-peers.sh
	$(BENCH_NODE) bench/compare.mjs --quick
	$(BENCH_NODE) bench/text.mjs --quick
	$(BENCH_NODE) bench/cache.mjs --quick
	$(BENCH_NODE) bench/scaling.mjs --quick
	$(BENCH_NODE) bench/memory.mjs --quick
	node bench/startup.mjs --quick
	node bench/ab.mjs pkg pkg --rounds 1 mcp
	.venv/bin/python bench/fuel.py pkg/toolschema_bg.wasm --targets mcp --passes 1
	node bench/report.mjs --quick

# The wasm core's work per call as wasm operators counted by wasmtime's fuel
# (bench/fuel.py): the same on every run, so a change of a few percent shows
# where timings here move by more. BASE=<a .wasm> compares it with pkg's.
bench-fuel: pkg fuel-setup
	.venv/bin/python bench/fuel.py $(BASE) pkg/toolschema_bg.wasm

# The same count split by phase of a call (src/phase.rs), on a build whose
# phase marks call the host.
bench-phases: setup fuel-setup
	bench/build-boundary.sh phases
	.venv/bin/python bench/fuel.py --phases bench/.build/phases/toolschema_bg.wasm

fuel-setup:
	scripts/setup-python.sh
	.venv/bin/python -m pip install -q -r bench/requirements-fuel.txt

clean:
	rm -rf pkg build

.PHONY: fuzz-quick fuzz
# cargo-fuzz (libFuzzer) over the core's JSON entry points, a fixed seed and
# number of executions from a fresh seed corpus, so CI is reproducible; `make
# fuzz` searches further. scripts/fuzz.sh installs cargo-fuzz once (stable).
fuzz-quick:
	rm -rf fuzz/corpus
	FUZZ_SEED=1 FUZZ_RUNS=20000 scripts/fuzz.sh 60

# The longer run, e.g. make fuzz FUZZ_SECONDS=1800.
FUZZ_SECONDS ?= 600
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)
