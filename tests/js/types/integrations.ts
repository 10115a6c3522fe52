// Compiled by tests/js/integration-types.test.mjs under `strict` against the
// built package and the real @modelcontextprotocol/sdk types. Every
// `@ts-expect-error` must be needed, so the misuses below stay errors.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { PreparedToolCall, ToolReport, ToolsTelemetry } from "toolschema";
import { withToolSchema, type RefusedToolCall, type ToolSchemaMcpClient } from "toolschema/mcp";
import { createProxy, type ProxyOptions, type ToolCallEvent } from "toolschema/proxy";

// --- toolschema/mcp over the SDK's own Client ---------------------------------
const client = new Client({ name: "types", version: "1.0.0" });
const mcp: ToolSchemaMcpClient<Client> = withToolSchema(client, { target: "openai-strict", emptyStrings: true, spill: "none" });
withToolSchema(client, { route: { provider: "google", model: "gemini-2.5-flash" } });

export async function mcpUse(): Promise<void> {
  await mcp.connect(new StdioClientTransport({ command: "node", args: ["server.mjs"] }));
  const listed = await mcp.listTools();
  const telemetry: ToolsTelemetry = listed.telemetry;
  // The SDK's own tool type, schema and all, is kept.
  const tools: Tool[] = listed.tools;
  const cursor: string | undefined = listed.nextCursor;
  const result = await mcp.callTool({ name: "issues_search", arguments: '{"query": "wasm", "limit": null}' });
  // A refused call is a tool error like the server's own; its `toolschema` says why.
  const refused: RefusedToolCall | undefined = result.isError === true && result.toolschema !== undefined ? (result as RefusedToolCall) : undefined;
  console.log(refused?.toolschema.errors[0]?.message);
  await mcp.callTool({ name: "issues_search", arguments: { query: "wasm" } }, undefined, { timeout: 1000 });
  const report: ToolReport | undefined = mcp.toolschema.report("issues_search");
  const prepared = await mcp.toolschema.prepare("issues_search", {});
  if (prepared?.ok) console.log(prepared.args.query);
  const loose: PreparedToolCall | undefined = prepared;
  console.log(mcp.getServerVersion()?.name, mcp.toolschema.target);
  await mcp.close();
  void [telemetry, tools, cursor, report, loose];
}

// @ts-expect-error: a misspelt target id
withToolSchema(client, { target: "openai-strct" });
// @ts-expect-error: a target and a route
withToolSchema(client, { target: "openai", route: { provider: "openai" } });
// @ts-expect-error: neither
withToolSchema(client, {});
// @ts-expect-error: not an MCP client
withToolSchema({ listTools: 1 }, { target: "openai" });

// --- toolschema/proxy -----------------------------------------------------------
const handler: (request: Request) => Promise<Response> = createProxy({ upstream: "http://127.0.0.1:8080", target: "llamacpp" });
const options: ProxyOptions = {
  upstream: new URL("https://api.openai.com"),
  route: { provider: "openai" },
  fetch: (request) => fetch(request),
  onTools: ({ target, telemetry }) => console.log(target, telemetry.toolsModified),
  onToolCall: (event: ToolCallEvent) => {
    if (event.error !== undefined) console.log(event.error.code);
    else if (!event.result.ok) console.log(event.name, event.result.message);
  },
};
createProxy(options);
export const worker = { fetch: handler };

// @ts-expect-error: no upstream
createProxy({ target: "llamacpp" });
// @ts-expect-error: a misspelt target id
createProxy({ upstream: "http://127.0.0.1:8080", target: "llama.cpp" });
