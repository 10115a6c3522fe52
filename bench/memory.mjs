// Wasm memory through the package: the size of the instance's linear memory
// (its WebAssembly.Memory buffer) after one 10 MB schema, and over 100,000
// calls on the corpus, with the check that repeated calls do not grow it.
//
//   node --expose-gc bench/memory.mjs [--quick]     (--quick: 1 MB, 5,000 calls)
//
// Linear memory never shrinks, so its size is the high-water mark of
// everything the core ever held at once. A call's allocations are freed when
// it returns; once a pass over the corpus has reached the mark, more calls on
// the same inputs must fit in it: memory after N more calls equals memory
// before them (tests/js/memory.test.mjs holds the same property in seconds).
// The instance is the package's own (pkg/node.mjs), read through the glue it
// uses: initSync() with an instance present returns that instance's exports.
// Cache off, so every call reaches the core.
import { execFileSync } from "node:child_process";
import { QUICK, ROOT, TARGETS, fmt, loadCorpus, loadToolschema, printTable, sizedSchema, writeResult } from "./lib.mjs";

const LARGE = QUICK ? 1e6 : 1e7;
const CALLS = QUICK ? 5_000 : 100_000;
const CHECKPOINTS = 10;

async function packageMemory() {
  const ts = await loadToolschema();
  const glue = await import(new URL("pkg/toolschema_glue.mjs", `file://${ROOT}`).href);
  ts.configureCache({ maxEntries: 0 });
  return { ts, memory: () => glue.initSync().memory };
}

// ---- child: `memory.mjs --large TARGET BYTES` prints {before, after} for one call in a fresh process
if (process.argv.includes("--large")) {
  const [target, bytes] = process.argv.slice(process.argv.indexOf("--large") + 1);
  const { ts, memory } = await packageMemory();
  const schema = sizedSchema(Number(bytes));
  const text = JSON.stringify(schema);
  const before = memory().buffer.byteLength;
  let error = null;
  try {
    ts.normalize(schema, target);
  } catch (err) {
    error = err.code ?? String(err);
  }
  console.log(JSON.stringify({ bytes: text.length, before, after: memory().buffer.byteLength, error }));
  process.exit(0);
}

// ---- one 10 MB schema, per target, each in a fresh process (a fresh instance)
const large = [];
for (const target of TARGETS) {
  const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--large", target, String(LARGE)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  large.push({ target, ...JSON.parse(out.trim().split("\n").at(-1)) });
}

// ---- repeated calls: the corpus × every target, round robin
const { ts, memory } = await packageMemory();
const schemas = loadCorpus().map((e) => e.schema);
const pairs = TARGETS.flatMap((target) => schemas.map((schema) => [schema, target]));
let errors = 0;
const run = (n, from) => {
  for (let i = 0; i < n; i++) {
    const [schema, target] = pairs[(from + i) % pairs.length];
    try {
      ts.normalize(schema, target);
    } catch {
      errors++; // corpus schemas the core rejects (errors with code and pointer) free what they held too
    }
  }
};
const instance = memory();
const atImport = instance.buffer.byteLength;
// Warm-up: one pass over every pair reaches the high-water mark of these inputs.
run(pairs.length, 0);
const afterWarmUp = memory().buffer.byteLength;
const checkpoints = [];
const step = CALLS / CHECKPOINTS;
for (let c = 1; c <= CHECKPOINTS; c++) {
  run(step, pairs.length + (c - 1) * step);
  checkpoints.push({ calls: c * step, bytes: memory().buffer.byteLength });
}
const final = checkpoints.at(-1).bytes;
// A trap would have replaced the instance (js/wasm.mjs), and its memory with it.
const sameInstance = memory() === instance;
const calls = { calls: CALLS, warmUpCalls: pairs.length, schemas: schemas.length, targets: TARGETS, atImport, afterWarmUp, checkpoints, final, errors, sameInstance, grew: final - afterWarmUp };

console.log(`memory: wasm linear memory through the package${QUICK ? " (quick)" : ""}`);
printTable(
  ["one schema, fresh instance", "JSON size", "at import", "after the call", "grown by"],
  large.map((r) => [r.target, fmt.bytes(r.bytes), fmt.bytes(r.before), r.error ? `error ${r.error}` : fmt.bytes(r.after), fmt.bytes(r.after - r.before)]),
);
printTable(
  ["calls after warm-up", "memory"],
  [["0 (at import)", fmt.bytes(atImport)], [`0 (after a warm-up pass of ${pairs.length})`, fmt.bytes(afterWarmUp)], ...checkpoints.map((c) => [c.calls.toLocaleString("en"), fmt.bytes(c.bytes)])],
);
console.log(
  `after ${CALLS.toLocaleString("en")} more calls: ${final === afterWarmUp ? "no growth" : `grew by ${fmt.bytes(final - afterWarmUp)}`}; ${errors} calls answered with an error; ${sameInstance ? "one instance throughout" : "the instance was replaced (a trap)"}`,
);
writeResult("memory", { large, calls });
