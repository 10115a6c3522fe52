// toolschema/ai-sdk against the real Vercel AI SDK, every supported major
// side by side (devDependencies: `ai5` = ai@5 with LanguageModelV2, `ai6` =
// ai@6 with V3, `ai` = ai@7 with V4). Each runs the SDK's own generateText and
// streamText over wrapLanguageModel with the SDK's own mock model (from
// `ai/test`), which answers with tool calls that fit only the normalized
// schema: the tool's execute must receive the original shape, the request's
// tools must pass the target's checker, and a call that cannot be fixed
// must reach the model as the SDK's invalid-tool-input error.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { pkgDir, ts } from "./helpers.mjs";

const { toolschemaMiddleware, targetForModel } = await import(`${pkgDir}ai-sdk.mjs`);

// The SDK prints every call warning; the tests read them from the results.
globalThis.AI_SDK_LOG_WARNINGS = false;

const VERSIONS = [
  { name: "ai 5 (LanguageModelV2)", pkg: "ai5", mock: "MockLanguageModelV2", spec: "v2" },
  { name: "ai 6 (LanguageModelV3)", pkg: "ai6", mock: "MockLanguageModelV3", spec: "v3" },
  { name: "ai 7 (LanguageModelV4)", pkg: "ai", mock: "MockLanguageModelV4", spec: "v4" },
];

// What an issue search tool declares: optional fields and a bounded integer.
const searchInput = z.object({
  query: z.string(),
  limit: z.number().int().min(1).max(50).optional(),
  labels: z.array(z.string()).optional(),
  state: z.enum(["open", "closed"]).optional(),
});
// A tool whose enum is numeric: Gemini takes string enums only.
const priorityInput = z.object({ title: z.string(), priority: z.union([z.literal(1), z.literal(2), z.literal(3)]) });

function finish(spec) {
  return spec === "v2"
    ? { finishReason: "tool-calls", usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } }
    : {
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
      };
}

/** A mock model of `version` under a provider id and model id, answering `calls` ([toolName, input text]). */
function mockModel(sdk, version, provider, modelId, calls) {
  const Mock = sdk.test[version.mock];
  const { finishReason, usage } = finish(version.spec);
  const toolCalls = calls.map(([toolName, input], i) => ({ type: "tool-call", toolCallId: `call_${i}`, toolName, input }));
  return new Mock({
    provider,
    modelId,
    doGenerate: async () => ({ content: toolCalls, finishReason, usage, warnings: [] }),
    doStream: async () => ({
      stream: sdk.ai.simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          ...toolCalls.flatMap((call) => [
            { type: "tool-input-start", id: call.toolCallId, toolName: call.toolName },
            { type: "tool-input-delta", id: call.toolCallId, delta: call.input },
            { type: "tool-input-end", id: call.toolCallId },
            call,
          ]),
          { type: "finish", finishReason, usage },
        ],
      }),
    }),
  });
}

/** The tools, with every execute recorded. */
function toolset(sdk, version, { strict = false } = {}) {
  const received = [];
  const make = (name, inputSchema) =>
    sdk.ai.tool({
      description: `the ${name} tool`,
      inputSchema,
      // ai 5 has no per-tool strict: @ai-sdk/openai 2 sends providerOptions.openai.strictJsonSchema.
      ...(strict && version.spec !== "v2" ? { strict: true } : {}),
      execute: async (input) => {
        received.push([name, input]);
        return "done";
      },
    });
  return { received, tools: { search_issues: make("search_issues", searchInput), create_task: make("create_task", priorityInput) } };
}

const strictOptions = (version) => (version.spec === "v2" ? { providerOptions: { openai: { strictJsonSchema: true } } } : {});

/** Runs generateText or streamText once; returns the step's content parts. */
async function run(sdk, mode, model, tools, extra = {}) {
  const args = { model, tools, prompt: "Find the open wasm issues", ...extra };
  if (mode === "generate") return (await sdk.ai.generateText(args)).content;
  const result = sdk.ai.streamText(args);
  const parts = [];
  for await (const part of result.fullStream) parts.push(part);
  return parts;
}

for (const version of VERSIONS) {
  const sdk = { ai: await import(version.pkg), test: await import(`${version.pkg}/test`) };
  const wrap = (model, options = {}) => sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model, ...options }) });

  describe(version.name, () => {
    test(`the middleware's version field is the one ${version.pkg} reads`, () => {
      const middleware = toolschemaMiddleware({ model: mockModel(sdk, version, "openai.chat", "gpt-5", []) });
      if (version.spec === "v2") {
        assert.equal(middleware.middlewareVersion, "v2");
        assert.equal(middleware.specificationVersion, undefined);
      } else {
        assert.equal(middleware.specificationVersion, version.spec);
      }
    });

    for (const mode of ["generate", "stream"]) {
      test(`${mode}: OpenAI strict: nulls for optionals and a JSON-text array reach execute in the original shape`, async () => {
        const model = mockModel(sdk, version, "openai.responses", "gpt-5", [["search_issues", '{"query":"wasm","limit":null,"labels":"[\\"bug\\",\\"perf\\"]","state":"open"}']]);
        const { tools, received } = toolset(sdk, version, { strict: true });
        const content = await run(sdk, mode, wrap(model), tools, strictOptions(version));

        assert.deepEqual(received, [["search_issues", { query: "wasm", labels: ["bug", "perf"], state: "open" }]]);
        assert.ok(content.some((p) => p.type === "tool-result" && p.output === "done"));

        // The request: strict schemas the target's checker accepts, with strict kept on.
        const calls = mode === "generate" ? model.doGenerateCalls : model.doStreamCalls;
        assert.equal(calls.length, 1);
        const sent = calls[0].tools.find((t) => t.name === "search_issues");
        assert.deepEqual(ts.checkSchema(sent.inputSchema, "openai-strict"), []);
        assert.deepEqual(sent.inputSchema.required, ["query", "limit", "labels", "state"]);
        assert.equal(sent.inputSchema.additionalProperties, false);
        if (version.spec === "v2") assert.equal(calls[0].providerOptions.openai.strictJsonSchema, true);
        else assert.equal(sent.strict, true);
      });

      test(`${mode}: without the middleware the same call is invalid input (the test above can fail)`, async () => {
        const model = mockModel(sdk, version, "openai.responses", "gpt-5", [["search_issues", '{"query":"wasm","limit":null,"labels":"[\\"bug\\"]","state":null}']]);
        const { tools, received } = toolset(sdk, version, { strict: true });
        const content = await run(sdk, mode, model, tools, strictOptions(version));
        assert.deepEqual(received, []);
        assert.ok(content.some((p) => p.type === "tool-error"));
      });

      test(`${mode}: Gemini: a stringified enum value comes back as the number the tool declared`, async () => {
        const model = mockModel(sdk, version, "google.generative-ai", "gemini-2.5-flash", [["create_task", '{"title":"ship it","priority":"2"}']]);
        const { tools, received } = toolset(sdk, version);
        await run(sdk, mode, wrap(model), tools);
        assert.deepEqual(received, [["create_task", { title: "ship it", priority: 2 }]]);
        const calls = mode === "generate" ? model.doGenerateCalls : model.doStreamCalls;
        for (const tool of calls[0].tools) assert.deepEqual(ts.checkSchema(tool.inputSchema, "google"), [], tool.name);
        assert.deepEqual(calls[0].tools.find((t) => t.name === "create_task").inputSchema.properties.priority.enum, ["1", "2", "3"]);
      });

      test(`${mode}: a call that cannot be fixed reaches the model as the SDK's invalid-tool-input error, with the message for the model`, async () => {
        // Two steps: the bad call, then the model reads the tool's error result.
        const model = mockModel(sdk, version, "openai.responses", "gpt-5", [["search_issues", '{"query":"wasm","limit":0,"labels":null,"state":null}']]);
        const { tools, received } = toolset(sdk, version, { strict: true });
        const content = await run(sdk, mode, wrap(model), tools, { ...strictOptions(version), stopWhen: sdk.ai.stepCountIs(2) });
        assert.deepEqual(received, []);
        assert.ok(content.some((p) => p.type === "tool-error"), JSON.stringify(content.map((p) => p.type)));
        const calls = mode === "generate" ? model.doGenerateCalls : model.doStreamCalls;
        assert.equal(calls.length, 2);
        const [result] = calls[1].prompt.at(-1).content;
        assert.equal(result.type, "tool-result");
        assert.equal(result.output.type, "error-text");
        assert.match(result.output.value, /Invalid input for tool search_issues: /);
        assert.match(result.output.value, /- `limit` must be an integer between 1 and 50; you sent 0/);
      });
    }

    test("Anthropic: non-strict tools go to the anthropic target; the request's schemas pass its checker", async () => {
      const model = mockModel(sdk, version, "anthropic.messages", "claude-sonnet-4-5", [["search_issues", '{"query":"wasm","limit":"5"}']]);
      const { tools, received } = toolset(sdk, version);
      await run(sdk, "generate", wrap(model), tools);
      assert.deepEqual(received, [["search_issues", { query: "wasm", limit: 5 }]]);
      for (const tool of model.doGenerateCalls[0].tools) assert.deepEqual(ts.checkSchema(tool.inputSchema, "anthropic"), [], tool.name);
    });

    test("lossy rewrites are reported: as call warnings and through onReport", async () => {
      const events = [];
      const model = mockModel(sdk, version, "google.generative-ai", "gemini-2.5-flash", [["search_issues", '{"query":"wasm"}']]);
      const { tools } = toolset(sdk, version);
      const result = await sdk.ai.generateText({ model: wrap(model, { onReport: (e) => events.push(e) }), tools, prompt: "x" });
      const warnings = result.warnings ?? result.steps[0].warnings;
      assert.ok(warnings.some((w) => w.type === "other" && /create_task.*lost meaning for google: enum-stringified at \/properties\/priority/.test(w.message)), JSON.stringify(warnings));
      const toolsEvent = events.find((e) => e.type === "tools");
      assert.equal(toolsEvent.target, "google");
      assert.equal(toolsEvent.telemetry.toolsSeen, 2);
      const callEvent = events.find((e) => e.type === "tool-call");
      assert.equal(callEvent.toolName, "search_issues");
      assert.equal(callEvent.prepared.ok, true);
    });
  });
}

describe("OpenAI schemas that are already valid", () => {
  test("pass unchanged (the same object), and their calls are still prepared", async () => {
    const sdk = { ai: await import("ai"), test: await import("ai/test") };
    const version = VERSIONS[2];
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, unit: { type: ["string", "null"], enum: ["c", "f", null] } },
      required: ["city", "unit"],
      additionalProperties: false,
    };
    const received = [];
    const tools = {
      weather: sdk.ai.tool({ inputSchema: sdk.ai.jsonSchema(schema), strict: true, execute: async (input) => void received.push(input) }),
    };
    const model = mockModel(sdk, version, "openai.chat", "gpt-5", [["weather", '{"city":"Oslo","unit":null}']]);
    await sdk.ai.generateText({ model: sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model }) }), tools, prompt: "x" });
    const sent = model.doGenerateCalls[0].tools[0];
    assert.deepEqual(sent.inputSchema, schema);
    assert.equal(sent.strict, true);
    assert.deepEqual(received, [{ city: "Oslo", unit: null }]);
  });
});

describe("strict that cannot be honoured", () => {
  test("ai 7: a tool strict mode cannot express is sent with strict: false and the schema the target accepts", async () => {
    const sdk = { ai: await import("ai"), test: await import("ai/test") };
    const version = VERSIONS[2];
    // An enum holding a string and an object: strict mode needs a type on every node, so it cannot say this.
    const schema = { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } }, kind: { enum: ["a", { b: 1 }] } }, required: ["tags"] };
    const tools = { label: sdk.ai.tool({ inputSchema: sdk.ai.jsonSchema(schema), strict: true, execute: async () => "ok" }) };
    const model = mockModel(sdk, version, "openai.chat", "gpt-5", [["label", '{"tags":{"a":"b"}}']]);
    const result = await sdk.ai.generateText({ model: sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model }) }), tools, prompt: "x" });
    const sent = model.doGenerateCalls[0].tools[0];
    assert.equal(sent.strict, false);
    assert.deepEqual(ts.checkSchema(sent.inputSchema, "openai"), []);
    assert.ok(result.warnings.some((w) => /"label" sent without strict/.test(w.message)), JSON.stringify(result.warnings));
  });

  test("ai 7: an open map goes out strict as {key, value} entries, and execute gets the map", async () => {
    const sdk = { ai: await import("ai"), test: await import("ai/test") };
    const version = VERSIONS[2];
    const schema = { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } } }, required: ["tags"] };
    const got = [];
    const tools = { label: sdk.ai.tool({ inputSchema: sdk.ai.jsonSchema(schema), strict: true, execute: async (args) => (got.push(args), "ok") }) };
    const model = mockModel(sdk, version, "openai.chat", "gpt-5", [["label", '{"tags":[{"key":"team","value":"core"},{"key":"size","value":"S"}]}']]);
    await sdk.ai.generateText({ model: sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model }) }), tools, prompt: "x" });
    const sent = model.doGenerateCalls[0].tools[0];
    assert.equal(sent.strict, true);
    assert.deepEqual(ts.checkSchema(sent.inputSchema, "openai-strict"), []);
    assert.equal(sent.inputSchema.properties.tags.type, "array");
    assert.deepEqual(got, [{ tags: { team: "core", size: "S" } }]);
  });

  test("ai 5: one such tool turns strictJsonSchema off for the call, and every tool is normalized without strict", async () => {
    const sdk = { ai: await import("ai5"), test: await import("ai5/test") };
    const version = VERSIONS[0];
    const map = { type: "object", properties: { tags: { type: "object", additionalProperties: { type: "string" } }, kind: { enum: ["a", { b: 1 }] } }, required: ["tags"] };
    const { tools } = toolset(sdk, version);
    tools.label = sdk.ai.tool({ inputSchema: sdk.ai.jsonSchema(map), execute: async () => "ok" });
    const model = mockModel(sdk, version, "openai.chat", "gpt-5", [["search_issues", '{"query":"wasm"}']]);
    const result = await sdk.ai.generateText({ model: sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model }) }), tools, prompt: "x", ...strictOptions(version) });
    const call = model.doGenerateCalls[0];
    assert.equal(call.providerOptions.openai.strictJsonSchema, false);
    for (const tool of call.tools) assert.deepEqual(ts.checkSchema(tool.inputSchema, "openai"), [], tool.name);
    assert.deepEqual(call.tools.find((t) => t.name === "search_issues").inputSchema.required, ["query"]);
    assert.ok(result.warnings.some((w) => /strictJsonSchema turned off for this call: strict mode cannot express "label"/.test(w.message)), JSON.stringify(result.warnings));
  });

  test("Anthropic strict: tools past the per-request budget of optional parameters go without strict", async () => {
    const sdk = { ai: await import("ai"), test: await import("ai/test") };
    const version = VERSIONS[2];
    // Ten optional fields per tool: the third tool would bring the request to 30 (limit 24).
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { type: "string" }])) };
    const tools = Object.fromEntries(["a", "b", "c"].map((n) => [n, sdk.ai.tool({ inputSchema: sdk.ai.jsonSchema(wide), strict: true, execute: async () => "ok" })]));
    const model = mockModel(sdk, version, "anthropic.messages", "claude-sonnet-4-5", []);
    const result = await sdk.ai.generateText({ model: sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model }) }), tools, prompt: "x" });
    const sent = model.doGenerateCalls[0].tools;
    assert.deepEqual(sent.map((t) => t.strict), [true, true, false]);
    assert.deepEqual(ts.checkSchema(sent[0].inputSchema, "anthropic-strict"), []);
    assert.deepEqual(ts.checkSchema(sent[2].inputSchema, "anthropic"), []);
    assert.ok(result.warnings.some((w) => /"c" sent without strict: .*at most 20 tools, 24 optional/.test(w.message)), JSON.stringify(result.warnings));
  });
});

describe("targetForModel: the AI SDK's provider ids", () => {
  const cases = [
    ["openai.chat", "gpt-5", false, "openai"],
    ["openai.chat", "gpt-5", true, "openai-strict"],
    ["openai.responses", "gpt-5", false, "openai-responses"],
    ["openai.responses", "gpt-5", true, "openai-strict"],
    ["azure.chat", "gpt-5", true, "openai-strict"],
    ["google.generative-ai", "gemini-2.5-flash", false, "google"],
    ["google.vertex.chat", "gemini-2.5-pro", false, "google"],
    ["vertex.anthropic.messages", "claude-sonnet-4-5", false, "anthropic"],
    ["anthropic.messages", "claude-sonnet-4-5", false, "anthropic"],
    ["anthropic.messages", "claude-sonnet-4-5", true, "anthropic-strict"],
    ["amazon-bedrock", "anthropic.claude-sonnet-4-5-v1:0", false, "bedrock"],
    ["xai.chat", "grok-4", false, "xai"],
    ["mistral.chat", "mistral-large-latest", false, "mistral"],
    ["groq.chat", "llama-3.3-70b-versatile", false, "groq"],
    ["deepseek.chat", "deepseek-chat", false, "openai"],
    ["deepseek.chat", "deepseek-chat", true, "deepseek-strict"],
    ["lmstudio.chat", "qwen3-8b", false, "llamacpp"],
    ["ollama.chat", "qwen3", false, "ollama"],
    ["vllm.chat", "qwen3", false, "xgrammar"],
    ["my-server.chat", "qwen3", false, "openai"],
    ["gateway", "anthropic/claude-sonnet-4.5", false, "anthropic"],
    ["gateway", "google/gemini-2.5-flash", false, "google"],
  ];
  for (const [provider, modelId, strict, want] of cases) {
    test(`${provider} ${modelId}${strict ? " strict" : ""} → ${want}`, () => {
      assert.equal(targetForModel({ provider, modelId }, strict), want);
    });
  }

  test("options.target overrides the choice", async () => {
    const sdk = { ai: await import("ai"), test: await import("ai/test") };
    const model = mockModel(sdk, VERSIONS[2], "my-server.chat", "qwen3", []);
    const tools = { t: sdk.ai.tool({ inputSchema: z.object({ a: z.string().regex(/^a+$/) }), execute: async () => "ok" }) };
    await sdk.ai.generateText({ model: sdk.ai.wrapLanguageModel({ model, middleware: toolschemaMiddleware({ model, target: "xgrammar" }) }), tools, prompt: "x" });
    assert.deepEqual(ts.checkSchema(model.doGenerateCalls[0].tools[0].inputSchema, "xgrammar"), []);
  });

  test("a bad specificationVersion is refused with the accepted values", () => {
    assert.throws(() => toolschemaMiddleware({ specificationVersion: "v9" }), /"v2", "v3" or "v4"/);
  });
});
