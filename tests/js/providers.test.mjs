// Issue-5 surface through the package: routing, WordPress compile and lint,
// the per-call keyword list, Anthropic strict budgets through normalizeTools.
import assert from "node:assert/strict";
import { test } from "node:test";
import { throwsCode, ts } from "./helpers.mjs";

test("targetFor picks the target from provider, model and api", () => {
  assert.equal(ts.targetFor({ provider: "google-gemini-cli", model: "claude-sonnet-4-5" }), "cca");
  assert.equal(ts.targetFor({ model: "gemini-2.5-flash" }), "google");
  assert.equal(ts.targetFor({ provider: "openai", api: "responses" }), "openai-responses");
  assert.equal(ts.targetFor({ provider: "anthropic", strict: true }), "anthropic-strict");
  assert.equal(ts.targetFor({}), "openai");
  for (const id of ["cca", "google", "openai-responses", "anthropic-strict", "openai"]) {
    assert.ok(ts.targets().some((t) => t.id === id), id);
  }
  throwsCode(assert, () => ts.targetFor({ modle: "x" }), "invalid-options");
});

test("compileAbilitySchemaForAI keeps WordPress requirements and strips REST-only keywords", () => {
  const ability = {
    type: "object",
    properties: {
      id: { type: "integer", required: true, minimum: 1, context: ["view"] },
      note: { type: "string", readonly: true },
    },
  };
  const out = ts.compileAbilitySchemaForAI(ability, "openai");
  assert.equal(out.strict, true);
  assert.deepEqual(out.schema.required, ["id", "note"]);
  assert.deepEqual(out.schema.properties.id, { type: "integer", description: "{minimum: 1}" });
  assert.deepEqual(out.schema.properties.note, { anyOf: [{ type: "string" }, { type: "null" }] });
  assert.deepEqual(ts.checkSchema(out.schema, "openai-strict"), []);
  const google = ts.compileAbilitySchemaForAI(ability, "google");
  assert.deepEqual(google.schema.required, ["id"]);
  throwsCode(assert, () => ts.compileAbilitySchemaForAI(ability, "bing"), "unknown-target");
});

test("lintSchema points at each authoring problem", () => {
  const lints = ts.lintSchema({ type: "object", properties: { id: { type: "integer", required: true } } });
  assert.deepEqual(lints.map((l) => [l.code, l.pointer]), [
    ["additional-properties-missing", ""],
    ["draft3-required", "/properties/id/required"],
  ]);
  assert.ok(lints.every((l) => l.message.length > 20));
});

test("stripKeywords removes extra keywords on one call", () => {
  const schema = { type: "object", properties: { q: { type: "string", minLength: 2, "x-vendor": 1 } } };
  const out = ts.normalize(schema, "openai", { stripKeywords: ["minLength", "x-vendor"] });
  assert.deepEqual(out.schema.properties.q, { type: "string", description: "{minLength: 2}" });
});

test("Anthropic strict: tools past the request budget are sent without strict, with the reason", () => {
  const tool = (i) => ({
    name: `t${i}`,
    input_schema: { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } },
  });
  const { tools, telemetry } = ts.normalizeTools(Array.from({ length: 10 }, (_, i) => tool(i)), { target: "anthropic-strict" });
  const strict = tools.filter((t) => t.strict === true).length;
  assert.equal(strict, 8, "24 optional parameters / 3 per tool");
  const downgraded = telemetry.tools.filter((t) => t.strict === false);
  assert.equal(downgraded.length, 2);
  for (const t of downgraded) assert.ok(t.report.diagnostics.some((d) => d.code === "strict-budget"));
});
