#!/usr/bin/env bash
# Grammar-backend tests for normalized output: installs the compilers (scripts/setup-grammars.sh),
# proves the checker can fail (self-test), then compiles every grammar-target record of RECORDS
# with its backend beside the raw corpus and mcp-schema-normalize's output.
#
#   scripts/test-grammars.sh [RECORDS] [check_grammars.py options]   # default target/corpus-records.json
#
# e.g. scripts/test-grammars.sh target/corpus-records.json --baseline   (tables even without
# records for the grammar targets), --report target/grammars.json (every loss, per schema).
#
# RECORDS is written by `cargo run --release --example corpus -- target/corpus-records.json`.
# A missing records file is an error, never a skip: an unchecked corpus must not look green.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
records="$root/target/corpus-records.json"
if [[ $# -gt 0 && "$1" != --* ]]; then
  records="$1"
  shift
fi
# An explicit relative path is taken from the caller's directory, like any other argument.
case "$records" in /*) ;; *) records="$PWD/$records" ;; esac

"$root/scripts/setup-grammars.sh"
py="$root/.venv/bin/python"

echo "== grammar checker self-test"
"$py" "$root/tests/grammars/test_check_grammars.py"

echo "== grammar check: $records"
if [[ ! -f "$records" ]]; then
  echo "test-grammars: records file $records does not exist." >&2
  echo "test-grammars: produce it with: cargo run --release --example corpus -- target/corpus-records.json" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
"$py" "$root/tests/grammars/check_grammars.py" "$records" "$@"
