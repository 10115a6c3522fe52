#!/usr/bin/env bash
# Installs the grammar compilers that tests/grammars/check_grammars.py runs our output
# through, once. Safe to run on every test run: each step compares a stamp and is skipped
# when its inputs did not change (warm: ~2 s, mostly interpreter starts).
#
#   scripts/setup-grammars.sh            # install / update
#   scripts/setup-grammars.sh --clean    # delete .cache/grammars first (not .venv)
#
#   1. .venv (scripts/setup-python.sh): llguidance, outlines-core and mcp-schema-normalize
#      are pinned in the grammar section of tests/consumers/requirements.txt.
#   2. xgrammar, --no-deps, into .cache/grammars/xgrammar (why: tests/grammars/requirements-xgrammar.txt).
#   3. llama.cpp's JSON-schema-to-GBNF converter and GBNF loader, built from the C++ sources
#      vendored in llama-cpp-python's PyPI sdist: the sdist is downloaded with pip, checked
#      against a pinned SHA-256, and only the files in LLAMA_FILES are extracted (into
#      .cache/grammars/llama.cpp-VERSION/, never committed); tests/grammars/driver.cpp is
#      compiled against them into .cache/grammars/bin/gbnf-driver. No model code, no ggml.
#   4. A smoke run of every compiler (check_grammars.py --versions).
#
# Environment: GRAMMARS_JOBS (default 2) parallel compiler processes; CXX (default g++).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$root/.cache/grammars"

# llama-cpp-python's sdist: its vendor/llama.cpp is the converter we test against. Pinned
# by hash so a re-uploaded file is refused rather than silently tested against.
LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

# Paths under vendor/llama.cpp/ that the driver compiles or includes. Everything else in the
# 76 MB sdist stays in the tarball.
LLAMA_FILES=(
  LICENSE
  common/json-schema-to-grammar.cpp common/json-schema-to-grammar.h  # schema -> GBNF
  common/json-schema.cpp common/json-schema.h                        # typed schema tree it converts
  common/json.cpp common/json.h                                      # common_json over nlohmann
  common/trie.cpp common/trie.h common/unicode.cpp common/unicode.h  # used by the converter
  common/common.h common/common.cpp                                  # string helpers (cut out below)
  src/llama-grammar.cpp src/llama-grammar.h                          # GBNF parser and loader
  src/llama-impl.h src/llama-vocab.h src/llama-sampler.h             # headers it includes
  include/llama.h include/llama-cpp.h
  ggml/include/ggml.h ggml/include/ggml-cpu.h ggml/include/ggml-backend.h
  ggml/include/ggml-alloc.h ggml/include/ggml-opt.h ggml/include/gguf.h
  vendor/nlohmann/json.hpp vendor/nlohmann/json_fwd.hpp
)
# Translation units linked into the driver (common/common.cpp is not: it needs all of
# llama.cpp; the three string helpers the converter calls are cut out of it instead).
LLAMA_UNITS=(
  common/json-schema-to-grammar.cpp common/json-schema.cpp common/json.cpp
  common/trie.cpp common/unicode.cpp common/common-strings.cpp src/llama-grammar.cpp
)
# -DNDEBUG as in llama.cpp's release builds, so an assert() a server would not run cannot
# fail a schema here. -O1, not -O2: it halves the cold build (nlohmann's templates dominate)
# and the whole corpus still converts in well under a second.
CXXFLAGS_DRIVER=(-std=c++17 -O1 -DNDEBUG -w)

jobs="${GRAMMARS_JOBS:-2}"
cxx="${CXX:-g++}"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
say() { printf 'setup-grammars: %s\n' "$*"; }
die() { printf 'setup-grammars: ERROR: %s\n' "$*" >&2; exit 1; }
t0="$(now)"

if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$cache"
elif [[ $# -gt 0 ]]; then
  echo "setup-grammars: unknown argument '$1' (only --clean)" >&2
  exit 2
fi

command -v "$cxx" >/dev/null || die "$cxx not found (apt-get install g++)"
mkdir -p "$cache"

# --- 1. the shared venv -------------------------------------------------------------------
"$root/scripts/setup-python.sh"
py="$root/.venv/bin/python"
pip_quiet=(--disable-pip-version-check --no-input --progress-bar off -q)

# --- 2. xgrammar ----------------------------------------------------------------------------
xg_req="$root/tests/grammars/requirements-xgrammar.txt"
xg_dir="$cache/xgrammar"
xg_want="$({ cat "$xg_req"; "$py" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [[ "$(cat "$xg_dir/.stamp" 2>/dev/null || true)" == "$xg_want" ]]; then
  say "xgrammar up to date"
else
  t1="$(now)"
  say "installing xgrammar (--no-deps) into .cache/grammars/xgrammar"
  rm -rf "$xg_dir" "$xg_dir.tmp"
  "$py" -m pip install "${pip_quiet[@]}" --no-deps --target "$xg_dir.tmp" -r "$xg_req"
  printf '%s\n' "$xg_want" >"$xg_dir.tmp/.stamp"
  mv "$xg_dir.tmp" "$xg_dir"
  say "xgrammar installed in $(elapsed "$t1") s ($(du -sh "$xg_dir" | cut -f1))"
fi

# --- 3. llama.cpp converter + GBNF loader ---------------------------------------------------
ver="$LLAMA_CPP_PYTHON_VERSION"
tarball="$cache/dl/llama_cpp_python-$ver.tar.gz"
src="$cache/llama.cpp-$ver"
build="$cache/build-$ver"
driver="$cache/bin/gbnf-driver"

sha_ok() { [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$LLAMA_CPP_PYTHON_SHA256" ]]; }

if [[ "$(cat "$src/.stamp" 2>/dev/null || true)" == "$LLAMA_CPP_PYTHON_SHA256" ]]; then
  say "llama.cpp sources ($ver) up to date"
else
  t1="$(now)"
  if ! sha_ok "$tarball"; then
    say "downloading the llama-cpp-python $ver sdist"
    rm -rf "$cache/dl"
    mkdir -p "$cache/dl"
    # --no-binary for this package only: pip prepares the sdist's metadata, and its build
    # backend (scikit-build-core) then comes as a wheel instead of being compiled.
    "$py" -m pip download "${pip_quiet[@]}" --no-deps --no-binary llama-cpp-python -d "$cache/dl" \
      "llama-cpp-python==$ver"
    sha_ok "$tarball" || die "$tarball is missing or its SHA-256 is not $LLAMA_CPP_PYTHON_SHA256"
  fi
  rm -rf "$src" "$src.tmp"
  mkdir -p "$src.tmp"
  prefix="llama_cpp_python-$ver/vendor/llama.cpp"
  tar -xzf "$tarball" -C "$src.tmp" --strip-components=3 "${LLAMA_FILES[@]/#/$prefix/}"
  # string_join, string_split and string_repeat, verbatim: each definition runs from its
  # signature line to the first closing brace in column 0.
  {
    echo "// Cut out of common/common.cpp by scripts/setup-grammars.sh: the string helpers"
    echo "// json-schema-to-grammar.cpp and json-schema.cpp call."
    echo '#include "common.h"'
    echo '#include <sstream>'
    awk '/^std::string string_join\(|^std::vector<std::string> string_split\(const std::string & str, const std::string & delimiter\)|^std::string string_repeat\(/ { p = 1 }
         p { print }
         p && /^}/ { p = 0; n++; print "" }
         END { if (n != 3) { print "expected 3 helpers, cut " n > "/dev/stderr"; exit 1 } }' \
      "$src.tmp/common/common.cpp"
  } >"$src.tmp/common/common-strings.cpp" || die "cannot cut the string helpers out of common/common.cpp"
  rm "$src.tmp/common/common.cpp"
  printf '%s\n' "$LLAMA_CPP_PYTHON_SHA256" >"$src.tmp/.stamp"
  mv "$src.tmp" "$src"
  # The 76 MB tarball is not needed again: a driver.cpp change rebuilds from $src, and a new
  # version downloads a new tarball.
  rm -rf "$cache/dl"
  say "llama.cpp sources extracted in $(elapsed "$t1") s ($(du -sh "$src" | cut -f1), $(find "$src" -type f | wc -l) files)"
fi

cxx_id="$("$cxx" --version | head -n 1)"
flags_id="${CXXFLAGS_DRIVER[*]}"
includes=(-I"$src/common" -I"$src/src" -I"$src/include" -I"$src/ggml/include" -I"$src/vendor")
driver_want="$(
  {
    cat "$root/tests/grammars/driver.cpp"
    echo "$ver $LLAMA_CPP_PYTHON_SHA256 $cxx_id $flags_id"
  } | sha256sum | cut -d' ' -f1
)"
if [[ -x "$driver" && "$(cat "$driver.stamp" 2>/dev/null || true)" == "$driver_want" ]]; then
  say "gbnf-driver up to date"
else
  t1="$(now)"
  # The vendored objects depend only on the sources, the compiler and the flags: kept
  # across driver.cpp edits.
  units_want="$(echo "$ver $LLAMA_CPP_PYTHON_SHA256 $cxx_id $flags_id" | sha256sum | cut -d' ' -f1)"
  if [[ "$(cat "$build/.stamp" 2>/dev/null || true)" != "$units_want" ]]; then
    rm -rf "$build"
  fi
  mkdir -p "$build" "$cache/bin"
  todo=()
  for unit in "${LLAMA_UNITS[@]}"; do
    obj="$build/$(basename "$unit" .cpp).o"
    [[ -f "$obj" ]] || todo+=("$src/$unit")
  done
  todo+=("$root/tests/grammars/driver.cpp")
  say "compiling ${#todo[@]} translation units with $cxx, $jobs at a time (nice)"
  define=(-DTOOLSCHEMA_LLAMA_SOURCE="\"llama-cpp-python $ver sdist, vendor/llama.cpp\"")
  # Each unit goes to a temporary object first, so an interrupted build leaves no
  # half-written .o that a later run would trust.
  compile_one() {
    local o
    o="$build/$(basename "$1" .cpp).o"
    nice -n 10 "$cxx" "${CXXFLAGS_DRIVER[@]}" "${includes[@]}" "${define[@]}" -c "$1" -o "$o.tmp" && mv "$o.tmp" "$o"
  }
  running=0
  failed=0
  for unit in "${todo[@]}"; do
    compile_one "$unit" &
    running=$((running + 1))
    if ((running >= jobs)); then
      wait -n || failed=1
      running=$((running - 1))
    fi
  done
  while ((running > 0)); do
    wait -n || failed=1
    running=$((running - 1))
  done
  ((failed == 0)) || die "compilation failed"
  printf '%s\n' "$units_want" >"$build/.stamp"
  objs=()
  for unit in "${LLAMA_UNITS[@]}" driver.cpp; do
    objs+=("$build/$(basename "$unit" .cpp).o")
  done
  nice -n 10 "$cxx" "${objs[@]}" -o "$driver.tmp"
  mv "$driver.tmp" "$driver"
  printf '%s\n' "$driver_want" >"$driver.stamp"
  say "gbnf-driver built in $(elapsed "$t1") s"
fi

# --- 4. smoke run -----------------------------------------------------------------------------
# Every compiler must load and accept a trivial schema; versions are printed for the log.
"$py" "$root/tests/grammars/check_grammars.py" --versions || die "a grammar compiler does not load (run with --clean?)"
say "ready in $(elapsed "$t0") s (.cache/grammars: $(du -sh "$cache" | cut -f1))"
