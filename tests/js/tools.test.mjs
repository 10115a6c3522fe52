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
    { type: "function", function: { name: "pair", parameters: { type: "object", properties: { p: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } } } } },
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

test("names a provider refuses are sent valid, mapped back, and the call finds the original tool", () => {
  const schema = { type: "object", properties: { title: { type: "string" }, n: { type: "integer" } }, required: ["title"] };
  const list = [
    { name: "github/create_issue", inputSchema: schema },
    { name: "ok", inputSchema: { type: "object", properties: {} } },
  ];
  const { tools, telemetry } = ts.normalizeTools(list, { target: "openai-strict" });
  assert.equal(tools[0].name, "github_create_issue");
  assert.equal(tools[1].name, "ok");
  assert.deepEqual(telemetry.names, { github_create_issue: "github/create_issue" });
  assert.equal(telemetry.tools[0].providerName, "github_create_issue");
  assert.equal(telemetry.diagnostics[0].code, "tool-name-rewritten");
  assert.equal(telemetry.diagnostics[0].pointer, "/0/name");
  // The model calls the name it was given; the original tool comes back.
  const call = ts.prepareToolCall({ title: "t", n: null }, list, { target: "openai-strict", name: "github_create_issue" });
  assert.equal(call.ok, true, call.message);
  assert.deepEqual(call.args, { title: "t" });
  assert.deepEqual(call.tool, { index: 0, pointer: "/0", name: "github/create_issue" });
  const restored = ts.restoreArguments('{"title": "t", "n": null}', list, "openai-strict", { name: "github_create_issue" });
  assert.deepEqual(restored.args, { title: "t" });
  assert.equal(restored.tool.name, "github/create_issue");
  const unknown = ts.prepareToolCall({}, list, { target: "openai-strict", name: "nope" });
  assert.equal(unknown.ok, false);
  assert.match(unknown.message, /github_create_issue, ok/);
  throwsCode(assert, () => ts.restoreArguments({}, list, "openai-strict", { name: "nope" }), "invalid-options");
});

test("a Zod schema inside a tool is found by the called name", () => {
  const list = [{ name: "fs/read", input_schema: z.object({ path: z.string(), n: z.number().optional() }) }];
  const call = ts.prepareToolCall({ path: "a", n: null }, list, { target: "openai-strict", name: "fs_read" });
  assert.equal(call.ok, true, call.message);
  assert.deepEqual(call.args, { path: "a" });
});

test("Gemini's request shapes are read, every declaration normalized, the shape kept", () => {
  const schema = { type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "string", minLength: 1 } } };
  const expected = ts.normalize(schema, "google").schema;
  const decls = [{ name: "f", parameters: schema }, { name: "g", parametersJsonSchema: z.object({ q: z.string() }) }];
  for (const [list, groupOf] of [
    [[{ functionDeclarations: decls }], (t) => t[0]],
    [{ tools: [{ googleSearch: {} }, { functionDeclarations: decls }] }, (t) => t.tools[1]],
  ]) {
    const { tools, telemetry } = ts.normalizeTools(list, { target: "google" });
    assert.equal(telemetry.toolsSeen, 2);
    assert.equal(telemetry.toolsModified, 2);
    assert.deepEqual(groupOf(tools).functionDeclarations[0].parameters, expected);
    assert.equal(groupOf(tools).functionDeclarations[1].parametersJsonSchema.properties.q.type, "string");
    if (!Array.isArray(list)) assert.deepEqual(tools.tools[0], { googleSearch: {} });
  }
  throwsCode(assert, () => ts.normalizeTools({ tools: [{ functionDeclarations: { name: "f" } }] }, { target: "google" }), "not-a-schema", "/tools/0/functionDeclarations");
  throwsCode(assert, () => ts.normalizeTools(["f"], { target: "google" }), "not-a-schema", "/0");
});

test("llamacpp measures the list and names the tools to drop past its grammar ceiling", () => {
  const tool = (i, size) => ({ type: "function", function: { name: `t${i}`, description: "d".repeat(size), parameters: { type: "object", properties: {} } } });
  const small = ts.normalizeTools([tool(0, 10)], { target: "llamacpp" }).telemetry.listSize;
  assert.equal(small.limit, 97000);
  assert.deepEqual(small.drop, []);
  const big = Array.from({ length: 60 }, (_, i) => tool(i, i === 3 ? 9000 : 1600));
  const { telemetry } = ts.normalizeTools(big, { target: "llamacpp" });
  assert.ok(telemetry.listSize.bytes > 97000);
  assert.equal(telemetry.listSize.drop[0], 3);
  assert.equal(telemetry.diagnostics[0].code, "tool-list-too-large");
  const kept = big.filter((_, i) => !telemetry.listSize.drop.includes(i));
  assert.ok(ts.normalizeTools(kept, { target: "llamacpp" }).telemetry.listSize.bytes <= 97000);
  assert.equal(ts.normalizeTools(big, { target: "ollama" }).telemetry.listSize.limit, undefined);
});

test("a tool passed where a schema is expected is not-a-schema naming the slot", () => {
  const tool = { name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
  for (const target of ["openai-strict", "google", "openai"]) {
    const err = throwsCode(assert, () => ts.normalize(tool, target), "not-a-schema", "");
    assert.match(err.message, /tool\.inputSchema/);
  }
  throwsCode(assert, () => ts.normalizeSchemaForGoogle({ type: "function", function: { name: "f", parameters: {} } }), "not-a-schema");
  throwsCode(assert, () => ts.checkSchema({ name: "f", input_schema: {} }, "anthropic"), "not-a-schema");
});

test("the tools handed out can be edited by the SDK they go to: @google/genai's request path", async () => {
  const http = await import("node:http");
  const { GoogleGenAI } = await import("@google/genai");
  const list = [{ functionDeclarations: [{ name: "lookup", description: "d", parameters: { type: "object", properties: { id: { type: ["string", "null"] } } } }] }];
  const first = ts.normalizeTools(list, { target: "google" });
  const again = ts.normalizeTools(list, { target: "google" });
  // Each call its own wrappers; the schema the cache holds is shared and frozen.
  assert.notEqual(first.tools, again.tools);
  assert.notEqual(first.tools[0].functionDeclarations[0], again.tools[0].functionDeclarations[0]);
  assert.equal(first.tools[0].functionDeclarations[0].parameters, again.tools[0].functionDeclarations[0].parameters);
  assert.ok(Object.isFrozen(first.tools[0].functionDeclarations[0].parameters));
  assert.ok(Object.isFrozen(first.telemetry));
  let body;
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      body = JSON.parse(text);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] } }] }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: `http://127.0.0.1:${server.address().port}` } });
    const answer = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { tools: first.tools } });
    assert.equal(answer.text, "ok");
    const sent = body.tools[0].functionDeclarations[0];
    assert.equal(sent.name, "lookup");
    assert.equal(sent.parameters.properties.id.nullable, true);
  } finally {
    server.close();
  }
  // What the SDK did to its copy is not seen by the next call.
  assert.deepEqual(ts.normalizeTools(list, { target: "google" }).tools[0].functionDeclarations[0].parameters, again.tools[0].functionDeclarations[0].parameters);
});
