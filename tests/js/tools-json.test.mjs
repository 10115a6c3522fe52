// normalizeToolsJson: JSON text in, JSON text of the same shape out, for a
// tool list or a whole request body; the same tools as normalizeTools.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { root, throwsCode, ts } from "./helpers.mjs";

const corpusDir = `${root}../shared/corpus/`;
const schemas = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .flatMap((f) => JSON.parse(readFileSync(corpusDir + f, "utf8")).map((e) => e.schema));

const messages = [
  { role: "system", content: "Use the tools. é😀 \"quoted\" \\ back\nslash" },
  { role: "user", content: [{ type: "text", text: "go" }], weights: [1.5, -3, 0] },
];

// One request of each shape per 12 corpus schemas.
function bodies() {
  const out = [];
  for (let at = 0, n = 0; at < schemas.length; at += 12, n++) {
    const group = schemas.slice(at, at + 12);
    const name = (i) => `tool_${n}_${i}`;
    switch (n % 5) {
      case 0:
        out.push({ model: "gpt", messages, tools: group.map((s, i) => ({ type: "function", function: { name: name(i), parameters: s } })) });
        break;
      case 1:
        out.push({ model: "claude", max_tokens: 64, messages, tools: group.map((s, i) => ({ name: name(i), input_schema: s })) });
        break;
      case 2:
        out.push({ contents: messages, tools: [{ googleSearch: {} }, { functionDeclarations: group.map((s, i) => ({ name: name(i), parameters: s })) }] });
        break;
      case 3:
        out.push({ jsonrpc: "2.0", id: 1, result: { tools: group.map((s, i) => ({ name: name(i), inputSchema: s })) } });
        break;
      default:
        out.push(group.map((s, i) => ({ type: "function", name: name(i), parameters: s, strict: true })));
    }
  }
  return out;
}

test("the same tools as normalizeTools, in the same shape, for every target", () => {
  const all = bodies();
  assert.ok(all.length > 30);
  for (const { id } of ts.targets()) {
    for (const body of all) {
      const want = ts.normalizeTools(body, { target: id });
      let telemetry;
      const text = ts.normalizeToolsJson(JSON.stringify(body, null, 2), { target: id, onTelemetry: (t) => (telemetry = t) });
      assert.equal(typeof text, "string");
      assert.equal(text, JSON.stringify(want.tools), id);
      assert.deepEqual(telemetry, want.telemetry, id);
    }
  }
});

test("the messages of a request body go through as they were", () => {
  const deep = "[".repeat(2000) + "]".repeat(2000);
  const body = `{"model":"m","messages":${deep},"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"n":{"type":["integer","null"],"minimum":1}}}}}]}`;
  const out = ts.normalizeToolsJson(body, { target: "google" });
  assert.ok(out.startsWith(`{"model":"m","messages":${deep},"tools":[`));
  const parsed = JSON.parse(out.replace(deep, "[]"));
  assert.deepEqual(parsed.tools[0].function.parameters.properties.n, { type: "integer", nullable: true, minimum: 1 });
});

test("names a provider refuses are rewritten, and the telemetry maps them back", () => {
  let telemetry;
  const out = JSON.parse(ts.normalizeToolsJson(JSON.stringify({ tools: [{ name: "search.web", input_schema: { type: "object" } }] }), {
    target: "anthropic",
    onTelemetry: (t) => (telemetry = t),
  }));
  const sent = out.tools[0].name;
  assert.notEqual(sent, "search.web");
  assert.deepEqual(telemetry.names, { [sent]: "search.web" });
});

test("what it cannot read is a ToolSchemaError with a code", () => {
  throwsCode(assert, () => ts.normalizeToolsJson('{"tools": [', { target: "google" }), "invalid-json");
  throwsCode(assert, () => ts.normalizeToolsJson('{"model": "m", "messages": []}', { target: "google" }), "not-a-schema");
  throwsCode(assert, () => ts.normalizeToolsJson('{"tools": [1]}', { target: "google" }), "not-a-schema", "/tools/0");
  throwsCode(assert, () => ts.normalizeToolsJson({ tools: [] }, { target: "google" }), "invalid-json");
  throwsCode(assert, () => ts.normalizeToolsJson("[]", {}), "invalid-options");
  throwsCode(assert, () => ts.normalizeToolsJson("[]", { target: "google", onTelemetry: 1 }), "invalid-options");
  throwsCode(assert, () => ts.normalizeToolsJson("[]", { target: "nope" }), "unknown-target");
  throwsCode(assert, () => ts.normalizeToolsJson("[]", { target: "google", bogus: 1 }), "invalid-options");
  assert.equal(ts.normalizeToolsJson("[]", { target: "google" }), "[]");
});
