#!/usr/bin/env bash
# The official JSON-Schema-Test-Suite (draft 2020-12), which the argument
# validator is checked against (tests/js/conformance.test.mjs). It reaches us
# through PyPI: the `jsonschema` sdist vendors the suite under json/tests/.
# Idempotent: skipped when .cache/json-schema-test-suite holds this version.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="4.23.0"
dest=.cache/json-schema-test-suite
stamp="$dest/.from-jsonschema-$VERSION"
[ -f "$stamp" ] && exit 0

echo "setup-suite: JSON-Schema-Test-Suite from the jsonschema $VERSION sdist (PyPI)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download "jsonschema==$VERSION" --no-deps --no-binary :all: --quiet --disable-pip-version-check -d "$tmp"
tar -xzf "$tmp/jsonschema-$VERSION.tar.gz" -C "$tmp" "jsonschema-$VERSION/json/tests/draft2020-12"
rm -rf "$dest"
mkdir -p "$dest"
mv "$tmp/jsonschema-$VERSION/json/tests/draft2020-12" "$dest/draft2020-12"
touch "$stamp"
