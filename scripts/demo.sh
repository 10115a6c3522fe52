#!/usr/bin/env bash
# `make demo`: the CLI normalizes the bundled real tool list (an MCP
# tools/list response, examples/) for every target the build reports, writes
# each result to build/demo/<target>.json and prints one summary line per
# target, restores a strict model's call with the CLI, then runs the edge
# proxy end to end. Expects pkg/ to be built.
set -euo pipefail
cd "$(dirname "$0")/.."

input=${1:-examples/github-tools-list.json}
cli=(node pkg/cli.mjs)
ids=$("${cli[@]}" targets --compact | node -e '
  for (const t of JSON.parse(require("fs").readFileSync(0, "utf8"))) console.log(t.id);')
if [ -z "$ids" ]; then
  echo "demo: the core reports no targets (targetsJson is empty); nothing to show" >&2
  exit 1
fi

mkdir -p build/demo
tools=$(node -e 'const d = require(process.argv[1]); console.log((d.result ?? d).tools.length)' "./$input")
echo "toolschema $("${cli[@]}" --version): $input ($tools tools) for each target"
n=0
for id in $ids; do
  # --summary writes its one line on stderr; the JSON goes to the file.
  "${cli[@]}" normalize --target "$id" --summary "$input" 2>&1 >"build/demo/$id.json" | sed 's/^/  /'
  n=$((n + 1))
done
echo "demo: $n targets normalized; outputs in build/demo/"

# The way back: arguments a strict model sends for the first tool (null for
# every optional field, a number written as text), restored and validated.
first=$(node -e 'const d = require(process.argv[1]); console.log(JSON.stringify((d.result ?? d).tools[0]))' "./$input")
printf '%s' "$first" > build/demo/tool.json
args=$(node -e '
  const t = JSON.parse(process.argv[1]); const s = t.inputSchema; const out = {};
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    if ((s.required ?? []).includes(k)) out[k] = p.type === "number" || p.type === "integer" ? "1" : p.type === "array" ? [] : p.type === "boolean" ? false : "x";
    else out[k] = null;
  }
  console.log(JSON.stringify(out));' "$first")
echo "round trip for $(node -e 'console.log(JSON.parse(process.argv[1]).name)' "$first") (openai-strict): the model sent $args"
printf '%s' "$args" | "${cli[@]}" restore --target openai-strict --schema build/demo/tool.json --report --compact - 2>&1 | sed 's/^/  /'

# The same way back inside an agent's traffic: toolschema/proxy in front of a
# model server, over HTTP on 127.0.0.1 (examples/proxy-demo.mjs).
node examples/proxy-demo.mjs "$input"
