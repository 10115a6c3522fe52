// toolschema/sdk against the real provider clients (`openai`,
// `@anthropic-ai/sdk`, `@google/genai`, devDependencies) pointed at a local
// server on 127.0.0.1 that records each request body and answers with a
// canned provider response holding tool calls. The recorded tools must pass
// the target's checker, and the calls read back from the client's own
// response object must carry arguments in the original schemas' shape.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { pkgDir, throwsCode, ts } from "./helpers.mjs";

const { anthropicTools, geminiTools, openaiChatTools, openaiResponsesTools } = await import(`${pkgDir}sdk.mjs`);

// An MCP tools/list result: optional fields, a bounded integer, a numeric
// enum (Gemini takes strings only), an open map (strict mode sends it as
// entries), an enum of a string and an object (strict mode cannot type it),
// and a name OpenAI and Anthropic refuse (a dot).
const MCP = {
  tools: [
    {
      name: "search_issues",
      description: "Search the issues of a repository",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string" },
          limit: { type: "integer", minimum: 1, maximum: 50 },
          labels: { type: "array", items: { type: "string" } },
          state: { enum: ["open", "closed"] },
        },
        required: ["query"],
      },
    },
    {
      name: "tasks.create",
      inputSchema: { type: "object", properties: { title: { type: "string" }, priority: { enum: [1, 2, 3] } }, required: ["title", "priority"] },
    },
    {
      name: "label",
      inputSchema: { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } }, kind: { enum: ["a", { b: 1 }] } }, required: ["tags"] },
    },
  ],
};

// The server: every request is recorded; the answer is the next canned body.
const requests = [];
let answer = {};
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    requests.push({ method: req.method, url: req.url, body: JSON.parse(body || "null") });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  });
});
let base;
before(async () => {
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => new Promise((ok) => server.close(ok)));

/** Sends one request through `send` with `canned` as the answer; returns the recorded request and the client's response. */
async function roundTrip(canned, send) {
  requests.length = 0;
  answer = canned;
  const response = await send();
  assert.equal(requests.length, 1);
  return { request: requests[0], response };
}

/** `schema` with every `type` name in lower case. */
const lowerTypes = (schema) =>
  Array.isArray(schema)
    ? schema.map(lowerTypes)
    : schema !== null && typeof schema === "object"
      ? Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === "type" && typeof v === "string" ? v.toLowerCase() : lowerTypes(v)]))
      : schema;

const byName = (calls) => Object.fromEntries(calls.map((c) => [c.name, c]));

describe("openai: Chat Completions", () => {
  const client = () => new OpenAI({ apiKey: "test", baseURL: `${base}/v1`, maxRetries: 0 });

  test("strict: the body's tools pass openai-strict (or openai where strict is off), strict set per tool; calls restored", async () => {
    const set = openaiChatTools(MCP, { strict: true });
    const canned = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "gpt-5",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "search_issues", arguments: '{"query":"wasm","limit":null,"labels":"[\\"bug\\"]","state":null}' } },
              { id: "call_2", type: "function", function: { name: "tasks_create", arguments: '{"title":"ship","priority":"2"}' } },
              { id: "call_3", type: "function", function: { name: "search_issues", arguments: '{"query":"wasm","limit":0,"labels":null,"state":null}' } },
            ],
          },
        },
      ],
    };
    const { request, response } = await roundTrip(canned, () => client().chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], tools: set.tools }));
    assert.equal(request.url, "/v1/chat/completions");
    const sent = request.body.tools;
    assert.deepEqual(sent.map((t) => [t.function.name, t.function.strict]), [["search_issues", true], ["tasks_create", true], ["label", false]]);
    for (const { function: f } of sent) assert.deepEqual(ts.checkSchema(f.parameters, f.strict ? "openai-strict" : "openai"), [], f.name);
    assert.equal(set.telemetry.names.tasks_create, "tasks.create");
    assert.equal(set.telemetry.tools[2].strictError.code.length > 0, true);

    const calls = set.calls(response);
    assert.deepEqual(calls.map((c) => [c.id, c.name, c.providerName, c.ok]), [
      ["call_1", "search_issues", "search_issues", true],
      ["call_2", "tasks.create", "tasks_create", true],
      ["call_3", "search_issues", "search_issues", false],
    ]);
    assert.deepEqual(calls[0].args, { query: "wasm", labels: ["bug"] });
    assert.deepEqual(calls[1].args, { title: "ship", priority: 2 });
    assert.match(calls[2].message, /`limit` must be an integer between 1 and 50; you sent 0/);
  });

  test("non-strict: no strict field, the openai target", async () => {
    const set = openaiChatTools(MCP.tools);
    assert.equal(set.target, "openai");
    const { request } = await roundTrip({ id: "x", object: "chat.completion", created: 1, model: "gpt-5", choices: [] }, () =>
      client().chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], tools: set.tools }),
    );
    for (const { function: f } of request.body.tools) {
      assert.equal("strict" in f, false);
      assert.deepEqual(ts.checkSchema(f.parameters, "openai"), [], f.name);
    }
  });

  test("a call to a tool the request did not send is not ok, and says which tools there are", () => {
    const set = openaiChatTools(MCP);
    const [call] = set.calls({ choices: [{ message: { tool_calls: [{ id: "c", type: "function", function: { name: "nope", arguments: "{}" } }] } }] });
    assert.equal(call.ok, false);
    assert.match(call.message, /no tool named "nope"/);
  });
});

describe("openai: Responses", () => {
  test("strict is always set (the API requires it) and true only where strict mode can express the schema", async () => {
    const set = openaiResponsesTools(MCP, { strict: true });
    const canned = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      model: "gpt-5",
      status: "completed",
      output: [
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "search_issues", arguments: '{"query":"wasm","limit":"5","labels":null,"state":"open"}', status: "completed" },
      ],
    };
    const client = new OpenAI({ apiKey: "test", baseURL: `${base}/v1`, maxRetries: 0 });
    const { request, response } = await roundTrip(canned, () => client.responses.create({ model: "gpt-5", input: "hi", tools: set.tools }));
    assert.equal(request.url, "/v1/responses");
    assert.deepEqual(request.body.tools.map((t) => [t.name, t.strict]), [["search_issues", true], ["tasks_create", true], ["label", false]]);
    for (const t of request.body.tools) assert.deepEqual(ts.checkSchema(t.parameters, t.strict ? "openai-strict" : "openai-responses"), [], t.name);
    const [call] = set.calls(response);
    assert.deepEqual([call.id, call.ok, call.args], ["call_1", true, { query: "wasm", limit: 5, state: "open" }]);
  });

  test("non-strict: strict false on every tool, the openai-responses target", () => {
    const set = openaiResponsesTools(MCP);
    assert.equal(set.target, "openai-responses");
    assert.deepEqual(set.tools.map((t) => t.strict), [false, false, false]);
  });
});

describe("@anthropic-ai/sdk: Messages", () => {
  const client = () => new Anthropic({ apiKey: "test", baseURL: base, maxRetries: 0 });
  const message = (content) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content,
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });

  test("strict tool use: the body passes anthropic-strict where strict, anthropic elsewhere; tool_use inputs restored", async () => {
    const set = anthropicTools(MCP, { strict: true });
    const canned = message([
      { type: "text", text: "Searching" },
      { type: "tool_use", id: "toolu_1", name: "search_issues", input: { query: "wasm", limit: "7", labels: "bug" } },
      { type: "tool_use", id: "toolu_2", name: "tasks_create", input: { title: "ship" } },
    ]);
    const { request, response } = await roundTrip(canned, () => client().messages.create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: [{ role: "user", content: "hi" }], tools: set.tools }));
    assert.equal(request.url, "/v1/messages");
    assert.deepEqual(request.body.tools.map((t) => [t.name, t.strict]), [["search_issues", true], ["tasks_create", true], ["label", false]]);
    for (const t of request.body.tools) assert.deepEqual(ts.checkSchema(t.input_schema, t.strict ? "anthropic-strict" : "anthropic"), [], t.name);

    const calls = byName(set.calls(response));
    assert.deepEqual(calls.search_issues.args, { query: "wasm", limit: 7, labels: ["bug"] });
    assert.equal(calls["tasks.create"].ok, false);
    assert.match(calls["tasks.create"].message, /priority/);
  });

  test("the per-request budget: past 24 optional parameters a tool is sent without strict, with the reason", async () => {
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { type: "string" }])) };
    const set = anthropicTools(["a", "b", "c"].map((name) => ({ name, inputSchema: wide })), { strict: true });
    const { request } = await roundTrip(message([]), () => client().messages.create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: [{ role: "user", content: "hi" }], tools: set.tools }));
    assert.deepEqual(request.body.tools.map((t) => t.strict), [true, true, false]);
    assert.ok(set.telemetry.tools[2].report.diagnostics.some((d) => d.code === "strict-budget"));
  });

  test("an OpenAI Chat tool list converts too", () => {
    const set = anthropicTools([{ type: "function", function: { name: "f", description: "d", parameters: { type: "object", properties: { a: { type: "string" } } } } }]);
    assert.deepEqual(set.tools.map((t) => [t.name, t.description, t.input_schema.properties]), [["f", "d", { a: { type: "string" } }]]);
    assert.deepEqual(ts.checkSchema(set.tools[0].input_schema, "anthropic"), []);
  });
});

describe("@google/genai: generateContent", () => {
  const client = () => new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: base } });
  const canned = (parts) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] });

  test("Gemini: functionDeclarations on parametersJsonSchema, the google target; stringified enums come back typed", async () => {
    const set = geminiTools(MCP);
    assert.equal(set.target, "google");
    const parts = [{ functionCall: { id: "fc1", name: "tasks.create", args: { title: "ship", priority: "3" } } }, { functionCall: { name: "search_issues", args: { query: "wasm", state: "closed" } } }];
    const { request, response } = await roundTrip(canned(parts), () =>
      client().models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { tools: set.tools } }),
    );
    assert.match(request.url, /gemini-2\.5-flash:generateContent/);
    const declarations = request.body.tools[0].functionDeclarations;
    assert.deepEqual(declarations.map((d) => d.name), ["search_issues", "tasks.create", "label"]);
    for (const d of declarations) {
      assert.equal(d.parameters, undefined);
      assert.deepEqual(ts.checkSchema(d.parametersJsonSchema, "google"), [], d.name);
    }
    const calls = byName(set.calls(response));
    assert.deepEqual(calls["tasks.create"].args, { title: "ship", priority: 3 });
    assert.equal(calls["tasks.create"].id, "fc1");
    assert.deepEqual(calls.search_issues.args, { query: "wasm", state: "closed" });
    // The SDK's own accessor gives the same calls.
    assert.deepEqual(set.calls(response.functionCalls).map((c) => c.args), set.calls(response).map((c) => c.args));
  });

  test("Claude behind Cloud Code Assist: the cca target on the legacy parameters field", async () => {
    const set = geminiTools(MCP, { model: "claude-sonnet-4-5" });
    assert.equal(set.target, "cca");
    const { request } = await roundTrip(canned([{ text: "ok" }]), () => client().models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { tools: set.tools } }));
    // On `parameters` the SDK writes the proto's type names (OBJECT,
    // STRING: processJsonSchema); that is the only change it makes.
    // (It edits the list it was given, so compare with a fresh conversion.)
    const expected = geminiTools(MCP, { model: "claude-sonnet-4-5" }).tools[0].functionDeclarations;
    request.body.tools[0].functionDeclarations.forEach((d, i) => {
      assert.equal(d.parametersJsonSchema, undefined);
      assert.match(d.parameters.type, /^OBJECT$/);
      const sent = lowerTypes(d.parameters);
      assert.deepEqual(sent, expected[i].parameters, d.name);
      assert.deepEqual(ts.checkSchema(sent, "cca"), [], d.name);
    });
  });

  test("a bad field is an invalid-options error", () => {
    throwsCode(assert, () => geminiTools(MCP, { field: "schema" }), "invalid-options");
  });
});

describe("inputs", () => {
  test("a list with no list shape is not-a-schema; a tool without a name points at it", () => {
    throwsCode(assert, () => openaiChatTools(42), "not-a-schema");
    throwsCode(assert, () => openaiChatTools([{ inputSchema: { type: "object" } }]), "not-a-schema", "/0");
  });

  test("Anthropic and Gemini lists convert to OpenAI, keeping names and descriptions", () => {
    const fromAnthropic = openaiChatTools([{ name: "a", description: "A", input_schema: { type: "object", properties: {} } }]);
    assert.deepEqual(fromAnthropic.tools[0].function, { name: "a", description: "A", parameters: { type: "object", properties: {} } });
    const fromGemini = openaiResponsesTools([{ functionDeclarations: [{ name: "g", parametersJsonSchema: { type: "object", properties: { x: { type: "number" } } } }] }]);
    assert.equal(fromGemini.tools[0].name, "g");
    assert.deepEqual(fromGemini.tools[0].parameters.properties.x, { type: "number" });
  });
});
