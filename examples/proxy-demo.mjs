// `make demo`, last step: the edge proxy end to end over real HTTP on
// 127.0.0.1. A stand-in for a strict-mode model server records the request it
// receives and answers with a tool call shaped the way strict mode makes
// models write them (null for every optional field); toolschema/proxy sits in
// front of it; a client sends an OpenAI Chat request with the bundled tool
// list and gets the call back in the shape the tool declared.
//
//   node examples/proxy-demo.mjs [tools.json]
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createProxy } from "../pkg/proxy.mjs";

const input = process.argv[2] ?? new URL("./github-tools-list.json", import.meta.url);
const list = JSON.parse(readFileSync(input, "utf8"));
const mcpTools = (list.result ?? list).tools;
const tools = mcpTools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));

// The model server: what it received, and a call with null for each optional field.
let received, sentArguments;
const model = createServer(async (req, res) => {
  let text = "";
  for await (const chunk of req) text += chunk;
  received = JSON.parse(text);
  const tool = received.tools[0].function;
  const args = {};
  for (const [name, schema] of Object.entries(tool.parameters.properties ?? {})) {
    const types = [schema.type ?? []].flat();
    args[name] = types.includes("null") || schema.anyOf?.some((b) => b.type === "null") ? null : types.includes("string") ? "toolschema" : types.includes("array") ? [] : 1;
  }
  sentArguments = JSON.stringify(args);
  const call = { id: "call_1", type: "function", function: { name: tool.name, arguments: sentArguments } };
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ id: "demo", object: "chat.completion", choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [call] } }] }));
});

// The proxy, served by node:http through its fetch handler.
const listen = (server) => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)));
const upstream = await listen(model);
const handler = createProxy({ upstream, target: "openai-strict" });
const proxy = createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body: body || undefined }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
});
const base = await listen(proxy);

try {
  const response = await fetch(`${base}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer demo" },
    body: JSON.stringify({ model: "gpt-5", messages: [{ role: "user", content: "Find repositories about wasm" }], tools }),
  });
  const answer = await response.json();
  const strict = received.tools.filter((t) => t.function.strict === true).length;
  const sent = received.tools[0].function;
  const call = answer.choices[0].message.tool_calls[0].function;
  console.log(`proxy demo (toolschema/proxy over HTTP on 127.0.0.1, target ${response.headers.get("x-toolschema-target")}):`);
  console.log(`  ${tools.length} tools sent by the client; the model server received ${strict} with strict: true`);
  console.log(`  ${sent.name}: required ${JSON.stringify(sent.parameters.required)}, optional fields as type [..., "null"]`);
  console.log(`  the model called it with ${sentArguments}`);
  console.log(`  the client received       ${call.arguments}`);
} finally {
  proxy.close();
  model.close();
}
