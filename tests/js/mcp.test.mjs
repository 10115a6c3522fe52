// toolschema/mcp against the real MCP SDK: a Client over stdio to a real
// McpServer (tests/js/mcp-server.mjs, Zod input schemas, the SDK's own
// argument validation), wrapped by withToolSchema. The tools it lists pass
// the target's checker, and arguments shaped the way the target made the
// model send them (strict mode's nulls, a JSON-text array, a renamed tool)
// reach the server in the shape it declared, where the unwrapped client's
// identical call is rejected by the server.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { root, throwsCode, ts } from "./helpers.mjs";

const { withToolSchema } = await import(new URL("../../pkg/mcp.mjs", import.meta.url).href);

let client;
before(async () => {
  client = new Client({ name: "toolschema-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [`${root}tests/js/mcp-server.mjs`], cwd: root, stderr: "inherit" }));
});
after(() => client?.close());

// What a model answers under OpenAI strict mode for "open bugs about wasm":
// every optional field present (null when unused), and an array sent as JSON
// text, as models do when a schema's arrays are nullable unions.
const MODEL_ARGS = '{"query": "wasm", "labels": "[\\"bug\\"]", "limit": null, "state": null}';

const echoed = (result) => JSON.parse(result.content[0].text);

describe("withToolSchema over a real MCP server (stdio)", () => {
  test("the server itself rejects the model-shaped arguments", async () => {
    const result = await client.callTool({ name: "issues.search", arguments: JSON.parse(MODEL_ARGS) });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /Input validation error/);
  });

  test("listTools: schemas for OpenAI strict that its checker accepts, names it accepts, the report with them", async () => {
    const mcp = withToolSchema(client, { target: "openai-strict" });
    const { tools, telemetry } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["issues_search", "issues_close"]);
    assert.deepEqual(telemetry.names, { issues_search: "issues.search", issues_close: "issues.close" });
    for (const [i, tool] of tools.entries()) {
      assert.deepEqual(ts.checkSchema(tool.inputSchema, "openai-strict"), [], tool.name);
      assert.equal(telemetry.tools[i].strict, true);
    }
    // Strict mode made every field required, optional ones nullable.
    assert.deepEqual(tools[0].inputSchema.required, ["query", "labels", "limit", "state"]);
    assert.equal(mcp.toolschema.report("issues_search"), telemetry.tools[0]);
    assert.equal(mcp.toolschema.declared("issues_search").inputSchema.required.length, 1);
    // The unwrapped client still lists what the server declared.
    const raw = await client.listTools();
    assert.deepEqual(raw.tools[0].inputSchema.required, ["query"]);
  });

  test("callTool: the model's call, by the name it was shown, reaches the server restored", async () => {
    const mcp = withToolSchema(client, { target: "openai-strict" });
    await mcp.listTools();
    const before = echoed(await client.callTool({ name: "issues.close", arguments: { number: 1 } })).calls;
    const result = await mcp.callTool({ name: "issues_search", arguments: MODEL_ARGS });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(echoed(result), { calls: before + 1, args: { query: "wasm", labels: ["bug"] } });
    // The same as an object, by the server's own name.
    const again = await mcp.callTool({ name: "issues.search", arguments: JSON.parse(MODEL_ARGS) });
    assert.deepEqual(echoed(again).args, { query: "wasm", labels: ["bug"] });
  });

  test("callTool: arguments that cannot fit are refused with a tool error and never sent", async () => {
    const mcp = withToolSchema(client, { target: "openai-strict" });
    const count = async () => echoed(await client.callTool({ name: "issues.close", arguments: { number: 1 } })).calls;
    const before = await count();
    const result = await mcp.callTool({ name: "issues_search", arguments: { query: "wasm", labels: null, limit: 0, state: "stale" } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /`limit` must be an integer between 1 and 50; you sent 0/);
    assert.match(result.content[0].text, /`state`/);
    assert.equal(result.toolschema.ok, false);
    assert.equal(await count(), before + 1, "only the counting call reached the server");
  });

  test("callTool before any listTools: the tool is looked up on the server first", async () => {
    const mcp = withToolSchema(client, { target: "openai-strict" });
    const result = await mcp.callTool({ name: "issues_close", arguments: '{"number": "7", "reason": null}' });
    assert.deepEqual(echoed(result).args, { number: 7 });
    const prepared = await mcp.toolschema.prepare("issues_close", { number: 7, reason: null });
    assert.deepEqual(prepared.args, { number: 7 });
  });

  test("a tool the server does not list goes through untouched, and the server answers for it", async () => {
    const mcp = withToolSchema(client, { target: "openai-strict" });
    const result = await mcp.callTool({ name: "nope", arguments: { a: null } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /Tool nope not found/);
    assert.equal(result.toolschema, undefined, "the answer is the server's");
  });

  test("a route picks the target; other members are the client's own", async () => {
    const mcp = withToolSchema(client, { route: { provider: "google", model: "gemini-2.5-flash" } });
    assert.equal(mcp.toolschema.target, "google");
    const { tools } = await mcp.listTools();
    for (const tool of tools) assert.deepEqual(ts.checkSchema(tool.inputSchema, "google"), [], tool.name);
    assert.equal(mcp.getServerVersion().name, "issues");
    assert.equal("toolschema" in mcp, true);
    assert.equal("toolschema" in client, false);
  });

  test("an in-process server (InMemoryTransport hands over objects with undefined members, not JSON)", async () => {
    const server = new McpServer({ name: "local", version: "1.0.0" });
    server.registerTool("pick", { inputSchema: { n: z.number().int().optional() } }, async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const local = withToolSchema(new Client({ name: "t", version: "1.0.0" }), { target: "openai-strict" });
    await local.connect(clientSide);
    try {
      const raw = await local.callTool({ name: "pick", arguments: { n: "3" } });
      assert.equal(raw.content[0].text, '{"n":3}');
      const { tools } = await local.listTools();
      assert.deepEqual(tools[0].inputSchema.required, ["n"]);
    } finally {
      await local.close();
    }
  });

  test("bad options are a ToolSchemaError at once", () => {
    throwsCode(assert, () => withToolSchema({}, { target: "openai" }), "invalid-options");
    throwsCode(assert, () => withToolSchema(client, {}), "invalid-options");
    throwsCode(assert, () => withToolSchema(client, { target: "openai", route: { provider: "openai" } }), "invalid-options");
    throwsCode(assert, () => withToolSchema(client, { target: "gpt" }), "unknown-target");
    throwsCode(assert, () => withToolSchema(client, { target: "openai", spil: "none" }), "invalid-options");
  });
});
