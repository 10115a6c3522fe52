// Builds the seed corpora from the fixtures (tests/fixtures/*/input.json) and
// the shared corpus of real schemas (../shared/corpus), in the layout
// fuzz_targets/common.rs decodes: three header bytes, then the schema text.
// Seeds are spread over targets and option mixes so that every target starts
// from real schemas; libFuzzer mutates the header bytes from there.
//
//   node fuzz/seed.mjs <out-dir>      writes <out-dir>/normalize, <out-dir>/entry_points, <out-dir>/arguments
//                                     and <out-dir>/doc (the plain JSON text, no header)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const out = process.argv[2] ?? join(root, "fuzz/corpus");
const TARGETS = 19; // a larger count only wraps: common.rs takes it modulo the real one
// libFuzzer's -max_len (scripts/fuzz.sh): larger seeds would be cut to invalid JSON.
const MAX_LEN = 65_536;

const schemas = [];
const fixtures = join(root, "tests/fixtures");
for (const name of readdirSync(fixtures).sort()) {
  const input = join(fixtures, name, "input.json");
  if (existsSync(input)) schemas.push(JSON.parse(readFileSync(input, "utf8")));
}
const shared = join(root, "../shared/corpus");
const lists = [];
if (existsSync(shared)) {
  for (const file of readdirSync(shared).filter((f) => f.endsWith(".json")).sort()) {
    const entries = JSON.parse(readFileSync(join(shared, file), "utf8"));
    for (const e of entries) schemas.push(e.schema);
    lists.push(entries.slice(0, 8).map((e) => ({ name: e.name, inputSchema: e.schema })));
  }
}

function write(dir, header, text) {
  const bytes = Buffer.concat([Buffer.from(header), Buffer.from(text, "utf8")]);
  if (bytes.length > MAX_LEN) return 0;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, createHash("sha1").update(bytes).digest("hex")), bytes);
  return 1;
}

let n = 0;
// Option bytes: defaults, paren spill + small budgets, no spill + strict
// constraints stripped + maxRecursion 2, unresolved refs strict + maxDepth 40.
const OPTION_MIXES = [[0, 0], [0b1000_0001, 0], [0b0100_0110, 0b0000_0100], [0b0001_0000, 0b10]];
schemas.forEach((schema, i) => {
  const text = JSON.stringify(schema);
  const [bits, more] = OPTION_MIXES[i % OPTION_MIXES.length];
  n += write(join(out, "normalize"), [i % TARGETS, bits, more], text);
  n += write(join(out, "normalize"), [(i + 7) % TARGETS, 0, 0], text);
  n += write(join(out, "entry_points"), [i % TARGETS, 0, 0], text); // check
  n += write(join(out, "entry_points"), [i % TARGETS, bits, 0b1000_0000], text); // ability
  n += write(join(out, "entry_points"), [0, 0, 0b1100_0000], text); // lint
  // The document model: the text alone, compact and (every fourth) indented.
  n += write(join(out, "doc"), [], i % 4 === 0 ? JSON.stringify(schema, null, 2) : text);
});
const examples = join(root, "examples/github-tools-list.json");
if (existsSync(examples)) lists.push(JSON.parse(readFileSync(examples, "utf8")));
lists.forEach((list, i) => {
  for (const t of [i % TARGETS, (i + 5) % TARGETS, 10, 11]) n += write(join(out, "entry_points"), [t, 0, 0b0100_0000], JSON.stringify(list));
});
for (const route of [
  { provider: "google", model: "gemini-2.5-pro" },
  { provider: "openai", api: "responses", strict: true },
  { provider: "google-cloud-code-assist", model: "claude-sonnet-4" },
  { provider: "anthropic", strict: true },
]) {
  n += write(join(out, "entry_points"), [1, 0, 0b1100_0000], JSON.stringify(route));
}
// The round trip: `<schema>` SOH `<arguments>`; byte 2's low bits pick
// restore, repair, validate or prepare, byte 1's low bit emptyStrings.
const argumentFixtures = join(root, "tests/arguments");
for (const file of readdirSync(argumentFixtures).filter((f) => f.endsWith(".json")).sort()) {
  const f = JSON.parse(readFileSync(join(argumentFixtures, file), "utf8"));
  const text = `${JSON.stringify(f.schema)}\u0001${JSON.stringify(f.args)}`;
  for (let call = 0; call < 4; call++) n += write(join(out, "arguments"), [(file.length + call * 5) % TARGETS, call & 1, call], text);
}
schemas.forEach((schema, i) => {
  if (i % 3 !== 0) return;
  const text = `${JSON.stringify(schema)}\u0001{}`;
  n += write(join(out, "arguments"), [i % TARGETS, 0, i % 4], text);
});
console.log(`seed corpus: ${n} files from ${schemas.length} schemas and ${lists.length} tool lists in ${out}`);
