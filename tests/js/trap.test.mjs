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

// The hook is not an export (see js/api.mjs); each build carries its own.
const PANIC = Symbol.for("toolschema.panicForTest");
const panic = (pkg) => pkg.version[PANIC]();

describe("trap recovery", () => {
  test("the panic hook is not part of the public exports", () => {
    assert.equal(typeof ts.version[PANIC], "function");
    assert.deepEqual(Object.keys(ts).filter((name) => name.startsWith("__")), []);
    assert.ok(!Object.keys(ts.version).includes(PANIC.description), "the hook is not an enumerable property");
  });

  test("a panic becomes an internal ToolSchemaError with the trap as its cause", () => {
    const err = quietly(() => throwsCode(assert, () => panic(ts), "internal", ""));
    assert.ok(err.cause instanceof WebAssembly.RuntimeError, String(err.cause));
    assert.match(err.message, /unreachable/);
  });

  test("the trapped instance is replaced by a fresh one (new memory)", () => {
    const before = glue.initSync();
    quietly(() => assert.throws(() => panic(ts)));
    const after = glue.initSync();
    assert.notEqual(after, before);
    assert.notEqual(after.memory, before.memory);
  });

  test("every function works after a trap and answers as before", () => {
    const expected = [ts.normalize(TRIVIAL, "mcp"), ts.targets(), ts.version(), ts.checkSchema(TRIVIAL, "mcp")];
    quietly(() => assert.throws(() => panic(ts)));
    assert.deepEqual([ts.normalize(TRIVIAL, "mcp"), ts.targets(), ts.version(), ts.checkSchema(TRIVIAL, "mcp")], expected);
  });

  test("hundreds of traps in a row leave it working", () => {
    quietly(() => {
      for (let i = 0; i < 300; i++) throwsCode(assert, () => panic(ts), "internal");
    });
    assert.deepEqual(ts.normalize(TRIVIAL, "mcp").schema, TRIVIAL);
  });

  test("the CommonJS build recovers the same way", () => {
    const cjs = createRequire(import.meta.url)(`${pkgDir}index.cjs`);
    const err = quietly(() => throwsCode(assert, () => panic(cjs), "internal"));
    assert.ok(err instanceof cjs.ToolSchemaError && err instanceof ts.ToolSchemaError);
    assert.deepEqual(cjs.normalize(TRIVIAL, "mcp").schema, TRIVIAL);
  });
});
