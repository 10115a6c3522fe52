#!/usr/bin/env bash
# Real-consumer tests for normalized output: sets up the Python venv, proves the checker
# can fail (self-test), then runs every record of RECORDS through Google's Schema protos
# and a 2020-12 meta-validator.
#
#   scripts/test-consumers.sh [RECORDS]     # default target/corpus-records.json
#
# RECORDS is written by `cargo run --release --example corpus -- target/corpus-records.json`.
# A missing records file is an error, never a skip: an unchecked corpus must not look green.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The default is the repo's own target/; an explicit relative path is taken from the
# caller's directory, like any other argument.
records="${1:-$root/target/corpus-records.json}"
case "$records" in /*) ;; *) records="$PWD/$records" ;; esac

"$root/scripts/setup-python.sh"
py="$root/.venv/bin/python"

echo "== consumer checker self-test"
"$py" "$root/tests/consumers/test_check_wire.py"

echo "== wire check: $records"
if [[ ! -f "$records" ]]; then
  echo "test-consumers: records file $records does not exist." >&2
  echo "test-consumers: produce it with: cargo run --release --example corpus -- target/corpus-records.json" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
"$py" "$root/tests/consumers/check_wire.py" "$records"
