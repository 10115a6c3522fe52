#!/usr/bin/env bash
# Side-by-side check of toolschema against the pi-ai normalizer on ../shared/corpus.
#
#   scripts/test-peers.sh [OURS.json]     (default: target/corpus-records.json)
#
# OURS.json comes from `cargo run --release --example corpus -- target/corpus-records.json`;
# this script does not build it, so that it compares exactly the dump it is given.
# Steps: scripts/setup-peers.sh, pi-ai's records into target/peers/pi-ai-records.json,
# then tests/peers/compare.mjs, whose `N passed, N failed` line closes the output.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OURS=${1:-$ROOT/target/corpus-records.json}
PEER=$ROOT/target/peers/pi-ai-records.json

if [[ ! -s $OURS ]]; then
	cat >&2 <<EOF
test-peers: ERROR: our corpus records are missing: $OURS
test-peers: produce them first:
test-peers:   cargo run --release --example corpus -- target/corpus-records.json
EOF
	echo "0 passed, 1 failed"
	exit 1
fi

"$ROOT/scripts/setup-peers.sh"
"$ROOT/bench/node_modules/.bin/tsx" "$ROOT/bench/peers/pi-ai-corpus.ts" "$PEER"
echo
exec node "$ROOT/tests/peers/compare.mjs" "$OURS" "$PEER"
