// A small MCP server over stdio for tests/js/mcp.test.mjs, built with the
// real SDK's McpServer and Zod input schemas: the SDK validates every call's
// arguments against the Zod schema and answers a mismatch with a tool error
// (isError), as any McpServer does. Each answer echoes the arguments the
// tool received and how many calls reached the server.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "issues", version: "1.0.0" });
let calls = 0;
const echo = (args) => ({ content: [{ type: "text", text: JSON.stringify({ calls, args }) }] });

server.registerTool(
  "issues.search",
  {
    description: "Search the issues of a repository",
    inputSchema: {
      query: z.string(),
      labels: z.array(z.string()).optional(),
      limit: z.number().int().min(1).max(50).optional(),
      state: z.enum(["open", "closed"]).optional(),
    },
  },
  async (args) => (calls++, echo(args)),
);

server.registerTool(
  "issues.close",
  {
    description: "Close an issue",
    inputSchema: { number: z.number().int().positive(), reason: z.enum(["completed", "not_planned"]).optional() },
  },
  async (args) => (calls++, echo(args)),
);

await server.connect(new StdioServerTransport());
