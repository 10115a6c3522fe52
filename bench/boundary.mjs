// The wasm boundary, chosen by measurement: how a schema crosses into the
// core and back as JSON text (what ships: JSON.stringify, one copy, serde_json
// parse; serde_json serialize, one copy, JSON.parse), as objects converted by
// serde-wasm-bindgen's json_compatible serializer, or as JS objects walked
// directly from Rust through js_sys.
//
//   bench/build-boundary.sh && node --expose-gc bench/boundary.mjs [--quick]
//
// Uses the experiment builds (src/wasm_bench.rs): bench/.build/boundary
// has the release profile and wasm-opt pass of pkg/, plus the bench* exports;
// bench/.build/boundary-s, when built, is the same compiled for size (opt-level
// "s"), to show what the shipped speed-first profile costs and buys. Each direction is timed alone; the
// end-to-end rows run the whole normalizer each way. Variants alternate within
// every round; tables show the median over rounds.
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { BENCH, QUICK, TARGETS, corpusSets, fmt, loadCorpus, median, printTable, time, writeResult } from "./lib.mjs";

async function load(name) {
  const dir = `${BENCH}.build/${name}/`;
  if (!existsSync(`${dir}glue.mjs`)) return null;
  const glue = await import(new URL(`${dir}glue.mjs`, import.meta.url).href);
  const bytes = readFileSync(`${dir}toolschema_bg.wasm`);
  glue.initSync({ module: new WebAssembly.Module(bytes) });
  return { glue, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}
const shipped = await load("boundary");
if (shipped === null) {
  console.error("boundary: the experiment build is missing: run bench/build-boundary.sh");
  process.exit(1);
}
const small = QUICK ? null : await load("boundary-s");
const glue = shipped.glue;

const ROUNDS = QUICK ? 1 : 5;
const sets = corpusSets(loadCorpus());
const chosen = QUICK ? { mcp: sets.mcp } : sets;

/** Runs every `[name, fn]` once per round, alternating; returns the median per name. */
async function rounds(cases) {
  const runs = Object.fromEntries(cases.map(([name]) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of r % 2 === 0 ? cases : [...cases].reverse()) runs[name].push(await time(fn));
  }
  return Object.fromEntries(Object.entries(runs).map(([name, v]) => [name, median(v)]));
}

const crossings = [];
const endToEnd = [];
for (const [set, entries] of Object.entries(chosen)) {
  const schemas = entries.map((e) => e.schema);
  const texts = schemas.map((s) => JSON.stringify(s));
  glue.benchClear();
  const stored = texts.map((t) => glue.benchStore(t));
  const m = await rounds([
    ["in.json", () => schemas.forEach((s) => glue.benchInJson(JSON.stringify(s)))],
    ["in.swb", () => schemas.forEach((s) => glue.benchInSwb(s))],
    ["in.walk", () => schemas.forEach((s) => glue.benchInWalk(s))],
    ["out.json", () => stored.forEach((i) => JSON.parse(glue.benchOutJson(i)))],
    ["out.swb", () => stored.forEach((i) => glue.benchOutSwb(i))],
    ["out.walk", () => stored.forEach((i) => glue.benchOutWalk(i))],
    ["js.stringify", () => schemas.forEach((s) => JSON.stringify(s))],
    ["js.parse", () => texts.forEach((t) => JSON.parse(t))],
  ]);
  glue.benchClear();
  crossings.push({ set, schemas: schemas.length, bytes: texts.reduce((n, t) => n + t.length, 0), ns: m });

  for (const target of QUICK ? ["google"] : TARGETS) {
    const cases = [
      ["json", () => schemas.forEach((s) => JSON.parse(glue.normalizeJson(JSON.stringify(s), target, "{}")))],
      ["jsonSchemaOnly", () => schemas.forEach((s) => JSON.parse(glue.normalizeSchemaJson(JSON.stringify(s), target, "{}")))],
      ["swb", () => schemas.forEach((s) => glue.benchNormalizeSwb(s, target, "{}"))],
      // The same call on the texts, its answer left unparsed: the core's own
      // time; and in the same rounds the document model alone, text in and
      // out (benchRoundTrip): what every call pays before its target's rules.
      ["wasmSchemaOnly", () => texts.forEach((t) => glue.normalizeSchemaJson(t, target, "{}"))],
      ["modelRoundTrip", () => texts.forEach((t) => glue.benchRoundTrip(t))],
    ];
    if (small) cases.push(["jsonSizeBuild", () => schemas.forEach((s) => JSON.parse(small.glue.normalizeJson(JSON.stringify(s), target, "{}")))]);
    endToEnd.push({ set, target, ns: await rounds(cases) });
  }
}

console.log(`boundary: ${QUICK ? "quick, " : ""}median of ${ROUNDS} round(s), per pass over the set; "in" includes JSON.stringify, "out" includes JSON.parse`);
printTable(
  ["set", "in: JSON text", "in: serde-wasm-bindgen", "in: js_sys walk", "out: JSON text", "out: serde-wasm-bindgen", "out: js_sys walk", "JSON.stringify alone", "JSON.parse alone"],
  crossings.map((r) => [
    `${r.set} (${fmt.bytes(r.bytes)})`,
    ...["in.json", "in.swb", "in.walk", "out.json", "out.swb", "out.walk", "js.stringify", "js.parse"].map((k) => fmt.time(r.ns[k])),
  ]),
);
console.log("\nend to end (normalize, boundary included):");
printTable(
  ["set", "dispatcher", "JSON text (shipped)", "JSON text, no report", "serde-wasm-bindgen", "swb / JSON", ...(small ? ["size-first build", "size-first / shipped"] : [])],
  endToEnd.map((e) => [
    e.set,
    e.target,
    fmt.time(e.ns.json),
    fmt.time(e.ns.jsonSchemaOnly),
    fmt.time(e.ns.swb),
    fmt.ratio(e.ns.swb / e.ns.json),
    ...(small ? [fmt.time(e.ns.jsonSizeBuild), fmt.ratio(e.ns.jsonSizeBuild / e.ns.json)] : []),
  ]),
);
console.log("\nthe document model's share of the core's time (text in and out of wasm, no JSON.parse): its round trip (depth scan, parse, write) ÷ normalizeSchemaJson");
printTable(
  ["set", "dispatcher", "model round trip", "normalizeSchemaJson", "share"],
  endToEnd.map((e) => [e.set, e.target, fmt.time(e.ns.modelRoundTrip), fmt.time(e.ns.wasmSchemaOnly), `${((100 * e.ns.modelRoundTrip) / e.ns.wasmSchemaOnly).toFixed(0)}%`]),
);
const sizes = { shipped: { raw: shipped.raw, gzip: shipped.gzip }, small: small && { raw: small.raw, gzip: small.gzip } };
console.log(`\nexperiment builds (bench exports included): shipped ${fmt.bytes(shipped.raw)} raw, ${fmt.bytes(shipped.gzip)} gzip${small ? `; size-first ${fmt.bytes(small.raw)} raw, ${fmt.bytes(small.gzip)} gzip` : ""}`);
writeResult("boundary", { rounds: ROUNDS, crossings, endToEnd, sizes });
