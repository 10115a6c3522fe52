// Linear time and memory: synthetic schemas from 1 KB to 10 MB, and nested
// objects from 10 levels to the deepest the package accepts, per target.
//
//   node --expose-gc bench/scaling.mjs [--quick]
//
// Prints the log-log slope of time (and wasm memory) over size and depth (1 is
// linear, 2 quadratic); bench/report.mjs draws bench/scaling.svg from them.
// Time is the public normalize() with the cache off, boundary included;
// memory is the growth of the wasm instance's linear memory over one call in
// a fresh instance (its high-water mark: wasm memory never shrinks), measured
// in a child process.
import { execFileSync } from "node:child_process";
import { QUICK, TARGETS, fmt, loadToolschema, logSlope, median, nestedObject, nowMs, printTable, sizedSchema, writeResult } from "./lib.mjs";

// Shapes that stress one mechanism each, grown by doubling: merges of nested
// allOf, nullable unions nested in unions, many definitions behind $refs
// (cycle detection and inlining), a root union and an allOf of many objects
// (merged). Nesting runs with maxDepth raised.
const SHAPES = {
  "nested allOf": (n) => {
    let s = { type: "string" };
    for (let i = 0; i < n; i++) {
      s = { allOf: [{ type: "object", properties: { [`a${i}`]: { type: "string" } }, required: [`a${i}`] }, { type: "object", properties: { b: { type: "integer" }, child: s } }] };
    }
    return s;
  },
  "nullable unions": (n) => {
    let s = { type: "string" };
    for (let i = 0; i < n; i++) s = { anyOf: [{ type: "object", properties: { [`x${i}`]: s, y: { type: "number" } } }, { type: "null" }] };
    return s;
  },
  "a $ref per property": (n) => {
    const properties = {};
    const $defs = {};
    for (let i = 0; i < n; i++) {
      properties[`p${i}`] = { $ref: `#/$defs/D${i}` };
      $defs[`D${i}`] = { type: "object", properties: { a: { type: "string" }, b: { $ref: `#/$defs/D${(i * 7 + 1) % n}` } } };
    }
    return { type: "object", properties, $defs };
  },
  // An allOf of many objects, one property each, merged into one object.
  "an allOf of many objects": (n) => ({
    type: "object",
    properties: {
      x: { allOf: Array.from({ length: n }, (_, i) => ({ type: "object", properties: { [`p${i}`]: { type: "string" } }, required: [`p${i}`] })) },
    },
  }),
  // A root union of objects told apart by a discriminator, merged into one
  // object wherever the root must be one (the discriminator's values united).
  "a union of many objects": (n) => ({
    anyOf: Array.from({ length: n }, (_, i) => ({
      type: "object",
      properties: { kind: { const: `k${i}` }, [`v${i}`]: { type: "integer" } },
      required: ["kind"],
    })),
  }),
};
// Each series stays on one side of OpenAI's limits (nesting 10, 5,000
// properties), where openai-strict's time steps as the call fails open.
const SHAPE_SIZES = {
  "nested allOf": QUICK ? [16, 32] : [16, 32, 64, 128],
  "nullable unions": QUICK ? [16, 32] : [16, 32, 64, 128],
  "a $ref per property": QUICK ? [50, 100] : [125, 250, 500, 1000],
  "a union of many objects": QUICK ? [50, 100] : [125, 250, 500, 1000],
  "an allOf of many objects": QUICK ? [50, 100] : [125, 250, 500, 1000],
};

const SIZES = QUICK ? [1e3, 1e4, 1e5] : [1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7];
const DEFAULT_MAX_LEVELS = 127; // 2 JSON levels per schema level: the default maxDepth (256) fits 127
const DEPTHS = QUICK ? [10, 40, DEFAULT_MAX_LEVELS] : [10, 20, 40, 60, 80, 100, DEFAULT_MAX_LEVELS];
const RAISED = QUICK ? [] : [200, 300, 350, 400, 500, 1000, 5000, 10000];

// ---------------------------------------------------------------------------------------
// Child: `scaling.mjs --memory size|depth N` prints {target: bytes} for one input, each
// target in its own fresh instance (a separate copy of the glue module).
if (process.argv.includes("--memory")) {
  const [kind, n] = process.argv.slice(process.argv.indexOf("--memory") + 1);
  const { readFileSync } = await import("node:fs");
  const wasmModule = new WebAssembly.Module(readFileSync(new URL("../pkg/toolschema_bg.wasm", import.meta.url)));
  const schema = kind === "size" ? sizedSchema(Number(n)) : nestedObject(Number(n));
  const text = JSON.stringify(schema);
  const out = {};
  for (const target of TARGETS) {
    const glue = await import(new URL(`../pkg/toolschema_glue.mjs?${target}`, import.meta.url).href);
    const wasm = glue.initSync({ module: wasmModule });
    const before = wasm.memory.buffer.byteLength;
    const envelope = glue.normalizeJson(text, target, JSON.stringify({ maxDepth: 1e6 }));
    out[target] = envelope.startsWith('{"ok"') ? wasm.memory.buffer.byteLength - before : null;
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

function memoryOf(kind, n) {
  try {
    const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--memory", kind, String(n)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 1 << 20,
    });
    return JSON.parse(out.trim().split("\n").at(-1));
  } catch {
    return Object.fromEntries(TARGETS.map((t) => [t, null])); // the instance trapped (stack overflow)
  }
}

// Median of repeated single calls, enough of them to fill ~0.3 s (3 at least).
// The first call warms up and sizes the rest.
function timeCall(fn) {
  const t0 = nowMs();
  fn();
  const once = nowMs() - t0;
  // Calls of a second or more (the multi-megabyte inputs) vary little: two suffice.
  const reps = once >= 1000 ? 2 : Math.max(3, Math.min(QUICK ? 20 : 200, Math.ceil((QUICK ? 50 : 300) / Math.max(once, 1e-3))));
  const runs = [];
  for (let i = 0; i < reps; i++) {
    const s = nowMs();
    fn();
    runs.push(nowMs() - s);
  }
  return median(runs) * 1e6; // ns
}

// JSON size, or null where JSON.stringify itself runs out of stack.
function jsonBytes(value) {
  try {
    return JSON.stringify(value).length;
  } catch {
    return null;
  }
}

// The floor: a JSON copy's time, or null where JSON.stringify itself runs out
// of stack. Every call timed here stringifies its input, and JSON.stringify
// slows with nesting (past a few hundred levels it takes more time per level
// than below), so the floor is timed on every row the calls are.
function copyTime(value) {
  try {
    return timeCall(() => JSON.parse(JSON.stringify(value)));
  } catch {
    return null;
  }
}

const ts = await loadToolschema();
ts.configureCache({ maxEntries: 0 });
const RAISED_OPTIONS = { maxDepth: 1e6 };

// ---- size -----------------------------------------------------------------------------
const size = { points: [] };
for (const bytes of SIZES) {
  const schema = sizedSchema(bytes);
  const actual = JSON.stringify(schema).length;
  const point = { bytes: actual, ns: {}, memory: {} };
  for (const target of TARGETS) point.ns[target] = timeCall(() => ts.normalize(schema, target));
  point.ns.copy = copyTime(schema);
  point.memory = memoryOf("size", bytes);
  // Past OpenAI's limits (5,000 properties, 120,000 characters) strict mode
  // fails open: the pipeline runs again for the relaxed target, a step up.
  point.strict = ts.normalize(schema, "openai-strict").strict;
  size.points.push(point);
  process.stdout.write(".");
}
size.slope = {};
size.memorySlope = {};
for (const t of [...TARGETS, "copy"]) {
  // The slope over the upper decades, where fixed per-call costs no longer dominate.
  const pts = size.points.filter((p) => p.bytes >= 1e4 || QUICK).map((p) => [p.bytes, p.ns[t]]);
  size.slope[t] = logSlope(pts);
  if (t !== "copy") {
    const mem = size.points.filter((p) => p.bytes >= 1e5 && p.memory[t] > 0).map((p) => [p.bytes, p.memory[t]]);
    size.memorySlope[t] = mem.length >= 2 ? logSlope(mem) : null;
  }
}

// ---- depth ----------------------------------------------------------------------------
const depth = { points: [], limits: {} };
for (const levels of DEPTHS) {
  const schema = nestedObject(levels);
  const point = { levels, bytes: jsonBytes(schema), ns: {} };
  for (const target of TARGETS) point.ns[target] = timeCall(() => ts.normalize(schema, target));
  point.ns.copy = copyTime(schema);
  depth.points.push(point);
  process.stdout.write(".");
}
// Where the default stops: the first level count that is too-deep.
try {
  ts.normalize(nestedObject(DEFAULT_MAX_LEVELS + 1), "mcp");
  depth.defaultLimit = { levels: DEFAULT_MAX_LEVELS + 1, error: null };
} catch (err) {
  depth.defaultLimit = { levels: DEFAULT_MAX_LEVELS + 1, error: err.code };
}
// With maxDepth raised: how far each target gets, and what stops it.
depth.raised = [];
for (const levels of RAISED) {
  const schema = nestedObject(levels);
  const point = { levels, bytes: jsonBytes(schema), ns: {}, errors: {} };
  for (const target of TARGETS) {
    try {
      point.ns[target] = timeCall(() => ts.normalize(schema, target, RAISED_OPTIONS));
    } catch (err) {
      point.ns[target] = null;
      point.errors[target] = `${err.code}: ${err.message.replace(/^.*?: /, "").slice(0, 60)}`;
    }
  }
  point.ns.copy = copyTime(schema);
  depth.raised.push(point);
  process.stdout.write(".");
}
process.stdout.write("\n");
depth.slope = {};
for (const t of [...TARGETS, "copy"]) {
  const pts = [...depth.points, ...depth.raised].filter((p) => p.ns[t] > 0).map((p) => [p.levels, p.ns[t]]);
  depth.slope[t] = logSlope(pts);
}

// ---- shapes ---------------------------------------------------------------------------
const shapes = [];
for (const [name, make] of Object.entries(SHAPES)) {
  const points = [];
  for (const n of SHAPE_SIZES[name]) {
    const schema = make(n);
    const point = { n, bytes: jsonBytes(schema), ns: {} };
    for (const target of TARGETS) point.ns[target] = timeCall(() => ts.normalize(schema, target, RAISED_OPTIONS));
    point.ns.copy = copyTime(schema);
    points.push(point);
    process.stdout.write(".");
  }
  const slope = Object.fromEntries([...TARGETS, "copy"].map((t) => [t, logSlope(points.map((p) => [p.bytes, p.ns[t]]))]));
  shapes.push({ name, points, slope });
}
process.stdout.write("\n");

// ---- report ---------------------------------------------------------------------------
console.log(`scaling: ${QUICK ? "quick; " : ""}public normalize(), cache off; slope of log(time) over log(size), 1 = linear`);
printTable(
  ["JSON size", ...TARGETS, "copy"],
  size.points.map((p) => [fmt.bytes(p.bytes), ...TARGETS.map((t) => fmt.time(p.ns[t])), fmt.time(p.ns.copy)]),
);
console.log(["slope (≥10 KiB)", ...[...TARGETS, "copy"].map((t) => `${t} ${size.slope[t].toFixed(2)}`)].join("   "));
console.log("\nwasm memory growth over one call, fresh instance (64 KiB pages)");
printTable(
  ["JSON size", ...TARGETS],
  size.points.map((p) => [fmt.bytes(p.bytes), ...TARGETS.map((t) => (p.memory[t] === null ? "failed" : fmt.bytes(p.memory[t])))]),
);
console.log(["memory slope (≥100 KiB)", ...TARGETS.map((t) => `${t} ${size.memorySlope[t]?.toFixed(2) ?? "–"}`)].join("   "));

console.log(`\nnesting: nested objects, schema levels (2 JSON levels each); default maxDepth 256 → ${DEFAULT_MAX_LEVELS} levels, ${DEFAULT_MAX_LEVELS + 1} is ${depth.defaultLimit.error ?? "accepted"}`);
printTable(
  ["levels", "JSON size", ...TARGETS, "copy"],
  [...depth.points, ...depth.raised].map((p) => [
    `${p.levels}${p.errors ? " (raised)" : ""}`,
    p.bytes === null ? "–" : fmt.bytes(p.bytes),
    ...TARGETS.map((t) => (p.ns[t] === null ? "error" : fmt.time(p.ns[t]))),
    fmt.time(p.ns.copy),
  ]),
);
console.log(["slope", ...[...TARGETS, "copy"].map((t) => `${t} ${depth.slope[t].toFixed(2)}`)].join("   "));
for (const p of depth.raised) {
  for (const [t, e] of Object.entries(p.errors)) console.log(`  ${p.levels} levels (maxDepth raised), ${t}: ${e}`);
}

console.log("\nshapes (maxDepth raised): slope of log(time) over log(JSON size) as each doubles");
printTable(
  ["shape", "sizes", ...TARGETS, "copy"],
  shapes.map((s) => [s.name, s.points.map((p) => p.n).join("/"), ...[...TARGETS, "copy"].map((t) => s.slope[t].toFixed(2))]),
);

writeResult("scaling", { size, depth, shapes });
