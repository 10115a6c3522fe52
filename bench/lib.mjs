// Shared by the benchmarks: the corpus, the contestants, timing and the
// result files that bench/report.mjs turns into bench/RESULTS.md.
//
// Every script takes --quick (or BENCH_QUICK=1): seconds instead of minutes,
// fewer inputs, results written next to the full ones but never reported.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { measure } from "mitata";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const BENCH = fileURLToPath(new URL("./", import.meta.url));
export const CORPUS_DIR = process.env.TOOLSCHEMA_CORPUS ?? `${ROOT}../shared/corpus/`;
export const QUICK = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";

/** The dispatchers every contestant is compared on, by toolschema target id. */
export const TARGETS = ["google", "cca", "mcp", "openai-responses", "openai-strict"];

/** Every corpus schema: `{file, name, schema}`, files in name order. */
export function loadCorpus() {
  const out = [];
  for (const file of readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".json")).sort()) {
    for (const entry of JSON.parse(readFileSync(`${CORPUS_DIR}${file}`, "utf8"))) {
      out.push({ file: file.replace(/\.json$/, ""), name: entry.name, schema: entry.schema });
    }
  }
  return out;
}

/**
 * The two input sets. "mcp" is what real MCP servers send (the mcp-* files):
 * the set the peer ratios were measured on. "corpus" adds the
 * generator outputs, WordPress and the pathological cases.
 */
export function corpusSets(corpus) {
  return {
    mcp: corpus.filter((e) => e.file.startsWith("mcp-")),
    corpus,
  };
}

/** `depth` levels of `{type: object, properties: {child}, required: [child]}` over a string leaf. */
export function nestedObject(depth) {
  let schema = { type: "string", description: "leaf" };
  for (let level = depth; level > 0; level--) {
    schema = { type: "object", description: `level ${level}`, properties: { child: schema }, required: ["child"] };
  }
  return schema;
}

/** A schema of about `bytes` JSON bytes: object groups of eight realistic properties (scaling.mjs, memory.mjs). */
export function sizedSchema(bytes) {
  const group = (g) => ({
    type: "object",
    description: `settings group ${g}`,
    properties: {
      name: { type: "string", minLength: 1, maxLength: 64, pattern: "^[a-z][a-z0-9_-]*$", description: "identifier" },
      count: { type: ["integer", "null"], minimum: 0, maximum: 1000, default: 10 },
      mode: { anyOf: [{ const: "fast" }, { const: "safe" }], description: "how to run" },
      tags: { type: "array", items: { type: "string", format: "uri" }, maxItems: 20 },
      when: { type: "string", format: "date-time" },
      ratio: { type: "number", exclusiveMinimum: 0 },
      flag: { type: "boolean", default: false },
      owner: { type: "object", properties: { id: { type: "integer" }, email: { type: "string", format: "email" } }, required: ["id"] },
    },
    required: ["name", "mode"],
    additionalProperties: false,
  });
  const per = JSON.stringify(group(1000)).length + 10;
  const n = Math.max(1, Math.round((bytes - 120) / per));
  const properties = {};
  for (let g = 0; g < n; g++) properties[`g${g}`] = group(g);
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    description: "synthetic tool",
    properties,
    required: ["g0"],
  };
}

/** The built package (make pkg), as users import it. */
export async function loadToolschema() {
  return import(new URL("../pkg/node.mjs", import.meta.url).href);
}

/** toolschema's public functions per dispatcher, each returning `{schema, strict?}` like the peers' adapters. */
export function toolschemaTargets(ts) {
  return {
    google: (s) => ({ schema: ts.normalizeSchemaForGoogle(s) }),
    cca: (s) => ({ schema: ts.normalizeSchemaForCCA(s) }),
    mcp: (s) => ({ schema: ts.normalizeSchemaForMCP(s) }),
    "openai-responses": (s) => ({ schema: ts.normalizeSchemaForOpenAIResponses(s) }),
    "openai-strict": (s) => ts.tryEnforceStrictSchema(s),
  };
}

/** The floor: what copying the schema costs. */
// pi-ai's CCA path is exponential in nesting depth (about 1.9x per level: the
// 40-level corpus schema would take days), so schemas nested deeper than this
// (JSON levels) leave the CCA rows for every contestant (compare.mjs, text.mjs).
export const CCA_MAX_JSON_DEPTH = 41;

/** JSON nesting depth of a value (containers counted). */
export const jsonDepth = (v) => (typeof v !== "object" || v === null ? 0 : 1 + Math.max(0, ...Object.values(v).map(jsonDepth)));

export const copy = (s) => ({ schema: JSON.parse(JSON.stringify(s)) });

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Least-squares slope of log(y) over log(x): 1 is linear, 2 quadratic. */
export function logSlope(points) {
  const xs = points.map((p) => Math.log(p[0]));
  const ys = points.map((p) => Math.log(p[1]));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

/**
 * The clock: the process's CPU time by default, every thread included (so a
 * contestant's garbage, collected on V8's helper threads, counts against it).
 * Throughput is bounded by CPU time on a busy server, and on a shared machine
 * it leaves out the time the process spends descheduled, which wall time
 * does not. BENCH_CLOCK=wall times wall-clock latency instead.
 */
export const CLOCK = process.env.BENCH_CLOCK === "wall" ? "wall" : "cpu";
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};
/** Milliseconds on the chosen clock, for hand-timed loops. */
export const nowMs = CLOCK === "cpu" ? () => cpuNow() / 1e6 : () => performance.now();

/** Mitata's options per measurement, by mode. */
export function budget() {
  const clock = CLOCK === "cpu" ? { now: cpuNow } : {};
  return QUICK ? { min_cpu_time: 40e6, min_samples: 4, ...clock } : { min_cpu_time: 400e6, min_samples: 12, ...clock };
}

/**
 * Median nanoseconds per call of `run(input)`, where `fresh()` makes the
 * input. Mitata calls `fresh` before every iteration, outside the timed
 * region, so no contestant ever sees an object twice.
 */
export async function timeFresh(fresh, run, options = {}) {
  const stats = await measure(
    function* () {
      yield { [0]: fresh, bench: run };
    },
    { ...budget(), ...options },
  );
  return stats.p50;
}

/** Median nanoseconds per call of `run()`. */
export async function time(run, options = {}) {
  const stats = await measure(run, { ...budget(), ...options });
  return stats.p50;
}

export function machine() {
  const cpu = cpus();
  return {
    clock: CLOCK,
    node: process.version,
    cpu: cpu[0]?.model ?? "unknown",
    cores: cpu.length,
    load: loadavg()[0].toFixed(2),
    date: new Date().toISOString().slice(0, 10),
  };
}

/** Writes `bench/.build/results[-quick]/<name>.json` for bench/report.mjs. */
export function writeResult(name, data) {
  const dir = `${BENCH}.build/results${QUICK ? "-quick" : ""}/`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}${name}.json`, JSON.stringify({ machine: machine(), quick: QUICK, ...data }, null, 2) + "\n");
}

export const fmt = {
  ms: (ns) => (ns / 1e6 >= 100 ? (ns / 1e6).toFixed(0) : ns / 1e6 >= 10 ? (ns / 1e6).toFixed(1) : (ns / 1e6).toFixed(2)) + " ms",
  us: (ns) => (ns / 1e3 >= 100 ? (ns / 1e3).toFixed(0) : (ns / 1e3).toFixed(1)) + " µs",
  time: (ns) => (ns === null || ns === undefined ? "–" : ns >= 1e6 ? fmt.ms(ns) : fmt.us(ns)),
  ratio: (x) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x >= 100 ? `${x.toFixed(0)}×` : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`),
  long: (ns) => {
    const s = ns / 1e9;
    if (s >= 86400 * 365) return `${(s / (86400 * 365)).toPrecision(2)} years`;
    if (s >= 86400) return `${(s / 86400).toPrecision(2)} days`;
    if (s >= 3600) return `${(s / 3600).toPrecision(2)} hours`;
    return s >= 1 ? `${s.toPrecision(2)} s` : fmt.time(ns);
  },
  bytes: (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`),
};

/** A plain-text table, for the terminal. */
export function printTable(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(all[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of all.slice(1)) console.log(line(r));
}
