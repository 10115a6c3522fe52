#!/usr/bin/env bash
# Builds the boundary-experiment variants of the wasm (src/wasm_bench.rs, compiled only
# under `--cfg toolschema_bench`) into bench/.build/, with the same wasm-bindgen glue
# and wasm-opt pass as the shipped pkg/, so the crossings are compared on the code
# that ships:
#   boundary/     the release profile as shipped (Cargo.toml's opt-level, wasm-opt -O3)
#   boundary-s/   the same compiled for size (opt-level "s"): what the shipped speed costs
#   phases/       the shipped build with src/phase.rs's marks calling the host
#                 (`--cfg toolschema_phases`), for `bench/fuel.py --phases`
# Own target dirs: the extra RUSTFLAGS would otherwise force a rebuild of target/.
#
#   bench/build-boundary.sh [shipped|size|phases|all]     (default all; skipped when unchanged)
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
sum=$(cat Cargo.toml Cargo.lock .cargo/config.toml scripts/glue-patch.mjs "$0" $(find src -name '*.rs' | sort) | sha256sum | cut -d' ' -f1)

build() { # name opt-level (empty: Cargo.toml's) wasm-opt-flag [extra rustc flags]
  local name=$1 level=$2 flag=$3 extra=${4:-}
  local out=bench/.build/$name target_dir=target/bench-$name
  if [ -f "$out/toolschema_bg.wasm" ] && [ "$(cat "$out/sources.sha256" 2>/dev/null)" = "$sum" ]; then
    echo "build-boundary: $name up to date"
    return
  fi
  mkdir -p "$out"
  echo "build-boundary: $name: cargo build (wasm32, release${level:+, opt-level $level}, --cfg toolschema_bench${extra:+ $extra})"
  (
    [ -z "$level" ] || export CARGO_PROFILE_RELEASE_OPT_LEVEL="$level"
    # RUSTFLAGS replaces .cargo/config.toml's flags, so they are repeated here.
    RUSTFLAGS="--cfg toolschema_bench $extra -C link-arg=-zstack-size=2097152 -C target-feature=+simd128" CARGO_TARGET_DIR="$target_dir" \
      cargo build --quiet --target wasm32-unknown-unknown --release --lib
  )
  wasm-bindgen --target web --out-dir "$out/raw" "$target_dir/wasm32-unknown-unknown/release/toolschema.wasm"
  echo "build-boundary: $name: wasm-opt $flag"
  node_modules/.bin/wasm-opt "$flag" \
    --enable-simd --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/raw/toolschema_bg.wasm" -o "$out/toolschema_bg.wasm"
  cp "$out/raw/toolschema.js" "$out/glue.mjs"
  node scripts/glue-patch.mjs "$out/glue.mjs" # crossing into wasm as the package does
  echo "$sum" > "$out/sources.sha256"
}

case $which in
  shipped) build boundary "" -O3 ;;
  size) build boundary-s s -Oz ;;
  phases) build phases "" -O3 "--cfg toolschema_phases" ;;
  all) build boundary "" -O3; build boundary-s s -Oz ;;
  *) echo "usage: $0 [shipped|size|phases|all]" >&2; exit 2 ;;
esac
