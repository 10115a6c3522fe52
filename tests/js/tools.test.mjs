// normalizeTools through the package: list shapes kept, strict flags set,
// schema-library instances inside tools converted, telemetry present.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { root, throwsCode, ts } from "./helpers.mjs";
import { z } from "zod";

const github = JSON.parse(readFileSync(`${root}examples/github-tools-list.json`, "utf8"));

test("an MCP tools/list response keeps its shape, every schema normalized", () => {
  const { tools, telemetry } = ts.normalizeTools(github, { target: "google" });
  assert.equal(tools.jsonrpc, github.jsonrpc);
  assert.equal(tools.result.tools.length, github.result.tools.length);
  assert.equal(telemetry.toolsSeen, github.result.tools.length);
  for (const [i, tool] of tools.result.tools.entries()) {
    assert.equal(tool.name, github.result.tools[i].name);
    assert.deepEqual(ts.checkSchema(tool.inputSchema, "google"), [], tool.name);
    assert.deepEqual(tool.inputSchema, ts.normalize(github.result.tools[i].inputSchema, "google").schema);
  }
  for (const name of ["refsInlined", "cyclesPreserved", "refsUnresolved", "sizeCoarsenings", "maxInlineDepthReached",
    "anyofRewrites", "oneofRewrites", "notDrops", "emptyUnionDrops", "unionCoexistenceSkipped"]) {
    assert.equal(typeof telemetry.counters[name], "number", name);
  }
});

test("OpenAI tools get strict set from the outcome", () => {
  const list = [
    { type: "function", function: { name: "ok", parameters: { type: "object", properties: { a: { type: "string" } } } } },
    { type: "function", function: { name: "map", parameters: { type: "object", additionalProperties: { type: "string" } } } },
  ];
  const { tools, telemetry } = ts.normalizeTools(list, { target: "openai-strict" });
  assert.equal(tools[0].function.strict, true);
  assert.equal(tools[1].function.strict, false);
  assert.equal(telemetry.tools[1].strictError.code, "strict-unrepresentable");
});

test("a Zod schema inside a tool is converted like a lone schema", () => {
  const schema = z.object({ q: z.string().min(1), n: z.number().int().optional() });
  const { tools } = ts.normalizeTools([{ name: "search", input_schema: schema }], { target: "google" });
  assert.deepEqual(tools[0].input_schema, ts.normalize(schema, "google").schema);
  assert.equal(tools[0].input_schema.properties.q.type, "string");
});

test("one failing tool is reported, the rest normalized", () => {
  const { tools, telemetry } = ts.normalizeTools(
    [{ name: "bad", inputSchema: [1] }, { name: "good", inputSchema: { type: "object" } }],
    { target: "mcp" },
  );
  assert.deepEqual(tools[0].inputSchema, { type: "object", properties: {} });
  assert.equal(telemetry.tools[0].error.code, "not-a-schema");
  assert.equal(telemetry.tools[1].error, undefined);
  assert.equal(telemetry.lossy, true);
});

test("bad calls are ToolSchemaErrors", () => {
  throwsCode(assert, () => ts.normalizeTools([], {}), "invalid-options");
  throwsCode(assert, () => ts.normalizeTools([], { target: "nope" }), "unknown-target");
  throwsCode(assert, () => ts.normalizeTools({ type: "object" }, { target: "mcp" }), "not-a-schema");
});
