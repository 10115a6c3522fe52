// The public API: result shapes, the wrappers' equivalences, invariants that
// must hold for any core (idempotency, output accepted by the target's own
// checker, input never mutated), and the error contract.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { TRIVIAL, root, throwsCode, ts } from "./helpers.mjs";

const DOCUMENTED = ["openai", "openai-strict", "openai-responses", "google", "cca", "mcp"];
const ids = ts.targets().map((t) => t.id);
const tools = JSON.parse(readFileSync(`${root}examples/github-tools-list.json`, "utf8")).result.tools;
const samples = [TRIVIAL, ...tools.slice(0, 8).map((t) => t.inputSchema)];

function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe("version and targets", () => {
  test("version() is the crate version and the package version", () => {
    const cargo = readFileSync(`${root}Cargo.toml`, "utf8").match(/^version = "([^"]+)"/m)[1];
    const pkg = JSON.parse(readFileSync(`${root}pkg/package.json`, "utf8"));
    assert.equal(ts.version(), cargo);
    assert.equal(pkg.version, cargo);
  });

  test("targets() entries have an id, a description and a source", () => {
    const list = ts.targets();
    assert.ok(Array.isArray(list));
    for (const t of list) {
      assert.match(t.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.equal(typeof t.description, "string");
      assert.equal(typeof t.source, "string");
    }
    assert.equal(new Set(list.map((t) => t.id)).size, list.length, "ids are unique");
  });

  test("targets() includes the documented targets", () => {
    const have = ts.targets().map((t) => t.id);
    for (const id of DOCUMENTED) assert.ok(have.includes(id), `missing ${id}`);
  });
});

describe("normalize", () => {
  test("an empty object schema passes through mcp unchanged, with an empty report", () => {
    const result = ts.normalize(TRIVIAL, "mcp");
    assert.deepEqual(result.schema, { type: "object", properties: {} });
    assert.deepEqual(result.report.diagnostics, []);
    assert.equal(result.report.lossy, false);
    assert.equal(result.strict, undefined);
  });

  test("every target answers with the documented shape", () => {
    for (const id of ids) {
      for (const schema of samples) {
        const result = ts.normalize(schema, id);
        assert.ok(typeof result.schema === "object" || typeof result.schema === "boolean", id);
        const { diagnostics, counters, lossy } = result.report;
        assert.equal(typeof lossy, "boolean");
        assert.equal(lossy, diagnostics.some((d) => d.lossy), `${id}: report.lossy is any(diagnostic.lossy)`);
        for (const d of diagnostics) {
          assert.equal(typeof d.code, "string");
          assert.ok(d.pointer === "" || d.pointer.startsWith("/"), d.pointer);
          assert.equal(typeof d.message, "string");
          assert.equal(typeof d.lossy, "boolean");
        }
        for (const n of Object.values(counters)) assert.ok(Number.isInteger(n) && n >= 0);
      }
    }
  });

  test("strict is a boolean exactly for openai-strict, with strictError only when false", () => {
    const strictIds = ts.targets().filter((t) => t.strict).map((t) => t.id);
    assert.ok(strictIds.includes("openai-strict") && strictIds.includes("anthropic-strict"));
    for (const id of ids) {
      for (const schema of samples) {
        const result = ts.normalize(schema, id);
        if (!strictIds.includes(id)) {
          assert.equal(result.strict, undefined, id);
          continue;
        }
        assert.equal(typeof result.strict, "boolean");
        assert.equal(result.strictError !== undefined, result.strict === false);
      }
    }
  });

  test("normalizing twice changes nothing", () => {
    for (const id of ids) {
      for (const schema of samples) {
        const once = ts.normalize(schema, id).schema;
        assert.deepEqual(ts.normalize(once, id).schema, once, `${id} is not idempotent`);
      }
    }
  });

  test("the output passes the target's own checker", () => {
    for (const id of ids) {
      for (const schema of samples) {
        assert.deepEqual(ts.checkSchema(ts.normalize(schema, id).schema, id), [], id);
      }
    }
  });

  test("the input is never mutated (a frozen input works)", () => {
    const input = deepFreeze(structuredClone(tools[0].inputSchema));
    const copy = structuredClone(input);
    for (const id of ids) ts.normalize(input, id);
    assert.deepEqual(input, copy);
  });

  test("JSON text and the object give the same result", () => {
    for (const schema of samples) {
      assert.deepEqual(ts.normalize(JSON.stringify(schema), "google"), ts.normalize(schema, "google"));
    }
  });
});

describe("named wrappers", () => {
  const schema = tools[1].inputSchema;
  test("each equals normalize() for its target", () => {
    assert.deepEqual(ts.normalizeSchemaForGoogle(schema), ts.normalize(schema, "google").schema);
    assert.deepEqual(ts.normalizeSchemaForCCA(schema), ts.normalize(schema, "cca").schema);
    assert.deepEqual(ts.normalizeSchemaForMCP(schema), ts.normalize(schema, "mcp").schema);
    assert.deepEqual(ts.normalizeSchemaForOpenAIResponses(schema), ts.normalize(schema, "openai-responses").schema);
    assert.equal(ts.sanitizeSchemaForOpenAIResponses, ts.normalizeSchemaForOpenAIResponses);
    assert.deepEqual(
      ts.sanitizeSchemaForStrictMode(schema),
      ts.normalize(schema, "openai-strict", { strictStage: "sanitize" }).schema,
    );
  });

  test("normalizeSchema defaults to mcp and takes target and core options", () => {
    assert.deepEqual(ts.normalizeSchema(schema), ts.normalize(schema, "mcp").schema);
    assert.deepEqual(ts.normalizeSchema(schema, { target: "google" }), ts.normalize(schema, "google").schema);
    assert.deepEqual(
      ts.normalizeSchema(schema, { target: "google", spill: "none" }),
      ts.normalize(schema, "google", { spill: "none" }).schema,
    );
  });
});

describe("OpenAI strict", () => {
  const optional = { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] };
  // An enum holding an object cannot be given a type (a scalar enum of
  // several types is split into typed enums instead), so strict fails open.
  const unrepresentable = { type: "object", properties: { v: { enum: [1, "two", { three: 3 }] } }, required: ["v"] };

  test("enforceStrictSchema closes objects and requires every property", () => {
    const strict = ts.enforceStrictSchema(optional);
    assert.equal(strict.additionalProperties, false);
    assert.deepEqual([...strict.required].sort(), ["a", "b"]);
    assert.deepEqual(ts.tryEnforceStrictSchema(optional), { strict: true, schema: strict });
    assert.deepEqual(ts.checkSchema(strict, "openai-strict"), []);
  });

  test("sanitizing is only the first stage: it does not require optional properties", () => {
    const sanitized = ts.sanitizeSchemaForStrictMode(optional);
    assert.ok(!(sanitized.required ?? []).includes("b"));
  });

  test("an unrepresentable schema throws from enforce and fails open from tryEnforce", () => {
    const result = ts.normalize(unrepresentable, "openai-strict");
    assert.equal(result.strict, false);
    const err = throwsCode(assert, () => ts.enforceStrictSchema(unrepresentable), "strict-unrepresentable");
    assert.equal(err.pointer, result.strictError.pointer);
    assert.ok(err.message.includes(result.strictError.message), err.message);
    const open = ts.tryEnforceStrictSchema(unrepresentable);
    assert.equal(open.strict, false);
    assert.deepEqual(open.schema, result.schema);
  });

  test("an enum of scalars of several types goes out strict, one typed enum per type", () => {
    const mixed = { type: "object", properties: { v: { enum: [1, "two", null, 2] } }, required: ["v"] };
    const result = ts.normalize(mixed, "openai-strict");
    assert.equal(result.strict, true);
    assert.deepEqual(result.schema.properties.v, {
      anyOf: [{ type: "integer", enum: [1, 2] }, { type: "string", enum: ["two"] }, { type: "null" }],
    });
    assert.deepEqual(result.report.diagnostics.map((d) => [d.code, d.pointer, d.lossy]), [["enum-split-by-type", "/properties/v", false]]);
    assert.deepEqual(ts.checkSchema(result.schema, "openai-strict"), []);
  });

  test("checkSchema reports what strict mode would reject, with pointers", () => {
    const violations = ts.checkSchema(optional, "openai-strict");
    assert.ok(violations.length > 0);
    for (const v of violations) {
      assert.deepEqual(Object.keys(v).sort(), ["code", "message", "pointer"]);
    }
  });
});

describe("errors", () => {
  test("ToolSchemaError is an Error with code, pointer and message", () => {
    const err = new ts.ToolSchemaError("invalid-json", "/a", "bad");
    assert.ok(err instanceof Error);
    assert.ok(err instanceof ts.ToolSchemaError);
    assert.equal(err.name, "ToolSchemaError");
    assert.deepEqual([err.code, err.pointer, err.message], ["invalid-json", "/a", "bad"]);
    assert.ok(!(new Error("x") instanceof ts.ToolSchemaError));
  });

  test("invalid JSON text", () => {
    throwsCode(assert, () => ts.normalize("{", "mcp"), "invalid-json", "");
  });

  test("a target that is not a string, or options that are not an object", () => {
    throwsCode(assert, () => ts.normalize(TRIVIAL, undefined), "unknown-target");
    throwsCode(assert, () => ts.normalize(TRIVIAL, "mcp", "spill"), "invalid-options");
    throwsCode(assert, () => ts.normalize(TRIVIAL, "mcp", ["spill"]), "invalid-options");
    throwsCode(assert, () => ts.normalizeSchema(TRIVIAL, 3), "invalid-options");
  });

  test("errors from the core: unknown target, unknown option, not a schema, bad JSON in check, too deep", () => {
    throwsCode(assert, () => ts.normalize(TRIVIAL, "no-such-target"), "unknown-target");
    throwsCode(assert, () => ts.checkSchema(TRIVIAL, "no-such-target"), "unknown-target");
    throwsCode(assert, () => ts.normalize(TRIVIAL, "mcp", { noSuchOption: true }), "invalid-options");
    throwsCode(assert, () => ts.normalize(42, "mcp"), "not-a-schema");
    throwsCode(assert, () => ts.checkSchema("{", "mcp"), "invalid-json", "");
    let deep = { type: "string" };
    for (let i = 0; i < 50; i++) deep = { type: "array", items: deep };
    throwsCode(assert, () => ts.normalize(deep, "mcp", { maxDepth: 10 }), "too-deep");
  });
});
