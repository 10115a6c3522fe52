// What loading the package costs: the .wasm size, and import + init in a
// fresh Node process (ESM and CommonJS), then the first call.
//
//   node bench/startup.mjs [--quick]
//
// Each sample is a new process timing its own `import()` (or `require`) of
// pkg/: module resolution and parsing, reading the .wasm, compiling it
// synchronously and instantiating it. Median over the samples.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { BENCH, QUICK, ROOT, fmt, median, printTable, writeResult } from "./lib.mjs";

const SAMPLES = QUICK ? 5 : 25;
const wasm = readFileSync(`${ROOT}pkg/toolschema_bg.wasm`);
const size = { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length, brotli: brotliCompressSync(wasm).length };

// What any first import() costs a process (starting the ESM loader), to
// subtract: it is not the package's.
mkdirSync(`${BENCH}.build`, { recursive: true });
writeFileSync(`${BENCH}.build/empty.mjs`, "export {};\n");
const empty = `
const t0 = performance.now();
await import(${JSON.stringify(`${BENCH}.build/empty.mjs`)});
console.log(JSON.stringify({ load: performance.now() - t0, first: 0 }));
`;
const esm = `
const t0 = performance.now();
const ts = await import(${JSON.stringify(`${ROOT}pkg/node.mjs`)});
const t1 = performance.now();
ts.normalizeSchemaForGoogle({ type: "object", properties: { a: { type: ["string", "null"] } } });
const t2 = performance.now();
console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1 }));
`;
const cjs = `
const t0 = performance.now();
const ts = require(${JSON.stringify(`${ROOT}pkg/index.cjs`)});
const t1 = performance.now();
ts.normalizeSchemaForGoogle({ type: "object", properties: { a: { type: ["string", "null"] } } });
const t2 = performance.now();
console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1 }));
`;
// The Module compile alone, the largest single part of the load.
const compile = `
const bytes = require("node:fs").readFileSync(${JSON.stringify(`${ROOT}pkg/toolschema_bg.wasm`)});
const t0 = performance.now();
new WebAssembly.Module(bytes);
console.log(JSON.stringify({ load: performance.now() - t0, first: 0 }));
`;

function sample(args) {
  const runs = [];
  for (let i = 0; i < SAMPLES; i++) runs.push(JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" }).trim()));
  return { load: median(runs.map((r) => r.load)), first: median(runs.map((r) => r.first)), min: Math.min(...runs.map((r) => r.load)) };
}

const rows = {
  empty: sample(["--input-type=module", "-e", empty]),
  esm: sample(["--input-type=module", "-e", esm]),
  cjs: sample(["-e", cjs]),
  compile: sample(["-e", compile]),
};
console.log(`startup: median of ${SAMPLES} fresh processes; wasm ${fmt.bytes(size.raw)} raw, ${fmt.bytes(size.gzip)} gzip -9 (goal ≤ 150 KB), ${fmt.bytes(size.brotli)} brotli`);
printTable(
  ["", "import + init (goal ≤5 ms over an empty module)", "fastest", "first call after"],
  [
    ["ESM import (pkg/node.mjs)", `${rows.esm.load.toFixed(2)} ms`, `${rows.esm.min.toFixed(2)} ms`, `${rows.esm.first.toFixed(2)} ms`],
    ["  less an empty module's import", `${(rows.esm.load - rows.empty.load).toFixed(2)} ms`, "", ""],
    ["CommonJS require (pkg/index.cjs)", `${rows.cjs.load.toFixed(2)} ms`, `${rows.cjs.min.toFixed(2)} ms`, `${rows.cjs.first.toFixed(2)} ms`],
    ["of which: new WebAssembly.Module", `${rows.compile.load.toFixed(2)} ms`, `${rows.compile.min.toFixed(2)} ms`, ""],
  ],
);
writeResult("startup", { samples: SAMPLES, size, ...rows });
