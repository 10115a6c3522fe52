#!/usr/bin/env bash
# Builds pkg/, the npm package: the crate compiled to wasm32, wasm-bindgen's
# `web` glue, wasm-opt -O3, then scripts/assemble-pkg.mjs adds the shim, the
# CommonJS build, the types and the manifest. Expects scripts/setup.sh to have
# run (the Makefile does that). Recipe: ../shared/reference/toolchain.md.
set -euo pipefail
cd "$(dirname "$0")/.."

t0=$(date +%s)
# Name and version come from Cargo, never from a second copy here.
read -r lib version < <(cargo metadata --no-deps --format-version 1 | node -e '
  const pkg = JSON.parse(require("fs").readFileSync(0, "utf8")).packages[0];
  const lib = pkg.targets.find((t) => t.kind.includes("cdylib"));
  console.log(lib.name.replace(/-/g, "_"), pkg.version);')
[ -n "${version:-}" ] || { echo "build-pkg: could not read the crate name and version from cargo metadata" >&2; exit 1; }

echo "build-pkg: cargo build (wasm32, release)"
cargo build --target wasm32-unknown-unknown --release
t1=$(date +%s)

# One glue: wasm-bindgen's `web` output. Its initSync takes the
# WebAssembly.Module every runtime entry has in hand, and with
# --experimental-reset-state-function it exports __wbg_reset_state(), which
# makes a fresh instance from that module: the shim's recovery after a trap.
# The `nodejs` glue compiles its own copy at load and the `bundler` glue
# leaves instantiation to the host's module loader (no reset possible there);
# every target emits a byte-identical .wasm, so nothing else is lost.
rm -rf build/web
wasm-bindgen --target web --experimental-reset-state-function --out-dir build/web \
  "target/wasm32-unknown-unknown/release/$lib.wasm"

# wasm-opt (npm binaryen, JS build: slow) only when its input or flags changed.
# The feature flags are required for Rust >= 1.82 output (toolchain.md pitfall 3).
# -O3, not -Oz: on this module it is both smaller gzipped (0.5 KB) and fewer
# wasm operators a call (0.7-0.9%, bench/fuel.py), for 7 KB more raw bytes.
opt_flags=(-O3 --enable-simd --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue)
in=build/web/${lib}_bg.wasm
out=build/${lib}_bg.opt.wasm
sum="$(sha256sum "$in" | cut -d' ' -f1) ${opt_flags[*]}"
if [ -f "$out" ] && [ "$(cat "$out.input-sha256" 2>/dev/null)" = "$sum" ]; then
  echo "build-pkg: wasm-opt skipped (input and flags unchanged)"
else
  echo "build-pkg: wasm-opt ${opt_flags[0]}"
  node_modules/.bin/wasm-opt "${opt_flags[@]}" "$in" -o "$out"
  echo "$sum" > "$out.input-sha256"
fi
t2=$(date +%s)

node scripts/assemble-pkg.mjs "$lib" "$version"
t3=$(date +%s)
echo "build-pkg: done in $((t3 - t0)) s (cargo $((t1 - t0)) s, bindgen+wasm-opt $((t2 - t1)) s, assemble $((t3 - t2)) s)"
