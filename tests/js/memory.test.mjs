// Repeated calls do not grow the package's wasm memory. Linear memory never
// shrinks, so its size is the high-water mark of what the core held at once;
// a call frees what it allocated when it returns, so once a pass over a set of
// inputs has reached the mark, passes over the same inputs fit in it. A leak
// (a buffer kept per call, an error path that skips a free) grows it pass by
// pass. bench/memory.mjs measures the same over 100,000 calls.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";

// The same module instance pkg/node.mjs uses (ES modules are singletons per
// URL); initSync() with an instance present returns that instance's exports.
const glue = await import(new URL("toolschema_glue.mjs", `file://${pkgDir}`).href);
const memory = () => glue.initSync().memory;

const corpusDir = `${root}../shared/corpus/`;
const schemas = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .flatMap((f) => JSON.parse(readFileSync(corpusDir + f, "utf8")).map((e) => e.schema));
const TARGETS = ["google", "cca", "mcp", "openai-responses", "openai-strict"];

// Every way in that allocates on the Rust side: the object API per target, the
// text API on a request body, and inputs the core rejects (its error paths).
let nested = { type: "string" };
for (let i = 0; i < 300; i++) nested = { type: "object", properties: { a: nested } };
const body = JSON.stringify({ model: "m", tools: schemas.slice(0, 20).map((s, i) => ({ type: "function", function: { name: `t${i}`, parameters: s } })) });
const calls = [
  ...TARGETS.flatMap((target) => schemas.map((schema) => () => ts.normalize(schema, target))),
  ...TARGETS.map((target) => () => ts.normalizeToolsJson(body, { target })),
  () => ts.normalize(nested, "google"), // too-deep
  () => ts.normalize({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, "openai-strict"),
  () => ts.normalizeToolsJson("{not json", { target: "google" }), // invalid-json
];

function pass() {
  let errors = 0;
  for (const call of calls) {
    try {
      call();
    } catch (err) {
      assert.ok(err instanceof ts.ToolSchemaError, String(err));
      assert.notEqual(err.code, "internal", err.message);
      errors++;
    }
  }
  return errors;
}

describe("wasm memory", () => {
  test("passes over the same inputs after a warm-up pass leave memory where it was", () => {
    const { maxEntries } = ts.cacheStats();
    ts.configureCache({ maxEntries: 0 }); // every call reaches the core
    try {
      const instance = memory();
      assert.ok(instance instanceof WebAssembly.Memory);
      // Warm-up: two passes reach the high-water mark of these inputs. The
      // first grows the call region to what the largest call needs; the
      // standard allocator then places the inputs of the second (the request
      // bodies, the larger schemas) around the grown region, which can take
      // a few pages more once (measured: 6.5 MB after the first pass, 7.3 MB
      // after the second and after each of six more). A leak grows every pass.
      pass();
      pass();
      const before = memory().buffer.byteLength;
      let errors = 0;
      for (let i = 0; i < 3; i++) errors += pass();
      const after = memory().buffer.byteLength;
      assert.ok(errors >= 3 * 2, `the error paths ran (${errors} errors)`);
      // A trap would have replaced the instance, and its memory with it (js/wasm.mjs).
      assert.equal(memory(), instance, "one instance throughout");
      assert.equal(after, before, `${3 * calls.length} calls after the warm-up grew wasm memory from ${before} to ${after} bytes`);
    } finally {
      ts.configureCache({ maxEntries });
    }
  });

  test("the reading is live: an input larger than any before grows it", () => {
    // What the test above would see of a leak: memory.buffer follows the
    // instance's growth (a detached or stale buffer would read the same forever).
    const before = memory().buffer.byteLength;
    const big = { type: "object", properties: {} };
    for (let i = 0; i < 40_000; i++) big.properties[`p${i}`] = { type: "string", description: "x".repeat(40) };
    ts.normalize(big, "google"); // 3.3 MB of JSON
    assert.ok(memory().buffer.byteLength > before, `${memory().buffer.byteLength} after, ${before} before`);
  });
});
