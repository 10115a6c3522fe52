#!/usr/bin/env bash
# Creates (or reuses) the repo-root .venv that the consumer tests run in, and installs
# tests/consumers/requirements.txt into it only when that file or the interpreter changed
# since the last successful install. Safe to run on every test run: the warm path is a
# hash comparison and one interpreter start.
#
#   scripts/setup-python.sh            # create/update .venv
#   scripts/setup-python.sh --clean    # delete .venv first (e.g. after removing a requirement:
#                                      # pip install -r only ever adds or changes packages)
#
# Environment: PYTHON (default python3) picks the interpreter used to create the venv.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
req="$root/tests/consumers/requirements.txt"
stamp="$venv/.toolschema-requirements.sha256"
python="${PYTHON:-python3}"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
t0="$(now)"

if [[ "${1:-}" == "--clean" ]]; then
  rm -rf "$venv"
elif [[ $# -gt 0 ]]; then
  echo "setup-python: unknown argument '$1' (only --clean)" >&2
  exit 2
fi

if [[ ! -f "$req" ]]; then
  echo "setup-python: missing $req" >&2
  exit 1
fi

if ! command -v "$python" >/dev/null 2>&1; then
  echo "setup-python: interpreter '$python' not found (set PYTHON=...)" >&2
  exit 1
fi
# jsonschema 4.26 and the Google client libraries need 3.10+.
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
  echo "setup-python: $("$python" -V 2>&1) is too old; need Python >= 3.10" >&2
  exit 1
fi

# A venv whose interpreter no longer runs (base Python removed or upgraded in place) is
# rebuilt rather than patched.
if [[ -d "$venv" ]] && ! "$venv/bin/python" -c 'pass' >/dev/null 2>&1; then
  echo "setup-python: $venv is broken; recreating"
  rm -rf "$venv"
fi

if [[ ! -x "$venv/bin/python" ]]; then
  echo "setup-python: creating $venv with $("$python" -V 2>&1) ($(command -v "$python"))"
  "$python" -m venv "$venv"
fi

# The stamp covers the requirements text and the exact venv interpreter, so a new Python
# under the same path also triggers a reinstall.
want="$(
  {
    cat "$req"
    "$venv/bin/python" -c 'import sys; print(sys.version); print(sys.executable)'
  } | sha256sum | cut -d' ' -f1
)"
have="$(cat "$stamp" 2>/dev/null || true)"

if [[ "$want" == "$have" ]]; then
  echo "setup-python: .venv up to date ($(elapsed "$t0") s)"
  exit 0
fi

echo "setup-python: installing tests/consumers/requirements.txt"
t1="$(now)"
# The stamp is removed before and written only after a complete install, so an
# interrupted install is retried next time instead of being trusted.
rm -f "$stamp"
"$venv/bin/python" -m pip install \
  --disable-pip-version-check --no-input --progress-bar off -q \
  -r "$req"
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null || {
  "$venv/bin/python" -m pip check --disable-pip-version-check >&2
  echo "setup-python: inconsistent environment (run with --clean?)" >&2
  exit 1
}
# Importing the consumers proves the install is usable, not just present.
"$venv/bin/python" -c '
import jsonschema, regress
from google.ai.generativelanguage_v1beta.types import Schema as _v1beta
from google.cloud.aiplatform_v1.types import Schema as _v1
from google.protobuf import json_format as _jf
'
printf '%s\n' "$want" >"$stamp"
echo "setup-python: installed in $(elapsed "$t1") s ($(du -sh "$venv" | cut -f1) in .venv); total $(elapsed "$t0") s"
