#!/usr/bin/env bash
# Installs everything `make pkg` / `make test` need, once. Safe to re-run: every
# step checks first and is skipped when already satisfied, so a warm run costs
# about a second. Tools land in the usual caches (~/.cargo/bin, ~/.npm,
# node_modules) so CI can keep them between runs.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

# 1. The wasm target for rustc.
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target present"
else
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen-cli, pinned to the exact wasm-bindgen the crate resolved:
#    the CLI refuses to process a .wasm built by a different library version.
[ -f Cargo.lock ] || cargo generate-lockfile
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$wb_version" ] || { echo "setup: no wasm-bindgen entry in Cargo.lock" >&2; exit 1; }

wb_installed() { wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wb_version"; }

if ! wb_installed; then
  # Another install of the CLI (an earlier setup run, or one started by hand)
  # may be compiling right now; a second concurrent `cargo install` would fight
  # it for the same ~/.cargo/bin files, so wait for it and look again.
  while pgrep -f "cargo install wasm-bindgen-cli" >/dev/null; do
    say "waiting for a wasm-bindgen-cli install already in progress"
    sleep 10
  done
fi
if wb_installed; then
  say "wasm-bindgen $wb_version present"
else
  # No --locked: the crate index reachable here lacks some locked transitive
  # versions (toolchain.md pitfall 1); the unlocked resolve builds fine.
  say "installing wasm-bindgen-cli $wb_version (several minutes, once per machine)"
  cargo install wasm-bindgen-cli --version "=$wb_version"
  wb_installed || { echo "setup: wasm-bindgen $wb_version still missing after install" >&2; exit 1; }
fi

# 3. npm dev dependencies (wasm-opt from binaryen, esbuild, the schema
#    libraries the input-detection tests use, the runtimes others test with).
#    `npm install`, not `npm ci`: the lockfile cannot list platform packages the
#    registry does not serve, and `npm ci` rejects it (toolchain.md pitfall 5).
stamp=node_modules/.toolschema-setup-stamp
want=$(cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ -d node_modules ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  say "node_modules up to date"
else
  say "npm install"
  npm install --no-audit --no-fund --loglevel=error
  # npm may rewrite the lockfile; stamp what is on disk afterwards.
  cat package.json package-lock.json | sha256sum | cut -d' ' -f1 > "$stamp"
fi
[ -x node_modules/.bin/wasm-opt ] || { echo "setup: node_modules/.bin/wasm-opt missing" >&2; exit 1; }
say "done"
