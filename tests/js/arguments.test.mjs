// The round trip through the package: every fixture of tests/arguments (the
// same files the Rust suite reads), the argument forms a provider hands over
// (objects and JSON text), tool shapes, schema-library originals, the error
// contract, and the CLI's `restore`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { z } from "zod";
import { pkgDir, root, throwsCode, ts } from "./helpers.mjs";

const dir = `${root}tests/arguments/`;
const fixtures = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

function run(f, args) {
  switch (f.call) {
    case "restore":
      return ts.restoreArguments(args, f.schema, f.target, f.options);
    case "repair":
      return ts.repairArguments(args, f.schema, f.options);
    case "validate":
      return ts.validateArguments(args, f.schema, f.options);
    case "prepare":
      return ts.prepareToolCall(args, { inputSchema: f.schema }, { target: f.target, ...f.options });
    default:
      throw new Error(`unknown call ${f.call}`);
  }
}

describe("argument fixtures through the package", () => {
  assert.ok(fixtures.length >= 30, `expected the argument fixtures, found ${fixtures.length}`);
  for (const name of fixtures) {
    const f = JSON.parse(readFileSync(dir + name, "utf8"));
    test(`${name}: ${f.about}`, () => {
      // A string is read as JSON text, so a fixture whose arguments are a
      // string (JSON sent inside a string) passes that string's JSON text.
      const out = run(f, typeof f.args === "string" ? JSON.stringify(f.args) : f.args);
      const e = f.expect;
      if ("args" in e) assert.equal(JSON.stringify(out.args), JSON.stringify(e.args));
      if ("codes" in e) assert.deepEqual(out.report.diagnostics.map((d) => d.code), e.codes);
      if ("lossy" in e) assert.equal(out.report.lossy, e.lossy);
      if ("messages" in e) assert.deepEqual(out.errors.map((x) => x.message), e.messages);
      if ("valid" in e) assert.equal(out.valid, e.valid);
      if ("ok" in e) assert.equal(out.ok, e.ok);
      // The arguments as JSON text, the way a provider's `arguments` field
      // carries them, give the same result.
      assert.deepEqual(run(f, JSON.stringify(f.args)), out);
    });
  }
});

const search = {
  type: "object",
  properties: { query: { type: "string", minLength: 1 }, limit: { type: "integer", minimum: 1 }, lang: { enum: ["en", "de"] } },
  required: ["query"],
};

describe("prepareToolCall", () => {
  const sent = { query: "rust", limit: "5", lang: null };
  const want = { query: "rust", limit: 5 };
  const shapes = {
    "MCP inputSchema": { name: "search", inputSchema: search },
    "OpenAI Chat function.parameters": { type: "function", function: { name: "search", parameters: search } },
    "OpenAI Responses parameters": { type: "function", name: "search", parameters: search },
    "Anthropic input_schema": { name: "search", input_schema: search },
    "a bare schema": search,
  };
  for (const [label, tool] of Object.entries(shapes)) {
    test(`finds the schema of ${label}`, () => {
      const out = ts.prepareToolCall(sent, tool, { target: "openai-strict" });
      assert.equal(out.ok, true, out.message);
      assert.deepEqual(out.args, want);
      assert.deepEqual(out.report.diagnostics.map((d) => [d.code, d.pointer]), [["null-removed", "/lang"], ["number-parsed", "/limit"]]);
      assert.equal(out.message, undefined);
    });
  }

  test("the target comes from options, else tool.target, else mcp", () => {
    // Only a target that wraps scalar roots unwraps them; grammar backends do not.
    const scalar = { type: "string" };
    assert.equal(ts.prepareToolCall({ value: "a" }, { inputSchema: scalar, target: "google" }).args, "a");
    assert.equal(ts.prepareToolCall({ value: "a" }, { inputSchema: scalar }).args, "a");
    const kept = ts.prepareToolCall({ value: "a" }, { inputSchema: scalar, target: "google" }, { target: "llamacpp" });
    assert.deepEqual(kept.args, { value: "a" });
    assert.equal(kept.ok, false);
  });

  test("a failed call gets one message for the model, with every error", () => {
    const out = ts.prepareToolCall('{"limit": "0", "extra": 1}', { inputSchema: { ...search, additionalProperties: false } });
    assert.equal(out.ok, false);
    assert.deepEqual(out.errors.map((e) => [e.pointer, e.keyword]), [["", "required"], ["/limit", "minimum"], ["/extra", "additionalProperties"]]);
    for (const e of out.errors) assert.ok(out.message.includes(e.message));
    assert.match(out.message, /`limit` must be an integer ≥ 1; you sent 0/);
  });

  test("arguments that are not JSON are the model's to fix: ok false, not an exception", () => {
    const out = ts.prepareToolCall('{"query": "rust",', { inputSchema: search });
    assert.equal(out.ok, false);
    assert.equal(out.args, '{"query": "rust",');
    assert.equal(out.errors[0].keyword, "json");
    assert.match(out.message, /not valid JSON/);
  });

  test("a Zod schema is an original like any other", () => {
    const schema = z.object({ query: z.string(), limit: z.number().int().min(1).optional() });
    const out = ts.prepareToolCall({ query: "q", limit: null }, { inputSchema: schema }, { target: "openai-strict" });
    assert.equal(out.ok, true, out.message);
    assert.deepEqual(out.args, { query: "q" });
  });

  test("arguments that fit come back unchanged, and deep-frozen input is never touched", () => {
    const args = Object.freeze({ query: "x", limit: 3, lang: "en" });
    const out = ts.prepareToolCall(args, Object.freeze({ inputSchema: search }), { target: "openai-strict" });
    assert.deepEqual(out.args, args);
    assert.deepEqual(out.report.diagnostics, []);
    assert.notEqual(out.args, args);
  });
});

describe("the error contract", () => {
  test("an unknown target is unknown-target", () => {
    throwsCode(assert, () => ts.restoreArguments({}, search, "gpt"), "unknown-target");
  });
  test("an unknown option is invalid-options", () => {
    throwsCode(assert, () => ts.validateArguments({}, search, { emptystrings: true }), "invalid-options");
  });
  test("values JSON cannot carry in the arguments are invalid-value at their pointer", () => {
    throwsCode(assert, () => ts.validateArguments({ query: 10n }, search), "invalid-value", "/query");
    throwsCode(assert, () => ts.repairArguments({ query: NaN }, search), "invalid-value", "/query");
  });
  test("arguments nested past maxDepth are too-deep, not a stack overflow", () => {
    let deep = {};
    for (let i = 0; i < 400; i++) deep = { a: deep };
    throwsCode(assert, () => ts.validateArguments(deep, { type: "object" }), "too-deep");
    throwsCode(assert, () => ts.prepareToolCall(JSON.stringify(deep), { type: "object" }), "too-deep");
  });
  test("a self-referencing original and hostile unions end", () => {
    const loop = { $ref: "#", properties: { a: { $ref: "#" } } };
    assert.equal(ts.validateArguments({ a: { a: {} } }, loop).valid, true);
    let nest = { type: "string" };
    for (let i = 0; i < 30; i++) nest = { anyOf: [nest, { $ref: "#/$defs/x" }] };
    const out = ts.validateArguments(5, { ...nest, $defs: { x: { type: "boolean" } } });
    assert.equal(out.valid, false);
  });
});

describe("toolschema restore", () => {
  const work = mkdtempSync(join(tmpdir(), "toolschema-restore-"));
  const schemaFile = join(work, "tool.json");
  writeFileSync(schemaFile, JSON.stringify({ name: "search", inputSchema: search }));
  const cli = (args, input) => spawnSync(process.execPath, [`${pkgDir}cli.mjs`, "restore", ...args], { input, encoding: "utf8" });

  test("prints the prepared arguments and exits 0 when they fit", () => {
    const r = cli(["--target", "openai-strict", "--schema", schemaFile, "--compact", "--report"], '{"query":"a","limit":"2","lang":null}');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { query: "a", limit: 2 });
    assert.match(r.stderr, /null-removed at \/lang/);
  });
  test("exits 1 and says why when they still do not fit", () => {
    const r = cli(["-t", "openai-strict", "--schema", schemaFile], '{"limit":0}');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /required at \/: the arguments are missing the required property `query`/);
  });
  test("exits 2 on a usage error", () => {
    const r = cli(["--schema", schemaFile], "{}");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /restore needs --target/);
  });
});
