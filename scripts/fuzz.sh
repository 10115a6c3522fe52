#!/usr/bin/env bash
# Fuzzes the core's JSON entry points with cargo-fuzz (libFuzzer):
#   fuzz/fuzz_targets/normalize.rs     api::normalize_json, every target and option mix
#   fuzz/fuzz_targets/entry_points.rs  check, tool lists, WordPress abilities, lint, routing
#   fuzz/fuzz_targets/arguments.rs     the round trip: restore, repair, validate, prepare
#   fuzz/fuzz_targets/doc.rs           the document model (src/doc) against serde_json
# Each input must get a documented envelope, deterministically, never a panic
# or a hang; normalize outputs must pass their target's checker and be stable.
#
#   scripts/fuzz.sh [seconds]   total time (default 60): a sixth to doc, the rest split 3:1:1
#                               between normalize, entry_points and arguments
#
# Works on stable Rust: `--sanitizer none` needs no nightly flag, and the core
# has no `unsafe` for AddressSanitizer to watch (libFuzzer's coverage
# instrumentation is plain -C flags). cargo-fuzz comes from crates.io,
# installed once into the cargo bin dir. Findings land in fuzz/artifacts/<target>/
# (crash-*, timeout-*, oom-*); replay one with
#   cargo fuzz run --sanitizer none <target> fuzz/artifacts/<target>/crash-...
# and turn it into a fixture under tests/fixtures/.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_TOTAL="${1:-60}"
CARGO_FUZZ_VERSION="0.13.2"

if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION from crates.io"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

# The seed corpus: every fixture and every real schema of ../shared/corpus,
# in the byte layout fuzz_targets/common.rs decodes. libFuzzer adds what it
# finds to the same folders (kept between runs, ignored by git).
node fuzz/seed.mjs fuzz/corpus

# Build first, so the time budget is spent fuzzing.
nice cargo fuzz build --sanitizer none

run() {
  local target="$1" seconds="$2"
  mkdir -p "fuzz/artifacts/$target"
  # Each run judges only what it finds; earlier findings are in their fixtures.
  rm -f "fuzz/artifacts/$target"/crash-* "fuzz/artifacts/$target"/timeout-* "fuzz/artifacts/$target"/oom-*
  # FUZZ_RUNS and FUZZ_SEED make a run reproducible (CI: the same executions
  # from the seed corpus every time); otherwise it searches for the time given.
  local budget=(-max_total_time="$seconds")
  if [ -n "${FUZZ_RUNS:-}" ]; then
    budget=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
    echo "fuzz: $target for $FUZZ_RUNS executions (seed ${FUZZ_SEED:-1})"
  else
    echo "fuzz: $target for ${seconds}s"
  fi
  # -timeout: one input running longer is a hang finding (wall-clock: 30 s, as
  # a niced run on a busy machine once spent 12 s on a ref bomb that takes 0.6 s
  # of CPU in this instrumented build); -rss_limit_mb: an input needing more
  # memory is an OOM finding; -max_len matches seed.mjs.
  nice cargo fuzz run --sanitizer none "$target" "fuzz/corpus/$target" -- \
    -dict=fuzz/json-schema.dict -max_len=65536 -timeout=30 -rss_limit_mb=2048 \
    "${budget[@]}" -print_final_stats=1 2>&1 | tee "fuzz/artifacts/$target.log" | grep -E "^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|SUMMARY|thread .* panicked)|Test unit written" || true
  # libFuzzer exits non-zero on a finding; the pipe above hides that status.
  if [ -n "$(find "fuzz/artifacts/$target" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) -print -quit)" ]; then
    echo "fuzz: $target found inputs that fail (fuzz/artifacts/$target):"
    ls "fuzz/artifacts/$target"
    grep -A3 "panicked" "fuzz/artifacts/$target.log" | cut -c1-600 | head -12 || true
    return 1
  fi
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz/artifacts/$target.log" | tail -n 1)
  echo "fuzz: $target: ${runs:-0} executions in ${seconds}s, no finding"
}

doc_seconds=$(( SECONDS_TOTAL / 6 ))
rest=$(( SECONDS_TOTAL - doc_seconds ))
normalize_seconds=$(( rest * 3 / 5 ))
entry_seconds=$(( rest / 5 ))
status=0
run normalize "$normalize_seconds" || status=1
run entry_points "$entry_seconds" || status=1
run arguments "$(( rest - normalize_seconds - entry_seconds ))" || status=1
run doc "$doc_seconds" || status=1
if [ "$status" -eq 0 ]; then
  echo "fuzz: 4 passed, 0 failed"
else
  echo "fuzz: findings above; each becomes a fixture once reduced"
fi
exit "$status"
