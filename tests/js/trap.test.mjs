// A wasm trap (here a deliberate Rust panic, which aborts as `unreachable`)
// must surface as ToolSchemaError "internal" and leave the package working.
// Why a fresh instance is needed at all: the trapped instance keeps its
// shadow-stack pointer where the trap left it; measured on this crate, an
// instance reused across traps dies with "memory access out of bounds" after
// about 20,000 of them (far sooner when a trap happens deep in a walk).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, test } from "node:test";
import { TRIVIAL, pkgDir, quietly, throwsCode, ts } from "./helpers.mjs";

// The same module instance pkg/node.mjs uses (ES modules are singletons per
// URL); initSync() with an instance present returns that instance's exports.
const glue = await import(new URL("toolschema_glue.mjs", `file://${pkgDir}`).href);

describe("trap recovery", () => {
  test("a panic becomes an internal ToolSchemaError with the trap as its cause", () => {
    const err = quietly(() => throwsCode(assert, () => ts.__panicForTest(), "internal", ""));
    assert.ok(err.cause instanceof WebAssembly.RuntimeError, String(err.cause));
    assert.match(err.message, /unreachable/);
  });

  test("the trapped instance is replaced by a fresh one (new memory)", () => {
    const before = glue.initSync();
    quietly(() => assert.throws(() => ts.__panicForTest()));
    const after = glue.initSync();
    assert.notEqual(after, before);
    assert.notEqual(after.memory, before.memory);
  });

  test("every function works after a trap and answers as before", () => {
    const expected = [ts.normalize(TRIVIAL, "mcp"), ts.targets(), ts.version(), ts.checkSchema(TRIVIAL, "mcp")];
    quietly(() => assert.throws(() => ts.__panicForTest()));
    assert.deepEqual([ts.normalize(TRIVIAL, "mcp"), ts.targets(), ts.version(), ts.checkSchema(TRIVIAL, "mcp")], expected);
  });

  test("hundreds of traps in a row leave it working", () => {
    quietly(() => {
      for (let i = 0; i < 300; i++) throwsCode(assert, () => ts.__panicForTest(), "internal");
    });
    assert.deepEqual(ts.normalize(TRIVIAL, "mcp").schema, TRIVIAL);
  });

  test("the CommonJS build recovers the same way", () => {
    const cjs = createRequire(import.meta.url)(`${pkgDir}index.cjs`);
    const err = quietly(() => throwsCode(assert, () => cjs.__panicForTest(), "internal"));
    assert.ok(err instanceof cjs.ToolSchemaError && err instanceof ts.ToolSchemaError);
    assert.deepEqual(cjs.normalize(TRIVIAL, "mcp").schema, TRIVIAL);
  });
});
